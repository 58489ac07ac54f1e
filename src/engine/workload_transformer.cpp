// Layer graphs of the transformer families: ViT, BERT-style encoders, decoders (GPT-2, the Llama family and the
// Hugging Face config.json variants, Whisper's encoder-decoder), and the embedding lookup they share.
#include "engine/workload_detail.h"

namespace gg::engine::workload_detail {

namespace {

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

}  // namespace

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

}  // namespace gg::engine::workload_detail
