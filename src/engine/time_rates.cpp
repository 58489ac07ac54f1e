// What the card sustains, for the time model (time.h): the names of its enums, the matmul rate a precision runs at
// and its dense peak, SM clocks, host memory and default links, the interconnect table's and the throughput priors'
// lookups (measured GEMM limits, GeForce and TF32 shares). No JSON, no UI.
#include "engine/time.h"

#include <algorithm>
#include <string>

namespace gg::engine {

// ---- names -------------------------------------------------------------------------------------------------
const char* interconnect_name(Interconnect kind) {
    switch (kind) {
        case Interconnect::kPcie3: return "pcie3";
        case Interconnect::kPcie4: return "pcie4";
        case Interconnect::kPcie5: return "pcie5";
        case Interconnect::kNvlinkBridge: return "nvlink-bridge";
        case Interconnect::kNvlink: return "nvlink";
        case Interconnect::kInfiniband: return "ib";
        case Interconnect::kEthernet: return "ethernet";
    }
    return "pcie4";
}

bool parse_interconnect(std::string_view name, Interconnect& out) {
    for (Interconnect k : {Interconnect::kPcie3, Interconnect::kPcie4, Interconnect::kPcie5, Interconnect::kNvlinkBridge,
                           Interconnect::kNvlink, Interconnect::kInfiniband, Interconnect::kEthernet}) {
        if (name == interconnect_name(k)) {
            out = k;
            return true;
        }
    }
    return false;
}

const char* matmul_rate_name(MatmulRate rate) {
    switch (rate) {
        case MatmulRate::kFp32: return "fp32";
        case MatmulRate::kTf32: return "tf32";
        case MatmulRate::kFp16: return "fp16";
        case MatmulRate::kBf16: return "bf16";
        case MatmulRate::kFp8: return "fp8";
    }
    return "fp32";
}

const char* time_status_name(TimeStatus status) {
    switch (status) {
        case TimeStatus::kOk: return "ok";
        case TimeStatus::kNoRate: return "no_rate";
        case TimeStatus::kNoPrior: return "no_prior";
        case TimeStatus::kNoBandwidth: return "no_bandwidth";
    }
    return "ok";
}

// ---- rates -------------------------------------------------------------------------------------------------
// The dense peak of the dtype the matmuls actually run in:
//  fp32 -> FP32 (PyTorch >= 1.12 keeps torch.backends.cuda.matmul.allow_tf32 = False: "TensorFloat-32 (TF32) on
//          Ampere devices", pytorch.org/docs/stable/notes/cuda.html); tf32 -> TF32 tensor cores;
//  fp16-amp -> FP16 with FP32 accumulate (what cuBLAS uses under autocast; GeForce runs it at half the
//          FP16-accumulate rate, GpuSpec::dense_flop_per_s.fp16 already holds that figure);
//  bf16-amp / bf16 -> BF16; fp8 -> FP8 only with compute capability >= 8.9 (Transformer Engine requirement:
//          "FP8 ... supported on Ada and Hopper", docs.nvidia.com/deeplearning/transformer-engine), else BF16;
//  int8 / nf4 -> bitsandbytes dequantizes to the 16-bit compute dtype and runs BF16/FP16 GEMMs (Dettmers 2023,
//          QLoRA sec. 3: "we dequantize the storage data type to the computation data type").
// Missing rates fall back (BF16 -> FP16 -> FP32) and set `fallback`.
MatmulRate matmul_rate(Precision precision, const DenseFlopPerS& r, int cc_major, int cc_minor, bool& fallback) {
    fallback = false;
    auto sixteen = [&](bool prefer_bf16) {
        if (prefer_bf16 && r.bf16 > 0) return MatmulRate::kBf16;
        if (r.fp16 > 0 && r.fp16 >= r.fp32) {
            if (prefer_bf16) fallback = true;
            return MatmulRate::kFp16;
        }
        if (!prefer_bf16 && r.bf16 > 0) return MatmulRate::kBf16;
        fallback = true;
        return MatmulRate::kFp32;
    };
    switch (precision) {
        case Precision::kFp32: return MatmulRate::kFp32;
        case Precision::kTf32:
            if (r.tf32 > 0) return MatmulRate::kTf32;
            fallback = true;
            return MatmulRate::kFp32;
        case Precision::kFp16Amp: return sixteen(false);
        case Precision::kBf16Amp:
        case Precision::kBf16:
        case Precision::kInt8:
        case Precision::kNf4: return sixteen(true);
        case Precision::kFp8: {
            const int cc = cc_major * 10 + cc_minor;
            if (cc >= 89 && r.fp8 > 0) return MatmulRate::kFp8;
            fallback = true;
            return sixteen(true);
        }
    }
    return MatmulRate::kFp32;
}

MatmulRate matmul_rate(Precision precision, const GpuSpec& gpu, bool& fallback) {
    return matmul_rate(precision, gpu.dense_flop_per_s, gpu.compute_capability_major, gpu.compute_capability_minor,
                       fallback);
}

double peak_flop_per_s(MatmulRate rate, const DenseFlopPerS& r) {
    switch (rate) {
        case MatmulRate::kFp32: return r.fp32;
        case MatmulRate::kTf32: return r.tf32;
        case MatmulRate::kFp16: return r.fp16;
        case MatmulRate::kBf16: return r.bf16;
        case MatmulRate::kFp8: return r.fp8;
    }
    return r.fp32;
}

double peak_flop_per_s(MatmulRate rate, const GpuSpec& gpu) { return peak_flop_per_s(rate, gpu.dense_flop_per_s); }

// A card nobody publishes rates for (AWS's A10G: neither NVIDIA nor AWS gives TFLOPS) but whose best GEMM per dtype
// was measured runs at the peak that measurement implies. The time model runs a measured card's GEMMs at best x
// matmul_fraction / matmul_reference (evaluate_time), so a peak of best / matmul_reference gives exactly that rate
// and leaves the memory-bound, host and communication parts as for any card. The MFU it yields is against this
// inferred peak, not a datasheet's (TimeReport::peak_inferred). Only whole unknown cards (fp32 == 0) qualify: a
// datasheet card never mixes in inferred rates.
DenseFlopPerS rates_for_time(const GpuSpec& gpu, const ThroughputPriors& priors, bool& inferred) {
    inferred = false;
    if (gpu.dense_flop_per_s.fp32 > 0 || priors.matmul_reference_fraction <= 0) return gpu.dense_flop_per_s;
    DenseFlopPerS r;
    const std::string& id = priors.measured_id(gpu.id);
    for (const ThroughputPriors::MatmulLimit& l : priors.matmul_limits) {
        if (l.gpu_id != id) continue;
        const double peak = l.flop_per_s / priors.matmul_reference_fraction;
        switch (l.rate) {
            case MatmulRate::kFp32: r.fp32 = peak; break;
            case MatmulRate::kTf32: r.tf32 = peak; break;
            case MatmulRate::kFp16: r.fp16 = peak; break;
            case MatmulRate::kBf16: r.bf16 = peak; break;
            case MatmulRate::kFp8: r.fp8 = peak; break;
        }
    }
    if (r.fp32 <= 0) return gpu.dense_flop_per_s;  // the roofline needs an FP32 rate: no time without one
    inferred = true;
    return r;
}

double sm_cycles_per_s(const GpuSpec& gpu) {
    if (gpu.vendor != "nvidia" || gpu.compute_capability_major <= 0 || gpu.dense_flop_per_s.fp32 <= 0) return 0;
    // FP32 peak = SMs x clock x 2 (FMA) x FP32 lanes per SM, the 32-bit floating-point add/multiply/multiply-add
    // results per clock per multiprocessor of the CUDA C++ Programming Guide's "Arithmetic Instructions" table:
    // 64 for compute capability 6.0, 7.x and 8.0 (P100, V100, T4/Turing, A100), 128 for 6.1, 8.6, 8.9, 9.0 and later
    // (Pascal GeForce, GA10x, Ada, Hopper, Blackwell). Check: A100 19.5 TFLOPS / 128 = 152 G = 108 SMs x 1.41 GHz;
    // H100 SXM 66.9 / 256 = 261 G = 132 x 1.98 GHz; RTX 4090 82.6 / 256 = 323 G = 128 x 2.52 GHz.
    const int cc = gpu.compute_capability_major * 10 + gpu.compute_capability_minor;
    const bool lanes_64 = cc == 60 || (cc >= 70 && cc < 80) || cc == 80;
    return gpu.dense_flop_per_s.fp32 / (2.0 * (lanes_64 ? 64 : 128));
}

double default_host_memory_bytes_per_s(const GpuSpec& gpu, const ThroughputPriors& priors) {
    return gpu.segment == "datacenter" ? priors.server_host_bytes_per_s : priors.desktop_host_bytes_per_s;
}

bool pcie_peer_to_peer_capable(const GpuSpec& gpu) {
    const int cc = gpu.compute_capability_major * 10 + gpu.compute_capability_minor;
    return !(gpu.segment == "consumer" && cc >= 75);  // sources: resolve_link
}

Interconnect default_interconnect(const GpuSpec& gpu) {
    if (gpu.form_factor == "sxm" || gpu.form_factor == "oam") return Interconnect::kNvlink;
    if (gpu.pcie_gen >= 5) return Interconnect::kPcie5;
    if (gpu.pcie_gen == 4) return Interconnect::kPcie4;
    return Interconnect::kPcie3;
}

// ---- interconnect lookup -----------------------------------------------------------------------------------
const InterconnectSpec* InterconnectTable::find(Interconnect kind, bool peer_to_peer) const {
    const InterconnectSpec* any = nullptr;
    const InterconnectSpec* def = nullptr;
    for (const InterconnectSpec& e : entries) {
        if (e.kind != kind) continue;
        const bool is_pcie = kind == Interconnect::kPcie3 || kind == Interconnect::kPcie4 || kind == Interconnect::kPcie5;
        if (is_pcie && e.peer_to_peer != peer_to_peer) continue;
        if (!any) any = &e;
        if (e.is_default && !def) def = &e;
    }
    return def ? def : any;
}

const InterconnectSpec* InterconnectTable::find_id(std::string_view id) const {
    for (const InterconnectSpec& e : entries)
        if (e.id == id) return &e;
    return nullptr;
}

const EfficiencyPrior* ThroughputPriors::find(Family family) const {
    for (const EfficiencyPrior& p : priors)
        if (std::find(p.families.begin(), p.families.end(), family) != p.families.end()) return &p;
    return nullptr;
}

double ThroughputPriors::fused_attention_fraction(const GpuSpec& gpu) const {
    if (gpu.vendor != "nvidia") return 0;
    for (const FusedAttentionLimit& l : fused_attention_limits)
        if (l.compute_capability_major == gpu.compute_capability_major) return l.fraction_of_peak;
    return 0;
}

const std::string& ThroughputPriors::measured_id(const std::string& gpu_id) const {
    for (const MatmulTwin& t : matmul_twins)
        if (t.gpu_id == gpu_id) return t.same_as;
    return gpu_id;
}

bool geforce_with_tensor_cores(const GpuSpec& gpu) {
    return gpu.vendor == "nvidia" && gpu.segment == "consumer" &&
           gpu.compute_capability_major * 10 + gpu.compute_capability_minor >= 75;
}

namespace {
double measured_limit(const ThroughputPriors& priors, const GpuSpec& gpu, MatmulRate rate) {
    const std::string& id = priors.measured_id(gpu.id);
    auto find = [&](MatmulRate key) {
        for (const ThroughputPriors::MatmulLimit& l : priors.matmul_limits)
            if (l.gpu_id == id && l.rate == key) return l.training_flop_per_s();
        return 0.0;
    };
    if (rate == MatmulRate::kFp16)
        if (const double fp16 = find(MatmulRate::kFp16); fp16 > 0) return fp16;
    return find(rate == MatmulRate::kFp16 ? MatmulRate::kBf16 : rate);
}
double share_16bit(const ThroughputPriors& priors, const GpuSpec& gpu, MatmulRate rate) {
    const bool sixteen = rate == MatmulRate::kFp16 || rate == MatmulRate::kBf16;
    return sixteen && geforce_with_tensor_cores(gpu) ? priors.geforce_share_16bit : 0.0;
}
// One tensor clock per card: the measured FP16 (else BF16) GEMM's share of its datasheet rate, for an unmeasured TF32
// rate. FP16 first: the community torch.mm table measured FP16 and TF32 with one method (zzc0721 database.md), and
// their shares agree more closely (RMS log 0.030 over 19 cards) than BF16's and TF32's (0.057 over 21, which mixes in
// Bekman's BF16 figures). Twins use their source's figures and their own datasheet (measured_limit resolves them).
double share_for_tf32(const ThroughputPriors& priors, const GpuSpec& gpu, MatmulRate rate) {
    if (rate != MatmulRate::kTf32 || gpu.dense_flop_per_s.tf32 <= 0) return 0;
    const auto& segments = priors.tf32_share_segments;
    if (std::find(segments.begin(), segments.end(), gpu.segment) == segments.end()) return 0;
    if (measured_limit(priors, gpu, MatmulRate::kTf32) > 0) return 0;
    const std::string& id = priors.measured_id(gpu.id);
    for (MatmulRate key : {MatmulRate::kFp16, MatmulRate::kBf16}) {
        const double peak = peak_flop_per_s(key, gpu);
        for (const ThroughputPriors::MatmulLimit& l : priors.matmul_limits)
            if (l.gpu_id == id && l.rate == key && peak > 0) return l.training_flop_per_s() / peak;
    }
    return 0;
}
}  // namespace

double ThroughputPriors::geforce_share(const GpuSpec& gpu, MatmulRate rate) const {
    return measured_limit(*this, gpu, rate) > 0 ? 0.0 : share_16bit(*this, gpu, rate);
}

double ThroughputPriors::tf32_share(const GpuSpec& gpu, MatmulRate rate) const {
    return share_for_tf32(*this, gpu, rate);
}

double ThroughputPriors::matmul_limit_flop_per_s(const GpuSpec& gpu, MatmulRate rate) const {
    if (const double measured = measured_limit(*this, gpu, rate); measured > 0) return measured;
    if (const double share = share_for_tf32(*this, gpu, rate); share > 0) return share * peak_flop_per_s(rate, gpu);
    return share_16bit(*this, gpu, rate) * peak_flop_per_s(rate, gpu);
}

}  // namespace gg::engine
