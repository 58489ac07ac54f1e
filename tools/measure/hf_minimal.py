# Minimal, faithful PyTorch re-implementations of the Hugging Face transformer models gpuguide uses as presets
# (BERT/RoBERTa, ALBERT, GPT-2, Llama/Mistral/Qwen2/Mixtral), for counting parameters and measuring what autograd
# saves. No training code, no weight loading. Must not import transformers (it is not installed here).
#
# Each forward mirrors the eager code path of transformers v4.39 (huggingface/transformers, commit 0022728,
# src/transformers/models/{bert,albert,gpt2,llama,mistral,qwen2,mixtral}/modeling_*.py) op by op, because the
# saved-for-backward bytes depend on the exact ops (e.g. GPT-2's gelu_new is a chain of elementwise ops, Llama's
# RMSNorm upcasts to fp32, repeat_kv copies K/V to all heads, the LM loss upcasts logits to fp32).
# Sections: helpers | BERT/RoBERTa | ALBERT | GPT-2 | Llama-style decoder (+ MoE)
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---------------------------------------------------------------------------------------------------- helpers
def dropout(x, p, training):
    """CUDA's dropout op: torch.native_dropout keeps a 1-byte bool mask (CPU F.dropout keeps a 4-byte mask)."""
    if not training or p == 0.0:
        return x  # ATen's dropout returns its input unchanged for p == 0 or eval
    return torch.native_dropout(x, p, True)[0]


def new_gelu(x):
    # transformers/activations.py NewGELUActivation ("gelu_new", GPT-2): a chain of elementwise ops, each of
    # which saves its inputs; not F.gelu(approximate="tanh").
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def count_params(module):
    """(total, trainable) over unique Parameter objects (tied weights count once, as in HF num_parameters)."""
    total = sum(p.numel() for p in module.parameters())
    trainable = sum(p.numel() for p in module.parameters() if p.requires_grad)
    return total, trainable


