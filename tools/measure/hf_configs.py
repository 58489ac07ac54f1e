#!/usr/bin/python3
# Writes tests/validation/hf_configs.json: the architecture fields of each Hub model's config.json (copied from the
# file at its address) with the published parameter count of the module named in "counted" and where it is
# published (found quoted in public code; no internet here). Data only; no torch import.
# Usage: python3 tools/measure/hf_configs.py > tests/validation/hf_configs.json
import json
HF = "https://huggingface.co/{}/blob/main/config.json"
HUB = "Hugging Face Hub safetensors.total / GGUF general.parameter_count, as quoted in public code (find_string over GitHub sources)"
KERAS = "KerasHub preset metadata 'params' (keras_hub/src/models/{}/..._presets.py), as quoted in public code"
HFC = "from_pretrained(...).num_parameters(), as quoted in public code (find_string over GitHub sources)"
cases = []
def add(repo, cfg, params, source, counted="causal-lm", head_params=0, note=None):
    c = {"repo": repo, "config_source": HF.format(repo), "config": cfg, "published_params": params,
         "published_source": source, "counted": counted}
    if head_params: c["head_params"] = head_params
    if note: c["notes"] = note
    cases.append(c)

def llama(h, L, H, kv, ffn, vocab, tie, mpe, **extra):
    d = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": h, "num_hidden_layers": L,
         "num_attention_heads": H, "num_key_value_heads": kv, "intermediate_size": ffn, "vocab_size": vocab,
         "tie_word_embeddings": tie, "max_position_embeddings": mpe, "hidden_act": "silu", "rms_norm_eps": 1e-5,
         "attention_bias": False}
    d.update(extra); return d
add("meta-llama/Llama-2-7b-hf", llama(4096, 32, 32, 32, 11008, 32000, False, 4096), 6738415616,
    "Hub safetensors.total 6738417664 minus 32 x 64 rotary inv_freq buffer values the checkpoint also stores (tools/measure/params.py PUBLISHED)")
add("meta-llama/Llama-2-13b-hf", llama(5120, 40, 40, 40, 13824, 32000, False, 4096), 13015864320,
    "Hub safetensors.total 13015866880 minus 40 x 64 inv_freq buffer values (tools/measure/params.py PUBLISHED)")
add("meta-llama/Llama-2-70b-hf", llama(8192, 80, 64, 8, 28672, 32000, False, 4096), 68976648192,
    "Hub safetensors.total 68976653312 minus 80 x 64 inv_freq buffer values (tools/measure/params.py PUBLISHED)")
add("meta-llama/Llama-3.1-8B", llama(4096, 32, 32, 8, 14336, 128256, False, 131072), 8030261248, HUB)
add("meta-llama/Llama-3.1-70B", llama(8192, 80, 64, 8, 28672, 128256, False, 131072), 70553706496, HUB)
add("meta-llama/Llama-3.2-1B", llama(2048, 16, 32, 8, 8192, 128256, True, 131072, head_dim=64), 1235814400, HUB)
add("meta-llama/Llama-3.2-3B", llama(3072, 28, 24, 8, 8192, 128256, True, 131072, head_dim=128), 3212749824, HUB)
add("mistralai/Mistral-7B-v0.1", {"architectures": ["MistralForCausalLM"], "model_type": "mistral", "hidden_size": 4096,
    "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    "vocab_size": 32000, "tie_word_embeddings": False, "max_position_embeddings": 32768, "sliding_window": 4096,
    "hidden_act": "silu", "rms_norm_eps": 1e-5}, 7241732096, HUB)
add("mistralai/Mixtral-8x7B-v0.1", {"architectures": ["MixtralForCausalLM"], "model_type": "mixtral", "hidden_size": 4096,
    "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    "num_local_experts": 8, "num_experts_per_tok": 2, "vocab_size": 32000, "tie_word_embeddings": False,
    "max_position_embeddings": 32768, "sliding_window": None, "hidden_act": "silu", "rms_norm_eps": 1e-5},
    46702792704, KERAS.format("mixtral") + "; " + HUB)
