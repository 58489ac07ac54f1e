// GPU records (data/gpus.json and the user's own cards) read into engine::GpuSpec in base units: the one place where
// a card's data units become base units. The format and the meaning of each check: docs/catalog.md.
#include "catalog/catalog_records.h"

#include <cctype>

#include "engine/hardware.h"

namespace gg::catalog::records {
namespace {

// "8.9" -> {8, 9}
bool parse_compute_capability(const std::string& text, int& major, int& minor) {
    const auto dot = text.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 >= text.size() || dot > 2 || text.size() - dot - 1 > 2)
        return false;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (i != dot && (text[i] < '0' || text[i] > '9')) return false;
    major = std::stoi(text.substr(0, dot));
    minor = std::stoi(text.substr(dot + 1));
    return major >= 1;
}

// AMD CDNA generation from the architecture name ("CDNA 3", "CDNA3"); 0 when not CDNA.
int cdna_generation(const std::string& architecture) {
    std::string lower;
    for (char c : architecture) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto at = lower.find("cdna");
    if (at == std::string::npos) return 0;
    std::size_t i = at + 4;
    while (i < lower.size() && (lower[i] == ' ' || lower[i] == '-')) ++i;
    return i < lower.size() && lower[i] >= '1' && lower[i] <= '9' ? lower[i] - '0' : 0;
}

// Dense peak rates. Order rules: NVIDIA whitepapers (Ampere GA100 Table 3, Ada AD102 Appendix A, Hopper H100
// Table 2) list tensor FP16 >= FP32, FP16-accumulate >= FP32-accumulate, TF32/BF16 from Ampere (CC 8.0),
// FP8 from Ada (CC 8.9) and Hopper (9.0); AMD lists FP8 from CDNA 3 (MI300 ISA guide).
void read_dense_tflops(const Context& context, Reader& r, const std::string& pointer, engine::GpuSpec& g) {
    if (const json* dense = r.object("dense_tflops", Need::Always)) {
        Reader d(context, *dense, child(pointer, "dense_tflops"));
        const Range rate{0.01, 20000, "TFLOPS", "give dense (no-sparsity) TFLOPS; null when unsupported"};
        auto& f = g.dense_flop_per_s;
        // fp32 may be null only when no source publishes it (e.g. AWS's A10G): the GPU then serves memory checks
        // and offers, and gets a time estimate only from measured GEMMs (engine::rates_for_time).
        if (auto v = d.number("fp32", Need::BundledOrNull, {0.5, 200, "TFLOPS", "give FP32 TFLOPS, not GFLOPS"}))
            f.fp32 = to_base(*v, kFlopPerTflop);
        if (auto v = d.number("tf32", Need::BundledOrNull, rate)) f.tf32 = to_base(*v, kFlopPerTflop);
        if (auto v = d.number("fp16", Need::BundledOrNull, rate)) f.fp16 = to_base(*v, kFlopPerTflop);
        if (auto v = d.number("fp16_fp16acc", Need::BundledOrNull, rate)) f.fp16_fp16acc = to_base(*v, kFlopPerTflop);
        if (auto v = d.number("bf16", Need::BundledOrNull, rate)) f.bf16 = to_base(*v, kFlopPerTflop);
        if (auto v = d.number("fp8", Need::BundledOrNull, rate)) f.fp8 = to_base(*v, kFlopPerTflop);
        if (auto v = d.number("int8", Need::BundledOrNull, rate)) f.int8 = to_base(*v, kFlopPerTflop);
        d.finish();
        if (d.ok()) {
            const std::string& p = d.pointer();
            const int cc = g.compute_capability_major * 100 + g.compute_capability_minor;  // 8.9 -> 809
            const bool nvidia_known_cc = g.vendor == "nvidia" && cc > 0;
            const bool tensor_cores = f.tf32 > 0 || (nvidia_known_cc && cc >= 700);
            if (tensor_cores && f.fp16 > 0 && f.fp16 < f.fp32)
                d.report(child(p, "fp16"), "tensor FP16 (" + fmt(f.fp16 / kFlopPerTflop) + ") is below FP32 (" +
                                               fmt(f.fp32 / kFlopPerTflop) +
                                               ") on a card with tensor cores: check for a GFLOPS/TFLOPS or "
                                               "sparse/dense mix-up");
            if (f.fp16_fp16acc > 0 && f.fp16 > 0 && f.fp16_fp16acc < f.fp16)
                d.report(child(p, "fp16_fp16acc"),
                         "FP16-accumulate (" + fmt(f.fp16_fp16acc / kFlopPerTflop) +
                             ") is below FP32-accumulate fp16 (" + fmt(f.fp16 / kFlopPerTflop) +
                             "): the two may be swapped (GeForce: fp16 is half of fp16_fp16acc)");
            // GeForce (Turing and later) runs FP16 tensor math with FP32 accumulate at half the FP16-accumulate
            // rate; workstation and datacenter cards run both at full rate. Sources: NVIDIA Ada GPU Architecture
            // whitepaper v2.02, Appendix A (RTX 4090: 165.2 vs 330.3 TFLOPS; RTX 6000 Ada: equal); Quadro RTX 6000
            // datasheet footnote "FP16 matrix multiply with FP16 or FP32 accumulate" (one rate). Catches the most
            // copied error: the FP16-accumulate (or sparse) figure written as the training rate.
            if (nvidia_known_cc && cc >= 705 && f.fp16 > 0 && f.fp16_fp16acc > 0) {
                const bool geforce = g.segment == "consumer";
                const double expected_ratio = geforce ? 2.0 : 1.0;
                const double ratio = f.fp16_fp16acc / f.fp16;
                if (std::fabs(ratio - expected_ratio) > 0.01 * expected_ratio)
                    d.report(child(p, "fp16"),
                             "fp16_fp16acc / fp16 is " + fmt(ratio) + "; expected " + fmt(expected_ratio) +
                                 (geforce ? " on a GeForce card (FP32-accumulate runs at half rate)"
                                          : " on a workstation/datacenter card (both accumulates run at full rate)") +
                                 ": fp16 is the FP32-accumulate dense rate");
            }
            if (nvidia_known_cc && cc < 800 && f.bf16 > 0)
                d.report(child(p, "bf16"), "must be null: BF16 tensor cores start with Ampere (compute capability 8.0)");
            if (nvidia_known_cc && cc < 800 && f.tf32 > 0)
                d.report(child(p, "tf32"), "must be null: TF32 tensor cores start with Ampere (compute capability 8.0)");
            if (f.fp8 > 0) {
                const bool nvidia_fp8 = nvidia_known_cc && cc >= 809;
                const bool amd_fp8 = g.vendor == "amd" && cdna_generation(g.architecture) >= 3;
                const bool unknown = g.vendor.empty() || (g.vendor == "nvidia" && cc == 0);
                if (!nvidia_fp8 && !amd_fp8 && !unknown)
                    d.report(child(p, "fp8"), "must be null: FP8 tensor rates exist only from compute capability 8.9 "
                                              "(Ada, Hopper, Blackwell) and AMD CDNA 3 (MI300)");
            }
        }
        r.absorb(d);
    }
}

// What nvidia-smi shows as the total (MiB, as it prints it), in the ECC state of that reading (engine/card_memory.h).
void read_visible_memory(const Context& context, Reader& r, const std::string& pointer, engine::GpuSpec& g) {
    if (const json* visible = r.object("visible_memory", Need::BundledOrNull)) {
        Reader s(context, *visible, child(pointer, "visible_memory"));
        // At most the datasheet size; at least 15/16 of it less 1%: ECC's share and the driver's few MiB. Without a
        // valid memory_gib (reported there) only memory_gib's own range applies.
        const double datasheet_mib = g.memory_bytes > 0 ? g.memory_bytes / double(1 << 20) : 512.0 * 1024;
        const Range mib{g.memory_bytes > 0 ? datasheet_mib * 15 / 16 * 0.99 : 1024.0 * 15 / 16 * 0.99, datasheet_mib,
                        "MiB", "give nvidia-smi's total as printed (\"15360MiB\" is 15360)"};
        double total_mib = 0;
        if (auto v = s.number("total_mib", Need::Always, mib)) total_mib = *v;
        if (auto v = s.boolean("ecc_on", Need::Always)) {
            g.visible_memory_ecc_on = *v;
            if (*v && !g.ecc) s.report_key("ecc_on", "must be false on a card without ECC");
        }
        if (auto v = s.text("source", Need::Always)) g.visible_memory_source = *v;
        if (auto v = s.date("as_of", Need::Always)) g.visible_memory_as_of = *v;
        s.finish();
        if (s.ok()) g.visible_memory_bytes = total_mib * double(1 << 20);  // MiB -> bytes, where the data enters
        r.absorb(s);
    }
}

void read_street_price(const Context& context, Reader& r, const std::string& pointer, engine::GpuSpec& g) {
    if (const json* street = r.object("street_price_cny", Need::BundledOrNull)) {
        Reader s(context, *street, child(pointer, "street_price_cny"));
        const Range cny{100, 5000000, "CNY", "give the price of one card in CNY"};
        if (auto v = s.number("new", Need::BundledOrNull, cny)) g.street_price.new_cny = *v;
        if (auto v = s.number("used", Need::BundledOrNull, cny)) g.street_price.used_cny = *v;
        if (auto v = s.date("as_of", Need::Always)) g.street_price.as_of = *v;
        if (auto v = s.text("source", Need::Always)) g.street_price.source = *v;
        s.finish();
        if (s.ok() && g.street_price.new_cny == 0 && g.street_price.used_cny == 0)
            s.report(s.pointer(), "gives neither a new nor a used price: set street_price_cny to null instead");
        r.absorb(s);
    }
}

std::optional<engine::GpuSpec> parse_gpu(const Context& context, const json& record, const std::string& pointer) {
    if (!record.is_object()) {
        context.report(pointer, std::string("each GPU must be an object, not ") + type_name(record));
        return std::nullopt;
    }
    Reader r(context, record, pointer);
    engine::GpuSpec g;
    // Key order follows the documented format (docs/catalog.md).
    if (auto v = r.id("id", Need::Always)) g.id = *v;
    if (auto v = r.text("name", Need::Always)) g.name = *v;
    if (auto v = r.choice("vendor", Need::Bundled, {"nvidia", "amd"})) g.vendor = *v;
    if (auto v = r.choice("segment", Need::Bundled, {"consumer", "workstation", "datacenter"})) g.segment = *v;
    if (auto v = r.text("architecture", Need::Bundled)) g.architecture = *v;
    if (auto v = r.text("compute_capability", Need::BundledOrNull)) {
        if (!parse_compute_capability(*v, g.compute_capability_major, g.compute_capability_minor))
            r.report_key("compute_capability", "\"" + *v + "\" is not a CUDA compute capability: write e.g. \"8.9\"");
        else if (g.vendor == "amd")
            r.report_key("compute_capability", "must be null for AMD GPUs (CUDA compute capability is NVIDIA's)");
    } else if (g.vendor == "nvidia" && context.mode == Mode::Bundled && record.contains("compute_capability") &&
               record["compute_capability"].is_null()) {
        r.report_key("compute_capability", "is required for NVIDIA GPUs: write e.g. \"8.9\" (see "
                                           "https://developer.nvidia.com/cuda-gpus)");
    }
    if (auto v = r.whole("launch_year", Need::Bundled, {2010, 2030, "", ""})) g.launch_year = *v;
    if (auto v = r.number("memory_gib", Need::Always,
                          {1, 512, "GiB", "give the capacity in GiB as the vendor states it (24 for a 24 GB card)"}))
        g.memory_bytes = to_base(*v, engine::kBytesPerGiB);
    if (auto v = r.text("memory_type", Need::Bundled)) g.memory_type = *v;
    if (auto v = r.number("memory_bandwidth_gb_per_s", Need::Always,
                          {50, 20000, "GB/s", "give the memory bandwidth in decimal GB/s (NVLink is a separate key)"}))
        g.memory_bandwidth_bytes_per_s = to_base(*v, kBytesPerGb);

    read_dense_tflops(context, r, pointer, g);
    if (auto v = r.number("tdp_w", Need::BundledOrNull, {20, 2000, "W", "give board power in watts; null if unpublished"}))
        g.tdp_w = *v;
    if (auto v = r.choice("form_factor", Need::Bundled, {"pcie", "sxm", "oam"})) g.form_factor = *v;
    if (auto v = r.whole("pcie_gen", Need::BundledOrNull, {1, 6, "", ""})) g.pcie_gen = *v;
    if (auto v = r.whole("pcie_lanes", Need::BundledOrNull, {1, 16, "lanes", ""})) g.pcie_lanes = *v;
    if (auto v = r.number("nvlink_gb_per_s", Need::BundledOrNull,
                          {1, 20000, "GB/s", "total bidirectional GB/s per GPU; null when there is none"}))
        g.nvlink_bytes_per_s = to_base(*v, kBytesPerGb);
    if (auto v = r.boolean("ecc", Need::Bundled)) g.ecc = *v;
    if (auto v = r.boolean("ecc_on_by_default", Need::Bundled)) {
        g.ecc_on_by_default = *v;
        if (g.ecc_on_by_default && !g.ecc) r.report_key("ecc_on_by_default", "must be false on a card without ECC");
    }
    read_visible_memory(context, r, pointer, g);
    if (auto v = r.boolean("laptop", Need::Optional)) g.laptop = *v;
    if (g.laptop && g.form_factor != "pcie")
        r.report_key("laptop", "a laptop GPU sits on the laptop's PCIe bus: its form_factor must be \"pcie\"");
    if (auto v = r.number("launch_price_usd", Need::BundledOrNull,
                          {50, 500000, "USD", "null when there is no public list price"}))
        g.launch_price_usd = *v;
    read_street_price(context, r, pointer, g);
    g.notes = r.strings("notes", Need::BundledOrNull);
    if (auto v = r.text("source", Need::Bundled)) g.source = *v;
    if (auto v = r.date("as_of", Need::Bundled)) g.as_of = *v;
    r.finish();
    if (!r.ok()) return std::nullopt;
    return g;
}

}  // namespace

// Reads the "gpus" array of a document. Ids already in `ids` (from this file) are duplicates.
void read_gpus(const Context& context, const json& list, const std::string& pointer, Ids& ids,
               std::vector<engine::GpuSpec>& out) {
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = child(pointer, i);
        const json& record = list[i];
        std::optional<engine::GpuSpec> gpu = parse_gpu(context, record, at);
        const std::string id = gpu ? gpu->id : written_id(record);
        if (!claim_id(context, ids, id, at)) continue;
        if (!gpu && !id.empty()) ids.dropped.insert(id);
        if (gpu) out.push_back(std::move(*gpu));
    }
}

}  // namespace gg::catalog::records
