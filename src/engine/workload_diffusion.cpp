// Layer graphs of Stable Diffusion training: the denoising U-Net (diffusers UNet2DConditionModel) and its frozen
// input encoders (AutoencoderKL's encoder and decoder, the CLIP text encoders).
#include "engine/workload_detail.h"

namespace gg::engine::workload_detail {

namespace {

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

// Stable Diffusion UNets (diffusers UNet2DConditionModel, models/unets/unet_2d_blocks.py, resnet.py,
// attention.py, attention_processor.py AttnProcessor2_0). Latent = image / 8. GroupNorm (autocast fp32 list) saves
// its input and fp32 mean/rstd per group; SiLU saves its input; ResnetBlock2D = GN, SiLU, conv, + time projection,
// GN, SiLU, conv (+ 1x1 shortcut); Transformer2DModel = GN, proj_in, BasicTransformerBlocks (LN, self-attention,
// LN, cross-attention to the frozen text states, LN, GEGLU feed-forward), proj_out, + residual.
struct SdUnet {
    Builder& B;
    const ModelSpec& m;
    bool eager;
    int temb;                 // the time embedding's width (4 x the first level's channels)
    int ctx_len;              // the text encoder's tokens
    double ctx_tokens;        // b x ctx_len
    std::int32_t context;     // the text encoder's output (frozen: precomputed or run under no_grad)
    int blk = 0;              // the next checkpointed block

    Spatial add_sp(Spatial x) {
        return Spatial{B.add(x.t, B.b * double(x.c) * x.h * x.w, R::kAutocastFp32), x.c, x.h, x.w};
    }
    Spatial resnet(const std::string& n, Spatial x, int cout) {
        B.begin_block(blk++, x.t);
        Spatial h = B.conv(n + ".conv1", B.silu(n + ".act1", group_norm32(B, n + ".norm1", x)), cout, 3, 1, 1, 1, true);
        // time_emb_proj(silu(temb)): a b x cout bias broadcast over the map (add saves nothing)
        B.linear(n + ".time_emb_proj", B.tensor(B.b * temb, R::kAutocastFp32), B.b, temb, cout, true, ParamRole::kOther);
        h = add_sp(h);
        h = B.conv(n + ".conv2", B.silu(n + ".act2", group_norm32(B, n + ".norm2", h)), cout, 3, 1, 1, 1, true);
        if (x.c != cout) B.conv(n + ".conv_shortcut", x, cout, 1, 1, 0, 1, true);  // saves x (block input)
        return add_sp(h);
    }
    // One BasicTransformerBlock on the T x c rows `h`: self-attention, cross-attention to the text, GEGLU.
    std::int32_t basic_block(const std::string& tb, std::int32_t h, double T, int c, int heads, int seq) {
        const int d = c / heads;
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
        return B.add(h, T * c);
    }
    Spatial transformer(const std::string& n, Spatial x, int depth, int heads) {
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
        for (int i = 0; i < depth; ++i)
            h = basic_block(n + ".transformer_blocks." + std::to_string(i), h, T, c, heads, seq);
        if (m.linear_projection) {
            h = B.linear(n + ".proj_out", h, T, c, c, true, ParamRole::kOther);
        } else {
            h = B.conv(n + ".proj_out", Spatial{h, c, x.h, x.w}, c, 1, 1, 0, 1, true).t;
        }
        return add_sp(Spatial{h, c, x.h, x.w});
    }
    // time embedding (sinusoidal 320 -> 1280 -> 1280) and SDXL's added text/time embedding
    void time_embedding(int ch0) {
        B.linear("time_embedding.linear_1", B.tensor(B.b * ch0, R::kAutocastFp32), B.b, ch0, temb, true, ParamRole::kOther);
        B.linear("time_embedding.linear_2", B.tensor(B.b * temb, R::kAutocastFp32), B.b, temb, temb, true, ParamRole::kOther);
        if (m.addition_embed_dim > 0) {
            B.linear("add_embedding.linear_1", B.tensor(B.b * m.addition_embed_dim, R::kAutocastFp32), B.b,
                     m.addition_embed_dim, temb, true, ParamRole::kOther);
            B.linear("add_embedding.linear_2", B.tensor(B.b * temb, R::kAutocastFp32), B.b, temb, temb, true, ParamRole::kOther);
        }
    }
    // The down blocks: resnets (+ transformers), a strided conv between levels; `skip_channels` gets each output's channels.
    Spatial down(Spatial x, std::vector<int>& skip_channels) {
        const std::vector<int>& ch = m.channel_mult;  // block_out_channels
        const int levels = int(ch.size());
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
        return x;
    }
    // The up blocks: each resnet reads the concatenation with a down block's output, nearest 2x upsampling between
    // levels.
    Spatial up(Spatial x, std::vector<int>& skip_channels) {
        const std::vector<int>& ch = m.channel_mult;
        const int levels = int(ch.size());
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
                Layer& upsample = B.layer("up_blocks." + std::to_string(i) + ".upsample", OpKind::kElementwise);
                const double el = B.b * double(x.c) * x.h * 2 * x.w * 2;
                upsample.bytes_moved_elements = 1.25 * el;
                x = B.conv("up_blocks." + std::to_string(i) + ".upsamplers.0",
                           Spatial{B.tensor(el, R::kActivation), x.c, x.h * 2, x.w * 2}, x.c, 3, 1, 1, 1, true);
            }
        }
        return x;
    }
};

}  // namespace

void build_sd_unet(Builder& B, const ModelSpec& m, int image, bool eager) {
    const int latent = image / 8;
    const std::vector<int>& ch = m.channel_mult;  // block_out_channels
    const int levels = int(ch.size());
    const int temb = ch[0] * 4;
    const int ctx_len = 77;
    const double ctx_tokens = B.b * ctx_len;
    const std::int32_t context = B.tensor(ctx_tokens * m.context_dim, R::kAutocastFp32);  // text encoder output
    SdUnet u{B, m, eager, temb, ctx_len, ctx_tokens, context};
    u.time_embedding(ch[0]);
    Spatial x{B.tensor(B.b * double(m.latent_channels) * latent * latent, R::kAutocastFp32), m.latent_channels, latent, latent};
    x = B.conv("conv_in", x, ch[0], 3, 1, 1, 1, true);
    std::vector<int> skip_channels = {ch[0]};
    x = u.down(x, skip_channels);
    x = u.resnet("mid_block.resnets.0", x, ch[levels - 1]);
    x = u.transformer("mid_block.attentions.0", x, m.mid_transformer_depth, m.attention_heads[levels - 1]);
    x = u.resnet("mid_block.resnets.1", x, ch[levels - 1]);
    x = u.up(x, skip_channels);
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

}  // namespace gg::engine::workload_detail
