// The GAN presets' generators and discriminators as per-sample operation lists (gan.h GanOp): parameters, FLOPs,
// bytes moved and what autograd keeps, read off the reference code. Only structure here; the phases and the
// totals are gan.cpp's. Must not include JSON or UI code.
#include <algorithm>
#include <cmath>
#include <string>

#include "engine/gan.h"
#include "engine/gan_nets.h"

namespace gg::engine {

namespace {

// Bytes of an element in the op's dtype.
double el(bool fp16) { return fp16 ? 2.0 : 4.0; }

void note_largest(GanNetwork& n, double bytes) {
    n.largest_activation_bytes_per_sample = std::max(n.largest_activation_bytes_per_sample, bytes);
}

// ---- StyleGAN2 (NVlabs/stylegan2-ada-pytorch training/networks.py @d72cc7d) ------------------------------------
int sg_channels(const GanSpec& s, int res) { return std::min(s.channel_base / res, s.channel_max); }
int sg_fp16_resolution(const GanSpec& s) {
    const int log2res = int(std::lround(std::log2(double(s.resolution))));
    return std::max(1 << std::max(0, log2res + 1 - s.fp16_levels), 8);
}

}  // namespace

// FullyConnectedLayer (lr-multiplied Linear + bias_act): the input kept for the weight gradient, fp32.
GanOp gan_fully_connected(const std::string& name, int in, int out, bool lrelu) {
    GanOp op;
    op.name = name;
    op.params = double(in) * out + out;
    op.matmul_flop = 2.0 * in * out;
    op.matmul_bytes = 4.0 * (in + out);
    op.stream_bytes = lrelu ? 8.0 * out : 0;
    op.kernels = lrelu ? 2 : 1;
    // addmm keeps its input; bias_act lrelu keeps y (bias_act.py activation_funcs: lrelu ref='y').
    op.saved_bytes = 4.0 * in + (lrelu ? 4.0 * out : 0);
    op.saved_input_grad_bytes = lrelu ? 4.0 * out : 0;
    return op;
}

namespace {

GanOp fully_connected(const std::string& name, int in, int out, bool lrelu) {
    return gan_fully_connected(name, in, out, lrelu);
}

// SynthesisLayer in training (fused_modconv False: SynthesisBlock.forward sets it only for inference), at output
// resolution r from r_in (r / 2 with up = 2): modulated_conv2d computes per-sample weights w = weight x styles
// [N,O,I,k,k] in fp32 for the demodulation coefficients (w.square() keeps w), x * styles (the mul keeps x, which is
// the previous layer's bias_act output: shared, not counted again), conv2d_resample (conv keeps the modulated x; with
// up = 2 a stride-2 transposed conv then upfirdn2d's FIR filter, which keeps only the filter), fma(x, dcoefs, noise)
// keeps its a (the conv output), noise = randn(N,1,r,r) x strength keeps the randn, bias_act lrelu keeps y.
GanOp synthesis_layer(const std::string& name, int cin, int cout, int r, bool up, bool fp16, int w_dim) {
    const int k = 3;
    const double r_in = up ? r / 2.0 : r;
    const double e = el(fp16);
    const double per_sample_w = double(cout) * cin * k * k;
    GanOp op;
    op.name = name;
    op.fp16 = fp16;
    op.params = double(w_dim) * cin + cin + per_sample_w + 1 + cout;  // affine, weight, noise_strength, bias
    op.matmul_flop = 2.0 * cin * cout * k * k * r_in * r_in + 2.0 * w_dim * cin;
    op.matmul_bytes = e * (cin * r_in * r_in + cout * double(r) * r);
    op.layout_bytes = op.matmul_bytes;
    // w * styles, square, sum (fp32, per sample); x * styles; upfirdn2d (up); fma; bias_act.
    op.stream_bytes = 4.0 * 4 * per_sample_w + e * (2.0 * cin * r_in * r_in + (up ? 2.0 : 0) * cout * r * r +
                                                    3.0 * cout * r * r + 2.0 * cout * r * r);
    op.kernels = 12;
    op.saved_bytes = 4.0 * per_sample_w + e * cin * r_in * r_in + 2 * e * cout * double(r) * r + 4.0 * r * r +
                     4.0 * w_dim;
    op.saved_input_grad_bytes = op.saved_bytes;
    return op;
}

// ToRGBLayer: modulated 1x1 conv without demodulation (no per-sample weights), bias_act linear keeps nothing.
GanOp to_rgb(const std::string& name, int cin, int r, bool fp16, int w_dim) {
    const double e = el(fp16);
    GanOp op;
    op.name = name;
    op.fp16 = fp16;
    op.params = double(w_dim) * cin + cin + 3.0 * cin + 3;
    op.matmul_flop = 2.0 * cin * 3 * double(r) * r + 2.0 * w_dim * cin;
    op.matmul_bytes = e * (cin + 3.0) * r * r;
    op.layout_bytes = op.matmul_bytes;
    op.stream_bytes = e * 2.0 * cin * r * r + 4.0 * 3 * 3 * r * r;  // x * styles; bias_act, cast, img add/upsample
    op.kernels = 8;
    op.saved_bytes = e * double(cin) * r * r + 4.0 * w_dim;  // the modulated x (conv input)
    op.saved_input_grad_bytes = op.saved_bytes;
    return op;
}

void build_stylegan2_g(const GanSpec& s, GanNetwork& g) {
    const int w_dim = 512, fp16_res = sg_fp16_resolution(s);
    // MappingNetwork: normalize_2nd_moment(z), num_layers FullyConnectedLayers 512 -> 512 with lrelu; w_avg buffer.
    // Style mixing (loss.py run_G, style_mixing_prob 0.9) runs the mapping a second time every step.
    for (int i = 0; i < s.mapping_layers; ++i) {
        GanOp fc = fully_connected("mapping.fc" + std::to_string(i), w_dim, w_dim, true);
        if (s.style_mixing) {
            fc.matmul_flop *= 2, fc.matmul_bytes *= 2, fc.stream_bytes *= 2, fc.kernels *= 2, fc.saved_bytes *= 2;
            fc.saved_input_grad_bytes *= 2;
        }
        g.ops.push_back(fc);
    }
    g.buffer_bytes += 4.0 * w_dim;
    const int c4 = sg_channels(s, 4);
    GanOp cst;
    cst.name = "synthesis.b4.const";
    cst.params = double(c4) * 16;
    cst.kernels = 1;
    g.ops.push_back(cst);
    for (int r = 4; r <= s.resolution; r *= 2) {
        const bool fp16 = r >= fp16_res;
        const int cout = sg_channels(s, r);
        const std::string b = "synthesis.b" + std::to_string(r);
        if (r > 4) g.ops.push_back(synthesis_layer(b + ".conv0", sg_channels(s, r / 2), cout, r, true, fp16, w_dim));
        g.ops.push_back(synthesis_layer(b + ".conv1", cout, cout, r, false, fp16, w_dim));
        g.ops.push_back(to_rgb(b + ".torgb", cout, r, fp16, w_dim));
        g.buffer_bytes += 4.0 * r * r * (r > 4 ? 2 : 1);  // noise_const of each SynthesisLayer
        note_largest(g, el(fp16) * double(cout) * r * r);
    }
}

// Conv2dLayer (weight x weight_gain, conv2d_resample, bias_act): with down = 2 and a 3x3 kernel, upfirdn2d filters
// the input (padded) first and a stride-2 conv follows (it keeps the filtered input); with a 1x1 kernel (the resnet
// skip) upfirdn2d filters and downsamples, the conv keeps the (r/2)^2 result. bias_act lrelu keeps y; linear nothing.
GanOp d_conv(const std::string& name, int cin, int cout, int k, int r, bool down, bool lrelu, bool bias, bool fp16) {
    const double e = el(fp16);
    const double ro = down ? r / 2.0 : r;
    const double conv_in = (down && k == 1) ? double(cin) * ro * ro : double(cin) * r * r;
    GanOp op;
    op.name = name;
    op.fp16 = fp16;
    op.params = double(cout) * cin * k * k + (bias ? cout : 0);
    op.matmul_flop = 2.0 * cin * cout * k * k * ro * ro;
    op.matmul_bytes = e * (conv_in + cout * ro * ro);
    op.layout_bytes = op.matmul_bytes;
    op.stream_bytes = e * ((down ? double(cin) * r * r + conv_in : 0) + 2.0 * cout * ro * ro);
    op.kernels = down ? 4 : 3;
    op.saved_bytes = e * (conv_in + (lrelu ? cout * ro * ro : 0));
    // conv2d_gradfix's _Conv2d (used for every conv in training: training_loop.py sets conv2d_gradfix.enabled) calls
    // ctx.save_for_backward(input, weight) whatever needs a gradient, so a frozen D keeps the same set.
    // A filtered copy is new storage; an unfiltered input is the previous op's kept output (counted there) except
    // for the image itself (fromrgb).
    if (!down) op.saved_bytes -= e * conv_in;
    op.saved_input_grad_bytes = op.saved_bytes;
    return op;
}

void build_stylegan2_d(const GanSpec& s, GanNetwork& d) {
    const int fp16_res = sg_fp16_resolution(s);
    if (s.augment) d.ops.push_back(gan_augment_pipe(s.resolution));  // loss.py run_D: augment_pipe(img) before D
    for (int r = s.resolution; r >= 8; r /= 2) {
        const bool fp16 = r >= fp16_res;
        const int tmp = sg_channels(s, r), out = sg_channels(s, r / 2);
        const std::string b = "b" + std::to_string(r);
        if (r == s.resolution) {
            GanOp rgb = d_conv(b + ".fromrgb", 3, tmp, 1, r, false, true, true, fp16);
            rgb.saved_bytes += el(fp16) * 3.0 * r * r;  // the image cast to the block's dtype
            d.ops.push_back(rgb);
        }
        d.ops.push_back(d_conv(b + ".skip", tmp, out, 1, r, true, false, false, fp16));
        d.ops.push_back(d_conv(b + ".conv0", tmp, tmp, 3, r, false, true, true, fp16));
        GanOp c1 = d_conv(b + ".conv1", tmp, out, 3, r, true, true, true, fp16);
        c1.stream_bytes += el(fp16) * 3.0 * out * (r / 2.0) * (r / 2.0);  // y.add_(x)
        d.ops.push_back(c1);
        note_largest(d, el(fp16) * double(tmp) * r * r);
    }
    // DiscriminatorEpilogue at 4x4, fp32: MinibatchStdLayer (1 channel), conv 3x3, fc, out.
    const int c4 = sg_channels(s, 4);
    d.ops.push_back(d_conv("b4.conv", c4 + 1, c4, 3, 4, false, true, true, false));
    d.ops.push_back(fully_connected("b4.fc", c4 * 16, c4, true));
    d.ops.push_back(fully_connected("b4.out", c4, 1, false));
}

// ---- DCGAN (pytorch/tutorials beginner_source/dcgan_faces_tutorial.py) ------------------------------------------
// ConvTranspose2d / Conv2d 4x4 (no bias), BatchNorm2d (keeps input + fp32 mean/invstd), ReLU / LeakyReLU(0.2) in place
// (keep their result, which the next conv also keeps as its input: one storage), Tanh / Sigmoid keep their output.
GanOp dc_layer(const std::string& name, int cin, int cout, int r_in, int r_out, bool transposed, bool bn) {
    const double conv_r = transposed ? r_in : r_out;  // MACs per input pixel (transposed) or output pixel
    GanOp op;
    op.name = name;
    op.params = double(cin) * cout * 16 + (bn ? 2.0 * cout : 0);
    op.matmul_flop = 2.0 * cin * cout * 16 * conv_r * conv_r;
    op.matmul_bytes = 4.0 * (double(cin) * r_in * r_in + double(cout) * r_out * r_out);
    const double out = double(cout) * r_out * r_out;
    op.stream_bytes = 4.0 * out * (bn ? 4 : 2);
    op.kernels = bn ? 3 : 2;
    // conv input = the previous activation's kept result (counted there); BN keeps the conv output; the activation
    // keeps its result.
    op.saved_bytes = 4.0 * out * (bn ? 2 : 1);
    op.saved_input_grad_bytes = op.saved_bytes;
    return op;
}

void build_dcgan(const GanSpec& s, GanNetworks& n) {
    const int f = s.width;
    n.g.ops.push_back(dc_layer("G.0", s.latent, f * 8, 1, 4, true, true));
    n.g.ops.push_back(dc_layer("G.3", f * 8, f * 4, 4, 8, true, true));
    n.g.ops.push_back(dc_layer("G.6", f * 4, f * 2, 8, 16, true, true));
    n.g.ops.push_back(dc_layer("G.9", f * 2, f, 16, 32, true, true));
    n.g.ops.push_back(dc_layer("G.12", f, 3, 32, 64, true, false));
    n.g.buffer_bytes = 4.0 * (2.0 * (f * 8 + f * 4 + f * 2 + f) + 4);  // running mean/var + num_batches_tracked
    n.d.ops.push_back(dc_layer("D.0", 3, f, 64, 32, false, false));
    n.d.ops.back().saved_bytes += 4.0 * 3 * 64 * 64;  // the image, kept by the first conv
    n.d.ops.push_back(dc_layer("D.2", f, f * 2, 32, 16, false, true));
    n.d.ops.push_back(dc_layer("D.5", f * 2, f * 4, 16, 8, false, true));
    n.d.ops.push_back(dc_layer("D.8", f * 4, f * 8, 8, 4, false, true));
    n.d.ops.push_back(dc_layer("D.11", f * 8, 1, 4, 1, false, false));
    n.d.buffer_bytes = 4.0 * (2.0 * (f * 2 + f * 4 + f * 8) + 3);
    note_largest(n.g, 4.0 * f * 32 * 32 * 2);
    note_largest(n.d, 4.0 * f * 32 * 32);
}


// ---- pix2pix (junyanz/pytorch-CycleGAN-and-pix2pix models/networks.py, pix2pix defaults) ---------------------------
// UnetGenerator unet_256 (8 UnetSkipConnectionBlocks, BatchNorm so convs have no bias, dropout 0.5 in the three
// blocks under the innermost): each block's down path LeakyReLU(0.2, in place) -> Conv 4x4/2 -> BN, its up path
// ReLU (in place) -> ConvTranspose 4x4/2 -> BN [-> Dropout], and torch.cat([x, up], 1) (new storage, kept by the
// next ReLU and the transposed conv). Outermost: plain conv down, ReLU -> ConvTranspose (bias) -> Tanh.
void build_pix2pix(const GanSpec& s, GanNetworks& n) {
    const int f = s.width, R = s.resolution;
    // (outer channels, inner channels) from the outermost block inwards; 8 levels for 256 px.
    const int outer[8] = {3, f, f * 2, f * 4, f * 8, f * 8, f * 8, f * 8};
    const int inner[8] = {f, f * 2, f * 4, f * 8, f * 8, f * 8, f * 8, f * 8};
    double bn_channels = 0;
    for (int i = 0; i < 8; ++i) {
        const bool outermost = i == 0, innermost = i == 7, dropout = i >= 4 && i <= 6;
        const int r = R >> i, rh = r / 2;  // this level's input resolution and the inner one
        const int cin = i == 0 ? 3 : outer[i];
        const double down_out = double(inner[i]) * rh * rh;
        const std::string b = "unet.level" + std::to_string(i);
        GanOp down;
        down.name = b + ".down";
        const bool down_bn = !outermost && !innermost;
        down.params = double(cin) * inner[i] * 16 + (down_bn ? 2.0 * inner[i] : 0);
        down.matmul_flop = 2.0 * cin * inner[i] * 16 * rh * rh;
        down.matmul_bytes = 4.0 * (double(cin) * r * r + down_out);
        down.stream_bytes = 4.0 * (2.0 * cin * r * r + (down_bn ? 2 : 0) * down_out);  // in-place lrelu, BN
        down.kernels = down_bn ? 3 : 2;
        // BN keeps the conv output; its own output is kept by the next level's in-place LeakyReLU (counted here).
        down.saved_bytes = 4.0 * (outermost ? 3.0 * r * r : 0) + 4.0 * down_out * (down_bn ? 2 : 1);
        if (innermost) down.saved_bytes = 4.0 * down_out;  // relu in place keeps the conv output
        down.saved_input_grad_bytes = down.saved_bytes;
        n.g.ops.push_back(down);
        GanOp up;
        up.name = b + ".up";
        const double up_in = double(innermost ? inner[i] : 2 * inner[i]) * rh * rh;
        const double up_out = double(outer[i]) * r * r;
        up.params = (innermost ? inner[i] : 2.0 * inner[i]) * outer[i] * 16 + (outermost ? outer[i] : 2.0 * outer[i]);
        up.matmul_flop = 2.0 * up_in * outer[i] * 16;
        up.matmul_bytes = 4.0 * (up_in + up_out);
        // in-place ReLU, BN (or tanh), dropout, cat with the skip
        up.stream_bytes = 4.0 * (2 * up_in + 2 * up_out + (dropout ? 2.5 : 0) * up_out + (outermost ? 0 : 4 * up_out));
        up.kernels = outermost ? 3 : (dropout ? 5 : 4);
        // ReLU keeps the cat (the innermost's: its down conv output, counted above); BN keeps the transposed conv's
        // output; dropout keeps a 1-byte mask; the cat [x, up] is new storage kept by the level above.
        up.saved_bytes = (innermost ? 0 : 4.0 * up_in) + 4.0 * up_out + (dropout ? 1.0 * up_out : 0);
        up.saved_input_grad_bytes = up.saved_bytes;
        n.g.ops.push_back(up);
        if (down_bn) bn_channels += inner[i];
        if (!outermost) bn_channels += outer[i];
        n.g.largest_activation_bytes_per_sample = std::max(n.g.largest_activation_bytes_per_sample, 4.0 * 2 * up_out);
    }
    n.g.buffer_bytes = 4.0 * 2 * bn_channels;
    // NLayerDiscriminator(input_nc = 6, ndf = 64, n_layers = 3): conv 4x4/2 (bias) + LeakyReLU; two conv 4x4/2 + BN +
    // LeakyReLU; conv 4x4/1 pad 1 + BN + LeakyReLU; conv 4x4/1 pad 1 to one channel (bias): 30x30 patches at 256 px.
    GanOp first = dc_layer("D.model.0", 6, f, R, R / 2, false, false);
    first.params += f;
    first.saved_bytes += 4.0 * 6 * R * R;  // cat(real_A, fake_B), kept by the first conv
    n.d.ops.push_back(first);
    n.d.ops.push_back(dc_layer("D.model.2", f, f * 2, R / 2, R / 4, false, true));
    n.d.ops.push_back(dc_layer("D.model.5", f * 2, f * 4, R / 4, R / 8, false, true));
    n.d.ops.push_back(dc_layer("D.model.8", f * 4, f * 8, R / 8, R / 8 - 1, false, true));
    GanOp last = dc_layer("D.model.11", f * 8, 1, R / 8 - 1, R / 8 - 2, false, false);
    last.params += 1;
    n.d.ops.push_back(last);
    n.d.buffer_bytes = 4.0 * 2 * (f * 2 + f * 4 + f * 8);
    n.d.largest_activation_bytes_per_sample = 4.0 * 6 * R * R;
    n.image_bytes_per_sample = 4.0 * 6 * double(R) * R;  // real_A and real_B
}

}  // namespace

double GanNetwork::params() const {
    double p = 0;
    for (const GanOp& op : ops) p += op.params;
    return p;
}

double GanNetwork::saved_bytes_per_sample(bool weights_train) const {
    double b = 0;
    for (const GanOp& op : ops) b += weights_train ? op.saved_bytes : op.saved_input_grad_bytes;
    return b;
}

GanNetworks build_gan_networks(const GanSpec& spec) {
    GanNetworks n;
    n.image_bytes_per_sample = 4.0 * 3 * double(spec.resolution) * spec.resolution;
    switch (spec.kind) {
        case GanKind::kStyleGan2:
            build_stylegan2_g(spec, n.g);
            build_stylegan2_d(spec, n.d);
            break;
        case GanKind::kStyleGan3:  // stylegan3 train.py: G from networks_stylegan3.py, D is networks_stylegan2's
            build_stylegan3_g(spec, n.g);
            build_stylegan2_d(spec, n.d);
            break;
        case GanKind::kDcgan: build_dcgan(spec, n); break;
        case GanKind::kPix2pix: build_pix2pix(spec, n); break;
    }
    return n;
}

}  // namespace gg::engine
