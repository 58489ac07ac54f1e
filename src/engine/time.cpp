// The training-time engine (see time.h): FLOPs per pass from the layer graph, a per-layer roofline on the card's
// dense peak and memory bandwidth scaled by fitted efficiency priors, ring collectives for data parallelism and
// ZeRO/FSDP, and time to train. docs/time-model.md explains every formula id. No JSON, no UI.
//
// Sections: names | rates | interconnect lookup | prepare | communication | evaluate | scaling curve
#include "engine/time.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <tuple>

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

// ---- prepare -----------------------------------------------------------------------------------------------
namespace {

bool is_quantized(Precision p) { return p == Precision::kInt8 || p == Precision::kNf4; }
double compute_bytes(Precision p) { return (p == Precision::kFp32 || p == Precision::kTf32) ? 4.0 : 2.0; }

// Same rule as memory_terms.cpp's (PEFT's default targets are q and v; GPT-2's fused c_attn).
bool is_lora_target(const Layer& l, const TrainingConfig& c) {
    if (c.method != Method::kLora && c.method != Method::kQlora) return false;
    if (l.in_features <= 0 || l.kind != OpKind::kMatmul || l.params <= 0) return false;
    if (c.lora.targets.empty())
        return l.role == ParamRole::kQ || l.role == ParamRole::kV || l.role == ParamRole::kQkv;
    return std::find(c.lora.targets.begin(), c.lora.targets.end(), l.role) != c.lora.targets.end();
}

// Small kernels a for-loop optimizer step launches per parameter tensor, counted in the single-tensor code paths:
//  sgd 1 (param.add_); sgd-momentum 3 (buf.mul_().add_(), param.add_): torch/optim/sgd.py _single_tensor_sgd;
//  adam 8 (exp_avg.mul_().add_(), exp_avg_sq.mul_().addcmul_(), (exp_avg_sq.sqrt() / c).add_(eps), param.addcdiv_),
//  adamw 9 (adam's + param.mul_(1 - lr * wd)): torch/optim/adam.py, adamw.py _single_tensor_* (torch 1.13);
//  adamw-8bit 1: bitsandbytes launches one fused update kernel per tensor (optimizer_update_8bit_blockwise);
//  lion 8: lion-pytorch update_fn (mul_, clone().mul_().add().sign_(), add_, mul_().add_());
//  adafactor 24 per matrix (factored row and column statistics) and 16 per vector: transformers Adafactor.step
//  (_rms 2, grad**2 + eps 2, row and column EMAs 6, _approx_sq_grad 5, update.mul_ 1, RMS clipping 5, lr 1,
//  p.add_(-update) 2; unfactored: exp_avg_sq EMA 2 + rsqrt().mul_ 2 instead of the 11 factored ones).
// Plus per-tensor gradient clipping as torch < 2.0's clip_grad_norm_ ran it (one norm per tensor, then mul_ per
// tensor: 2) and, when gradients are zeroed instead of freed (Tunables::zero_grad_set_to_none false), zero_ (1).
double loop_ops_per_tensor(Optimizer o, bool matrix, bool zeroes) {
    double ops = 0;
    switch (o) {
        case Optimizer::kSgd: ops = 1; break;
        case Optimizer::kSgdMomentum: ops = 3; break;
        case Optimizer::kAdam: ops = 8; break;
        case Optimizer::kAdamW: ops = 9; break;
        case Optimizer::kAdamW8bit: ops = 1; break;
        case Optimizer::kLion: ops = 8; break;
        case Optimizer::kAdafactor: ops = matrix ? 24 : 16; break;
    }
    return ops + 2 + (zeroes ? 1 : 0);
}

bool saves_attention_core(const Graph& g, const Layer& l) {
    for (const SavedRef& s : l.saved)
        if (s.tensor >= 0 && s.tensor < std::int32_t(g.tensors.size()) && g.tensors[s.tensor].attention_core) return true;
    return false;
}

}  // namespace

DepthwiseBackend depthwise_backend(const Layer& l, Precision p, bool channels_last) {
    if (l.conv_groups <= 1 || l.conv_groups != l.conv_in_channels) return DepthwiseBackend::kNone;
    if (channels_last) return DepthwiseBackend::kCudnn;
    if (p != Precision::kFp16Amp || l.conv_in_channels < 32) return DepthwiseBackend::kNative;
    const int k = l.conv_kernel, w = l.conv_in_width, ch = l.conv_in_channels;
    bool cudnn = false;
    if ((k == 1 || k == 3 || k == 5) && w >= 7) {
        if (l.conv_stride == 1) cudnn = true;
        else if (l.conv_stride == 2) cudnn = k != 1 && (ch >= 512 || (ch >= 256 && w >= 28));
    }
    return cudnn ? DepthwiseBackend::kCudnn : DepthwiseBackend::kNative;
}

