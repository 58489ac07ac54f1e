// GANs (issue 42): two networks, a generator G and a discriminator D, each with its own Adam, trained by alternating
// phases (G step, D step) and lazy regularization passes (path length on G, R1 on D). Memory is both networks'
// weights, gradients, optimizer states and G's moving average, plus the largest of what each phase keeps alive;
// time is one iteration's phases, each at its interval. Pure C++: no JSON, no UI. The layer lists of the networks are
// built in gan_nets.cpp from the reference code's structure; the presets are data (data/gan_models.json).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/hardware.h"
#include "engine/time.h"

namespace gg::engine {

// Which reference code the networks and the loss follow.
enum class GanKind : std::uint8_t {
    kStyleGan2,  // NVlabs/stylegan2-ada-pytorch training/networks.py (resnet D, skip G), training/loss.py
    kDcgan,      // the PyTorch DCGAN tutorial (beginner_source/dcgan_faces_tutorial.py)
    kPix2pix,    // junyanz/pytorch-CycleGAN-and-pix2pix (unet_256 G, basic 70x70 PatchGAN D, GAN + L1 loss)
    kStyleGan3,  // NVlabs/stylegan3 training/networks_stylegan3.py G (alias-free, filtered_lrelu), stylegan2's D
};
const char* gan_kind_name(GanKind kind);  // "stylegan2", "dcgan", "pix2pix", "stylegan3"

struct GanSpec {
    std::string id, name, source;
    GanKind kind = GanKind::kStyleGan2;
    int resolution = 256;
    // StyleGAN2 (train.py cfg_specs / --cfg=auto): channels at resolution r = min(channel_base / r, channel_max);
    // mapping depth; FP16 in the num_fp16_res highest resolutions (fp16_resolution = max(2^(log2 res + 1 - n), 8));
    // minibatch-std group; lazy regularization intervals (training_loop.py G_reg_interval 4, D_reg_interval 16) and
    // the path-length batch shrink (loss.py pl_batch_shrink 2); style mixing runs the mapping network twice.
    int channel_base = 32768, channel_max = 512, mapping_layers = 8, fp16_levels = 4, mbstd_group = 4;
    int g_reg_interval = 4, d_reg_interval = 16, pl_batch_shrink = 2;
    bool style_mixing = true;
    bool g_ema = true;  // a moving-average copy of G kept on the GPU (training_loop.py G_ema = copy.deepcopy(G))
    // Path-length regularization (Greg phase): stylegan2 configs only (stylegan3 train.py sets pl_weight = 2 and
    // G_reg_interval = 4 for --cfg=stylegan2 alone; its -t / -r configs train G in one "Gboth" phase without it).
    bool path_length = true;
    // ADA's augmentation pipe on every image D sees (train.py --aug=ada, the default: 'bgc'); --aug=noaug: false.
    bool augment = true;
    // StyleGAN3 (stylegan3 train.py --cfg=stylegan3-t|r): G's convolution kernel (3; 1 for -r), radially symmetric
    // downsampling filters (-r), and G's channel_base / channel_max multiplier (-r doubles both for G only; D keeps
    // channel_base / channel_max).
    int conv_kernel = 3;
    bool radial_filters = false;
    int g_channel_scale = 1;
    // DCGAN / pix2pix widths (ngf = ndf) and DCGAN's latent size.
    int width = 64, latent = 100;
    // Parameter counts of the reference code (tools/measure/gan_params.py), with where they come from.
    double reference_g_params = 0, reference_d_params = 0;
    std::string reference_source;
};

// One operation of a network, per sample: what it holds, costs and keeps for backward.
struct GanOp {
    std::string name;
    double params = 0;
    double matmul_flop = 0;        // forward conv / linear FLOPs (2 per multiply-add), per sample
    double matmul_bytes = 0;       // bytes a conv reads and writes in forward (its roofline's memory side), per sample
    double stream_bytes = 0;       // bytes the bandwidth-bound kernels around it move in forward, per sample
    // The conv's NCHW input and output, per sample: in FP16 cuDNN's tensor-core kernels work in NHWC, so each conv call
    // (forward, input gradient, weight gradient) transposes its operands there and its result back (the time engine's
    // rule, docs/time-model.md "NCHW layout transposes": 2 x (input + output) bytes moved per call). Both NVlabs
    // codebases keep NCHW (no channels_last).
    double layout_bytes = 0;
    double fir_flop = 0;           // FIR filtering FLOPs of a fused custom kernel on FP32 CUDA cores (StyleGAN3's
                                   // filtered_lrelu), forward; its backward is the same kernel over the gradient
    double kernels = 1;            // kernel launches in forward (the per-launch overhead)
    double saved_bytes = 0;        // kept for backward when the weights train, per sample
    double saved_input_grad_bytes = 0;  // kept when only the input's gradient is needed (frozen weights)
    bool fp16 = false;             // runs in FP16 (StyleGAN's top levels); else FP32 (TF32 off, as the code sets)
};

struct GanNetwork {
    std::vector<GanOp> ops;
    double buffer_bytes = 0;       // persistent buffers (noise constants, w_avg, BatchNorm running stats)
    double params() const;
    double saved_bytes_per_sample(bool weights_train) const;
    double largest_activation_bytes_per_sample = 0;  // the biggest single tensor (gradient transients)
};

struct GanNetworks {
    GanNetwork g, d;
    double image_bytes_per_sample = 0;  // one real image as D reads it (fp32)
};

// Build both networks for a spec (per sample; nothing depends on the batch).
GanNetworks build_gan_networks(const GanSpec& spec);

// One phase of an iteration (StyleGAN2Loss.accumulate_gradients phases; DCGAN and pix2pix have Dmain and Gmain only).
struct GanPhase {
    const char* name = "";        // "Gmain", "Greg", "Dmain", "Dreg"
    double every = 1;             // runs every this many iterations
    double batch = 0;             // samples per GPU in the phase
    double flop = 0;              // hardware FLOPs of the phase per run (all passes)
    double seconds = 0;           // per run
    double activation_bytes = 0;  // kept alive at the phase's peak (saved tensors + the generated images)
};

struct GanReport {
    double g_params = 0, d_params = 0;
    // memory on one GPU (bytes): persistent parts, the largest phase, the allocator's peak
    double g_weight_bytes = 0, d_weight_bytes = 0, g_ema_bytes = 0;
    double gradient_bytes = 0;      // G's and D's (each phase's zero_grad(set_to_none) frees only its own network's)
    double optimizer_bytes = 0;     // Adam m and v of both networks
    double buffer_bytes = 0;
    double workspace_bytes = 0;     // cuBLAS workspace
    double peak_activation_bytes = 0;
    const char* peak_phase = "";
    double peak_allocated_bytes = 0;  // torch.cuda.max_memory_allocated
    double nvidia_smi_bytes = 0;      // + fragmentation + CUDA context
    std::vector<GanPhase> phases;
    // time
    double iteration_s = 0;          // one iteration, lazy phases amortised over their interval
    double comm_s = 0;               // per iteration, gradient all-reduces (not overlapped)
    double samples_per_s = 0;        // real images shown to D per second, all GPUs
    double sec_per_kimg = 0;         // 1000 / samples_per_s
    bool time_ok = false;            // false: no FP32 / FP16 rate or no CNN prior for the card
};

struct GanTraining {
    double batch = 4;      // per GPU per pass (StyleGAN's --batch-gpu = --batch / --gpus)
    int gpu_count = 1;
    Tunables tunables;     // CUDA context, fragmentation, workspace (memory.h)
};

GanReport evaluate_gan(const GanSpec& spec, const GanTraining& training, const GpuSpec& gpu,
                       const ThroughputPriors& priors);

}  // namespace gg::engine
