#!/usr/bin/python3
# Bytes that autograd saves for backward in one training forward (model.train(), loss included), measured with
# torch.autograd.graph.saved_tensors_hooks on the CPU and printed as a validation case file. Parameters and buffers
# (and views of them) are excluded; tensors are deduplicated by storage and each storage counts in full
# (storage().nbytes()), because a saved view keeps its whole storage alive. Must not run a backward or an optimizer.
# Usage: /usr/bin/python3 tools/measure/saved_activations.py > tests/validation/measured_saved_activations.json
#        /usr/bin/python3 tools/measure/saved_activations.py --case ID     (one case, JSON on stdout; used by main)
# Each case runs in a fresh process (so allocator state and autocast caches never leak between cases).
# Sections: cases | measuring | building models | main
import argparse
import datetime
import json
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # keep tools/measure free of __pycache__
SCRIPT = "tools/measure/saved_activations.py"


def _deb(pkg):
    """Debian package version (torch.__version__ of Debian's 1.13.1 build reads 1.13.0a0)."""
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True, check=False)
    return out.stdout.strip() or "unknown"
HERE = os.path.dirname(os.path.abspath(__file__))

# ------------------------------------------------------------------------------------------------------- cases
# Reduced Llama-style decoder (2 layers; hidden, ffn and vocab as TinyLlama-1.1B, but 16 heads and 8 KV heads):
# small enough for this CPU.
LLAMA_SMALL = {"family": "decoder", "layers": 2, "hidden": 2048, "heads": 16, "kv_heads": 8, "ffn": 5632,
               "glu": True, "vocab": 32000, "tied_embeddings": False, "norm": "rmsnorm", "position": "rope",
               "bias": False, "experts": 1, "top_k": 1}

# The widely used PyTorch U-Net (github.com/milesial/Pytorch-UNet, unet/unet_model.py + unet_parts.py,
# bilinear=False): DoubleConv = (conv3x3 no bias, BatchNorm, ReLU) x 2; 4 max-pool downs 64 -> 1024 channels; 4
# transposed-conv ups with skip concatenation; 1x1 output conv. The keys below are a proposal for a "unet" family.
UNET_SMALL = {"family": "unet", "in_channels": 3, "classes": 2, "width": 64, "depth": 4,
              "upsampling": "transposed-conv", "norm": "batchnorm"}


# A custom Wide-ResNet with dropout between each block's convolutions (the paper's CIFAR runs use 0.3).
WRN_16_4_DROPOUT = {"family": "wide-resnet", "depth": 16, "widen": 4, "classes": 10, "dropout": 0.3}


def _unet(c):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    def double_conv(i, o):
        return nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True),
                             nn.Conv2d(o, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))

    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            w, d = c["width"], c["depth"]
            ch = [w * 2 ** k for k in range(d + 1)]
            self.inc = double_conv(c["in_channels"], ch[0])
            self.downs = nn.ModuleList([double_conv(ch[k], ch[k + 1]) for k in range(d)])
            self.ups = nn.ModuleList([nn.ConvTranspose2d(ch[k + 1], ch[k], 2, stride=2) for k in reversed(range(d))])
            self.up_convs = nn.ModuleList([double_conv(ch[k + 1], ch[k]) for k in reversed(range(d))])
            self.outc = nn.Conv2d(ch[0], c["classes"], 1)

        def forward(self, x):
            skips = [self.inc(x)]
            for down in self.downs:
                skips.append(down(F.max_pool2d(skips[-1], 2)))
            x = skips.pop()
            for up, conv in zip(self.ups, self.up_convs):
                x = conv(torch.cat([skips.pop(), up(x)], dim=1))
            return self.outc(x)

    return UNet()


