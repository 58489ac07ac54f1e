// StyleGAN3's generator (NVlabs/stylegan3 @c233a91 training/networks_stylegan3.py) as a per-sample operation list
// (gan.h GanOp): the layer schedule (cutoffs, sampling rates, sizes, channels) computed as SynthesisNetwork does, the
// modulated grouped convolution and the fused filtered_lrelu of every SynthesisLayer. No JSON or UI code.
#include <algorithm>
#include <cmath>
#include <string>

#include "engine/gan_nets.h"

namespace gg::engine {

namespace {

// SynthesisNetwork defaults (networks_stylegan3.py): 14 layers + ToRGB, the last 2 critically sampled, first cutoff 2,
// first stopband 2^2.1, last stopband 2^0.3 x the last cutoff, 10 px margin, FP16 where sampling rate x
// 2^num_fp16_res (4: GanSpec::fp16_levels) > the image resolution; SynthesisLayer: filter_size 6, lrelu_upsampling 2.
constexpr int kLayers = 14, kCritical = 2, kMargin = 10, kFilterSize = 6, kLreluUp = 2;

struct Sg3Layer {
    int cin = 0, cout = 0, in_size = 0, out_size = 0, kernel = 3, up = 1, down = 1, up_taps = 1, down_taps = 1;
    bool fp16 = false, radial = false, torgb = false;
};

// One SynthesisLayer (forward in training): affine styles; modulated_conv2d, which pre-normalizes the weight, builds
// the per-sample weights w = weight x styles [N,O,I,k,k] in fp32, demodulates (w.square().sum), scales by the
// magnitude EMA's input gain, casts to the layer's dtype and runs ONE grouped convolution with groups = batch
// (x reshaped to [1, N*I, H, W]); then filtered_lrelu: bias, upsample by `up` (FIR of up_taps), leaky ReLU x sqrt 2,
// clamp 256, downsample by `down` (FIR of down_taps; radially symmetric 2D for -r), one fused CUDA kernel that keeps
// only a bit-packed sign tensor (2 bits per upsampled value, filtered_lrelu.py: "only the bit-packed sign tensor is
// retained for gradient computation"). Its backward is the same kernel over dy with the filters and factors swapped.
GanOp sg3_layer(const std::string& name, const Sg3Layer& l, int w_dim) {
    const double e = l.fp16 ? 2.0 : 4.0;
    const double k2 = double(l.kernel) * l.kernel;
    const double per_sample_w = double(l.cout) * l.cin * k2;
    const double conv_out = double(l.in_size) + l.kernel - 1;  // padding = kernel - 1
    const double tmp = double(l.out_size) * l.down;             // the upsampled grid the nonlinearity runs on
    GanOp op;
    op.name = name;
    op.fp16 = l.fp16;
    op.params = double(w_dim) * l.cin + l.cin + per_sample_w + l.cout;  // affine, weight, bias
    // The grouped conv: each sample's own weights, the dense conv's MACs; it reads the per-sample weights (the
    // weight-bandwidth side of its roofline) besides the activations.
    op.matmul_flop = 2.0 * per_sample_w * conv_out * conv_out + 2.0 * w_dim * l.cin;
    op.matmul_bytes = e * (double(l.cin) * l.in_size * l.in_size + l.cout * conv_out * conv_out + per_sample_w);
    op.layout_bytes = e * (double(l.cin) * l.in_size * l.in_size + l.cout * conv_out * conv_out);
    // filtered_lrelu's FIR work (FP32 FMAs in shared memory, on CUDA cores: counted at the FP32 rate as fp32 "conv"
    // work would be): polyphase upsampling, separable, up_taps / up taps per dimension at each upsampled value;
    // downsampling at each output value, separable (down_taps per dimension, the horizontal pass on down x as many
    // rows) or radial (down_taps^2).
    const double up_mac = l.up > 1 ? (double(l.up_taps) / l.up) * (1.0 + 1.0 / l.up) : 0;
    const double down_mac = l.down > 1 ? (l.radial ? double(l.down_taps) * l.down_taps : double(l.down_taps) * (l.down + 1)) : 0;
    const double fir_flop = 2.0 * l.cout * (tmp * tmp * up_mac + double(l.out_size) * l.out_size * down_mac);
    // Bandwidth-bound work: the per-sample weight tensors in fp32 (w * s written, squared and summed, w * dcoefs,
    // w * input_gain, cast: about 7 passes of 4 bytes), x (in, to dtype), and filtered_lrelu's conv output in, output
    // and sign tensor out.
    op.stream_bytes = 4.0 * 7 * per_sample_w + e * 2.0 * l.cin * l.in_size * l.in_size +
                      e * (l.cout * conv_out * conv_out + double(l.cout) * l.out_size * l.out_size) +
                      (l.torgb ? 0 : l.cout * tmp * tmp / 4.0);
    op.fir_flop = fir_flop;
    op.kernels = 20;
    // Kept for backward: the conv's input x (the previous layer's output, new storage here as each layer's output is
    // kept only by the next conv) and its per-sample weight (the cast copy), the fp32 w * s (kept by square and by the
    // dcoefs mul; w * dcoefs is not kept: its other factor, the input gain, is a buffer), the styles, the sign tensor.
    op.saved_bytes = e * double(l.cin) * l.in_size * l.in_size + (4.0 + e) * per_sample_w + 8.0 * l.cin +
                     (l.torgb ? 0 : l.cout * tmp * tmp / 4.0) + 4.0 * w_dim;
    op.saved_input_grad_bytes = op.saved_bytes;
    return op;
}

}  // namespace

void build_stylegan3_g(const GanSpec& s, GanNetwork& g) {
    const int w_dim = 512;
    const double res = s.resolution;
    // MappingNetwork: z normalization and mapping_layers FC 512 -> 512 with lrelu, w_avg buffer; no style mixing
    // (stylegan3 train.py enables it for --cfg=stylegan2 only).
    for (int i = 0; i < s.mapping_layers; ++i)
        g.ops.push_back(gan_fully_connected("mapping.fc" + std::to_string(i), w_dim, w_dim, true));
    g.buffer_bytes += 4.0 * w_dim;
    // SynthesisNetwork.__init__: the schedule of cutoffs f_c, stopbands f_t, sampling rates s, sizes and channels.
    const double cbase = double(s.channel_base) * s.g_channel_scale, cmax = double(s.channel_max) * s.g_channel_scale;
    const double first_cutoff = 2, first_stopband = std::exp2(2.1), last_cutoff = res / 2;
    const double last_stopband = last_cutoff * std::exp2(0.3);
    double rate[kLayers + 1], size[kLayers + 1];
    int ch[kLayers + 1];
    for (int i = 0; i <= kLayers; ++i) {
        const double ex = std::min(double(i) / (kLayers - kCritical), 1.0);
        const double cutoff = first_cutoff * std::pow(last_cutoff / first_cutoff, ex);
        const double stopband = first_stopband * std::pow(last_stopband / first_stopband, ex);
        rate[i] = std::exp2(std::ceil(std::log2(std::min(stopband * 2, res))));
        size[i] = i >= kLayers - 1 ? res : rate[i] + 2 * kMargin;
        ch[i] = int(std::nearbyint(std::min(cbase / 2 / cutoff, cmax)));
    }
    ch[kLayers] = 3;
    // SynthesisInput: Fourier features at size[0] from an affine (w -> 4) and a [C0, C0] weight, fp32.
    const double in_px = size[0] * size[0];
    GanOp input;
    input.name = "synthesis.input";
    input.params = double(ch[0]) * ch[0] + w_dim * 4.0 + 4;
    input.matmul_flop = 2.0 * in_px * ch[0] * ch[0] + 2.0 * in_px * 2 * ch[0];
    input.matmul_bytes = 4.0 * in_px * 2 * ch[0];
    input.stream_bytes = 4.0 * in_px * ch[0] * 6;  // + phases, sin, x amplitudes
    input.kernels = 30;
    input.saved_bytes = 4.0 * in_px * ch[0] * 3;  // sin's input, the amplitudes mul's input, the matmul's input
    input.saved_input_grad_bytes = input.saved_bytes;
    g.ops.push_back(input);
    g.buffer_bytes += 4.0 * (9 + 3.0 * ch[0]);  // transform, freqs, phases
    for (int i = 0; i <= kLayers; ++i) {
        const int prev = std::max(i - 1, 0);
        Sg3Layer l;
        l.torgb = i == kLayers;
        const bool critical = i >= kLayers - kCritical;
        l.fp16 = rate[i] * std::exp2(s.fp16_levels) > res;
        l.cin = ch[prev], l.cout = ch[i];
        l.in_size = int(size[prev]), l.out_size = int(size[i]);
        l.kernel = l.torgb ? 1 : s.conv_kernel;
        const double tmp_rate = std::max(rate[prev], rate[i]) * (l.torgb ? 1 : kLreluUp);
        l.up = int(std::lround(tmp_rate / rate[prev]));
        l.down = int(std::lround(tmp_rate / rate[i]));
        l.up_taps = l.up > 1 && !l.torgb ? kFilterSize * l.up : 1;
        l.down_taps = l.down > 1 && !l.torgb ? kFilterSize * l.down : 1;
        l.radial = s.radial_filters && !critical;
        const std::string name = "synthesis.L" + std::to_string(i) + "_" + std::to_string(l.out_size) + "_" +
                                 std::to_string(l.cout);
        g.ops.push_back(sg3_layer(name, l, w_dim));
        // magnitude_ema, up_filter, down_filter buffers
        g.buffer_bytes += 4.0 * (1 + l.up_taps + (l.radial ? double(l.down_taps) * l.down_taps : l.down_taps));
        const double e = l.fp16 ? 2.0 : 4.0;
        g.largest_activation_bytes_per_sample =
            std::max(g.largest_activation_bytes_per_sample,
                     e * double(l.cout) * (l.in_size + l.kernel - 1) * (l.in_size + l.kernel - 1));
    }
}

}  // namespace gg::engine
