// Plain data for the hardware and prices the engine reasons about: GPUs, cloud offers, cost settings.
// Filled by the catalog layer (src/catalog) from data/*.json; all values in base units (bytes, bytes/s,
// FLOP/s, W, seconds). Must not include JSON, UI or platform headers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/calibration.h"

namespace gg::engine {

constexpr double kBytesPerGiB = 1073741824.0;  // 2^30 (memory capacity: vendors' "GB" of GDDR/HBM is GiB)

// Dense (no 2:4 sparsity) peak rates. 0 means "not supported by this card"; fp32 == 0 means "unknown" (no vendor
// figure, e.g. AWS's A10G): such a card serves memory checks, and gets a time estimate only from a measured best
// GEMM (data/throughput_priors.json matmul_limits; engine::rates_for_time).
struct DenseFlopPerS {
    double fp32 = 0;          // plain FP32 (CUDA cores / vector units)
    double tf32 = 0;          // TF32 tensor cores (Ampere+); 0 before Ampere
    double fp16 = 0;          // FP16 tensor, FP32 accumulate: the rate mixed-precision training gets
    double fp16_fp16acc = 0;  // FP16 tensor, FP16 accumulate (GeForce cards are 2x here; training rarely uses it)
    double bf16 = 0;          // BF16 tensor, FP32 accumulate
    double fp8 = 0;           // FP8 tensor, FP32 accumulate (Ada, Hopper, Blackwell)
    double int8 = 0;          // INT8 tensor, in OP/s
};

struct StreetPrice {
    double new_cny = 0;   // 0 = unknown
    double used_cny = 0;  // 0 = unknown
    std::string as_of;    // ISO date the prices were seen
    std::string source;   // kUserPriceSource when the user entered the price on the page
};
// The source the page writes for a price the user entered (a quote they got): the ranking uses it as given.
inline constexpr const char* kUserPriceSource = "entered by the user";

struct GpuSpec {
    std::string id;            // "rtx-4090": lowercase, hyphenated, stable (links and scripts use it)
    std::string name;          // "NVIDIA GeForce RTX 4090"
    std::string vendor;        // "nvidia", "amd"
    std::string segment;       // "consumer", "workstation", "datacenter"
    std::string architecture;  // "Ada Lovelace"
    int compute_capability_major = 0;  // CUDA compute capability; 0 for non-NVIDIA
    int compute_capability_minor = 0;
    int launch_year = 0;
    double memory_bytes = 0;   // the datasheet's capacity (vendors' "GB" of GDDR/HBM is GiB)
    std::string memory_type;   // "GDDR6X", "HBM3", ...
    // What nvidia-smi shows as the card's total memory (the "Memory-Usage" column's right-hand figure, NVML's
    // nvmlMemory_t.total) in a published reading, and whether ECC was on in that reading; 0 = no reading found: the
    // engine then uses memory_bytes (card_memory.h, usable_memory_bytes).
    double visible_memory_bytes = 0;
    bool visible_memory_ecc_on = false;
    std::string visible_memory_source;  // the published nvidia-smi output, with its driver version
    std::string visible_memory_as_of;   // the date of that output
    double memory_bandwidth_bytes_per_s = 0;
    DenseFlopPerS dense_flop_per_s;
    double tdp_w = 0;          // board power; 0 = unpublished
    std::string form_factor;   // "pcie", "sxm", "oam"
    int pcie_gen = 0;
    int pcie_lanes = 0;
    double nvlink_bytes_per_s = 0;  // total bidirectional NVLink/Infinity Fabric bandwidth per GPU; 0 = none
    bool ecc = false;               // the card has ECC memory (can turn it on)
    bool ecc_on_by_default = false; // ECC is on as the card ships (data-centre cards); false without ECC
    bool laptop = false;            // a laptop GPU (soldered, one per laptop, clocks set by the maker's power limit):
                                    // the student's own, ranked bought once and never with a desktop host or a price
    double launch_price_usd = 0;    // 0 = unknown / not sold at list price
    StreetPrice street_price;
    std::vector<std::string> notes;  // caveats (e.g. export-restricted variant, software ecosystem)
    std::string source;
    std::string as_of;
    // The user's own corrections for this card ("calibrated by you"): from their measurements only, never from the
    // bundled data (catalog merge_user_data's "calibrations").
    CardCalibration calibration;
};

enum class Billing { OnDemand, Spot, Monthly, Free };

// What a free or notebook tier allows a session (data/cloud_offers.json "session_limits"); 0 = no such limit. The
// engine turns them into sessions, weeks of calendar time and lost work (cost.h, plan_sessions).
struct SessionLimits {
    double max_session_s = 0;     // a session (VM) ends after this much wall-clock time, whatever runs in it
    double idle_timeout_s = 0;    // disconnects when nobody interacts with the notebook for this long (a warning)
    double gpu_s_per_week = 0;    // weekly quota of accelerator time, counted while the session holds the GPU
    bool gpu_guaranteed = true;   // false: a GPU may not be given when asked for (the tier says availability varies)
    double disk_bytes = 0;        // the writable disk a session keeps (checkpoints must fit); 0 = not given
    std::string source;           // the pages the limits come from
    std::string as_of;
};

// What it takes to reach and pay for a provider (data/cloud_offers.json "access", one record per provider): each fact
// is known only where a page says so (its source and date with it); kUnknown otherwise, never guessed.
enum class Fact : std::uint8_t { kUnknown, kNo, kYes };
struct AccessFact {
    Fact value = Fact::kUnknown;
    std::string source;
    std::string as_of;
};
struct AccessFacts {
    AccessFact blocked_in_mainland_china;    // the service cannot be reached from mainland China without a VPN
    AccessFact international_payment_only;   // pays only by an international card (Visa, Mastercard...) or crypto:
                                             // no Alipay, WeChat Pay or CNY card
    AccessFact phone_verification;           // the account needs a verified phone number before it gets a GPU
    AccessFact real_name_verification;       // Chinese real-name (identity) verification before renting
    // A user in mainland China likely cannot use the offer: it is blocked there, or it takes only foreign payment.
    bool limits_mainland_china() const {
        return blocked_in_mainland_china.value == Fact::kYes || international_payment_only.value == Fact::kYes;
    }
};

struct CloudOffer {
    std::string id;
    std::string provider;
    std::string region;
    std::string instance;
    std::string gpu_id;          // a GpuSpec::id
    int gpu_count = 1;
    double price_per_hour = 0;   // in `currency`, for the whole instance
    std::string currency;        // "CNY" or "USD"
    Billing billing = Billing::OnDemand;
    double billing_granularity_s = 3600;  // smallest billed unit (1 s, 60 s, 3600 s, a month...)
    double price_per_month = 0;  // Billing::Monthly only: the monthly price in `currency` (= price_per_hour * 720)
    double host_ram_bytes = 0;   // the instance's RAM; 0 = not in the data (no optimizer offload planned on it)
    std::string host_ram_source; // where host_ram_bytes comes from
    double vcpu_count = 0;       // the instance's vCPUs, shared by its gpu_count GPUs; 0 = unknown (engine/loader.h)
    std::string vcpu_source;     // where vcpu_count comes from, or why it is unknown
    SessionLimits limits;        // free and notebook tiers; all 0 for a plain rental
    bool has_limits = false;     // the offer's data gives session_limits
    AccessFacts access;          // the provider's access and payment facts (catalog: by provider name)
    std::string as_of;
    std::string source;
    std::vector<std::string> notes;
};

// --- Cost settings (data/settings.json). Every value is sourced in the data; the user can override each. ---

struct ExchangeRate {
    double cny_per_usd = 0;  // 0 = unknown
    std::string as_of;
    std::string source;
};

struct ElectricityPrice {
    std::string id;        // "cn-residential"
    std::string region;    // "cn", "us", "eu"
    std::string label_en;  // "China, residential"
    std::string label_zh;  // "中国居民用电"
    double price_per_kwh = 0;  // in `currency` per kWh (1 kWh = 3.6e6 J)
    std::string currency;      // "CNY" or "USD" (the only currencies exchange_rate converts)
    std::string as_of;
    std::string source;
};

struct HostSystem {
    double cost_cny = 0;  // CPU, board, RAM, SSD, PSU, case for a one-GPU workstation; 0 = unknown
    double power_w = 0;   // average draw of everything but the GPU while training
    double psu_w = 0;     // rating of its power supply (cards + host must stay under it); 0 = not checked
    double ram_bytes = 0; // its RAM (ZeRO-Offload keeps the optimizer there); 0 = unknown
    std::string as_of;
    std::string source;
    std::string note;
};

struct ResalePoint {
    double age_months = 0;        // months since bought new
    double value_fraction = 1.0;  // resale price / new price at that age
};

struct ResaleValue {
    std::vector<ResalePoint> points;  // ascending age; empty = unknown
    std::string as_of;
    std::string source;
};

struct SourcedFraction {
    double value_fraction = 0;
    std::string source;
};

// A number from data/settings.json with the page it comes from (0 = unknown: the term it feeds is not counted and the
// result says so).
struct SourcedQuantity {
    double value = 0;
    std::string source;
};

// What a rented or free session spends before and beside training (data/settings.json "session_overheads"); each is
// a default the scenario can override. Billed on a rental: the meter runs from the instance's start.
struct SessionOverheads {
    SourcedQuantity instance_start_s;          // from asking for the instance to a usable shell / notebook
    SourcedQuantity environment_setup_s;       // installing what the image lacks
    SourcedQuantity download_bytes_per_s;      // fetching the dataset and the base model onto the instance
    SourcedQuantity checkpoint_write_bytes_per_s;  // saving a checkpoint to the instance's disk
    SourcedQuantity spot_interruptions_per_hour;   // spot / preemptible offers: expected preemptions per hour
};

struct StoragePrice {
    double price_per_gb_month_cny = 0;  // cloud disk, per 10^9 bytes per month; 0 = unknown / not given
    std::string source;
};

struct CostSettings {
    ExchangeRate exchange_rate;
    std::vector<ElectricityPrice> electricity;
    std::string default_electricity_id;  // an ElectricityPrice::id
    HostSystem host_system;
    ResaleValue resale_value;
    SourcedFraction utilization;  // fraction of wall-clock time a bought card trains (for cost per year)
    SourcedFraction reserve;      // fraction of GPU memory kept free
    StoragePrice storage;
    SessionOverheads overheads;
};

}  // namespace gg::engine
