# Eager kernels one transformer block launches per training step, counted on CPU with a TorchDispatchMode: every
# aten op the forward and the autograd backward dispatch, split into views (no kernel on the GPU) and the rest.
# Used to compare the host-side cost of a Hugging Face BERT layer (fused LayerNorm and GELU) with a Llama-style
# decoder layer (Python RMSNorm, rotary embedding), docs/validation-sources.md sec. 7t. Not a validation file:
# the counts are quoted in the docs. Tiny shapes: the op sequence does not depend on the sizes.
#   /usr/bin/python3 tools/measure/kernel_counts.py
import collections
import os
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hf_minimal as H  # noqa: E402

VIEWS = {"view", "_unsafe_view", "_reshape_alias", "reshape", "transpose", "permute", "expand", "slice", "select",
         "unsqueeze", "squeeze", "t", "detach", "alias", "as_strided", "split", "split_with_sizes", "unbind"}


class Count(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = collections.Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops[func.overloadpacket.__name__] += 1
        return func(*args, **(kwargs or {}))


def count(layer, inputs, train_weights):
    for p in layer.parameters():
        p.requires_grad_(train_weights)
    inputs[0].requires_grad_(True)
    with Count() as fwd:
        y = layer(*inputs)
    loss = y.float().sum()
    with Count() as bwd:
        loss.backward()
    kernels = lambda c: sum(n for op, n in c.items() if op not in VIEWS)  # noqa: E731
    return kernels(fwd.ops), kernels(bwd.ops), dict(fwd.ops), dict(bwd.ops)


def main():
    torch.manual_seed(0)
    b, s = 2, 8
    x = lambda: torch.randn(b, s, 64)  # noqa: E731
    pos = torch.arange(s)[None].expand(b, s)
    causal = torch.triu(torch.full((s, s), -1e9), 1)[None, None].expand(b, 1, -1, -1)
    cases = [
        ("BERT layer (HF BertLayer, dropout 0.1), all weights train", H.BertLayer(dict(hidden=64, heads=4, ffn=256)).train(),
         lambda: (x(), torch.zeros(b, 1, 1, s)), True),
        ("Llama decoder layer (HF LlamaDecoderLayer, eager attention), all weights train",
         H.DecoderLayer(dict(hidden=64, heads=4, kv_heads=4, ffn=172)).train(), lambda: (x(), pos, causal), True),
        ("Llama decoder layer, frozen weights (the base of LoRA)",
         H.DecoderLayer(dict(hidden=64, heads=4, kv_heads=4, ffn=172)).train(), lambda: (x(), pos, causal), False),
    ]
    for name, layer, inputs, train in cases:
        f, bw, fops, bops = count(layer, list(inputs()), train)
        print(f"{name}: {f} forward + {bw} backward kernels (views excluded)")
        print(f"  forward ops:  {fops}")
        print(f"  backward ops: {bops}")


if __name__ == "__main__":
    main()