def qwen2(h, L, H, kv, ffn, vocab, tie):
    return {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": h, "num_hidden_layers": L,
            "num_attention_heads": H, "num_key_value_heads": kv, "intermediate_size": ffn, "vocab_size": vocab,
            "tie_word_embeddings": tie, "max_position_embeddings": 131072 if h > 1536 else 32768,
            "use_sliding_window": False, "sliding_window": 131072, "hidden_act": "silu", "rms_norm_eps": 1e-6}
add("Qwen/Qwen2.5-0.5B", qwen2(896, 24, 14, 2, 4864, 151936, True), 494032768, HUB)
add("Qwen/Qwen2.5-1.5B", qwen2(1536, 28, 12, 2, 8960, 151936, True), 1543714304, HUB)
add("Qwen/Qwen2.5-7B", qwen2(3584, 28, 28, 4, 18944, 152064, False), 7615616512, HUB)
add("Qwen/Qwen2.5-32B", qwen2(5120, 64, 40, 8, 27648, 152064, False), 32763876352, HUB)
add("Qwen/Qwen2.5-72B", qwen2(8192, 80, 64, 8, 29568, 152064, False), 72706203648, HUB)
add("Qwen/Qwen1.5-MoE-A2.7B", {"architectures": ["Qwen2MoeForCausalLM"], "model_type": "qwen2_moe", "hidden_size": 2048,
    "num_hidden_layers": 24, "num_attention_heads": 16, "num_key_value_heads": 16, "intermediate_size": 5632,
    "moe_intermediate_size": 1408, "shared_expert_intermediate_size": 5632, "num_experts": 60,
    "num_experts_per_tok": 4, "decoder_sparse_step": 1, "norm_topk_prob": False, "vocab_size": 151936,
    "tie_word_embeddings": False, "max_position_embeddings": 8192, "use_sliding_window": False, "hidden_act": "silu",
    "rms_norm_eps": 1e-6}, 14315784192, KERAS.format("qwen_moe") + " (qwen1.5_moe_2.7b_en)")
def qwen3(h, L, H, kv, ffn, vocab, tie):
    return {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": h, "num_hidden_layers": L,
            "num_attention_heads": H, "num_key_value_heads": kv, "head_dim": 128, "intermediate_size": ffn,
            "vocab_size": vocab, "tie_word_embeddings": tie, "max_position_embeddings": 40960,
            "attention_bias": False, "use_sliding_window": False, "hidden_act": "silu", "rms_norm_eps": 1e-6}
add("Qwen/Qwen3-0.6B", qwen3(1024, 28, 16, 8, 3072, 151936, True), 596049920, HUB)
add("Qwen/Qwen3-8B", qwen3(4096, 36, 32, 8, 12288, 151936, False), 8190735360, HUB)
add("Qwen/Qwen3-30B-A3B", {"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 2048,
    "num_hidden_layers": 48, "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128,
    "intermediate_size": 6144, "moe_intermediate_size": 768, "num_experts": 128, "num_experts_per_tok": 8,
    "decoder_sparse_step": 1, "mlp_only_layers": [], "norm_topk_prob": True, "vocab_size": 151936,
    "tie_word_embeddings": False, "max_position_embeddings": 40960, "attention_bias": False,
    "use_sliding_window": False, "hidden_act": "silu", "rms_norm_eps": 1e-6}, 30532122624, HUB)
def gemma(t, h, L, H, kv, hd, ffn, vocab=256000, **extra):
    arch = {"gemma": "GemmaForCausalLM", "gemma2": "Gemma2ForCausalLM", "gemma3_text": "Gemma3ForCausalLM"}[t]
    d = {"architectures": [arch], "model_type": t, "hidden_size": h, "num_hidden_layers": L, "num_attention_heads": H,
         "num_key_value_heads": kv, "head_dim": hd, "intermediate_size": ffn, "vocab_size": vocab,
         "max_position_embeddings": 8192, "hidden_act": "gelu_pytorch_tanh", "rms_norm_eps": 1e-6,
         "attention_bias": False}
    d.update(extra); return d
add("google/gemma-2b", gemma("gemma", 2048, 18, 8, 1, 256, 16384, hidden_act="gelu"), 2506172416, KERAS.format("gemma") + " (gemma_2b_en)",
    note="Gemma's config.json leaves tie_word_embeddings at GemmaConfig's default (true)")
