# Published architecture configs of the transformer presets (fields copied from each model's config.json on the
# Hugging Face Hub, URL next to each), in the keys hf_minimal.py takes. Data only; no torch import.
HF = "https://huggingface.co/{}/blob/main/config.json"

ENCODERS = {
    # id: (hub repo, module counted, config)
    "bert-base": ("google-bert/bert-base-uncased", dict(
        layers=12, hidden=768, heads=12, ffn=3072, vocab=30522, max_positions=512, type_vocab=2, num_labels=2)),
    "bert-large": ("google-bert/bert-large-uncased", dict(
        layers=24, hidden=1024, heads=16, ffn=4096, vocab=30522, max_positions=512, type_vocab=2, num_labels=2)),
    # RoBERTa: vocab 50265, max_position_embeddings 514 (padding_idx 1 + 2 offset), type_vocab_size 1, eps 1e-5
    "roberta-base": ("FacebookAI/roberta-base", dict(
        layers=12, hidden=768, heads=12, ffn=3072, vocab=50265, max_positions=514, type_vocab=1, num_labels=2,
        ln_eps=1e-5, position_offset=2)),
}

ALBERT = {
    "albert-base": ("albert/albert-base-v2", dict(
        layers=12, hidden=768, heads=12, ffn=3072, vocab=30000, max_positions=512, type_vocab=2, embedding=128)),
}

GPT2 = {
    "gpt2": ("openai-community/gpt2", dict(layers=12, hidden=768, heads=12, vocab=50257, n_positions=1024)),
    "gpt2-medium": ("openai-community/gpt2-medium", dict(layers=24, hidden=1024, heads=16, vocab=50257, n_positions=1024)),
    "gpt2-large": ("openai-community/gpt2-large", dict(layers=36, hidden=1280, heads=20, vocab=50257, n_positions=1024)),
    "gpt2-xl": ("openai-community/gpt2-xl", dict(layers=48, hidden=1600, heads=25, vocab=50257, n_positions=1024)),
}

DECODERS = {
    "llama-2-7b": ("meta-llama/Llama-2-7b-hf", dict(
        layers=32, hidden=4096, heads=32, kv_heads=32, ffn=11008, vocab=32000, tied_embeddings=False)),
    "llama-2-13b": ("meta-llama/Llama-2-13b-hf", dict(
        layers=40, hidden=5120, heads=40, kv_heads=40, ffn=13824, vocab=32000, tied_embeddings=False)),
    "llama-2-70b": ("meta-llama/Llama-2-70b-hf", dict(
        layers=80, hidden=8192, heads=64, kv_heads=8, ffn=28672, vocab=32000, tied_embeddings=False)),
    "llama-3.1-8b": ("meta-llama/Llama-3.1-8B", dict(
        layers=32, hidden=4096, heads=32, kv_heads=8, ffn=14336, vocab=128256, tied_embeddings=False)),
    "llama-3.1-70b": ("meta-llama/Llama-3.1-70B", dict(
        layers=80, hidden=8192, heads=64, kv_heads=8, ffn=28672, vocab=128256, tied_embeddings=False)),
    "llama-3.2-1b": ("meta-llama/Llama-3.2-1B", dict(
        layers=16, hidden=2048, heads=32, kv_heads=8, ffn=8192, vocab=128256, tied_embeddings=True)),
    "llama-3.2-3b": ("meta-llama/Llama-3.2-3B", dict(
        layers=28, hidden=3072, heads=24, kv_heads=8, ffn=8192, vocab=128256, tied_embeddings=True)),
    "qwen2.5-0.5b": ("Qwen/Qwen2.5-0.5B", dict(
        layers=24, hidden=896, heads=14, kv_heads=2, ffn=4864, vocab=151936, tied_embeddings=True, qkv_bias=True)),
    "qwen2.5-1.5b": ("Qwen/Qwen2.5-1.5B", dict(
        layers=28, hidden=1536, heads=12, kv_heads=2, ffn=8960, vocab=151936, tied_embeddings=True, qkv_bias=True)),
    "qwen2.5-7b": ("Qwen/Qwen2.5-7B", dict(
        layers=28, hidden=3584, heads=28, kv_heads=4, ffn=18944, vocab=152064, tied_embeddings=False, qkv_bias=True)),
    "qwen2.5-14b": ("Qwen/Qwen2.5-14B", dict(
        layers=48, hidden=5120, heads=40, kv_heads=8, ffn=13824, vocab=152064, tied_embeddings=False, qkv_bias=True)),
    "qwen2.5-32b": ("Qwen/Qwen2.5-32B", dict(
        layers=64, hidden=5120, heads=40, kv_heads=8, ffn=27648, vocab=152064, tied_embeddings=False, qkv_bias=True)),
    "qwen2.5-72b": ("Qwen/Qwen2.5-72B", dict(
        layers=80, hidden=8192, heads=64, kv_heads=8, ffn=29568, vocab=152064, tied_embeddings=False, qkv_bias=True)),
    "mistral-7b": ("mistralai/Mistral-7B-v0.1", dict(
        layers=32, hidden=4096, heads=32, kv_heads=8, ffn=14336, vocab=32000, tied_embeddings=False)),
    "mixtral-8x7b": ("mistralai/Mixtral-8x7B-v0.1", dict(
        layers=32, hidden=4096, heads=32, kv_heads=8, ffn=14336, vocab=32000, tied_embeddings=False,
        experts=8, top_k=2)),
}