PreparedTime prepare_time(const ModelSpec& spec, const WorkloadShape& shape, const Graph& g, const TrainingConfig& c) {
    assert(g.batch == 1 && "prepare_time: build the graph with WorkloadShape::batch = 1; evaluate scales by batch");
    PreparedTime t;
    t.config = c;
    t.family = spec.family;
    t.tokens_per_sample = spec.is_vision ? 0.0 : double(shape.seq_len > 0 ? shape.seq_len : spec.default_seq_len);

    const Precision p = c.precision;
    const double act_bytes = compute_bytes(p);
    // Weights as the GEMM reads them: autocast casts fp32 weights to 16 bits once per forward (cast cache),
    // pure bf16 and the dequantized int8/nf4 weights are 16-bit; fp32/tf32 read 4 bytes.
    const double gemm_weight_bytes = act_bytes;

    // SD pipelines: diffusers' scripts encode each micro-batch with the frozen VAE and text encoders under no_grad
    // before the UNet (examples/text_to_image/train_text_to_image_lora.py @04a375b7:
    // vae.encode(batch["pixel_values"].to(dtype=weight_dtype)).latent_dist.sample(), text_encoder(batch["input_ids"])).
    // Each is prepared as a graph of its own with nothing trainable: forward only, no gradients, no optimizer, no
    // collectives, each GPU its own micro-batch, in the dtype the script casts it to: weight_dtype (16-bit under mixed
    // precision, whatever the UNet's own weight format), fp32 for SDXL's VAE (cuDNN convolutions then run in TF32,
    // torch.backends.cudnn.allow_tf32 defaulting to True, where the card has it).
    if (!c.precomputed_latents && has_input_encoders(spec)) {
        WorkloadShape es = shape;
        es.batch = 1;
        BuildOptions eo;
        eo.eager_attention = c.eager_attention;
        TrainingConfig ec = c;
        ec.method = Method::kFrozenBackbone;
        ec.strategy = Strategy::kDdp;
        ec.gpu_count = ec.grad_accum_steps = 1;
        ec.tensor_parallel = ec.pipeline_parallel = ec.pipeline_interleave = 1;
        ec.sequence_parallel = false;
        ec.checkpointing = Checkpointing::kNone;
        ec.offload_optimizer = ec.ema_weights = false;
        ec.precomputed_latents = true;  // the encoders' own graphs have none to run
        const bool fp32 = p == Precision::kFp32 || p == Precision::kTf32;
        const bool bf16 = p == Precision::kBf16Amp || p == Precision::kBf16;
        const Precision weight_dtype = fp32 ? p : bf16 ? Precision::kBf16 : Precision::kFp16Amp;
        auto add = [&](InputEncoders which, Precision precision) {
            TrainingConfig part = ec;
            part.precision = precision;
            const Graph eg = build_input_encoders(spec, es, eo, which);
            if (!eg.layers.empty())
                t.input_encoders.push_back(std::make_shared<const PreparedTime>(prepare_time(spec, es, eg, part)));
        };
        add(InputEncoders::kVae, spec.vae_fp32 ? Precision::kTf32 : weight_dtype);
        add(InputEncoders::kText, weight_dtype);
    }

    // Memory's byte tables for one GPU (sharding is applied at evaluate time, per GPU count).
    TrainingConfig one = c;
    one.gpu_count = 1;
    one.offload_optimizer = false;
    const PreparedMemory m = prepare_memory(g, one);
    t.params_total = m.params_total;
    t.params_trainable = m.params_trainable;
    t.params_trainable_per_gpu = m.rank_trainable + m.params_lora;

    using LayerKey = std::tuple<bool, bool, bool, double, double, double, double, double, double>;
    std::map<LayerKey, std::size_t> index;
    const bool loops = effective_optimizer_impl(c.optimizer, c.optimizer_impl) == OptimizerImpl::kForLoop &&
                       !c.offload_optimizer;
    bool upstream_trainable = false;  // a layer needs its input gradient only if something before it trains
    double backward_flop = 0;
    // Tensor/pipeline parallelism: this GPU runs its stage's layers (the first stage's, and the last stage's for the
    // slower of the two), each tensor-parallel layer's FLOPs, weights and traffic split t ways, the replicated ones
    // (norms, residual adds, dropout) whole unless sequence parallelism splits them (Korthikanti et al. 2022, sec.
    // 4.2.2). The model and hardware FLOPs above stay the whole model's (the MFU convention).
    const std::vector<int> stages = layer_stages(g, c.pipeline_parallel);
    const int last_stage = std::max(1, c.pipeline_parallel) - 1;
    const double tp = std::max(1, c.tensor_parallel);
    std::map<LayerKey, std::size_t> last_index;
    // Per block: its stage and whether a backward pass runs through it (frozen blocks before any trainable layer
    // run none, so neither do their backward all-reduces).
    std::vector<int> block_stage(std::size_t(std::max(0, g.block_count)), 0);
    std::vector<char> block_backward(std::size_t(std::max(0, g.block_count)), 0);
    for (std::size_t li = 0; li < g.layers.size(); ++li) {
        const Layer& l = g.layers[li];
        const int stage = stages[li];
        // A matmul whose weight is tied to another layer's (GPT-2/Llama-3.2/Qwen LM head = token embedding) holds no
        // parameters of its own, yet computes the shared weight's gradient when that weight trains.
        const bool tied = l.params <= 0 && l.matmul_weight_params > 0;
        const bool trainable = layer_trainable(l, c) || (tied && c.method == Method::kFull);
        const bool lora = is_lora_target(l, c);
        const bool input_grad = upstream_trainable;
        const bool compute_bound = l.kind == OpKind::kMatmul || l.kind == OpKind::kAttention;
        const bool has_weights = l.matmul_weight_params > 0;
        const double F = l.forward_flop;
        const double bytes = l.bytes_moved_elements * act_bytes;

        // Backward FLOPs (Kaplan et al. 2020 sec. 2.1: backward ~ 2x forward = input grad + weight grad).
        //  matmul with weights: input grad 1xF (if upstream needs it), weight grad 1xF (if trainable);
        //  matmul of two activations (eager QK^T, PV): both operand grads, 2xF, if upstream needs them;
        //  fused attention (FlashAttention, Dao et al. 2022 sec. 3.1/Alg. 4): dQ, dK, dV = 2xF model FLOPs, plus
        //  the recomputed QK^T (0.5xF), counted as hardware FLOPs only.
        double bwd_flop = 0, bwd_passes = 0, bwd_bytes = 0;
        double bwd_extra_flop = 0;  // hardware-only backward FLOPs (FlashAttention's recomputed QK^T)
        double hidable_flop = 0;    // a column-parallel weight gradient: hides the tensor-parallel all-reduce
        if (compute_bound) {
            if (l.kind == OpKind::kAttention) {
                if (input_grad) bwd_flop = 2 * F, bwd_extra_flop = 0.5 * F, bwd_passes = 1, bwd_bytes = 2 * bytes;
            } else if (has_weights) {
                if (input_grad) bwd_flop += F, bwd_passes += 1, bwd_bytes += bytes;
                if (trainable) bwd_flop += F, bwd_passes += 1, bwd_bytes += bytes;
                // Megatron hides a column-parallel Linear's input-gradient all-reduce behind its weight gradient.
                if (trainable && is_column_parallel(l.role) && l.block >= 0) hidable_flop = F;
            } else if (input_grad) {
                bwd_flop = 2 * F, bwd_passes = 2, bwd_bytes = 2 * bytes;
            }
        } else if (input_grad || trainable) {
            // Bandwidth-bound backward reads the output gradient and the saved input, writes the input gradient:
            // about twice the forward traffic (one read + one write forward).
            bwd_bytes = 2 * bytes, bwd_passes = 1;
        }
        // LoRA adapter (Hu et al. 2021, eq. 3: h = W0 x + B A x): forward 2 x tokens x r x (in + out) FLOPs per
        // expert copy, backward 2x that (adapter weights are trainable, the input gradient flows through).
        double lora_flop = 0;
        if (lora) lora_flop = 2.0 * l.tokens * c.lora.rank * (double(l.in_features) + l.out_features) * l.experts;
        const double lora_bwd = lora ? 2.0 * lora_flop : 0.0;

        // Recomputation: full checkpointing reruns every layer inside a checkpointed block once more (Chen et al.
        // 2016); selective reruns only the attention core whose s x s tensors were dropped (Korthikanti et al.
        // 2022 sec. 4.2). Only where a backward pass runs at all.
        const bool has_backward = bwd_passes > 0 || lora;
        bool recompute = false;
        if (has_backward && l.block >= 0) {
            if (c.checkpointing == Checkpointing::kFull) recompute = true;
            if (c.checkpointing == Checkpointing::kSelective && saves_attention_core(g, l)) recompute = true;
        }
        const double re = recompute ? 1.0 : 0.0;

        // Model FLOPs count forward + backward once (the MFU convention of Korthikanti et al. 2022, sec. 6, and
        // Chowdhery et al. 2022, app. B); hardware FLOPs add recomputation.
        const double model_flop = F + bwd_flop + lora_flop + lora_bwd;
        const double hw_flop = model_flop + bwd_extra_flop + re * (F + lora_flop);
        t.forward_flop_per_sample += F + lora_flop;
        t.model_flop_per_sample += model_flop;
        t.hardware_flop_per_sample += hw_flop;
        backward_flop += bwd_flop + bwd_extra_flop + lora_bwd;

        TimeLayer tl;
        tl.compute_bound = compute_bound;
        const DepthwiseBackend depthwise = depthwise_backend(l, p, c.channels_last);
        const bool native_depthwise = depthwise == DepthwiseBackend::kNative;
        tl.linear = has_weights;
        tl.fused_attention = l.kind == OpKind::kAttention;
        tl.passes = 1 + bwd_passes + re;
        tl.flop_per_sample = compute_bound ? hw_flop : 0.0;
        tl.bytes_per_sample = bytes * (1 + re) + bwd_bytes;
        // PyTorch's own depthwise kernels (aten/src/ATen/native/cuda/DepthwiseConv2d.cu) are plain CUDA-core kernels,
        // one output (forward) or input-gradient (backward) element per thread, "not even using shared memory"
        // (ngimel, pytorch/pytorch#1708): memory-bound eager kernels like the elementwise ones, so they stream at
        // that rate (the SM stream limit applies), not at cuDNN's. Forward and input gradient each read one tensor
        // and write the other (the k x k taps come from cache). The weight gradient
        // (conv_depthwise2d_grad_weight_kernel) runs one thread block per (channel, kh, kw), each summing
        // input x output-gradient over the whole batch and image: k^2 passes over both tensors, counted here as
        // traffic (no L2 reuse between the k^2 blocks of a channel assumed). Validated, not fitted: NVIDIA's
        // EfficientNet-B0 TF32 (A100) and FP32 (V100) rows (docs/validation-sources.md sec. 7r).
        if (native_depthwise) {
            tl.compute_bound = false;
            tl.flop_per_sample = 0;
            const double taps = double(l.conv_kernel) * l.conv_kernel;
            tl.bytes_per_sample = bytes * (1 + re) + (input_grad ? bytes : 0.0) + (trainable ? taps * bytes : 0.0);
        }
        tl.weight_bytes = has_weights ? l.matmul_weight_params * gemm_weight_bytes * (tl.passes) : 0.0;
        if (lora) tl.passes += 3 * (1 + re);  // adapter A and B matmuls: small extra kernels
        // The LoRA adapter's own kernels around the frozen GEMM, activation-sized and bandwidth-bound (peft
        // tuners/lora/layer.py Linear.forward: `result = result + lora_B(lora_A(dropout(x))) * scaling`; bnb.py
        // Linear4bit.forward also `result = result.clone()` first, "As per Tim Dettmers, for 4bit, we need to
        // defensively clone here"; torchtune's LoRALinear and LitGPT's LoRALinear run the same ops). Per token, in
        // elements of the activation dtype, with x of `in` and the output of `out` features:
        //  forward: dropout (p > 0) reads x, writes x' and a 1-byte mask; lora_A reads x'; lora_B writes its output
        //    (out); `* scaling` reads and writes it; `result + ...` reads two and writes one; the 4-bit clone reads
        //    and writes `out`. The rank-r intermediate is negligible.
        //  backward: the scaling's gradient reads and writes `out`; lora_B's input and weight gradients each read it;
        //    lora_A's input gradient writes `in`, its weight gradient reads x'; dropout's backward reads the gradient
        //    and the mask and writes `in`; autograd sums the adapter's input gradient into x's (reads two, writes one).
        // Charged as serial bandwidth-bound kernels at the framework's elementwise rate, once per forward (and
        // recompute) and once in backward. Their launch cost stays in `passes` above.
        if (lora) {
            const double in = double(l.in_features) * l.tokens * l.experts;
            const double out = double(l.out_features) * l.tokens * l.experts;
            const bool dropout = c.lora.dropout > 0;
            const bool cloned = is_quantized(p);
            const double fwd = act_bytes * (in * (dropout ? 3.0 : 1.0) + out * (1.0 + 2.0 + 3.0 + (cloned ? 2.0 : 0.0))) +
                               (dropout ? in : 0.0);
            const double bwd = act_bytes * (out * (2.0 + 1.0 + 1.0) + in * (1.0 + 1.0 + 3.0 + (dropout ? 2.0 : 0.0))) +
                               (dropout ? in : 0.0);
            tl.serial_bytes_per_sample += fwd * (1 + re) + bwd;
        }
        // NCHW activations under 16-bit autocast: cuDNN's tensor-core convolutions work in NHWC, so each conv call
        // transposes its NCHW operands to NHWC and its result back (MosaicML Composer "Channels Last" method card,
        // after NVIDIA's diagram: "the NCHW tensor must be transposed to NHWC before the convolution and transposed
        // back to NCHW after"; cuDNN docs, Legacy API, "Data and Filter Formats": "may use padding, folding, and
        // NCHW-to-NHWC transformations to call the Tensor Core operations"; torch.nn.utils.
        // convert_conv2d_weight_memory_format docs: NHWC kernels give "considerable speed up for fp16 data on CUDA
        // devices with compute capability >= 7.0"). PyTorch's default is NCHW (torch.contiguous_format): Lambda's
        // DLE ConvNets runs without --memory-format nhwc, timm's benchmark files are named nchw. Each transpose
        // reads and writes its tensor: 2 x (input + output) per conv call, forward, recompute and each backward pass.
        // Measured: timm ResNet-50 AMP training on an RTX 3090, 826 img/s NCHW vs 1218 NHWC (pytorch-image-models
        // results/benchmark-train-amp-{nchw,nhwc}-pt112-cu113-rtx3090.csv). Not applied to fp32/TF32 (no source
        // that cuDNN transposes for them) nor to channels_last runs (scenario "memory_format": "channels_last").
        // Depthwise layers: PyTorch's own kernels (native_depthwise) read NCHW directly, no transposes. cuDNN's
        // depthwise kernels (grouped direct kernels, not tensor-core GEMMs: conv2d_grouped_direct_kernel and
        // wgrad2d_grouped_direct_kernel in nvprof, pytorch/pytorch#34977 and #1708) are not described publicly, and
        // their cost is taken to be what it is in NCHW under fp16 autocast whatever the layout (and dtype): their
        // convolution traffic plus this transpose traffic. Measured, timm on an RTX
        // 3090: channels_last made MobileNetV2 / EfficientNet-B0 1.26x / 1.20x faster than NCHW, which is what
        // removing only the dense convolutions' transposes gives (engine 1.29x / 1.32x), not removing the depthwise
        // layers' too (1.65x / 1.63x). Held out, NVIDIA's EfficientNet-B0 AMP rows (channels_last): one A100 +4%, one
        // V100 16GB +20%, one V100 32GB +27% (a listed miss) (docs/time-model.md sec. 2, "Depthwise convolutions").
        const bool tensor_core_16 = p == Precision::kFp16Amp || p == Precision::kBf16Amp || p == Precision::kBf16;
        const bool dense_transposed = spec.is_vision && l.role == ParamRole::kConv && l.kind == OpKind::kMatmul &&
                                      tensor_core_16 && !c.channels_last && depthwise == DepthwiseBackend::kNone;
        if (dense_transposed || depthwise == DepthwiseBackend::kCudnn)
            tl.serial_bytes_per_sample += 2.0 * bytes * (1 + re + bwd_passes);

        // The LSTM's recurrence runs step by step (h_t needs h_(t-1)): cuDNN batches the input GEMM W_ih x_t over all
        // t and the weight gradients over all t, but the recurrent GEMM W_hh h_(t-1) of every step, forward and in
        // backward data (dh_(t-1) = W_hh^T dgates_t), is its own small GEMM + fused pointwise kernel (Appleyard,
        // Kocisky, Blunsom 2016, arXiv 1604.01946: the single-cell and single-layer optimisations in cuDNN 5).
        // Those FLOPs leave the batched roofline and are timed per step (evaluate_time). PyTorch picks cuDNN's
        // persistent kernels (Diamos et al. 2016) only for fp16, one layer, one direction, hidden and input sizes
        // multiples of 128 (aten/src/ATen/native/cudnn/RNN.cpp use_persist_common_heuristics), never for a BiLSTM:
        // not assumed. The two directions are timed one after the other: no source found that cuDNN overlaps them
        // (the pessimistic choice).
        // Wanted from workload.h: a recurrence flag with its hidden size (the layer is recognised by family + name).
        if (spec.family == Family::kBiLstmCrf && l.name == "lstm" && spec.lstm_hidden > 0 && t.tokens_per_sample > 0) {
            const double h = spec.lstm_hidden, dirs = 2, steps = t.tokens_per_sample;
            const double rec_fwd_flop = dirs * steps * 2.0 * 4.0 * h * h;  // per sample, one forward pass
            const double rec_passes = 1 + re + (has_backward ? 1 : 0);
            RecurrentTime rt;
            rt.sequential_steps = dirs * steps * rec_passes;
            rt.flop_per_step_per_sample = 2.0 * 4.0 * h * h;
            rt.bytes_per_step_per_sample = (h + 4.0 * h) * act_bytes;
            rt.weight_bytes_per_step = 4.0 * h * h * gemm_weight_bytes;
            t.recurrent.push_back(rt);
            tl.flop_per_sample = std::max(0.0, tl.flop_per_sample - rec_fwd_flop * rec_passes);
        }
        if (tp > 1) {
            const double split = l.tp_split ? tp : 1.0;
            tl.flop_per_sample /= split;
            tl.weight_bytes /= split;
            tl.bytes_per_sample *= tp_share(l.tp_split, c);
        }
        // The share of this layer's time its weight-gradient GEMM takes (Megatron overlaps the column-parallel
        // Linear's input-gradient all-reduce with it): a share of the layer's roofline time, so a faster card hides
        // less only where it also computes faster.
        if (tp > 1 && hidable_flop > 0 && hw_flop > 0) tl.hidable_fraction = hidable_flop / hw_flop;
        const auto key = std::make_tuple(tl.compute_bound, tl.linear, tl.fused_attention, tl.flop_per_sample,
                                         tl.bytes_per_sample,
                                         tl.weight_bytes, tl.passes, tl.serial_bytes_per_sample, tl.hidable_fraction);
        auto add_to = [&](std::vector<TimeLayer>& list, std::map<LayerKey, std::size_t>& where) {
            auto it = where.find(key);
            if (it == where.end()) {
                where.emplace(key, list.size());
                list.push_back(tl);
            } else {
                list[it->second].count += 1;
            }
        };
        if (stage == 0) add_to(t.layers, index);
        if (stage == last_stage && last_stage > 0) add_to(t.last_stage_layers, last_index);
        if (l.block >= 0 && std::size_t(l.block) < block_stage.size()) {
            block_stage[std::size_t(l.block)] = stage;
            if (has_backward) block_backward[std::size_t(l.block)] = 1;
        }
        if (stage != 0) {  // the rest only for the GPU whose memory and optimizer step the report shows
            if (trainable || lora) upstream_trainable = true;
            continue;
        }

        // int8/nf4: every GEMM pass over a quantized Linear first dequantizes its weight: reads the quantized
        // bytes, writes a 16-bit copy (bitsandbytes dequantize_4bit / int8 matmul, QLoRA sec. 3).
        const bool quantized_linear = bnb_quantized_linear(l, p);
        if (quantized_linear) {
            const double q_bytes = p == Precision::kNf4 ? (4.0 + 8.0 / 64.0) / 8.0 : 1.0;
            const double gemm_passes = 1 + (input_grad ? 1 : 0) + re;
            t.dequant_bytes_per_micro += l.matmul_weight_params * (q_bytes + 2.0) * gemm_passes;
        }

        // For-loop optimizer: its kernels run once per trainable tensor (LoRA: each adapter's A and B matrices).
        if (loops) {
            const bool zeroes = !c.tunables.zero_grad_set_to_none;
            if (trainable && l.params > 0)
                t.optimizer_loop_ops += l.param_matrices * loop_ops_per_tensor(c.optimizer, true, zeroes) +
                                        l.param_vectors * loop_ops_per_tensor(c.optimizer, false, zeroes);
            if (lora) t.optimizer_loop_ops += 2.0 * l.experts * loop_ops_per_tensor(c.optimizer, true, zeroes);
        }

        // Weight EMA, after each optimizer step, tensor by tensor: Ultralytics ModelEMA.update `v *= d; v += (1 - d)
        // * msd[k].detach()` and diffusers EMAModel.step `s_param.sub_(one_minus_decay * (s_param - param))` (its
        // default foreach=False) each launch 3 kernels per tensor.
        if (c.ema_weights) {
            if (trainable && l.params > 0) t.ema_loop_ops += 3.0 * (l.param_matrices + l.param_vectors);
            if (lora) t.ema_loop_ops += 3.0 * 2.0 * l.experts;
        }

        if (trainable || lora) upstream_trainable = true;
    }
    t.backward_fraction = t.hardware_flop_per_sample > 0 ? backward_flop / t.hardware_flop_per_sample : 0.0;
    // Tensor parallelism: each transformer block all-reduces its s x b x h output twice in forward (after the
    // attention and the MLP row-parallel Linears) and twice in backward (the input gradients of the column-parallel
    // ones), plus twice more when full recomputation reruns the forward (Shoeybi et al. 2019, sec. 3, Fig. 4;
    // Korthikanti et al. 2022, sec. 4.2.2: sequence parallelism replaces each all-reduce by a reduce-scatter and an
    // all-gather, "the same communication volume"). The forward ones are exposed; backward's overlap the linear
    // weight-gradient GEMMs (Korthikanti et al. 2022, sec. 6.2: "we overlap all-reduce communication with the linear
    // weight's gradient computation"). The block's input (s x h per sample) sets the size, in the activation dtype.
    if (!g.block_inputs.empty() && g.block_inputs[0] >= 0) {
        const double act_el = g.tensors[g.block_inputs[0]].elements;
        t.tp_collective_bytes_per_sample = act_el * act_bytes;
        // Pipeline stages pass that tensor forward and its gradient back, per micro-batch; Megatron sends 1/t of it
        // from each tensor-parallel rank and all-gathers at the receiver (Narayanan et al. 2021, sec. 4.1,
        // "scatter/gather communication optimization").
        t.p2p_bytes_per_sample = act_el * act_bytes / tp;
    }
    // The busiest stage: 2 forward all-reduces per block; per block with a backward pass 2 in backward and, under
    // full recomputation, 2 more in the rerun forward.
    const double recompute = c.checkpointing == Checkpointing::kFull ? 2.0 : 0.0;
    std::vector<double> stage_all(std::size_t(last_stage) + 1, 0.0), stage_backward(stage_all.size(), 0.0);
    for (std::size_t b = 0; b < block_stage.size(); ++b) {
        const std::size_t st = std::size_t(block_stage[b]);
        stage_all[st] += 2.0 + (block_backward[b] ? 2.0 + recompute : 0.0);
        stage_backward[st] += block_backward[b] ? 2.0 : 0.0;
    }
    const std::size_t busiest = std::size_t(std::max_element(stage_all.begin(), stage_all.end()) - stage_all.begin());
    t.tp_collectives_per_micro = tp > 1 ? stage_all[busiest] : 0.0;
    t.tp_backward_collectives_per_micro = tp > 1 ? stage_backward[busiest] : 0.0;
    t.p2p_backward = t.backward_fraction > 0;
    // ZeRO and FSDP step flat partitions instead of the model's tensors: DeepSpeed one per parameter group
    // (stage_1_and_2.py single_partition_of_fp32_groups), FSDP one FlatParameter per wrapped unit (torch FSDP docs,
    // use_orig_params=False; units: one per block, auto-wrapped, + the root). Flat tensors are 1-D.
    if (loops) t.optimizer_flat_ops = loop_ops_per_tensor(c.optimizer, false, !c.tunables.zero_grad_set_to_none);
    t.fsdp_units = g.block_count + 1.0;

    // Optimizer step, bandwidth-bound: read + write every trainable parameter and optimizer state, read each
    // gradient (a fused/foreach Adam touches each once: torch.optim.AdamW(fused=True) docs). fp16 AMP's
    // GradScaler.unscale_ reads and writes the gradients once more (torch.amp.GradScaler docs).
    const double w_b = m.weight_bytes_per_param;
    const double g_b = m.grad_bytes_per_param;
    const double lora_params = m.params_lora;
    const double base_trainable = m.rank_trainable;
    // (This GPU's share under tensor/pipeline parallelism: memory's rank figures for the first stage.)
    const double states_bytes = m.state_bytes_per_param * (m.rank_trainable + lora_params);
    double opt = base_trainable * (2 * w_b + g_b) + lora_params * (2 * 4.0 + 4.0) + 2 * states_bytes;
    if (p == Precision::kFp16Amp) opt += 2 * (base_trainable * g_b + lora_params * 4.0);
    t.optimizer_bytes = opt;
    // Weight EMA: those 3 kernels read or write the EMA copy's bytes 7 times (v *= d: 2; (1 - d) * w: 2;
    // v += tmp: 3).
    t.ema_bytes = 7.0 * m.ema_bytes;
    // ZeRO-Offload (Ren et al. 2021, sec. 4.1): the optimizer runs on the CPU; each step moves the gradients to host
    // memory and the updated 16-bit parameters back (fp32 runs: 4-byte parameters).
    if (c.offload_optimizer) {
        t.offload_bytes = base_trainable * (g_b + act_bytes) + lora_params * (4.0 + 4.0);
        t.optimizer_bytes = 0;
    }
    // Offloaded checkpointing: the block inputs the memory walk sends to host RAM (memory_terms.cpp, Unsloth's
    // Unsloth_Offloaded_Gradient_Checkpointer, torchtune's OffloadActivations), each way once per sample.
    t.offload_activation_bytes_per_sample = offloaded_activation_bytes_per_sample(g, c);

    // Gradients the data-parallel group reduces (the trainable parameters' gradient dtype: fp32 under autocast,
    // whose parameters stay fp32; bf16 for pure bf16; LoRA adapters are fp32) and, for ZeRO-3/FSDP, the
    // parameters gathered per pass (all of them, in their stored dtype).
    t.grad_comm_bytes = base_trainable * g_b + lora_params * 4.0;
    t.grad_comm_values = base_trainable + lora_params;
    t.param_gather_bytes = (m.rank_params + m.params_lora) * (is_quantized(p) ? 1.0 : w_b);
    if (c.strategy == Strategy::kDp) {  // DataParallel's per-micro-batch traffic (data_parallel.h)
        t.dp.broadcast_bytes = t.param_gather_bytes;
        t.dp.reduce_bytes = t.grad_comm_bytes;
        t.dp.output_bytes_per_sample = dp_output_bytes_per_sample(g, p);
        t.dp.input_bytes_per_sample = dp_input_bytes_per_sample(g);
        t.dp.output_gradient_scattered = !dp_loss_in_replicas(spec.family);
    }
    return t;
}

