// Reading GAN descriptions (gan_models.h): data/gan_models.json and a scenario's {"gan": {...}}. JSON is parsed with
// exceptions off; every value's type and range is checked before it is read.
#include "catalog/gan_models.h"

#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "catalog/embedded_data.h"

namespace gg::catalog {
namespace {

using nlohmann::json;

// An optional integer in [lo, hi] (absent: `out` keeps its default).
bool opt_int(const json& obj, const std::string& ptr, const std::string& file, const char* key, int lo, int hi,
             int& out, std::vector<Problem>& problems) {
    auto it = obj.find(key);
    if (it == obj.end()) return true;
    if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() != std::floor(it->get<double>()) ||
        it->get<double>() < lo || it->get<double>() > hi) {
        problems.push_back({file, ptr + "/" + key,
                            std::string(key) + ": expected a whole number in [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "]"});
        return false;
    }
    out = int(it->get<double>());
    return true;
}

bool opt_bool(const json& obj, const std::string& ptr, const std::string& file, const char* key, bool& out,
              std::vector<Problem>& problems) {
    auto it = obj.find(key);
    if (it == obj.end()) return true;
    if (!it->is_boolean()) {
        problems.push_back({file, ptr + "/" + key, std::string(key) + ": expected true or false"});
        return false;
    }
    out = it->get<bool>();
    return true;
}

bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

bool parse_gan_spec(const json& obj, const std::string& ptr, const std::string& file, engine::GanSpec& out,
                    std::vector<Problem>& problems) {
    const std::size_t before = problems.size();
    if (!obj.is_object()) {
        problems.push_back({file, ptr, "expected an object describing the GAN (kind, resolution, ...)"});
        return false;
    }
    engine::GanSpec s;
    auto kind = obj.find("kind");
    const std::string k = kind != obj.end() && kind->is_string() ? kind->get<std::string>() : "";
    if (k == "stylegan2") s.kind = engine::GanKind::kStyleGan2;
    else if (k == "dcgan") s.kind = engine::GanKind::kDcgan;
    else if (k == "pix2pix") s.kind = engine::GanKind::kPix2pix;
    else if (k == "stylegan3") s.kind = engine::GanKind::kStyleGan3;
    else {
        problems.push_back({file, ptr + "/kind", "kind: expected \"stylegan2\", \"stylegan3\", \"dcgan\" or \"pix2pix\""});
        return false;
    }
    // The kind's reference defaults.
    if (s.kind == engine::GanKind::kDcgan) s.resolution = 64, s.g_ema = false;
    if (s.kind == engine::GanKind::kPix2pix) s.resolution = 256, s.g_ema = false;
    if (s.kind == engine::GanKind::kStyleGan2) s.channel_base = 32768, s.mapping_layers = 8;
    // stylegan3 train.py --cfg=stylegan3-t: cbase 32768, cmax 512, map 2, no style mixing, no path length.
    if (s.kind == engine::GanKind::kStyleGan3)
        s.channel_base = 32768, s.mapping_layers = 2, s.style_mixing = false, s.path_length = false;
    opt_int(obj, ptr, file, "resolution", 8, 2048, s.resolution, problems);
    if (s.kind == engine::GanKind::kDcgan && s.resolution != 64)
        problems.push_back({file, ptr + "/resolution", "resolution: the DCGAN tutorial's networks make 64x64 images only"});
    if (s.kind == engine::GanKind::kPix2pix && s.resolution != 256)
        problems.push_back({file, ptr + "/resolution", "resolution: unet_256 takes 256x256 images only"});
    if ((s.kind == engine::GanKind::kStyleGan2 || s.kind == engine::GanKind::kStyleGan3) && !power_of_two(s.resolution))
        problems.push_back({file, ptr + "/resolution", "resolution: StyleGAN2 needs a power of two (8 ... 2048)"});
    opt_int(obj, ptr, file, "channel_base", 256, 1 << 20, s.channel_base, problems);
    opt_int(obj, ptr, file, "channel_max", 8, 4096, s.channel_max, problems);
    opt_int(obj, ptr, file, "mapping_layers", 1, 16, s.mapping_layers, problems);
    opt_int(obj, ptr, file, "fp16_levels", 0, 12, s.fp16_levels, problems);
    opt_int(obj, ptr, file, "mbstd_group", 1, 64, s.mbstd_group, problems);
    opt_int(obj, ptr, file, "g_reg_interval", 1, 1000, s.g_reg_interval, problems);
    opt_int(obj, ptr, file, "d_reg_interval", 1, 1000, s.d_reg_interval, problems);
    opt_int(obj, ptr, file, "pl_batch_shrink", 1, 64, s.pl_batch_shrink, problems);
    opt_int(obj, ptr, file, "width", 1, 1024, s.width, problems);
    opt_int(obj, ptr, file, "latent", 1, 4096, s.latent, problems);
    opt_bool(obj, ptr, file, "style_mixing", s.style_mixing, problems);
    opt_bool(obj, ptr, file, "g_ema", s.g_ema, problems);
    opt_bool(obj, ptr, file, "path_length", s.path_length, problems);
    opt_bool(obj, ptr, file, "augment", s.augment, problems);
    opt_bool(obj, ptr, file, "radial_filters", s.radial_filters, problems);
    opt_int(obj, ptr, file, "g_channel_scale", 1, 4, s.g_channel_scale, problems);
    if (obj.contains("conv_kernel") && !(obj["conv_kernel"].is_number_integer() &&
                                         (obj["conv_kernel"].get<int>() == 1 || obj["conv_kernel"].get<int>() == 3)))
        problems.push_back({file, ptr + "/conv_kernel", "conv_kernel: expected 1 or 3 (stylegan3-r / -t)"});
    else if (obj.contains("conv_kernel"))
        s.conv_kernel = obj["conv_kernel"].get<int>();
    static const std::set<std::string> known = {"kind", "resolution", "channel_base", "channel_max", "mapping_layers",
                                                "fp16_levels", "mbstd_group", "g_reg_interval", "d_reg_interval",
                                                "pl_batch_shrink", "width", "latent", "style_mixing", "g_ema",
                                                "path_length", "radial_filters", "g_channel_scale", "conv_kernel",
                                                "augment"};
    for (auto it = obj.begin(); it != obj.end(); ++it)
        if (known.count(it.key()) == 0)
            problems.push_back({file, ptr + "/" + it.key(), "unknown key " + it.key() + " in a GAN description"});
    if (problems.size() != before) return false;
    out = s;
    out.id = "custom";
    out.name = "custom GAN";
    return true;
}

std::vector<engine::GanSpec> parse_gan_models(std::string_view text, const std::string& file,
                                              std::vector<Problem>& problems) {
    std::vector<engine::GanSpec> out;
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("models") || !doc["models"].is_array()) {
        problems.push_back({file, "", "expected {\"schema_version\": 1, \"models\": [...]}"});
        return out;
    }
    std::set<std::string> ids;
    const json& models = doc["models"];
    for (std::size_t i = 0; i < models.size(); ++i) {
        const std::string ptr = "/models/" + std::to_string(i);
        const json& rec = models[i];
        const std::size_t before = problems.size();
        engine::GanSpec s;
        if (!rec.is_object() || !rec.contains("gan")) {
            problems.push_back({file, ptr, "expected a record with id, name, source, as_of and gan"});
            continue;
        }
        parse_gan_spec(rec["gan"], ptr + "/gan", file, s, problems);
        for (const char* key : {"id", "name", "source", "as_of", "reference_source"})
            if (!rec.contains(key) || !rec[key].is_string() || rec[key].get<std::string>().empty())
                problems.push_back({file, ptr + "/" + key, std::string("expected a non-empty string for ") + key});
        for (const char* key : {"reference_g_params", "reference_d_params"})
            if (!rec.contains(key) || !rec[key].is_number() || rec[key].get<double>() <= 0)
                problems.push_back({file, ptr + "/" + key, std::string("expected a positive parameter count for ") + key});
        if (problems.size() != before) continue;
        s.id = rec["id"].get<std::string>();
        if (!ids.insert(s.id).second) {
            problems.push_back({file, ptr + "/id", "duplicate id " + s.id});
            continue;
        }
        s.name = rec["name"].get<std::string>();
        s.source = rec["source"].get<std::string>();
        s.reference_source = rec["reference_source"].get<std::string>();
        s.reference_g_params = rec["reference_g_params"].get<double>();
        s.reference_d_params = rec["reference_d_params"].get<double>();
        out.push_back(s);
    }
    return out;
}

namespace {
struct Loaded {
    std::vector<Problem> problems;
    std::vector<engine::GanSpec> presets;
};
const Loaded& loaded() {
    static const Loaded l = [] {
        Loaded x;
        x.presets = parse_gan_models(embedded_file(kGanModelsFile), kGanModelsFile, x.problems);
        return x;
    }();
    return l;
}
}  // namespace

const std::vector<engine::GanSpec>& gan_presets() { return loaded().presets; }
const std::vector<Problem>& embedded_gan_problems() { return loaded().problems; }
const engine::GanSpec* find_gan_preset(const std::string& id) {
    for (const engine::GanSpec& s : gan_presets())
        if (s.id == id) return &s;
    return nullptr;
}

}  // namespace gg::catalog