# ---------------------------------------------------------------------------------------------- BERT / RoBERTa
class BertLayer(nn.Module):
    def __init__(self, c, device=None):
        super().__init__()
        h, f = c["hidden"], c["ffn"]
        self.heads, self.p_hidden, self.p_attn = c["heads"], c.get("hidden_dropout", 0.1), c.get("attn_dropout", 0.1)
        eps = c.get("ln_eps", 1e-12)
        self.query = nn.Linear(h, h, device=device)
        self.key = nn.Linear(h, h, device=device)
        self.value = nn.Linear(h, h, device=device)
        self.attn_out = nn.Linear(h, h, device=device)
        self.ln1 = nn.LayerNorm(h, eps=eps, device=device)
        self.inter = nn.Linear(h, f, device=device)
        self.out = nn.Linear(f, h, device=device)
        self.ln2 = nn.LayerNorm(h, eps=eps, device=device)

    def _split(self, x):  # BertSelfAttention.transpose_for_scores
        b, s, h = x.shape
        return x.view(b, s, self.heads, h // self.heads).permute(0, 2, 1, 3)

    def forward(self, x, ext_mask):
        q, k, v = self._split(self.query(x)), self._split(self.key(x)), self._split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
        scores = scores + ext_mask
        probs = dropout(F.softmax(scores, dim=-1), self.p_attn, self.training)
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        ctx = ctx.view(ctx.shape[0], ctx.shape[1], -1)
        x = self.ln1(dropout(self.attn_out(ctx), self.p_hidden, self.training) + x)  # BertSelfOutput
        y = F.gelu(self.inter(x))  # BertIntermediate, hidden_act "gelu" (erf)
        return self.ln2(dropout(self.out(y), self.p_hidden, self.training) + x)  # BertOutput


class BertModel(nn.Module):
    """BertModel (embeddings + encoder + pooler); RoBERTa differs only in config (vocab, positions, type_vocab)."""

    def __init__(self, c, device=None, pooler=True):
        super().__init__()
        h = c["hidden"]
        self.c = c
        self.word = nn.Embedding(c["vocab"], h, device=device)
        self.pos = nn.Embedding(c["max_positions"], h, device=device)
        self.token_type = nn.Embedding(c["type_vocab"], h, device=device)
        self.ln = nn.LayerNorm(h, eps=c.get("ln_eps", 1e-12), device=device)
        self.layers = nn.ModuleList([BertLayer(c, device) for _ in range(c["layers"])])
        self.pooler = nn.Linear(h, h, device=device) if pooler else None
        self.register_buffer("position_ids", torch.arange(c["max_positions"], device=device)[None], persistent=False)
        self.register_buffer("token_type_ids", torch.zeros(1, c["max_positions"], dtype=torch.long, device=device),
                             persistent=False)

    def forward(self, ids):
        b, s = ids.shape
        off = self.c.get("position_offset", 0)  # RoBERTa: positions start at padding_idx + 1 = 2
        x = self.word(ids) + self.token_type(self.token_type_ids[:, :s].expand(b, s))
        x = x + self.pos(self.position_ids[:, off:off + s])
        x = dropout(self.ln(x), self.c.get("hidden_dropout", 0.1), self.training)
        # get_extended_attention_mask: (1 - mask) * finfo.min, shape (b, 1, 1, s); an all-ones mask here
        ext_mask = (1.0 - torch.ones(b, 1, 1, s, dtype=x.dtype)) * torch.finfo(x.dtype).min
        for layer in self.layers:
            x = layer(x, ext_mask)
        pooled = torch.tanh(self.pooler(x[:, 0])) if self.pooler is not None else None
        return x, pooled


class BertForSequenceClassification(nn.Module):
    def __init__(self, c, device=None):
        super().__init__()
        self.bert = BertModel(c, device)
        self.classifier = nn.Linear(c["hidden"], c.get("num_labels", 2), device=device)
        self.p = c.get("hidden_dropout", 0.1)

    def forward(self, ids, labels):
        _, pooled = self.bert(ids)
        logits = self.classifier(dropout(pooled, self.p, self.training))
        return F.cross_entropy(logits.view(-1, logits.shape[-1]), labels.view(-1))


# ------------------------------------------------------------------------------------------------------ ALBERT
class AlbertModel(nn.Module):
    """AlbertModel: factorised embeddings (E), one shared layer group, pooler. Counting only (no forward)."""

    def __init__(self, c, device=None):
        super().__init__()
        e, h = c["embedding"], c["hidden"]
        self.word = nn.Embedding(c["vocab"], e, device=device)
        self.pos = nn.Embedding(c["max_positions"], e, device=device)
        self.token_type = nn.Embedding(c["type_vocab"], e, device=device)
        self.ln = nn.LayerNorm(e, device=device)
        self.embedding_hidden_mapping_in = nn.Linear(e, h, device=device)
        self.shared_layer = BertLayer(c, device)  # attention q/k/v/dense + LN + ffn + ffn_output + LN: same shapes
        self.pooler = nn.Linear(h, h, device=device)


# ------------------------------------------------------------------------------------------------------- GPT-2
class Conv1D(nn.Module):  # transformers.pytorch_utils.Conv1D: weight (in, out), addmm
    def __init__(self, nx, nf, device=None):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(nx, nf, device=device))
        self.bias = nn.Parameter(torch.zeros(nf, device=device))
        if device != "meta":
            nn.init.normal_(self.weight, std=0.02)

    def forward(self, x):
        out_shape = x.shape[:-1] + (self.weight.shape[-1],)
        return torch.addmm(self.bias, x.view(-1, x.shape[-1]), self.weight).view(out_shape)