def _cases():
    cs = []
    for m in ("resnet18", "resnet50", "vgg16", "mobilenet-v2", "efficientnet-b0"):
        for b in (1, 4):
            cs.append(dict(id=f"{m}-224px-b{b}-fp32", model=m, batch=b, image=224, precision="fp32"))
    cs.append(dict(id="resnet50-128px-b1-fp32", model="resnet50", batch=1, image=128, precision="fp32"))
    cs.append(dict(id="resnet50-128px-b4-fp32", model="resnet50", batch=4, image=128, precision="fp32"))
    for b in (1, 2):
        cs.append(dict(id=f"vit-b-16-224px-b{b}-fp32", model="vit-b-16", batch=b, image=224, precision="fp32"))
    for s in (128, 512):
        for b in (1, 2):
            cs.append(dict(id=f"bert-base-s{s}-b{b}-fp32-eager", model="bert-base", batch=b, seq=s, precision="fp32"))
    for s in (256, 1024):
        cs.append(dict(id=f"gpt2-s{s}-b1-fp32-eager", model="gpt2", batch=1, seq=s, precision="fp32"))
    cs.append(dict(id="llama-style-2l-h2048-s512-b1-fp32-eager", model=LLAMA_SMALL, batch=1, seq=512,
                   precision="fp32"))
    cs.append(dict(id="llama-style-2l-h2048-s512-b2-fp32-eager", model=LLAMA_SMALL, batch=2, seq=512,
                   precision="fp32"))
    for b in (1, 2):
        cs.append(dict(id=f"unet-w64-256px-b{b}-fp32", model=UNET_SMALL, batch=b, image=256, precision="fp32"))
    # bf16 autocast on the CPU (see the notes of each case for how CPU autocast differs from CUDA autocast)
    cs.append(dict(id="resnet50-224px-b4-bf16amp", model="resnet50", batch=4, image=224, precision="bf16-amp"))
    cs.append(dict(id="bert-base-s128-b2-bf16amp-eager", model="bert-base", batch=2, seq=128,
                   precision="bf16-amp"))
    cs.append(dict(id="gpt2-s256-b1-bf16amp-eager", model="gpt2", batch=1, seq=256, precision="bf16-amp"))
    # CIFAR networks (issue 42): kuangliu/pytorch-cifar's ResNets and a Wide-ResNet with dropout (cifar_models.py).
    for b in (1, 4):
        cs.append(dict(id=f"resnet18-cifar-32px-b{b}-fp32", model="resnet18-cifar", batch=b, image=32, precision="fp32"))
    cs.append(dict(id="resnet50-cifar-32px-b2-fp32", model="resnet50-cifar", batch=2, image=32, precision="fp32"))
    cs.append(dict(id="wrn-28-10-32px-b2-fp32", model="wrn-28-10", batch=2, image=32, precision="fp32"))
    cs.append(dict(id="wrn-16-4-dropout0.3-32px-b4-fp32", model=WRN_16_4_DROPOUT, batch=4, image=32, precision="fp32"))
    cs.append(dict(id="resnet18-cifar-32px-b4-bf16amp", model="resnet18-cifar", batch=4, image=32,
                   precision="bf16-amp"))
    cs.append(dict(id="llama-style-2l-h2048-s512-b1-bf16amp-eager", model=LLAMA_SMALL, batch=1, seq=512,
                   precision="bf16-amp"))
    return {c["id"]: c for c in cs}


CASES = _cases()


# --------------------------------------------------------------------------------------------------- measuring
def _producer(t):
    """Name of the autograd node that produced t, looking through view ops."""
    fn = t.grad_fn
    views = ("ViewBackward0", "TransposeBackward0", "PermuteBackward0", "ExpandBackward0", "UnsqueezeBackward0",
             "SliceBackward0", "SelectBackward0", "SplitBackward0", "TBackward0", "AsStridedBackward0",
             "UnsafeViewBackward0", "ReshapeAliasBackward0", "SqueezeBackward0", "SqueezeBackward1")
    while fn is not None and type(fn).__name__ in views:
        fn = fn.next_functions[0][0]
    if fn is None:
        return "leaf-no-grad" if not t.requires_grad else "leaf"
    name = type(fn).__name__
    if name == "ToCopyBackward0" and fn.next_functions and type(fn.next_functions[0][0]).__name__ == "AccumulateGrad":
        return "autocast-weight-copy"
    return name


