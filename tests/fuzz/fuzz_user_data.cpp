// Fuzz target: user data merged over a catalog (merge_user_data: custom GPUs, offers and prices, e.g. from the
// page's saved state). The base is a small catalog (3 GPUs, 3 offers, the bundled settings) so that the ranking of
// the merged catalog stays fast. Input: the user JSON. Checks: no crash or sanitizer report; the merged records
// write back with finite numbers; when a user GPU or offer was added, a fixed scenario is ranked on the merged
// catalog (user GPUs and offers go through the memory, time and cost engines) with finite output.
#include <cstdint>
#include <cstdio>

#include "catalog/catalog.h"
#include "catalog/embedded_data.h"
#include "fuzz_common.h"

namespace {

const gg::catalog::Catalog& small_base() {
    static const gg::catalog::Catalog base = [] {
        const nlohmann::json gpus = nlohmann::json::parse(gg::catalog::embedded_file(gg::catalog::kGpusFile));
        const nlohmann::json offers = nlohmann::json::parse(gg::catalog::embedded_file(gg::catalog::kOffersFile));
        nlohmann::json few_gpus = gpus, few_offers = offers;
        few_gpus["gpus"] = nlohmann::json::array();
        few_offers["offers"] = nlohmann::json::array();
        for (const char* id : {"rtx-4090", "rtx-3060-12gb", "a100-sxm4-80gb"})
            for (const auto& g : gpus["gpus"])
                if (g.value("id", "") == id) few_gpus["gpus"].push_back(g);
        for (const auto& o : offers["offers"]) {
            bool known = false;
            for (const auto& g : few_gpus["gpus"]) known = known || o.value("gpu", "") == g.value("id", "");
            if (known && few_offers["offers"].size() < 3) few_offers["offers"].push_back(o);
        }
        // The offers' access records name providers; keep those of the kept offers only (a record whose provider
        // has no offer is an error of the file).
        if (offers.contains("access")) {
            few_offers["access"] = nlohmann::json::array();
            for (const auto& a : offers["access"])
                for (const auto& o : few_offers["offers"])
                    if (o.value("provider", "") == a.value("provider", "")) {
                        few_offers["access"].push_back(a);
                        break;
                    }
        }
        std::vector<gg::catalog::Problem> problems;
        gg::catalog::Catalog c = gg::catalog::parse_catalog(
            few_gpus.dump(), few_offers.dump(), gg::catalog::embedded_file(gg::catalog::kSettingsFile), problems);
        if (!problems.empty() || c.gpus.empty()) {
            std::fprintf(stderr, "fuzz_user_data: the small base catalog has problems (%s): fix small_base()\n",
                         problems.empty() ? "no GPUs" : problems[0].message.c_str());
            __builtin_trap();
        }
        return c;
    }();
    return base;
}

const char* kScenario =
    R"({"model": "gpt2", "batch_size": 4, "seq_len": 256, "precision": "fp16-amp", "gpu": {"id": "rtx-4090"},)"
    R"( "dataset": {"samples": 10000, "epochs": 1}, "ownership": "both"})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const gg::catalog::Catalog& base = small_base();
    std::vector<gg::catalog::Problem> problems;
    const gg::catalog::Catalog merged =
        gg::catalog::merge_user_data(base, std::string_view(reinterpret_cast<const char*>(data), size), problems);
    gg::fuzz::require_dumpable(gg::fuzz::problems_to_json(problems), "problems");
    for (const auto& g : merged.gpus) gg::fuzz::require_output(gg::catalog::gpu_to_json(g), "gpu_to_json");
    for (const auto& o : merged.offers) {
        gg::fuzz::require_output(gg::catalog::offer_to_json(o), "offer_to_json");
        if (merged.find_gpu(o.gpu_id) == nullptr) {
            std::fprintf(stderr, "fuzz: offer '%s' kept with unknown GPU '%s'\n", o.id.c_str(), o.gpu_id.c_str());
            __builtin_trap();
        }
    }
    // A user GPU or offer was added: rank a fixed scenario on the merged catalog (the user's numbers go through the
    // memory, time and cost engines). Only then: ranking costs ~100x the merge.
    if (merged.gpus.size() > base.gpus.size() || merged.offers.size() > base.offers.size()) {
        const gg::catalog::ParsedDecision s = gg::catalog::parse_decision_scenario(kScenario, merged, "fuzz");
        if (s.problems.empty()) gg::fuzz::require_output(gg::catalog::rank_json(s.value, merged), "rank_json");
    }
    return 0;
}