class GPT2Block(nn.Module):
    def __init__(self, c, device=None):
        super().__init__()
        h = c["hidden"]
        self.heads, self.p = c["heads"], c.get("dropout", 0.1)
        self.ln_1 = nn.LayerNorm(h, eps=1e-5, device=device)
        self.c_attn = Conv1D(h, 3 * h, device)
        self.c_proj = Conv1D(h, h, device)
        self.ln_2 = nn.LayerNorm(h, eps=1e-5, device=device)
        self.c_fc = Conv1D(h, 4 * h, device)
        self.mlp_proj = Conv1D(4 * h, h, device)
        n = c["n_positions"]
        self.register_buffer("bias", torch.tril(torch.ones(n, n, dtype=torch.bool, device=device)).view(1, 1, n, n),
                             persistent=False)

    def _split(self, x):
        b, s, h = x.shape
        return x.view(b, s, self.heads, h // self.heads).permute(0, 2, 1, 3)

    def forward(self, x):
        r = x
        q, k, v = self.c_attn(self.ln_1(x)).split(x.shape[-1], dim=2)
        q, k, v = self._split(q), self._split(k), self._split(v)
        w = torch.matmul(q, k.transpose(-1, -2))
        w = w / torch.full([], v.shape[-1] ** 0.5, dtype=w.dtype)
        s = q.shape[-2]
        w = torch.where(self.bias[:, :, :s, :s], w.to(w.dtype), torch.full([], torch.finfo(w.dtype).min, dtype=w.dtype))
        w = dropout(F.softmax(w, dim=-1).type(v.dtype), self.p, self.training)
        a = torch.matmul(w, v).permute(0, 2, 1, 3).contiguous()
        a = a.view(a.shape[0], a.shape[1], -1)
        x = dropout(self.c_proj(a), self.p, self.training) + r
        y = dropout(self.mlp_proj(new_gelu(self.c_fc(self.ln_2(x)))), self.p, self.training)
        return x + y


class GPT2LMHeadModel(nn.Module):
    """GPT2LMHeadModel with lm_head tied to wte (counted once)."""

    def __init__(self, c, device=None):
        super().__init__()
        h = c["hidden"]
        self.p = c.get("dropout", 0.1)
        self.wte = nn.Embedding(c["vocab"], h, device=device)
        self.wpe = nn.Embedding(c["n_positions"], h, device=device)
        self.h = nn.ModuleList([GPT2Block(c, device) for _ in range(c["layers"])])
        self.ln_f = nn.LayerNorm(h, eps=1e-5, device=device)
        self.lm_head = nn.Linear(h, c["vocab"], bias=False, device=device)
        self.lm_head.weight = self.wte.weight

    def forward(self, ids):
        s = ids.shape[1]
        pos = torch.arange(0, s, dtype=torch.long)[None]
        x = dropout(self.wte(ids) + self.wpe(pos), self.p, self.training)
        for blk in self.h:
            x = blk(x)
        logits = self.lm_head(self.ln_f(x))
        shift_logits = logits[..., :-1, :].contiguous()
        return F.cross_entropy(shift_logits.view(-1, shift_logits.shape[-1]), ids[..., 1:].contiguous().view(-1))


# ------------------------------------------------------------------------------- Llama-style decoder (+ MoE)
class RMSNorm(nn.Module):  # LlamaRMSNorm, v4.39
    def __init__(self, h, eps=1e-6, device=None):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(h, device=device))
        self.eps = eps

    def forward(self, x):
        dt = x.dtype
        x = x.to(torch.float32)
        var = x.pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(var + self.eps)
        return self.weight * x.to(dt)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


class SwiGLU(nn.Module):  # LlamaMLP / MistralMLP / MixtralBlockSparseTop2MLP (w1 = gate, w3 = up, w2 = down)
    def __init__(self, h, f, device=None):
        super().__init__()
        self.gate_proj = nn.Linear(h, f, bias=False, device=device)
        self.up_proj = nn.Linear(h, f, bias=False, device=device)
        self.down_proj = nn.Linear(f, h, bias=False, device=device)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class MoE(nn.Module):  # MixtralSparseMoeBlock: router (no bias) + E SwiGLU experts, top-k. Counting only.
    def __init__(self, h, f, experts, top_k, device=None):
        super().__init__()
        self.gate = nn.Linear(h, experts, bias=False, device=device)
        self.experts = nn.ModuleList([SwiGLU(h, f, device) for _ in range(experts)])
        self.top_k = top_k


