// `gpuguide rank SCENARIO.json|- [--json]`: every way to run the job (buy 1/2/4/8 cards of each GPU, rent each
// offer), filtered and ordered by the scenario's objective, with the budget tiers, as JSON on standard output.
// Bad input: every problem on standard error (file, JSON pointer, message), exit 2, nothing on standard output.
#include <cstdio>
#include <cstdlib>

#include "catalog/catalog.h"
#include "catalog/decision_json.h"
#include "catalog/gan_scenario.h"
#include "cli/command.h"
#include "cli/scenario_input.h"

namespace gg::cli {
namespace {

// The options printed when --top is not given: more than the bundled catalog ranks (so its ranking prints whole),
// few enough that a user data file at its caps (catalog.h) prints megabytes, not hundreds.
constexpr long kDefaultTop = 1000;

int run(const std::vector<std::string>& given) {
    // --top N: the first N options in ranking order ("options_total" says how many there were).
    std::vector<std::string> args;
    long top = kDefaultTop;
    for (std::size_t i = 0; i < given.size(); ++i) {
        if (given[i] != "--top") {
            args.push_back(given[i]);
            continue;
        }
        char* end = nullptr;
        const long n = i + 1 < given.size() ? std::strtol(given[i + 1].c_str(), &end, 10) : 0;
        if (i + 1 >= given.size() || end == given[i + 1].c_str() || *end != '\0' || n < 1 || n > 1000000) {
            std::fprintf(stderr, "gpuguide rank: --top takes a whole number of options from 1 to 1000000\n");
            return kExitUsage;
        }
        top = n;
        ++i;
    }
    ScenarioInput in;
    if (const int rc = read_scenario_argument("rank", args, in); rc != kExitOk) return rc;
    if (in.is_gan) {  // a GAN preset or {"gan": {...}} (catalog/gan_scenario.h, docs/gan.md)
        nlohmann::json gan = catalog::gan_rank_json(in.gan, in.catalog());
        if (gan["options"].size() > std::size_t(top)) gan["options"].erase(gan["options"].begin() + top, gan["options"].end());
        std::printf("%s\n", gan.dump(2).c_str());
        return kExitOk;
    }
    const catalog::ParsedDecision& parsed = in.parsed;
    nlohmann::json ranking = catalog::rank_json(parsed.value, in.catalog());
    nlohmann::json& options = ranking["options"];
    if (options.size() > std::size_t(top)) options.erase(options.begin() + top, options.end());
    std::printf("%s\n", ranking.dump(2).c_str());
    return kExitOk;
}

const char* kHelp =
    "Ranks every option for one scenario: buy 1, 2, 4 or 8 cards of each GPU in the catalog, or rent each cloud\n"
    "offer. Prints {\"objective\", \"currency\", \"time_basis\", \"options\": [...], \"tiers\": {...}}; each option has kind\n"
    "(buy | rent), gpu, count, offer (id or null), fits (fits or tight), tight, verdict (fits | tight |\n"
    "does_not_fit), headroom_bytes_per_card, eligible, peak_bytes_per_card, time_s, cost {amount,\n"
    "currency}, cash, value, pareto, fix (null when it fits; else the advisor's fix for that GPU, as in gpuguide\n"
    "advise), reasons [{code, values}], warnings [{code, severity, values}], implausible [codes: time_past_century,\n"
    "cost_past_budget: a figure past any real run, from an input to check]. \"options_total\" counts them all;\n"
    "--top N prints the first N (default 1000).\n"
    "\n"
    "The scenario is the `gpuguide estimate` format plus these optional keys:\n"
    "  budget               {\"amount\": 20000, \"currency\": \"CNY\" | \"USD\"}: the most you can pay out\n"
    "  currency             CNY | USD: output currency (default: the budget's, else CNY)\n"
    "  deadline_h           one run must finish within this many hours\n"
    "  region               offers in this region (or \"global\") only, e.g. \"cn\"\n"
    "  offer_currency       CNY | USD: offers priced in this currency only\n"
    "  objective            cost | time | value (default cost)\n"
    "  ownership            rent | buy | both (default both)\n"
    "  electricity_per_kwh  price per kWh in CNY, or {\"amount\", \"currency\"} (default: data/settings.json)\n"
    "  gpu_hours_per_month  hours a bought card trains in a month, 1..730.5 (default: data/settings.json\n"
    "                       utilization x 730.5 h = 365.25 h, an assumption): sets the months a card is kept\n"
    "  utilization          the same as a fraction of the month, 0.01..1 (give one of the two)\n"
    "  user_region          mainland_china | elsewhere: where you are. In mainland China, offers blocked there or\n"
    "                       paid only from abroad (data/cloud_offers.json \"access\", sourced) get reason\n"
    "                       access_limited and are ranked after every option you can use; none is dropped\n"
    "  ownership_months     keep bought cards this long before resale, 0.1..240 (default: the project's duration)\n"
    "  runs                 runs of the job in the project (default 1)\n"
    "  storage_gb           cloud disk kept while renting, in 10^9 bytes, 0..1e6 (default 0)\n"
    "  cny_per_usd          your exchange rate, 0.01..1000 CNY per USD (default: data/settings.json)\n"
    "  Every rented or free session (defaults: data/settings.json session_overheads; 0 = not counted):\n"
    "  instance_start_min   minutes to start an instance, 0..120\n"
    "  environment_setup_min  minutes installing packages in each session, 0..600\n"
    "  download_mb_per_s    download speed onto the instance, 10^6 bytes/s\n"
    "  dataset_gb           the dataset downloaded into each session, 10^9 bytes (default 0)\n"
    "  base_model_gb        the pretrained weights downloaded (default: parameters x 2 bytes for LoRA/QLoRA,\n"
    "                       x 4 for a full fine-tune; 0 = training from scratch)\n"
    "  checkpointing_saves  true | false: the job saves checkpoints it can resume from (default true)\n"
    "  checkpoint_write_mb_per_s  disk speed for saving a checkpoint, 10^6 bytes/s\n"
    "  spot_interruptions_per_hour  expected preemptions of spot offers per hour, 0..10\n"
    "Rent options carry \"sessions\" (sessions, overheads, checkpoints, lost work, weeks, calendar_s), \"calendar_s\",\n"
    "\"free\", and the compute bill by term in rent {training, overheads, checkpoints, lost_work, rounding}, and the\n"
    "provider's sourced \"access\" facts (blocked_in_mainland_china, international_payment_only, phone_verification,\n"
    "real_name_verification: {value, source, as_of}; unknown ones left out) with \"access_limited\".\n"
    "\n"
    "Order: free tiers that can do the job first (objective cost or value; by time they sort by calendar time); then\n"
    "options that fit and pass every filter, by the objective (ties: the other of time/cost, then id); then\n"
    "those whose objective is unknown; then, for user_region mainland_china, the access-limited ones; then those\n"
    "filtered out; then those the job does not fit (see gpuguide advise).\n"
    "docs/decisions.md explains every reason code and formula." GG_SCENARIO_OPTIONS_HELP;

const bool kRegistered = register_command(
    {"rank", "gpuguide rank SCENARIO.json|- [--user-data FILE] [--top N] [--json]", "rank buying and renting options for a job", kHelp, run});

}  // namespace
}  // namespace gg::cli