def measure(model, run_forward, autocast_bf16):
    """Run one training forward under saved_tensors_hooks; return (totals, breakdown)."""
    import torch

    excluded = set()
    for p in list(model.parameters()) + list(model.buffers()):
        excluded.add(p.storage().data_ptr())
    seen = {}  # storage ptr -> record
    naive = [0]
    excluded_hits = [0]

    def pack(t):
        ptr = t.storage().data_ptr()
        naive[0] += t.numel() * t.element_size()
        if ptr in excluded:
            excluded_hits[0] += 1
            return t
        if ptr not in seen:
            seen[ptr] = dict(bytes=t.storage().nbytes(), dtype=str(t.dtype).replace("torch.", ""),
                             producer=_producer(t), shape=list(t.shape))
        return t

    def unpack(t):
        return t

    torch.manual_seed(0)
    t0 = time.time()
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        if autocast_bf16:
            with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
                loss = run_forward()
        else:
            loss = run_forward()
    wall_s = time.time() - t0
    assert loss.requires_grad, "the forward must end in a loss that requires grad; check model.train() and params"
    total = sum(r["bytes"] for r in seen.values())
    by_dtype, by_producer = {}, {}
    for r in seen.values():
        by_dtype[r["dtype"]] = by_dtype.get(r["dtype"], 0) + r["bytes"]
        by_producer[r["producer"]] = by_producer.get(r["producer"], 0) + r["bytes"]
    top = dict(sorted(by_producer.items(), key=lambda kv: -kv[1])[:10])
    return dict(saved_bytes=total, storages_count=len(seen), naive_view_sum_bytes=naive[0],
                param_or_buffer_saves_count=excluded_hits[0], by_dtype_bytes=by_dtype,
                by_producer_bytes_top10=top,
                autocast_weight_copy_bytes=by_producer.get("autocast-weight-copy", 0),
                bool_mask_bytes=by_dtype.get("bool", 0),
                softmax_output_bytes=by_producer.get("SoftmaxBackward0", 0),
                log_softmax_output_bytes=by_producer.get("LogSoftmaxBackward0", 0),
                forward_wall_s=round(wall_s, 2))


# ---------------------------------------------------------------------------------------------- building models
def _use_gpu_dropout():
    """Route F.dropout through torch.native_dropout (CUDA's op, 1-byte bool masks); CPU F.dropout keeps fp32 masks."""
    import torch
    import torch.nn.functional as F

    def dropout(input, p=0.5, training=True, inplace=False):
        if not training or p == 0.0:
            return input
        return torch.native_dropout(input, p, True)[0]

    F.dropout = dropout


def _use_cuda_autocast_fp32_policy():
    """Make CPU autocast run the ops of CUDA's "autocast to float32" list that these models use in fp32, as CUDA
    autocast does (PyTorch 1.13 docs, amp.html, "CUDA Ops that can autocast to float32": layer_norm, softmax,
    log_softmax, pow, rsqrt, ...). CPU autocast would run them in bf16 (and its layer_norm rejects a bf16 input
    with fp32 weights). softmax/log_softmax without dtype get dtype=float32 (CUDA's fp32_set_opt_dtype policy); the
    others get their floating inputs cast to fp32 (fp32 policy)."""
    import torch
    import torch.nn.functional as F

    on = torch.is_autocast_cpu_enabled

    def up(t):
        return t.float() if isinstance(t, torch.Tensor) and t.is_floating_point() else t

    def opt_dtype(f):
        def g(input, dim=None, _stacklevel=3, dtype=None):
            if on() and dtype is None:
                dtype = torch.float32
            return f(input, dim, _stacklevel, dtype)
        return g

    def fp32(f):
        def g(*args, **kw):
            if on():
                args = tuple(up(a) for a in args)
                kw = {k: up(v) for k, v in kw.items()}
            return f(*args, **kw)
        return g

    F.softmax, F.log_softmax = opt_dtype(F.softmax), opt_dtype(F.log_softmax)
    F.layer_norm = fp32(F.layer_norm)
    torch.pow, torch.rsqrt = fp32(torch.pow), fp32(torch.rsqrt)
    torch.Tensor.pow, torch.Tensor.__pow__, torch.Tensor.rsqrt = (
        fp32(torch.Tensor.pow), fp32(torch.Tensor.__pow__), fp32(torch.Tensor.rsqrt))