// ---- communication -----------------------------------------------------------------------------------------
double ring_allreduce_s(double bytes, int n, double bus, double latency) {
    if (n <= 1 || bytes <= 0) return 0;
    assert(bus > 0 && "ring_allreduce_s: bus bandwidth must be > 0 (check data/interconnects.json)");
    return 2.0 * (n - 1) / n * bytes / bus + 2.0 * (n - 1) * latency;
}

double ring_gather_s(double bytes, int n, double bus, double latency) {
    if (n <= 1 || bytes <= 0) return 0;
    assert(bus > 0 && "ring_gather_s: bus bandwidth must be > 0 (check data/interconnects.json)");
    return double(n - 1) / n * bytes / bus + double(n - 1) * latency;
}

namespace {

struct Link {
    double bus_bytes_per_s = 0;
    double latency_s = 0;
    std::string id;
    bool crosses_nodes = false;  // the bottleneck is the network between nodes
};

// A link's bus bandwidth at its expected achievable fraction and at the slow and fast ends of its range.
struct Bus {
    double low = 0, mid = 0, high = 0;
    void keep_slower(const Bus& other) {
        low = std::min(low, other.low), mid = std::min(mid, other.mid), high = std::min(high, other.high);
    }
};

Bus link_bandwidth(const InterconnectSpec& e, const GpuSpec& gpu) {
    const double nominal = e.per_gpu_link ? gpu.nvlink_bytes_per_s / 2.0 : e.nominal_bytes_per_s;
    const double low = e.fraction_low > 0 ? e.fraction_low : e.achievable_fraction;  // 0: no range given
    const double high = e.fraction_high > 0 ? e.fraction_high : e.achievable_fraction;
    return {nominal * low, nominal * e.achievable_fraction, nominal * high};
}

// The links of one ring: expected, and at the slow / fast ends of the links' measured ranges (step_high_s /
// step_low_s use them).
struct Links {
    Link mid, slow, fast;
};

// The bottleneck link of the ring: the given interconnect; an inter-node network is combined with the card's
// own intra-node link (a ring crosses both; its bus bandwidth is the slower one). A job wider than a node with
// an intra-node interconnect uses the default inter-node network (InfiniBand).
Links resolve_link(const GpuSpec& gpu, const TimeOptions& o, const ThroughputPriors& priors, int n) {
    Links out;
    const InterconnectTable& table = priors.interconnects;
    // GeForce RTX cards have no PCIe peer-to-peer under NVIDIA's driver; their collectives are staged through host
    // memory. RTX 30 and 40 series: 8x RTX 3090 on PCIe "CANNOT Access Peer" in p2pBandwidthLatencyTest
    // (NVIDIA/nccl#1127); "3090 does not support peer access. Only workstation cards (e.g. Ada 6000) or V100, A100,
    // H100 have this feature" (efeslab/Nanoflow#22); huggingface/accelerate#2328 sets NCCL_P2P_DISABLE for the 40
    // series; patched kernel modules turn it on (tinygrad/open-gpu-kernel-modules for the 4090 and 5090, aikitoria's
    // for the 3090). RTX 20 series (compute capability 7.5): no vendor statement found; Lambda's older table
    // (validation-sources sec. 7o) settles it as measured: its 2x/4x/8x RTX 2080 Ti rows fit host-staged (2 of 12
    // over 10 points of efficiency) and not peer-to-peer (6 of 12), as its RTX 3070 / 3080 rows do, while the
    // professional cards' boxes (RTX A4000/A5000/A6000, A40, Quadro RTX 8000, V100) fit peer-to-peer. An NVLink bridge
    // (RTX 2080 Ti, 3090) keeps peer-to-peer over the bridge (the scenario's interconnect).
    const bool bridged = o.interconnect_set && o.interconnect == Interconnect::kNvlinkBridge && gpu.nvlink_bytes_per_s > 0;
    // pcie_p2p: whether the card can use PCIe peer-to-peer at all; p2p: whether the ring's own link runs peer to
    // peer (a bridge does on GeForce cards too).
    // peer_to_peer can turn it off (NCCL_P2P_DISABLE=1), never on where the driver has none: a ranking applies one
    // scenario's setting to every card, and the scenario parser refuses it for the card it names.
    const bool pcie_p2p = pcie_peer_to_peer_capable(gpu) && (!o.peer_to_peer_set || o.peer_to_peer);
    const bool p2p = o.peer_to_peer_set && !o.peer_to_peer ? false : pcie_p2p || bridged;
    Interconnect kind = o.interconnect_set ? o.interconnect : default_interconnect(gpu);
    // Without peer-to-peer (NCCL_P2P_DISABLE=1) NVLink is unused too: "disables the peer to peer (P2P) transport,
    // which uses CUDA direct access between GPUs, using NVLink or PCI" (NCCL docs, Environment Variables); the
    // ring falls back to shared memory through the host over the card's PCIe bus.
    if (!p2p && (kind == Interconnect::kNvlink || kind == Interconnect::kNvlinkBridge))
        kind = gpu.pcie_gen >= 5 ? Interconnect::kPcie5 : gpu.pcie_gen == 4 ? Interconnect::kPcie4 : Interconnect::kPcie3;
    // The network between nodes: the scenario's row, else the default row of its kind (InfiniBand when the
    // interconnect names none: a job wider than a node).
    const InterconnectSpec* chosen_network = nullptr;
    if (!o.network_id.empty())
        if (const InterconnectSpec* e = table.find_id(o.network_id); e && e->inter_node) chosen_network = e;
    auto network_for = [&](Interconnect k) -> const InterconnectSpec* {
        return chosen_network ? chosen_network : table.find(k);
    };
    auto spec_for = [&](Interconnect k) -> const InterconnectSpec* {
        if ((k == Interconnect::kNvlink || k == Interconnect::kNvlinkBridge) && gpu.nvlink_bytes_per_s <= 0)
            return nullptr;  // no NVLink on this card
        if (k == Interconnect::kInfiniband || k == Interconnect::kEthernet) return network_for(k);
        return table.find(k, p2p);
    };
    const InterconnectSpec* main = spec_for(kind);
    if (!main) {  // e.g. "nvlink" asked for a card without NVLink: its PCIe bus
        kind = gpu.pcie_gen >= 5 ? Interconnect::kPcie5 : gpu.pcie_gen == 4 ? Interconnect::kPcie4 : Interconnect::kPcie3;
        main = spec_for(kind);
    }
    if (!main) return out;
    Bus bus = link_bandwidth(*main, gpu);
    double lat = main->latency_s;
    std::string id = main->id;
    const bool wider_than_node = n > priors.comm.gpus_per_node;
    if (kind == Interconnect::kNvlinkBridge && n > 2) {
        // A bridge joins two cards; a ring over more of them also crosses PCIe between the pairs.
        const Interconnect pcie = gpu.pcie_gen >= 5 ? Interconnect::kPcie5
                                  : gpu.pcie_gen == 4 ? Interconnect::kPcie4 : Interconnect::kPcie3;
        // Between the pairs the card's own PCIe rule holds: host-staged on GeForce.
        if (const InterconnectSpec* bus_spec = table.find(pcie, pcie_p2p)) {
            bus.keep_slower(link_bandwidth(*bus_spec, gpu));
            id += "+" + bus_spec->id;
        }
    }
    if (main->inter_node) {
        const InterconnectSpec* intra = spec_for(default_interconnect(gpu));
        if (intra) bus.keep_slower(link_bandwidth(*intra, gpu));
    } else if (wider_than_node) {
        const InterconnectSpec* inter = network_for(Interconnect::kInfiniband);
        if (inter) {
            bus.keep_slower(link_bandwidth(*inter, gpu));
            lat = std::max(lat, inter->latency_s);
            id += "+" + inter->id;
        }
    }
    const bool crosses = main->inter_node || (wider_than_node && network_for(Interconnect::kInfiniband));
    out.mid = {bus.mid, lat, id, crosses};
    out.slow = {bus.low, lat, id, crosses};
    out.fast = {bus.high, lat, id, crosses};
    return out;
}

// The inter-node figures in data/interconnects.json are per node (a DGX A100 has one 200 Gb/s HDR NIC per GPU: 8 x
// 25 GB/s), what a collective gets when all the node's GPUs take part in it. Groups that hold only `per_node` of a
// node's GPUs run side by side with the node's other groups, each over its own GPUs' NICs (NCCL picks the NIC
// nearest each GPU): a share of per_node / gpus_per_node of the node's bandwidth.
void share_node_network(Links& links, double per_node, double gpus_per_node) {
    if (!links.mid.crosses_nodes || per_node >= gpus_per_node || gpus_per_node <= 0) return;
    const double share = per_node / gpus_per_node;
    for (Link* l : {&links.mid, &links.slow, &links.fast}) l->bus_bytes_per_s *= share;
}

struct Efficiency {
    double matmul = 0, bandwidth = 0;
    double fused_attention_flop_per_s = 0;  // > 0: fused attention kernels run at most this fast (Hopper, FA2)
    double linear_best_flop_per_s = 0;      // > 0: the card's measured best GEMM at the Linear layers' rate
    double other_best_flop_per_s = 0;       // > 0: the same at the other compute-bound ops' rate (convolutions,
                                            // attention); differs from the Linear one under FP8 only
    double stream_scale = 1;                // the SM stream limit at this end of the range (bandwidth / expected)
    double host_scale = 1;                  // host-side times (dispatch, launches, for-loop optimizer) / this
    // > 0: a card with a measured best GEMM runs its GEMMs at that best x this (the prior's fraction over the
    // reference card's measured fraction of its peak, ThroughputPriors::matmul_reference_fraction), scaled like the
    // caps at the range's ends; 0: the measurement only caps the prior's fraction of the datasheet peak.
    double best_to_rate = 0;
};

// Achieved bandwidth of the framework's own memory-bound kernels (elementwise, norms, reductions, layout
// transposes, optimizer and dequantisation kernels): the prior's fraction of the card's bandwidth, but at most what
// the SMs keep in flight. By Little's law a kernel moves bytes in flight / memory latency per second; eager
// kernels hold a few bytes per thread in flight, so per SM and cycle they move a roughly fixed number of bytes
// (data/throughput_priors.json "sm_stream_limit", with its sources). Cards with much bandwidth per SM cycle
// (HBM: A100 ~13, H100 SXM ~13 B) cannot use it all with such kernels; GDDR cards (~3-7 B) are limited by DRAM.
// cuBLAS/cuDNN GEMM and convolution kernels keep far more in flight (multi-stage asynchronous copies into shared
// memory) and are not capped.
double elementwise_bytes_per_s(double dram_bytes_per_s, double cap_bytes_per_s) {
    return cap_bytes_per_s > 0 ? std::min(dram_bytes_per_s, cap_bytes_per_s) : dram_bytes_per_s;
}

// A rate held to a measured ceiling (0 = none).
double capped(double rate, double cap) { return cap > 0 ? std::min(rate, cap) : rate; }

// A compute-bound op's rate: the prior's fraction of the datasheet peak, or, where the card's best GEMM was
// measured, the same fraction of what the card reaches (docs/time-model.md sec. 2).
double gemm_rate(double peak, double matmul_fraction, double best_flop_per_s, double best_to_rate) {
    if (best_flop_per_s > 0 && best_to_rate > 0) return best_flop_per_s * best_to_rate;
    return capped(peak * matmul_fraction, best_flop_per_s);
}

struct MicroTimes {
    double compute_s = 0, memory_s = 0, overhead_s = 0, recurrent_s = 0;
    double hidable_s = 0;  // column-parallel weight-gradient GEMMs: the window backward's all-reduces hide in
};

// One micro-batch: per layer roofline max(FLOPs / (peak x e_mm), bytes / (bandwidth x e_bw)) (Williams et al.
// 2009, "Roofline"), kernels run one after another on one stream.
// Matmul and convolution kernels (cuBLAS/cuDNN) stream their operands at bw x e.bandwidth; the other kernels at
// stream_bytes_per_s (elementwise_bytes_per_s: that, capped by the SM stream limit).
MicroTimes micro_batch_times(const PreparedTime& t, const std::vector<TimeLayer>& layers, double batch, double peak,
                             double peak_linear, double bw, double stream_bytes_per_s, Efficiency e,
                             double overhead_per_pass, double kernel_launch_s) {
    MicroTimes out;
    for (const TimeLayer& l : layers) {
        const double bytes = l.bytes_per_sample * batch + l.weight_bytes;
        if (l.compute_bound) {
            const double mem_s = bytes / (bw * e.bandwidth);
            double rate = gemm_rate(l.linear ? peak_linear : peak, e.matmul,
                                    l.linear ? e.linear_best_flop_per_s : e.other_best_flop_per_s, e.best_to_rate);
            if (l.fused_attention && e.fused_attention_flop_per_s > 0)
                rate = std::min(rate, e.fused_attention_flop_per_s);
            const double flop_s = l.flop_per_sample * batch / rate;
            if (flop_s >= mem_s) out.compute_s += l.count * flop_s;
            else out.memory_s += l.count * mem_s;
            out.hidable_s += l.count * l.hidable_fraction * std::max(flop_s, mem_s);
        } else {
            out.memory_s += l.count * bytes / stream_bytes_per_s;
        }
        out.overhead_s += l.count * l.passes * overhead_per_pass;
        out.memory_s += l.count * l.serial_bytes_per_sample * batch / stream_bytes_per_s;
    }
    // Recurrence: each step is the slowest of its kernels' launch floor, its GEMM at the matmul rate and its bytes
    // (W_hh re-read every step + the step's activations) at the bandwidth: a roofline with a latency floor.
    for (const RecurrentTime& r : t.recurrent) {
        const double launch_s = r.kernels_per_step * kernel_launch_s;
        const double flop_s = r.flop_per_step_per_sample * batch /
                              gemm_rate(peak_linear, e.matmul, e.linear_best_flop_per_s, e.best_to_rate);
        const double mem_s = (r.bytes_per_step_per_sample * batch + r.weight_bytes_per_step) / (bw * e.bandwidth);
        out.recurrent_s += r.sequential_steps * std::max({launch_s, flop_s, mem_s});
    }
    return out;
}

struct StepTimes {
    double step_s = 0, compute_s = 0, memory_s = 0, overhead_s = 0, recurrent_s = 0, optimizer_s = 0, comm_s = 0,
           exposed_s = 0, optimizer_loop_s = 0, optimizer_loop_ops = 0, model_parallel_s = 0, bubble_s = 0,
           activation_offload_s = 0;
    DpStepTimes dp;
    // The step: its parts one after another (what overlaps is already out of exposed_s and activation_offload_s).
    double total() const {
        return compute_s + memory_s + overhead_s + recurrent_s + exposed_s + model_parallel_s + bubble_s +
               activation_offload_s;
    }
};

// The links a step uses: the data-parallel ring's, and under tensor/pipeline parallelism the tensor-parallel
// group's and the one between pipeline stages.
struct StepLinks {
    Link ring, tensor, pipeline;
    double host_bytes_per_s = 0;  // the card's PCIe link to host memory, each way (offloaded checkpointing)
};

StepTimes step_times(const PreparedTime& t, double batch, const GpuSpec& gpu, int n, const StepLinks& links,
                     double grad_bytes, double overlap, double sharded_overlap, double overlap_slowdown,
                     double peak, double peak_linear,
                     Efficiency e, double stream_cap_bytes_per_s, double overhead_per_pass, double kernel_launch_s,
                     double optimizer_op_s) {
    StepTimes s;
    const TrainingConfig& c = t.config;
    const Link& link = links.ring;
    const double bw = gpu.memory_bandwidth_bytes_per_s;
    const double stream_bytes_per_s =
        elementwise_bytes_per_s(bw * e.bandwidth, stream_cap_bytes_per_s * e.stream_scale);
    const int accum = std::max(1, c.grad_accum_steps);
    const int tp = std::max(1, c.tensor_parallel), pp = std::max(1, c.pipeline_parallel);
    const int v = pp > 1 ? std::max(1, c.pipeline_interleave) : 1;
    // The data-parallel replicas of each model slice are the ring the gradients are reduced over.
    n = std::max(1, n / (tp * pp));
    // Under pipelining the slower of the first stage (embedding) and the last (head, loss) sets the pace.
    MicroTimes mt =
        micro_batch_times(t, t.layers, batch, peak, peak_linear, bw, stream_bytes_per_s, e, overhead_per_pass,
                          kernel_launch_s);
    auto total = [](const MicroTimes& m) { return m.compute_s + m.memory_s + m.overhead_s + m.recurrent_s; };
    if (!t.last_stage_layers.empty()) {
        const MicroTimes last = micro_batch_times(t, t.last_stage_layers, batch, peak, peak_linear, bw,
                                                  stream_bytes_per_s, e, overhead_per_pass, kernel_launch_s);
        if (total(last) > total(mt)) mt = last;
    }
    const double dequant_s = t.dequant_bytes_per_micro / stream_bytes_per_s;
    const double micro_s = mt.compute_s + mt.memory_s + mt.overhead_s + mt.recurrent_s + dequant_s;
    // Tensor-parallel all-reduces and pipeline sends per micro-batch (exposed: see prepare_time). With an interleaved
    // schedule each micro-batch crosses v x as many stage boundaries (Narayanan et al. 2021, sec. 2.2.2).
    double mp_micro_s = 0;
    if (tp > 1 && links.tensor.bus_bytes_per_s > 0) {
        const double one = ring_allreduce_s(t.tp_collective_bytes_per_sample * batch, tp, links.tensor.bus_bytes_per_s,
                                            links.tensor.latency_s);
        const double weight_grad_s = mt.hidable_s;
        const double backward = t.tp_backward_collectives_per_micro * one;
        mp_micro_s += (t.tp_collectives_per_micro - t.tp_backward_collectives_per_micro) * one +
                      std::max(0.0, backward - weight_grad_s);
    }
    if (pp > 1 && links.pipeline.bus_bytes_per_s > 0)
        mp_micro_s += (t.p2p_backward ? 2.0 : 1.0) * v *
                      (t.p2p_bytes_per_sample * batch / links.pipeline.bus_bytes_per_s + links.pipeline.latency_s);

    // ZeRO-1 and up shard the optimizer step across the data-parallel group (Rajbhandari et al. 2020 sec. 5).
    const bool z1 = n > 1 && c.strategy != Strategy::kDdp && c.strategy != Strategy::kDp;
    const bool z3 = n > 1 && (c.strategy == Strategy::kZero3 || c.strategy == Strategy::kFsdp);
    s.optimizer_s = t.optimizer_bytes / (z1 ? n : 1) / stream_bytes_per_s;
    // A for-loop step's small kernels cost host time each; ZeRO/FSDP loop over flat partitions.
    const double flat_tensors = c.strategy == Strategy::kFsdp ? t.fsdp_units : 1.0;
    s.optimizer_loop_ops = z1 ? t.optimizer_flat_ops * flat_tensors : t.optimizer_loop_ops;
    // The weight EMA is not sharded by ZeRO-1/2 (each replica keeps its own copy); under ZeRO-3/FSDP it averages the
    // rank's shards.
    s.optimizer_s += t.ema_bytes / (z3 ? n : 1) / stream_bytes_per_s;
    s.optimizer_loop_ops += t.ema_loop_ops;
    s.optimizer_loop_s = s.optimizer_loop_ops * optimizer_op_s;

    // Communication per optimizer step. Backward of the last micro-batch is the window gradient buckets hide
    // behind (DDP: Li et al. 2020, "PyTorch Distributed", sec. 3.2.3; accumulation steps run under no_sync()).
    const double backward_s = micro_s * t.backward_fraction;
    const double forward_s = micro_s - backward_s;
    double hidden_window = overlap * backward_s;
    // Time a collective of comm_s adds when it may overlap window_s of compute: what does not fit in the window,
    // plus the compute it slows while it runs beside it. NCCL's collectives are kernels that take SMs and memory
    // bandwidth from the concurrent compute: "overlapping computation and communication can result in an average
    // computational slowdown of 18.9%, with a maximum of 40.0%" ("Characterizing Compute-Communication Overlap in
    // GPU-Accelerated Distributed Deep Learning: Performance and Power Implications", arXiv 2507.03114, 2025,
    // abstract; GPT and LLaMA models on 4 A100s, H100s, MI250s, MI210s). overlap_slowdown:
    // data/throughput_priors.json comm.overlap_slowdown_fraction.
    auto exposed = [overlap_slowdown](double comm_s, double window_s) {
        return std::max(0.0, comm_s - window_s) + overlap_slowdown * std::min(comm_s, std::max(0.0, window_s));
    };
    if (n > 1 && link.bus_bytes_per_s > 0) {
        const double G = grad_bytes, W = t.param_gather_bytes;
        if (c.strategy == Strategy::kDp) {
            // DataParallel: nothing overlaps (data_parallel.h); only GPU 0 steps, in the time each DDP rank takes.
            s.dp = dp_step_times(t.dp, n, batch, accum, link.bus_bytes_per_s, link.latency_s, micro_s, mt.overhead_s);
            s.comm_s = s.exposed_s = s.dp.comm_s();
        } else if (c.strategy == Strategy::kDdp) {
            s.comm_s = ring_allreduce_s(G, n, link.bus_bytes_per_s, link.latency_s);
            s.exposed_s = exposed(s.comm_s, hidden_window);
        } else if (!z3) {
            // ZeRO-1/2: reduce-scatter of gradients (overlaps backward) + all-gather of the updated parameters
            // after the step (exposed): the same 2 x (n-1)/n volume as all-reduce (ZeRO sec. 7.2.1).
            const double rs = ring_gather_s(G, n, link.bus_bytes_per_s, link.latency_s);
            const double ag = ring_gather_s(G, n, link.bus_bytes_per_s, link.latency_s);
            s.comm_s = rs + ag;
            s.exposed_s = exposed(rs, hidden_window) + ag;
        } else {
            // ZeRO-3 / FSDP FULL_SHARD, per micro-batch: all-gather W in forward, again in backward, reduce-scatter
            // G in backward: 1.5x the DDP volume (ZeRO sec. 7.2.1); prefetching overlaps each with compute.
            const double ag = ring_gather_s(W, n, link.bus_bytes_per_s, link.latency_s);
            const double rs = ring_gather_s(G, n, link.bus_bytes_per_s, link.latency_s);
            s.comm_s = accum * (2 * ag + rs);
            s.exposed_s = accum * (exposed(ag, sharded_overlap * forward_s) +
                                   exposed(ag + rs, sharded_overlap * backward_s));
        }
    }
    s.compute_s = accum * mt.compute_s;
    s.memory_s = accum * (mt.memory_s + dequant_s) + s.optimizer_s;
    s.overhead_s = accum * mt.overhead_s + s.optimizer_loop_s + s.dp.launch_wait_s;
    s.recurrent_s = accum * mt.recurrent_s;
    s.model_parallel_s = accum * mp_micro_s;
    // 1F1B pipeline: m micro-batches take m + (p - 1) slots of one forward + backward on a stage; the interleaved
    // schedule shrinks the fill and drain to (p - 1)/v slots (Narayanan et al. 2021, sec. 2.2, bubble fraction
    // (p - 1)/m, and sec. 2.2.2: "reduced by v").
    s.bubble_s = pp > 1 ? double(pp - 1) / v * (micro_s + mp_micro_s) : 0.0;
    // Offloaded checkpointing copies each block input to host RAM after the block's forward and back before its
    // recompute, on a side stream with pinned buffers, so the copies run beside compute ("use_streams ... where the
    // communications get overlapped with the computation", TRL get_act_offloading_ctx_manager, the OffloadActivations
    // torchtune wrote; Unsloth's offloaded checkpointer copies with non_blocking=True). The copy engines move the
    // bytes, not the SMs, so hidden copies cost nothing; PCIe is full duplex, so the outbound copies hide behind the
    // forward pass and the inbound ones behind the backward pass (recompute included). What does not fit shows.
    if (t.offload_activation_bytes_per_sample > 0 && links.host_bytes_per_s > 0) {
        const double copy_s = t.offload_activation_bytes_per_sample * batch / links.host_bytes_per_s;
        s.activation_offload_s = accum * (std::max(0.0, copy_s - forward_s) + std::max(0.0, copy_s - backward_s));
    }
    s.step_s = s.total();
    return s;
}

}  // namespace