add("google/gemma-7b", gemma("gemma", 3072, 28, 16, 16, 256, 24576, hidden_act="gelu"), 8537680896, KERAS.format("gemma") + " (gemma_7b_en)")
add("google/gemma-2-2b", gemma("gemma2", 2304, 26, 8, 4, 256, 9216, sliding_window=4096, hidden_activation="gelu_pytorch_tanh"), 2614341888, HUB)
add("google/gemma-2-9b", gemma("gemma2", 3584, 42, 16, 8, 256, 14336, sliding_window=4096, hidden_activation="gelu_pytorch_tanh"), 9241705984, HUB)
add("google/gemma-2-27b", gemma("gemma2", 4608, 46, 32, 16, 128, 36864, sliding_window=4096, hidden_activation="gelu_pytorch_tanh"), 27227128320,
    KERAS.format("gemma") + " (gemma2_27b_en)")
add("google/gemma-3-1b-pt", gemma("gemma3_text", 1152, 26, 4, 1, 256, 6912, vocab=262144, sliding_window=512,
    max_position_embeddings=32768, hidden_activation="gelu_pytorch_tanh"), 999885952, HUB)
add("microsoft/Phi-3-mini-4k-instruct", {"architectures": ["Phi3ForCausalLM"], "model_type": "phi3", "hidden_size": 3072,
    "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32, "intermediate_size": 8192,
    "vocab_size": 32064, "tie_word_embeddings": False, "max_position_embeddings": 4096, "sliding_window": 2047,
    "hidden_act": "silu", "rms_norm_eps": 1e-5}, 3821079552, KERAS.format("phi3") + " (phi3_mini_4k_instruct_en); " + HUB)
# Phi-4 (model_type phi3): embed and lm_head 100,352 x 5,120 each; per layer qkv_proj 5,120 x (5,120 + 2 x 1,280), o_proj
# 5,120^2, gate_up_proj 5,120 x 2 x 17,920, down_proj 17,920 x 5,120, two RMSNorms: 40 x 340,797,440 + 5,120 + 2 x 513,802,240
# = 14,659,507,200. Phi-4-mini: 3,072 wide, 24 heads, 8 KV heads, vocabulary 200,064 tied, rotary on 0.75 of each head:
# 32 x 100,669,440 + 3,072 + 614,596,608 = 3,836,021,760.
add("microsoft/phi-4", {"architectures": ["Phi3ForCausalLM"], "model_type": "phi3", "hidden_size": 5120,
    "num_hidden_layers": 40, "num_attention_heads": 40, "num_key_value_heads": 10, "intermediate_size": 17920,
    "vocab_size": 100352, "tie_word_embeddings": False, "max_position_embeddings": 16384, "sliding_window": None,
    "hidden_act": "silu", "rms_norm_eps": 1e-5}, 14659507200, HUB)
add("microsoft/Phi-4-mini-instruct", {"architectures": ["Phi3ForCausalLM"], "model_type": "phi3", "hidden_size": 3072,
    "num_hidden_layers": 32, "num_attention_heads": 24, "num_key_value_heads": 8, "intermediate_size": 8192,
    "vocab_size": 200064, "tie_word_embeddings": True, "max_position_embeddings": 131072, "sliding_window": 262144,
    "partial_rotary_factor": 0.75, "hidden_act": "silu", "rms_norm_eps": 1e-5}, 3836021760, HUB)
# PhiForCausalLM: 32 x 2560 (phi-2) and 24 x 2048 (phi-1_5): per layer 4 (h^2 + h) attention, fc1 and fc2 with
# bias (2 h ffn + ffn + h), one LayerNorm (2 h); embed_tokens v h, final_layernorm 2 h, lm_head v h + v (bias).
# phi-2: 32 x 78,671,360 + 131,072,000 + 5,120 + 131,123,200 = 2,779,683,840;
# phi-1_5: 24 x 50,354,176 + 104,857,600 + 4,096 + 104,908,800 = 1,418,270,720.
def phi(h, L, ffn, kv, rot, resid):
    return {"architectures": ["PhiForCausalLM"], "model_type": "phi", "hidden_size": h, "num_hidden_layers": L,
            "num_attention_heads": 32, "num_key_value_heads": kv, "intermediate_size": ffn, "vocab_size": 51200,
            "max_position_embeddings": 2048, "partial_rotary_factor": rot, "qk_layernorm": False, "hidden_act": "gelu_new",
            "resid_pdrop": resid, "embd_pdrop": 0.0, "attention_dropout": 0.0, "layer_norm_eps": 1e-5,
            "tie_word_embeddings": False}
