// Layer-graph builders for every model family: parameters, forward FLOPs and what autograd saves, op by op.
// The saved tensors follow the eager code paths of torchvision 0.14 and transformers v4.39 (as mirrored in
// tools/measure/hf_minimal.py); each builder names the ops whose backward keeps a tensor. No JSON, no UI.
//
// Sections: Builder (tensors, generic ops) | CNNs (resnet, vgg, mobilenet-v2, efficientnet-b0, unet) |
//           transformers (vit, encoder, decoder) | bilstm-crf | dispatch
#include "engine/workload.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace gg::engine {

bool is_transformer(Family f) { return f == Family::kDecoder || f == Family::kEncoder || f == Family::kVit; }

bool is_column_parallel(ParamRole r) {
    return r == ParamRole::kQ || r == ParamRole::kK || r == ParamRole::kV || r == ParamRole::kQkv ||
           r == ParamRole::kFc1 || r == ParamRole::kGate || r == ParamRole::kUp || r == ParamRole::kGateUp ||
           r == ParamRole::kQb || r == ParamRole::kKvB;  // MLA's up-projections split by head (Megatron-LM MLA)
}

bool is_row_parallel(ParamRole r) { return r == ParamRole::kO || r == ParamRole::kFc2 || r == ParamRole::kDown; }

double Graph::params_total() const {
    double total = 0;
    for (const Layer& l : layers) total += l.params;
    return total;
}

double Graph::param_tensor_count() const {
    double n = 0;
    for (const Layer& l : layers) n += l.param_matrices + l.param_vectors;
    return n;
}

double Graph::param_matrix_count() const {
    double n = 0;
    for (const Layer& l : layers) n += l.param_matrices;
    return n;
}

namespace {

using R = DtypeRule;
using F = SavedFor;

// ---- Builder -----------------------------------------------------------------------------------------------
// Element counts are for the graph's batch (`b`). Spatial tensors are C x H x W per sample.
struct Builder {
    Graph g;
    double b = 1;
    std::int32_t block = -1;
    // Inside a tensor-parallel region (Shoeybi et al. 2019, Megatron-LM, sec. 3, Fig. 3): from the column-parallel
    // Linear's output (QKV, FC1/gate/up) to the row-parallel Linear's input (output projection, FC2/down), every
    // tensor holds 1/t of the heads or of the FFN width. Copies inherit their source's split.
    bool tp_region = false;

    // A saved reference to `x` that only Unsloth's fused kernels keep (TensorInfo::kept_by): an alias of x's storage.
    std::int32_t fused_only(std::int32_t x) {
        const std::int32_t t = tensor(g.tensors[x].elements, g.tensors[x].rule, x);
        g.tensors[t].kept_by = TensorInfo::Kernels::kFusedOnly;
        return t;
    }
    std::int32_t tensor(double elements, R rule, std::int32_t source = -1, bool attention_core = false) {
        TensorInfo t;
        t.elements = elements;
        t.rule = rule;
        t.source = source;
        t.attention_core = attention_core;
        t.tp_split = source >= 0 ? g.tensors[source].tp_split : tp_region;
        g.tensors.push_back(t);
        return static_cast<std::int32_t>(g.tensors.size() - 1);
    }
    // The returned reference is valid only until the next layer() call (the vector may reallocate).
    Layer& layer(const std::string& name, OpKind kind) {
        Layer l;
        l.name = name;
        l.kind = kind;
        l.block = block;
        l.tp_split = tp_region;
        g.layers.push_back(std::move(l));
        return g.layers.back();
    }
    static void save(Layer& l, std::int32_t t, F why) {
        assert(t >= 0 && "Builder::save: saving a tensor that was never created; pass the producing op's output id");
        l.saved.push_back({t, why});
    }
    void begin_block(std::int32_t index, std::int32_t input) {
        block = index;
        if (g.block_inputs.size() <= std::size_t(index)) g.block_inputs.resize(index + 1, -1);
        if (g.block_inputs[index] < 0) g.block_inputs[index] = input;
    }
    void note_param_tensor(double elements) { g.largest_param_tensor = std::max(g.largest_param_tensor, elements); }

