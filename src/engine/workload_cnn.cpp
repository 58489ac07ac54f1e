// Layer graphs of the image CNNs: ResNet (torchvision and the CIFAR stem), Wide ResNet, VGG-16, MobileNetV2,
// EfficientNet-B0, the U-Net, and the classifier head they share; torchvision 0.14's eager code paths.
#include "engine/workload_detail.h"

namespace gg::engine::workload_detail {

// ---- CNNs --------------------------------------------------------------------------------------------------
void classifier(Builder& B, std::int32_t x, int in, int classes, double p_dropout, const std::string& name) {
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

}  // namespace gg::engine::workload_detail