add("microsoft/phi-2", phi(2560, 32, 10240, 32, 0.4, 0.1), 2779683840,
    "Hugging Face Hub safetensors parameters {F16: 2779683840}, as quoted in public code (find_string over GitHub sources)")
add("microsoft/phi-1_5", phi(2048, 24, 8192, None, 0.5, 0.0), 1418270720,
    "Hugging Face Hub safetensors_total_params 1418270720, as quoted in public code, and sum(p.numel() for p in model.parameters()) = 1418270720 printed by a from-scratch Phi-1.5 loading pytorch_model.bin (find_string over GitHub sources)")
def gpt2(L, h, H):
    return {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_embd": h, "n_layer": L, "n_head": H,
            "n_inner": None, "n_positions": 1024, "n_ctx": 1024, "vocab_size": 50257, "activation_function": "gelu_new",
            "resid_pdrop": 0.1, "embd_pdrop": 0.1, "attn_pdrop": 0.1}
add("openai-community/gpt2", gpt2(12, 768, 12), 124439808, HFC + " (GPT2LMHeadModel, tied)")
add("openai-community/gpt2-medium", gpt2(24, 1024, 16), 354823168, KERAS.format("gpt2") + " (gpt2_medium_en); " + HFC)
add("openai-community/gpt2-large", gpt2(36, 1280, 20), 774030080, HFC)
add("openai-community/gpt2-xl", gpt2(48, 1600, 25), 1557611200, KERAS.format("gpt2") + " (gpt2_extra_large_en); " + HFC)
# OPTForCausalLM (modeling_opt.py): embed_tokens v x e (e = word_embed_proj_dim), positions (2048 + 2) x h (the offset of
# 2), per layer q/k/v/out_proj 4 (h^2 + h), fc1 and fc2 with bias (2 h ffn + ffn + h), two LayerNorms (4 h); the
# final_layer_norm (2 h) only in the pre-LN layout; project_in and project_out (e x h each, no bias) only when e != h;
# lm_head tied. opt-125m: 38,608,896 + 1,574,400 + 12 x 7,087,872 + 1,536 = 125,239,296. opt-350m (post-LN, e = 512, no
# final LayerNorm): 25,739,264 + 2,099,200 + 24 x 12,596,224 + 2 x 524,288 = 331,196,416. opt-6.7b (4096 wide, 32 layers,
# ffn 16384) is 6,658,473,984 by the same sum but left out: no published count of it was found quoted.
OPTW = "fp16 weight bytes / 2 of facebook/opt-* in an OPT weight-size test (opt-125m 250,478,592; opt-350m 662,392,832; opt-1.3b 2,631,516,160; opt-2.7b 5,303,193,600), as quoted in public code"
def opt(h, L, H, ffn, pre=True, proj=None, remove_final=None):
    d = {"architectures": ["OPTForCausalLM"], "model_type": "opt", "hidden_size": h, "num_hidden_layers": L,
         "num_attention_heads": H, "ffn_dim": ffn, "vocab_size": 50272, "max_position_embeddings": 2048,
         "word_embed_proj_dim": proj or h, "do_layer_norm_before": pre, "activation_function": "relu",
         "dropout": 0.1, "attention_dropout": 0.0, "activation_dropout": 0.0, "layerdrop": 0.0}
    if remove_final is not None: d["_remove_final_layer_norm"] = remove_final
    return d
add("facebook/opt-125m", opt(768, 12, 12, 3072), 125239296,
    "sum(p.numel() for p in model.parameters()) of AutoModelForCausalLM.from_pretrained('facebook/opt-125m') in AMD Quark's depth-pruning tutorial ('The original model has 125239296 parameters'), as quoted in public code; " + OPTW)
