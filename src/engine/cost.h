// What a training job costs: renting (cloud offer x billed time, storage) and buying (cards + a host, electricity,
// resale), the break-even between the two, and currency conversion. Pure C++ on the plain structs of hardware.h:
// no JSON, no UI. All money is computed in CNY and converted once at the edge (to_currency).
//
// Sections: currency | sessions | rent | buy | break-even
#pragma once

#include <cstdint>
#include <string>

#include "engine/hardware.h"

namespace gg::engine {

// ---- currency ------------------------------------------------------------------------------------------------
enum class Currency : std::uint8_t { kCny, kUsd };
const char* currency_code(Currency currency);  // "CNY", "USD"

// Amount in `currency_code` ("CNY" / "USD") to CNY; NaN when the currency is unknown or the rate is needed but 0.
double to_cny(double amount, const std::string& currency_code, double cny_per_usd);
// CNY to the output currency; NaN when USD is asked and the rate is unknown (0).
double from_cny(double amount_cny, Currency currency, double cny_per_usd);

// Mean hours in a month: 365.25 days x 24 h / 12 (Gregorian mean year). Used for "months at your GPU-hours per month"
// and to turn settings.utilization_fraction into the default GPU-hours per month (0.5 x 730.5 h = 365.25 h).
inline constexpr double kHoursPerMonth = 365.25 * 24.0 / 12.0;  // 730.5 h
// The month a cloud disk is priced by: AutoDL quotes 0.01 CNY per GB per day, i.e. per 30-day month
// (data/settings.json storage.source).
inline constexpr double kStorageMonthS = 30.0 * 24 * 3600;

// ---- sessions ------------------------------------------------------------------------------------------------
// One run as the sessions it takes on an offer: a rental is one session, unless spot preemptions restart it; a free
// or notebook tier (CloudOffer::limits) ends each session after max_session_s and may cap GPU time per week. Every
// session starts a fresh machine: start, setup and the downloads are paid again, and the job resumes from its last
// checkpoint (or, without checkpoints, cannot outlast one session).
struct SessionInputs {
    double run_time_s = 0;              // training time of one run (time.h), steady state
    double start_s = 0;                 // per session: instance start
    double setup_s = 0;                 // per session: environment setup
    double download_bytes = 0;          // per session: dataset + base model
    double download_bytes_per_s = 0;    // 0 = unknown: the download is not counted (download_unknown)
    bool checkpointing = true;          // the job saves checkpoints it can resume from
    double checkpoint_bytes = 0;        // one checkpoint (trainable weights + optimizer state)
    double checkpoint_write_bytes_per_s = 0;  // 0 = unknown: saves are not counted (checkpoint_time_unknown)
    double interruptions_per_s = 0;     // random preemptions (spot) per second of session time; 0 = none
};

enum class SessionStatus : std::uint8_t {
    kOk,
    kSessionTooShort,    // the per-session overheads alone fill a session: no training time is left in it
    kNeedsCheckpoints,   // the run outlasts one session and the job does not checkpoint: it never finishes
    kTooManyInterruptions,  // preemptions come faster than the job can save and resume: it never finishes
};
const char* session_status_name(SessionStatus status);  // "ok", "session_too_short", ...

struct SessionPlan {
    SessionStatus status = SessionStatus::kOk;
    double sessions = 1;                // sessions one run takes (whole)
    double overhead_s_per_session = 0;  // start + setup + download (+ checkpoint load when resuming)
    double download_s_per_session = 0;
    double overhead_s = 0;              // all sessions
    double checkpoint_interval_s = 0;   // time between saves (0 = saves only at planned session ends)
    double checkpoint_saves = 0;
    double checkpoint_s = 0;            // all saves (and the loads when resuming)
    double interruptions = 0;           // expected preemptions per run
    double lost_work_s = 0;             // expected training redone after preemptions
    double session_s = 0;               // everything the sessions hold: run + overheads + checkpoints + lost work
    double weeks = 0;                   // weekly quotas used (0 = no quota): session_s / quota
    double calendar_s = 0;              // first start to last save, waiting for the weekly quota to reset
    bool download_unknown = false;      // download bytes > 0 but no bandwidth: not counted
    bool checkpoint_time_unknown = false;  // checkpoints saved but no write speed: their time not counted
};

SessionPlan plan_sessions(const SessionLimits& limits, const SessionInputs& in);

// ---- rent ----------------------------------------------------------------------------------------------------
struct RentInputs {
    double run_time_s = 0;       // wall-clock time of one run on the offer's whole instance
    int runs = 1;                // runs in the project (each billed separately, each rounded up)
    double storage_bytes = 0;    // data + checkpoints kept on the cloud disk while the runs go on; 0 = none
    double storage_price_per_gb_month_cny = 0;  // settings.storage (per 10^9 bytes per 30 days)
    double cny_per_usd = 0;      // settings.exchange_rate
    const SessionPlan* sessions = nullptr;  // the run as sessions (plan_sessions): each session is billed on its own
                                            // and the bill is split by term; nullptr = run_time_s in one session
};

struct RentCost {
    double billed_s_per_run = 0;   // run time rounded up to the billing granularity
    double billed_units_per_run = 0;  // how many granules (seconds, minutes, hours, months) one run pays for
    // The compute bill by term (all runs; they add up to compute_cny): training itself, instance start + setup +
    // downloads, checkpoint saves, work redone after preemptions, and what rounding up to the billed unit adds.
    double training_cny = 0, overhead_cny = 0, checkpoint_cny = 0, lost_work_cny = 0, rounding_cny = 0;
    double compute_cny = 0;        // all runs
    double storage_cny = 0;        // all runs
    double total_cny = 0;          // NaN when the price cannot be converted (unknown currency / rate)
};

// cost = runs x ceil(run_time / granularity) x price per granule (+ storage). Monthly offers bill whole months of
// price_per_month; others price_per_hour x granule / 3600 s. Storage: bytes / 10^9 x months billed x price.
RentCost rent_cost(const CloudOffer& offer, const RentInputs& in);

// ---- buy -----------------------------------------------------------------------------------------------------
enum class PriceBasis : std::uint8_t {
    kStreetNew,      // GpuSpec::street_price.new_cny
    kLaunchUsd,      // launch_price_usd x exchange rate (no street price in the data)
    kUnknown,        // neither: no purchase cost can be given
};
const char* price_basis_name(PriceBasis basis);  // "street_new", "launch_usd", "unknown"

struct BuyInputs {
    int card_count = 1;
    double run_time_s = 0;       // wall-clock time of one run on these cards
    int runs = 1;
    double cny_per_usd = 0;
    double electricity_price_per_kwh_cny = 0;  // already in CNY (see to_cny)
    // Hours the owned cards train in a month (the scenario's gpu_hours_per_month; default settings.utilization x
    // kHoursPerMonth): spreads the project's training hours over calendar months, which sets the resale age.
    double gpu_hours_per_month = 0.5 * kHoursPerMonth;
    double ownership_months = 0;  // how long the cards are kept before resale; 0 = the project's own duration
                                  // (training hours / gpu_hours_per_month)
    HostSystem host;              // one host shared by the cards (settings.host_system)
    ResaleValue resale;           // resale curve (settings.resale_value); empty = no resale counted
};

struct BuyCost {
    PriceBasis basis = PriceBasis::kUnknown;
    double card_price_cny = 0;     // one card
    double cards_cny = 0;          // card_count x card_price
    double host_cny = 0;           // one host, not resold (kept as a computer; conservative)
    double purchase_cny = 0;       // cards + host: the cash needed up front
    double power_w = 0;            // card TDP x count + host draw while training
    double training_hours = 0;     // runs x run time
    double ownership_months = 0;   // as given, or training hours / gpu_hours_per_month
    double resale_fraction = 0;    // of the cards' price, at ownership_months
    double resale_cny = 0;
    double electricity_cny = 0;    // power x training hours x price
    double total_cny = 0;          // purchase - resale + electricity; NaN when the card price is unknown
};

// Interpolates the resale curve linearly; before the first point its value, past the last point the last segment
// extended and clamped at 0 (no data beyond it: an extrapolation, flagged by the caller). Empty curve = 0.
double resale_fraction_at(const ResaleValue& resale, double age_months);

// The purchase price of one card in CNY and its basis.
double card_price_cny(const GpuSpec& gpu, double cny_per_usd, PriceBasis& basis);

BuyCost buy_cost(const GpuSpec& gpu, const BuyInputs& in);

// ---- break-even ----------------------------------------------------------------------------------------------
struct BreakEven {
    bool exists = false;       // false: renting stays cheaper within kBreakEvenHorizonMonths (or data unknown)
    double runs = 0;           // fractional number of runs at which buying has cost as much as renting
    double training_hours = 0; // on the bought cards
    double months = 0;         // calendar months at the buyer's GPU-hours per month
};
inline constexpr double kBreakEvenHorizonMonths = 120;  // 10 years: past this a card is not worth modelling

// Smallest project size (in runs, continuous: billing granules ignored) where buying `buy_in.card_count` cards of
// `gpu` costs no more than renting `offer`, each run taking buy_in.run_time_s on the bought cards and
// rent_run_time_s on the rented instance. buy(N) = purchase - resale(months(N)) + electricity(N);
// rent(N) = N x rent_run_time_s / 3600 x price per hour (monthly offers: price_per_month / 720 h).
BreakEven break_even(const GpuSpec& gpu, const BuyInputs& buy_in, const CloudOffer& offer, double rent_run_time_s);

}  // namespace gg::engine