def build(case):
    import torch
    import torch.nn.functional as F
    sys.path.insert(0, HERE)
    import cifar_models
    import configs
    import hf_minimal as hm

    torch.manual_seed(0)
    m, b = case["model"], case["batch"]
    if isinstance(m, dict) and m["family"] == "unet":
        model = _unet(m).train()
        x = torch.randn(b, m["in_channels"], case["image"], case["image"])
        y = torch.randint(0, m["classes"], (b, case["image"], case["image"]))
        return model, lambda: F.cross_entropy(model(x), y), "U-Net (milesial/Pytorch-UNet layout) + pixel cross_entropy"
    if (isinstance(m, dict) and m["family"] == "wide-resnet") or (isinstance(m, str) and m in cifar_models.PRESETS):
        model = (cifar_models.WideResNet(m["depth"], m["widen"], m["classes"], m["dropout"]) if isinstance(m, dict)
                 else cifar_models.PRESETS[m]()).train()
        x = torch.randn(b, 3, case["image"], case["image"])
        y = torch.randint(0, 10, (b,))
        what = "Wide-ResNet" if isinstance(m, dict) else m
        return model, lambda: F.cross_entropy(model(x), y), f"tools/measure/cifar_models.py {what} + cross_entropy"
    if isinstance(m, dict):  # custom decoder
        c = {k: m[k] for k in ("layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "tied_embeddings")}
        model = hm.DecoderForCausalLM(c).train()
        ids = torch.randint(0, c["vocab"], (b, case["seq"]))
        return model, lambda: model(ids), "DecoderForCausalLM (hf_minimal, LlamaForCausalLM v4.39 eager ops)"
    if m == "bert-base":
        c = configs.ENCODERS["bert-base"][1]
        model = hm.BertForSequenceClassification(c).train()
        ids = torch.randint(0, c["vocab"], (b, case["seq"]))
        labels = torch.randint(0, c["num_labels"], (b,))
        return model, lambda: model(ids, labels), "BertForSequenceClassification, 2 labels (hf_minimal, v4.39 eager)"
    if m == "gpt2":
        c = configs.GPT2["gpt2"][1]
        model = hm.GPT2LMHeadModel(c).train()
        ids = torch.randint(0, c["vocab"], (b, case["seq"]))
        return model, lambda: model(ids), "GPT2LMHeadModel with LM loss (hf_minimal, v4.39 eager)"
    import torchvision.models as tvm
    ctor = {"resnet18": tvm.resnet18, "resnet50": tvm.resnet50, "vgg16": tvm.vgg16,
            "mobilenet-v2": tvm.mobilenet_v2, "efficientnet-b0": tvm.efficientnet_b0, "vit-b-16": tvm.vit_b_16}[m]
    model = ctor(num_classes=1000).train()
    x = torch.randn(b, 3, case["image"], case["image"])
    y = torch.randint(0, 1000, (b,))
    return model, lambda: F.cross_entropy(model(x), y), f"torchvision {ctor.__name__}(num_classes=1000) + cross_entropy"


def run_case(case_id):
    import torch
    torch.set_num_threads(2)
    _use_gpu_dropout()
    case = CASES[case_id]
    if case["precision"] == "bf16-amp":
        _use_cuda_autocast_fp32_policy()
    model, fwd, what = build(case)
    r = measure(model, fwd, case["precision"] == "bf16-amp")
    r["module"] = what
    r["params_count"] = sum(p.numel() for p in model.parameters())
    return r


# -------------------------------------------------------------------------------------------------------- main
CPU_AUTOCAST_NOTE = (
    "bf16 autocast run on the CPU with CUDA's policy emulated: CPU autocast (torch 1.13) casts only "
    "conv/linear/matmul/bmm/addmm/baddbmm to bf16 and leaves softmax, log_softmax, layer_norm, pow, rsqrt in the "
    "input dtype, while CUDA autocast runs those in fp32 (PyTorch 1.13 docs, amp.html, 'CUDA Ops that can autocast "
    "to float32'); the worker wraps them to do what CUDA does (so LayerNorm inputs are saved as fp32 copies, "
    "softmax outputs are fp32 and the next matmul saves a bf16 copy of them, and the residual stream after a "
    "LayerNorm is fp32). Ops on neither list (gelu, tanh, silu, dropout, batch_norm, relu, add/mul) run in their "
    "input dtype on both devices. Autocast also keeps a bf16 copy of every weight a conv/linear uses until "
    "backward (about 2 bytes per such parameter; embeddings are not copied): NOT in the value, given above as "
    "'autocast weight copies'; count them with the weights. Remaining CPU/CUDA differences: cuDNN batch_norm also saves "
    "a reserve buffer; fused SDPA/flash attention is not used here (eager).")


def scenario(case):
    s = {"model": case["model"], "batch_size": case["batch"], "grad_accum_steps": 1,
         "precision": case["precision"], "optimizer": "adamw", "method": "full", "checkpointing": "none"}
    if "image" in case:
        s["image_size"] = case["image"]
    if "seq" in case:
        s["seq_len"] = case["seq"]
        s["attention"] = "eager"
    if case["model"] == "vit-b-16":
        s["attention"] = "eager"
    return s


def notes_for(case, r):
    parts = [f"Module: {r['module']}; {r['params_count']} parameters. Counted: every tensor saved for backward "
             f"in one training forward incl. the loss, excluding parameters/buffers and their views "
             f"({r['param_or_buffer_saves_count']} such saves) and autocast's bf16 weight copies; deduplicated by "
             f"storage ({r['storages_count']} storages incl. weight copies; a naive per-view sum would be "
             f"{r['naive_view_sum_bytes']} bytes). Dropout as torch.native_dropout (1-byte bool masks, as CUDA). "
             f"Breakdown of all saved storages (bytes, weight copies included): by dtype "
             f"{json.dumps(r['by_dtype_bytes'], sort_keys=True)}; by producing op (top 10) "
             f"{json.dumps(r['by_producer_bytes_top10'])}; bool masks {r['bool_mask_bytes']}; softmax outputs "
             f"{r['softmax_output_bytes']}; loss log_softmax output {r['log_softmax_output_bytes']}; autocast weight "
             f"copies {r['autocast_weight_copy_bytes']}."]
    m = case["model"]
    if m == "vit-b-16":
        parts.append("torchvision 0.14 ViT uses nn.MultiheadAttention; in torch 1.13 its training path is the "
                     "math attention (scores 197x197 per head are materialised and saved), i.e. eager. PyTorch 2.x on "
                     "a GPU would use a fused SDPA kernel for need_weights=False and save less. Dropout 0.0 (no masks).")
    if m == "bert-base":
        s, b, h, a, layers = case["seq"], case["batch"], 768, 12, 12
        k_bytes = layers * (66 * s * b * h + 9 * a * s * s * b)
        parts.append("Eager attention: softmax output (fp32), its dropout mask (1 byte) and the dropped "
                     "probabilities (fp32) are saved per layer (9 bytes per score); hidden dropout 0.1 as 1-byte "
                     "masks. Cross-check: Korthikanti et al. 2022 (arXiv:2205.05198, Sec. 4.1) give per layer "
                     "sbh(34 + 5as/h) bytes for 16-bit activations with 1-byte masks; the same accounting in fp32 "
                     f"is sbh(66 + 9as/h), i.e. {k_bytes} bytes for 12 layers here "
                     f"({100.0 * k_bytes / r['saved_bytes']:.1f}% of the measured total; the rest is embeddings, "
                     f"pooler and loss).")
    if m == "gpt2":
        parts.append("gelu_new is the tanh formula written as elementwise ops (HF NewGELUActivation), which saves "
                     "several b x s x 3072 tensors per layer; q, k, v are views of the c_attn output, so that "
                     "whole b x s x 2304 storage is kept. Loss: log_softmax over (s-1) x 50257 in fp32.")
    if (isinstance(m, str) and m.endswith("-cifar") or m == "wrn-28-10") or (isinstance(m, dict) and m["family"] == "wide-resnet"):
        parts.append("CIFAR network (tools/measure/cifar_models.py): kuangliu/pytorch-cifar ResNets use F.relu (not in "
                     "place: it saves its result, bn's output is freed) and a 3x3 stride-1 stem without max-pool; the "
                     "Wide-ResNet's pre-activation blocks use ReLU in place (conv1 saves the same storage) and "
                     "F.dropout between the convolutions (a 1-byte mask per element, as CUDA's native_dropout).")
    if isinstance(m, dict) and m["family"] == "unet":
        parts.append("U-Net as in github.com/milesial/Pytorch-UNet (bilinear=False): conv3x3-BN-ReLU pairs, ReLU in "
                     "place (conv input and ReLU output share storage), max-pool keeps int64 indices, torch.cat "
                     "saves nothing, loss = per-pixel cross_entropy over 2 classes (its log_softmax output is "
                     "b x 2 x H x W fp32). The model keys are a proposed custom 'unet' family, not a preset.")
    elif isinstance(m, dict):
        parts.append("Llama-style (HF v4.39 LlamaForCausalLM eager): RMSNorm upcasts to fp32 and saves its input "
                     "and normalised output; repeat_kv copies K and V to all 16 heads before the saved matmuls; "
                     "attention_dropout 0 (no masks); softmax computed in fp32; logits.float() then log_softmax "
                     "over (s-1) x 32000 in fp32. Reduced for this CPU: 2 layers, hidden 2048, 16 heads (head_dim 128), "
                     "8 KV heads, ffn 5632, vocab 32000.")
        pow_b = r["by_producer_bytes_top10"].get("PowBackward0", 0)
        parts.append(f"torch 1.13 quirk: mean(dim) saves its whole input (its backward uses self.sym_numel()), so "
                     f"every RMSNorm also keeps x^2 in fp32: {pow_b} bytes here; a newer PyTorch may keep only "
                     f"the element count (not verified).")
    if case["precision"] == "bf16-amp":
        parts.append(CPU_AUTOCAST_NOTE)
    return " ".join(parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case")
    ap.add_argument("--only", help="comma-separated case ids (default: all)")
    a = ap.parse_args()
    if a.case:
        json.dump(run_case(a.case), sys.stdout)
        return
    import torch
    import torchvision
    ids = a.only.split(",") if a.only else list(CASES)
    cases = []
    for cid in ids:
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--case", cid], capture_output=True,
                             text=True, check=False)
        if out.returncode != 0:
            sys.stderr.write(f"case {cid} failed:\n{out.stderr}\n")
            continue
        r = json.loads(out.stdout)
        # The value is activations only: autocast's bf16 weight copies are derived from parameters and an engine
        # counts them with the weights (they are in the notes and in source_detail).
        value = r["saved_bytes"] - r["autocast_weight_copy_bytes"]
        sys.stderr.write(f"{cid}: {value} bytes ({r['forward_wall_s']} s)\n")
        case = CASES[cid]
        cases.append({
            "id": cid,
            "scenario": scenario(case),
            "measured": {"quantity": "saved_activations_bytes", "value": value},
            "tolerance_fraction": 0.10,
            "tolerance_reason": "the count is exact for these ops on torch 1.13; 10% covers op-level differences "
                                "between PyTorch versions and devices (e.g. cuDNN vs CPU kernels, fused ops) that an "
                                "engine formula does not model",
            "source_detail": f"{SCRIPT} --case {cid}: saved_bytes={r['saved_bytes']} (all saved storages), "
                             f"autocast_weight_copy_bytes={r['autocast_weight_copy_bytes']}, value = the difference",
            "notes": notes_for(case, r),
        })
    doc = {
        "schema_version": 1,
        "title": "Bytes saved for backward by one training forward (measured with CPU PyTorch)",
        "source": {
            "citation": "own measurement with torch.autograd.graph.saved_tensors_hooks; transformer models are "
                        "re-implementations of Hugging Face transformers v4.39 eager code (tools/measure/hf_minimal.py)",
            "url": "https://pytorch.org/docs/1.13/autograd.html#hooks-for-saved-tensors",
            "tool": SCRIPT,
            "versions": f"torch {torch.__version__} (Debian python3-torch {_deb('python3-torch')}), torchvision "
                        f"{torchvision.__version__} (python3-torchvision {_deb('python3-torchvision')}), "
                        f"Python {sys.version.split()[0]}",
            "date": datetime.date.today().isoformat(),
        },
        "hardware": "CPU (the set of saved tensors does not depend on the device for these fp32 ops; bf16 cases: "
                    "see notes)",
        "cases": cases,
    }
    json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