add("facebook/opt-350m", opt(1024, 24, 16, 4096, pre=False, proj=512), 331196416,
    "OPT-350M's element count in a CUDA-vs-Triton kernel benchmark ('--n_elements 331196416  # OPT-350M'), as quoted in public code; " + OPTW,
    note="post-LN (do_layer_norm_before false): no final LayerNorm; 512-wide embeddings with project_in and project_out")
add("facebook/opt-1.3b", opt(2048, 24, 32, 8192, remove_final=False), 1315758080,
    "sum(p.numel() for p in meta_model.parameters()) printed by a DeepSpeed-Chat LoRA memory estimator for its OPT actor ('[pre-lora] num params: 1315758080'), as quoted in public code; " + OPTW)
add("facebook/opt-2.7b", opt(2560, 32, 32, 10240, remove_final=False), 2651596800,
    "an OPT-2.7B MeZO fine-tuning log: checkpoint of 516 FP16 tensors, 2651596800 parameters, as quoted in public code; " + OPTW)
PY = "Pythia GPTNeoXForCausalLM parameter counts with embeddings, as listed in public code ('with_embed_size_to_params' / 'pythia-*' tables; the Pythia paper's Table 1 rounds them)"
def neox(h, L, H, vocab):
    return {"architectures": ["GPTNeoXForCausalLM"], "model_type": "gpt_neox", "hidden_size": h, "num_hidden_layers": L,
            "num_attention_heads": H, "intermediate_size": 4 * h, "vocab_size": vocab, "max_position_embeddings": 2048,
            "rotary_pct": 0.25, "use_parallel_residual": True, "tie_word_embeddings": False, "hidden_act": "gelu",
            "layer_norm_eps": 1e-5}
for name, h, L, H, vocab, n in [("70m", 512, 6, 8, 50304, 70426624), ("160m", 768, 12, 12, 50304, 162322944),
                                 ("410m", 1024, 24, 16, 50304, 405334016), ("1b", 2048, 16, 8, 50304, 1011781632),
                                 ("1.4b", 2048, 24, 16, 50304, 1414647808), ("2.8b", 2560, 32, 32, 50304, 2775208960),
                                 ("6.9b", 4096, 32, 32, 50432, 6857302016), ("12b", 5120, 36, 40, 50688, 11846072320)]:
    add("EleutherAI/pythia-" + name, neox(h, L, H, vocab), n, PY)
add("deepseek-ai/DeepSeek-V2-Lite", {"architectures": ["DeepseekV2ForCausalLM"], "model_type": "deepseek_v2",
    "hidden_size": 2048, "num_hidden_layers": 27, "num_attention_heads": 16, "num_key_value_heads": 16,
    "intermediate_size": 10944, "moe_intermediate_size": 1408, "n_routed_experts": 64, "n_shared_experts": 2,
    "num_experts_per_tok": 6, "first_k_dense_replace": 1, "moe_layer_freq": 1, "topk_method": "greedy",
    "q_lora_rank": None, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
    "vocab_size": 102400, "tie_word_embeddings": False, "max_position_embeddings": 163840, "attention_bias": False,
    "hidden_act": "silu", "rms_norm_eps": 1e-6}, 15706484224, "DeepSeek-V2-Lite total parameters as listed in public code (Hub safetensors.total); the model card rounds to 15.7B")
add("deepseek-ai/DeepSeek-V3", {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3",
    "hidden_size": 7168, "num_hidden_layers": 61, "num_attention_heads": 128, "num_key_value_heads": 128,
    "intermediate_size": 18432, "moe_intermediate_size": 2048, "n_routed_experts": 256, "n_shared_experts": 1,
    "num_experts_per_tok": 8, "first_k_dense_replace": 3, "moe_layer_freq": 1, "topk_method": "noaux_tc",
    "n_group": 8, "topk_group": 4, "num_nextn_predict_layers": 1, "q_lora_rank": 1536, "kv_lora_rank": 512,
    "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128, "vocab_size": 129280,
    "tie_word_embeddings": False, "max_position_embeddings": 163840, "attention_bias": False, "hidden_act": "silu",
    "rms_norm_eps": 1e-6}, 671026419200,
    "DeepSeek-V3 technical report (arXiv 2412.19437): 671B total parameters; 671,026,419,200 for the main model as recounted in public code (README_WEIGHTS.md: 685B on the Hub = 671B main model + 14B multi-token-prediction module, which the causal LM does not build)")
