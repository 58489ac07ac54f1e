#!/usr/bin/python3
# Exact parameter counts (total and trainable) and parameter-tensor counts (len(list(model.parameters())), and how
# many of them have >= 2 dims) of every gpuguide preset that can be built here, printed as a validation case file
# (tests/validation/measured_params.json). Vision presets: torchvision 0.14 models, checked
# against the weights' meta["num_params"]. Transformer presets: hf_minimal.py built on the meta device (no memory),
# checked against published totals where one is known (PUBLISHED below).
# Usage: /usr/bin/python3 tools/measure/params.py > tests/validation/measured_params.json
import datetime
import json
import os
import subprocess
import sys

import torch
import torchvision
import torchvision.models as tvm

sys.dont_write_bytecode = True  # keep tools/measure free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import configs  # noqa: E402
import hf_minimal as hm  # noqa: E402
import cifar_models  # noqa: E402

SCRIPT = "tools/measure/params.py"


def _deb(pkg):
    """Debian package version (torch.__version__ of Debian's 1.13.1 build reads 1.13.0a0)."""
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True, check=False)
    return out.stdout.strip() or "unknown"


# preset id -> (torchvision constructor, weights enum whose meta["num_params"] is torchvision's published count)
VISION = {
    "resnet18": (tvm.resnet18, tvm.ResNet18_Weights.IMAGENET1K_V1),
    "resnet34": (tvm.resnet34, tvm.ResNet34_Weights.IMAGENET1K_V1),
    "resnet50": (tvm.resnet50, tvm.ResNet50_Weights.IMAGENET1K_V1),
    "resnet101": (tvm.resnet101, tvm.ResNet101_Weights.IMAGENET1K_V1),
    "vgg16": (tvm.vgg16, tvm.VGG16_Weights.IMAGENET1K_V1),
    "mobilenet-v2": (tvm.mobilenet_v2, tvm.MobileNet_V2_Weights.IMAGENET1K_V1),
    "efficientnet-b0": (tvm.efficientnet_b0, tvm.EfficientNet_B0_Weights.IMAGENET1K_V1),
    "vit-b-16": (tvm.vit_b_16, tvm.ViT_B_16_Weights.IMAGENET1K_V1),
    "vit-l-16": (tvm.vit_l_16, tvm.ViT_L_16_Weights.IMAGENET1K_V1),
}

# Published totals for the module counted here (same module, same head), with where they are published.
# These were not fetched from the Hub here (no internet); each was found quoted in public code by a code search
# (find_string over GitHub sources), usually as the Hub API field safetensors.total, a GGUF
# general.parameter_count, a KerasHub preset's "params", or a from_pretrained(...).num_parameters() printout.
_HUB = "Hugging Face Hub safetensors.total / GGUF general.parameter_count, as quoted in public code"
_HF_COUNT = "HF from_pretrained(...).num_parameters(), as quoted in public code"
PUBLISHED = {
    "bert-base": (109482240, _HF_COUNT + " (BertModel, bert-base-uncased)"),
    "bert-large": (335141888, _HF_COUNT + " (bert-large-uncased)"),
    "roberta-base": (124645632, _HF_COUNT + " (roberta-base)"),
    "albert-base": (11683584, "KerasHub albert_base_en_uncased preset params; AutoModel albert-base-v2 comment"),
    "gpt2": (124439808, _HF_COUNT + " (GPT2LMHeadModel, tied)"),
    "gpt2-large": (774030080, _HF_COUNT),
    "gpt2-xl": (1557611200, "KerasHub gpt2_extra_large_en preset params; " + _HF_COUNT),
    # Llama 2 checkpoints also store one rotary inv_freq buffer (head_dim / 2 = 64 values) per layer, so the Hub's
    # safetensors.total is params + 64 * layers: 6738417664, 13015866880, 68976653312.
    "llama-2-7b": (6738415616, "Hub safetensors.total 6738417664 minus 32 x 64 inv_freq buffer values"),
    "llama-2-13b": (13015864320, "Hub safetensors.total 13015866880 minus 40 x 64 inv_freq buffer values"),
    "llama-2-70b": (68976648192, "Hub safetensors.total 68976653312 minus 80 x 64 inv_freq buffer values"),
    "llama-3.1-8b": (8030261248, _HUB),
    "llama-3.1-70b": (70553706496, _HUB),
    "llama-3.2-1b": (1235814400, _HUB),
    "llama-3.2-3b": (3212749824, _HUB),
    "qwen2.5-0.5b": (494032768, _HUB),
    "qwen2.5-1.5b": (1543714304, _HUB),
    "qwen2.5-7b": (7615616512, _HUB),
    "qwen2.5-32b": (32763876352, _HUB),
    "qwen2.5-72b": (72706203648, _HUB),
    "mistral-7b": (7241732096, _HUB),
    "mixtral-8x7b": (46702792704, "KerasHub mixtral_8_7b_en preset params; " + _HUB),
}


