// The Guide's "first projects" section (issue 42): the eight jobs students start with, in English and Simplified
// Chinese, as data for guide_content.h's X-macros. Sources: docs/guide-sources.md ("First projects"). No code here.
// Text contains '%': render it with "%s" or TextUnformatted, never as a format string.
#pragma once

// Paragraphs: P(FirstProjects, text_en, text_zh). A text starting with "- " is a bullet item.
#define GG_GUIDE_FIRST_PROJECTS_PARAGRAPHS(P) \
    P(FirstProjects, \
      "Most first projects are one of eight jobs. Each has a \"try it\" scenario below; the calculator then shows " \
      "its memory, its time and, on a free notebook's 2 or 4 vCPUs, whether the data loader or the GPU sets the " \
      "pace. Where someone published a measured run, it is given here beside the estimate.", \
      "大多数人的第一个项目，都是下面八种任务之一。每个任务下面都有“试一试”场景；计算器会给出显存、时间，" \
      "以及在免费笔记本只有 2 或 4 个 vCPU 时，是数据加载还是显卡决定速度。有公开实测结果的，这里一并列出，" \
      "方便和估算对照。") \
    P(FirstProjects, \
      "- ResNet-18 on CIFAR-10. Use the CIFAR ResNet-18 (3x3 stride-1 stem, no max-pool: 11,173,962 parameters), " \
      "not torchvision's ImageNet model at 32 px, which shrinks the images to 8x8 in its first layers and does " \
      "about 15 times less work. Its augmentation (random crop and flip with PIL) runs in the DataLoader's worker " \
      "processes: one process per worker, each building whole batches, so the loader delivers at most " \
      "(workers, capped at the CPUs) x one CPU's rate. On this project's own measurement one CPU does about 3,500 " \
      "CIFAR samples/s; Colab's free T4 runtime has 2 vCPUs, Kaggle's sessions 4.", \
      "- 在 CIFAR-10 上训练 ResNet-18。请用 CIFAR 版 ResNet-18（3x3、步长 1 的输入层，没有最大池化：" \
      "11,173,962 个参数），不要直接把 torchvision 的 ImageNet 版用在 32 像素图片上：它的前几层就把图片缩到 " \
      "8x8，计算量约少 15 倍。数据增强（用 PIL 随机裁剪和翻转）在 DataLoader 的工作进程里做：每个 worker 一个" \
      "进程，各自组装整批数据，所以加载速度最多是“worker 数（不超过 CPU 数）× 单个 CPU 的速度”。本项目实测单个 " \
      "CPU 每秒约处理 3,500 张 CIFAR 图片；Colab 免费 T4 运行时有 2 个 vCPU，Kaggle 会话有 4 个。") \
    P(FirstProjects, \
      "- DCGAN (the PyTorch DCGAN tutorial: 64x64 faces). Two networks, a generator of 3,576,704 parameters and " \
      "a discriminator of 2,765,568, each with its own Adam; tiny by GPU standards, so any free GPU holds it. " \
      "Each iteration trains D on a real and a fake batch, then G through D: the example below is the " \
      "tutorial's run (CelebA's 202,599 faces, batch 128, 5 epochs).", \
      "- DCGAN（PyTorch 官方 DCGAN 教程：64x64 人脸）。两个网络：生成器 3,576,704 个参数、判别器 2,765,568 个" \
      "参数，各自有一个 Adam 优化器；按显卡的标准很小，任何免费显卡都装得下。每次迭代先用一批真图和一批假图训练" \
      "判别器，再通过判别器训练生成器：下面的例子就是教程的设置（CelebA 的 202,599 张人脸，batch 128，5 个 " \
      "epoch）。") \
    P(FirstProjects, \
      "- pix2pix (junyanz/pytorch-CycleGAN-and-pix2pix: a U-Net generator of 54,413,955 parameters and a 70x70 " \
      "PatchGAN discriminator of 2,768,705, 256x256 images, batch 1). It fits small cards; its time goes to the " \
      "generator's 256x256 convolutions. The example below is the facades run (400 images, 200 epochs).", \
      "- pix2pix（junyanz/pytorch-CycleGAN-and-pix2pix：U-Net 生成器 54,413,955 个参数、70x70 PatchGAN 判别器 " \
      "2,768,705 个参数，256x256 图片，batch 1）。小显卡也装得下，时间主要花在生成器 256x256 的卷积上。下面的" \
      "例子是 facades 数据集的训练（400 张图，200 个 epoch）。") \
    P(FirstProjects, \
      "- YOLOv8n on a small dataset (a few thousand images). The GPU part is small; Ultralytics' mosaic " \
      "augmentation runs on the CPU and often sets the pace, and no per-CPU rate for it is published, so the " \
      "estimate is the GPU's share: measure your loader and type its rate.", \
      "- 在小数据集（几千张图）上训练 YOLOv8n。显卡这部分很轻；Ultralytics 的马赛克增强在 CPU 上做，常常是它" \
      "决定速度，而它的单 CPU 速度没有公开数据，所以估算只是显卡那一部分：请实测你的数据加载速度并填进去。") \
    P(FirstProjects, \
      "- BERT-base on SST-2 (67,349 sentences, 3 epochs). Measured: 13 min 11 s with FP16 and 26 min 6 s in " \
      "FP32 on one Titan RTX (Hugging Face transformers' text-classification README); the example below is that " \
      "run. Pre-tokenized text costs the loader almost nothing.", \
      "- 在 SST-2（67,349 个句子，3 个 epoch）上微调 BERT-base。实测：一块 Titan RTX 上 FP16 用 13 分 11 秒，" \
      "FP32 用 26 分 6 秒（Hugging Face transformers 文本分类示例的 README）；下面的例子就是这次运行。预先分词的" \
      "文本几乎不占数据加载的时间。") \
    P(FirstProjects, \
      "- U-Net segmentation (the original U-Net at 256x256). Its full-resolution feature maps fill memory faster " \
      "than a classifier of the same size: check the batch that fits before renting.", \
      "- U-Net 图像分割（原版 U-Net，256x256）。全分辨率的特征图比同样大小的分类网络更占显存：租卡前先看看能装下" \
      "多大的 batch。") \
    P(FirstProjects, \
      "- Stable Diffusion 1.5 LoRA. Measured: 15,000 steps of 4 images at 512 px took about 6 hours on one T4 " \
      "(an AWS g4dn.xlarge, 4 vCPUs; juliensimon/stable-diffusion-v1-5-pokemon-lora on the Hugging Face Hub), " \
      "including its validation images; the example below is that run.", \
      "- Stable Diffusion 1.5 LoRA。实测：512 像素、每步 4 张图、15,000 步，在一块 T4（AWS g4dn.xlarge，4 个 " \
      "vCPU）上约 6 小时，含每轮生成验证图片的时间（Hugging Face Hub 上的 juliensimon/stable-diffusion-v1-5-" \
      "pokemon-lora）；下面的例子就是这次运行。") \
    P(FirstProjects, \
      "- QLoRA on a 1.5B model (Qwen2.5-1.5B): 4-bit frozen weights, adapters on every projection, gradient " \
      "checkpointing. It fits an 8 GB card and a free T4; no published measured run was found for this size.", \
      "- 对 1.5B 模型（Qwen2.5-1.5B）做 QLoRA：4 位冻结权重、所有投影层加适配器、开启梯度检查点。8 GB 显卡和免" \
      "费 T4 都装得下；这个规模没有找到公开的实测结果。")

