// The hardware catalog: loads, validates and serves data/gpus.json, data/cloud_offers.json and data/settings.json
// as engine structs in base units (bytes, bytes/s, FLOP/s, W, s). JSON in, JSON out; no UI or platform code.
// Nothing here throws or aborts on bad data: every problem is collected with its file and JSON pointer.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/hardware.h"

namespace gg::catalog {

// One thing wrong with the data, in plain English.
struct Problem {
    std::string file;     // "data/gpus.json", or "user data"
    std::string pointer;  // RFC 6901, e.g. "/gpus/3/memory_gib"; "" = the whole document
    std::string message;  // what is wrong and what is expected
};

struct Catalog {
    std::vector<engine::GpuSpec> gpus;       // in file order
    std::vector<engine::CloudOffer> offers;  // in file order; every gpu_id is in `gpus`
    engine::CostSettings settings;           // a part with problems is left at its zero default (= unknown)
    const engine::GpuSpec* find_gpu(std::string_view id) const;         // nullptr when unknown
    const engine::CloudOffer* find_offer(std::string_view id) const;    // nullptr when unknown
    bool rents(std::string_view gpu_id) const;                          // some offer rents this GPU
    int most_rented_at_once(std::string_view gpu_id) const;             // the largest offer's card count (0 = none)
    const engine::ElectricityPrice* default_electricity() const;        // nullptr when unknown
};

// File names used in problems (the paths of the embedded files).
inline constexpr const char* kGpusFile = "data/gpus.json";
inline constexpr const char* kOffersFile = "data/cloud_offers.json";
inline constexpr const char* kSettingsFile = "data/settings.json";
inline constexpr const char* kUserDataFile = "user data";

// Parse + validate; every problem collected (never throws, never aborts); records with problems are dropped,
// the rest kept. An offer whose GPU is unknown (or was dropped) is dropped too.
Catalog parse_catalog(std::string_view gpus_json, std::string_view offers_json, std::string_view settings_json,
                      std::vector<Problem>& problems);

// The bundled data (data/*.json compiled in), parsed once.
const Catalog& embedded_catalog();
const std::vector<Problem>& embedded_catalog_problems();

// User data (custom GPUs/offers, e.g. from the page's saved state) merged over a base catalog:
//   {"schema_version": 1, "gpus": [GPU...], "offers": [OFFER...], "calibrations": [...], "pins": [SCENARIO...]}
//   (every array optional). "pins" are the page's pinned scenarios (at most kMaxPins), exported with the data: they
//   change nothing in the catalog, but each must be a valid scenario against the merged catalog.
// Records have the same keys as in data/*.json, but only the keys needed for estimates are required.
// A record whose id is already in `base` replaces it; new ids are appended. Offers may name base or user GPUs.
// Problems carry file kUserDataFile.
Catalog merge_user_data(const Catalog& base, std::string_view user_json, std::vector<Problem>& problems);
// The most scenarios the page pins side by side (its comparison columns), and so the most a data file holds.
inline constexpr int kMaxPins = 3;
// The most records of each kind a user data file holds (the first ones are read, with a problem at /gpus, /offers,
// /calibrations): every card is ranked bought 1, 2, 4 and 8 times at each change of the page, so 200 own cards add
// 800 options to the bundled catalog's few hundred and keep a change within a frame's order of magnitude.
inline constexpr std::size_t kMaxUserGpus = 200;
inline constexpr std::size_t kMaxUserOffers = 500;
inline constexpr std::size_t kMaxUserCalibrations = 200;

// Compares the catalog's GPUs with an independent second source (tests/validation/gpu_spec_crosscheck.json:
// {"gpus": [{"id", "memory_gib", "memory_bandwidth_gb_per_s", "fp32_tflops", "source"}]}): memory must match
// exactly, bandwidth and FP32 within kCrosscheckTolerance_fraction; every id must be in the catalog. Problems name
// the crosscheck file and entry. `compared_count` receives the number of GPUs compared.
inline constexpr const char* kCrosscheckFile = "tests/validation/gpu_spec_crosscheck.json";
inline constexpr double kCrosscheckTolerance_fraction = 0.03;  // rounding in second sources (e.g. 82.58 vs 82.6)
std::vector<Problem> crosscheck_gpu_specs(const Catalog& catalog, std::string_view crosscheck_json,
                                          int& compared_count);

// JSON in base units. Unsupported rates and unknown values are null.
//   GPU:   id, name, vendor, segment, architecture, compute_capability ("8.9" | null), launch_year, memory_bytes,
//          memory_type, memory_bandwidth_bytes_per_s, dense_flop_per_s {fp32, tf32, fp16, fp16_fp16acc, bf16, fp8,
//          int8} (fp16/bf16/fp8 = FP32-accumulate rate; int8 in OP/s), tdp_w, form_factor, pcie_gen, pcie_lanes,
//          nvlink_bytes_per_s, ecc, launch_price_usd, street_price_cny {new, used, as_of, source} | null, notes,
//          source, as_of
//   offer: id, provider, region, instance, gpu, gpu_count, price_per_hour, currency, billing
//          ("on-demand" | "spot" | "monthly"), billing_granularity_s, price_per_month (null unless monthly), as_of,
//          source, notes
nlohmann::json gpu_to_json(const engine::GpuSpec&);
// The same record in data/gpus.json's format and units (GiB, GB/s, TFLOPS): what user data files hold, so a bundled
// card can be copied, changed (e.g. its price) and read back by merge_user_data.
nlohmann::json gpu_to_data_json(const engine::GpuSpec&);
nlohmann::json offer_to_json(const engine::CloudOffer&);
// The settings in the layout of data/settings.json (its units are already base units or money per stated unit).
nlohmann::json settings_to_json(const engine::CostSettings&);

const char* billing_name(engine::Billing billing);  // "on-demand", "spot", "monthly"

// The newest date (YYYY-MM-DD) a record's as_of may carry: the compiler's __DATE__ of the catalog build.
std::string newest_allowed_date();

}  // namespace gg::catalog