    // Conv2d (torch/nn/modules/conv.py -> aten convolution): backward needs the input for the weight gradient
    // (derivatives.yaml convolution_backward: input saved, weight saved). Under autocast the input is cast to
    // the compute dtype first (a new tensor unless it already is).
    struct Spatial { std::int32_t t; int c, h, w; };
    Spatial conv(const std::string& name, Spatial x, int cout, int k, int stride, int pad, int groups, bool bias,
                 ParamRole role = ParamRole::kConv) {
        const int ho = (x.h + 2 * pad - k) / stride + 1, wo = (x.w + 2 * pad - k) / stride + 1;
        Layer& l = layer(name, OpKind::kMatmul);
        const double w_el = double(cout) * (x.c / groups) * k * k;
        l.params = w_el + (bias ? cout : 0);
        l.matmul_weight_params = w_el;
        l.param_matrices = 1, l.param_vectors = bias ? 1 : 0;
        l.role = role;
        note_param_tensor(w_el);
        // FLOPs: 2 per multiply-add, (cin/groups) k^2 MACs per output element (standard conv cost).
        l.forward_flop = 2.0 * b * double(cout) * ho * wo * (double(x.c) / groups) * k * k;
        save(l, tensor(b * x.c * x.h * x.w, R::kMatmulInput, x.t), F::kWeightGrad);
        const std::int32_t out = tensor(b * double(cout) * ho * wo, R::kActivation);
        l.bytes_moved_elements = b * (double(x.c) * x.h * x.w + double(cout) * ho * wo);
        l.conv_groups = groups, l.conv_kernel = k, l.conv_stride = stride;
        l.conv_in_channels = x.c, l.conv_in_width = x.w;
        return {out, cout, ho, wo};
    }
    // ConvTranspose2d (UNet up path): same saved input as conv.
    Spatial conv_transpose2(const std::string& name, Spatial x, int cout) {
        Layer& l = layer(name, OpKind::kMatmul);
        const double w_el = double(x.c) * cout * 4;
        l.params = w_el + cout;
        l.matmul_weight_params = w_el;
        l.param_matrices = 1, l.param_vectors = 1;
        l.role = ParamRole::kConv;
        note_param_tensor(w_el);
        l.forward_flop = 2.0 * b * double(x.c) * cout * 4 * x.h * x.w;
        save(l, tensor(b * x.c * x.h * x.w, R::kMatmulInput, x.t), F::kWeightGrad);
        return {tensor(b * double(cout) * x.h * 2 * x.w * 2, R::kActivation), cout, x.h * 2, x.w * 2};
    }
    // BatchNorm2d in training: native_batch_norm saves input, save_mean, save_invstd (fp32, C each)
    // (aten/src/ATen/native/Normalization.cpp; derivatives.yaml native_batch_norm). Output: a new tensor.
    Spatial bn(const std::string& name, Spatial x) {
        Layer& l = layer(name, OpKind::kNorm);
        l.params = 2.0 * x.c;
        l.param_vectors = 2;
        l.role = ParamRole::kNorm;
        save(l, x.t, F::kAny);
        save(l, tensor(2.0 * x.c, R::kFp32), F::kAny);
        l.bytes_moved_elements = 2 * b * double(x.c) * x.h * x.w;
        return {tensor(b * double(x.c) * x.h * x.w, R::kActivation), x.c, x.h, x.w};
    }
    // ReLU / ReLU6 (hardtanh) in place: backward uses the result (threshold_backward(grad, result)); the
    // storage is the input's, so the output keeps the input's tensor id.
    Spatial relu_inplace(const std::string& name, Spatial x) {
        Layer& l = layer(name, OpKind::kElementwise);
        save(l, x.t, F::kInputGrad);
        l.bytes_moved_elements = 2 * b * double(x.c) * x.h * x.w;
        return x;
    }
    // ReLU6 in place (torchvision mobilenet_v2: nn.ReLU6(inplace=True) -> hardtanh_): its backward needs the
    // input, so autograd keeps a copy of the original input besides the modified storage (measured: torch 1.13,
    // tests/validation/measured_saved_activations.json). The output keeps the input's tensor id.
    Spatial relu6_inplace(const std::string& name, Spatial x) {
        Layer& l = layer(name, OpKind::kElementwise);
        save(l, tensor(b * double(x.c) * x.h * x.w, R::kActivation), F::kInputGrad);
        l.bytes_moved_elements = 2 * b * double(x.c) * x.h * x.w;
        return x;
    }
    // SiLU (in place or not): silu_backward(grad, self) needs the input; in place, autograd saves a clone of
    // the original input, so either way one more tensor of the input's size is kept and the output is new.
    Spatial silu(const std::string& name, Spatial x) {
        Layer& l = layer(name, OpKind::kElementwise);
        save(l, x.t, F::kInputGrad);
        l.bytes_moved_elements = 2 * b * double(x.c) * x.h * x.w;
        return {tensor(b * double(x.c) * x.h * x.w, R::kActivation), x.c, x.h, x.w};
    }
    // MaxPool2d: max_pool2d_with_indices saves input and int64 indices of the output's size.
    Spatial maxpool(const std::string& name, Spatial x, int k, int stride, int pad) {
        const int ho = (x.h + 2 * pad - k) / stride + 1, wo = (x.w + 2 * pad - k) / stride + 1;
        Layer& l = layer(name, OpKind::kReduction);
        save(l, x.t, F::kInputGrad);
        const double out_el = b * double(x.c) * ho * wo;
        save(l, tensor(out_el, R::kInt64), F::kInputGrad);
        l.bytes_moved_elements = b * double(x.c) * x.h * x.w + out_el;
        return {tensor(out_el, R::kActivation), x.c, ho, wo};
    }
    // adaptive_avg_pool2d: _adaptive_avg_pool2d_backward(grad, self) keeps the input.
    Spatial avgpool(const std::string& name, Spatial x, int out_hw) {
        Layer& l = layer(name, OpKind::kReduction);
        save(l, x.t, F::kInputGrad);
        l.bytes_moved_elements = b * double(x.c) * x.h * x.w;
        return {tensor(b * double(x.c) * out_hw * out_hw, R::kActivation), x.c, out_hw, out_hw};
    }
    // Linear (addmm/mm): the input is needed for the weight gradient (mm_mat2_backward(grad, self)).
    std::int32_t linear(const std::string& name, std::int32_t x, double tokens, int in, int out, bool bias,
                        ParamRole role, bool backbone = true, int experts = 1) {
        Layer& l = layer(name, OpKind::kMatmul);
        const double w_el = double(in) * out;
        l.params = (w_el + (bias ? out : 0)) * experts;
        l.matmul_weight_params = w_el * experts;
        l.param_matrices = experts, l.param_vectors = bias ? experts : 0;
        l.in_features = in;
        l.out_features = out;
        l.tokens = tokens;
        l.role = role;
        l.backbone = backbone;
        l.experts = experts;
        // Column-parallel (QKV, FC1, gate, up) and row-parallel (output projection, FC2, down) Linears split
        // their weight across tensor-parallel ranks (Megatron-LM sec. 3); routers and task heads are replicated.
        l.tp_split = is_column_parallel(role) || is_row_parallel(role);
        note_param_tensor(w_el);
        l.forward_flop = 2.0 * tokens * in * out;  // 2 FLOP per multiply-add (Kaplan et al. 2020, sec. 2.1)
        save(l, tensor(tokens * in, R::kMatmulInput, x), F::kWeightGrad);
        l.bytes_moved_elements = tokens * (in + out);
        return tensor(tokens * out, R::kActivation);
    }
    // Dropout (CUDA native_dropout): keeps a 1-byte mask; output is a new tensor. p == 0: identity.
    std::int32_t dropout(const std::string& name, std::int32_t x, double elements, double p, R out_rule,
                         bool attention_core = false) {
        if (p <= 0) return x;
        Layer& l = layer(name, OpKind::kElementwise);
        save(l, tensor(elements, R::kMask1, -1, attention_core), F::kInputGrad);
        l.bytes_moved_elements = 2 * elements;
        return tensor(elements, out_rule, -1, attention_core);
    }
    // LayerNorm (native_layer_norm saves input, mean, rstd: fp32 stats of b x s). On autocast's fp32 list: the
    // saved input is an fp32 cast under autocast, the output fp32.
    std::int32_t layer_norm(const std::string& name, std::int32_t x, double tokens, int h, bool bias = true) {
        Layer& l = layer(name, OpKind::kNorm);
        l.params = bias ? 2.0 * h : h;
        l.param_vectors = bias ? 2 : 1;
        l.role = ParamRole::kNorm;
        save(l, tensor(tokens * h, R::kAutocastFp32, x), F::kAny);
        save(l, tensor(2 * tokens, R::kFp32), F::kAny);
        l.bytes_moved_elements = 2 * tokens * h;
        return tensor(tokens * h, R::kAutocastFp32);
    }
    // LlamaRMSNorm (transformers v4.39 modeling_llama.py): x.to(fp32); pow(2) and x*rsqrt save x_fp32; rsqrt
    // saves its result (b x s fp32); weight * n.to(dtype) saves n (cast back to the input dtype) for the weight
    // gradient. Output in the input dtype (fp32 residual stream under autocast).
    std::int32_t rms_norm(const std::string& name, std::int32_t x, double tokens, int h) {
        Layer& l = layer(name, OpKind::kNorm);
        l.params = h;
        l.param_vectors = 1;
        l.role = ParamRole::kNorm;
        const std::int32_t xf = tensor(tokens * h, R::kFp32, x);
        g.tensors[xf].kept_by = TensorInfo::Kernels::kEagerOnly;
        save(l, xf, F::kAny);
        // Unsloth's Fast_RMS_Layernorm keeps X itself (ctx.save_for_backward(X, W, r)), in its own dtype.
        save(l, fused_only(x), F::kAny);
        save(l, tensor(tokens, R::kFp32), F::kAny);
        const std::int32_t n = tensor(tokens * h, R::kFp32);
        const std::int32_t n_dt = tensor(tokens * h, R::kAutocastFp32, n);
        save(l, n_dt, F::kWeightGrad);
        l.bytes_moved_elements = 2 * tokens * h;
        return tensor(tokens * h, R::kAutocastFp32);
    }
    // Residual add: add saves nothing; result in the residual dtype (fp32 under autocast by type promotion).
    std::int32_t add(std::int32_t, double elements, R rule = R::kAutocastFp32) {
        Layer& l = layer("add", OpKind::kElementwise);
        l.bytes_moved_elements = 3 * elements;
        return tensor(elements, rule);
    }
    void head_loss(double logits_elements) { g.logits_elements = logits_elements; }
};

using Spatial = Builder::Spatial;

std::string idx(const std::string& prefix, int i) { return prefix + "." + std::to_string(i); }

// ---- CNNs --------------------------------------------------------------------------------------------------
// Classifier head: [dropout] + Linear + cross-entropy (log_softmax saves its b x classes output, nll the target).
void classifier(Builder& B, std::int32_t x, int in, int classes, double p_dropout, const std::string& name = "fc") {
    B.block = -1;
    const std::int32_t d = B.dropout("classifier.dropout", x, B.b * in, p_dropout, R::kActivation);
    B.linear(name, d, B.b, in, classes, true, ParamRole::kHead, false);  // logits: not saved by anything
    Layer& l = B.layer("loss", OpKind::kReduction);
    B.save(l, B.tensor(B.b * classes, R::kAutocastFp32), F::kInputGrad);
    B.save(l, B.tensor(B.b, R::kInt64), F::kInputGrad);
    B.head_loss(B.b * classes);
}

// torchvision resnet.py: conv1 7x7/2, bn, relu, maxpool 3x3/2, four stages, avgpool, fc.
// CIFAR stem (kuangliu/pytorch-cifar models/resnet.py): conv1 3x3/1, bn, relu, no max-pool, so the stages run at
// the full 32x32 (16x the feature-map area of torchvision's stem at 32 px); F.relu there is not in place, but
// saves its result just as the in-place one does. Its final avg_pool2d(out, 4) is the global pool at 32 px.
void build_resnet(Builder& B, const ModelSpec& m, int image) {
    Spatial x{B.tensor(B.b * 3.0 * image * image, R::kAutocastFp32), 3, image, image};
    if (m.cifar_stem) {
        x = B.conv("conv1", x, m.width, 3, 1, 1, 1, false);
        x = B.relu_inplace("relu", B.bn("bn1", x));
    } else {
        x = B.conv("conv1", x, m.width, 7, 2, 3, 1, false);
        x = B.relu_inplace("relu", B.bn("bn1", x));
        x = B.maxpool("maxpool", x, 3, 2, 1);
    }
    const int expansion = m.bottleneck ? 4 : 1;
    int blk = 0;
    for (std::size_t stage = 0; stage < m.depths.size(); ++stage) {
        const int planes = m.width << stage;
        for (int i = 0; i < m.depths[stage]; ++i) {
            B.begin_block(blk++, x.t);
            const std::string n = "layer" + std::to_string(stage + 1) + "." + std::to_string(i);
            const int stride = (stage > 0 && i == 0) ? 2 : 1;
            Spatial identity = x;
            Spatial y = x;
            if (m.bottleneck) {  // Bottleneck: 1x1, 3x3 (stride here, torchvision v1.5), 1x1 x4
                y = B.relu_inplace(n + ".relu1", B.bn(n + ".bn1", B.conv(n + ".conv1", y, planes, 1, 1, 0, 1, false)));
                y = B.relu_inplace(n + ".relu2", B.bn(n + ".bn2", B.conv(n + ".conv2", y, planes, 3, stride, 1, 1, false)));
                y = B.bn(n + ".bn3", B.conv(n + ".conv3", y, planes * 4, 1, 1, 0, 1, false));
            } else {
                y = B.relu_inplace(n + ".relu1", B.bn(n + ".bn1", B.conv(n + ".conv1", y, planes, 3, stride, 1, 1, false)));
                y = B.bn(n + ".bn2", B.conv(n + ".conv2", y, planes, 3, 1, 1, 1, false));
            }
            if (stride != 1 || x.c != planes * expansion)
                identity = B.bn(n + ".downsample.1", B.conv(n + ".downsample.0", x, planes * expansion, 1, stride, 0, 1, false));
            // out += identity (in place on bn's output: add saves nothing), then relu in place saves the result.
            Layer& a = B.layer(n + ".add", OpKind::kElementwise);
            a.bytes_moved_elements = 3 * B.b * double(y.c) * y.h * y.w;
            x = B.relu_inplace(n + ".relu", y);
        }
    }
    B.block = -1;
    x = B.avgpool("avgpool", x, 1);
    classifier(B, x.t, x.c, m.classes, 0);
}

// Wide-ResNet-d-k (Zagoruyko & Komodakis 2016, arXiv:1605.07146, sec. 2 and Table 1; the PyTorch port
// github.com/xternalz/WideResNet-pytorch wideresnet.py): conv 3x3 to 16 channels; three groups of n = (d - 4) / 6
// pre-activation blocks of 16k, 32k and 64k channels (stride 2 entering groups 2 and 3); bn, relu, global average
// pool, fc. A block: a = relu_(bn1(x)) (bn1 saves x, relu its in-place result, which conv1 saves as its input),
// y = conv1(a), [dropout(y): a 1-byte mask and a new tensor], conv2(relu_(bn2(y))), then torch.add(x or
// shortcut(a), y): add saves nothing; the 1x1 shortcut (where the width changes) saves a, already saved.
void build_wide_resnet(Builder& B, const ModelSpec& m, int image) {
    Spatial x{B.tensor(B.b * 3.0 * image * image, R::kAutocastFp32), 3, image, image};
    x = B.conv("conv1", x, 16, 3, 1, 1, 1, false);
    const int n = std::max(1, (m.wide_depth - 4) / 6);
    int blk = 0;
    for (int group = 0; group < 3; ++group) {
        const int width = (16 << group) * m.widen;
        for (int i = 0; i < n; ++i) {
            B.begin_block(blk++, x.t);
            const std::string name = "block" + std::to_string(group + 1) + ".layer." + std::to_string(i);
            const int stride = (group > 0 && i == 0) ? 2 : 1;
            const bool same = x.c == width;
            const Spatial a = B.relu_inplace(name + ".relu1", B.bn(name + ".bn1", x));
            Spatial y = B.conv(name + ".conv1", a, width, 3, stride, 1, 1, false);
            const double y_elements = B.b * double(y.c) * y.h * y.w;
            y.t = B.dropout(name + ".dropout", y.t, y_elements, m.block_dropout, R::kActivation);
            y = B.conv(name + ".conv2", B.relu_inplace(name + ".relu2", B.bn(name + ".bn2", y)), width, 3, 1, 1, 1, false);
            if (!same) B.conv(name + ".convShortcut", a, width, 1, stride, 0, 1, false);
            Layer& add = B.layer(name + ".add", OpKind::kElementwise);
            add.bytes_moved_elements = 3 * y_elements;
            x = Spatial{B.tensor(y_elements, R::kActivation), y.c, y.h, y.w};
        }
    }
    B.block = -1;
    x = B.relu_inplace("relu", B.bn("bn1", x));
    x = B.avgpool("avgpool", x, 1);
    classifier(B, x.t, x.c, m.classes, 0);
}

// torchvision vgg.py (cfg "D", no batch norm): conv3x3+bias, relu in place, maxpool; avgpool 7x7; classifier
// Linear(25088, 4096) ReLU Dropout Linear(4096, 4096) ReLU Dropout Linear(4096, classes).
void build_vgg16(Builder& B, const ModelSpec& m, int image) {
    Spatial x{B.tensor(B.b * 3.0 * image * image, R::kAutocastFp32), 3, image, image};
    const int cfg[] = {64, 64, -1, 128, 128, -1, 256, 256, 256, -1, 512, 512, 512, -1, 512, 512, 512, -1};
    int i = 0, blk = 0;
    for (int v : cfg) {
        const std::string n = idx("features", i);
        if (v < 0) {
            x = B.maxpool(n, x, 2, 2, 0);
            ++i;
            ++blk;
        } else {
            B.begin_block(blk, x.t);
            x = B.relu_inplace(idx("features", i + 1), B.conv(n, x, v, 3, 1, 1, 1, true));
            i += 2;
        }
    }
    B.block = -1;
    x = B.avgpool("avgpool", x, 7);
    const double flat = double(x.c) * 7 * 7;
    std::int32_t h = B.linear("classifier.0", x.t, B.b, int(flat), 4096, true, ParamRole::kHead, false);
    { Layer& r = B.layer("classifier.1", OpKind::kElementwise); B.save(r, h, F::kInputGrad); }
    h = B.dropout("classifier.2", h, B.b * 4096, 0.5, R::kActivation);
    h = B.linear("classifier.3", h, B.b, 4096, 4096, true, ParamRole::kHead, false);
    { Layer& r = B.layer("classifier.4", OpKind::kElementwise); B.save(r, h, F::kInputGrad); }
    classifier(B, h, 4096, m.classes, 0.5);
}

// torchvision mobilenetv2.py: Conv-BN-ReLU6 stem, inverted residuals (t, c, n, s), 1x1 to 1280, dropout 0.2.
void build_mobilenet_v2(Builder& B, const ModelSpec& m, int image) {
    Spatial x{B.tensor(B.b * 3.0 * image * image, R::kAutocastFp32), 3, image, image};
    auto cbr = [&](const std::string& n, Spatial in, int cout, int k, int s, int groups) {
        return B.relu6_inplace(n + ".2", B.bn(n + ".1", B.conv(n + ".0", in, cout, k, s, (k - 1) / 2, groups, false)));
    };
    x = cbr("features.0", x, 32, 3, 2, 1);
    const int cfg[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2},
                           {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    int f = 1;
    for (const auto& c : cfg)
        for (int i = 0; i < c[2]; ++i, ++f) {
            B.begin_block(f, x.t);
            const std::string n = idx("features", f);
            const int stride = i == 0 ? c[3] : 1;
            Spatial y = x;
            if (c[0] != 1) y = cbr(n + ".expand", y, x.c * c[0], 1, 1, 1);
            y = cbr(n + ".dw", y, y.c, 3, stride, y.c);
            y = B.bn(n + ".project.bn", B.conv(n + ".project", y, c[1], 1, 1, 0, 1, false));
            if (stride == 1 && x.c == c[1]) y = {B.add(y.t, B.b * double(y.c) * y.h * y.w, R::kActivation), y.c, y.h, y.w};
            x = y;
        }
    B.begin_block(f, x.t);
    x = cbr(idx("features", f), x, 1280, 1, 1, 1);
    B.block = -1;
    x = B.avgpool("avgpool", x, 1);
    classifier(B, x.t, 1280, m.classes, 0.2);
}

// torchvision efficientnet.py, B0: MBConv (expand 1x1, depthwise k x k, squeeze-excitation, project 1x1),
// SiLU everywhere, stochastic depth 0.2 (saves a b-element noise tensor), dropout 0.2 before the classifier.
void build_efficientnet_b0(Builder& B, const ModelSpec& m, int image) {
    Spatial x{B.tensor(B.b * 3.0 * image * image, R::kAutocastFp32), 3, image, image};
    auto cbs = [&](const std::string& n, Spatial in, int cout, int k, int s, int groups) {
        return B.silu(n + ".silu", B.bn(n + ".bn", B.conv(n, in, cout, k, s, (k - 1) / 2, groups, false)));
    };
    x = cbs("features.0", x, 32, 3, 2, 1);
    // (expand ratio, kernel, stride, in, out, layers)
    const int cfg[7][6] = {{1, 3, 1, 32, 16, 1},   {6, 3, 2, 16, 24, 2},  {6, 5, 2, 24, 40, 2},  {6, 3, 2, 40, 80, 3},
                           {6, 5, 1, 80, 112, 3}, {6, 5, 2, 112, 192, 4}, {6, 3, 1, 192, 320, 1}};
    int blk = 0;
    for (const auto& c : cfg)
        for (int i = 0; i < c[5]; ++i, ++blk) {
            B.begin_block(blk, x.t);
            const std::string n = "features.block" + std::to_string(blk);
            const int cin = i == 0 ? c[3] : c[4];
            const int stride = i == 0 ? c[2] : 1;
            const int expanded = cin * c[0];
            Spatial y = x;
            if (expanded != cin) y = cbs(n + ".expand", y, expanded, 1, 1, 1);
            y = cbs(n + ".dw", y, expanded, c[1], stride, expanded);
            // SqueezeExcitation: avgpool (saves input), fc1 1x1 conv + SiLU, fc2 1x1 conv + Sigmoid (saves its
            // result), scale = input * sigmoid (mul saves both operands).
            const int squeeze = std::max(1, cin / 4);
            Spatial s = B.avgpool(n + ".se.avgpool", y, 1);
            s = B.silu(n + ".se.silu", B.conv(n + ".se.fc1", s, squeeze, 1, 1, 0, 1, true));
            s = B.conv(n + ".se.fc2", s, expanded, 1, 1, 0, 1, true);
            Layer& sg = B.layer(n + ".se.sigmoid", OpKind::kElementwise);
            const std::int32_t sig = B.tensor(B.b * expanded, R::kActivation);
            B.save(sg, sig, F::kInputGrad);
            Layer& mul = B.layer(n + ".se.scale", OpKind::kElementwise);
            B.save(mul, y.t, F::kInputGrad);
            B.save(mul, sig, F::kInputGrad);
            mul.bytes_moved_elements = 2 * B.b * double(expanded) * y.h * y.w;
            y = {B.tensor(B.b * double(expanded) * y.h * y.w, R::kActivation), expanded, y.h, y.w};
            y = B.bn(n + ".project.bn", B.conv(n + ".project", y, c[4], 1, 1, 0, 1, false));
            if (stride == 1 && cin == c[4]) {
                // StochasticDepth(p = 0.2 * blk / blocks, "row"): input * noise saves the b-element noise
                // (p = 0 for the first block: identity).
                if (blk > 0) {
                    Layer& sd = B.layer(n + ".stochastic_depth", OpKind::kElementwise);
                    B.save(sd, B.tensor(B.b, R::kActivation), F::kInputGrad);
                    y = {B.tensor(B.b * double(y.c) * y.h * y.w, R::kActivation), y.c, y.h, y.w};
                }
                y = {B.add(y.t, B.b * double(y.c) * y.h * y.w, R::kActivation), y.c, y.h, y.w};
            }
            x = y;
        }
    B.begin_block(blk, x.t);
    x = cbs("features.8", x, 1280, 1, 1, 1);
    B.block = -1;
    x = B.avgpool("avgpool", x, 1);
    classifier(B, x.t, 1280, m.classes, 0.2);
}

// U-Net (Ronneberger et al. 2015; the common milesial/Pytorch-UNet layout): DoubleConv = (conv3x3 no bias, BN,
// ReLU) x 2; 4 downs (maxpool + DoubleConv), 4 ups (ConvTranspose 2x2 + concat skip + DoubleConv), 1x1 out conv.
void build_unet(Builder& B, const ModelSpec& m, int image) {
    Spatial x{B.tensor(B.b * double(m.in_channels) * image * image, R::kAutocastFp32), m.in_channels, image, image};
    int blk = 0;
    auto dconv = [&](const std::string& n, Spatial in, int cout) {
        B.begin_block(blk++, in.t);
        in = B.relu_inplace(n + ".relu1", B.bn(n + ".bn1", B.conv(n + ".conv1", in, cout, 3, 1, 1, 1, false)));
        return B.relu_inplace(n + ".relu2", B.bn(n + ".bn2", B.conv(n + ".conv2", in, cout, 3, 1, 1, 1, false)));
    };
    const int c0 = m.base_channels;
    std::vector<Spatial> skips;
    x = dconv("inc", x, c0);
    const int depth = m.unet_depth;
    for (int i = 1; i <= depth; ++i) {
        skips.push_back(x);
        x = dconv(idx("down", i), B.maxpool(idx("down", i) + ".pool", x, 2, 2, 0), c0 << i);
    }
    for (int i = 1; i <= depth; ++i) {
        const Spatial skip = skips[depth - i];
        B.begin_block(blk, x.t);
        Spatial up = B.conv_transpose2(idx("up", i) + ".up", x, x.c / 2);
        Layer& cat = B.layer(idx("up", i) + ".cat", OpKind::kElementwise);  // cat saves nothing (sizes only)
        cat.bytes_moved_elements = 2 * B.b * double(skip.c + up.c) * skip.h * skip.w;
        Spatial joined{B.tensor(B.b * double(skip.c + up.c) * skip.h * skip.w, R::kActivation), skip.c + up.c, skip.h, skip.w};
        x = dconv(idx("up", i), joined, skip.c);
    }
    B.block = -1;
    x = B.conv("outc", x, m.classes, 1, 1, 0, 1, true, ParamRole::kHead);
    B.g.layers.back().backbone = false;
    // Per-pixel cross-entropy: log_softmax over classes keeps b x classes x H x W.
    Layer& l = B.layer("loss", OpKind::kReduction);
    const double px = B.b * double(x.c) * x.h * x.w;
    B.save(l, B.tensor(px, R::kAutocastFp32), F::kInputGrad);
    B.save(l, B.tensor(B.b * double(x.h) * x.w, R::kInt64), F::kInputGrad);
    B.head_loss(px);
}

// YOLOv5 v6+ (ultralytics/yolov5 models/yolov5s.yaml, models/common.py): Conv = Conv2d (no bias) + BN + SiLU;
// C3 = cv3(cat(Bottlenecks(cv1(x)), cv2(x))); SPPF = cv2(cat(x, m(x), m(m(x)), m(m(m(x))))) with 5x5 max-pools;
// nearest upsampling and concatenations save nothing; Detect = a 1x1 conv with bias to 3 x (classes + 5) per level.
void build_yolov5(Builder& B, const ModelSpec& m, int image) {
    auto ch = [&](int c) { return std::max(8, int(std::ceil(c * m.width_multiple / 8.0)) * 8); };
    auto depth = [&](int n) { return n > 1 ? std::max(int(std::lround(n * m.depth_multiple)), 1) : n; };
    int blk = 0;
    auto conv = [&](const std::string& n, Spatial x, int c2, int k, int s) {
        return B.silu(n + ".act", B.bn(n + ".bn", B.conv(n + ".conv", x, c2, k, s, k / 2, 1, false)));
    };
    auto cat = [&](const std::string& n, const std::vector<Spatial>& parts) {
        int c = 0;
        for (const Spatial& p : parts) c += p.c;
        Layer& l = B.layer(n, OpKind::kElementwise);
        const double el = B.b * double(c) * parts[0].h * parts[0].w;
        l.bytes_moved_elements = 2 * el;
        return Spatial{B.tensor(el, R::kActivation), c, parts[0].h, parts[0].w};
    };
    auto c3 = [&](const std::string& n, Spatial x, int c2, int reps, bool shortcut) {
        B.begin_block(blk++, x.t);
        const int c_ = c2 / 2;
        Spatial a = conv(n + ".cv1", x, c_, 1, 1);
        for (int i = 0; i < reps; ++i) {
            Spatial y = conv(n + ".m." + std::to_string(i) + ".cv2", conv(n + ".m." + std::to_string(i) + ".cv1", a, c_, 1, 1),
                             c_, 3, 1);
            if (shortcut) y = {B.add(y.t, B.b * double(y.c) * y.h * y.w, R::kActivation), y.c, y.h, y.w};
            a = y;
        }
        const Spatial b2 = conv(n + ".cv2", x, c_, 1, 1);
        return conv(n + ".cv3", cat(n + ".cat", {a, b2}), c2, 1, 1);
    };
    auto upsample = [&](const std::string& n, Spatial x) {
        Layer& l = B.layer(n, OpKind::kElementwise);  // upsample_nearest2d backward needs only sizes
        const double el = B.b * double(x.c) * x.h * 2 * x.w * 2;
        l.bytes_moved_elements = el * 1.25;
        return Spatial{B.tensor(el, R::kActivation), x.c, x.h * 2, x.w * 2};
    };
    Spatial x{B.tensor(B.b * 3.0 * image * image, R::kAutocastFp32), 3, image, image};
    B.begin_block(blk++, x.t);
    Spatial p = conv("model.0", x, ch(64), 6, 2);  // 6x6/2, pad 2
    p = conv("model.1", p, ch(128), 3, 2);
    p = c3("model.2", p, ch(128), depth(3), true);
    p = conv("model.3", p, ch(256), 3, 2);
    const Spatial p3 = c3("model.4", p, ch(256), depth(6), true);
    p = conv("model.5", p3, ch(512), 3, 2);
    const Spatial p4 = c3("model.6", p, ch(512), depth(9), true);
    p = conv("model.7", p4, ch(1024), 3, 2);
    p = c3("model.8", p, ch(1024), depth(3), true);
    {  // SPPF
        B.begin_block(blk++, p.t);
        const Spatial a = conv("model.9.cv1", p, p.c / 2, 1, 1);
        const Spatial y1 = B.maxpool("model.9.m1", a, 5, 1, 2);
        const Spatial y2 = B.maxpool("model.9.m2", y1, 5, 1, 2);
        const Spatial y3 = B.maxpool("model.9.m3", y2, 5, 1, 2);
        p = conv("model.9.cv2", cat("model.9.cat", {a, y1, y2, y3}), ch(1024), 1, 1);
    }
    const Spatial h10 = conv("model.10", p, ch(512), 1, 1);
    p = c3("model.13", cat("model.12", {upsample("model.11", h10), p4}), ch(512), depth(3), false);
    const Spatial h14 = conv("model.14", p, ch(256), 1, 1);
    const Spatial o17 = c3("model.17", cat("model.16", {upsample("model.15", h14), p3}), ch(256), depth(3), false);
    p = conv("model.18", o17, ch(256), 3, 2);
    const Spatial o20 = c3("model.20", cat("model.19", {p, h14}), ch(512), depth(3), false);
    p = conv("model.21", o20, ch(512), 3, 2);
    const Spatial o23 = c3("model.23", cat("model.22", {p, h10}), ch(1024), depth(3), false);
    B.block = -1;
    double outputs = 0;
    const int no = 3 * (m.classes + 5);
    int level = 0;
    for (const Spatial& o : {o17, o20, o23}) {
        const Spatial d = B.conv("model.24.m." + std::to_string(level++), o, no, 1, 1, 0, 1, true, ParamRole::kHead);
        B.g.layers.back().backbone = false;
        outputs += B.b * double(no) * d.h * d.w;
    }
    // ComputeLoss (utils/loss.py): sigmoid/BCE over the predictions; keeps about one fp32 copy of the outputs.
    Layer& loss = B.layer("loss", OpKind::kReduction);
    B.save(loss, B.tensor(outputs, R::kFp32), F::kInputGrad);
    B.head_loss(outputs);
}

// YOLOv8 (ultralytics/cfg/models/v8/yolov8.yaml, nn/modules/block.py C2f, head.py Detect): C2f = cv2(cat(chunk(cv1(x)),
// Bottleneck outputs)); decoupled head per level: box branch (Conv 3x3, Conv 3x3, 1x1 to 4 x reg_max 16) and class
// branch (Conv 3x3, Conv 3x3, 1x1 to classes); DFL: a frozen 1x1 conv of 16 weights.
void build_yolov8(Builder& B, const ModelSpec& m, int image) {
    auto ch = [&](int c) {
        return std::max(8, int(std::ceil(std::min(c, m.yolo_max_channels) * m.width_multiple / 8.0)) * 8);
    };
    auto depth = [&](int n) { return n > 1 ? std::max(int(std::lround(n * m.depth_multiple)), 1) : n; };
    int blk = 0;
    auto conv = [&](const std::string& n, Spatial x, int c2, int k, int s) {
        return B.silu(n + ".act", B.bn(n + ".bn", B.conv(n + ".conv", x, c2, k, s, k / 2, 1, false)));
    };
    auto cat = [&](const std::string& n, const std::vector<Spatial>& parts) {
        int c = 0;
        for (const Spatial& p : parts) c += p.c;
        Layer& l = B.layer(n, OpKind::kElementwise);
        const double el = B.b * double(c) * parts[0].h * parts[0].w;
        l.bytes_moved_elements = 2 * el;
        return Spatial{B.tensor(el, R::kActivation), c, parts[0].h, parts[0].w};
    };
    auto c2f = [&](const std::string& n, Spatial x, int c2, int reps, bool shortcut) {
        B.begin_block(blk++, x.t);
        const int c = c2 / 2;
        const Spatial a = conv(n + ".cv1", x, 2 * c, 1, 1);
        std::vector<Spatial> parts = {{a.t, c, a.h, a.w}, {a.t, c, a.h, a.w}};  // chunk(2): views of cv1's output
        Spatial last = parts.back();
        for (int i = 0; i < reps; ++i) {
            const std::string bn = n + ".m." + std::to_string(i);
            Spatial y = conv(bn + ".cv2", conv(bn + ".cv1", last, c, 3, 1), c, 3, 1);
            if (shortcut) y = {B.add(y.t, B.b * double(y.c) * y.h * y.w, R::kActivation), y.c, y.h, y.w};
            parts.push_back(y);
            last = y;
        }
        return conv(n + ".cv2", cat(n + ".cat", parts), c2, 1, 1);
    };
    auto upsample = [&](const std::string& n, Spatial x) {
        Layer& l = B.layer(n, OpKind::kElementwise);
        const double el = B.b * double(x.c) * x.h * 2 * x.w * 2;
        l.bytes_moved_elements = el * 1.25;
        return Spatial{B.tensor(el, R::kActivation), x.c, x.h * 2, x.w * 2};
    };
    Spatial x{B.tensor(B.b * 3.0 * image * image, R::kAutocastFp32), 3, image, image};
    B.begin_block(blk++, x.t);
    Spatial p = conv("model.0", x, ch(64), 3, 2);
    p = conv("model.1", p, ch(128), 3, 2);
    p = c2f("model.2", p, ch(128), depth(3), true);
    p = conv("model.3", p, ch(256), 3, 2);
    const Spatial p3 = c2f("model.4", p, ch(256), depth(6), true);
    p = conv("model.5", p3, ch(512), 3, 2);
    const Spatial p4 = c2f("model.6", p, ch(512), depth(6), true);
    p = conv("model.7", p4, ch(1024), 3, 2);
    p = c2f("model.8", p, ch(1024), depth(3), true);
    {
        B.begin_block(blk++, p.t);
        const Spatial a = conv("model.9.cv1", p, p.c / 2, 1, 1);
        const Spatial y1 = B.maxpool("model.9.m1", a, 5, 1, 2);
        const Spatial y2 = B.maxpool("model.9.m2", y1, 5, 1, 2);
        const Spatial y3 = B.maxpool("model.9.m3", y2, 5, 1, 2);
        p = conv("model.9.cv2", cat("model.9.cat", {a, y1, y2, y3}), ch(1024), 1, 1);
    }
    const Spatial p5 = p;
    const Spatial h12 = c2f("model.12", cat("model.11", {upsample("model.10", p5), p4}), ch(512), depth(3), false);
    const Spatial o15 = c2f("model.15", cat("model.14", {upsample("model.13", h12), p3}), ch(256), depth(3), false);
    p = conv("model.16", o15, ch(256), 3, 2);
    const Spatial o18 = c2f("model.18", cat("model.17", {p, h12}), ch(512), depth(3), false);
    p = conv("model.19", o18, ch(512), 3, 2);
    const Spatial o21 = c2f("model.21", cat("model.20", {p, p5}), ch(1024), depth(3), false);
    B.block = -1;
    const int reg_max = 16, nc = m.classes;
    const int c2 = std::max({16, o15.c / 4, reg_max * 4}), c3 = std::max(o15.c, std::min(nc, 100));
    const std::size_t head_begin = B.g.layers.size();
    double outputs = 0;
    int level = 0;
    for (const Spatial& o : {o15, o18, o21}) {
        const std::string n = "model.22.l" + std::to_string(level++);
        const Spatial box = B.conv(n + ".cv2.2", conv(n + ".cv2.1", conv(n + ".cv2.0", o, c2, 3, 1), c2, 3, 1),
                                   4 * reg_max, 1, 1, 0, 1, true, ParamRole::kHead);
        const Spatial cls = B.conv(n + ".cv3.2", conv(n + ".cv3.1", conv(n + ".cv3.0", o, c3, 3, 1), c3, 3, 1), nc, 1,
                                   1, 0, 1, true, ParamRole::kHead);
        outputs += B.b * double(box.c + cls.c) * o.h * o.w;
    }
    for (std::size_t i = head_begin; i < B.g.layers.size(); ++i) B.g.layers[i].backbone = false;
    Layer& dfl = B.layer("model.22.dfl", OpKind::kElementwise);  // frozen (requires_grad False) but a parameter
    dfl.params = reg_max;
    dfl.param_matrices = 1;  // Conv2d(reg_max, 1, 1) weight
    // v8DetectionLoss (utils/loss.py): BCE over class scores, DFL + CIoU over boxes; keeps about an fp32 copy
    // of the predictions.
    Layer& loss = B.layer("loss", OpKind::kReduction);
    B.save(loss, B.tensor(outputs, R::kFp32), F::kInputGrad);
    B.head_loss(outputs);
}

// ---- transformers --------------------------------------------------------------------------------------------
// The module name of a role: the model's own (ModelSpec::module_names, from a Hugging Face config) or the builder's.
std::string module_name(const ModelSpec& m, ParamRole role, const char* builder_name) {
    for (const auto& [r, name] : m.module_names)
        if (r == role) return name;
    return builder_name;
}

// The last part of a module path (".mlp.gate_proj" -> "gate_proj").
std::string leaf_name(const std::string& path) {
    const std::size_t dot = path.rfind('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
}

// Eager attention core after the projections, given the q/k/v storages. Mirrors, per model:
//   scores = matmul(q, k^T): 4-D matmul reshapes the permuted q and k^T into contiguous copies that bmm saves
//   softmax saves its output (fp32 under autocast; Llama asks for dtype=float32 explicitly: fp32 always)
//   [.to(dtype) copy] [dropout: 1-byte mask + output] ; matmul(probs, v) saves probs and a copy of v
// SDPA (memory-efficient / flash): saves q, k, v, the output and an fp32 logsumexp of b x heads x s
// (aten/src/ATen/native/transformers/attention.cpp, _scaled_dot_product_efficient_attention).
struct AttnShape {
    double tokens;         // query rows (b x s)
    int heads, head_dim;
    int seq;               // key length per query
    double kv_tokens = 0;  // key/value rows (b x kv length); 0 = self-attention (= tokens)
    bool softcap = false;  // Gemma 2: scores = cap * tanh(scores / cap) before the mask (eager only)
};
// Softmax styles: kPlain = F.softmax(scores) (BERT, torchvision); kTyped = F.softmax(w).type(v.dtype) (GPT-2);
// kFp32ThenCast = F.softmax(w, dtype=float32).to(q.dtype) (Llama family).
enum class SoftmaxStyle { kPlain, kTyped, kFp32ThenCast };
std::int32_t attention_core(Builder& B, const std::string& n, const AttnShape& a, std::int32_t q_src,
                            std::int32_t k_src, std::int32_t v_src, bool eager, double p_attn, SoftmaxStyle style) {
    const double qh = a.tokens * a.heads * a.head_dim;  // b s (heads d)
    const double scores = a.tokens * a.heads * a.seq;   // b heads s s
    Layer& l = B.layer(n + ".attn", eager ? OpKind::kMatmul : OpKind::kAttention);
    l.forward_flop = 2.0 * 2.0 * a.tokens * a.seq * a.heads * a.head_dim;  // QK^T and PV: 2 matmuls of s x s x d
    if (!eager) {
        B.save(l, q_src, F::kInputGrad);
        B.save(l, k_src, F::kInputGrad);
        B.save(l, v_src, F::kInputGrad);
        const std::int32_t out = B.tensor(qh, R::kActivation);
        B.save(l, out, F::kInputGrad);
        B.save(l, B.tensor(a.tokens * a.heads, R::kFp32), F::kInputGrad);  // logsumexp
        l.bytes_moved_elements = 4 * qh;
        return out;
    }
    l.bytes_moved_elements = 4 * qh + 4 * scores;
    // 4-D matmuls reshape permuted q, k^T, v into contiguous copies that bmm saves (HF models); torch 1.13's
    // F.multi_head_attention_forward saves a scaled copy of q and contiguous k, v: the same three sizes.
    B.save(l, B.tensor(qh, R::kMatmulInput), F::kInputGrad);  // q copy (torchvision 1.13: the scaled q)
    const double kvh = (a.kv_tokens > 0 ? a.kv_tokens : a.tokens) * a.heads * a.head_dim;
    B.save(l, B.tensor(kvh, R::kMatmulInput), F::kInputGrad);  // k^T copy
    // Soft-capping (modeling_gemma2.py Gemma2Attention: attn_weights / softcap, tanh, * softcap): the divisions by a
    // Python number save nothing, tanh saves its result, in the scores' dtype.
    if (a.softcap) B.save(l, B.tensor(scores, R::kActivation, -1, true), F::kInputGrad);
    const std::int32_t sm =
        B.tensor(scores, style == SoftmaxStyle::kFp32ThenCast ? R::kFp32 : R::kAutocastFp32, -1, true);
    B.save(l, sm, F::kInputGrad);
    std::int32_t probs = style == SoftmaxStyle::kPlain ? sm : B.tensor(scores, R::kActivation, sm, true);
    if (p_attn > 0) {
        B.save(l, B.tensor(scores, R::kMask1, -1, true), F::kInputGrad);
        probs = B.tensor(scores, style == SoftmaxStyle::kPlain ? R::kAutocastFp32 : R::kActivation, -1, true);
    }
    B.save(l, B.tensor(scores, R::kMatmulInput, probs, true), F::kInputGrad);
    B.save(l, B.tensor(kvh, R::kMatmulInput), F::kInputGrad);  // v copy
    return B.tensor(qh, R::kActivation);
}

// NewGELUActivation ("gelu_new", transformers/activations.py): 0.5*x*(1+tanh(c*(x+0.044715*pow(x,3)))).
// pow saves its input, tanh its result, the last mul both operands (0.5*x and 1+tanh). pow is on autocast's fp32
// list, so under autocast pow saves an fp32 copy of x and the chain after it (tanh, 1+tanh) is fp32.
void save_gelu_new(Builder& B, Layer& g, std::int32_t x, double f) {
    B.save(g, B.tensor(f, R::kAutocastFp32, x), F::kInputGrad);  // pow's input (fp32 cast under autocast)
    B.save(g, B.tensor(f, R::kAutocastFp32), F::kInputGrad);     // tanh result
    B.save(g, B.tensor(f, R::kActivation), F::kInputGrad);       // 0.5 * x
    B.save(g, B.tensor(f, R::kAutocastFp32), F::kInputGrad);     // 1 + tanh
    g.bytes_moved_elements = 10 * f;
}

// ---- the transformer block -----------------------------------------------------------------------------------
// One builder for every transformer block: torchvision's and Hugging Face's ViT, BERT-style encoders (post-LN),
// decoders (GPT-2, the Llama family and the config.json variants), Whisper's audio encoder and CLIP's text encoder.
// What differs between them is data (BlockLayout): where the norms sit, how q, k and v are projected, the softmax's
// dtype, dropout, the MLP, and the modules' names. Decoder-only parts (multi-head latent attention, mixtures of
// experts, a fused gate_up_proj) read their sizes from the ModelSpec, whose defaults leave them off.
struct BlockLayout {
    double tokens = 0;  // rows (b x s)
    int hidden = 0, heads = 0, kv_heads = 0, head_dim = 0, v_head_dim = 0, seq = 0, ffn = 0;
    bool post_norm = false;  // BERT: x = LN(x + sublayer(x)); else pre-LN: x = x + sublayer(LN(x))
    bool rms = false;        // RMSNorm (Llama family) instead of LayerNorm
    // kSeparate: q, k, v Linears; kFused: one Linear, q, k, v views of it (GPT-2 c_attn, Phi-3, GPT-NeoX); kPacked:
    // torchvision's in_proj, whose eager path copies q, k, v out of it; kLatent: MLA (DeepSeek-V2 sec. 2.1.2).
    enum class Projections { kSeparate, kFused, kPacked, kLatent } projections = Projections::kSeparate;
    bool qv_bias = true, k_bias = true, o_bias = true, mlp_bias = true;
    bool rope = false, qk_norm = false, sandwich_norm = false, parallel_residual = false, parallel_shared_norm = false;
    bool glu = false;
    Activation activation = Activation::kGelu;
    SoftmaxStyle softmax = SoftmaxStyle::kPlain;
    double dropout = 0;            // attention probabilities and, where named, the residual branches
    double residual_dropout = -1;  // the residual branches' own probability (Phi's resid_pdrop); < 0: dropout
    int rotary_dim = 0;            // rope on the first rotary_dim of each head (GPT-NeoX, Phi); 0: all of it
    bool tensor_parallel = true;   // false: a frozen tower that Megatron-style splitting does not cover (CLIP text)
    bool context_from_core = false;  // the output projection's input is recorded as a copy of the attention output
    // Cross-attention over an encoder's output (Whisper's decoder): its tensor (-1 = none), rows and length.
    std::int32_t encoder_out = -1;
    double encoder_tokens = 0;
    int encoder_seq = 0;
    // Module names below the block's path; an empty dropout name: that residual branch has no dropout.
    std::string ln1, ln2, q, k, v, qkv, attn, o, attn_dropout, fc1, act, fc2, mlp_dropout, gate, up, down, router;
    std::string post_attn_norm, pre_mlp_norm, post_mlp_norm;  // sandwich norms (Gemma 2/3); parallel: ln2 of the input
};

// A SwiGLU MLP over `tokens` rows (x `experts` weight copies): gate and up (or Phi-3's fused gate_up), SiLU on the
// gate (saves its input), the product (saves both operands), down.
std::int32_t glu_mlp(Builder& B, const ModelSpec& m, const std::string& n, const std::string& gate_name,
                     const std::string& up_name, const std::string& down_name, const std::string& act_prefix,
                     std::int32_t y, double tokens, int h, int width, int experts) {
    std::int32_t g = -1, u = -1;
    B.tp_region = true;
    if (m.gate_up_fused) {
        g = u = B.linear(n + module_name(m, ParamRole::kGateUp, ".mlp.gate_up_proj"), y, tokens, h, 2 * width, false,
                         ParamRole::kGateUp, true, experts);  // gate and up are chunks (views) of it
    } else {
        g = B.linear(n + gate_name, y, tokens, h, width, false, ParamRole::kGate, true, experts);
        u = B.linear(n + up_name, y, tokens, h, width, false, ParamRole::kUp, true, experts);
    }
    {
        Layer& act = B.layer(n + act_prefix + ".act_fn", OpKind::kElementwise);  // silu saves its input
        B.save(act, g, F::kInputGrad);
        act.bytes_moved_elements = 2 * tokens * width;
    }
    // SiLU's output and the product h: Unsloth's LoRA_MLP keeps neither (it saves X, e, g and recomputes h).
    const std::int32_t sg = B.tensor(tokens * width, R::kActivation);
    B.g.tensors[sg].kept_by = TensorInfo::Kernels::kEagerOnly;
    {  // a Layer& is valid only until the next B.layer() call (the vector may grow)
        Layer& mul = B.layer(n + act_prefix + ".mul", OpKind::kElementwise);  // mul saves both operands
        B.save(mul, sg, F::kInputGrad);
        B.save(mul, u, F::kInputGrad);
        mul.bytes_moved_elements = 3 * tokens * width;
    }
    const std::int32_t prod = B.tensor(tokens * width, R::kActivation);
    B.g.tensors[prod].kept_by = TensorInfo::Kernels::kEagerOnly;
    B.tp_region = false;
    const std::int32_t out = B.linear(n + down_name, prod, tokens, width, h, false, ParamRole::kDown, true, experts);
    for (const SavedRef& r : B.g.layers.back().saved) B.g.tensors[r.tensor].kept_by = TensorInfo::Kernels::kEagerOnly;
    return out;
}

// Block `i` at module path `n` on the residual stream `x`; returns the stream after it.
std::int32_t transformer_block(Builder& B, const ModelSpec& m, const BlockLayout& L, const std::string& n, int i,
                               std::int32_t x, bool eager) {
    using P = BlockLayout::Projections;
    const double T = L.tokens;
    const int h = L.hidden, d = L.head_dim, dv = L.v_head_dim, kvh = L.kv_heads;
    const double qh = T * L.heads * d;
    const bool tp = L.tensor_parallel;
    auto norm = [&](const std::string& name, std::int32_t t, double rows, int width) {
        return L.rms ? B.rms_norm(name, t, rows, width) : B.layer_norm(name, t, rows, width);
    };
    const std::int32_t block_in = x;
    std::int32_t y = L.post_norm ? x : norm(n + L.ln1, x, T, h);
    const std::int32_t attn_in = y;
    std::int32_t q = -1, k = -1, v = -1;
    if (tp) B.tp_region = true;
    if (L.projections == P::kLatent) {
        // q: q_proj, or the low-rank q_a_proj -> RMSNorm -> q_b_proj; k and v: kv_a_proj_with_mqa to the latent
        // (kv_lora_rank) plus the shared rope key, RMSNorm on the latent, kv_b_proj to every head's k_nope and v.
        B.tp_region = false;
        if (m.q_lora_rank > 0) {
            q = B.linear(n + ".self_attn.q_a_proj", y, T, h, m.q_lora_rank, L.qv_bias, ParamRole::kQa);
            q = B.rms_norm(n + ".self_attn.q_a_layernorm", q, T, m.q_lora_rank);
            B.tp_region = true;
            q = B.linear(n + ".self_attn.q_b_proj", q, T, m.q_lora_rank, L.heads * d, false, ParamRole::kQb);
            B.tp_region = false;
        } else {
            B.tp_region = true;
            q = B.linear(n + ".self_attn.q_proj", y, T, h, L.heads * d, false, ParamRole::kQ);
            B.tp_region = false;
        }
        std::int32_t kv = B.linear(n + ".self_attn.kv_a_proj_with_mqa", y, T, h, m.kv_lora_rank + m.qk_rope_head_dim,
                                   L.qv_bias, ParamRole::kKvA);
        kv = B.rms_norm(n + ".self_attn.kv_a_layernorm", kv, T, m.kv_lora_rank);
        B.tp_region = true;
        k = v = B.linear(n + ".self_attn.kv_b_proj", kv, T, m.kv_lora_rank, L.heads * (m.qk_nope_head_dim + dv), false,
                         ParamRole::kKvB);
    } else if (L.projections == P::kFused || L.projections == P::kPacked) {
        const std::int32_t qkv = B.linear(n + L.qkv, y, T, h, L.heads * d + 2 * kvh * d, L.qv_bias, ParamRole::kQkv);
        // torch 2.x SDPA path: _in_projection_packed makes one contiguous 3h copy; q, k, v are views of it.
        // torch 1.13 eager path (measured): q (scaled), k and v are separate contiguous copies saved by the bmms.
        q = k = v = L.projections == P::kPacked ? B.tensor(T * 3 * h, R::kActivation, qkv) : qkv;
    } else {
        q = B.linear(n + L.q, y, T, h, L.heads * d, L.qv_bias, ParamRole::kQ);
        k = B.linear(n + L.k, y, T, h, kvh * d, L.k_bias, ParamRole::kK);
        v = B.linear(n + L.v, y, T, h, kvh * d, L.qv_bias, ParamRole::kV);
    }
    if (L.qk_norm) {  // Qwen3RMSNorm / Gemma3RMSNorm over head_dim, per head (modeling_qwen3.py q_norm, k_norm)
        q = B.rms_norm(n + ".self_attn.q_norm", q, T * L.heads, d);
        k = B.rms_norm(n + ".self_attn.k_norm", k, T * kvh, d);
    }
    if (L.rope) {
        // q*cos + rotate_half(q)*sin: the muls save cos and sin (b x s x d each; cos/sin do not need grad). Partial
        // rotary (modeling_gpt_neox.py, modeling_phi.py): the same on q[..., :rot] and k[..., :rot], so cos and sin
        // are b x s x rot; torch.cat((q_rot, q_pass)) then makes the new q and k (cat saves nothing).
        const int rot = L.rotary_dim > 0 && L.rotary_dim < d ? L.rotary_dim : d;
        Layer& r = B.layer(n + ".rotary", OpKind::kElementwise);
        // Unsloth's fast_rope_embedding rotates q and k in place and keeps only the model's shared cos/sin tables.
        for (int c = 0; c < 2; ++c) {
            const std::int32_t t = B.tensor(T * rot, R::kActivation);
            B.g.tensors[t].kept_by = TensorInfo::Kernels::kEagerOnly;
            B.save(r, t, F::kInputGrad);
        }
        r.bytes_moved_elements = 3 * T * (L.heads + kvh) * double(rot) + (rot < d ? 2 * (qh + T * kvh * d) : 0);
        q = B.tensor(qh, R::kActivation);
        k = B.tensor(T * kvh * d, R::kActivation);
        if (kvh != L.heads) {  // repeat_kv: expand + reshape copies K and V to every query head
            k = B.tensor(qh, R::kActivation);
            v = B.tensor(qh, R::kActivation);
        }
    }
    // Sliding-window layers (Mistral, Phi-3, Qwen2 from max_window_layers on, Gemma 2's even and Gemma 3's local
    // layers): the flash-attn path passes window_size = (sliding_window, sliding_window) to flash_attn_func, whose
    // kernel computes only the scores inside the window (transformers modeling_flash_attention_utils.py
    // _flash_attention_forward; modeling_mistral.py MistralFlashAttention2): FLOPs over min(s, window) keys per query.
    // The eager path computes every score, q @ k^T over all keys, and applies the window as an additive mask
    // (modeling_mistral.py MistralAttention.forward: "attn_weights = attn_weights + causal_mask"; modeling_gemma2.py
    // Gemma2Attention: the sliding mask is torch.tril(..., diagonal=-sliding_window) folded into attention_mask), so
    // its scores, softmax and FLOPs stay s x s.
    const bool slides = m.sliding_window > 0 &&
                        (m.sliding_layers.empty() || (std::size_t(i) < m.sliding_layers.size() && m.sliding_layers[i] != 0));
    const int keys = slides && !eager ? std::min(L.seq, m.sliding_window) : L.seq;
    AttnShape shape{T, L.heads, d, keys};
    shape.softcap = m.attn_logit_softcapping > 0;
    const std::int32_t core = attention_core(B, n + L.attn, shape, q, k, v, eager, L.dropout, L.softmax);
    // the heads back to rows: transpose(1, 2).contiguous() (HF) or the output of the fused path
    const std::int32_t a = B.tensor(T * L.heads * dv, R::kActivation, L.context_from_core ? core : -1);
    if (tp) B.tp_region = false;
    y = B.linear(n + L.o, a, T, L.heads * dv, h, L.o_bias, ParamRole::kO);
    if (L.sandwich_norm) y = B.rms_norm(n + L.post_attn_norm, y, T, h);
    const double p_residual = L.residual_dropout < 0 ? L.dropout : L.residual_dropout;
    if (!L.attn_dropout.empty()) y = B.dropout(n + L.attn_dropout, y, T * h, p_residual, R::kActivation);
    if (L.post_norm) {
        x = B.layer_norm(n + L.ln1, B.add(x, T * h), T, h);
        y = x;
    } else if (L.parallel_residual) {
        // The MLP reads the block input, not the attention's sum: the same LayerNorm output (Falcon-7B) or its
        // own LayerNorm of the block input (GPT-NeoX post_attention_layernorm, Falcon's ln_mlp).
        y = L.parallel_shared_norm ? attn_in : norm(n + L.ln2, block_in, T, h);
    } else {
        x = B.add(x, T * h);
        if (L.encoder_out >= 0) {
            // Cross-attention (WhisperDecoderLayer.encoder_attn): q from the decoder, k and v from the encoder
            // output (S rows per sample), pre-LN, residual.
            const double TE = L.encoder_tokens;
            y = B.layer_norm(n + ".encoder_attn_layer_norm", x, T, h);
            B.tp_region = true;
            q = B.linear(n + ".encoder_attn.q_proj", y, T, h, L.heads * d, L.qv_bias, ParamRole::kQ);
            k = B.linear(n + ".encoder_attn.k_proj", L.encoder_out, TE, h, L.heads * d, L.k_bias, ParamRole::kK);
            v = B.linear(n + ".encoder_attn.v_proj", L.encoder_out, TE, h, L.heads * d, L.qv_bias, ParamRole::kV);
            AttnShape cross{T, L.heads, d, L.encoder_seq};
            cross.kv_tokens = TE;
            attention_core(B, n + ".encoder_attn", cross, q, k, v, eager, L.dropout, SoftmaxStyle::kPlain);
            const std::int32_t c = B.tensor(T * L.heads * d, R::kActivation);
            B.tp_region = false;
            y = B.linear(n + ".encoder_attn.out_proj", c, T, L.heads * d, h, L.o_bias, ParamRole::kO);
            x = B.add(x, T * h);
        }
        y = L.sandwich_norm ? B.rms_norm(n + L.pre_mlp_norm, x, T, h) : norm(n + L.ln2, x, T, h);
    }
    const bool moe = m.experts > 1 && i >= m.first_dense_layers && (i + 1) % std::max(1, m.moe_layer_step) == 0;
    if (L.glu) {
        const int E = moe ? std::max(1, m.experts) : 1, K = moe ? m.top_k : 1;
        const int width = moe && m.moe_ffn > 0 ? m.moe_ffn : L.ffn;
        const std::int32_t mlp_in = y;
        const double TK = T * K;  // token-expert pairs
        std::int32_t expert_in = y;
        if (E > 1) {
            // MixtralSparseMoeBlock: router logits (b s E), softmax in fp32, top-k; each token runs K experts.
            B.linear(n + L.router, y, T, h, E, m.router_bias, ParamRole::kRouter);
            Layer& r = B.layer(n + ".block_sparse_moe.routing", OpKind::kReduction);
            B.save(r, B.tensor(T * E, R::kFp32), F::kInputGrad);
            B.save(r, B.tensor(T * K, R::kInt64), F::kInputGrad);
            if (m.moe_renormalize) {  // weights /= weights.sum(-1, keepdim=True): div keeps both (b s K and b s)
                B.save(r, B.tensor(TK, R::kFp32), F::kInputGrad);
                B.save(r, B.tensor(T, R::kFp32), F::kInputGrad);
            }
            // The eager loop over the experts (modeling_mixtral.py, modeling_qwen2_moe.py, modeling_qwen3_moe.py,
            // modeling_deepseek_v3.py all share it): hidden_states[top_x] gathers each expert's rows into a new
            // tensor (IndexBackward keeps only the int64 indices), which the expert's Linears keep.
            Layer& g = B.layer(n + ".experts.gather", OpKind::kElementwise);
            B.save(g, B.tensor(TK, R::kInt64), F::kInputGrad);
            g.bytes_moved_elements = 2 * TK * h;
            expert_in = B.tensor(TK * h, R::kAutocastFp32);  // the rows of the norm's output, in its dtype
        }
        y = glu_mlp(B, m, n, L.gate, L.up, L.down, ".mlp", expert_in, TK, h, width, E);
        if (E > 1) {
            // expert(rows) * routing_weights[top_x, idx, None]: mul keeps both operands (the weights cast to the
            // hidden dtype: fp32 under autocast, so the product is fp32 too); out.index_add_(0, top_x, product)
            // keeps its source (derivatives.yaml index_add: grad.index_select(dim, index).expand_as(source)).
            // Measured: tests/validation/families (Mixtral, Qwen2-MoE, Qwen3-MoE cases).
            Layer& w = B.layer(n + ".experts.routing_weight_mul", OpKind::kElementwise);
            B.save(w, y, F::kInputGrad);
            B.save(w, B.tensor(TK, R::kAutocastFp32), F::kInputGrad);
            w.bytes_moved_elements = 3 * TK * h;
            const std::int32_t weighted = B.tensor(TK * h, R::kAutocastFp32);
            Layer& a = B.layer(n + ".experts.index_add", OpKind::kElementwise);
            B.save(a, weighted, F::kInputGrad);
            a.bytes_moved_elements = 3 * TK * h;
            y = B.tensor(T * h, R::kAutocastFp32);
        }
        if (moe && m.shared_expert_ffn > 0) {
            // Shared experts: one dense SwiGLU MLP every token runs besides its routed ones (DeepSeekMoE,
            // Dai et al. 2024, sec. 3.2; Qwen2-MoE shared_expert, scaled by sigmoid(shared_expert_gate(x))).
            const std::string p = m.shared_expert_prefix;
            const std::int32_t s = glu_mlp(B, m, n, p + "." + leaf_name(L.gate), p + "." + leaf_name(L.up),
                                           p + "." + leaf_name(L.down), p, mlp_in, T, h, m.shared_expert_ffn, 1);
            if (m.shared_expert_gate) {
                B.linear(n + ".mlp.shared_expert_gate", mlp_in, T, h, 1, false, ParamRole::kOther);
                Layer& sig = B.layer(n + ".mlp.shared_expert_gate.sigmoid", OpKind::kElementwise);
                B.save(sig, B.tensor(T, R::kActivation), F::kInputGrad);  // sigmoid saves its result
                Layer& mul = B.layer(n + ".mlp.shared_expert.mul", OpKind::kElementwise);
                B.save(mul, s, F::kInputGrad);
                mul.bytes_moved_elements = 3 * T * h;
            }
            y = B.add(y, T * h, R::kActivation);
        }
    } else {
        if (tp) B.tp_region = true;
        y = B.linear(n + L.fc1, y, T, h, L.ffn, L.mlp_bias, ParamRole::kFc1);
        const double f = T * L.ffn;
        // ReLU saves its result (derivatives.yaml relu: threshold_backward(grad, result, 0)), the tensor fc2 keeps
        // too: one storage.
        const std::int32_t act = B.tensor(f, R::kActivation);
        Layer& g = B.layer(n + L.act, OpKind::kElementwise);
        // NewGELUActivation saves four tensors of the FFN width (save_gelu_new); GELU and quick_gelu their input.
        if (L.activation == Activation::kGeluTanhPython) save_gelu_new(B, g, y, f);
        else if (L.activation == Activation::kRelu) B.save(g, act, F::kInputGrad);
        else B.save(g, y, F::kInputGrad);
        // quick_gelu (activations.py QuickGELUActivation, x * torch.sigmoid(1.702 * x)): sigmoid keeps its output
        // and the mul its two operands, so one more tensor of the FFN width than GELU (CLIP case, families file).
        if (L.activation == Activation::kQuickGelu) B.save(g, B.tensor(f, R::kActivation), F::kInputGrad);
        g.bytes_moved_elements = (L.activation == Activation::kGeluTanhPython ? 10
                                  : L.activation == Activation::kQuickGelu   ? 5
                                                                               : 2) * f;
        if (tp) B.tp_region = false;
        y = B.linear(n + L.fc2, act, T, L.ffn, h, L.mlp_bias, ParamRole::kFc2);
    }
    if (L.sandwich_norm) y = B.rms_norm(n + L.post_mlp_norm, y, T, h);
    if (!L.mlp_dropout.empty()) y = B.dropout(n + L.mlp_dropout, y, T * h, p_residual, R::kActivation);
    if (L.post_norm) return B.layer_norm(n + L.ln2, B.add(x, T * h), T, h);
    if (L.parallel_residual) x = B.add(x, T * h);  // attention + MLP, then + the block input
    return B.add(x, T * h);
}

// torchvision vision_transformer.py: conv_proj 16x16/16, class token, learned positions, pre-LN encoder blocks
// with nn.MultiheadAttention (packed in_proj) and MLP (Linear, GELU, Linear), final LN, head on the class token.
void build_vit(Builder& B, const ModelSpec& m, int image, bool eager) {
    const int h = m.hidden, grid = image / m.patch;
    const int seq = grid * grid + 1;
    const double T = B.b * seq;
    Spatial img{B.tensor(B.b * 3.0 * image * image, R::kAutocastFp32), 3, image, image};
    B.conv("conv_proj", img, h, m.patch, m.patch, 0, 1, m.patch_bias);  // its output is reshaped into the tokens below
    Layer& emb = B.layer("class_token+pos_embedding", OpKind::kElementwise);
    emb.params = double(h) + double(seq) * h;
    emb.param_matrices = 2;  // class_token (1, 1, h), pos_embedding (1, seq, h)
    B.note_param_tensor(double(seq) * h);
    std::int32_t x = B.tensor(T * h, R::kAutocastFp32);
    if (m.embed_norm) x = B.layer_norm("pre_layrnorm", x, T, h);  // CLIPVisionTransformer
    // torchvision: nn.MultiheadAttention's packed in_proj; Hugging Face ViT / CLIP: query, key, value Linears
    // (modeling_vit.py ViTSelfAttention). Pre-LN, no dropout, GELU.
    BlockLayout L;
    L.tokens = T, L.hidden = h, L.heads = m.heads, L.kv_heads = m.heads, L.head_dim = L.v_head_dim = h / m.heads;
    L.seq = seq, L.ffn = m.ffn, L.activation = m.activation;
    L.projections = m.separate_qkv ? BlockLayout::Projections::kSeparate : BlockLayout::Projections::kPacked;
    L.ln1 = ".ln_1", L.ln2 = ".ln_2", L.qkv = ".self_attention.in_proj";
    L.q = module_name(m, ParamRole::kQ, ".attention.attention.query");
    L.k = module_name(m, ParamRole::kK, ".attention.attention.key");
    L.v = module_name(m, ParamRole::kV, ".attention.attention.value");
    L.o = module_name(m, ParamRole::kO, ".self_attention.out_proj");
    L.fc1 = module_name(m, ParamRole::kFc1, ".mlp.0"), L.act = ".mlp.1.gelu", L.fc2 = module_name(m, ParamRole::kFc2, ".mlp.3");
    for (int i = 0; i < m.layers; ++i) {
        B.begin_block(i, x);
        x = transformer_block(B, m, L, idx("encoder.layers", i), i, x, eager);
    }
    B.block = -1;
    const std::int32_t y = B.layer_norm("encoder.ln", x, T, h);
    // heads(x[:, 0]): a view of the LN output (its whole storage stays alive); under autocast a cast copy.
    Layer& head = B.layer(module_name(m, ParamRole::kHead, "heads.head"), OpKind::kMatmul);
    head.params = double(h) * m.classes + m.classes;
    head.param_matrices = 1, head.param_vectors = 1;
    head.matmul_weight_params = double(h) * m.classes;
    head.in_features = h;
    head.out_features = m.classes;
    head.tokens = B.b;
    head.role = ParamRole::kHead;
    head.backbone = false;
    head.forward_flop = 2.0 * B.b * h * m.classes;
    // the saved slice is a view that keeps the LN output storage alive (aliases y); under autocast a b x h cast
    B.save(head, B.tensor(B.b * h, R::kMatmulInput, y), F::kWeightGrad);
    Layer& l = B.layer("loss", OpKind::kReduction);
    B.save(l, B.tensor(B.b * m.classes, R::kAutocastFp32), F::kInputGrad);
    B.save(l, B.tensor(B.b, R::kInt64), F::kInputGrad);
    B.head_loss(B.b * m.classes);
}


// Stable Diffusion UNets (diffusers UNet2DConditionModel, models/unets/unet_2d_blocks.py, resnet.py,
// attention.py, attention_processor.py AttnProcessor2_0). Latent = image / 8. GroupNorm (autocast fp32 list) saves
// its input and fp32 mean/rstd per group; SiLU saves its input; ResnetBlock2D = GN, SiLU, conv, + time projection,
// GN, SiLU, conv (+ 1x1 shortcut); Transformer2DModel = GN, proj_in, BasicTransformerBlocks (LN, self-attention,
// LN, cross-attention to the frozen text states, LN, GEGLU feed-forward), proj_out, + residual.
// GroupNorm with 32 groups (diffusers' UNets and VAE; autocast fp32 list): saves its input and fp32 mean/rstd.
Spatial group_norm32(Builder& B, const std::string& n, Spatial x) {
    Layer& l = B.layer(n, OpKind::kNorm);
    l.params = 2.0 * x.c;
    l.param_vectors = 2;
    l.role = ParamRole::kNorm;
    const double el = B.b * double(x.c) * x.h * x.w;
    B.save(l, B.tensor(el, R::kAutocastFp32, x.t), F::kAny);
    B.save(l, B.tensor(2 * B.b * 32, R::kFp32), F::kAny);
    l.bytes_moved_elements = 2 * el;
    return Spatial{B.tensor(el, R::kAutocastFp32), x.c, x.h, x.w};
}

void build_sd_unet(Builder& B, const ModelSpec& m, int image, bool eager) {
    const int latent = image / 8;
    const std::vector<int>& ch = m.channel_mult;  // block_out_channels
    const int levels = int(ch.size());
    const int temb = ch[0] * 4;
    const int ctx_len = 77;
    const double ctx_tokens = B.b * ctx_len;
    const std::int32_t context = B.tensor(ctx_tokens * m.context_dim, R::kAutocastFp32);  // text encoder output
    int blk = 0;
    auto add_sp = [&](Spatial x) {
        return Spatial{B.add(x.t, B.b * double(x.c) * x.h * x.w, R::kAutocastFp32), x.c, x.h, x.w};
    };
    auto resnet = [&](const std::string& n, Spatial x, int cout) {
        B.begin_block(blk++, x.t);
        Spatial h = B.conv(n + ".conv1", B.silu(n + ".act1", group_norm32(B, n + ".norm1", x)), cout, 3, 1, 1, 1, true);
        // time_emb_proj(silu(temb)): a b x cout bias broadcast over the map (add saves nothing)
        B.linear(n + ".time_emb_proj", B.tensor(B.b * temb, R::kAutocastFp32), B.b, temb, cout, true, ParamRole::kOther);
        h = add_sp(h);
        h = B.conv(n + ".conv2", B.silu(n + ".act2", group_norm32(B, n + ".norm2", h)), cout, 3, 1, 1, 1, true);
        if (x.c != cout) B.conv(n + ".conv_shortcut", x, cout, 1, 1, 0, 1, true);  // saves x (block input)
        return add_sp(h);
    };
    auto transformer = [&](const std::string& n, Spatial x, int depth, int heads) {
        B.begin_block(blk++, x.t);
        const int c = x.c;
        const double T = B.b * double(x.h) * x.w;
        const int seq = x.h * x.w;
        Spatial g = group_norm32(B, n + ".norm", x);
        std::int32_t h;
        if (m.linear_projection) {
            const std::int32_t flat = B.tensor(T * c, R::kAutocastFp32);  // permute + reshape copy
            h = B.linear(n + ".proj_in", flat, T, c, c, true, ParamRole::kOther);
        } else {
            h = B.tensor(T * c, R::kActivation, B.conv(n + ".proj_in", g, c, 1, 1, 0, 1, true).t);
        }
        const int d = c / heads;
        for (int i = 0; i < depth; ++i) {
            const std::string tb = n + ".transformer_blocks." + std::to_string(i);
            std::int32_t y = B.layer_norm(tb + ".norm1", h, T, c);
            const std::int32_t q1 = B.linear(tb + ".attn1.to_q", y, T, c, c, false, ParamRole::kQ);
            const std::int32_t k1 = B.linear(tb + ".attn1.to_k", y, T, c, c, false, ParamRole::kK);
            const std::int32_t v1 = B.linear(tb + ".attn1.to_v", y, T, c, c, false, ParamRole::kV);
            std::int32_t o = attention_core(B, tb + ".attn1", {T, heads, d, seq}, q1, k1, v1,
                                            eager, 0, SoftmaxStyle::kPlain);
            o = B.linear(tb + ".attn1.to_out.0", B.tensor(T * c, R::kActivation, o), T, c, c, true, ParamRole::kO);
            h = B.add(h, T * c);
            y = B.layer_norm(tb + ".norm2", h, T, c);
            const std::int32_t q2 = B.linear(tb + ".attn2.to_q", y, T, c, c, false, ParamRole::kQ);
            const std::int32_t k2 = B.linear(tb + ".attn2.to_k", context, ctx_tokens, m.context_dim, c, false, ParamRole::kK);
            const std::int32_t v2 = B.linear(tb + ".attn2.to_v", context, ctx_tokens, m.context_dim, c, false, ParamRole::kV);
            AttnShape cross{T, heads, d, ctx_len, ctx_tokens};
            o = attention_core(B, tb + ".attn2", cross, q2, k2, v2, eager, 0, SoftmaxStyle::kPlain);
            o = B.linear(tb + ".attn2.to_out.0", B.tensor(T * c, R::kActivation, o), T, c, c, true, ParamRole::kO);
            h = B.add(h, T * c);
            y = B.layer_norm(tb + ".norm3", h, T, c);
            // GEGLU: proj to 2 x 4c, hidden * gelu(gate): gelu saves gate (a view of proj's output), mul saves
            // hidden (same storage) and gelu(gate).
            const std::int32_t pr = B.linear(tb + ".ff.net.0.proj", y, T, c, 8 * c, true, ParamRole::kFc1);
            Layer& gl = B.layer(tb + ".ff.geglu", OpKind::kElementwise);
            B.save(gl, pr, F::kInputGrad);
            const std::int32_t ge = B.tensor(T * 4 * c, R::kActivation);
            B.save(gl, ge, F::kInputGrad);
            gl.bytes_moved_elements = 16.0 * T * c;
            o = B.linear(tb + ".ff.net.2", B.tensor(T * 4 * c, R::kActivation), T, 4 * c, c, true, ParamRole::kFc2);
            h = B.add(h, T * c);
        }
        if (m.linear_projection) {
            h = B.linear(n + ".proj_out", h, T, c, c, true, ParamRole::kOther);
        } else {
            h = B.conv(n + ".proj_out", Spatial{h, c, x.h, x.w}, c, 1, 1, 0, 1, true).t;
        }
        return add_sp(Spatial{h, c, x.h, x.w});
    };
    // time embedding (sinusoidal 320 -> 1280 -> 1280) and SDXL's added text/time embedding
    B.linear("time_embedding.linear_1", B.tensor(B.b * ch[0], R::kAutocastFp32), B.b, ch[0], temb, true, ParamRole::kOther);
    B.linear("time_embedding.linear_2", B.tensor(B.b * temb, R::kAutocastFp32), B.b, temb, temb, true, ParamRole::kOther);
    if (m.addition_embed_dim > 0) {
        B.linear("add_embedding.linear_1", B.tensor(B.b * m.addition_embed_dim, R::kAutocastFp32), B.b,
                 m.addition_embed_dim, temb, true, ParamRole::kOther);
        B.linear("add_embedding.linear_2", B.tensor(B.b * temb, R::kAutocastFp32), B.b, temb, temb, true, ParamRole::kOther);
    }
    Spatial x{B.tensor(B.b * double(m.latent_channels) * latent * latent, R::kAutocastFp32), m.latent_channels, latent, latent};
    x = B.conv("conv_in", x, ch[0], 3, 1, 1, 1, true);
    std::vector<int> skip_channels = {ch[0]};
    for (int lv = 0; lv < levels; ++lv) {
        for (int r = 0; r < 2; ++r) {
            const std::string n = "down_blocks." + std::to_string(lv) + ".resnets." + std::to_string(r);
            x = resnet(n, x, ch[lv]);
            if (m.transformer_depth[lv] > 0)
                x = transformer("down_blocks." + std::to_string(lv) + ".attentions." + std::to_string(r), x,
                                m.transformer_depth[lv], m.attention_heads[lv]);
            skip_channels.push_back(x.c);
        }
        if (lv + 1 < levels) {
            x = B.conv("down_blocks." + std::to_string(lv) + ".downsamplers.0", x, x.c, 3, 2, 1, 1, true);
            skip_channels.push_back(x.c);
        }
    }
    x = resnet("mid_block.resnets.0", x, ch[levels - 1]);
    x = transformer("mid_block.attentions.0", x, m.mid_transformer_depth, m.attention_heads[levels - 1]);
    x = resnet("mid_block.resnets.1", x, ch[levels - 1]);
    for (int i = 0; i < levels; ++i) {
        const int lv = levels - 1 - i;
        const int out = ch[lv];
        for (int r = 0; r < 3; ++r) {
            const int skip = skip_channels.back();
            skip_channels.pop_back();
            const std::string n = "up_blocks." + std::to_string(i) + ".resnets." + std::to_string(r);
            Layer& cat = B.layer(n + ".cat", OpKind::kElementwise);  // torch.cat saves nothing
            const double el = B.b * double(x.c + skip) * x.h * x.w;
            cat.bytes_moved_elements = 2 * el;
            x = resnet(n, Spatial{B.tensor(el, R::kAutocastFp32), x.c + skip, x.h, x.w}, out);
            if (m.transformer_depth[lv] > 0)
                x = transformer("up_blocks." + std::to_string(i) + ".attentions." + std::to_string(r), x,
                                m.transformer_depth[lv], m.attention_heads[lv]);
        }
        if (i + 1 < levels) {
            Layer& up = B.layer("up_blocks." + std::to_string(i) + ".upsample", OpKind::kElementwise);
            const double el = B.b * double(x.c) * x.h * 2 * x.w * 2;
            up.bytes_moved_elements = 1.25 * el;
            x = B.conv("up_blocks." + std::to_string(i) + ".upsamplers.0", Spatial{B.tensor(el, R::kActivation), x.c, x.h * 2, x.w * 2},
                       x.c, 3, 1, 1, 1, true);
        }
    }
    B.block = -1;
    x = B.conv("conv_out", B.silu("conv_act", group_norm32(B, "conv_norm_out", x)), m.latent_channels, 3, 1, 1, 1,
               true);
    // MSE loss on the predicted noise (autocast fp32 list): saves the fp32 prediction and target difference.
    Layer& loss = B.layer("loss", OpKind::kReduction);
    const double px = B.b * double(x.c) * x.h * x.w;
    B.save(loss, B.tensor(px, R::kFp32), F::kInputGrad);
    B.save(loss, B.tensor(px, R::kFp32), F::kInputGrad);
    B.head_loss(px);
}

// Embedding lookup: embedding_backward needs the indices (int64).
std::int32_t embedding(Builder& B, const std::string& n, double tokens, int rows, int dim, std::int32_t ids) {
    Layer& l = B.layer(n, OpKind::kEmbedding);
    l.params = double(rows) * dim;
    l.param_matrices = 1;
    l.role = ParamRole::kEmbedding;
    B.note_param_tensor(double(rows) * dim);
    if (ids >= 0) B.save(l, ids, F::kWeightGrad);
    l.bytes_moved_elements = tokens * dim;
    return B.tensor(tokens * dim, R::kAutocastFp32);
}

// ---- SD input encoders -----------------------------------------------------------------------------------------
// diffusers AutoencoderKL (src/diffusers/models/autoencoders/vae.py @9578d7e8, Encoder / Decoder; SD's config:
// block_out_channels 128, 256, 512, 512, layers_per_block 2, 32 groups, SiLU, double_z): ResnetBlock2D without a time
// embedding, Downsample2D = pad (0, 1, 0, 1) + 3x3 conv stride 2, a single-head attention (GroupNorm, to_q/k/v/out
// Linear over the h x w tokens, SDPA) in the mid block. Encoder: conv_in, down blocks, mid block, GN, SiLU, conv_out
// (2 x latent channels), quant_conv 1x1.
Spatial vae_resnet(Builder& B, const std::string& n, Spatial x, int cout) {
    Spatial h = B.conv(n + ".conv1", B.silu(n + ".act1", group_norm32(B, n + ".norm1", x)), cout, 3, 1, 1, 1, true);
    h = B.conv(n + ".conv2", B.silu(n + ".act2", group_norm32(B, n + ".norm2", h)), cout, 3, 1, 1, 1, true);
    if (x.c != cout) B.conv(n + ".conv_shortcut", x, cout, 1, 1, 0, 1, true);
    return Spatial{B.add(h.t, B.b * double(cout) * h.h * h.w, R::kAutocastFp32), cout, h.h, h.w};
}

Spatial vae_mid_block(Builder& B, const std::string& n, Spatial x, bool eager) {
    x = vae_resnet(B, n + ".resnets.0", x, x.c);
    const double T = B.b * double(x.h) * x.w;
    const std::int32_t g = group_norm32(B, n + ".attentions.0.group_norm", x).t;
    const std::int32_t q = B.linear(n + ".attentions.0.to_q", g, T, x.c, x.c, true, ParamRole::kQ);
    const std::int32_t k = B.linear(n + ".attentions.0.to_k", g, T, x.c, x.c, true, ParamRole::kK);
    const std::int32_t v = B.linear(n + ".attentions.0.to_v", g, T, x.c, x.c, true, ParamRole::kV);
    std::int32_t o = attention_core(B, n + ".attentions.0", {T, 1, x.c, x.h * x.w}, q, k, v, eager, 0,
                                    SoftmaxStyle::kPlain);
    o = B.linear(n + ".attentions.0.to_out.0", B.tensor(T * x.c, R::kActivation, o), T, x.c, x.c, true, ParamRole::kO);
    x = Spatial{B.add(o, T * x.c, R::kAutocastFp32), x.c, x.h, x.w};
    return vae_resnet(B, n + ".resnets.1", x, x.c);
}

void build_vae_encoder(Builder& B, const ModelSpec& m, int image, bool eager) {
    const int c0 = m.vae_base_channels;
    const std::vector<int> ch = {c0, 2 * c0, 4 * c0, 4 * c0};
    Spatial x{B.tensor(B.b * 3.0 * image * image, R::kActivation), 3, image, image};
    x = B.conv("vae.encoder.conv_in", x, ch[0], 3, 1, 1, 1, true);
    for (std::size_t i = 0; i < ch.size(); ++i) {
        const std::string n = "vae.encoder.down_blocks." + std::to_string(i);
        for (int r = 0; r < 2; ++r) x = vae_resnet(B, n + ".resnets." + std::to_string(r), x, ch[i]);
        if (i + 1 < ch.size()) {
            // F.pad(x, (0, 1, 0, 1)) then a 3x3 stride-2 conv without padding: (h + 1 - 3) / 2 + 1 = h / 2.
            Layer& pad = B.layer(n + ".downsamplers.0.pad", OpKind::kElementwise);
            pad.bytes_moved_elements = 2 * B.b * double(x.c) * x.h * x.w;
            x = B.conv(n + ".downsamplers.0.conv", Spatial{x.t, x.c, x.h + 1, x.w + 1}, ch[i], 3, 2, 0, 1, true);
        }
    }
    x = vae_mid_block(B, "vae.encoder.mid_block", x, eager);
    x = B.silu("vae.encoder.conv_act", group_norm32(B, "vae.encoder.conv_norm_out", x));
    x = B.conv("vae.encoder.conv_out", x, 2 * m.latent_channels, 3, 1, 1, 1, true);
    B.conv("vae.quant_conv", x, 2 * m.latent_channels, 1, 1, 0, 1, true);
}

// The decoder does not run during training (the scripts only encode), but vae.to(device) puts it on the GPU: its
// parameters count. post_quant_conv 1x1, conv_in, mid block, up blocks of 3 resnets (+ nearest 2x upsample and a
// 3x3 conv), GN, SiLU, conv_out to RGB.
void build_vae_decoder(Builder& B, const ModelSpec& m, int latent, bool eager) {
    const int c0 = m.vae_base_channels;
    const std::vector<int> ch = {4 * c0, 4 * c0, 2 * c0, c0};  // reversed block_out_channels
    Spatial x{B.tensor(B.b * double(m.latent_channels) * latent * latent, R::kActivation), m.latent_channels, latent,
              latent};
    x = B.conv("vae.post_quant_conv", x, m.latent_channels, 1, 1, 0, 1, true);
    x = B.conv("vae.decoder.conv_in", x, ch[0], 3, 1, 1, 1, true);
    x = vae_mid_block(B, "vae.decoder.mid_block", x, eager);
    for (std::size_t i = 0; i < ch.size(); ++i) {
        const std::string n = "vae.decoder.up_blocks." + std::to_string(i);
        for (int r = 0; r < 3; ++r) x = vae_resnet(B, n + ".resnets." + std::to_string(r), x, ch[i]);
        if (i + 1 < ch.size())
            x = B.conv(n + ".upsamplers.0.conv",
                       Spatial{B.tensor(B.b * double(x.c) * 4 * x.h * x.w, R::kActivation), x.c, 2 * x.h, 2 * x.w},
                       ch[i], 3, 1, 1, 1, true);
    }
    x = B.silu("vae.decoder.conv_act", group_norm32(B, "vae.decoder.conv_norm_out", x));
    B.conv("vae.decoder.conv_out", x, 3, 3, 1, 1, 1, true);
}

// CLIP text transformer (transformers src/transformers/models/clip/modeling_clip.py @679021a6 CLIPTextTransformer):
// token + position embeddings (max_position_embeddings 77),
// pre-LN layers (LN, q/k/v/out_proj Linear with bias, causal attention, LN, fc1, quick_gelu or gelu, fc2), final LN;
// OpenCLIP bigG (SDXL's second encoder) adds text_projection (no bias).
void build_clip_text(Builder& B, const std::string& p, const ModelSpec::TextEncoder& t, bool eager) {
    constexpr int kClipContextTokens = 77;  // CLIPTextConfig max_position_embeddings; prompts are padded to it
    const int h = t.hidden;
    const double T = B.b * kClipContextTokens;
    const std::int32_t ids = B.tensor(T, R::kInt64);
    std::int32_t x = embedding(B, p + ".embeddings.token_embedding", T, t.vocab, h, ids);
    embedding(B, p + ".embeddings.position_embedding", T, kClipContextTokens, h, -1);
    x = B.add(x, T * h);
    BlockLayout L;
    L.tokens = T, L.hidden = h, L.heads = L.kv_heads = t.heads, L.head_dim = L.v_head_dim = h / t.heads;
    L.seq = kClipContextTokens, L.ffn = t.ffn;
    L.tensor_parallel = false, L.context_from_core = true;
    L.ln1 = ".layer_norm1", L.ln2 = ".layer_norm2", L.attn = ".self_attn";
    L.q = ".self_attn.q_proj", L.k = ".self_attn.k_proj", L.v = ".self_attn.v_proj", L.o = ".self_attn.out_proj";
    L.fc1 = ".mlp.fc1", L.act = ".mlp.activation_fn", L.fc2 = ".mlp.fc2";
    const ModelSpec plain;  // no decoder-only parts (experts, latent attention)
    for (int i = 0; i < t.layers; ++i) x = transformer_block(B, plain, L, p + ".encoder.layers." + std::to_string(i), i, x, eager);
    x = B.layer_norm(p + ".final_layer_norm", x, T, h);
    if (t.projection)
        B.linear(p + ".text_projection", B.tensor(B.b * h, R::kActivation), B.b, h, h, false, ParamRole::kOther);
}

// BERT / RoBERTa / ALBERT (transformers v4.39 modeling_bert.py, post-LN): separate q/k/v Linear, eager
// attention with dropout, GELU (erf; ALBERT: gelu_new), pooler on the first token (tanh).
void build_encoder(Builder& B, const ModelSpec& m, int seq, bool eager) {
    const int h = m.hidden, e = m.embedding_size > 0 ? m.embedding_size : h;
    const double T = B.b * seq;
    const std::int32_t ids = B.tensor(T, R::kInt64);
    std::int32_t x = embedding(B, "embeddings.word", T, m.vocab, e, ids);
    B.g.layers.back().tp_split = true;  // Megatron's VocabParallelEmbedding: 1/t of the rows per rank
    // token_type_ids and position_ids are slices of registered buffers (not activations): nothing new saved.
    if (m.type_vocab > 0) embedding(B, "embeddings.token_type", T, m.type_vocab, e, -1);  // DistilBERT has none
    embedding(B, "embeddings.position", T, m.max_positions, e, -1);
    x = B.add(x, T * e);
    x = B.layer_norm("embeddings.LayerNorm", x, T, e);
    x = B.dropout("embeddings.dropout", x, T * e, m.dropout, R::kAutocastFp32);
    if (e != h) x = B.linear("embedding_hidden_mapping_in", x, T, e, h, true, ParamRole::kOther);
    // Post-LN (x = LN(x + sublayer(x))), q/k/v Linears on the stream, dropout on the probabilities and both branches.
    BlockLayout L;
    L.tokens = T, L.hidden = h, L.heads = L.kv_heads = m.heads, L.head_dim = L.v_head_dim = h / m.heads;
    L.seq = seq, L.ffn = m.ffn, L.post_norm = true, L.dropout = m.dropout, L.activation = m.activation;
    L.q = module_name(m, ParamRole::kQ, ".attention.self.query");
    L.k = module_name(m, ParamRole::kK, ".attention.self.key");
    L.v = module_name(m, ParamRole::kV, ".attention.self.value");
    L.o = module_name(m, ParamRole::kO, ".attention.output.dense");
    L.attn_dropout = ".attention.output.dropout", L.ln1 = ".attention.output.LayerNorm";
    L.fc1 = module_name(m, ParamRole::kFc1, ".intermediate.dense");
    L.act = m.activation == Activation::kGeluTanhPython ? ".intermediate.gelu_new" : ".intermediate.gelu";
    L.fc2 = module_name(m, ParamRole::kFc2, ".output.dense");
    L.mlp_dropout = ".output.dropout", L.ln2 = ".output.LayerNorm";
    for (int i = 0; i < m.layers; ++i) {
        B.begin_block(i, x);
        const std::size_t first = B.g.layers.size();
        x = transformer_block(B, m, L, idx("encoder.layer", i), i, x, eager);
        if (m.shared_layers && i > 0) {  // ALBERT: one parameter set reused by every layer
            for (std::size_t k = first; k < B.g.layers.size(); ++k) {
                B.g.layers[k].params = 0;
                B.g.layers[k].param_matrices = B.g.layers[k].param_vectors = 0;
            }
        }
    }
    B.block = -1;
    if (m.pooler) {
        // pooler(x[:, 0]): the slice is a view, so the saved input keeps the whole last LN output alive.
        const std::int32_t first_tok = B.tensor(B.b * h, R::kMatmulInput, x);
        Layer& pl = B.layer(module_name(m, ParamRole::kOther, "pooler.dense"), OpKind::kMatmul);
        pl.params = double(h) * h + h;
        pl.param_matrices = 1, pl.param_vectors = 1;
        pl.matmul_weight_params = double(h) * h;
        pl.in_features = pl.out_features = h;
        pl.tokens = B.b;
        pl.role = ParamRole::kOther;
        pl.forward_flop = 2.0 * B.b * h * h;
        B.save(pl, first_tok, F::kWeightGrad);
        Layer& th = B.layer("pooler.tanh", OpKind::kElementwise);
        const std::int32_t pooled = B.tensor(B.b * h, R::kActivation);
        B.save(th, pooled, F::kInputGrad);
        if (m.num_labels > 0) classifier(B, pooled, h, m.num_labels, m.dropout, module_name(m, ParamRole::kHead, "fc"));
    }
}

// Conv1d with a kernel of 3 and padding 1 (Whisper's audio front end): saves its input for the weight gradient.
std::int32_t conv1d_k3(Builder& B, const std::string& name, std::int32_t x, int cin, int cout, int length, int stride) {
    const int out_length = (length + 2 - 3) / stride + 1;
    Layer& l = B.layer(name, OpKind::kMatmul);
    const double w = double(cout) * cin * 3;
    l.params = w + cout;
    l.matmul_weight_params = w;
    l.param_matrices = 1, l.param_vectors = 1;
    l.role = ParamRole::kConv;
    B.note_param_tensor(w);
    l.forward_flop = 2.0 * B.b * double(cout) * out_length * cin * 3;
    B.save(l, B.tensor(B.b * double(cin) * length, R::kMatmulInput, x), F::kWeightGrad);
    l.bytes_moved_elements = B.b * (double(cin) * length + double(cout) * out_length);
    l.conv_groups = 1, l.conv_kernel = 3, l.conv_stride = stride, l.conv_in_channels = cin, l.conv_in_width = length;
    return B.tensor(B.b * double(cout) * out_length, R::kActivation);
}

// GELU (erf) on a new tensor: saves its input.
std::int32_t gelu(Builder& B, const std::string& name, std::int32_t x, double elements) {
    Layer& g = B.layer(name, OpKind::kElementwise);
    B.save(g, x, F::kInputGrad);
    g.bytes_moved_elements = 2 * elements;
    return B.tensor(elements, R::kActivation);
}

// WhisperEncoder (modeling_whisper.py): conv1 + GELU, conv2 (stride 2) + GELU over num_mel_bins x 2S frames, S
// sinusoidal position rows (an nn.Embedding that is not trained), pre-LN layers (self_attn with q/v/out_proj biases
// and a k_proj without, fc1, GELU, fc2), layer_norm. Returns the encoder output (b x S x d) the decoder reads.
std::int32_t whisper_encoder(Builder& B, const ModelSpec& m, bool eager) {
    const int h = m.hidden, S = m.encoder_positions, d = h / m.heads;
    const double TE = B.b * S;
    std::int32_t a = B.tensor(B.b * double(m.mel_bins) * 2 * S, R::kActivation);
    a = gelu(B, "encoder.conv1.gelu", conv1d_k3(B, "encoder.conv1", a, m.mel_bins, h, 2 * S, 1), B.b * double(h) * 2 * S);
    a = gelu(B, "encoder.conv2.gelu", conv1d_k3(B, "encoder.conv2", a, h, h, 2 * S, 2), TE * h);
    embedding(B, "encoder.embed_positions", TE, S, h, -1);
    std::int32_t x = B.add(a, TE * h);
    BlockLayout L;
    L.tokens = TE, L.hidden = h, L.heads = L.kv_heads = m.heads, L.head_dim = L.v_head_dim = d;
    L.seq = S, L.ffn = m.ffn, L.k_bias = false, L.dropout = m.dropout;
    L.ln1 = ".self_attn_layer_norm", L.ln2 = ".final_layer_norm", L.attn = ".self_attn";
    L.q = ".self_attn.q_proj", L.k = ".self_attn.k_proj", L.v = ".self_attn.v_proj", L.o = ".self_attn.out_proj";
    L.fc1 = ".fc1", L.act = ".activation_fn", L.fc2 = ".fc2";
    const ModelSpec plain;  // no decoder-only parts (experts, latent attention)
    for (int j = 0; j < m.encoder_layers; ++j) {
        B.begin_block(j, x);
        x = transformer_block(B, plain, L, idx("encoder.layers", j), j, x, eager);
    }
    B.block = -1;
    return B.layer_norm("encoder.layer_norm", x, TE, h);
}

// Decoders. GPT-2 (modeling_gpt2.py): learned positions, fused c_attn (Conv1D = addmm), dropout 0.1 everywhere,
// gelu_new, tied lm_head. Llama family (modeling_llama.py v4.39): RMSNorm, RoPE (cos/sin computed per layer and
// saved by the q*cos / rotate_half(q)*sin muls), GQA with repeat_kv copies, SwiGLU MLP, no dropout; logits
// upcast to fp32 before the loss. Hugging Face configs add (ModelSpec's config.json fields): parallel residuals
// (GPT-NeoX, Falcon, Phi), partial rotary (GPT-NeoX, Phi), q/k norms (Qwen3, Gemma 3), sandwich norms (Gemma 2/3),
// a fused gate_up_proj (Phi-3), MoE layers mixed with dense ones and shared experts (Qwen2-MoE, DeepSeek),
// multi-head latent attention (DeepSeek), Phi's three dropout probabilities and its lm_head bias, OPT's post-LN
// blocks and its embedding projections (OPT-350m).
void build_decoder(Builder& B, const ModelSpec& m, int seq, bool eager) {
    const bool mla = m.kv_lora_rank > 0;
    // MLA: q and k heads are nope + rope wide, v heads v_head_dim (modeling_deepseek.py DeepseekV2Attention); the
    // attention core below is sized with the q/k width for both.
    const int h = m.hidden, d = mla ? m.qk_nope_head_dim + m.qk_rope_head_dim : m.head_dim > 0 ? m.head_dim : h / m.heads;
    const int dv = mla ? m.v_head_dim : d;
    const int kvh = mla ? m.heads : m.kv_heads > 0 ? m.kv_heads : m.heads;
    const double T = B.b * seq;
    const bool llama = m.norm == NormKind::kRmsNorm;
    const std::int32_t enc = m.encoder_layers > 0 ? whisper_encoder(B, m, eager) : -1;
    const double TE = B.b * m.encoder_positions;
    const std::int32_t ids = B.tensor(T, R::kInt64);
    // OPT-350m: embeddings and head word_embed_proj_dim wide, project_in / project_out to and from the hidden width
    // (modeling_opt.py OPTDecoder: nn.Linear(word_embed_proj_dim, hidden_size, bias=False) and back).
    const int e = m.word_embed_proj_dim > 0 ? m.word_embed_proj_dim : h;
    std::int32_t x = embedding(B, "embed_tokens", T, m.vocab, e, ids);
    B.g.layers.back().tp_split = true;  // Megatron's VocabParallelEmbedding: 1/t of the rows per rank
    if (e != h) x = B.linear("project_in", x, T, e, h, false, ParamRole::kOther);
    if (m.position == PositionKind::kLearned) {
        embedding(B, "wpe", T, m.max_positions, h, B.tensor(seq, R::kInt64));
        x = B.add(x, T * h);
    }
    x = B.dropout("drop", x, T * h, m.split_dropout ? m.embedding_dropout : m.dropout, R::kAutocastFp32);
    BlockLayout L;
    L.tokens = T, L.hidden = h, L.heads = m.heads, L.kv_heads = kvh, L.head_dim = d, L.v_head_dim = dv;
    L.post_norm = m.post_norm;
    L.seq = seq, L.ffn = m.ffn, L.rms = llama, L.activation = m.activation, L.glu = m.glu;
    L.dropout = m.split_dropout ? m.attention_dropout : m.dropout;
    L.residual_dropout = m.split_dropout ? m.dropout : -1;
    // Python's int(head_dim * fraction) (PhiAttention.rotary_ndims, GPTNeoXAttention.rotary_ndims)
    L.rotary_dim = m.rotary_fraction < 1 ? int(d * m.rotary_fraction) : 0;
    L.projections = mla ? BlockLayout::Projections::kLatent
                  : m.qkv_fused ? BlockLayout::Projections::kFused : BlockLayout::Projections::kSeparate;
    const bool bias = m.bias || m.qkv_bias;
    L.qv_bias = bias, L.k_bias = bias && m.k_bias, L.o_bias = m.bias, L.mlp_bias = m.bias;
    L.rope = m.position == PositionKind::kRope, L.qk_norm = m.qk_norm, L.sandwich_norm = m.sandwich_norm;
    L.parallel_residual = m.parallel_residual, L.parallel_shared_norm = m.parallel_shared_norm;
    L.softmax = llama || m.llama_upcasts ? SoftmaxStyle::kFp32ThenCast : SoftmaxStyle::kTyped;
    L.encoder_out = enc, L.encoder_tokens = TE, L.encoder_seq = m.encoder_positions;
    L.ln1 = llama ? ".input_layernorm" : ".ln_1";
    L.ln2 = llama || m.parallel_residual ? ".post_attention_layernorm" : ".ln_2";
    L.post_attn_norm = ".post_attention_layernorm", L.pre_mlp_norm = ".pre_feedforward_layernorm";
    L.post_mlp_norm = ".post_feedforward_layernorm";
    L.q = module_name(m, ParamRole::kQ, ".self_attn.q_proj");
    L.k = module_name(m, ParamRole::kK, ".self_attn.k_proj");
    L.v = module_name(m, ParamRole::kV, ".self_attn.v_proj");
    L.qkv = module_name(m, ParamRole::kQkv, ".attn.c_attn");
    L.o = module_name(m, ParamRole::kO, llama ? ".self_attn.o_proj" : ".attn.c_proj");
    L.attn_dropout = ".attn.resid_dropout", L.mlp_dropout = ".mlp.dropout";
    L.fc1 = module_name(m, ParamRole::kFc1, ".mlp.c_fc"), L.act = ".mlp.act", L.fc2 = module_name(m, ParamRole::kFc2, ".mlp.c_proj");
    L.gate = module_name(m, ParamRole::kGate, ".mlp.gate_proj");
    L.up = module_name(m, ParamRole::kUp, ".mlp.up_proj");
    L.down = module_name(m, ParamRole::kDown, ".mlp.down_proj");
    L.router = module_name(m, ParamRole::kRouter, ".block_sparse_moe.gate");
    for (int i = 0; i < m.layers; ++i) {
        B.begin_block(m.encoder_layers + i, x);
        x = transformer_block(B, m, L, idx("layers", i), i, x, eager);
    }
    B.block = -1;
    if (m.final_norm) x = llama ? B.rms_norm("norm", x, T, h) : B.layer_norm("ln_f", x, T, h);
    if (e != h) x = B.linear("project_out", x, T, h, e, false, ParamRole::kOther);
    if (!m.lm_head) return;
    // lm_head (tied: no new parameters), then the shifted cross-entropy. Llama upcasts logits with .float();
    // log_softmax keeps b x (s-1) x vocab (fp32 for Llama; autocast's fp32 list for GPT-2). Under tensor
    // parallelism the head is column-parallel over the vocabulary and the loss vocab-parallel (Megatron-LM's
    // vocab_parallel_cross_entropy): the logits and the loss's tensors are split too.
    B.tp_region = true;
    B.g.logits_tp_split = true;
    Layer& lm = B.layer("lm_head", OpKind::kMatmul);
    lm.params = (m.tied_embeddings ? 0 : double(m.vocab) * e) + (m.lm_head_bias ? m.vocab : 0);
    lm.param_matrices = m.tied_embeddings ? 0 : 1;
    lm.param_vectors = m.lm_head_bias ? 1 : 0;  // Phi's lm_head bias (vocab values)
    lm.tied = m.tied_embeddings;
    lm.matmul_weight_params = double(m.vocab) * e;
    lm.in_features = e;
    lm.out_features = m.vocab;
    lm.tokens = T;
    lm.role = ParamRole::kHead;
    lm.backbone = false;
    lm.forward_flop = 2.0 * T * e * m.vocab;
    B.note_param_tensor(double(m.vocab) * e);
    B.save(lm, B.tensor(T * e, R::kMatmulInput, x), F::kWeightGrad);
    if (m.final_logit_softcapping > 0) {
        // Gemma2ForCausalLM: logits / cap, tanh, * cap on the lm_head output before .float(): tanh keeps its result.
        Layer& cap = B.layer("final_logit_softcapping", OpKind::kElementwise);
        B.save(cap, B.tensor(T * double(m.vocab), R::kActivation), F::kInputGrad);
        cap.bytes_moved_elements = 2 * T * double(m.vocab);
    }
    const double shifted = B.b * double(seq - 1) * m.vocab;
    Layer& loss = B.layer("loss", OpKind::kReduction);
    B.save(loss, B.tensor(shifted, llama || m.llama_upcasts ? R::kFp32 : R::kAutocastFp32), F::kInputGrad);
    B.save(loss, B.tensor(B.b * double(seq - 1), R::kInt64), F::kInputGrad);
    loss.bytes_moved_elements = 3 * shifted;
    B.head_loss(B.b * double(seq) * m.vocab);
}

// ---- BiLSTM-CRF --------------------------------------------------------------------------------------------
// The word-level tagger of Lample et al. 2016 (arXiv 1603.01360, sec. 2) as it is written in PyTorch:
// nn.Embedding -> nn.Dropout -> nn.LSTM(bidirectional=True, batch_first=True) -> nn.Linear(2h, tags) -> the
// negative log-likelihood of pytorch-crf 0.7's CRF (kmkurn/pytorch-crf torchcrf/__init__.py). On CUDA nn.LSTM is one
// cuDNN call (aten/src/ATen/native/cudnn/RNN.cpp _cudnn_rnn); docs/memory-model.md "BiLSTM-CRF" lists what is
// assumed where cuDNN is opaque.
void build_bilstm_crf(Builder& B, const ModelSpec& m, int seq) {
    assert(m.vocab > 0 && m.embed_dim > 0 && m.lstm_hidden > 0 && m.tags > 0 &&
           "build_bilstm_crf: set vocab, embed_dim, lstm_hidden and tags on the ModelSpec (see data/models.json)");
    const int e = m.embed_dim, h = m.lstm_hidden, k = m.tags;
    const int dirs = 2;                 // bidirectional
    const double T = B.b * seq;         // tokens per micro-batch
    const std::int32_t ids = B.tensor(T, R::kInt64);
    std::int32_t x = embedding(B, "embedding", T, m.vocab, e, ids);
    // Lample et al. sec. 4.3: dropout (0.5) on the embeddings just before the BiLSTM.
    x = B.dropout("dropout", x, T * e, m.dropout, R::kAutocastFp32);

    B.begin_block(0, x);  // torch.utils.checkpoint around the LSTM keeps its input
    const std::int32_t out = B.tensor(T * dirs * h, R::kActivation);  // (b, s, 2h): both directions' h_t
    {
        Layer& l = B.layer("lstm", OpKind::kMatmul);
        // torch.nn.LSTM parameters (docs: weight_ih_l0 (4h, in), weight_hh_l0 (4h, h), bias_ih_l0 and bias_hh_l0
        // (4h) each, the same again for *_reverse): per direction 4h(in + h) + 8h.
        const double per_dir = 4.0 * h * (e + h) + 8.0 * h;
        l.params = dirs * per_dir;
        l.param_matrices = 2 * dirs, l.param_vectors = 2 * dirs;
        // Under autocast, _cudnn_rnn_cast_reflatten (aten/src/ATen/autocast/AutocastRNN.cpp) copies all of them,
        // biases included, into one fp16 flat buffer, which _cudnn_rnn keeps for backward as weight_buf.
        l.matmul_weight_params = dirs * per_dir;
        l.tokens = T;
        l.role = ParamRole::kOther;
        B.note_param_tensor(4.0 * h * std::max(e, h));
        // Forward FLOPs, 2 per multiply-add: per token and direction the gate pre-activations W_ih x_t + W_hh h_(t-1)
        // are 4h x (in + h) multiply-adds (the gate nonlinearities are not counted).
        l.forward_flop = dirs * 2.0 * 4.0 * h * (double(e) + h) * T;
        // _cudnn_rnn_backward's arguments (tools/autograd/derivatives.yaml): input, hx, cx, weight_buf, output
        // (result0) and the reserve space (result3). One derivative formula covers input, hx, cx and weights,
        // so all are saved as soon as any of them needs a gradient (kAny).
        //  - input: cast to fp16 under autocast (cached_cast(kHalf, input) in AutocastRNN.cpp: also under bf16
        //    autocast, 2 bytes either way), else the dropout output itself;
        B.save(l, B.tensor(T * e, R::kMatmulInput, x), F::kAny);
        //  - hx, cx: nn.LSTM passes zeros(layers x dirs, b, h) for each (torch/nn/modules/rnn.py LSTM.forward);
        B.save(l, B.tensor(2.0 * dirs * B.b * h, R::kActivation), F::kAny);
        //  - reserve: cudnnGetRNNTrainingReserveSize returns an opaque byte count (no formula is documented). It
        //    is modelled as what the LSTM backward needs per time step and direction: the four gate activations
        //    (i, f, g, o) and the cell state c_t, 5h values in the RNN's dtype. This is exactly what PyTorch's
        //    own CUDA fallback keeps (aten/src/ATen/native/cuda/RNN.cu, _thnn_fused_lstm_cell: workspace
        //    (b, 4h) gates + cy (b, h) per step). Not measured on a GPU: see docs/memory-model.md.
        B.save(l, B.tensor(dirs * 5.0 * T * h, R::kActivation), F::kAny);
        //  - output (result0).
        B.save(l, out, F::kAny);
        l.bytes_moved_elements = T * (double(e) + dirs * h) + dirs * 5.0 * T * h;
    }
    B.block = -1;
    // hidden2tag. With batch_first the LSTM output is a transposed view (RNN.cpp: output.transpose_(0, 1)); the
    // 3-D non-contiguous input sends F.linear to matmul, which folds it into a 2-D mm when the weight requires
    // grad, copying it (aten/src/ATen/native/LinearAlgebra.cpp should_fold: "we do incur an extra copy"): mm
    // saves that new (b*s, 2h) copy, not the LSTM output (source -1: a new storage).
    B.linear("hidden2tag", -1, T, dirs * h, k, true, ParamRole::kHead, false);
    {
        // pytorch-crf 0.7 CRF: transitions (k, k), start_transitions (k), end_transitions (k).
        Layer& c = B.layer("crf", OpKind::kReduction);
        c.params = double(k) * k + 2.0 * k;
        c.param_matrices = 1, c.param_vectors = 2;
        c.role = ParamRole::kHead;
        c.backbone = false;
        B.note_param_tensor(double(k) * k);
        // _compute_normalizer, for each step i = 1 .. s-1: next_score = score[:, :, None] + transitions +
        // emissions[i][:, None, :] is (b, k, k); torch.logsumexp(next_score, 1) saves its input and its (b, k)
        // result (derivatives.yaml logsumexp_backward(grad, self, result, dim, keepdim)). fp32 under autocast
        // (bf16/fp16 emissions + fp32 transitions promote to fp32; logsumexp is on autocast's fp32 list),
        // 2 bytes under pure bf16: kAutocastFp32.
        const double steps = std::max(0, seq - 1);
        B.save(c, B.tensor(steps * B.b * (double(k) * k + k), R::kAutocastFp32), F::kAny);
        // torch.where(mask[i], next_score, score) saves the condition: views of the (b, s) bool mask.
        B.save(c, B.tensor(T, R::kBool), F::kAny);
        // _compute_score: the index ops keep their indices (the (b, s) int64 tags, and a new torch.arange(b)
        // per step) and the muls by mask[i] keep views of mask.float() (b, s) fp32.
        B.save(c, B.tensor(T, R::kInt64), F::kAny);
        B.save(c, B.tensor(T, R::kInt64), F::kAny);
        B.save(c, B.tensor(T, R::kFp32), F::kAny);
        // Bandwidth: per step two broadcast adds write (b, k, k), logsumexp reads it back and writes (b, k).
        c.bytes_moved_elements = steps * B.b * (4.0 * k * k + 3.0 * k) + 2.0 * T * k;
    }
    // No softmax over a vocabulary: the CRF's loss temporaries are the (b, k, k) step tensors above.
    B.head_loss(0);
}

}  // namespace

bool has_input_encoders(const ModelSpec& spec) {
    return spec.family == Family::kSdUnet && (spec.vae_base_channels > 0 || !spec.text_encoders.empty());
}

Graph build_input_encoders(const ModelSpec& spec, const WorkloadShape& shape, const BuildOptions& options,
                           InputEncoders which) {
    Builder B;
    B.b = shape.batch;
    B.g.batch = shape.batch;
    if (!has_input_encoders(spec)) return std::move(B.g);
    const int image = shape.image_size > 0 ? shape.image_size : spec.default_image_size;
    if (spec.vae_base_channels > 0 && which != InputEncoders::kText)
        build_vae_encoder(B, spec, image, options.eager_attention);
    if (which != InputEncoders::kVae)
        for (std::size_t i = 0; i < spec.text_encoders.size(); ++i)
            build_clip_text(B, i == 0 ? "text_encoder" : "text_encoder_" + std::to_string(i + 1),
                            spec.text_encoders[i], options.eager_attention);
    for (Layer& l : B.g.layers) l.backbone = true, l.block = -1;  // frozen: no backward, no optimizer
    B.g.block_count = 0;
    return std::move(B.g);
}

static double text_encoder_params(const ModelSpec& spec) {
    WorkloadShape s;
    s.batch = 1;
    s.image_size = 64;  // parameters do not depend on the shape
    return build_input_encoders(spec, s, BuildOptions{}, InputEncoders::kText).params_total();
}

double input_encoder_params(const ModelSpec& spec) {
    if (!has_input_encoders(spec)) return 0;
    WorkloadShape s;
    s.batch = 1;
    s.image_size = 64;  // parameters do not depend on the shape
    double params = build_input_encoders(spec, s, BuildOptions{}).params_total();
    if (spec.vae_base_channels > 0) {
        Builder B;
        build_vae_decoder(B, spec, 8, false);
        params += B.g.params_total();
    }
    return params;
}

// ---- dispatch --------------------------------------------------------------------------------------------------
Graph build_graph(const ModelSpec& spec, const WorkloadShape& shape, const BuildOptions& options) {
    Builder B;
    B.b = shape.batch;
    B.g.batch = shape.batch;
    const int image = shape.image_size > 0 ? shape.image_size : spec.default_image_size;
    const int seq = shape.seq_len > 0 ? shape.seq_len : spec.default_seq_len;
    switch (spec.family) {
        case Family::kResNet:
            if (spec.widen > 0) build_wide_resnet(B, spec, image);
            else build_resnet(B, spec, image);
            break;
        case Family::kVgg: build_vgg16(B, spec, image); break;
        case Family::kMobileNetV2: build_mobilenet_v2(B, spec, image); break;
        case Family::kEfficientNetB0: build_efficientnet_b0(B, spec, image); break;
        case Family::kUnet: build_unet(B, spec, image); break;
        case Family::kSdUnet:
            build_sd_unet(B, spec, image, options.eager_attention);
            if (has_input_encoders(spec)) {
                const double all = input_encoder_params(spec);
                const double vae = spec.vae_fp32 ? all - text_encoder_params(spec) : 0;
                B.g.input_encoder_params = all - vae;
                B.g.input_encoder_fp32_params = vae;
                // The VAE encoder's forward holds, at its first resnets' residual add, the block input, the branch
                // output and their sum: 3 maps of block_out_channels[0] x image^2 (no_grad frees the rest).
                B.g.input_encoder_transient_elements = 3.0 * spec.vae_base_channels * double(image) * image;
                // Under eager attention its mid-block attention (one head over the (image/8)^2 positions) builds
                // the scores and, as the block is made with upcast_softmax=True, takes the softmax in fp32: fp32
                // scores and fp32 probabilities at once, 2 x T^2 fp32 values (diffusers attention_processor.py,
                // Attention.get_attention_scores: baddbmm, .float(), softmax, del scores, .to(dtype)); SDPA's
                // fused kernels keep neither.
                const double mid_tokens = double(image / 8) * double(image / 8);
                if (options.eager_attention) B.g.input_encoder_attention_fp32_elements = 2.0 * mid_tokens * mid_tokens;
            }
            break;
        case Family::kYolo:
            if (spec.yolo_version == 5) build_yolov5(B, spec, image);
            else build_yolov8(B, spec, image);
            break;
        case Family::kVit: build_vit(B, spec, image, options.eager_attention); break;
        case Family::kEncoder: build_encoder(B, spec, seq, options.eager_attention); break;
        case Family::kDecoder: build_decoder(B, spec, seq, options.eager_attention); break;
        case Family::kBiLstmCrf: build_bilstm_crf(B, spec, seq); break;
        default:
            assert(false && "build_graph: family without a builder; check model_available() before building");
            break;
    }
    int max_block = -1;
    for (const Layer& l : B.g.layers) max_block = std::max(max_block, int(l.block));
    B.g.block_count = max_block + 1;
    return std::move(B.g);
}

double count_params(const ModelSpec& spec) {
    // Parameters do not depend on the shape: build at the smallest legal shape.
    WorkloadShape s;
    s.batch = 1;
    s.image_size = spec.is_vision ? std::max(spec.family == Family::kUnet ? 32 : 32, spec.patch > 0 ? spec.patch : 32) : 0;
    if (spec.family == Family::kVit) s.image_size = spec.image_size > 0 ? spec.image_size : spec.default_image_size;
    if (spec.family == Family::kUnet) s.image_size = std::max(32, 1 << spec.unet_depth);
    if (spec.family == Family::kSdUnet) s.image_size = 8 << spec.channel_mult.size();
    s.seq_len = spec.is_vision ? 0 : 2;
    return build_graph(spec, s, BuildOptions{}).params_total();
}

}  // namespace gg::engine
