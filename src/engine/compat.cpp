// Compatibility warnings as codes with numbers (see compat.h). Thresholds and versions come from CompatData
// (data/compatibility.json); nothing here is hard-coded except which feature a precision needs.
#include "engine/compat.h"

#include <algorithm>

namespace gg::engine {

const FeatureThreshold* CompatData::feature(const std::string& id) const {
    for (const FeatureThreshold& f : features)
        if (f.id == id) return &f;
    return nullptr;
}

const ArchSupport* CompatData::arch(int cc) const {
    for (const ArchSupport& a : architectures)
        if (a.cc == cc) return &a;
    return nullptr;
}

const char* compat_code_name(CompatCode code) {
    switch (code) {
        case CompatCode::kPrecisionUnsupported: return "precision_unsupported";
        case CompatCode::kNoBf16: return "no_bf16";
        case CompatCode::kNoFp8: return "no_fp8";
        case CompatCode::kNoFlashAttention2: return "no_flash_attention_2";
        case CompatCode::kNoTensorCores: return "no_tensor_cores";
        case CompatCode::kMinCuda: return "min_cuda";
        case CompatCode::kLegacyWheelsOnly: return "legacy_wheels_only";
        case CompatCode::kRocmRequired: return "rocm_required";
        case CompatCode::kRocmNotListed: return "rocm_not_listed";
        case CompatCode::kCudaOnlyLibrary: return "cuda_only_library";
        case CompatCode::kExportVariant: return "export_variant";
        case CompatCode::kUnknownArchitecture: return "unknown_architecture";
    }
    return "unknown";
}

const char* severity_name(Severity severity) {
    switch (severity) {
        case Severity::kInfo: return "info";
        case Severity::kWarning: return "warning";
        case Severity::kBlocker: return "blocker";
    }
    return "info";
}

namespace {

int card_cc(const GpuSpec& gpu) { return gpu.compute_capability_major * 10 + gpu.compute_capability_minor; }

// The feature a precision needs on NVIDIA cards ("" = none).
const char* feature_for(Precision p) {
    switch (p) {
        case Precision::kBf16Amp:
        case Precision::kBf16: return "bf16";
        case Precision::kFp8: return "fp8";
        default: return "";
    }
}

const GpuSpec* find(const std::vector<GpuSpec>* gpus, const std::string& id) {
    if (gpus == nullptr) return nullptr;
    for (const GpuSpec& g : *gpus)
        if (g.id == id) return &g;
    return nullptr;
}

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

}  // namespace

bool precision_supported(const GpuSpec& gpu, Precision precision, const CompatData& data) {
    if (gpu.vendor != "nvidia") {
        // AMD: the catalog's rate is the evidence (null = not supported, hardware.h DenseFlopPerS).
        if (precision == Precision::kBf16Amp || precision == Precision::kBf16) return gpu.dense_flop_per_s.bf16 > 0;
        if (precision == Precision::kFp8) return gpu.dense_flop_per_s.fp8 > 0;
        return true;
    }
    const std::string need = feature_for(precision);
    if (need.empty()) return true;
    const FeatureThreshold* f = data.feature(need);
    return f == nullptr || card_cc(gpu) >= f->min_cc;
}

std::vector<CompatWarning> check_compat(const GpuSpec& gpu, const JobNeeds& needs, const CompatData& data,
                                        const std::vector<GpuSpec>* all_gpus) {
    std::vector<CompatWarning> out;
    const int cc = card_cc(gpu);
    const bool nvidia = gpu.vendor == "nvidia";
    const bool uses_bnb = needs.optimizer == Optimizer::kAdamW8bit || needs.method == Method::kQlora ||
                          needs.precision == Precision::kInt8 || needs.precision == Precision::kNf4;

    if (nvidia) {
        // Precision the job asks for.
        const std::string need = feature_for(needs.precision);
        if (!need.empty()) {
            if (const FeatureThreshold* f = data.feature(need); f != nullptr && cc < f->min_cc)
                out.push_back({CompatCode::kPrecisionUnsupported, Severity::kBlocker,
                               {{"needed_cc", f->min_cc / 10.0}, {"card_cc", cc / 10.0}}, {}});
        }
        // What the card lacks even if the job does not ask for it (the page shows these as info).
        if (const FeatureThreshold* f = data.feature("bf16"); f != nullptr && cc < f->min_cc && need != "bf16")
            out.push_back({CompatCode::kNoBf16, Severity::kInfo, {{"needed_cc", f->min_cc / 10.0}, {"card_cc", cc / 10.0}}, {}});
        if (const FeatureThreshold* f = data.feature("fp8"); f != nullptr && cc < f->min_cc && need != "fp8")
            out.push_back({CompatCode::kNoFp8, Severity::kInfo, {{"needed_cc", f->min_cc / 10.0}, {"card_cc", cc / 10.0}}, {}});
        if (const FeatureThreshold* f = data.feature("flash_attention_2"); f != nullptr && cc < f->min_cc)
            out.push_back({CompatCode::kNoFlashAttention2, needs.flash_attention ? Severity::kBlocker : Severity::kInfo,
                           {{"needed_cc", f->min_cc / 10.0}, {"card_cc", cc / 10.0}}, {}});
        if (const FeatureThreshold* f = data.feature("tensor_cores"); f != nullptr && cc < f->min_cc)
            out.push_back({CompatCode::kNoTensorCores,
                           needs.precision == Precision::kFp16Amp ? Severity::kWarning : Severity::kInfo,
                           {{"fp16_to_fp32_rate_ratio", ratio(gpu.dense_flop_per_s.fp16, gpu.dense_flop_per_s.fp32)}},
                           {}});
        // Toolkit and wheels.
        if (const ArchSupport* a = data.arch(cc)) {
            NamedValues<4> v;
            if (a->min_cuda.known()) {
                v.push_back({"cuda_major", double(a->min_cuda.major)});
                v.push_back({"cuda_minor", double(a->min_cuda.minor)});
            }
            if (a->min_pytorch.known()) {
                v.push_back({"pytorch_major", double(a->min_pytorch.major)});
                v.push_back({"pytorch_minor", double(a->min_pytorch.minor)});
            }
            if (!v.empty()) out.push_back({CompatCode::kMinCuda, Severity::kInfo, v, {}});
            if (a->cuda_dropped.known())
                out.push_back({CompatCode::kLegacyWheelsOnly, Severity::kWarning,
                               {{"cuda_dropped_major", double(a->cuda_dropped.major)}}, {}});
        } else {
            out.push_back({CompatCode::kUnknownArchitecture, Severity::kWarning, {{"card_cc", cc / 10.0}}, {}});
        }
    } else {
        // AMD (or another vendor): PyTorch via ROCm.
        const auto it = std::find_if(data.rocm.begin(), data.rocm.end(),
                                     [&](const RocmSupport& r) { return r.gpu_id == gpu.id; });
        if (it != data.rocm.end())
            out.push_back({CompatCode::kRocmRequired, Severity::kInfo,
                           {{"on_linux", it->on_linux ? 1.0 : 0.0}, {"on_windows", it->on_windows ? 1.0 : 0.0}}, {}});
        else
            out.push_back({CompatCode::kRocmNotListed, Severity::kWarning, {}, {}});
        if (!precision_supported(gpu, needs.precision, data))
            out.push_back({CompatCode::kPrecisionUnsupported, Severity::kBlocker, {}, {}});
        if (uses_bnb || needs.flash_attention)
            out.push_back({CompatCode::kCudaOnlyLibrary, Severity::kWarning,
                           {{"bitsandbytes", uses_bnb ? 1.0 : 0.0}, {"flash_attention", needs.flash_attention ? 1.0 : 0.0}},
                           {}});
    }

    // China export-control variants: what is cut, as ratios to the unrestricted card.
    for (const ExportVariant& e : data.export_variants) {
        if (e.gpu_id != gpu.id) continue;
        CompatWarning w{CompatCode::kExportVariant, Severity::kInfo, {}, e.base_gpu_id};
        if (const GpuSpec* base = find(all_gpus, e.base_gpu_id)) {
            w.values = {{"bf16_ratio", ratio(gpu.dense_flop_per_s.bf16, base->dense_flop_per_s.bf16)},
                        {"nvlink_ratio", ratio(gpu.nvlink_bytes_per_s, base->nvlink_bytes_per_s)},
                        {"memory_ratio", ratio(gpu.memory_bytes, base->memory_bytes)},
                        {"bandwidth_ratio", ratio(gpu.memory_bandwidth_bytes_per_s, base->memory_bandwidth_bytes_per_s)}};
        }
        out.push_back(w);
    }
    return out;
}

}  // namespace gg::engine
