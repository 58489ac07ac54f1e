// Software compatibility of a card for a job: precision and kernel support by compute capability, minimum CUDA /
// PyTorch per architecture, ROCm for AMD, China export-control variants. Results are codes with numbers, never
// text. The facts come from data/compatibility.json (loaded by src/catalog/compat_data.cpp). No JSON, no UI.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "engine/hardware.h"
#include "engine/memory.h"

namespace gg::engine {

// ---- named numbers -------------------------------------------------------------------------------------------
// (name, value) pairs kept inline, at most Capacity, so that a warning or a reason allocates nothing (a ranking makes
// thousands); iterates like a std::vector of pairs.
template <std::size_t Capacity>
class NamedValues {
public:
    using Value = std::pair<const char*, double>;
    NamedValues() = default;
    NamedValues(std::initializer_list<Value> values) {
        for (const Value& v : values) push_back(v);
    }
    void push_back(const Value& v) {
        assert(count_ < Capacity && "NamedValues: more values than its Capacity; raise it where it is declared");
        if (count_ < Capacity) items_[count_++] = v;  // a release build drops the extra value, never overflows
    }
    const Value* begin() const { return items_.data(); }
    const Value* end() const { return items_.data() + count_; }
    std::size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }

private:
    std::array<Value, Capacity> items_{};
    std::uint8_t count_ = 0;
};

// ---- data (data/compatibility.json) ----------------------------------------------------------------------------
struct Version {
    int major = 0, minor = 0;  // 0.0 = unknown
    bool known() const { return major > 0; }
};

struct FeatureThreshold {
    std::string id;            // "bf16", "fp8", "flash_attention_2", "tensor_cores"
    int min_cc = 0;            // compute capability x 10 (8.0 -> 80)
    std::string source;
};

struct ArchSupport {
    std::string architecture;  // "Hopper"
    int cc = 0;                // compute capability x 10
    Version min_cuda, min_pytorch;
    std::string pytorch_wheels_dropped;  // "" = still in current wheels
    Version cuda_dropped;               // first CUDA major without it; unknown = supported
    std::string source;
};

struct RocmSupport {
    std::string gpu_id;
    std::string gfx;
    bool on_linux = false, on_windows = false;
    std::string source;
};

struct ExportVariant {
    std::string gpu_id, base_gpu_id;
    std::string source;
};

struct BudgetTier {
    std::string id;                 // "budget", "balanced", "pro"
    double max_price_cny = 0;       // 0 = no ceiling
    double suggested_memory_bytes = 0;
};

struct CompatData {
    std::vector<FeatureThreshold> features;
    std::vector<ArchSupport> architectures;
    std::vector<RocmSupport> rocm;
    std::vector<ExportVariant> export_variants;
    std::vector<BudgetTier> budget_tiers;
    std::string budget_tiers_source;
    const FeatureThreshold* feature(const std::string& id) const;
    const ArchSupport* arch(int cc) const;
};

// ---- warnings ------------------------------------------------------------------------------------------------
enum class CompatCode : std::uint8_t {
    kPrecisionUnsupported,  // the job's precision needs a compute capability the card lacks (values: needed_cc, card_cc)
    kNoBf16,                // info: no BF16 (use fp16-amp with loss scaling) (needed_cc, card_cc)
    kNoFp8,                 // info: no FP8 tensor cores (needed_cc, card_cc)
    kNoFlashAttention2,     // FlashAttention-2 needs Ampere+ (needed_cc, card_cc)
    kNoTensorCores,         // AMP saves memory but gives no speed-up (fp16_to_fp32_rate_ratio)
    kMinCuda,               // needs CUDA >= (cuda_major, cuda_minor) and PyTorch >= (pytorch_major, pytorch_minor)
    kLegacyWheelsOnly,      // current PyTorch CUDA 12.8+ wheels dropped this architecture (cuda_dropped_major)
    kRocmRequired,          // AMD: PyTorch via ROCm (on_linux 1/0, on_windows 1/0)
    kRocmNotListed,         // AMD card not in the ROCm support list of the data
    kCudaOnlyLibrary,       // the job uses a CUDA-first library (bitsandbytes: 8-bit optimizer, QLoRA; FlashAttention)
    kExportVariant,         // China variant: ratios to the base card (nvlink_ratio, bf16_ratio, memory_ratio,
                            // bandwidth_ratio); other_gpu = base card
    kUnknownArchitecture,   // NVIDIA card whose compute capability has no row in the data (card_cc)
};
const char* compat_code_name(CompatCode code);  // "precision_unsupported", ...

enum class Severity : std::uint8_t { kInfo, kWarning, kBlocker };
const char* severity_name(Severity severity);  // "info", "warning", "blocker"

struct CompatWarning {
    CompatCode code = CompatCode::kPrecisionUnsupported;
    Severity severity = Severity::kInfo;
    NamedValues<4> values;  // named numbers in base units / plain ratios (kMinCuda, kExportVariant have 4)
    std::string other_gpu;  // kExportVariant: the unrestricted base card's id
};

// What of the job matters for compatibility.
struct JobNeeds {
    Precision precision = Precision::kFp32;
    bool flash_attention = false;  // attention == "flash" (FlashAttention-2 kernels)
    Optimizer optimizer = Optimizer::kAdamW;
    Method method = Method::kFull;
};

// `all_gpus` lets export variants be compared with their base card (nullptr = ratios left out).
std::vector<CompatWarning> check_compat(const GpuSpec& gpu, const JobNeeds& needs, const CompatData& data,
                                        const std::vector<GpuSpec>* all_gpus);

// True when the card can run the precision at all (bf16 needs 8.0+, fp8 8.9+; AMD: bf16 where the data gives a
// bf16 rate, fp8 where it gives an fp8 rate). The advisor uses this to choose fp16-amp over bf16-amp.
bool precision_supported(const GpuSpec& gpu, Precision precision, const CompatData& data);

}  // namespace gg::engine