class DecoderLayer(nn.Module):
    def __init__(self, c, device=None):
        super().__init__()
        h, nh, nkv = c["hidden"], c["heads"], c["kv_heads"]
        self.nh, self.nkv = nh, nkv
        self.d = c.get("head_dim", h // nh)
        self.theta = c.get("rope_theta", 10000.0)
        qkv_bias = c.get("qkv_bias", False)  # Qwen2: bias on q, k, v only
        self.q_proj = nn.Linear(h, nh * self.d, bias=qkv_bias, device=device)
        self.k_proj = nn.Linear(h, nkv * self.d, bias=qkv_bias, device=device)
        self.v_proj = nn.Linear(h, nkv * self.d, bias=qkv_bias, device=device)
        self.o_proj = nn.Linear(nh * self.d, h, bias=False, device=device)
        self.input_layernorm = RMSNorm(h, c.get("rms_eps", 1e-5), device)
        self.post_attention_layernorm = RMSNorm(h, c.get("rms_eps", 1e-5), device)
        if c.get("experts", 1) > 1:
            self.mlp = MoE(h, c["ffn"], c["experts"], c["top_k"], device)
        else:
            self.mlp = SwiGLU(h, c["ffn"], device)
        self.register_buffer("inv_freq", 1.0 / (self.theta ** (torch.arange(0, self.d, 2, device=device).float() / self.d)),
                             persistent=False)

    def _rope(self, x, pos):  # LlamaRotaryEmbedding.forward, under no_grad as in v4.39
        with torch.no_grad():
            inv = self.inv_freq[None, :, None].float().expand(pos.shape[0], -1, 1)
            with torch.autocast(device_type="cpu", enabled=False):
                freqs = (inv.float() @ pos[:, None, :].float()).transpose(1, 2)
                emb = torch.cat((freqs, freqs), dim=-1)
                cos, sin = emb.cos(), emb.sin()
            return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)

    def forward(self, x, pos, causal_mask):
        b, s, _ = x.shape
        r = x
        x = self.input_layernorm(x)
        q = self.q_proj(x).view(b, s, self.nh, self.d).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.nkv, self.d).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.nkv, self.d).transpose(1, 2)
        cos, sin = self._rope(v, pos)
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
        q = (q * cos) + (rotate_half(q) * sin)
        k = (k * cos) + (rotate_half(k) * sin)
        rep = self.nh // self.nkv
        if rep > 1:  # repeat_kv: expand + reshape = a copy of K and V for every query head
            k = k[:, :, None].expand(b, self.nkv, rep, s, self.d).reshape(b, self.nh, s, self.d)
            v = v[:, :, None].expand(b, self.nkv, rep, s, self.d).reshape(b, self.nh, s, self.d)
        w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.d)
        w = w + causal_mask[:, :, :, : k.shape[-2]]
        w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)  # attention_dropout = 0.0 -> no mask
        a = torch.matmul(w, v).transpose(1, 2).contiguous().reshape(b, s, -1)
        x = r + self.o_proj(a)
        return x + self.mlp(self.post_attention_layernorm(x))


class DecoderForCausalLM(nn.Module):
    """LlamaForCausalLM-shaped model; also Mistral (GQA), Qwen2 (qkv bias, tied small models), Mixtral (MoE)."""

    def __init__(self, c, device=None):
        super().__init__()
        h = c["hidden"]
        self.embed_tokens = nn.Embedding(c["vocab"], h, device=device)
        self.layers = nn.ModuleList([DecoderLayer(c, device) for _ in range(c["layers"])])
        self.norm = RMSNorm(h, c.get("rms_eps", 1e-5), device)
        self.lm_head = nn.Linear(h, c["vocab"], bias=False, device=device)
        if c.get("tied_embeddings", False):
            self.lm_head.weight = self.embed_tokens.weight

    def forward(self, ids):
        b, s = ids.shape
        x = self.embed_tokens(ids)
        pos = torch.arange(s)[None].expand(b, s)
        # _update_causal_mask: a (b, 1, s, s) additive mask of finfo(dtype).min above the diagonal, no grad
        causal = torch.triu(torch.full((s, s), torch.finfo(x.dtype).min, dtype=x.dtype), diagonal=1)
        causal = causal[None, None].expand(b, 1, -1, -1)
        for layer in self.layers:
            x = layer(x, pos, causal)
        logits = self.lm_head(self.norm(x)).float()
        shift_logits = logits[..., :-1, :].contiguous()
        return F.cross_entropy(shift_logits.view(-1, shift_logits.shape[-1]), ids[..., 1:].contiguous().view(-1))
