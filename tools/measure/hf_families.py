#!/usr/bin/python3
# Saved activations of one small random-weight model per config.json family that hf_config.cpp reads, measured on
# the CPU the way saved_activations.py measures the presets (saved_tensors_hooks, deduplicated by storage, parameters
# and buffers excluded, CUDA's 1-byte dropout masks), and written as a validation case file whose scenarios hold the
# same config.json: tests/validation/measured_hf_activations.json. transformers is not installed: each family's
# module below mirrors its modeling_<type>.py eager forward op by op (transformers v4.46-v4.51, the versions
# hf_config.cpp follows), since the saved bytes depend on the ops.
# Usage: /usr/bin/python3 tools/measure/hf_families.py > tests/validation/measured_hf_activations.json
#        /usr/bin/python3 tools/measure/hf_families.py --case ID    (one case, raw JSON; run by main in a fresh process)
# Sections: shared pieces | decoders | encoders and vision | cases | main
import argparse
import datetime
import json
import math
import os
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = "tools/measure/hf_families.py"


# ------------------------------------------------------------------------------------------------ shared pieces
def modules():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class RMSNorm(nn.Module):  # LlamaRMSNorm (Qwen2/3, Mistral, Phi-3, DeepSeek alike)
        def __init__(self, h, eps=1e-6):
            super().__init__()
            self.weight, self.eps = nn.Parameter(torch.ones(h)), eps

        def forward(self, x):
            dt = x.dtype
            x = x.to(torch.float32)
            x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
            return self.weight * x.to(dt)

    class GemmaRMSNorm(nn.Module):  # modeling_gemma.py: output * (1.0 + weight.float()), then type_as(x)
        def __init__(self, h, eps=1e-6):
            super().__init__()
            self.weight, self.eps = nn.Parameter(torch.zeros(h)), eps

        def forward(self, x):
            out = x.float()
            out = out * torch.rsqrt(out.pow(2).mean(-1, keepdim=True) + self.eps)
            out = out * (1.0 + self.weight.float())
            return out.type_as(x)

    def rotate_half(x):
        x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
        return torch.cat((-x2, x1), dim=-1)

    def rope_cos_sin(dim, b, s, dtype, theta=10000.0):  # *RotaryEmbedding.forward, under no_grad
        with torch.no_grad():
            inv = 1.0 / (theta ** (torch.arange(0, dim, 2).float() / dim))
            pos = torch.arange(s)[None].expand(b, s)
            freqs = (inv[None, :, None].expand(b, -1, 1) @ pos[:, None, :].float()).transpose(1, 2)
            emb = torch.cat((freqs, freqs), dim=-1)
            return emb.cos().to(dtype).unsqueeze(1), emb.sin().to(dtype).unsqueeze(1)

    def repeat_kv(x, n):
        if n == 1:
            return x
        b, kvh, s, d = x.shape
        return x[:, :, None].expand(b, kvh, n, s, d).reshape(b, kvh * n, s, d)

    def causal_mask(b, s, dtype, window=0):
        m = torch.triu(torch.full((s, s), torch.finfo(dtype).min, dtype=dtype), diagonal=1)
        if window:  # sliding window: keys more than `window` back are masked too (the eager path still scores them)
            m = m + torch.tril(torch.full((s, s), torch.finfo(dtype).min, dtype=dtype), diagonal=-window)
            m = m.clamp(min=torch.finfo(dtype).min)
        return m[None, None].expand(b, 1, s, s)

    def eager_attention(q, k, v, mask, scaling, groups, softcap=None, dropout=0.0, training=True):
        # eager_attention_forward (modeling_llama.py v4.48+; the same ops as the per-model forwards before it)
        k, v = repeat_kv(k, groups), repeat_kv(v, groups)
        w = torch.matmul(q, k.transpose(2, 3)) * scaling
        if softcap is not None:  # Gemma 2: attn_logit_softcapping
            w = w / softcap
            w = torch.tanh(w)
            w = w * softcap
        if mask is not None:
            w = w + mask[:, :, :, : k.shape[-2]]
        w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        w = F.dropout(w, p=dropout, training=training)
        return torch.matmul(w, v).transpose(1, 2).contiguous()

    def lm_loss(logits, ids, final_softcap=None):
        # *ForCausalLM: Gemma 2's final_logit_softcapping on the lm_head output, logits.float() (upcast), then the
        # shifted cross_entropy (log_softmax keeps the fp32 (s - 1) x vocab output).
        if final_softcap is not None:
            logits = logits / final_softcap
            logits = torch.tanh(logits)
            logits = logits * final_softcap
        logits = logits.float()
        shift = logits[..., :-1, :].contiguous()
        return F.cross_entropy(shift.view(-1, shift.shape[-1]), ids[..., 1:].contiguous().view(-1))

    return dict(torch=torch, nn=nn, F=F, RMSNorm=RMSNorm, GemmaRMSNorm=GemmaRMSNorm, rotate_half=rotate_half,
                rope_cos_sin=rope_cos_sin, causal_mask=causal_mask, eager_attention=eager_attention, lm_loss=lm_loss)


