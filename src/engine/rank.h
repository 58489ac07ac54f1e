// Ranking every way to run one job: buy N cards of each GPU model (N = 1, 2, 4, 8) or rent each cloud offer.
// Filters (fits with the reserve, budget, deadline, region, offer currency, rent/buy), objectives (lowest cost,
// fastest, best value), the Pareto frontier of time vs cost, and budget tiers. Results are codes with numbers.
// The job is reduced once per card count (prepare_job); each card is then evaluated in O(blocks). No JSON, no UI.
//
// Sections: decision inputs | the prepared job | options and reasons | ranking | tiers
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/compat.h"
#include "engine/cost.h"
#include "engine/hardware.h"
#include "engine/memory.h"
#include "engine/planner.h"
#include "engine/time.h"
#include "engine/workload.h"

namespace gg::engine {

// ---- decision inputs (the scenario's budget / deadline / ... keys, resolved to base units and CNY) -------------
enum class Objective : std::uint8_t { kCost, kTime, kValue };
enum class Ownership : std::uint8_t { kRent, kBuy, kBoth };
const char* objective_name(Objective objective);  // "cost", "time", "value"
const char* ownership_name(Ownership ownership);  // "rent", "buy", "both"

// Where the user is: decides whether an offer's access facts (AccessFacts) keep them from using it.
enum class UserRegion : std::uint8_t { kUnknown, kMainlandChina, kElsewhere };
const char* user_region_name(UserRegion region);  // "unknown", "mainland_china", "elsewhere"

struct DecisionInputs {
    double budget_cny = 0;          // 0 = no ceiling. Rent: the project's total; buy: cash out (purchase + power)
    Currency currency = Currency::kCny;  // what amounts are shown in
    double cny_per_usd = 0;         // the user's exchange rate; 0 = settings.exchange_rate
    double deadline_s = 0;          // 0 = none: one run must finish within it
    std::string region;             // "" = any; else offers in this region (or "global") only
    UserRegion user_region = UserRegion::kUnknown;  // kMainlandChina: offers it likely cannot use (blocked there, foreign
                                                    // payment only) are labelled kAccessLimited and ranked after the rest
    std::string offer_currency;     // "" = any; else only offers priced in it ("CNY" / "USD")
    Objective objective = Objective::kCost;
    Ownership ownership = Ownership::kBoth;
    double electricity_price_per_kwh_cny = 0;  // resolved by the caller (scenario value or settings default)
    double gpu_hours_per_month = 0.5 * kHoursPerMonth;  // the owned cards' training hours a month (BuyInputs)
    double ownership_months = 0;    // 0 = the project's duration (BuyInputs::ownership_months)
    int runs = 1;                   // runs of the job in the project
    double storage_bytes = 0;       // cloud disk kept while renting
    // Every rented or free session (sessions_for_offer): instance start, environment setup, downloading the dataset and
    // the base model, checkpoints. Defaults from settings.overheads; the scenario overrides each (< 0 = the default).
    double instance_start_s = -1;
    double environment_setup_s = -1;
    double download_bytes_per_s = -1;
    double checkpoint_write_bytes_per_s = -1;
    double spot_interruptions_per_hour = -1;
    double dataset_bytes = 0;       // the dataset downloaded into each session (the user's size; 0 = none)
    double base_model_bytes = -1;   // the pretrained weights downloaded into each session; < 0 = job_download_bytes'
                                    // default for the method, 0 = training from scratch
    bool checkpointing = true;      // the job saves checkpoints it can resume from in the next session
    std::vector<int> buy_counts = {1, 2, 4, 8};
    // Multi-node options: an 8-GPU server offer of a data-centre card that no plan fits is also offered as this many
    // instances (the smallest that fits), joined by the network the time model takes between nodes.
    std::vector<int> multi_node_counts = {2, 4, 8};
    double buy_host_ram_bytes = 0;  // the desktop host's RAM (settings host_system.ram); 0 = unknown
    bool allow_result_changes = false;  // the advice may change what is learned even where a same-result fix works
};

// ---- the prepared job --------------------------------------------------------------------------------------------
struct PreparedCount {
    int count = 1;
    PreparedMemory memory;
    PreparedTime time;
    double required_bytes = 0;  // nvidia-smi bytes per card at the micro-batch (independent of the card)
};

struct JobModel {
    ModelSpec spec;
    WorkloadShape shape;            // per sample (batch 1)
    TrainingConfig config;          // the scenario's (its gpu_count is the scenario's count)
    Dataset dataset;
    TimeOptions time_options;
    const ThroughputPriors* priors = nullptr;  // nullptr = no time estimates at all
    bool time_is_floor = false;     // priors are the peak-rate floor (peak_floor_priors): times are lower bounds
    JobNeeds needs;
    std::vector<PreparedCount> per_count;
    double work_per_run = 0;        // samples (or tokens, see work_in_tokens) one run trains on; 0 = no dataset
    bool work_in_tokens = false;
    const PreparedCount* find(int count) const;
};

// Builds the graph once and reduces memory and time for each card count in `counts` (plus the scenario's).
JobModel prepare_job(const ModelSpec& spec, const WorkloadShape& shape, const TrainingConfig& config,
                     const Dataset& dataset, const TimeOptions& time_options, const ThroughputPriors* priors,
                     bool time_is_floor, const std::vector<int>& counts);

// Priors that give the roofline floor: every matmul at 100% of the dense peak, every byte at 100% of the memory
// bandwidth, no launch overhead, no interconnect rows (so multi-GPU times stay unknown). Times computed with them
// are lower bounds (never reachable); used only when the fitted priors are not available.
const ThroughputPriors& peak_floor_priors();

// One run's time on `count` cards of `gpu` (NaN when unknown); fills `status`.
double run_time_s(const JobModel& job, const GpuSpec& gpu, int count, TimeStatus* status = nullptr);

// What each session downloads and saves for this job. Base model: the pretrained weights a fine-tune starts from, as
// published: 2 bytes per parameter for LoRA / QLoRA (16-bit safetensors, the form Hugging Face hosts LLM and diffusion
// checkpoints in), 4 for a full fine-tune (fp32 checkpoints: torchvision's and bert-base-uncased's pytorch_model.bin);
// frozen input encoders (SD's VAE and text encoders) count. Checkpoint: the trainable weights in fp32 plus their
// optimizer state (PreparedMemory's bytes per parameter); a LoRA checkpoint holds the adapters only.
double job_base_model_bytes(const JobModel& job);
double job_checkpoint_bytes(const JobModel& job);

// The sessions one run of `run_time_s` takes on `offer`, with the decision's overheads (its values, else settings').
SessionPlan sessions_for_offer(const JobModel& job, const CloudOffer& offer, double run_time_s,
                               const CostSettings& settings, const DecisionInputs& decision);

// ---- options and reasons -----------------------------------------------------------------------------------------
enum class OptionKind : std::uint8_t { kBuy, kRent };
const char* option_kind_name(OptionKind kind);  // "buy", "rent"

enum class ReasonCode : std::uint8_t {
    kFits,               // peak_bytes, usable_bytes, card_bytes
    kDoesNotFit,         // peak_bytes, usable_bytes, card_bytes
    kTime,               // time_s (one run), project_time_s (all runs)
    kTimeUnknown,        // status (TimeStatus as a number)
    kTimeIsFloor,        // times are roofline lower bounds (no fitted priors)
    kCost,               // cost (project, output currency), upfront (buy: purchase), per_run (rent)
    kCostUnknown,        // no price for the card (buy) or no exchange rate
    kOverBudget,         // cash, budget (output currency)
    kOverDeadline,       // time_s, deadline_s
    kRegionMismatch,     // the offer's region is not the one asked for
    kCurrencyMismatch,   // the offer's currency is not the one asked for
    kOwnershipExcluded,  // rent-only or buy-only scenario
    kBreakEven,          // runs, hours, months; other = the rent offer id
    kNeverBreaksEven,    // horizon_months; other = the rent offer id
    kResaleExtrapolated, // ownership_months past the last point of the resale curve (last_point_months)
    kHostShared,         // several cards share one host whose price is for a one-GPU workstation (count)
    kHostUnderpowered,   // power_w (cards' TDP + host) over psu_w, the host's power supply: the host counted is too small
    kServerOnly,         // SXM / OAM modules: sold only inside 4- or 8-GPU servers, so no card + desktop price
    kLaunchPriceBasis,   // card price = launch USD x rate (no street price): launch_usd, cny_per_usd
    kPlanChanged,        // global_batch: the option runs the job with another layout than typed (see RankOption::plan)
    kMultiNode,          // nodes, gpus_per_node: several instances of a server offer, joined by its network
    kIncompatible,       // a blocking compatibility warning (see warnings)
    kBillingRounded,     // billed_s, run_time_s: the run is rounded up to the billing unit
    kTight,              // peak_bytes, headroom_bytes, card_bytes: fits the card, not with the headroom (kept)
    kFreeTier,           // sessions, calendar_s, weeks: a free or notebook tier's run as sessions and calendar time
    kSessionLimits,      // max_session_s, idle_timeout_s, gpu_s_per_week: what the tier allows (watch for them)
    kNoGuaranteedGpu,    // the tier may give no GPU when asked (Colab)
    kNeedsCheckpoints,   // run_time_s, max_session_s: the run outlasts a session and the job does not checkpoint
    kSessionTooShort,    // overhead_s, max_session_s: start + setup + downloads fill a whole session
    kSessionOverheads,   // overhead_s (start + setup + downloads, all sessions), download_bytes, checkpoint_s
    kDownloadUnknown,    // download_bytes: no download bandwidth known, so the download time is not counted
    kCheckpointTimeUnknown,  // checkpoint_bytes: no disk write speed known, so saves are not counted
    kSpotInterruptions,  // interruptions, lost_work_s: expected preemptions per run and the work redone
    kSpotRateUnknown,    // a spot offer without a preemption rate: restarts are not counted
    kDiskTooSmall,       // checkpoint_bytes, disk_bytes: a checkpoint does not fit the session's disk
    kAccessLimited,      // blocked, foreign_payment (1 = yes): a user in mainland China likely cannot use the offer; other
                         // = the provider. Kept and eligible, ranked after every option the user can use
};
const char* reason_code_name(ReasonCode code);

// The named numbers of one reason, inline (kFits and kBreakEven have the most: 3).
using ReasonValues = NamedValues<3>;

struct Reason {
    ReasonCode code = ReasonCode::kFits;
    ReasonValues values;
    std::string_view other;  // an id (offer) or a region / currency the reason refers to: a view of the catalog's
                             // string, valid while the offers passed to rank_options live (as RankOption::offer)
};

struct RankOption {
    OptionKind kind = OptionKind::kBuy;
    const GpuSpec* gpu = nullptr;
    int count = 1;
    const CloudOffer* offer = nullptr;  // rent only
    std::string id;                     // "buy:rtx-4090:1", "rent:<offer id>": the tie-break key