def tensor_counts(module, extra_matrices=0, extra_vectors=0):
    """(tensors, matrices): unique Parameter objects, and those with >= 2 dims (what Adafactor factors)."""
    ps = list(module.parameters())
    matrices = sum(1 for p in ps if p.dim() >= 2) + extra_matrices
    return len(ps) + extra_matrices + extra_vectors, matrices


def vision_cases():
    out = []
    for pid, (ctor, weights) in VISION.items():
        m = ctor(num_classes=1000)
        total, trainable = hm.count_params(m)
        n_buffers = sum(b.numel() for b in m.buffers())
        pub = weights.meta["num_params"]
        note = (f"torchvision {torchvision.__version__} {ctor.__name__}(num_classes=1000), classifier head included; "
                f"equals torchvision's published {weights} meta['num_params'] = {pub}: "
                f"{'yes' if pub == total else 'NO'}. Buffers (BatchNorm running stats etc.) not counted: "
                f"{n_buffers} elements.")
        out.append((pid, total, trainable, tensor_counts(m), f"{ctor.__name__} built with torchvision", note))
        del m
    return out


# CIFAR presets (issue 42): published totals of the same modules, with where they are published.
CIFAR_PUBLISHED = {
    "resnet18-cifar": (11173962, "da2so/DA2Lite model_zoo/README.md (11.17M) and torchsummary printouts of "
                                 "kuangliu/pytorch-cifar ResNet18"),
    "resnet34-cifar": (21282122, "kuangliu/pytorch-cifar ResNet34 as counted with thop in public forks' READMEs"),
    "resnet50-cifar": (23520842, "kuangliu/pytorch-cifar ResNet50 as counted with thop in public forks' READMEs"),
    "wrn-28-10": (36479194, "osmr/imgclsmob pytorch/README.md CIFAR-10 table, WRN-28-10"),
}


def cifar_cases():
    out = []
    for pid, ctor in cifar_models.PRESETS.items():
        m = ctor()
        total, trainable = hm.count_params(m)
        val, where = CIFAR_PUBLISHED[pid]
        note = (f"tools/measure/cifar_models.py {pid} (10 classes, head included); published total {val} ({where}): "
                f"{'matches' if val == total else 'DIFFERS'}. Buffers not counted: "
                f"{sum(b.numel() for b in m.buffers())} elements.")
        out.append((pid, total, trainable, tensor_counts(m), f"{pid} built by cifar_models.py", note))
    return out


