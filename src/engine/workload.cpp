// The engine's layer graph (workload.h): Graph's totals, and build_graph, which dispatches to the family builders
// (workload_cnn.cpp, workload_yolo.cpp, workload_transformer.cpp, workload_diffusion.cpp, workload_rnn.cpp; the
// Builder and the shared transformer block are in workload_detail.h, workload_transformer_block.cpp). The saved
// tensors follow the eager code paths of torchvision 0.14 and transformers v4.39 (as mirrored in
// tools/measure/hf_minimal.py); each builder names the ops whose backward keeps a tensor. No JSON, no UI.
#include "engine/workload.h"

#include <algorithm>
#include <cassert>

#include "engine/workload_detail.h"

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

using namespace workload_detail;

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
