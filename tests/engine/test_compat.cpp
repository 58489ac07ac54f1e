// Compatibility warnings from data/compatibility.json: precision support by compute capability, minimum CUDA /
// PyTorch per architecture, ROCm for AMD, export-control variants compared with their base card.
#include <doctest/doctest.h>

#include <algorithm>

#include "catalog/catalog.h"
#include "catalog/compat_data.h"
#include "engine/compat.h"

using namespace gg::engine;
using gg::catalog::embedded_catalog;
using gg::catalog::embedded_compat_data;

namespace {

const CompatWarning* find_code(const std::vector<CompatWarning>& ws, CompatCode code) {
    for (const CompatWarning& w : ws)
        if (w.code == code) return &w;
    return nullptr;
}

double value(const CompatWarning& w, const char* name) {
    for (const auto& [k, v] : w.values)
        if (std::string(k) == name) return v;
    return -1;
}

std::vector<CompatWarning> check(const char* gpu, Precision p, bool flash = false, Optimizer o = Optimizer::kAdamW) {
    const GpuSpec* g = embedded_catalog().find_gpu(gpu);
    REQUIRE_MESSAGE(g != nullptr, gpu);
    return check_compat(*g, JobNeeds{p, flash, o, Method::kFull}, embedded_compat_data(), &embedded_catalog().gpus);
}

}  // namespace

TEST_CASE("compat: compatibility data loads without problems and covers every NVIDIA architecture in the catalog") {
    for (const auto& p : gg::catalog::embedded_compat_data_problems()) {
        CAPTURE(p.pointer);
        CAPTURE(p.message);
        CHECK(false);
    }
    for (const GpuSpec& g : embedded_catalog().gpus) {
        if (g.vendor != "nvidia") continue;
        CAPTURE(g.id);
        CHECK(embedded_compat_data().arch(g.compute_capability_major * 10 + g.compute_capability_minor) != nullptr);
    }
    CHECK(embedded_compat_data().budget_tiers.size() == 3);
}

TEST_CASE("compat: bf16 needs compute capability 8.0, fp8 8.9, FlashAttention-2 8.0") {
    const auto turing = check("rtx-2080-ti", Precision::kBf16Amp, true);
    const CompatWarning* w = find_code(turing, CompatCode::kPrecisionUnsupported);
    REQUIRE(w != nullptr);
    CHECK(w->severity == Severity::kBlocker);
    CHECK(value(*w, "needed_cc") == doctest::Approx(8.0));
    CHECK(value(*w, "card_cc") == doctest::Approx(7.5));
    const CompatWarning* fa = find_code(turing, CompatCode::kNoFlashAttention2);
    REQUIRE(fa != nullptr);
    CHECK(fa->severity == Severity::kBlocker);  // the job asked for flash attention

    CHECK(find_code(check("a100-sxm4-80gb", Precision::kBf16Amp, true), CompatCode::kPrecisionUnsupported) == nullptr);
    CHECK(find_code(check("a100-sxm4-80gb", Precision::kFp8), CompatCode::kPrecisionUnsupported) != nullptr);
    CHECK(find_code(check("rtx-4090", Precision::kFp8), CompatCode::kPrecisionUnsupported) == nullptr);
    CHECK(find_code(check("gtx-1080-ti", Precision::kFp16Amp), CompatCode::kNoTensorCores)->severity == Severity::kWarning);
    CHECK(precision_supported(*embedded_catalog().find_gpu("v100-sxm2-32gb"), Precision::kBf16Amp, embedded_compat_data()) == false);
}

TEST_CASE("compat: minimum CUDA and PyTorch per architecture") {
    struct Row { const char* gpu; int cuda_major, cuda_minor, pt_major, pt_minor; };
    for (const Row& r : {Row{"rtx-5090", 12, 8, 2, 7}, Row{"b200", 12, 8, 2, 7}, Row{"h100-sxm", 11, 8, 2, 0},
                         Row{"rtx-4090", 11, 8, 2, 0}, Row{"a100-sxm4-80gb", 11, 0, 1, 7}, Row{"rtx-3090", 11, 1, 1, 8}}) {
        CAPTURE(r.gpu);
        const auto ws = check(r.gpu, Precision::kFp32);
        const CompatWarning* w = find_code(ws, CompatCode::kMinCuda);
        REQUIRE(w != nullptr);
        CHECK(value(*w, "cuda_major") == r.cuda_major);
        CHECK(value(*w, "cuda_minor") == r.cuda_minor);
        CHECK(value(*w, "pytorch_major") == r.pt_major);
        CHECK(value(*w, "pytorch_minor") == r.pt_minor);
    }
    // Pascal and Volta: current CUDA 12.8+ wheels dropped them.
    CHECK(find_code(check("gtx-1080-ti", Precision::kFp32), CompatCode::kLegacyWheelsOnly) != nullptr);
    CHECK(find_code(check("v100-sxm2-32gb", Precision::kFp32), CompatCode::kLegacyWheelsOnly) != nullptr);
    CHECK(find_code(check("t4", Precision::kFp32), CompatCode::kLegacyWheelsOnly) == nullptr);
}

TEST_CASE("compat: AMD cards need ROCm and warn about CUDA-first libraries") {
    const auto ws = check("mi300x", Precision::kBf16Amp, false, Optimizer::kAdamW8bit);
    const CompatWarning* r = find_code(ws, CompatCode::kRocmRequired);
    REQUIRE(r != nullptr);
    CHECK(value(*r, "on_linux") == 1);
    CHECK(find_code(ws, CompatCode::kCudaOnlyLibrary) != nullptr);
    CHECK(find_code(ws, CompatCode::kMinCuda) == nullptr);
}

TEST_CASE("compat: export-control variants name their base card and what is cut") {
    const auto h800 = check("h800-sxm", Precision::kBf16Amp);
    const CompatWarning* w = find_code(h800, CompatCode::kExportVariant);
    REQUIRE(w != nullptr);
    CHECK(w->other_gpu == "h100-sxm");
    CHECK(value(*w, "bf16_ratio") == doctest::Approx(1.0));          // same tensor compute
    CHECK(value(*w, "nvlink_ratio") == doctest::Approx(400.0 / 900.0));  // NVLink cut
    const auto h20 = check("h20", Precision::kBf16Amp);
    const CompatWarning* x = find_code(h20, CompatCode::kExportVariant);
    REQUIRE(x != nullptr);
    CHECK(value(*x, "bf16_ratio") < 0.2);  // ~15% of H100 SXM tensor compute (gpus.json notes)
    const auto d4090 = check("rtx-4090-d", Precision::kBf16Amp);
    const CompatWarning* d = find_code(d4090, CompatCode::kExportVariant);
    REQUIRE(d != nullptr);
    CHECK(value(*d, "memory_ratio") == doctest::Approx(1.0));
    CHECK(value(*d, "bf16_ratio") < 1.0);
}
