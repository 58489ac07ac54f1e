// A GAN scenario (issue 42): the scenario JSON with a GAN preset id or {"gan": {...}} as "model", validated key by
// key (keys that mean nothing for a GAN, such as method, seq_len or a ZeRO strategy, are errors naming the key),
// and its report: both networks' states, the phases, peak memory against the card, time, sec/kimg and cost.
// The CLI's estimate / rank / advise and the page dispatch here when is_gan_scenario(). Never throws. No UI code.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "engine/card_memory.h"
#include "engine/gan.h"
#include "engine/memory.h"

namespace gg::catalog {

struct GanScenario {
    std::string model_id;          // a preset id of data/gan_models.json, or "custom"
    engine::GanSpec spec;
    nlohmann::json custom_model;   // {"gan": {...}} as given, null for presets
    int batch_size = 1;            // per GPU per pass (StyleGAN's --batch-gpu = --batch / --gpus)
    std::string gpu_id;            // "" = no card
    int gpu_count = 1;
    engine::EccSetting ecc = engine::EccSetting::kDefault;
    std::string display = "auto";  // as the other scenarios: auto | none | linux-desktop | windows-desktop
    double reserve_fraction = 0;
    // The training length: real images shown to D. StyleGAN's own unit is kimg (train.py --kimg, 1000 images);
    // DCGAN / pix2pix count epochs over the dataset. One of the two, or neither (no total time).
    double kimg = 0;
    double dataset_samples = 0, dataset_epochs = 0;
    engine::Tunables tunables;
    bool has_tunables = false;
    // Decision keys a GAN scenario takes (the others are refused by name).
    std::string objective = "cost";   // cost | time
    std::string ownership = "both";   // rent | buy | both
    std::string currency = "CNY";     // CNY | USD
    double cny_per_usd = 0;           // 0 = data/settings.json's

    double images_per_run() const {
        return kimg > 0 ? kimg * 1000 : dataset_samples * dataset_epochs;
    }
    engine::Display display_setting() const;
    // The money of its reports (gan_rank.cpp, gan_report.cpp): the exchange rate (its own cny_per_usd, else
    // data/settings.json's), and an amount in CNY in its currency (NaN, an unknown amount, stays NaN).
    double exchange_rate(const Catalog& catalog) const;
    double shown(const Catalog& catalog, double cny) const;
};

struct ParsedGanScenario {
    GanScenario scenario;
    std::vector<Problem> problems;  // empty = valid
};

// Whether the document describes a GAN: "model" is a GAN preset id (data/gan_models.json) or an object with "gan".
bool is_gan_scenario(const nlohmann::json& doc);
// The decision keys a GAN takes (objective cost | time, ownership, currency, cny_per_usd) are read too; the other
// decision keys are refused by name (not handled for GANs yet).
ParsedGanScenario parse_gan_scenario_json(const nlohmann::json& doc, const Catalog& catalog,
                                          const std::string& file = "scenario");
nlohmann::json gan_scenario_to_json(const GanScenario& s);  // the normalised scenario (parse of it gives it back)

// One evaluation of the scenario on a card and count, with its verdict against usable_memory_bytes() (ECC included)
// and the headroom (a desktop on an owned card with display outputs, the user's reserve).
struct GanFit {
    engine::GanReport report;
    engine::FitVerdict verdict;
    double usable_memory_bytes = 0;  // engine::usable_memory_bytes(gpu, ecc): what nvidia-smi shows as the total
    double run_s = 0;                // images_per_run / samples_per_s; NaN when unknown or no length given
};
GanFit evaluate_gan_fit(const GanScenario& s, const engine::GpuSpec& gpu, int gpu_count, int batch,
                        bool owned_display_card);
// The largest per-GPU batch whose verdict is "fits" (0 = not even 1), searched up to `limit`.
int gan_max_batch(const GanScenario& s, const engine::GpuSpec& gpu, int gpu_count, bool owned_display_card,
                  int limit = 4096);

// `gpuguide estimate` for a GAN (keys in docs/gan.md).
nlohmann::json gan_report_json(const GanScenario& s, const Catalog& catalog);
// `gpuguide rank` for a GAN: buy 1/2/4/8 of each card, rent each offer; fits first, by the objective.
nlohmann::json gan_rank_json(const GanScenario& s, const Catalog& catalog);
// `gpuguide advise` for a GAN: per card, fits as given, or the largest per-GPU batch that fits (the natural fix:
// StyleGAN's --batch-gpu), never a LoRA / ZeRO / checkpointing change.
nlohmann::json gan_advise_json(const GanScenario& s, const Catalog& catalog);

}  // namespace gg::catalog