// "Try it": T(FirstProjects, label_en, label_zh, scenario_json). The Colab examples give the runtime's 2 vCPUs.
#define GG_GUIDE_FIRST_PROJECTS_TRY(T) \
    T(FirstProjects, "CIFAR ResNet-18, 30 epochs on Colab's free T4 (2 vCPUs, 2 workers)", \
      "CIFAR 版 ResNet-18，在 Colab 免费 T4 上跑 30 个 epoch（2 个 vCPU、2 个 worker）", \
      R"({"model":"resnet18-cifar","batch_size":128,"image_size":32,"precision":"fp16-amp","optimizer":"sgd-momentum","gpu":{"id":"t4","count":1},"dataset":{"samples":50000,"epochs":30,"loader":{"pipeline":"cifar-augment","workers":2,"cpus":2}}})") \
    T(FirstProjects, "DCGAN, the PyTorch tutorial's 5 epochs of CelebA on a T4", \
      "DCGAN，PyTorch 教程的设置：CelebA 训练 5 个 epoch，用 T4", \
      R"({"model":"dcgan-64","batch_size":128,"gpu":{"id":"t4","count":1},"dataset":{"samples":202599,"epochs":5}})") \
    T(FirstProjects, "pix2pix, facades (400 images x 200 epochs, batch 1) on a T4", \
      "pix2pix，facades 数据集（400 张图 × 200 个 epoch，batch 1），用 T4", \
      R"({"model":"pix2pix-256","batch_size":1,"gpu":{"id":"t4","count":1},"dataset":{"samples":400,"epochs":200}})") \
    T(FirstProjects, "YOLOv8n, 5,000 images x 100 epochs on a T4", \
      "YOLOv8n，5,000 张图 × 100 个 epoch，用 T4", \
      R"({"model":"yolov8n","batch_size":16,"image_size":640,"precision":"fp16-amp","optimizer":"sgd-momentum","ema":true,"gpu":{"id":"t4","count":1},"dataset":{"samples":5000,"epochs":100}})") \
    T(FirstProjects, "BERT-base on SST-2, 3 epochs, FP16 on a Titan RTX (measured: 13 min 11 s)", \
      "BERT-base 在 SST-2 上训练 3 个 epoch，Titan RTX、FP16（实测 13 分 11 秒）", \
      R"({"model":"bert-base","batch_size":32,"seq_len":128,"precision":"fp16-amp","optimizer":"adamw","optimizer_impl":"for-loop","attention":"eager","gpu":{"id":"titan-rtx","count":1},"dataset":{"samples":67349,"epochs":3,"loader":{"pipeline":"pretokenized"}}})") \
    T(FirstProjects, "U-Net segmentation, 256 px, 2,000 images x 50 epochs on a T4", \
      "U-Net 分割，256 像素，2,000 张图 × 50 个 epoch，用 T4", \
      R"({"model":"unet","batch_size":8,"image_size":256,"precision":"fp16-amp","optimizer":"adam","gpu":{"id":"t4","count":1},"dataset":{"samples":2000,"epochs":50}})") \
    T(FirstProjects, "SD 1.5 LoRA, 15,000 steps of 4 images on a T4 (measured: about 6 h)", \
      "SD 1.5 LoRA，15,000 步、每步 4 张图，用 T4（实测约 6 小时）", \
      R"({"model":"sd-1.5","batch_size":1,"grad_accum_steps":4,"image_size":512,"precision":"fp16-amp","optimizer":"adamw","method":"lora","lora":{"rank":4,"targets":["q","k","v","o"]},"attention":"sdpa","gpu":{"id":"t4","count":1},"dataset":{"samples":60000,"epochs":1}})") \
    T(FirstProjects, "QLoRA on Qwen2.5-1.5B, 10,000 samples x 2 epochs on a free T4", \
      "Qwen2.5-1.5B QLoRA，1 万条样本 × 2 个 epoch，用免费 T4", \
      R"({"model":"qwen2.5-1.5b","batch_size":4,"grad_accum_steps":4,"seq_len":512,"precision":"nf4","optimizer":"adamw","method":"qlora","lora":{"rank":16,"targets":["q","k","v","o","gate","up","down"]},"checkpointing":"full","attention":"sdpa","gpu":{"id":"t4","count":1},"dataset":{"samples":10000,"epochs":2}})")