// ---- evaluate ----------------------------------------------------------------------------------------------
TimeReport evaluate_time(const PreparedTime& t, double batch, const GpuSpec& gpu, const TimeOptions& o,
                         const Dataset& d, const ThroughputPriors& priors, TimeDetail detail) {
    assert(batch >= 1 && "evaluate_time: the micro-batch must be >= 1");
    TimeReport r;
    const TrainingConfig& c = t.config;
    const int n = std::max(1, c.gpu_count);
    const int accum = std::max(1, c.grad_accum_steps);
    bool fallback = false;
    bool inferred = false;
    const DenseFlopPerS rates = rates_for_time(gpu, priors, inferred);
    r.peak_inferred = inferred;
    r.rate = matmul_rate(c.precision, rates, gpu.compute_capability_major, gpu.compute_capability_minor, fallback);
    r.precision_fallback = fallback;
    const double peak = peak_flop_per_s(r.rate, rates);
    // FP8 (Transformer Engine) runs only the Linear GEMMs in FP8; attention's matmuls stay BF16.
    const double peak_other = r.rate == MatmulRate::kFp8 ? rates.bf16 : peak;
    r.peak_flop_per_s = peak;
    if (rates.fp32 <= 0 || peak <= 0 || gpu.memory_bandwidth_bytes_per_s <= 0) {
        r.status = TimeStatus::kNoRate;
        return r;
    }
    const EfficiencyPrior* prior = priors.find(t.family);
    if (!prior) {
        r.status = TimeStatus::kNoPrior;
        return r;
    }
    const bool full = detail == TimeDetail::kFull;
    if (full) r.prior_id = prior->id;
    const int tp = std::max(1, c.tensor_parallel), pp = std::max(1, c.pipeline_parallel);
    const int dp = data_parallel(c);
    Links links, tp_links, pp_links;
    const Link& link = links.mid;
    if (n > 1) {
        links = resolve_link(gpu, o, priors, n);
        if (link.bus_bytes_per_s <= 0 || links.slow.bus_bytes_per_s <= 0) {
            r.status = TimeStatus::kNoBandwidth;
            return r;
        }
        if (full) r.interconnect_id = link.id;
    }
    if (tp * pp > 1) {
        // Megatron-LM orders the ranks tensor-parallel first, then data-parallel, then pipeline (Megatron-LM
        // parallel_state.py initialize_model_parallel, its example: 16 GPUs, t = 2, p = 4: data-parallel groups
        // [g0, g2], ..., pipeline groups [g0, g4, g8, g12]). So, with nodes of gpus_per_node GPUs:
        //  - the tensor-parallel group is t neighbours: inside a node, on its own link, whatever joins the nodes;
        //  - a data-parallel group spans t x d ranks: inside a node if they fit, else across nodes with
        //    gpus_per_node / t of its GPUs in each (the node's other GPUs run the other groups over their NICs);
        //  - the pipeline is outermost: once the job leaves a node, some stage boundary crosses the network, and
        //    each GPU sends its 1/t slice over its own NIC.
        const double per_node = priors.comm.gpus_per_node;
        TimeOptions inside = o;
        const bool network = o.interconnect == Interconnect::kInfiniband || o.interconnect == Interconnect::kEthernet;
        if (o.interconnect_set && network) inside.interconnect_set = false;
        const bool multi_node = n > per_node;
        if (tp > 1) {
            tp_links = resolve_link(gpu, inside, priors, tp);
            if (tp_links.mid.bus_bytes_per_s <= 0) {
                r.status = TimeStatus::kNoBandwidth;
                return r;
            }
        }
        if (pp > 1) {
            pp_links = resolve_link(gpu, multi_node ? o : inside, priors, multi_node ? n : tp * pp);
            share_node_network(pp_links, 1.0, per_node);
        }
        if (dp > 1) {
            if (double(tp) * dp <= per_node) {
                links = resolve_link(gpu, inside, priors, tp * dp);
            } else {
                links = resolve_link(gpu, o, priors, n);
                share_node_network(links, std::max(1.0, per_node / tp), per_node);
            }
            if (link.bus_bytes_per_s <= 0) {
                r.status = TimeStatus::kNoBandwidth;
                return r;
            }
        }
        // The link the report names: the gradients' ring, or without replicas the tensor-parallel group's.
        if (full) r.interconnect_id = dp > 1 ? link.id : tp > 1 ? tp_links.mid.id : pp_links.mid.id;
    }
    // Megatron-LM as Korthikanti et al. (2022) ran it reduces the data-parallel gradients after the last micro-batch's
    // backward (sec. 6.3: "we do not use any overlapping of gradient all-reduces with back-propagation"): nothing
    // overlaps under tensor/pipeline parallelism unless overlap_fraction says so (newer Megatron-Core can overlap).
    const double overlap = o.overlap_fraction >= 0 ? o.overlap_fraction
                           : model_parallel(c)     ? 0.0
                                                   : priors.comm.overlap_fraction;
    const double sharded = o.overlap_fraction >= 0 ? o.overlap_fraction : priors.comm.sharded_overlap_fraction;
    // Gradients reduced in another dtype than they are kept in (e.g. DDP's fp16_compress_hook casts each bucket to
    // fp16 before the all-reduce: torch.distributed.algorithms.ddp_comm_hooks.default_hooks docs) move that many
    // bytes per value.
    const double grad_bytes = o.grad_reduce_bytes > 0 ? t.grad_comm_values * o.grad_reduce_bytes : t.grad_comm_bytes;

    // Fused attention runs at most at FlashAttention-2's measured fraction of the peak: "50-73% of the theoretical
    // maximum FLOPs/s on A100" (Dao 2023, FlashAttention-2, arXiv 2307.08691, abstract), "only 35% utilization on
    // the H100 GPU" (Shah et al. 2024, FlashAttention-3, arXiv 2407.08608, abstract: its kernels were written for
    // Ampere and use neither Hopper's asynchronous wgmma instructions nor TMA). Attention is bf16/fp16 even under
    // FP8 (peak_other). Fractions and sources: data/throughput_priors.json "fused_attention_limits".
    const double attention_cap_flop_per_s = priors.fused_attention_fraction(gpu) * peak_other;
    // A card whose best GEMM was measured (data/throughput_priors.json "matmul_limits": Bekman's maximum achievable
    // matmul FLOPS, a community torch.mm table) runs its GEMMs at the prior's share of that best: best x fraction /
    // matmul_reference (H100 SXM: 794.5 x 0.85 / 0.869 = 777 TFLOPS, not 0.85 x 989 = 841; RTX 4090: 166.6 x 0.85 /
    // 0.869 = 163, not 0.85 x 165.2 = 140). gemm_rate() falls back to a ceiling when no reference is given.
    const MatmulRate rate_other = r.rate == MatmulRate::kFp8 ? MatmulRate::kBf16 : r.rate;
    const double linear_best_flop_per_s = priors.matmul_limit_flop_per_s(gpu, r.rate);
    const double other_best_flop_per_s = priors.matmul_limit_flop_per_s(gpu, rate_other);
    const double best_to_rate = priors.matmul_reference_fraction > 0
                                    ? prior->matmul_fraction.expected / priors.matmul_reference_fraction
                                    : 0.0;
    const Efficiency e_mid{prior->matmul_fraction.expected, prior->bandwidth_fraction.expected,
                           attention_cap_flop_per_s, linear_best_flop_per_s, other_best_flop_per_s, 1, 1, best_to_rate};
    // The range's ends scale every rate by the fit's spread (data/throughput_priors.json "about": low / high =
    // expected x the smallest / largest measured/predicted of the fit set): the fractions, and with them the two
    // limits that cap those fractions (the SM stream limit, FlashAttention-2's Hopper limit), so a capped card's range
    // is as wide as an uncapped one's, and the host-side times (the spread is of whole measured steps).
    const double mm_fast = prior->matmul_fraction.high / prior->matmul_fraction.expected;
    const double mm_slow = prior->matmul_fraction.low / prior->matmul_fraction.expected;
    const double bw_fast = prior->bandwidth_fraction.high / prior->bandwidth_fraction.expected;
    const double bw_slow = prior->bandwidth_fraction.low / prior->bandwidth_fraction.expected;
    const Efficiency e_fast{prior->matmul_fraction.high,        prior->bandwidth_fraction.high,
                            attention_cap_flop_per_s * mm_fast,   linear_best_flop_per_s * mm_fast,
                            other_best_flop_per_s * mm_fast,      bw_fast,
                            mm_fast,                              best_to_rate};
    const Efficiency e_slow{prior->matmul_fraction.low,         prior->bandwidth_fraction.low,
                            attention_cap_flop_per_s * mm_slow,   linear_best_flop_per_s * mm_slow,
                            other_best_flop_per_s * mm_slow,      bw_slow,
                            mm_slow,                              best_to_rate};
    const double oh = prior->per_layer_overhead_s;
    const double kl = priors.kernel_launch_s;
    const double sm_cycle_rate_hz = sm_cycles_per_s(gpu);
    const double stream_cap_bytes_per_s = sm_cycle_rate_hz * priors.stream_bytes_per_sm_cycle;  // 0: not modelled
    // The card's PCIe link to host memory (its generation's peer-to-peer row: nominal unless measured), which
    // ZeRO-Offload and offloaded checkpointing copy over.
    double host_link_bytes_per_s = 0;
    if (t.offload_bytes > 0 || t.offload_activation_bytes_per_sample > 0) {
        const Interconnect pcie = gpu.pcie_gen >= 5 ? Interconnect::kPcie5
                                  : gpu.pcie_gen == 4 ? Interconnect::kPcie4 : Interconnect::kPcie3;
        const InterconnectSpec* spec = priors.interconnects.find(pcie, true);
        host_link_bytes_per_s = spec ? link_bandwidth(*spec, gpu).mid : 0;
    }
    // "Calibrated by you" (calibration.h): the user's measured throughput of this card on this family scales the
    // card's own work (compute, bandwidth-bound ops, launch overhead, recurrences, the pipeline's idle slots, which
    // are micro-batches of that work); communication, offload and the loader keep their own models.
    const double calibrated_k = gpu.calibration.efficiency_factor(family_name(t.family));
    r.calibrated_efficiency_factor = calibrated_k;
    auto step_at = [&](int gpus, const StepLinks& l, Efficiency e) {
        StepTimes st = step_times(t, batch, gpu, gpus, l, grad_bytes, overlap, sharded,
                                  priors.comm.overlap_slowdown_fraction, peak_other, peak, e, stream_cap_bytes_per_s,
                                  oh / e.host_scale, kl / e.host_scale, priors.optimizer_op_s / e.host_scale);
        if (calibrated_k > 0) {
            for (double* v : {&st.compute_s, &st.memory_s, &st.overhead_s, &st.recurrent_s, &st.optimizer_s,
                              &st.optimizer_loop_s, &st.bubble_s})
                *v /= calibrated_k;
            st.step_s = st.total();
        }
        return st;
    };
    const StepTimes s = step_at(n, {link, tp_links.mid, pp_links.mid, host_link_bytes_per_s}, e_mid);

    // ZeRO-Offload moves the gradients to host memory and the updated parameters back over the same link.
    double offload_s = 0;
    if (t.offload_bytes > 0) {
        const bool z1 = n > 1 && c.strategy != Strategy::kDdp && c.strategy != Strategy::kDp;
        if (host_link_bytes_per_s > 0) offload_s = t.offload_bytes / (z1 ? n : 1) / host_link_bytes_per_s;
    }
    r.offload_transfer_s = offload_s;
    // The optimizer step on the CPU (DeepSpeed's CPU-Adam): a streaming kernel over the fp32 parameter, gradient and
    // both moments (csrc/includes/cpu_adam.h), bound by the host's memory bandwidth, which every rank of a server
    // shares (priors.cpu_optimizer_bytes_per_param; TimeOptions::host_memory_bytes_per_s). Not overlapped with the
    // GPU's next step (ZeRO-Offload's delayed parameter update is off by default). One card's share x the ranks of
    // its server; `one_gpu` = the same job's CPU step on one card.
    double cpu_optimizer_s = 0, cpu_optimizer_one_gpu_s = 0;
    if (t.offload_bytes > 0) {
        const double host_bw =
            o.host_memory_bytes_per_s > 0 ? o.host_memory_bytes_per_s : default_host_memory_bytes_per_s(gpu, priors);
        const double bytes = priors.cpu_optimizer_bytes_per_param;
        if (host_bw > 0 && bytes > 0) {
            const bool z1 = n > 1 && c.strategy != Strategy::kDdp && c.strategy != Strategy::kDp;
            const double per_server = std::min<double>(n, std::max(1.0, priors.comm.gpus_per_node));
            const double params_per_rank = t.grad_comm_values / (z1 ? n : 1);
            cpu_optimizer_s = params_per_rank * per_server * bytes / host_bw;
            cpu_optimizer_one_gpu_s = t.grad_comm_values * bytes / host_bw;
        } else {
            r.cpu_optimizer_not_modelled = true;
        }
    }
    r.cpu_optimizer_s = cpu_optimizer_s;
    offload_s += cpu_optimizer_s;
    r.samples_per_step = batch * accum * dp;
    // The frozen input encoders' forward passes (SD pipelines), once per micro-batch, at the model's efficiencies
    // and each encoder's own rate.
    auto encoders_at = [&](Efficiency e) {
        double sum_s = 0;
        for (const auto& enc : t.input_encoders) {
            bool enc_fallback = false;
            const MatmulRate enc_rate = matmul_rate(enc->config.precision, rates, gpu.compute_capability_major,
                                                    gpu.compute_capability_minor, enc_fallback);
            const double enc_peak = peak_flop_per_s(enc_rate, rates);
            sum_s += accum * step_times(*enc, batch, gpu, 1, {}, 0, 0, 0, 0, enc_peak, enc_peak, e,
                                        stream_cap_bytes_per_s, oh / e.host_scale, kl / e.host_scale,
                                        priors.optimizer_op_s / e.host_scale)
                                 .step_s;
        }
        return calibrated_k > 0 ? sum_s / calibrated_k : sum_s;
    };
    const double encoder_s = encoders_at(e_mid);
    r.input_encoder_s = encoder_s;
    // Input pipeline: each GPU's loader must deliver batch x accum samples per step; prefetching workers overlap
    // loading with compute (torch.utils.data.DataLoader prefetch_factor), so the slower of the two sets the pace.
    auto with_loader = [&](double step_s) {
        return loader_paced_step_s(step_s, batch * accum, o.loader_samples_per_s, o.loader);  // engine/loader.cpp
    };
    const double unpaced_step_s = s.step_s + offload_s + encoder_s;
    r.step_s = with_loader(unpaced_step_s);
    // Dataset: steps = ceil(samples / global batch) per epoch x epochs, or ceil(tokens / tokens per step).
    if (d.tokens > 0 && t.tokens_per_sample > 0) {
        r.steps = std::ceil(d.tokens / (r.samples_per_step * t.tokens_per_sample));
    } else if (d.samples > 0) {
        r.steps_per_epoch = std::ceil(d.samples / r.samples_per_step);
        r.steps = r.steps_per_epoch * std::max(0.0, d.epochs);
    }
    r.total_s = r.steps * r.step_s;
    r.epoch_s = r.steps_per_epoch * r.step_s;
    r.samples_per_s = r.samples_per_step / r.step_s;
    r.tokens_per_s = r.samples_per_s * t.tokens_per_sample;
    if (!full) return r;  // the ranking's figures; the rest (a range, scaling, formulas) costs 3 more evaluations

    // The range: fast kernels on the fast end of the link's measured range, slow kernels on its slow end.
    const StepTimes fast = step_at(n, {links.fast, tp_links.fast, pp_links.fast, host_link_bytes_per_s}, e_fast);
    const StepTimes slow = step_at(n, {links.slow, tp_links.slow, pp_links.slow, host_link_bytes_per_s}, e_slow);
    r.step_low_s = with_loader(fast.step_s + offload_s + encoders_at(e_fast));
    r.step_high_s = with_loader(slow.step_s + offload_s + encoders_at(e_slow));
    r.loader_wait_s = r.step_s - unpaced_step_s;  // exactly 0 when the loader keeps up (with_loader returns its input)
    r.compute_s = s.compute_s;
    r.activation_offload_s = s.activation_offload_s;
    r.memory_bound_s = s.memory_s;
    r.overhead_s = s.overhead_s;
    r.recurrent_s = s.recurrent_s;
    r.optimizer_s = s.optimizer_s;
    r.optimizer_loop_s = s.optimizer_loop_s;
    r.comm_s = s.comm_s;
    r.dp = s.dp;
    r.exposed_comm_s = s.exposed_s;
    r.model_parallel_comm_s = s.model_parallel_s;
    r.pipeline_bubble_s = s.bubble_s;

    r.flop_per_step = t.model_flop_per_sample * r.samples_per_step;
    r.hardware_flop_per_step = t.hardware_flop_per_sample * r.samples_per_step;
    r.mfu = r.flop_per_step / (r.step_s * n * peak);

    // Scaling efficiency: each GPU's own share of the work, perfectly split (no communication), over the step it
    // takes. Under DDP that share is the same micro-batch on one GPU, so this is throughput(n) / (n x throughput(1)).
    // Under ZeRO/FSDP it is not: each GPU updates only 1/n of the weights, and one GPU running the whole optimizer
    // step (and the whole offload) is not the work split n ways. Compared with one such GPU, ZeRO-3 Llama-2-7B on
    // 8 x H100 came out at up to 145% (issue 30): the optimizer step shrinking with n was counted as parallel
    // efficiency. The ideal is now the step at n GPUs without links (step_times adds no communication when the bus
    // has no bandwidth), so the efficiency is at most 1 and the speed-up over one GPU can still exceed n, for that
    // reason (catalog/scaling.h). Under tensor/pipeline parallelism one GPU cannot run the job at all: the share of
    // the step left once communication and the pipeline bubble are taken out.
    if (tp * pp > 1) {
        r.scaling_efficiency = (s.step_s - s.exposed_s - s.model_parallel_s - s.bubble_s) / s.step_s;
    } else if (n > 1) {
        // The CPU optimizer step (ZeRO-Offload) split the same way, without the host memory bandwidth the ranks of
        // a server share (that contention, like communication, is what the efficiency measures).
        const StepTimes split = step_at(n, {{}, {}, {}, host_link_bytes_per_s}, e_mid);
        const bool z1 = c.strategy != Strategy::kDdp && c.strategy != Strategy::kDp;
        const double cpu_share_s = cpu_optimizer_one_gpu_s / (z1 ? n : 1);
        const double ideal_step = with_loader(split.step_s + r.offload_transfer_s + cpu_share_s + encoder_s);
        r.scaling_efficiency = ideal_step / r.step_s;
    }

    r.low_s = r.steps * r.step_low_s;
    r.high_s = r.steps * r.step_high_s;
    r.gpu_hours = r.total_s * n / 3600.0;

    r.step = {r.step_s, "time.step", {{"compute_s", r.compute_s}, {"memory_bound_s", r.memory_bound_s},
                                      {"overhead_s", r.overhead_s}, {"recurrent_s", r.recurrent_s},
                                      {"kernel_launch_s", kl}, {"exposed_comm_s", r.exposed_comm_s},
                                      {"offload_transfer_s", r.offload_transfer_s},
                                      {"activation_offload_s", r.activation_offload_s},
                                      {"input_encoder_s", r.input_encoder_s},
                                      {"loader_wait_s", r.loader_wait_s},
                                      {"model_parallel_comm_s", r.model_parallel_comm_s},
                                      {"pipeline_bubble_s", r.pipeline_bubble_s}, {"grad_accum_steps", double(accum)}}};
    r.compute = {r.compute_s, "time.compute_roofline",
                 {{"hardware_flop_per_sample", t.hardware_flop_per_sample}, {"batch", batch},
                  {"peak_flop_per_s", peak}, {"matmul_fraction", e_mid.matmul},
                  {"tensor_parallel", double(tp)}, {"pipeline_parallel", double(pp)}}};
    // Only where a fused-attention limit applies (an architecture with an entry).
    if (attention_cap_flop_per_s > 0)
        r.compute.operands.push_back({"fused_attention_flop_per_s", attention_cap_flop_per_s});
    // Only where a measured best GEMM exists for this card and rate, or a GeForce card takes the measured median share.
    if (linear_best_flop_per_s > 0) r.compute.operands.push_back({"matmul_limit_flop_per_s", linear_best_flop_per_s});
    if (const double share = priors.geforce_share(gpu, r.rate); share > 0)
        r.compute.operands.push_back({"geforce_median_share", share});
    if (const double share = priors.tf32_share(gpu, r.rate); share > 0)
        r.compute.operands.push_back({"tf32_16bit_share", share});
    r.memory_bound = {r.memory_bound_s, "time.bandwidth_roofline",
                      {{"memory_bandwidth_bytes_per_s", gpu.memory_bandwidth_bytes_per_s},
                       {"bandwidth_fraction", e_mid.bandwidth}, {"dequant_bytes_per_micro", t.dequant_bytes_per_micro},
                       {"sm_cycles_per_s", sm_cycle_rate_hz},
                       {"stream_bytes_per_sm_cycle", priors.stream_bytes_per_sm_cycle},
                       {"elementwise_bytes_per_s",
                        elementwise_bytes_per_s(gpu.memory_bandwidth_bytes_per_s * e_mid.bandwidth,
                                                stream_cap_bytes_per_s)}}};
    r.optimizer = {r.optimizer_s + r.optimizer_loop_s, "time.optimizer_step",
                   {{"optimizer_bytes", t.optimizer_bytes}, {"params_trainable", t.params_trainable},
                    {"params_trainable_per_gpu", t.params_trainable_per_gpu},
                    {"optimizer_loop_ops", s.optimizer_loop_ops}, {"optimizer_op_s", priors.optimizer_op_s},
                    {"optimizer_loop_s", r.optimizer_loop_s}}};
    if (c.ema_weights) {
        r.optimizer.operands.push_back({"ema_bytes", t.ema_bytes});
        r.optimizer.operands.push_back({"ema_loop_ops", t.ema_loop_ops});
    }
    r.comm = {r.comm_s, c.strategy == Strategy::kDdp  ? "time.ring_allreduce"
                        : c.strategy == Strategy::kDp ? "time.dp_broadcast_reduce"
                                                      : "time.zero_collectives",
              {{"grad_bytes", grad_bytes}, {"param_gather_bytes", t.param_gather_bytes},
               {"gpu_count", double(dp)}, {"bus_bytes_per_s", link.bus_bytes_per_s}, {"latency_s", link.latency_s}}};
    if (c.strategy == Strategy::kDp)
        for (auto op : {std::pair<const char*, double>{"dp_broadcast_s", r.dp.broadcast_s}, {"dp_reduce_s", r.dp.reduce_s},
                        {"dp_scatter_gather_s", r.dp.scatter_gather_s}, {"dp_launch_wait_s", r.dp.launch_wait_s},
                        {"dp_output_bytes_per_sample", t.dp.output_bytes_per_sample},
                        {"dp_input_bytes_per_sample", t.dp.input_bytes_per_sample}})
            r.comm.operands.push_back(op);
    if (tp * pp > 1)
        r.model_parallel = {r.model_parallel_comm_s + r.pipeline_bubble_s, "time.model_parallel",
                            {{"tensor_parallel", double(tp)}, {"pipeline_parallel", double(pp)},
                             {"pipeline_interleave", double(pp > 1 ? std::max(1, c.pipeline_interleave) : 1)},
                             {"tp_collectives_per_micro", t.tp_collectives_per_micro},
                             {"tp_collective_bytes", t.tp_collective_bytes_per_sample * batch},
                             {"tp_bus_bytes_per_s", tp_links.mid.bus_bytes_per_s},
                             {"p2p_bytes", t.p2p_bytes_per_sample * batch},
                             {"p2p_bus_bytes_per_s", pp_links.mid.bus_bytes_per_s},
                             {"micro_batches", double(accum)},
                             {"model_parallel_comm_s", r.model_parallel_comm_s},
                             {"pipeline_bubble_s", r.pipeline_bubble_s}}};
    r.exposed_comm = {r.exposed_comm_s, "time.exposed_comm",
                      {{"comm_s", r.comm_s}, {"overlap_fraction", overlap}, {"sharded_overlap_fraction", sharded},
                       {"overlap_slowdown_fraction", priors.comm.overlap_slowdown_fraction},
                       {"backward_fraction", t.backward_fraction}}};
    r.flop = {r.flop_per_step, "time.model_flop",
              {{"model_flop_per_sample", t.model_flop_per_sample}, {"samples_per_step", r.samples_per_step}}};
    return r;
}

// ---- scaling curve -----------------------------------------------------------------------------------------
std::vector<std::pair<int, double>> scaling_curve(const PreparedTime& prepared, double batch, const GpuSpec& gpu,
                                                  const TimeOptions& options, const ThroughputPriors& priors,
                                                  const std::vector<int>& gpu_counts) {
    std::vector<std::pair<int, double>> out;
    PreparedTime p = prepared;
    // Under tensor/pipeline parallelism a count is a number of model replicas (each tp x pp GPUs).
    const int replica = std::max(1, prepared.config.tensor_parallel * prepared.config.pipeline_parallel);
    for (int n : gpu_counts) {
        p.config.gpu_count = n * replica;
        const TimeReport r = evaluate_time(p, batch, gpu, options, Dataset{}, priors);
        out.emplace_back(n * replica, r.status == TimeStatus::kOk ? r.scaling_efficiency : 0.0);
    }
    return out;
}

}  // namespace gg::engine