def transformer_cases():
    out = []
    groups = [
        (configs.ENCODERS, lambda c: hm.BertModel(c, "meta"), "BertModel (embeddings + encoder + pooler, no task head)"),
        (configs.ALBERT, lambda c: hm.AlbertModel(c, "meta"), "AlbertModel (embeddings + shared layer + pooler, no head)"),
        (configs.GPT2, lambda c: hm.GPT2LMHeadModel(c, "meta"), "GPT2LMHeadModel (lm_head tied to wte, counted once)"),
        (configs.DECODERS, lambda c: hm.DecoderForCausalLM(c, "meta"), "*ForCausalLM (lm_head included"),
    ]
    for table, build, module in groups:
        for pid, (repo, c) in table.items():
            m = build(c)
            total, trainable = hm.count_params(m)
            what = module
            if table is configs.DECODERS:
                what += ", tied to embed_tokens and counted once)" if c.get("tied_embeddings") else ", untied)"
            note = f"{what}; config from {configs.HF.format(repo)}: {json.dumps(c, sort_keys=True)}."
            counts = tensor_counts(m)
            if table is configs.ALBERT or (table is configs.ENCODERS and c.get("num_labels", 0) > 0):
                # The preset is the sequence-classification model (2 labels; data/models.json): BERT and ALBERT
                # add classifier.weight and .bias; RoBERTa drops the pooler (2 tensors) and adds dense + out_proj (4):
                # +1 matrix, +1 vector either way.
                counts = tensor_counts(m, 1, 1)
                note += " Tensor counts include the classification head (+1 matrix, +1 vector)."
            if table is configs.ENCODERS:
                head = c["hidden"] * c["num_labels"] + c["num_labels"]
                if pid.startswith("bert"):
                    note += (f" BertForSequenceClassification ({c['num_labels']} labels) adds the classifier "
                             f"Linear(h, {c['num_labels']}): {head} parameters -> {total + head}.")
                else:
                    note += (f" RobertaForSequenceClassification ({c['num_labels']} labels) drops the pooler and adds "
                             f"dense(h, h) + out_proj(h, {c['num_labels']}): net +{head} -> {total + head}.")
            if pid in PUBLISHED:
                val, where = PUBLISHED[pid]
                note += f" Published total {val} ({where}): {'matches' if val == total else 'DIFFERS'}."
            out.append((pid, total, trainable, counts, f"hf_minimal re-implementation on the meta device, {repo}", note))
            del m
    return out


def main():
    cases = []
    counts_reason = ("exact count from the model's shapes; 0.5% only absorbs an engine that rounds or omits tiny "
                     "terms (biases, norms)", "")
    tensors_reason = ("exact: a for-loop optimizer launches its kernels once per parameter tensor (docs/time-model.md, "
                      "optimizer step)", "; len(list(model.parameters())) and those with dim() >= 2")
    for pid, total, trainable, (tensors, matrices), detail, note in vision_cases() + cifar_cases() + transformer_cases():
        for q, v, tolerance, (reason, how) in (("params_total", total, 0.005, counts_reason),
                                               ("params_trainable", trainable, 0.005, counts_reason),
                                               ("param_tensors", tensors, 0.0, tensors_reason),
                                               ("param_matrices", matrices, 0.0, tensors_reason)):
            cases.append({
                "id": f"{pid}-{q.replace('_', '-')}",
                "scenario": {"model": pid, "method": "full"},
                "measured": {"quantity": q, "value": v},
                "tolerance_fraction": tolerance,
                "tolerance_reason": reason,
                "source_detail": f"{SCRIPT}: {detail}{how}",
                "notes": note,
            })
    doc = {
        "schema_version": 1,
        "title": "Exact parameter counts of the presets (measured with PyTorch)",
        "source": {
            "citation": "own count: torchvision model constructors; transformer presets re-implemented from their "
                        "Hugging Face config.json (tools/measure/hf_minimal.py)",
            "url": "https://pytorch.org/vision/0.14/models.html",
            "tool": SCRIPT,
            "versions": f"torch {torch.__version__} (Debian python3-torch {_deb('python3-torch')}), torchvision "
                        f"{torchvision.__version__} (python3-torchvision {_deb('python3-torchvision')}), "
                        f"Python {sys.version.split()[0]}",
            "date": datetime.date.today().isoformat(),
        },
        "hardware": "CPU (parameter counts do not depend on the device)",
        "cases": cases,
    }
    json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
