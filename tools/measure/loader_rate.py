#!/usr/bin/python3
# Per-core rate of the common torchvision input pipelines (issue 42, the data loader): samples/s that ONE process
# (one DataLoader worker) delivers, on this machine's CPU. Supporting evidence only: these cores are not Colab's or
# Kaggle's; the engine's rates must come from published measurements. Prints one JSON object to stdout.
#   CIFAR-10 train transform of the torchvision/pytorch examples: RandomCrop(32, padding=4), RandomHorizontalFlip,
#     ToTensor, Normalize, on a 32x32 PIL image held in memory (CIFAR10 keeps the decoded uint8 array);
#   ImageNet train transform of pytorch/examples imagenet/main.py: PIL decode of a JPEG (a 500x375 quality-90 photo-
#     sized image, ImageNet's typical size), RandomResizedCrop(224), RandomHorizontalFlip, ToTensor, Normalize.
# Usage: /usr/bin/python3 tools/measure/loader_rate.py [--seconds 5]
import io
import json
import os
import platform
import sys
import time

import numpy as np
import torch
from PIL import Image
import torchvision
import torchvision.transforms as T

torch.set_num_threads(1)  # one worker = one core (DataLoader workers run torch single-threaded)
SECONDS = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 5.0
rng = np.random.default_rng(0)


def rate(make_sample, transform):
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        transform(make_sample())
        n += 1
    return n / (time.perf_counter() - start)


norm = T.Normalize((0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616))
cifar = T.Compose([T.RandomCrop(32, padding=4), T.RandomHorizontalFlip(), T.ToTensor(), norm])
cifar_images = [Image.fromarray(rng.integers(0, 256, (32, 32, 3), dtype=np.uint8)) for _ in range(256)]
i = [0]


def next_cifar():
    i[0] += 1
    return cifar_images[i[0] % len(cifar_images)]


# A smooth photo-like image (random pixels compress far worse than photos and decode slower).
y, x = np.mgrid[0:375, 0:500]
photo = np.stack([(x * 0.5 + y * 0.2) % 256, (x * 0.1 + y * 0.6) % 256, (x * 0.3 + y * 0.3) % 256], -1)
photo = (photo + rng.normal(0, 12, photo.shape)).clip(0, 255).astype(np.uint8)
buf = io.BytesIO()
Image.fromarray(photo).save(buf, format="JPEG", quality=90)
jpeg = buf.getvalue()
imagenet = T.Compose([T.RandomResizedCrop(224), T.RandomHorizontalFlip(), T.ToTensor(),
                      T.Normalize((0.485, 0.456, 0.406), (0.229, 0.224, 0.225))])


def next_jpeg():
    return Image.open(io.BytesIO(jpeg)).convert("RGB")


out = {
    "tool": "tools/measure/loader_rate.py",
    "what": "samples/s one process delivers (torch.set_num_threads(1)), supporting evidence only",
    "cpu": platform.processor() or platform.machine(),
    "cpu_model": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), ""),
    "torch": torch.__version__, "torchvision": torchvision.__version__, "pillow": Image.__version__,
    "cores_visible": os.cpu_count(),
    "cifar10_pil_augment_samples_per_s": round(rate(next_cifar, cifar), 1),
    "imagenet_jpeg_decode_rrc_samples_per_s": round(rate(next_jpeg, imagenet), 1),
    "jpeg_bytes": len(jpeg),
}
print(json.dumps(out, indent=2))
