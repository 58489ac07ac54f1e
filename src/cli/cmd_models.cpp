// `gpuguide models [--json]`: the preset models with their parameter counts and default shapes.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "catalog/gan_models.h"
#include "cli/command.h"
#include "engine/gan.h"
#include "engine/workload.h"

namespace gg::cli {
namespace {


int run(const std::vector<std::string>& args) {
    bool as_json = false;
    for (const std::string& a : args) {
        if (a == "--json") as_json = true;
        else {
            std::fprintf(stderr, "gpuguide models: unknown option '%s' (allowed: --json)\n", a.c_str());
            return kExitUsage;
        }
    }
    nlohmann::json list = nlohmann::json::array();
    for (const engine::ModelSpec& m : engine::preset_models()) {
        nlohmann::json j = {{"id", m.id}, {"name", m.name}, {"family", engine::family_name(m.family)},
                            {"available", m.available}, {"source", m.source}};
        j["params_total"] = m.available ? nlohmann::json(engine::count_params(m)) : nlohmann::json(nullptr);
        if (m.is_vision) j["image_size"] = m.default_image_size;
        else j["seq_len"] = m.default_seq_len;
        list.push_back(j);
    }
    // GANs (data/gan_models.json): family "gan", both networks' parameter counts; estimate takes them (docs/gan.md).
    for (const engine::GanSpec& g : catalog::gan_presets()) {
        const engine::GanNetworks n = engine::build_gan_networks(g);
        list.push_back({{"id", g.id}, {"name", g.name}, {"family", "gan"}, {"gan_kind", engine::gan_kind_name(g.kind)},
                        {"available", true}, {"source", g.source}, {"params_total", n.g.params() + n.d.params()},
                        {"params_generator", n.g.params()}, {"params_discriminator", n.d.params()},
                        {"image_size", g.resolution}});
    }
    if (as_json) {
        std::printf("%s\n", list.dump(2).c_str());
        return kExitOk;
    }
    std::printf("%-16s %-14s %16s  %s\n", "id", "family", "params", "default shape");
    for (const auto& j : list) {
        const std::string params = j["params_total"].is_null() ? "not yet" : std::to_string((long long)j["params_total"].get<double>());
        const std::string shape = j.contains("image_size") ? "image " + std::to_string(j["image_size"].get<int>())
                                                           : "seq " + std::to_string(j["seq_len"].get<int>());
        std::printf("%-16s %-14s %16s  %s\n", j["id"].get<std::string>().c_str(), j["family"].get<std::string>().c_str(),
                    params.c_str(), shape.c_str());
    }
    return kExitOk;
}

const bool kRegistered = register_command(
    {"models", "gpuguide models [--json]", "list the preset models",
     "Lists every preset: id, name, family, params_total (parameter count of the reference implementation as the\n"
     "engine builds it), default image_size or seq_len (a GAN: family gan, its resolution, params_generator and\n"
     "params_discriminator), whether its memory graph is available, and its source.\n"
     "--json prints a JSON array.",
     run});

}  // namespace
}  // namespace gg::cli
