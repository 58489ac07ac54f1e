// The user's calibrations of their own cards ("calibrations" in their data, issue 33): each term within the bounds
// engine/calibration.h gives, one record per card of the merged catalog.
#include "catalog/catalog_records.h"

#include "engine/calibration.h"
#include "engine/workload.h"

namespace gg::catalog::records {
namespace {

// --- The user's calibrations (issue 33) -----------------------------------------------------------------------
// "calibrations": [{"id", "gpu", "as_of", "cuda_context_bytes"?, "fragmentation_fraction"?, "speed"?: [{"family",
// "efficiency_factor"}], "measured"?: {"model", "nvidia_smi_bytes", "peak_allocated_bytes", "peak_reserved_bytes",
// "samples_per_s"}}]: each term within the bounds engine/calibration.h gives (a value outside them is refused, not
// clamped: it came from a file, not from the attribution). One record per card; the card must be in the catalog.
bool known_family_name(const std::string& name) {
    using engine::Family;
    for (Family f : {Family::kResNet, Family::kVgg, Family::kMobileNetV2, Family::kEfficientNetB0, Family::kVit,
                     Family::kEncoder, Family::kDecoder, Family::kUnet, Family::kYolo, Family::kSdUnet,
                     Family::kBiLstmCrf})
        if (name == engine::family_name(f)) return true;
    return false;
}

}  // namespace

void read_calibrations(const Context& context, const json& list, const std::string& pointer, Catalog& merged) {
    Ids ids;
    std::set<std::string> cards;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = child(pointer, i);
        const json& record = list[i];
        if (!record.is_object()) {
            context.report(at, std::string("each calibration must be an object, not ") + type_name(record));
            continue;
        }
        Reader r(context, record, at);
        const std::optional<std::string> id = r.id("id", Need::Always);
        const std::optional<std::string> gpu = r.id("gpu", Need::Always);
        r.date("as_of", Need::Always);
        engine::CardCalibration c;
        if (auto v = r.number("cuda_context_bytes", Need::Optional,
                              {engine::kCalibrationContextMinBytes, engine::kCalibrationContextMaxBytes, "bytes",
                               "the CUDA context nvidia-smi adds (256 MiB to 3 GiB)"}))
            c.cuda_context_bytes = *v;
        if (auto v = r.number("fragmentation_fraction", Need::Optional,
                              {0, engine::kCalibrationFragmentationMax, "",
                               "the caching allocator's reserved / allocated - 1"}))
            c.fragmentation_fraction = *v;
        if (const json* speed = r.array("speed", Need::Optional)) {
            for (std::size_t k = 0; k < speed->size(); ++k) {
                const std::string sat = child(child(at, "speed"), k);
                if (!(*speed)[k].is_object()) {
                    r.report(sat, std::string("must be an object, not ") + type_name((*speed)[k]));
                    continue;
                }
                Reader sr(context, (*speed)[k], sat);
                const std::optional<std::string> family = sr.text("family", Need::Always);
                const std::optional<double> factor =
                    sr.number("efficiency_factor", Need::Always,
                              {engine::kCalibrationFactorMin, engine::kCalibrationFactorMax, "",
                               "measured / estimated speed of the card's own work"});
                if (family && !known_family_name(*family)) {
                    sr.report_key("family", "\"" + printable(*family, 40) + "\" is not a model family gpuguide knows");
                }
                if (family && std::any_of(c.speed.begin(), c.speed.end(),
                                          [&](const engine::CardCalibration::Speed& x) { return x.family == *family; }))
                    sr.report_key("family", "\"" + *family + "\" is calibrated twice for this card");
                sr.finish();
                r.absorb(sr);
                if (sr.ok() && family && factor) c.speed.push_back({*family, *factor});
            }
        }
        if (const json* m = r.object("measured", Need::Optional)) {
            Reader mr(context, *m, child(at, "measured"));
            mr.text("model", Need::Optional);
            for (const char* key : {"nvidia_smi_bytes", "peak_allocated_bytes", "peak_reserved_bytes"})
                mr.number(key, Need::Optional, {1, 1e13, "bytes", ""});
            mr.number("samples_per_s", Need::Optional, {1e-6, 1e9, "samples/s", ""});
            mr.finish();
            r.absorb(mr);
        }
        r.finish();
        if (!id || !gpu) continue;
        if (!claim_id(context, ids, *id, at)) continue;
        if (!r.ok()) continue;
        if (!c.any()) {
            context.report(at, "calibrates nothing: give cuda_context_bytes, fragmentation_fraction or speed");
            continue;
        }
        if (!cards.insert(*gpu).second) {
            context.report(child(at, "gpu"), "GPU \"" + *gpu + "\" has a calibration already (one per card)");
            continue;
        }
        auto it = std::find_if(merged.gpus.begin(), merged.gpus.end(),
                               [&](const engine::GpuSpec& g) { return g.id == *gpu; });
        if (it == merged.gpus.end()) {
            context.report(child(at, "gpu"), "unknown GPU \"" + *gpu +
                                                 "\": a calibration is for a card in the catalog or in your own data");
            continue;
        }
        it->calibration = std::move(c);
    }
}

}  // namespace gg::catalog::records