    int nodes = 1;                      // rent: instances of the offer (a multi-node option when > 1)

    // The fastest same-result way to run the job on these cards (planner.h); fits = a plan was found.
    Plan plan;
    bool fits_as_typed = false;         // the plan is the typed layout (only the accumulation may differ)
    bool calibrated = false;            // the card carries the user's calibration for this job (memory, or the
                                        // family's speed): its numbers are "calibrated by you"
    bool fits = false;                  // verdict fits or tight: the job runs on the card (with the plan)
    bool tight = false;                 // verdict tight: it fits the card, not with the headroom (Headroom)
    Verdict verdict = Verdict::kDoesNotFit;  // judge_fit's three steps, for the plan
    Headroom headroom;                  // what a real run needs beyond the peak on this card (buy: a desktop too)
    double peak_bytes_per_card = 0;     // nvidia-smi view: the plan's, or (no plan) the least any layout needs
    double usable_bytes_per_card = 0;   // card less the headroom
    double time_s = 0;                  // one run; NaN = unknown
    SessionPlan sessions;               // rent: the run as sessions (start, setup, downloads, checkpoints, quotas)
    double calendar_s = 0;              // rent: first start to the end of the last session, weekly quotas waited out
    bool free_tier = false;             // rent: a free offer (Billing::Free): nothing to pay
    bool access_limited = false;        // rent: kAccessLimited (the user likely cannot use it from where they are)
    double cost_cny = 0;                // the project (runs), net of resale for buy; NaN = unknown
    double cash_cny = 0;                // what must be paid out (rent: = cost; buy: purchase + electricity)
    double value = 0;                   // samples (or tokens) per CNY over the project; 0 = unknown
    bool value_in_tokens = false;
    bool eligible = false;              // fits, compatible, and passes every filter
    bool pareto = false;                // on the time-cost frontier of the eligible options
    BuyCost buy;                        // kind == kBuy
    RentCost rent;                      // kind == kRent
    std::vector<Reason> reasons;
    std::shared_ptr<const std::vector<CompatWarning>> warnings;  // never null; shared by the options of one card
};

// ---- ranking -----------------------------------------------------------------------------------------------------
struct RankResult {
    std::vector<RankOption> options;  // ordered: eligible by objective, then eligible with the objective unknown,
                                      // then eligible but access-limited for the user, then filtered out, then not
                                      // fitting; ties by id
};

// `gpus` and `offers` must outlive the result (options and reasons point into them).
RankResult rank_options(const JobModel& job, const std::vector<GpuSpec>& gpus, const std::vector<CloudOffer>& offers,
                        const CostSettings& settings, const DecisionInputs& decision, const CompatData& compat);

// ---- tiers -------------------------------------------------------------------------------------------------------
struct TierResult {
    BudgetTier tier;
    double min_price_cny = 0;          // the tier's lower bound (the previous tier's ceiling)
    const RankOption* best = nullptr;  // best eligible one-card buy option priced inside the tier (by objective)
    int fitting_count = 0;             // one-card buy options inside the tier where the job fits
    int card_count = 0;                // cards priced inside the tier
};

struct TierSummary {
    std::vector<TierResult> tiers;
    double min_memory_bytes = 0;       // the smallest card memory the job fits on, with the headroom of an own card
    const RankOption* cheapest_fit = nullptr;  // the cheapest one-card purchase where the job fits
};

// `ranked` must outlive the summary (pointers into it).
TierSummary budget_tiers(const RankResult& ranked, const JobModel& job, const CompatData& compat);

}  // namespace gg::engine