def bert(repo, h, L, H, ffn, vocab, mpe, tv, n, src, t="bert"):
    arch = {"bert": "BertForMaskedLM", "roberta": "RobertaForMaskedLM", "xlm-roberta": "XLMRobertaForMaskedLM"}[t]
    add(repo, {"architectures": [arch], "model_type": t,
               "hidden_size": h, "num_hidden_layers": L, "num_attention_heads": H, "intermediate_size": ffn,
               "vocab_size": vocab, "max_position_embeddings": mpe, "type_vocab_size": tv, "hidden_act": "gelu",
               "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1}, n, src, "base-model",
        head_params=2 * h + 2,
        note="published count is the base model with its pooler (AutoModel); the engine adds the 2-label classifier of *ForSequenceClassification (head_params)")
bert("google-bert/bert-base-uncased", 768, 12, 12, 3072, 30522, 512, 2, 109482240, HFC + " (BertModel)")
bert("google-bert/bert-large-uncased", 1024, 24, 16, 4096, 30522, 512, 2, 335141888, HFC + " (BertModel)")
bert("FacebookAI/roberta-base", 768, 12, 12, 3072, 50265, 514, 1, 124645632, HFC + " (RobertaModel)", "roberta")
bert("FacebookAI/roberta-large", 1024, 24, 16, 4096, 50265, 514, 1, 355359744, HFC + " (RobertaModel)", "roberta")
# XLM-RoBERTa: RoBERTa's modules with a 250,002-token vocabulary (modeling_xlm_roberta.py copies modeling_roberta.py).
XLMR = "from_pretrained(...).num_parameters(), as quoted in public code (find_string over GitHub sources: a model-size list of xlm-roberta-base and -large) (XLMRobertaModel)"
bert("FacebookAI/xlm-roberta-base", 768, 12, 12, 3072, 250002, 514, 1, 278043648, XLMR, "xlm-roberta")
bert("FacebookAI/xlm-roberta-large", 1024, 24, 16, 4096, 250002, 514, 1, 559890432, XLMR, "xlm-roberta")
add("distilbert/distilbert-base-uncased", {"architectures": ["DistilBertForMaskedLM"], "model_type": "distilbert",
    "dim": 768, "n_layers": 6, "n_heads": 12, "hidden_dim": 3072, "vocab_size": 30522, "max_position_embeddings": 512,
    "activation": "gelu", "dropout": 0.1, "attention_dropout": 0.1, "sinusoidal_pos_embds": False}, 66362880,
    KERAS.format("distil_bert") + "; Keras summaries of TFDistilBertMainLayer", "base-model", head_params=768 * 768 + 768 + 2 * 768 + 2,
    note="published count is DistilBertModel; the engine adds DistilBertForSequenceClassification's pre_classifier (768 x 768 + 768) and 2-label classifier")
add("albert/albert-base-v2", {"architectures": ["AlbertForMaskedLM"], "model_type": "albert", "embedding_size": 128,
    "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072,
    "vocab_size": 30000, "max_position_embeddings": 512, "type_vocab_size": 2, "hidden_act": "gelu_new",
    "hidden_dropout_prob": 0, "attention_probs_dropout_prob": 0, "num_hidden_groups": 1, "inner_group_num": 1},
    11683584, KERAS.format("albert") + " (albert_base_en_uncased)", "base-model", head_params=768 * 2 + 2,
    note="published count is AlbertModel (one shared layer group, with its pooler); the engine adds the 2-label classifier of AlbertForSequenceClassification")
def vit(repo, h, L, H, ffn, n, src):
    add(repo, {"architectures": ["ViTForImageClassification"], "model_type": "vit", "hidden_size": h,
               "num_hidden_layers": L, "num_attention_heads": H, "intermediate_size": ffn, "image_size": 224,
               "patch_size": 16, "num_channels": 3, "qkv_bias": True, "hidden_act": "gelu",
               "num_labels": 1000}, n, src, "image-classification",
        note="the Hub file lists the 1000 ImageNet classes in id2label; written here as num_labels (what transformers derives from it)")
vit("google/vit-base-patch16-224", 768, 12, 12, 3072, 86567656, "torchvision ViT_B_16_Weights.IMAGENET1K_V1 meta num_params (the same modules as ViTForImageClassification: patch conv, CLS token, positions, 12 pre-LN layers, final LN, 1000-class head)")
vit("google/vit-large-patch16-224", 1024, 24, 16, 4096, 304326632, "torchvision ViT_L_16_Weights.IMAGENET1K_V1 meta num_params (same modules as ViTForImageClassification)")
def whisper(size, d, L, H, n):
    add("openai/whisper-" + size, {"architectures": ["WhisperForConditionalGeneration"], "model_type": "whisper",
        "d_model": d, "encoder_layers": L, "decoder_layers": L, "encoder_attention_heads": H,
        "decoder_attention_heads": H, "encoder_ffn_dim": 4 * d, "decoder_ffn_dim": 4 * d, "vocab_size": 51865,
        "num_mel_bins": 80, "max_source_positions": 1500, "max_target_positions": 448,
        "activation_function": "gelu", "dropout": 0.0, "scale_embedding": False}, n,
        KERAS.format("whisper") + " (whisper_" + size.replace("-v2", "") + "_multi" + ("_v2" if "v2" in size else "") + "), the same modules as WhisperForConditionalGeneration (proj_out tied)",
        "encoder-decoder")
whisper("tiny", 384, 4, 6, 37760640)
whisper("base", 512, 6, 8, 72593920)
whisper("small", 768, 12, 12, 241734912)
whisper("medium", 1024, 24, 16, 763857920)
whisper("large-v2", 1280, 32, 20, 1543304960)
add("openai/clip-vit-large-patch14", {"model_type": "clip_vision_model", "hidden_size": 1024, "intermediate_size": 4096,
    "num_hidden_layers": 24, "num_attention_heads": 16, "image_size": 224, "patch_size": 14, "num_channels": 3,
    "hidden_act": "quick_gelu", "projection_dim": 768}, 303179776,
    "CLIPVisionModel.from_pretrained('openai/clip-vit-large-patch14') trainable_params / all_params, as printed in public code (FusionBench model info)",
    "base-model", head_params=2 * 1024 + 2,
    note="the repo's config.json is a two-tower 'clip' config; this is its vision_config, given model_type clip_vision_model as CLIPVisionConfig names it. The published count is CLIPVisionModel; the engine adds CLIPForImageClassification's 2-label classifier (head_params)")
doc = {"schema_version": 1,
       "title": "Hugging Face config.json files and the published parameter counts of the models they describe",
       "tool": "tools/measure/hf_configs.py",
       "about": "Each case: a model on the Hugging Face Hub, its config.json (the fields transformers reads for the architecture, copied from the file at config_source; other fields such as rope_theta, bos/eos ids, torch_dtype left out), the published parameter count of the module named in 'counted', and where that count is published. The counts were not fetched from the Hub here (no internet): each was found quoted in public code by a code search, or in the model's paper. tests/catalog/test_hf_config.cpp reads each config with catalog::parse_hf_config and compares the engine's count.",
       "tolerance_fraction": 0.001,
       "tolerance_reason": "the issue's 0.1%; every count here is matched exactly, the tolerance only admits a published count that is rounded (DeepSeek-V3's 671B)",
       "counted": {"causal-lm": "*ForCausalLM / LMHeadModel with its vocabulary head (tied weights counted once) = the engine's total",
                   "base-model": "the base model (AutoModel) = the engine's total minus head_params, the task head the engine adds",
                   "image-classification": "ViTForImageClassification with the config's labels = the engine's total",
                   "encoder-decoder": "WhisperForConditionalGeneration (encoder, decoder, tied proj_out) = the engine's total"},
       "cases": cases}
print(json.dumps(doc, indent=1, ensure_ascii=False))