# ----------------------------------------------------------------------------------------------------- decoders
def decoder(c):
    """LlamaForCausalLM-shaped decoders: llama, mistral, qwen2, qwen3 (q/k norm), gemma (GemmaRMSNorm, GeGLU, scaled
    embeddings), gemma2 (sandwich norms, soft-capping), gemma3_text (sandwich + q/k norm), phi3 (fused qkv_proj and
    gate_up_proj), qwen2_moe (routed + shared experts with a sigmoid gate), qwen3_moe (q/k norm, routed experts,
    renormalised top-k), mixtral (routed experts, renormalised top-k)."""
    M = modules()
    torch, nn, F = M["torch"], M["nn"], M["F"]
    t = c["model_type"]
    gemma = t.startswith("gemma")
    Norm = M["GemmaRMSNorm"] if gemma else M["RMSNorm"]
    h, L, nh = c["hidden_size"], c["num_hidden_layers"], c["num_attention_heads"]
    nkv = c.get("num_key_value_heads", nh)
    d = c.get("head_dim") or h // nh
    act = (lambda x: F.gelu(x, approximate="tanh")) if gemma else F.silu
    qkv_bias = t in ("qwen2", "qwen2_moe")

    class MLP(nn.Module):
        def __init__(self, width):
            super().__init__()
            if t == "phi3":  # Phi3MLP: gate_up_proj, chunk, up * act(gate)
                self.gate_up_proj = nn.Linear(h, 2 * width, bias=False)
            else:
                self.gate_proj = nn.Linear(h, width, bias=False)
                self.up_proj = nn.Linear(h, width, bias=False)
            self.down_proj = nn.Linear(width, h, bias=False)

        def forward(self, x):
            if t == "phi3":
                gate, up = self.gate_up_proj(x).chunk(2, dim=-1)
                return self.down_proj(up * act(gate))
            return self.down_proj(act(self.gate_proj(x)) * self.up_proj(x))

    class SparseMoe(nn.Module):
        """Qwen2MoeSparseMoeBlock (routed + shared experts, norm_topk_prob false), Qwen3MoeSparseMoeBlock (routed,
        norm_topk_prob from the config) and MixtralSparseMoeBlock (routed, top-k weights always renormalised):
        the same softmax, top-k and per-expert loop (modeling_qwen2_moe.py, modeling_qwen3_moe.py,
        modeling_mixtral.py)."""
        def __init__(self):
            super().__init__()
            self.E = c.get("num_experts") or c["num_local_experts"]
            self.K = c["num_experts_per_tok"]
            self.renorm = t == "mixtral" or (t == "qwen3_moe" and c.get("norm_topk_prob", False))
            self.gate = nn.Linear(h, self.E, bias=False)
            self.experts = nn.ModuleList([MLP(c.get("moe_intermediate_size") or c["intermediate_size"])
                                          for _ in range(self.E)])
            self.shared = t == "qwen2_moe"
            if self.shared:
                self.shared_expert = MLP(c["shared_expert_intermediate_size"])
                self.shared_expert_gate = nn.Linear(h, 1, bias=False)

        def forward(self, x):
            b, s, _ = x.shape
            x = x.view(-1, h)
            logits = self.gate(x)
            weights = F.softmax(logits, dim=1, dtype=torch.float)
            weights, selected = torch.topk(weights, self.K, dim=-1)
            if self.renorm:
                weights /= weights.sum(dim=-1, keepdim=True)
            weights = weights.to(x.dtype)
            out = torch.zeros((b * s, h), dtype=x.dtype)
            mask = F.one_hot(selected, num_classes=self.E).permute(2, 1, 0)
            for e in range(self.E):
                idx, top_x = torch.where(mask[e])
                cur = x[None, top_x].reshape(-1, h)
                cur = self.experts[e](cur) * weights[top_x, idx, None]
                out.index_add_(0, top_x, cur.to(x.dtype))
            if self.shared:
                shared = self.shared_expert(x)
                out = out + F.sigmoid(self.shared_expert_gate(x)) * shared
            return out.reshape(b, s, h)

    class Layer(nn.Module):
        def __init__(self, i):
            super().__init__()
            self.i = i
            if t == "phi3":
                self.qkv_proj = nn.Linear(h, nh * d + 2 * nkv * d, bias=False)
            else:
                self.q_proj = nn.Linear(h, nh * d, bias=qkv_bias)
                self.k_proj = nn.Linear(h, nkv * d, bias=qkv_bias)
                self.v_proj = nn.Linear(h, nkv * d, bias=qkv_bias)
            self.o_proj = nn.Linear(nh * d, h, bias=False)
            self.qk_norm = t in ("qwen3", "qwen3_moe", "gemma3_text")
            if self.qk_norm:
                self.q_norm, self.k_norm = Norm(d), Norm(d)
            self.input_layernorm, self.post_attention_layernorm = Norm(h), Norm(h)
            self.sandwich = t in ("gemma2", "gemma3_text")
            if self.sandwich:
                self.pre_feedforward_layernorm, self.post_feedforward_layernorm = Norm(h), Norm(h)
            self.mlp = SparseMoe() if t in ("qwen2_moe", "qwen3_moe", "mixtral") else MLP(c["intermediate_size"])

        def forward(self, x, cos, sin, mask):
            b, s, _ = x.shape
            r = x
            y = self.input_layernorm(x)
            if t == "phi3":
                qkv = self.qkv_proj(y)
                q, k, v = qkv[..., : nh * d], qkv[..., nh * d: nh * d + nkv * d], qkv[..., nh * d + nkv * d:]
            else:
                q, k, v = self.q_proj(y), self.k_proj(y), self.v_proj(y)
            q, k, v = q.view(b, s, -1, d), k.view(b, s, -1, d), v.view(b, s, -1, d)
            if self.qk_norm:
                q, k = self.q_norm(q), self.k_norm(k)
            q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
            q = (q * cos) + (M["rotate_half"](q) * sin)
            k = (k * cos) + (M["rotate_half"](k) * sin)
            scaling = c.get("query_pre_attn_scalar", d) ** -0.5 if gemma else d ** -0.5
            a = M["eager_attention"](q, k, v, mask, scaling, nh // nkv, c.get("attn_logit_softcapping"))
            y = self.o_proj(a.reshape(b, s, -1))
            if self.sandwich:
                y = self.post_attention_layernorm(y)
                x = r + y
                y = self.post_feedforward_layernorm(self.mlp(self.pre_feedforward_layernorm(x)))
                return x + y
            x = r + y
            return x + self.mlp(self.post_attention_layernorm(x))

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed_tokens = nn.Embedding(c["vocab_size"], h)
            self.layers = nn.ModuleList([Layer(i) for i in range(L)])
            self.norm = Norm(h)
            self.lm_head = nn.Linear(h, c["vocab_size"], bias=False)
            if c.get("tie_word_embeddings", gemma):
                self.lm_head.weight = self.embed_tokens.weight

        def forward(self, ids):
            b, s = ids.shape
            x = self.embed_tokens(ids)
            if gemma:  # hidden_states * normalizer (sqrt(hidden_size) as a tensor of the hidden dtype)
                x = x * torch.tensor(h ** 0.5, dtype=x.dtype)
            cos, sin = M["rope_cos_sin"](d, b, s, x.dtype)
            window = c.get("sliding_window") or 0
            for i, layer in enumerate(self.layers):
                slides = (t in ("mistral", "phi3") or (t == "gemma2" and i % 2 == 0) or
                          (t == "gemma3_text" and (i + 1) % c.get("sliding_window_pattern", 6) != 0))
                x = layer(x, cos, sin, M["causal_mask"](b, s, x.dtype, window if slides else 0))
            return M["lm_loss"](self.lm_head(self.norm(x)), ids, c.get("final_logit_softcapping"))

    return Model()


def gpt_neox(c):
    """GPTNeoXForCausalLM (modeling_gpt_neox.py): fused query_key_value (bias), rotary on rotary_pct of each head,
    parallel residual x + attn(ln1(x)) + mlp(ln2(x)), GELU MLP, untied embed_out."""
    M = modules()
    torch, nn, F = M["torch"], M["nn"], M["F"]
    h, nh = c["hidden_size"], c["num_attention_heads"]
    d = h // nh
    rot = int(d * c.get("rotary_pct", 0.25))

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.input_layernorm, self.post_attention_layernorm = nn.LayerNorm(h), nn.LayerNorm(h)
            self.query_key_value = nn.Linear(h, 3 * h)
            self.dense = nn.Linear(h, h)
            self.dense_h_to_4h = nn.Linear(h, c["intermediate_size"])
            self.dense_4h_to_h = nn.Linear(c["intermediate_size"], h)

        def forward(self, x, cos, sin, mask):
            b, s, _ = x.shape
            qkv = self.query_key_value(self.input_layernorm(x)).view(b, s, nh, 3 * d).transpose(1, 2)
            q, k, v = qkv[..., :d], qkv[..., d: 2 * d], qkv[..., 2 * d:]
            q_rot, q_pass, k_rot, k_pass = q[..., :rot], q[..., rot:], k[..., :rot], k[..., rot:]
            q_rot = (q_rot * cos) + (M["rotate_half"](q_rot) * sin)
            k_rot = (k_rot * cos) + (M["rotate_half"](k_rot) * sin)
            q, k = torch.cat((q_rot, q_pass), dim=-1), torch.cat((k_rot, k_pass), dim=-1)
            a = M["eager_attention"](q, k, v, mask, d ** -0.5, 1)
            attn = self.dense(a.reshape(b, s, h))
            mlp = self.dense_4h_to_h(F.gelu(self.dense_h_to_4h(self.post_attention_layernorm(x))))
            return mlp + attn + x

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed_in = nn.Embedding(c["vocab_size"], h)
            self.layers = nn.ModuleList([Layer() for _ in range(c["num_hidden_layers"])])
            self.final_layer_norm = nn.LayerNorm(h)
            self.embed_out = nn.Linear(h, c["vocab_size"], bias=False)

        def forward(self, ids):
            b, s = ids.shape
            x = self.embed_in(ids)
            cos, sin = M["rope_cos_sin"](rot, b, s, x.dtype)
            for layer in self.layers:
                x = layer(x, cos, sin, M["causal_mask"](b, s, x.dtype))
            return M["lm_loss"](self.embed_out(self.final_layer_norm(x)), ids)

    return Model()


def phi(c):
    """PhiForCausalLM (modeling_phi.py, transformers v4.48+): embed_dropout (embd_pdrop); per layer one
    input_layernorm (LayerNorm) feeding both the attention and the MLP; q_proj, k_proj, v_proj (bias), rotary on the
    first int(head_dim x partial_rotary_factor) of each head of q and k (cat with the rest), eager_attention_forward
    (fp32 softmax, attention_dropout on the probabilities), dense (bias); fc1, NewGELUActivation written out as
    transformers activations.py does, fc2; resid_dropout (resid_pdrop) on the attention and on the MLP output, then
    attn + mlp + residual; final_layernorm and lm_head with bias; LlamaForCausalLM's loss (logits.float())."""
    M = modules()
    torch, nn, F = M["torch"], M["nn"], M["F"]
    h, nh = c["hidden_size"], c["num_attention_heads"]
    nkv = c.get("num_key_value_heads") or nh
    d = h // nh
    rot = int(d * c.get("partial_rotary_factor", 0.5))
    eps = c.get("layer_norm_eps", 1e-5)

    def gelu_new(x):  # activations.py NewGELUActivation
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.input_layernorm = nn.LayerNorm(h, eps=eps)
            self.q_proj = nn.Linear(h, nh * d)
            self.k_proj = nn.Linear(h, nkv * d)
            self.v_proj = nn.Linear(h, nkv * d)
            self.dense = nn.Linear(nh * d, h)
            self.fc1 = nn.Linear(h, c["intermediate_size"])
            self.fc2 = nn.Linear(c["intermediate_size"], h)
            self.resid_dropout = nn.Dropout(c.get("resid_pdrop", 0.0))

        def forward(self, x, cos, sin, mask):
            b, s, _ = x.shape
            r = x
            y = self.input_layernorm(x)
            q = self.q_proj(y).view(b, s, -1, d).transpose(1, 2)
            k = self.k_proj(y).view(b, s, -1, d).transpose(1, 2)
            v = self.v_proj(y).view(b, s, -1, d).transpose(1, 2)
            q_rot, q_pass, k_rot, k_pass = q[..., :rot], q[..., rot:], k[..., :rot], k[..., rot:]
            q_rot = (q_rot * cos) + (M["rotate_half"](q_rot) * sin)
            k_rot = (k_rot * cos) + (M["rotate_half"](k_rot) * sin)
            q, k = torch.cat((q_rot, q_pass), dim=-1), torch.cat((k_rot, k_pass), dim=-1)
            a = M["eager_attention"](q, k, v, mask, d ** -0.5, nh // nkv, dropout=c.get("attention_dropout", 0.0))
            attn = self.resid_dropout(self.dense(a.reshape(b, s, -1).contiguous()))
            ff = self.resid_dropout(self.fc2(gelu_new(self.fc1(y))))
            return attn + ff + r

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed_tokens = nn.Embedding(c["vocab_size"], h)
            self.embed_dropout = nn.Dropout(c.get("embd_pdrop", 0.0))
            self.layers = nn.ModuleList([Layer() for _ in range(c["num_hidden_layers"])])
            self.final_layernorm = nn.LayerNorm(h, eps=eps)
            self.lm_head = nn.Linear(h, c["vocab_size"], bias=True)

        def forward(self, ids):
            b, s = ids.shape
            x = self.embed_dropout(self.embed_tokens(ids))
            cos, sin = M["rope_cos_sin"](rot, b, s, x.dtype)
            for layer in self.layers:
                x = layer(x, cos, sin, M["causal_mask"](b, s, x.dtype))
            return M["lm_loss"](self.lm_head(self.final_layernorm(x)), ids)

    return Model()


def opt(c):
    """OPTForCausalLM (modeling_opt.py, transformers v4.46-v4.51, eager attention): embed_tokens word_embed_proj_dim
    wide, OPTLearnedPositionalEmbedding (max_position_embeddings + 2 rows) looked up at cumsum(attention_mask) *
    attention_mask - 1 plus the offset 2 (b x s ids), project_in when word_embed_proj_dim differs from hidden_size,
    inputs_embeds + pos_embeds (no embedding dropout); per layer: self_attn_layer_norm before the attention
    (do_layer_norm_before) or after the residual add; q_proj(x) * head_dim^-0.5, k_proj, v_proj (bias: enable_bias),
    matmul(q, k^T) + causal mask, softmax in fp32 cast back, dropout(attention_dropout), matmul with v, out_proj,
    dropout(dropout), residual; then rows reshaped to (b s) x h, final_layer_norm before (or after) fc1, ReLU, fc2,
    dropout(dropout), residual; the decoder's final_layer_norm (pre-LN only), project_out, lm_head tied to
    embed_tokens; the loss upcasts the logits (logits.float()) and shifts."""
    M = modules()
    torch, nn, F = M["torch"], M["nn"], M["F"]
    h, nh, ffn = c["hidden_size"], c["num_attention_heads"], c["ffn_dim"]
    d = h // nh
    e = c.get("word_embed_proj_dim") or h
    pre = c.get("do_layer_norm_before", True)
    p, p_attn = c.get("dropout", 0.1), c.get("attention_dropout", 0.0)
    bias = c.get("enable_bias", True)

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.k_proj, self.v_proj = nn.Linear(h, h, bias=bias), nn.Linear(h, h, bias=bias)
            self.q_proj, self.out_proj = nn.Linear(h, h, bias=bias), nn.Linear(h, h, bias=bias)
            self.self_attn_layer_norm, self.final_layer_norm = nn.LayerNorm(h), nn.LayerNorm(h)
            self.fc1, self.fc2 = nn.Linear(h, ffn, bias=bias), nn.Linear(ffn, h, bias=bias)

        def forward(self, x, mask):
            b, s, _ = x.shape
            r = x
            if pre:
                x = self.self_attn_layer_norm(x)
            q = (self.q_proj(x) * d ** -0.5).view(b, -1, nh, d).transpose(1, 2)
            k = self.k_proj(x).view(b, -1, nh, d).transpose(1, 2)
            v = self.v_proj(x).view(b, -1, nh, d).transpose(1, 2)
            w = torch.matmul(q, k.transpose(2, 3)) + mask[:, :, :, : k.shape[-2]]
            w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
            w = F.dropout(w, p=p_attn, training=self.training)
            a = torch.matmul(w, v).transpose(1, 2).contiguous().reshape(b, s, -1)
            x = F.dropout(self.out_proj(a), p=p, training=self.training)
            x = r + x
            if not pre:
                x = self.self_attn_layer_norm(x)
            shape = x.shape
            x = x.reshape(-1, x.size(-1))
            r = x
            if pre:
                x = self.final_layer_norm(x)
            x = self.fc2(F.relu(self.fc1(x)))
            x = F.dropout(x, p=p, training=self.training)
            x = (r + x).view(shape)
            if not pre:
                x = self.final_layer_norm(x)
            return x

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed_tokens = nn.Embedding(c["vocab_size"], e, c.get("pad_token_id", 1))
            self.embed_positions = nn.Embedding(c.get("max_position_embeddings", 2048) + 2, h)
            self.project_in = nn.Linear(e, h, bias=False) if e != h else None
            self.project_out = nn.Linear(h, e, bias=False) if e != h else None
            self.layers = nn.ModuleList([Layer() for _ in range(c["num_hidden_layers"])])
            keep = pre and not c.get("_remove_final_layer_norm", False)
            self.final_layer_norm = nn.LayerNorm(h) if keep else None
            self.lm_head = nn.Linear(e, c["vocab_size"], bias=False)
            self.lm_head.weight = self.embed_tokens.weight  # tie_word_embeddings (OPT's default)

        def forward(self, ids):
            b, s = ids.shape
            x = self.embed_tokens(ids)
            attention_mask = torch.ones(b, s)
            mask = M["causal_mask"](b, s, x.dtype)
            positions = (torch.cumsum(attention_mask, dim=1) * attention_mask - 1).long()
            pos = self.embed_positions(positions + 2)
            if self.project_in is not None:
                x = self.project_in(x)
            x = x + pos
            for layer in self.layers:
                x = layer(x, mask)
            if self.final_layer_norm is not None:
                x = self.final_layer_norm(x)
            if self.project_out is not None:
                x = self.project_out(x)
            return M["lm_loss"](self.lm_head(x).contiguous(), ids)

    return Model()


# ------------------------------------------------------------------------------------------ encoders and vision
def falcon(c):
    """FalconForCausalLM, the 7B layout (modeling_falcon.py: new_decoder_architecture false, multi_query, parallel_attn,
    no bias, rotary): LayerNorm, one fused query_key_value, _split_heads as (heads + 2) x head_dim with the key and
    value picked by index, the eager path (q @ k^T, /= sqrt(head_dim), softmax(scores + mask), @ v), dense; the MLP
    (dense_h_to_4h, GELU, dense_4h_to_h) reads the same LayerNorm output; mlp + attention + residual (hidden_dropout
    0: no mask); ln_f and the tied lm_head."""
    M = modules()
    torch, nn, F = M["torch"], M["nn"], M["F"]
    h, nh = c["hidden_size"], c["num_attention_heads"]
    d = h // nh
    ffn = c.get("ffn_hidden_size") or 4 * h

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.input_layernorm = nn.LayerNorm(h, eps=c.get("layer_norm_epsilon", 1e-5))
            self.query_key_value = nn.Linear(h, (nh + 2) * d, bias=c.get("bias", False))
            self.dense = nn.Linear(h, h, bias=c.get("bias", False))
            self.dense_h_to_4h = nn.Linear(h, ffn, bias=c.get("bias", False))
            self.dense_4h_to_h = nn.Linear(ffn, h, bias=c.get("bias", False))

        def forward(self, x, cos, sin, mask):
            b, s, _ = x.shape
            y = self.input_layernorm(x)
            fused = self.query_key_value(y).view(b, s, nh + 2, d)
            q, k, v = fused[..., :-2, :], fused[..., [-2], :], fused[..., [-1], :]
            q = q.transpose(1, 2).reshape(b, nh, s, d)
            k = k.transpose(1, 2).reshape(b, 1, s, d)
            v = v.transpose(1, 2).reshape(b, 1, s, d)
            q = (q * cos) + (M["rotate_half"](q) * sin)
            k = (k * cos) + (M["rotate_half"](k) * sin)
            scores = q @ k.transpose(-1, -2)
            scores /= d ** 0.5
            scores = F.softmax(scores + mask, dim=-1, dtype=x.dtype)
            a = (scores @ v).view(b, nh, s, d).permute(0, 2, 1, 3).reshape(b, s, h)
            attn = self.dense(a)
            mlp = self.dense_4h_to_h(F.gelu(self.dense_h_to_4h(y)))
            mlp += attn
            return x + mlp

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.word_embeddings = nn.Embedding(c["vocab_size"], h)
            self.h = nn.ModuleList([Layer() for _ in range(c["num_hidden_layers"])])
            self.ln_f = nn.LayerNorm(h, eps=c.get("layer_norm_epsilon", 1e-5))
            self.lm_head = nn.Linear(h, c["vocab_size"], bias=False)
            self.lm_head.weight = self.word_embeddings.weight  # tie_word_embeddings (Falcon's default)

        def forward(self, ids):
            b, s = ids.shape
            x = self.word_embeddings(ids)
            cos, sin = M["rope_cos_sin"](d, b, s, x.dtype)
            for layer in self.h:
                x = layer(x, cos, sin, M["causal_mask"](b, s, x.dtype))
            return M["lm_loss"](self.lm_head(self.ln_f(x)), ids)

    return Model()


def deepseek_mla(c):
    """DeepseekV2ForCausalLM's attention (MLA, modeling_deepseek_v2.py) with dense MLP layers (first_k_dense_replace =
    all layers, so the MoE is not in this case): q_proj (q_lora_rank null), kv_a_proj_with_mqa split into the latent
    and the shared rotary key, kv_a_layernorm, kv_b_proj split into per-head keys and values, rotary on the
    qk_rope_head_dim part (rotate_half; the interleaved or complex form keeps tensors of the same sizes), the key's
    rotary part expanded over the heads, cat, eager attention, o_proj; LlamaRMSNorm and the SiLU gate/up/down MLP."""
    M = modules()
    torch, nn, F = M["torch"], M["nn"], M["F"]
    h, nh = c["hidden_size"], c["num_attention_heads"]
    dn, dr, dv, r = c["qk_nope_head_dim"], c["qk_rope_head_dim"], c["v_head_dim"], c["kv_lora_rank"]
    dq = dn + dr
    Norm = M["RMSNorm"]

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.input_layernorm, self.post_attention_layernorm = Norm(h), Norm(h)
            self.q_proj = nn.Linear(h, nh * dq, bias=False)
            self.kv_a_proj_with_mqa = nn.Linear(h, r + dr, bias=False)
            self.kv_a_layernorm = Norm(r)
            self.kv_b_proj = nn.Linear(r, nh * (dn + dv), bias=False)
            self.o_proj = nn.Linear(nh * dv, h, bias=False)
            self.gate_proj = nn.Linear(h, c["intermediate_size"], bias=False)
            self.up_proj = nn.Linear(h, c["intermediate_size"], bias=False)
            self.down_proj = nn.Linear(c["intermediate_size"], h, bias=False)

        def forward(self, x, cos, sin, mask):
            b, s, _ = x.shape
            y = self.input_layernorm(x)
            q = self.q_proj(y).view(b, s, nh, dq).transpose(1, 2)
            q_nope, q_pe = torch.split(q, [dn, dr], dim=-1)
            kv = self.kv_a_proj_with_mqa(y)
            k_lat, k_pe = torch.split(kv, [r, dr], dim=-1)
            k = self.kv_b_proj(self.kv_a_layernorm(k_lat)).view(b, s, nh, dn + dv).transpose(1, 2)
            k_nope, v = torch.split(k, [dn, dv], dim=-1)
            k_pe = k_pe.view(b, 1, s, dr)
            q_pe = (q_pe * cos) + (M["rotate_half"](q_pe) * sin)
            k_pe = (k_pe * cos) + (M["rotate_half"](k_pe) * sin)
            k_pe = k_pe.expand(*k_nope.shape[:-1], -1)
            q = torch.cat((q_nope, q_pe), dim=-1)
            k = torch.cat((k_nope, k_pe), dim=-1)
            a = M["eager_attention"](q, k, v, mask, dq ** -0.5, 1)
            x = x + self.o_proj(a.reshape(b, s, nh * dv))
            z = self.post_attention_layernorm(x)
            return x + self.down_proj(F.silu(self.gate_proj(z)) * self.up_proj(z))

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed_tokens = nn.Embedding(c["vocab_size"], h)
            self.layers = nn.ModuleList([Layer() for _ in range(c["num_hidden_layers"])])
            self.norm = Norm(h)
            self.lm_head = nn.Linear(h, c["vocab_size"], bias=False)

        def forward(self, ids):
            b, s = ids.shape
            x = self.embed_tokens(ids)
            cos, sin = M["rope_cos_sin"](dr, b, s, x.dtype)
            for layer in self.layers:
                x = layer(x, cos, sin, M["causal_mask"](b, s, x.dtype))
            return M["lm_loss"](self.lm_head(self.norm(x)), ids)

    return Model()


def distilbert(c):
    """DistilBertForSequenceClassification (modeling_distilbert.py): word + position embeddings, LayerNorm, dropout;
    post-LN layers with q_lin/k_lin/v_lin/out_lin, dropout on the probabilities; pre_classifier (ReLU), classifier."""
    M = modules()
    torch, nn, F = M["torch"], M["nn"], M["F"]
    h, nh, p = c["dim"], c["n_heads"], c.get("dropout", 0.1)
    pa = c.get("attention_dropout", 0.1)
    d = h // nh

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.q_lin, self.k_lin, self.v_lin, self.out_lin = (nn.Linear(h, h) for _ in range(4))
            self.sa_layer_norm, self.output_layer_norm = nn.LayerNorm(h, eps=1e-12), nn.LayerNorm(h, eps=1e-12)
            self.lin1, self.lin2 = nn.Linear(h, c["hidden_dim"]), nn.Linear(c["hidden_dim"], h)

        def forward(self, x, mask):
            b, s, _ = x.shape
            shape = lambda t: t.view(b, -1, nh, d).transpose(1, 2)
            q = shape(self.q_lin(x)) / math.sqrt(d)
            k, v = shape(self.k_lin(x)), shape(self.v_lin(x))
            scores = torch.matmul(q, k.transpose(2, 3))
            scores = scores.masked_fill(mask, torch.tensor(torch.finfo(scores.dtype).min))
            w = F.dropout(F.softmax(scores, dim=-1), p=pa, training=self.training)
            ctx = torch.matmul(w, v).transpose(1, 2).contiguous().view(b, -1, h)
            x = self.sa_layer_norm(self.out_lin(ctx) + x)
            y = F.dropout(self.lin2(F.gelu(self.lin1(x))), p=p, training=self.training)
            return self.output_layer_norm(y + x)

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.word_embeddings = nn.Embedding(c["vocab_size"], h)
            self.position_embeddings = nn.Embedding(c.get("max_position_embeddings", 512), h)
            self.LayerNorm = nn.LayerNorm(h, eps=1e-12)
            self.layers = nn.ModuleList([Layer() for _ in range(c["n_layers"])])
            self.pre_classifier, self.classifier = nn.Linear(h, h), nn.Linear(h, 2)
            self.register_buffer("position_ids", torch.arange(c.get("max_position_embeddings", 512))[None], persistent=False)

        def forward(self, ids, labels):
            b, s = ids.shape
            x = self.word_embeddings(ids) + self.position_embeddings(self.position_ids[:, :s])
            x = F.dropout(self.LayerNorm(x), p=p, training=self.training)
            mask = (torch.ones(b, s) == 0).view(b, 1, 1, s).expand(b, nh, s, s)
            for layer in self.layers:
                x = layer(x, mask)
            pooled = F.dropout(F.relu(self.pre_classifier(x[:, 0])), p=c.get("seq_classif_dropout", 0.2),
                               training=self.training)
            return F.cross_entropy(self.classifier(pooled), labels)

    return Model()


def vit(c):
    """ViTForImageClassification / CLIPVisionModel + classifier (modeling_vit.py, modeling_clip.py): patch conv, CLS
    token, positions, pre-LN layers with query/key/value (q/k/v_proj), GELU (quick_gelu for CLIP), final LayerNorm,
    classifier on the CLS token."""
    M = modules()
    torch, nn, F = M["torch"], M["nn"], M["F"]
    clip = c["model_type"] == "clip_vision_model"
    h, nh, img = c["hidden_size"], c["num_attention_heads"], c.get("image_size", 224)
    patch = c.get("patch_size", 32 if clip else 16)
    n = (img // patch) ** 2 + 1
    d = h // nh
    eps = 1e-5 if clip else 1e-12
    act = (lambda x: x * torch.sigmoid(1.702 * x)) if clip else F.gelu

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(h, eps=eps), nn.LayerNorm(h, eps=eps)
            self.q, self.k, self.v, self.o = (nn.Linear(h, h) for _ in range(4))
            self.fc1, self.fc2 = nn.Linear(h, c["intermediate_size"]), nn.Linear(c["intermediate_size"], h)

        def forward(self, x):
            b, s, _ = x.shape
            y = self.ln1(x)
            shape = lambda t: t.view(b, s, nh, d).transpose(1, 2)
            if clip:  # CLIPAttention: q_proj(x) * scale, then bmm over (b * heads)
                q = shape(self.q(y) * d ** -0.5)
                k, v = shape(self.k(y)), shape(self.v(y))
                w = F.softmax(torch.matmul(q, k.transpose(2, 3)), dim=-1)
            else:  # ViTSelfAttention: matmul(q, k^T) / sqrt(d)
                q, k, v = shape(self.q(y)), shape(self.k(y)), shape(self.v(y))
                w = F.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(d), dim=-1)
            a = torch.matmul(w, v).transpose(1, 2).contiguous().reshape(b, s, h)
            x = self.o(a) + x
            return self.fc2(act(self.fc1(self.ln2(x)))) + x

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.patch = nn.Conv2d(3, h, patch, stride=patch, bias=not clip)
            self.cls = nn.Parameter(torch.randn(1, 1, h))
            self.pos = nn.Parameter(torch.randn(1, n, h))
            self.pre = nn.LayerNorm(h, eps=eps) if clip else None
            self.layers = nn.ModuleList([Layer() for _ in range(c["num_hidden_layers"])])
            self.post = nn.LayerNorm(h, eps=eps)
            self.classifier = nn.Linear(h, c.get("num_labels", 2))

        def forward(self, px, labels):
            b = px.shape[0]
            x = self.patch(px).flatten(2).transpose(1, 2)
            x = torch.cat([self.cls.expand(b, -1, -1), x], dim=1) + self.pos
            if self.pre is not None:
                x = self.pre(x)
            for layer in self.layers:
                x = layer(x)
            if clip:  # pooled = post_layernorm(last_hidden_state[:, 0])
                logits = self.classifier(self.post(x[:, 0, :]))
            else:  # sequence_output = layernorm(...); classifier(sequence_output[:, 0, :])
                logits = self.classifier(self.post(x)[:, 0, :])
            return F.cross_entropy(logits, labels)

    return Model()


def whisper(c):
    """WhisperForConditionalGeneration (modeling_whisper.py): conv1 + GELU, conv2 (stride 2) + GELU, frozen sinusoidal
    positions, pre-LN encoder layers; decoder with learned positions, causal self-attention, cross-attention to the
    encoder output, GELU MLP; k_proj without bias; proj_out tied; LM loss over the labels."""
    M = modules()
    torch, nn, F = M["torch"], M["nn"], M["F"]
    h, nh, S = c["d_model"], c["decoder_attention_heads"], c.get("max_source_positions", 1500)
    d = h // nh

    class Attn(nn.Module):
        def __init__(self):
            super().__init__()
            self.q_proj, self.k_proj, self.v_proj = nn.Linear(h, h), nn.Linear(h, h, bias=False), nn.Linear(h, h)
            self.out_proj = nn.Linear(h, h)

        def forward(self, x, kv, mask=None):
            b, s, _ = x.shape
            q = self.q_proj(x).view(b, s, nh, d).transpose(1, 2)
            k = self.k_proj(kv).view(b, -1, nh, d).transpose(1, 2)
            v = self.v_proj(kv).view(b, -1, nh, d).transpose(1, 2)
            w = torch.matmul(q, k.transpose(2, 3)) * d ** -0.5
            if mask is not None:
                w = w + mask
            w = F.softmax(w, dim=-1)
            return self.out_proj(torch.matmul(w, v).transpose(1, 2).reshape(b, s, h))

    class EncLayer(nn.Module):
        def __init__(self):
            super().__init__()
            self.self_attn_layer_norm, self.final_layer_norm = nn.LayerNorm(h), nn.LayerNorm(h)
            self.self_attn = Attn()
            self.fc1, self.fc2 = nn.Linear(h, c["encoder_ffn_dim"]), nn.Linear(c["encoder_ffn_dim"], h)

        def forward(self, x):
            y = self.self_attn_layer_norm(x)
            x = x + self.self_attn(y, y)
            return x + self.fc2(F.gelu(self.fc1(self.final_layer_norm(x))))

    class DecLayer(nn.Module):
        def __init__(self):
            super().__init__()
            self.self_attn_layer_norm, self.encoder_attn_layer_norm = nn.LayerNorm(h), nn.LayerNorm(h)
            self.final_layer_norm = nn.LayerNorm(h)
            self.self_attn, self.encoder_attn = Attn(), Attn()
            self.fc1, self.fc2 = nn.Linear(h, c["decoder_ffn_dim"]), nn.Linear(c["decoder_ffn_dim"], h)

        def forward(self, x, enc, mask):
            y = self.self_attn_layer_norm(x)
            x = x + self.self_attn(y, y, mask)
            x = x + self.encoder_attn(self.encoder_attn_layer_norm(x), enc)
            return x + self.fc2(F.gelu(self.fc1(self.final_layer_norm(x))))

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            mel = c.get("num_mel_bins", 80)
            self.conv1 = nn.Conv1d(mel, h, 3, padding=1)
            self.conv2 = nn.Conv1d(h, h, 3, stride=2, padding=1)
            self.embed_positions = nn.Embedding(S, h)
            self.enc = nn.ModuleList([EncLayer() for _ in range(c["encoder_layers"])])
            self.enc_ln = nn.LayerNorm(h)
            self.embed_tokens = nn.Embedding(c["vocab_size"], h)
            self.dec_positions = nn.Embedding(c.get("max_target_positions", 448), h)
            self.dec = nn.ModuleList([DecLayer() for _ in range(c["decoder_layers"])])
            self.dec_ln = nn.LayerNorm(h)

        def forward(self, feats, ids):
            b, s = ids.shape
            x = F.gelu(self.conv2(F.gelu(self.conv1(feats)))).permute(0, 2, 1)
            x = x + self.embed_positions.weight
            for layer in self.enc:
                x = layer(x)
            enc = self.enc_ln(x)
            y = self.embed_tokens(ids) + self.dec_positions.weight[:s]
            mask = M["causal_mask"](b, s, y.dtype)
            for layer in self.dec:
                y = layer(y, enc, mask)
            logits = F.linear(self.dec_ln(y), self.embed_tokens.weight)  # proj_out, tied
            return F.cross_entropy(logits.view(-1, c["vocab_size"]), ids.reshape(-1))

    return Model()


# -------------------------------------------------------------------------------------------------------- cases
# Small configs (2 layers, random weights) in each family's own config.json keys: what the engine reads
# (catalog/hf_config.cpp) and what the modules above are built from. Dropout probabilities left at their class
# defaults (0 for the decoders, 0.1 for DistilBERT), but Phi's resid_pdrop (0.1, as phi-2's config.json).
def _dec(t, **kw):
    c = dict(model_type=t, hidden_size=256, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
             intermediate_size=512, vocab_size=1000, max_position_embeddings=4096, tie_word_embeddings=False)
    c.update(kw)
    return c


CASES = {
    "mistral-window32": dict(config=_dec("mistral", sliding_window=32), batch=2, seq=128, build=decoder),
    "qwen2-qkvbias": dict(config=_dec("qwen2", tie_word_embeddings=True), batch=2, seq=128, build=decoder),
    "qwen3-qknorm": dict(config=_dec("qwen3", head_dim=64, tie_word_embeddings=True), batch=2, seq=128, build=decoder),
    "gemma-geglu": dict(config=_dec("gemma", num_key_value_heads=1, head_dim=64, tie_word_embeddings=True), batch=2,
                        seq=128, build=decoder),
    "gemma2-softcap-window32": dict(config=_dec("gemma2", head_dim=64, tie_word_embeddings=True, sliding_window=32,
                                                query_pre_attn_scalar=64, attn_logit_softcapping=50.0,
                                                final_logit_softcapping=30.0), batch=2, seq=128, build=decoder),
    "gemma3-qknorm-window32": dict(config=_dec("gemma3_text", head_dim=64, tie_word_embeddings=True,
                                               sliding_window=32, sliding_window_pattern=6,
                                               query_pre_attn_scalar=64), batch=2, seq=128, build=decoder),
    "phi3-fused": dict(config=_dec("phi3", num_key_value_heads=4, sliding_window=2047), batch=2, seq=128,
                       build=decoder),
    "qwen2moe-4e-top2-shared": dict(config=_dec("qwen2_moe", num_key_value_heads=4, num_experts=4,
                                                num_experts_per_tok=2, moe_intermediate_size=128,
                                                shared_expert_intermediate_size=256), batch=2, seq=128,
                                    build=decoder),
    "qwen3moe-4e-top2-norm": dict(config=_dec("qwen3_moe", num_key_value_heads=4, head_dim=64, num_experts=4,
                                              num_experts_per_tok=2, moe_intermediate_size=128, norm_topk_prob=True,
                                              decoder_sparse_step=1, mlp_only_layers=[]), batch=2, seq=128,
                                  build=decoder),
    "mixtral-4e-top2": dict(config=_dec("mixtral", num_key_value_heads=4, num_local_experts=4, num_experts_per_tok=2,
                                        intermediate_size=128), batch=2, seq=128, build=decoder),
    "gptneox-parallel-rot25": dict(config=dict(model_type="gpt_neox", hidden_size=256, num_hidden_layers=2,
                                               num_attention_heads=4, intermediate_size=1024, vocab_size=1000,
                                               rotary_pct=0.25, use_parallel_residual=True,
                                               max_position_embeddings=2048), batch=2, seq=128, build=gpt_neox),
    # Phi-2's shape in small: 32-wide heads with a 0.4 rotary share (12 of 32), resid_pdrop 0.1 (1-byte masks on both
    # branches) while attention_dropout and embd_pdrop stay 0 (the three probabilities apart).
    "phi-parallel-rot40-resid10": dict(config=dict(model_type="phi", hidden_size=256, num_hidden_layers=2,
                                                   num_attention_heads=8, num_key_value_heads=None,
                                                   intermediate_size=1024, vocab_size=1000, partial_rotary_factor=0.4,
                                                   resid_pdrop=0.1, embd_pdrop=0.0, attention_dropout=0.0,
                                                   hidden_act="gelu_new", qk_layernorm=False,
                                                   max_position_embeddings=2048, tie_word_embeddings=False),
                                       batch=2, seq=128, build=phi),
    # OPT-125m's layout in small (pre-LN, ReLU, biases, dropout 0.1 on both residual branches, tied head, positions
    # offset by 2), and OPT-350m's (post-LN, no final LayerNorm, 128-wide embeddings with project_in / project_out).
    "opt-preln-drop10": dict(config=dict(model_type="opt", hidden_size=256, num_hidden_layers=2, num_attention_heads=4,
                                         ffn_dim=1024, vocab_size=1000, max_position_embeddings=2048,
                                         word_embed_proj_dim=256, do_layer_norm_before=True, dropout=0.1,
                                         attention_dropout=0.0, activation_function="relu", enable_bias=True,
                                         layerdrop=0.0), batch=2, seq=128, build=opt),
    "opt-postln-proj128": dict(config=dict(model_type="opt", hidden_size=256, num_hidden_layers=2,
                                           num_attention_heads=4, ffn_dim=1024, vocab_size=1000,
                                           max_position_embeddings=2048, word_embed_proj_dim=128,
                                           do_layer_norm_before=False, dropout=0.1, attention_dropout=0.0,
                                           activation_function="relu", enable_bias=True, layerdrop=0.0),
                               batch=2, seq=128, build=opt),
    "falcon-mq-parallel": dict(config=dict(model_type="falcon", hidden_size=256, num_hidden_layers=2,
                                           num_attention_heads=4, multi_query=True, parallel_attn=True,
                                           new_decoder_architecture=False, bias=False, alibi=False,
                                           vocab_size=1000, layer_norm_epsilon=1e-5), batch=2, seq=128,
                               build=falcon),
    "deepseekv2-mla-dense": dict(config=_dec("deepseek_v2", num_key_value_heads=4, q_lora_rank=None, kv_lora_rank=64,
                                             qk_nope_head_dim=32, qk_rope_head_dim=16, v_head_dim=32,
                                             n_routed_experts=4, num_experts_per_tok=2, moe_intermediate_size=128,
                                             n_shared_experts=1, first_k_dense_replace=2), batch=2, seq=128,
                                 build=deepseek_mla),
    "distilbert-cls2": dict(config=dict(model_type="distilbert", dim=256, n_layers=2, n_heads=4, hidden_dim=1024,
                                        vocab_size=1000, max_position_embeddings=512), batch=2, seq=128,
                            build=distilbert),
    "vit-hf-p16-224": dict(config=dict(model_type="vit", hidden_size=192, num_hidden_layers=2, num_attention_heads=3,
                                       intermediate_size=768, image_size=224, patch_size=16, num_labels=10), batch=2,
                           image=224, build=vit),
    "clip-vision-p32-224": dict(config=dict(model_type="clip_vision_model", hidden_size=192, num_hidden_layers=2,
                                            num_attention_heads=3, intermediate_size=768, image_size=224,
                                            patch_size=32, num_labels=10), batch=2, image=224, build=vit),
    "whisper-2x2-d128": dict(config=dict(model_type="whisper", d_model=128, encoder_layers=2, decoder_layers=2,
                                         encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=512,
                                         decoder_ffn_dim=512, vocab_size=1000, num_mel_bins=80,
                                         max_source_positions=1500, max_target_positions=448), batch=2, seq=64,
                             build=whisper),
}


# --------------------------------------------------------------------------------------------------------- main
def run_case(cid):
    sys.path.insert(0, HERE)
    import saved_activations as sa
    import torch

    sa._use_gpu_dropout()
    case = CASES[cid]
    c, b = case["config"], case["batch"]
    torch.manual_seed(0)
    model = case["build"](c).train()
    if case["build"] is vit:
        px = torch.randn(b, 3, case["image"], case["image"])
        labels = torch.randint(0, c["num_labels"], (b,))
        fwd = lambda: model(px, labels)
    elif case["build"] is whisper:
        feats = torch.randn(b, c["num_mel_bins"], 2 * c["max_source_positions"])
        ids = torch.randint(0, c["vocab_size"], (b, case["seq"]))
        fwd = lambda: model(feats, ids)
    elif case["build"] is distilbert:
        ids = torch.randint(0, c["vocab_size"], (b, case["seq"]))
        labels = torch.randint(0, 2, (b,))
        fwd = lambda: model(ids, labels)
    else:
        ids = torch.randint(0, c["vocab_size"], (b, case["seq"]))
        fwd = lambda: model(ids)
    totals = sa.measure(model, fwd, False)
    totals["params"] = sum(p.numel() for p in model.parameters())
    return totals


def _deb(pkg):
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True, check=False)
    return out.stdout.strip() or "unknown"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case")
    args = ap.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case)))
        return
    import platform
    cases = []
    for cid, case in CASES.items():
        print(f"measuring {cid} ...", file=sys.stderr)
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--case", cid], capture_output=True,
                             text=True, check=True)
        r = json.loads(out.stdout)
        scenario = {"model": {"hf_config": case["config"]}, "batch_size": case["batch"], "grad_accum_steps": 1,
                    "precision": "fp32", "optimizer": "adamw", "method": "full", "checkpointing": "none",
                    "attention": "eager"}
        if "image" in case:
            scenario["image_size"] = case["image"]
        else:
            scenario["seq_len"] = case["seq"]
        cases.append({
            "id": f"hf-{cid}-b{case['batch']}-fp32-eager", "scenario": scenario,
            "measured": {"quantity": "saved_activations_bytes", "value": r["saved_bytes"]},
            "tolerance_fraction": 0.1,
            "tolerance_reason": "the count is exact for these ops on torch 1.13; 10% covers op-level differences "
                                "between PyTorch and transformers versions and devices that an engine formula does not "
                                "model",
            "source_detail": f"{SCRIPT} --case {cid}: saved_bytes={r['saved_bytes']} in {r['storages_count']} storages, "
                             f"{r['params']} parameters; by dtype {json.dumps(r['by_dtype_bytes'], sort_keys=True)}; "
                             f"largest producers {json.dumps(r['by_producer_bytes_top10'])}"})
    doc = {"schema_version": 1,
           "title": "Saved activations of one small random-weight model per config.json family (CPU, fp32, eager)",
           "source": {"citation": "own measurement with torch.autograd.graph.saved_tensors_hooks; each family is a "
                                  "re-implementation of its transformers modeling_<type>.py eager forward "
                                  "(tools/measure/hf_families.py), built from the config in the case's scenario",
                      "url": "https://pytorch.org/docs/1.13/autograd.html#hooks-for-saved-tensors",
                      "tool": SCRIPT,
                      "versions": f"torch {__import__('torch').__version__} (Debian python3-torch "
                                  f"{_deb('python3-torch')}), Python {platform.python_version()}",
                      "date": datetime.date.today().isoformat()},
           "hardware": "CPU (the set of saved tensors does not depend on the device for these fp32 ops)",
           "cases": cases}
    print(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
