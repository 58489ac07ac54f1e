// Decision keys of a scenario and the JSON of rank / advise (see decision_json.h). Money enters here in the
// user's currency and becomes CNY; it leaves in the output currency. Never throws.
//
// Sections: helpers | parse | job | rank JSON | advise JSON
#include "catalog/decision_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "catalog/compat_data.h"
#include "catalog/json_text.h"
#include "catalog/time_data.h"
#include "catalog/time_json.h"
#include "engine/plausibility.h"

namespace gg::catalog {

nlohmann::json num_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

using nlohmann::json;

const std::vector<std::string> kDecisionKeys = {"budget", "currency", "deadline_h", "region", "offer_currency",
                                                "objective", "ownership", "electricity_per_kwh", "utilization", "gpu_hours_per_month", "user_region",
                                                "ownership_months", "runs", "storage_gb", "cny_per_usd",
                                                "allow_result_changes", "instance_start_min", "environment_setup_min",
                                                "download_mb_per_s", "checkpoint_write_mb_per_s",
                                                "spot_interruptions_per_hour", "dataset_gb", "base_model_gb",
                                                "checkpointing_saves"};

namespace {

// The slowest download or checkpoint write a scenario may give, in MB/s (see the `quantity` reader below).
constexpr double kMinTransferMbPerS = 0.01;
// One GPU-hour a month: below it a bought card would be kept for decades per run (the break-even horizon is 10 years).
constexpr double kMinGpuHoursPerMonth = 1;

// ---- helpers -------------------------------------------------------------------------------------------------
// A rental's calendar time when its sessions were planned (NaN when the run's time is unknown or it cannot finish).
double known_calendar(const engine::RankOption& o) {
    return o.sessions.status == engine::SessionStatus::kOk && o.calendar_s > 0 ? o.calendar_s : std::nan("");
}

bool parse_currency(const json& v, engine::Currency& out) {
    if (!v.is_string()) return false;
    if (v.get<std::string>() == "CNY") { out = engine::Currency::kCny; return true; }
    if (v.get<std::string>() == "USD") { out = engine::Currency::kUsd; return true; }
    return false;
}

// Named numbers: engine::NamedValues of a warning or of a reason (their capacities differ).
template <class NamedValues>
json values_json(const NamedValues& values) {
    json o = json::object();
    for (const auto& [k, v] : values) o[k] = num_or_null(v);
    return o;
}

json warnings_json(const std::vector<engine::CompatWarning>& ws) {
    json a = json::array();
    for (const engine::CompatWarning& w : ws) {
        json o = {{"code", engine::compat_code_name(w.code)}, {"severity", engine::severity_name(w.severity)},
                  {"values", values_json(w.values)}};
        if (!w.other_gpu.empty()) o["other_gpu"] = w.other_gpu;
        a.push_back(std::move(o));
    }
    return a;
}

// The plan as the scenario's own keys: merged into the scenario (JSON merge patch, RFC 7396: null removes a key) it
// reproduces the option with `gpuguide estimate`. The interconnect and peer-to-peer keys are removed: a ranked card
// talks over its own default link, as the ranking assumes (ranking_time_options).
json plan_scenario_json(const engine::Plan& p, const Scenario& typed, const engine::GpuSpec& gpu) {
    const engine::TrainingConfig& c = p.config;
    std::string attention = c.eager_attention ? "eager" : "sdpa";
    const int cc = gpu.compute_capability_major * 10 + gpu.compute_capability_minor;
    if (!c.eager_attention && typed.attention == "flash" && (gpu.vendor != "nvidia" || cc == 0 || cc >= 80))
        attention = "flash";
    json j = {{"batch_size", int(c.batch)},
            {"grad_accum_steps", c.grad_accum_steps},
            {"checkpointing", kCheckpointings[std::size_t(c.checkpointing)]},
            {"attention", attention},
            {"offload_optimizer", c.offload_optimizer},
            {"gpu", {{"id", gpu.id},
                     {"count", c.gpu_count},
                     {"strategy", kStrategies[std::size_t(c.strategy)]},
                     {"tensor_parallel", c.tensor_parallel},
                     {"pipeline_parallel", c.pipeline_parallel},
                     {"pipeline_interleave", c.pipeline_interleave},
                     {"sequence_parallel", c.sequence_parallel},
                     {"interconnect", nullptr},
                     {"peer_to_peer", nullptr}}}};
    // A rented server's own vCPUs paced its loader (engine/loader.h): the machine's CPU threads, or none when unknown.
    if (p.loader_cpus_per_gpu >= 0) {
        const double cpus = std::round(p.loader_cpus_per_gpu * std::clamp(c.gpu_count, 1, 8));
        j["dataset"] = {{"loader", {{"cpus", cpus >= 1 ? json(int(cpus)) : json(nullptr)}}}};
    }
    return j;
}

json plan_json(const engine::Plan& p, const Scenario& typed, const engine::GpuSpec& gpu) {
    json notes = json::array();
    for (const engine::PlanNote& n : p.notes)
        notes.push_back({{"code", engine::plan_rejection_name(n.code)},
                         {"axis", engine::plan_axis_name(n.axis)},
                         {"values", values_json(n.values)}});
    json j = {{"found", p.found}, {"notes", std::move(notes)}};
    if (!p.found) return j;
    j["as_typed"] = p.as_typed;
    j["scenario"] = plan_scenario_json(p, typed, gpu);
    j["global_batch"] = p.global_batch;
    j["peak_bytes_per_card"] = p.peak_bytes_per_card;
    j["host_ram_bytes"] = p.host_ram_bytes;
    j["time_s"] = num_or_null(p.time_s);
    j["step_s"] = num_or_null(p.step_s);
    return j;
}

}  // namespace

// ---- parse -----------------------------------------------------------------------------------------------------
ParsedDecision parse_decision_scenario(std::string_view text, const Catalog& catalog, const std::string& file) {
    const JsonText doc = parse_json_text(text);
    if (!doc.error.empty()) {
        ParsedDecision out;
        out.problems.push_back({file, "", doc.error});
        return out;
    }
    return parse_decision_scenario_json(doc.value, catalog, file);
}

namespace {

// A problem at a decision key ("/key"), for the readers below.
struct KeyProblems {
    std::vector<Problem>& out;
    const std::string& file;
    void operator()(const std::string& key, const std::string& message) const {
        out.push_back({file, "/" + key, message});
    }
};

// The money keys: exchange rate first (the others convert with it), currency, budget, electricity, and the owned
// cards' GPU-hours per month.
void read_money_keys(const json& keys, const Catalog& catalog, const KeyProblems& problem, engine::DecisionInputs& d) {
    const engine::CostSettings& settings = catalog.settings;
    double rate = settings.exchange_rate.cny_per_usd;
    if (keys.contains("cny_per_usd")) {  // first: the other money keys convert with it
        const json& v = keys["cny_per_usd"];
        if (!v.is_number() || !(v.get<double>() >= 0.01) || v.get<double>() > 1000)
            problem("cny_per_usd", "'cny_per_usd' must be an exchange rate from 0.01 to 1000 CNY per USD (e.g. 7.1)");
        else rate = d.cny_per_usd = v.get<double>();
    }
    // The owned cards' GPU-hours per month: settings' utilization (a fraction of the mean month) until the scenario
    // gives gpu_hours_per_month (or the older 'utilization' fraction).
    d.gpu_hours_per_month =
        (settings.utilization.value_fraction > 0 ? settings.utilization.value_fraction : 0.5) * engine::kHoursPerMonth;
    if (const engine::ElectricityPrice* e = catalog.default_electricity())
        d.electricity_price_per_kwh_cny = engine::to_cny(e->price_per_kwh, e->currency, rate);

    bool currency_given = false;
    if (keys.contains("currency")) {
        if (!parse_currency(keys["currency"], d.currency)) problem("currency", "'currency' must be \"CNY\" or \"USD\"");
        currency_given = true;
    }
    if (keys.contains("budget")) {
        const json& b = keys["budget"];
        engine::Currency cur = engine::Currency::kCny;
        if (!b.is_object() || !b.contains("amount") || !b["amount"].is_number() || !(b["amount"].get<double>() > 0) ||
            !(b["amount"].get<double>() <= 1e12)) {
            problem("budget", "'budget' must be {\"amount\": a number above 0 and at most 1e12, \"currency\": \"CNY\" or "
                              "\"USD\"}");
        } else if (b.contains("currency") && !parse_currency(b["currency"], cur)) {
            problem("budget/currency", "'budget.currency' must be \"CNY\" or \"USD\"");
        } else {
            for (auto it = b.begin(); it != b.end(); ++it)
                if (it.key() != "amount" && it.key() != "currency")
                    problem("budget/" + it.key(), "unknown key '" + it.key() + "'; allowed keys: amount, currency");
            const double amount = b["amount"].get<double>();
            d.budget_cny = engine::to_cny(amount, engine::currency_code(cur), rate);
            if (!std::isfinite(d.budget_cny))
                problem("budget/currency", "a USD budget needs the exchange rate (data/settings.json exchange_rate)");
            if (!currency_given) d.currency = cur;
        }
    }
    if (keys.contains("electricity_per_kwh")) {
        const json& v = keys["electricity_per_kwh"];
        double amount = -1;
        engine::Currency cur = engine::Currency::kCny;
        bool ok = true;
        if (v.is_number()) amount = v.get<double>();
        else if (v.is_object() && v.contains("amount") && v["amount"].is_number()) {
            amount = v["amount"].get<double>();
            if (v.contains("currency")) ok = parse_currency(v["currency"], cur);
        }
        if (!ok || !(amount >= 0) || !std::isfinite(amount) || amount > 100)
            problem("electricity_per_kwh",
                    "'electricity_per_kwh' must be a price per kWh in CNY (0 to 100), or {\"amount\", \"currency\"}");
        else {
            d.electricity_price_per_kwh_cny = engine::to_cny(amount, engine::currency_code(cur), rate);
            if (!std::isfinite(d.electricity_price_per_kwh_cny))
                problem("electricity_per_kwh", "a USD price needs the exchange rate (data/settings.json exchange_rate)");
        }
    }
    if (keys.contains("utilization") && keys.contains("gpu_hours_per_month")) {
        problem("gpu_hours_per_month", "give 'gpu_hours_per_month' or 'utilization', not both: they say the same thing "
                                       "(utilization x 730.5 h = GPU-hours per month)");
    } else if (keys.contains("utilization")) {
        const json& v = keys["utilization"];
        if (!v.is_number() || !(v.get<double>() >= 0.01) || v.get<double>() > 1)
            problem("utilization", "'utilization' must be a fraction from 0.01 to 1: the share of calendar time the card "
                                   "trains (or give 'gpu_hours_per_month')");
        else d.gpu_hours_per_month = v.get<double>() * engine::kHoursPerMonth;
    } else if (keys.contains("gpu_hours_per_month")) {
        const json& v = keys["gpu_hours_per_month"];
        if (!v.is_number() || !(v.get<double>() >= kMinGpuHoursPerMonth) || !(v.get<double>() <= engine::kHoursPerMonth))
            problem("gpu_hours_per_month", "'gpu_hours_per_month' must be the hours your own cards train in a month, "
                                           "from 1 to 730.5 (every hour of the mean month)");
        else d.gpu_hours_per_month = v.get<double>();
    }
}

// The choices: deadline, region, objective, ownership, where the user is, and the run's count and storage.
void read_choice_keys(const json& keys, const Catalog& catalog, const KeyProblems& problem, engine::DecisionInputs& d) {
    if (keys.contains("deadline_h")) {
        const json& v = keys["deadline_h"];
        if (!v.is_number() || !(v.get<double>() > 0) || !(v.get<double>() <= 1e6))
            problem("deadline_h", "'deadline_h' must be a number of hours above 0 and at most 1,000,000");
        else d.deadline_s = v.get<double>() * 3600.0;
    }
    if (keys.contains("region")) {
        const json& v = keys["region"];
        std::vector<std::string> regions;
        for (const engine::CloudOffer& o : catalog.offers)
            if (std::find(regions.begin(), regions.end(), o.region) == regions.end()) regions.push_back(o.region);
        if (!v.is_string() || std::find(regions.begin(), regions.end(), v.get<std::string>()) == regions.end()) {
            std::string list;
            for (const std::string& r : regions) list += (list.empty() ? "" : ", ") + r;
            problem("region", "'region' must be one of the offers' regions: " + list);
        } else {
            d.region = v.get<std::string>();
        }
    }
    if (keys.contains("offer_currency")) {
        engine::Currency c;
        if (!parse_currency(keys["offer_currency"], c)) problem("offer_currency", "'offer_currency' must be \"CNY\" or \"USD\"");
        else d.offer_currency = engine::currency_code(c);
    }
    if (keys.contains("objective")) {
        const json& v = keys["objective"];
        const std::string s = v.is_string() ? v.get<std::string>() : "";
        if (s == "cost") d.objective = engine::Objective::kCost;
        else if (s == "time") d.objective = engine::Objective::kTime;
        else if (s == "value") d.objective = engine::Objective::kValue;
        else problem("objective", "'objective' must be \"cost\", \"time\" or \"value\"");
    }
    if (keys.contains("ownership")) {
        const json& v = keys["ownership"];
        const std::string s = v.is_string() ? v.get<std::string>() : "";
        if (s == "rent") d.ownership = engine::Ownership::kRent;
        else if (s == "buy") d.ownership = engine::Ownership::kBuy;
        else if (s == "both") d.ownership = engine::Ownership::kBoth;
        else problem("ownership", "'ownership' must be \"rent\", \"buy\" or \"both\"");
    }
    if (keys.contains("user_region")) {
        const json& v = keys["user_region"];
        const std::string r = v.is_string() ? v.get<std::string>() : "";
        if (r == "mainland_china") d.user_region = engine::UserRegion::kMainlandChina;
        else if (r == "elsewhere") d.user_region = engine::UserRegion::kElsewhere;
        else problem("user_region", "'user_region' must be \"mainland_china\" or \"elsewhere\": where you are, which "
                                    "decides whether offers blocked in mainland China or paid only from abroad are "
                                    "ranked after the rest");
    }
    if (keys.contains("ownership_months")) {
        const json& v = keys["ownership_months"];
        if (!v.is_number() || !(v.get<double>() >= 0.1) || v.get<double>() > 240)
            problem("ownership_months", "'ownership_months' must be a number of months from 0.1 to 240");
        else d.ownership_months = v.get<double>();
    }
    if (keys.contains("runs")) {
        const json& v = keys["runs"];
        const bool whole = v.is_number_integer() || v.is_number_unsigned() ||
                           (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>());
        if (!whole || v.get<double>() < 1 || v.get<double>() > 100000)
            problem("runs", "'runs' must be a whole number from 1 to 100000");
        else d.runs = int(v.get<double>());
    }
    if (keys.contains("storage_gb")) {
        const json& v = keys["storage_gb"];
        if (!v.is_number() || !(v.get<double>() >= 0) || !(v.get<double>() <= 1e6))
            problem("storage_gb", "'storage_gb' must be a number of GB (10^9 bytes) from 0 to 1,000,000");
        else d.storage_bytes = v.get<double>() * 1e9;
    }
}

// The session overheads and the two switches.
void read_session_keys(const json& keys, const KeyProblems& problem, engine::DecisionInputs& d) {
    // Session overheads (engine::DecisionInputs; defaults: settings session_overheads): each a number in a range.
    // `min_rate` > 0: a rate that is 0 (not counted) or at least that much; a smaller one is a typo or a unit slip
    // that would turn a download into centuries (0.01 MB/s is below the slowest transfer the data holds: 0.02 MB/s
    // from Colab to Google Drive, data/settings.json session_overheads).
    auto quantity = [&](const char* key, double max, double scale, const char* what, double& into,
                        double min_rate = 0) {
        char max_text[32], min_text[32];
        std::snprintf(max_text, sizeof max_text, "%g", max);
        std::snprintf(min_text, sizeof min_text, "%g", min_rate);
        if (!keys.contains(key)) return;
        const json& v = keys[key];
        const bool in_range = v.is_number() && v.get<double>() >= 0 && v.get<double>() <= max &&
                              (v.get<double>() == 0 || v.get<double>() >= min_rate);
        if (!in_range)
            problem(key, std::string("'") + key + "' must be " + what +
                             (min_rate > 0 ? std::string(": 0 (not counted) or from ") + min_text : std::string(" from 0")) +
                             " to " + max_text);
        else into = v.get<double>() * scale;
    };
    quantity("instance_start_min", 120, 60, "the minutes an instance takes to start", d.instance_start_s);
    quantity("environment_setup_min", 600, 60, "the minutes spent installing packages in each session",
             d.environment_setup_s);
    quantity("download_mb_per_s", 100000, 1e6, "the download speed onto the instance in MB/s (10^6 bytes per second)",
             d.download_bytes_per_s, kMinTransferMbPerS);
    quantity("checkpoint_write_mb_per_s", 100000, 1e6, "the speed a checkpoint is written to disk in MB/s",
             d.checkpoint_write_bytes_per_s, kMinTransferMbPerS);
    quantity("spot_interruptions_per_hour", 10, 1, "the expected preemptions of a spot instance per hour",
             d.spot_interruptions_per_hour);
    quantity("dataset_gb", 1e6, 1e9, "the dataset's size in GB (10^9 bytes), downloaded in every session",
             d.dataset_bytes);
    quantity("base_model_gb", 1e5, 1e9, "the pretrained weights' size in GB (10^9 bytes; 0 = training from scratch)",
             d.base_model_bytes);
    if (keys.contains("checkpointing_saves")) {
        const json& v = keys["checkpointing_saves"];
        if (!v.is_boolean())
            problem("checkpointing_saves", "'checkpointing_saves' must be true or false: whether the job saves "
                                           "checkpoints it can resume from when a session ends");
        else d.checkpointing = v.get<bool>();
    }
    if (keys.contains("allow_result_changes")) {
        const json& v = keys["allow_result_changes"];
        if (!v.is_boolean())
            problem("allow_result_changes", "'allow_result_changes' must be true or false: whether the advice may change "
                                            "what is learned (precision, LoRA/QLoRA, 8-bit optimizer, shorter inputs) "
                                            "even where a change that keeps the results works");
        else d.allow_result_changes = v.get<bool>();
    }
}

}  // namespace

ParsedDecision parse_decision_scenario_json(const json& doc_as_given, const Catalog& catalog, const std::string& file) {
    const json doc = scenario_without_nulls(doc_as_given);  // null = left out (scenario.h)
    ParsedDecision out;
    if (!doc.is_object()) {
        out.problems.push_back({file, "", "a scenario must be a JSON object"});
        return out;
    }
    // Split: the base parser rejects keys it does not know, so it gets the document without the decision keys.
    json base = doc;
    json keys = json::object();
    for (const std::string& k : kDecisionKeys)
        if (base.contains(k)) {
            keys[k] = base[k];
            base.erase(k);
        }
    ParsedScenario ps = parse_scenario_json(base, file, &catalog);
    out.value.scenario = ps.scenario;
    out.problems = ps.problems;
    const KeyProblems problem{out.problems, file};
    engine::DecisionInputs& d = out.value.decision;
    read_money_keys(keys, catalog, problem, d);
    read_choice_keys(keys, catalog, problem, d);
    read_session_keys(keys, problem, d);

    out.value.decision_json = keys;
    return out;
}

json decision_keys_to_json(const DecisionScenario& s) { return s.decision_json; }

// ---- job -------------------------------------------------------------------------------------------------------
namespace {

// Fitted priors when they cover the family, else the roofline floor.
const engine::ThroughputPriors* priors_for(engine::Family family, bool& is_floor) {
    const engine::ThroughputPriors& fitted = embedded_time_data();
    is_floor = fitted.find(family) == nullptr;
    return is_floor ? &engine::peak_floor_priors() : &fitted;
}

// Per-card interconnect: the scenario's interconnect and peer-to-peer setting describe its own card, so ranked
// cards use their defaults.
engine::TimeOptions ranking_time_options(const Scenario& s) {
    engine::TimeOptions o = time_options(s);
    o.interconnect_set = false;
    o.peer_to_peer_set = false;
    return o;
}

}  // namespace

engine::JobModel decision_job(const Scenario& scenario, const std::vector<int>& counts) {
    bool is_floor = false;
    const engine::ThroughputPriors* priors = priors_for(scenario.model.family, is_floor);
    return engine::prepare_job(scenario.model, scenario.shape_per_sample(), scenario.training_config(),
                               time_dataset(scenario), ranking_time_options(scenario), priors, is_floor, counts);
}

// ---- rank JSON -------------------------------------------------------------------------------------------------
namespace {
std::vector<engine::CardAdvice> run_advisor(const DecisionScenario& s, const Catalog& catalog, bool& is_floor);
json fix_json(const engine::Fix& f, engine::AdviceStatus status, const std::string& stack);
json fix_json(const engine::CardAdvice& a, const std::string& stack);
}  // namespace

namespace {
json rank_json_with(const DecisionScenario& s, const Catalog& catalog, const std::vector<engine::CardAdvice>& advice);
json advise_json_with(const DecisionScenario& s, const Catalog& catalog, const std::vector<engine::CardAdvice>& advice,
                      bool is_floor);
}  // namespace

nlohmann::json rank_json(const DecisionScenario& s, const Catalog& catalog) {
    bool advice_floor = false;
    return rank_json_with(s, catalog, run_advisor(s, catalog, advice_floor));
}

nlohmann::json advise_json(const DecisionScenario& s, const Catalog& catalog) {
    bool is_floor = false;
    const std::vector<engine::CardAdvice> advice = run_advisor(s, catalog, is_floor);
    return advise_json_with(s, catalog, advice, is_floor);
}

DecisionJson rank_and_advise_json(const DecisionScenario& s, const Catalog& catalog) {
    bool is_floor = false;
    const std::vector<engine::CardAdvice> advice = run_advisor(s, catalog, is_floor);
    return {rank_json_with(s, catalog, advice), advise_json_with(s, catalog, advice, is_floor)};
}

namespace {
// The provider's known access and payment facts, each with its source: {"blocked_in_mainland_china": {"value": true,
// "source", "as_of"}, ...}; unknown facts are left out.
json access_json(const engine::AccessFacts& a) {
    json j = json::object();
    auto add = [&](const char* key, const engine::AccessFact& f) {
        if (f.value == engine::Fact::kUnknown) return;
        j[key] = {{"value", f.value == engine::Fact::kYes}, {"source", f.source}, {"as_of", f.as_of}};
    };
    add("blocked_in_mainland_china", a.blocked_in_mainland_china);
    add("international_payment_only", a.international_payment_only);
    add("phone_verification", a.phone_verification);
    add("real_name_verification", a.real_name_verification);
    return j;
}

json rank_json_with(const DecisionScenario& s, const Catalog& catalog, const std::vector<engine::CardAdvice>& advice) {
    engine::DecisionInputs d = s.decision;
    d.buy_host_ram_bytes = catalog.settings.host_system.ram_bytes;
    std::vector<int> counts = d.buy_counts;
    for (const engine::CloudOffer& o : catalog.offers) counts.push_back(o.gpu_count);
    const engine::JobModel job = decision_job(s.scenario, counts);
    const engine::CompatData& compat = embedded_compat_data();
    const engine::RankResult ranked = engine::rank_options(job, catalog.gpus, catalog.offers, catalog.settings, d, compat);
    const engine::TierSummary tiers = engine::budget_tiers(ranked, job, compat);
    const double rate = d.cny_per_usd > 0 ? d.cny_per_usd : catalog.settings.exchange_rate.cny_per_usd;
    const char* cur = engine::currency_code(d.currency);
    auto money = [&](double cny) { return json{{"amount", num_or_null(engine::from_cny(cny, d.currency, rate))}, {"currency", cur}}; };

    // A card the job does not fit is never shown without its fix: the advisor's smallest change set per GPU.
    auto fix_of = [&](const engine::GpuSpec* g) -> json {
        for (const engine::CardAdvice& a : advice)
            if (a.gpu == g) return fix_json(a, s.scenario.stack);
        return nullptr;
    };

    json options = json::array();
    int position = 0;
    for (const engine::RankOption& o : ranked.options) {
        json j;
        j["rank"] = ++position;
        j["id"] = o.id;
        j["kind"] = engine::option_kind_name(o.kind);
        j["gpu"] = o.gpu->id;
        j["count"] = o.count;
        j["offer"] = o.offer ? json(o.offer->id) : json(nullptr);
        j["nodes"] = o.nodes;
        j["fits"] = o.fits;  // fits or tight: the job runs on the card
        j["fits_as_typed"] = o.fits_as_typed;
        j["tight"] = o.tight;
        j["calibrated"] = o.calibrated;  // "calibrated by you": the card carries the user's own measurement
        j["verdict"] = engine::verdict_name(o.verdict);
        j["headroom_bytes_per_card"] = o.headroom.total_bytes();
        j["plan"] = plan_json(o.plan, s.scenario, *o.gpu);
        j["eligible"] = o.eligible;
        j["peak_bytes_per_card"] = o.peak_bytes_per_card;
        j["usable_bytes_per_card"] = o.usable_bytes_per_card;
        j["time_s"] = num_or_null(o.time_s);
        j["cost"] = money(o.cost_cny);
        j["cash"] = money(o.cash_cny);
        const double value_shown = o.value > 0 ? o.value / engine::from_cny(1.0, d.currency, rate) : std::nan("");
        j["value"] = num_or_null(value_shown);
        j["value_unit"] = std::string(o.value_in_tokens ? "tokens_per_" : "samples_per_") + cur;
        j["pareto"] = o.pareto;
        j["fix"] = o.fits ? json(nullptr) : fix_of(o.gpu);  // null also when no fix exists (see gpuguide advise)
        if (o.kind == engine::OptionKind::kBuy) {
            j["buy"] = {{"price_basis", engine::price_basis_name(o.buy.basis)},
                        {"card_price", money(o.buy.card_price_cny)},
                        {"host", money(o.buy.host_cny)},
                        {"purchase", money(o.buy.purchase_cny)},
                        {"power_w", num_or_null(o.buy.power_w)},
                        {"electricity", money(o.buy.electricity_cny)},
                        {"ownership_months", num_or_null(o.buy.ownership_months)},
                        {"resale_fraction", num_or_null(o.buy.resale_fraction)},
                        {"resale", money(o.buy.resale_cny)}};
        } else {
            const engine::SessionPlan& sp = o.sessions;
            j["rent"] = {{"provider", o.offer->provider},
                         {"region", o.offer->region},
                         {"billing", billing_name(o.offer->billing)},
                         {"billing_granularity_s", o.offer->billing_granularity_s},
                         {"billed_s_per_run", num_or_null(o.rent.billed_s_per_run)},
                         {"compute", money(o.rent.compute_cny)},
                         // the compute bill by term (they add up to compute)
                         {"training", money(o.rent.training_cny)},
                         {"overheads", money(o.rent.overhead_cny)},
                         {"checkpoints", money(o.rent.checkpoint_cny)},
                         {"lost_work", money(o.rent.lost_work_cny)},
                         {"rounding", money(o.rent.rounding_cny)},
                         {"storage", money(o.rent.storage_cny)}};
            j["sessions"] = {{"status", engine::session_status_name(sp.status)},
                             {"sessions", sp.sessions},
                             {"overhead_s_per_session", sp.overhead_s_per_session},
                             {"download_s_per_session", sp.download_s_per_session},
                             {"overhead_s", sp.overhead_s},
                             {"checkpoint_saves", sp.checkpoint_saves},
                             {"checkpoint_s", sp.checkpoint_s},
                             {"interruptions", sp.interruptions},
                             {"lost_work_s", sp.lost_work_s},
                             {"session_s", sp.session_s},
                             {"weeks", sp.weeks},
                             {"calendar_s", sp.calendar_s},
                             {"download_unknown", sp.download_unknown},
                             {"checkpoint_time_unknown", sp.checkpoint_time_unknown}};
            j["calendar_s"] = num_or_null(known_calendar(o));
            j["free"] = o.free_tier;
            j["access"] = access_json(o.offer->access);
            j["access_limited"] = o.access_limited;
        }
        json reasons = json::array();
        for (const engine::Reason& r : o.reasons) {
            json rj = {{"code", engine::reason_code_name(r.code)}, {"values", values_json(r.values)}};
            if (!r.other.empty()) rj["other"] = std::string(r.other);
            reasons.push_back(std::move(rj));
        }
        j["reasons"] = std::move(reasons);
        j["warnings"] = o.warnings ? warnings_json(*o.warnings) : json::array();
        // Run or calendar time past a century, cost past any budget (engine/plausibility.h): flagged, not hidden.
        json implausible = json::array();
        const double calendar_s = o.kind == engine::OptionKind::kRent ? known_calendar(o) : std::nan("");
        const double longest_s = std::isfinite(calendar_s) && calendar_s > o.time_s ? calendar_s : o.time_s;
        for (const engine::Implausible f : engine::implausible_flags(std::nan(""), longest_s, o.cost_cny))
            implausible.push_back(engine::implausible_name(f));
        j["implausible"] = std::move(implausible);
        options.push_back(std::move(j));
    }
    json tiers_json = json::array();
    for (const engine::TierResult& t : tiers.tiers) {
        tiers_json.push_back({{"id", t.tier.id},
                              {"min_price", money(t.min_price_cny)},
                              {"max_price", t.tier.max_price_cny > 0 ? money(t.tier.max_price_cny) : json(nullptr)},
                              {"suggested_memory_bytes", t.tier.suggested_memory_bytes},
                              {"best", t.best ? json(t.best->id) : json(nullptr)},
                              {"fitting_count", t.fitting_count},
                              {"card_count", t.card_count}});
    }
    const std::size_t options_total = options.size();  // `gpuguide rank --top N` prints the first N of them
    return {{"objective", engine::objective_name(d.objective)},
            {"user_region", engine::user_region_name(d.user_region)},
            {"gpu_hours_per_month", d.gpu_hours_per_month},
            {"options_total", options_total},
            {"currency", cur},
            {"time_basis", job.time_is_floor ? "roofline_floor" : "fitted_priors"},
            {"options", std::move(options)},
            {"tiers", {{"source", compat.budget_tiers_source},
                       {"min_memory_bytes", tiers.min_memory_bytes},
                       {"cheapest_fit", tiers.cheapest_fit ? json(tiers.cheapest_fit->id) : json(nullptr)},
                       {"tiers", std::move(tiers_json)}}}};
}
}  // namespace

// ---- advise JSON -----------------------------------------------------------------------------------------------
namespace {

std::vector<engine::CardAdvice> run_advisor(const DecisionScenario& s, const Catalog& catalog, bool& is_floor) {
    const Scenario& sc = s.scenario;
    engine::AdviceJob job;
    job.spec = sc.model;
    job.shape = sc.shape_per_sample();
    job.config = sc.training_config();
    job.dataset = time_dataset(sc);
    job.time_options = ranking_time_options(sc);
    job.priors = priors_for(sc.model.family, is_floor);
    job.offer_fused_loss = stack_switch_line(sc.stack, engine::Change::kFusedLoss) != nullptr;
    job.offer_offload_activations = stack_switch_line(sc.stack, engine::Change::kOffloadActivations) != nullptr;
    engine::AdviceOptions options;
    options.deadline_s = s.decision.deadline_s;
    options.allow_result_changes = s.decision.allow_result_changes;
    options.host_ram_bytes = catalog.settings.host_system.ram_bytes;  // as the ranking's bought cards
    options.ecc_gpu_id = sc.gpu_id;  // gpu.ecc describes the scenario's own card
    options.ecc = sc.ecc;
    return engine::advise(job, catalog.gpus, embedded_compat_data(), options);
}

json fix_json(const engine::CardAdvice& a, const std::string& stack) { return fix_json(a.fix, a.status, stack); }

json fix_json(const engine::Fix& f, engine::AdviceStatus status, const std::string& stack) {
    json changes = json::array();
    for (const engine::AppliedChange& c : f.changes) {
        changes.push_back({{"change", engine::change_name(c.change)},
                           {"value", c.value},
                           {"accuracy_risk", engine::accuracy_risk_name(c.risk)},
                           {"reason", engine::risk_reason_name(c.reason)}});
        if (const char* line = stack_switch_line(stack, c.change)) changes.back()["stack_line"] = line;
    }
    json fix = nullptr;
    if (status != engine::AdviceStatus::kNoFix) {
        fix = {{"changes", changes},
               {"micro_batch", f.config.batch},
               {"grad_accum_steps", f.config.grad_accum_steps},
               {"gpu_count", f.config.gpu_count},
               {"global_batch", f.global_batch},
               {"precision", kPrecisions[std::size_t(f.config.precision)]},
               {"optimizer", kOptimizers[std::size_t(f.config.optimizer)]},
               {"method", kMethods[std::size_t(f.config.method)]},
               {"checkpointing", kCheckpointings[std::size_t(f.config.checkpointing)]},
               {"ema", f.config.ema_weights},
               {"precomputed_latents", f.config.precomputed_latents},
               {"frozen_weights_16bit", f.config.frozen_weights_16bit},
               {"fused_loss", f.config.loss_kernel == engine::LossKernel::kFused},
               {"offload_activations", f.config.offload_activations},
               {"strategy", kStrategies[std::size_t(f.config.strategy)]},
               {"tensor_parallel", f.config.tensor_parallel},
               {"pipeline_parallel", f.config.pipeline_parallel},
               {"pipeline_interleave", f.config.pipeline_interleave},
               {"sequence_parallel", f.config.sequence_parallel},
               {"offload_optimizer", f.config.offload_optimizer},
               {"eager_attention", f.config.eager_attention},
               {"seq_len", f.shape.seq_len > 0 ? json(f.shape.seq_len) : json(nullptr)},
               {"image_size", f.shape.image_size > 0 ? json(f.shape.image_size) : json(nullptr)},
               {"peak_bytes_per_card", f.peak_bytes_per_card},
               {"usable_bytes_per_card", f.usable_bytes_per_card},
               {"verdict", engine::verdict_name(f.verdict)},  // "tight": into the headroom, as the ranking's plan
               {"time_s", num_or_null(f.time_s)},
               {"time_ratio", num_or_null(f.time_ratio)}};
    }
    return fix;
}

json advise_json_with(const DecisionScenario& s, const Catalog& catalog, const std::vector<engine::CardAdvice>& advice,
                      bool is_floor) {
    const Scenario& sc = s.scenario;
    const engine::TrainingConfig config = sc.training_config();
    const engine::JobNeeds needs{config.precision, sc.attention == "flash", config.optimizer, config.method};
    const engine::CompatData& compat = embedded_compat_data();
    json cards = json::array();
    for (const engine::CardAdvice& a : advice) {
        cards.push_back({{"gpu", a.gpu->id},
                         {"status", engine::advice_status_name(a.status)},
                         {"fits_as_is", a.fits_as_is},
                         {"meets_deadline_as_is", a.meets_deadline_as_is},
                         {"original", {{"peak_bytes_per_card", a.original_peak_bytes},
                                       {"usable_bytes_per_card", a.original_usable_bytes},
                                       {"time_s", num_or_null(a.original_time_s)}}},
                         {"fix", fix_json(a, sc.stack)},
                         // The best fix on the scenario's own card count when "fix" changes it (else null).
                         {"fix_same_count", fix_json(a.same_count_fix, a.same_count_status, sc.stack)},
                         {"warnings", warnings_json(engine::check_compat(*a.gpu, needs, compat, &catalog.gpus))}});
    }
    return {{"time_basis", is_floor ? "roofline_floor" : "fitted_priors"}, {"cards", std::move(cards)}};
}
}  // namespace

}  // namespace gg::catalog
