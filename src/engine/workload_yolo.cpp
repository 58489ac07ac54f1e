// Layer graphs of the YOLO detectors (ultralytics YOLOv5 v6+ and YOLOv8): Conv-BN-SiLU backbones, necks and
// detection heads.
#include "engine/workload_detail.h"

namespace gg::engine::workload_detail {

namespace {

// Ultralytics' Conv module in both YOLOv5 and YOLOv8: Conv2d (no bias, "same" padding) + BatchNorm2d + SiLU.
Spatial conv_bn_silu(Builder& B, const std::string& n, Spatial x, int c2, int k, int s) {
    return B.silu(n + ".act", B.bn(n + ".bn", B.conv(n + ".conv", x, c2, k, s, k / 2, 1, false)));
}

// torch.cat along channels: every element read and written once; the result is a new activation.
Spatial concat_channels(Builder& B, const std::string& n, const std::vector<Spatial>& parts) {
    int c = 0;
    for (const Spatial& p : parts) c += p.c;
    Layer& l = B.layer(n, OpKind::kElementwise);
    const double el = B.b * double(c) * parts[0].h * parts[0].w;
    l.bytes_moved_elements = 2 * el;
    return Spatial{B.tensor(el, R::kActivation), c, parts[0].h, parts[0].w};
}

}  // namespace

// YOLOv5 v6+ (ultralytics/yolov5 models/yolov5s.yaml, models/common.py): Conv = Conv2d (no bias) + BN + SiLU;
// C3 = cv3(cat(Bottlenecks(cv1(x)), cv2(x))); SPPF = cv2(cat(x, m(x), m(m(x)), m(m(m(x))))) with 5x5 max-pools;
// nearest upsampling and concatenations save nothing; Detect = a 1x1 conv with bias to 3 x (classes + 5) per level.
void build_yolov5(Builder& B, const ModelSpec& m, int image) {
    auto ch = [&](int c) { return std::max(8, int(std::ceil(c * m.width_multiple / 8.0)) * 8); };
    auto depth = [&](int n) { return n > 1 ? std::max(int(std::lround(n * m.depth_multiple)), 1) : n; };
    int blk = 0;
    auto conv = [&](const std::string& n, Spatial x, int c2, int k, int s) {
        return conv_bn_silu(B, n, x, c2, k, s);
    };
    auto cat = [&](const std::string& n, const std::vector<Spatial>& parts) { return concat_channels(B, n, parts); };
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
        return conv_bn_silu(B, n, x, c2, k, s);
    };
    auto cat = [&](const std::string& n, const std::vector<Spatial>& parts) { return concat_channels(B, n, parts); };
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

}  // namespace gg::engine::workload_detail
