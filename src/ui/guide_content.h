// The Guide tab's text in English and Simplified Chinese, as data: sections, paragraphs, "try it" scenarios.
// Plain X-macros, no code. Every fact is sourced in docs/guide-sources.md; edit both languages together.
// Text contains '%': render it with "%s" or TextUnformatted, never as a format string.
#pragma once

#include "ui/guide_first_projects.h"  // the "first projects" section (issue 42)

// Sections, in order: S(id, title_en, title_zh).
// Index: FirstProjects, Architecture, Memory, Interconnect, Optimizations, FineTuning, SmallCards, StartFree, CloudVsLocal, Budget, Software,
// Myths, Trends.
#define GG_GUIDE_SECTIONS(S) \
    S(FirstProjects, "First projects: the eight jobs students start with", "第一个项目：学生最常做的八种训练任务") \
    S(Architecture, "Compute: what the numbers on a GPU mean", "算力：显卡参数表上的数字是什么意思") \
    S(Memory, "Memory: what fills it during training, and how fast it is", "显存：训练时显存被什么占满，带宽又意味着什么") \
    S(Interconnect, "Several GPUs: PCIe, NVLink, InfiniBand, DDP and ZeRO", "多卡训练：PCIe、NVLink、InfiniBand、DDP 与 ZeRO") \
    S(Optimizations, "Make training fit and run faster on the card you have", "在现有显卡上省显存、提速度") \
    S(FineTuning, "Large models on small cards: LoRA, QLoRA, 8-bit optimizers", "小显卡跑大模型：LoRA、QLoRA 与 8 位优化器") \
    S(SmallCards, "What an 8 GB card can and cannot train", "8 GB 显卡能训练什么、不能训练什么") \
    S(StartFree, "Start for free: Colab, Kaggle, and what a rented hour really bills", "免费起步：Colab、Kaggle，以及租卡真正计费的时间") \
    S(CloudVsLocal, "Rent or buy: cloud platforms versus your own card", "租还是买：云平台与自购显卡") \
    S(Budget, "Budget tiers: which card for which money", "预算分档：多少钱买什么卡") \
    S(Software, "Software: CUDA, PyTorch, BF16/FP8, AMD ROCm, China-market cards", "软件兼容：CUDA、PyTorch、BF16/FP8、AMD ROCm 与中国特供卡") \
    S(Myths, "Wrong numbers you will meet online, corrected", "网上常见的错误数字及更正") \
    S(Trends, "Where GPUs are heading, and what it means for a purchase now", "显卡的发展趋势，以及它对现在购买的影响")

// Paragraphs, in order: P(section_id, text_en, text_zh). A text starting with "- " is a bullet item.
#define GG_GUIDE_PARAGRAPHS(P) \
    P(Architecture, \
      "A spec sheet lists several TFLOPS figures (trillions of floating-point operations per second), and they " \
      "differ by ten times or more. Which one matters depends on the number format you train in and on whether " \
      "the work runs on the tensor cores. Tensor cores are the units that multiply small matrices in one step; " \
      "NVIDIA added them with Volta (V100, 2017). Training a modern network is mostly matrix multiplication, " \
      "so the tensor-core figure at your training precision is the one to compare.", \
      "显卡参数表上往往列着好几个 TFLOPS（每秒万亿次浮点运算）数字，彼此能差十倍以上。该看哪一个，取决于你用" \
      "什么数值格式训练，以及计算是否跑在张量核心（Tensor Core）上。张量核心是一步完成小矩阵乘法的专用单元，" \
      "NVIDIA 从 Volta 架构（V100，2017 年）开始加入。现代神经网络的训练绝大部分是矩阵乘法，所以应当比较“你" \
      "所用精度下的张量核心算力”。") \
    P(Architecture, \
      "Dense versus sparse: datacenter datasheets usually print tensor figures \"with sparsity\", which assumes " \
      "2:4 structured sparsity (two of every four weights are zero) and is twice the dense rate. Ordinary training " \
      "cannot use it. The H100 SXM's printed 1,979 TFLOPS FP16 is 989.4 TFLOPS dense. gpuguide stores and compares " \
      "only dense figures.", \
      "稠密与稀疏：数据中心卡的规格表通常印的是“带稀疏”（with sparsity）的张量算力，它假设 2:4 结构化稀疏（" \
      "每四个权重里有两个为零），数值是稠密算力的两倍。普通训练用不上这种稀疏。H100 SXM 标称的 1979 TFLOPS " \
      "FP16，稠密值是 989.4 TFLOPS。gpuguide 只保存和比较稠密算力。") \
    P(Architecture, \
      "- FP32: plain 32-bit floats on the ordinary CUDA cores. Safe, and the slowest on any card with tensor " \
      "cores.", \
      "- FP32：在普通 CUDA 核心上计算的 32 位浮点数。最稳妥，但在有张量核心的卡上也是最慢的。") \
    P(Architecture, \
      "- TF32 (Ampere and newer): the tensor cores take FP32 inputs with a shortened 10-bit mantissa. An A100 " \
      "does 19.5 TFLOPS in FP32 but 156 in TF32. PyTorch uses TF32 for convolutions by default, but not for " \
      "matrix multiplications since version 1.12; turn it on with torch.set_float32_matmul_precision(\"high\").", \
      "- TF32（Ampere 及更新架构）：张量核心接收 FP32 输入，但只保留 10 位尾数。A100 的 FP32 算力是 19.5 TFLOPS，" \
      "TF32 则是 156。PyTorch 默认对卷积使用 TF32，但从 1.12 版起默认不对矩阵乘法使用；可用 torch.set_float32_matmul_precision(\"high" \
      "\") 打开。") \
    P(Architecture, \
      "- FP16 / BF16 with FP32 accumulate: what mixed-precision training (AMP) uses. An A100 does 312 TFLOPS " \
      "dense. BF16 needs Ampere or newer.", \
      "- FP16 / BF16（FP32 累加）：混合精度训练（AMP）实际使用的就是它。A100 的稠密算力为 312 TFLOPS。BF16 " \
      "需要 Ampere 或更新的架构。") \
    P(Architecture, \
      "- FP8: Ada, Hopper and Blackwell only, through libraries such as NVIDIA Transformer Engine. Twice the " \
      "FP16 rate, but not a drop-in switch for a beginner's training script.", \
      "- FP8：仅 Ada、Hopper、Blackwell 支持，需要借助 NVIDIA Transformer Engine 等库。算力是 FP16 的两倍，" \
      "但对新手的训练脚本来说并不是改一个开关就能用的。") \
    P(Architecture, \
      "GeForce cards have a catch. Their tensor cores run FP16 with FP32 accumulation at half the speed of " \
      "FP16 with FP16 accumulation, and marketing tables tend to quote the faster one. Mixed-precision training " \
      "accumulates in FP32, so for an RTX 4090 the relevant figure is 165.2 TFLOPS, not 330.3 (both are in " \
      "NVIDIA's Ada whitepaper). Workstation and datacenter cards do not halve: the RTX 6000 Ada gives 364.2.", \
      "GeForce 游戏卡有个坑：它的张量核心做“FP16 输入、FP32 累加”时，速度只有“FP16 累加”的一半，而宣传表往往" \
      "只写快的那个。混合精度训练用的是 FP32 累加，所以 RTX 4090 该看的是 165.2 TFLOPS，而不是 330.3（两个数" \
      "字都出自 NVIDIA 的 Ada 架构白皮书）。专业卡和数据中心卡没有这种减半，例如 RTX 6000 Ada 为 364.2。") \
    P(Architecture, \
      "Three families: consumer GeForce cards (cheapest per TFLOPS, at most 32 GB, no NVLink since the RTX " \
      "40 series), workstation cards (RTX A6000, RTX 6000 Ada, RTX PRO 6000: 48 to 96 GB, ECC, blower coolers " \
      "that stack in one case), and datacenter cards (A100, H100, H200, B200: HBM memory at 2 to 8 TB/s, NVLink, " \
      "passive coolers that need a server). Students mostly buy the first and rent the third.", \
      "显卡大致分三类：消费级 GeForce（单位算力最便宜，显存最多 32 GB，从 RTX 40 系列起取消了 NVLink）；专业" \
      "工作站卡（RTX A6000、RTX 6000 Ada、RTX PRO 6000：48–96 GB 显存，支持 ECC，涡轮散热便于多卡并排）；数" \
      "据中心卡（A100、H100、H200、B200：HBM 显存带宽 2–8 TB/s，支持 NVLink，被动散热，必须装在服务器里）。" \
      "学生一般自己买第一类，第三类靠租。") \
    P(Architecture, \
      "Peak figures overstate real differences. In Lambda's published PyTorch benchmarks (FP16 AMP), ResNet-50 " \
      "trains at 1,301 images/s on an RTX 4090, 1,582 on an A100 SXM 80GB and 2,616 on an H100 SXM: the H100 " \
      "has six times the 4090's dense FP16 peak but is only 2.0 times faster here (3.2 times on BERT-large). " \
      "Much of a CNN's step is norms, activations and layout changes that only move memory, and such simple " \
      "kernels keep just a few bytes per thread in flight, too few to keep HBM busy: the A100 has twice the " \
      "4090's memory bandwidth but trains ResNet-50 only 1.2 times faster. Small models do not fill a big GPU, " \
      "and the input pipeline can set the pace too. Treat peak TFLOPS as a ceiling.", \
      "峰值算力会夸大实际差距。Lambda 公开的 PyTorch 基准（FP16 混合精度）中，ResNet-50 在 RTX 4090 上每秒训" \
      "练 1301 张图，A100 SXM 80GB 为 1582 张，H100 SXM 为 2616 张：H100 的稠密 FP16 峰值是 4090 的 6 倍，这" \
      "里却只快 2.0 倍（BERT-large 上快 3.2 倍）。CNN 每一步中有很大一部分是归一化、激活和布局转换这类只搬" \
      "运数据的算子，这些简单算子每个线程只有几个字节在途，不足以让 HBM 满载：A100 的显存带宽是 4090 的两" \
      "倍，训练 ResNet-50 却只快 1.2 倍。小模型填不满大显卡，数据读取也可能拖慢速度。峰值 TFLOPS 只能当作" \
      "上限来看。") \
    P(Architecture, \
      "An H100 is not three times an A100 on language models either. FlashAttention-2, the attention kernel " \
      "behind PyTorch's SDPA, reaches 50-73% of an A100's peak but only about 35% of an H100's, because it does " \
      "not use Hopper's newer tensor-core instructions (FlashAttention-3 paper, 2024). At 2,048 tokens and more " \
      "attention is a visible share of the step: MosaicML measured MPT-7B pretraining at 4,641 tokens/s per A100 " \
      "and 10,643 per H100, 2.3 times. The calculator gives 5,027 and 11,917 (2.4 times).", \
      "在语言模型上，H100 也不是 A100 的三倍。PyTorch SDPA 背后的注意力算子 FlashAttention-2 在 A100 上能达到" \
      "峰值的 50–73%，在 H100 上却只有约 35%，因为它没有用上 Hopper 新的张量核心指令（FlashAttention-3 论文，" \
      "2024）。序列长度到 2048 及以上时，注意力在每一步中占比可观：MosaicML 实测 MPT-7B 预训练每块 A100 每秒" \
      " 4641 个 token，每块 H100 每秒 10643 个，是 2.3 倍；本计算器给出 5027 和 11917（2.4 倍）。") \
    P(Memory, \
      "Training memory has four main parts. Weights, gradients and optimizer states (together: model states) " \
      "are fixed by the parameter count. Activations, the intermediate results saved for the backward pass, " \
      "grow with batch size and with image size or sequence length. On top come the CUDA context (Hugging Face " \
      "measured 1,343 MiB on a V100), temporary work buffers and allocator fragmentation.", \
      "训练时的显存主要有四块。权重、梯度和优化器状态（合称模型状态）只取决于参数量；激活值是前向传播中为反" \
      "向传播保存的中间结果，随 batch size 以及图像尺寸或序列长度增长。此外还有 CUDA 上下文（Hugging Face 在" \
      " V100 上测得 1343 MiB）、临时工作区和显存碎片。") \
    P(Memory, \
      "Count bytes per parameter. Full training with AdamW keeps 4 bytes of weight, 4 of gradient and 8 of " \
      "Adam state (two moments) = 16 bytes per parameter. PyTorch AMP keeps FP32 weights and gradients, so " \
      "it is still 16: mixed precision saves activation memory and time, not model-state memory. A 7-billion-parameter " \
      "model therefore needs about 112 GB (104 GiB) for model states alone, more than any 80 GB card. SGD with " \
      "momentum needs 12 bytes per parameter.", \
      "按“每个参数占多少字节”来算。用 AdamW 完整训练时，每个参数有 4 字节权重、4 字节梯度、8 字节 Adam 状态" \
      "（两个动量），合计 16 字节。PyTorch 的 AMP 仍保留 FP32 权重和梯度，所以还是 16 字节：混合精度省的是激" \
      "活值显存和时间，不是模型状态。因此一个 70 亿参数的模型仅模型状态就要约 112 GB（104 GiB），超过任何一" \
      "块 80 GB 显卡。带动量的 SGD 每个参数需要 12 字节。") \
    P(Memory, \
      "Transformers: Korthikanti et al. (2022) count about s·b·h·(34 + 5·a·s/h) bytes of activations per layer " \
      "with 16-bit activations (s sequence length, b batch, h hidden size, a attention heads). The 5·a·s/h " \
      "part is the attention score matrix, which grows with the square of the sequence length; it is kept only " \
      "when attention runs eagerly. PyTorch SDPA and FlashAttention do not store it. By this count it is 23% " \
      "of BERT-base's activations at 128 tokens and 54% at 512, so with eager attention long sequences cost " \
      "far more, while with SDPA doubling the batch or the length costs about the same.", \
      "Transformer：Korthikanti 等人（2022）给出，16 位激活时每层激活值约为 s·b·h·(34 + 5·a·s/h) 字节（s 序" \
      "列长度，b batch，h 隐藏维度，a 注意力头数）。其中 5·a·s/h 是注意力分数矩阵，随序列长度平方增长，只有" \
      "“朴素”（eager）注意力才会保存它；PyTorch 的 SDPA 和 FlashAttention 不保存。按这个公式，BERT-base 在 " \
      "128 个 token 时它占激活值的 23%，512 个 token 时占 54%。所以只有在朴素注意力下长序列才格外吃显存；用" \
      " SDPA 时，batch 翻倍和序列长度翻倍的代价差不多。") \
    P(Memory, \
      "CNNs: activations are dominated by the large early feature maps and grow linearly with batch size and " \
      "with the number of pixels. We measured the tensors saved for backward in FP32 at batch 32 and 224×224: " \
      "ResNet-18 saves 0.71 GB (0.66 GiB) and ResNet-50 2.76 GB (2.57 GiB). ResNet-18's 11.7 million weights " \
      "take only 47 MB.", \
      "卷积网络：激活值主要来自前几层的大尺寸特征图，与 batch size 和像素数成正比。我们实测了 FP32、batch 32、" \
      "224×224 输入时为反向传播保存的张量：ResNet-18 为 0.71 GB（0.66 GiB），ResNet-50 为 2.76 GB（2.57 GiB）" \
      "。ResNet-18 的 1170 万个权重只占 47 MB。") \
    P(Memory, \
      "Leave headroom. nvidia-smi shows more than PyTorch's own counters because of the CUDA context, cuDNN " \
      "workspaces and memory the caching allocator holds; gpuguide's estimate includes them. On top, a real run " \
      "needs room for what the estimate cannot see: the desktop if the card drives your monitor (about 0.8 GiB " \
      "measured on Windows), evaluation during training, and the longest sample when samples vary in length. A " \
      "job that fits the card but not with that room is shown as tight.", \
      "要留余量。由于 CUDA 上下文、cuDNN 工作区以及缓存分配器占着的显存，nvidia-smi 显示的占用会比 PyTorch " \
      "自己统计的多；gpuguide 的估算已包含这些。此外，实际运行还要给估算看不到的部分留空间：这块卡若连接显示器，" \
      "桌面会占用显存（Windows 实测约 0.8 GiB）；训练中的评估；样本长短不一时的最长样本。能装进显卡但留不出这些" \
      "空间的任务会显示为“勉强装进”。") \
    P(Memory, \
      "Bandwidth is how fast the GPU reads its own memory. It limits the many operations that do little arithmetic " \
      "per byte (normalization, activation functions, the optimizer step, eager attention). It has nothing " \
      "to do with loading data from disk. RTX 4060: 272 GB/s; RTX 4090: 1,008 GB/s; H100 PCIe: 2.0 TB/s; H100 " \
      "SXM (HBM3): 3.35 TB/s; H200: 4.8 TB/s.", \
      "显存带宽是 GPU 读写自身显存的速度。它限制的是那些“每字节计算量很少”的操作（归一化、激活函数、优化器更" \
      "新、朴素注意力），与从硬盘读数据无关。RTX 4060 为 272 GB/s，RTX 4090 为 1008 GB/s，H100 PCIe 为 2.0 " \
      "TB/s，H100 SXM（HBM3）为 3.35 TB/s，H200 为 4.8 TB/s。") \
    P(Memory, \
      "ECC (error-correcting memory) matters for long runs on shared servers. Datacenter cards ship with it " \
      "on; GeForce and workstation cards ship with it off. On some GDDR cards the check bits take ordinary " \
      "memory: a T4 sold as 16 GB shows about 15 GB with ECC on, roughly 6%. It is not a general 10% tax, and " \
      "NVIDIA's NVML documentation says only that the loss happens on some devices.", \
      "ECC（纠错显存）对在共享服务器上长时间训练有意义。数据中心卡出厂默认开启，GeForce 和专业卡默认关闭。在" \
      "部分 GDDR 显卡上，校验位占用的是普通显存：标称 16 GB 的 T4 开启 ECC 后约剩 15 GB，约少 6%。这并不是普" \
      "遍的“损失 10%”，NVIDIA 的 NVML 文档也只说在部分设备上会减少可用显存。") \
    P(Interconnect, \
      "Data parallel training (PyTorch DDP) gives every GPU a full copy of the model and optimizer, feeds each " \
      "a different part of the batch, and averages gradients after every step (all-reduce). It speeds training " \
      "up when each step's computation is large compared with the gradient traffic. It does not let a model " \
      "that is too big for one card fit; for that you need sharding (ZeRO, FSDP) or LoRA.", \
      "数据并行（PyTorch DDP）让每块卡都保存完整的模型和优化器，各自处理 batch 的不同部分，每一步结束后对梯" \
      "度求平均（all-reduce）。当每一步的计算量远大于梯度通信量时，它能加快训练。但它不能让单卡放不下的模型" \
      "放下；那需要分片（ZeRO、FSDP）或 LoRA。") \
    P(Interconnect, \
      "PCIe x16 carries about 16 GB/s per direction at Gen 3, 32 GB/s at Gen 4 and 64 GB/s at Gen 5 (datasheets " \
      "add both directions: V100 PCIe 32 GB/s, A40 64 GB/s, H100 PCIe 128 GB/s). One Gen 4 lane carries about " \
      "2 GB/s; its 16 GT/s is a transfer rate, not 16 GB/s. Consumer boards often give two cards 8 lanes each.", \
      "PCIe x16 单向带宽：3.0 约 16 GB/s，4.0 约 32 GB/s，5.0 约 64 GB/s（规格表常把双向相加：V100 PCIe 写 " \
      "32 GB/s，A40 写 64 GB/s，H100 PCIe 写 128 GB/s）。PCIe 4.0 单条通道约 2 GB/s；它的 16 GT/s 是传输速率" \
      "，不是 16 GB/s。消费级主板插两块卡时常常各分 8 条通道。") \
    P(Interconnect, \
      "NVLink is NVIDIA's direct GPU-to-GPU link. An NVLink bridge joins two RTX 3090s (112.5 GB/s) or two " \
      "workstation cards; the RTX 40 series dropped it. SXM servers connect all eight GPUs of a board through " \
      "NVSwitch: 600 GB/s per A100, 900 GB/s per H100 or H200. Hugging Face measured GPT-2 training on two " \
      "TITAN RTX cards finishing 23% faster with an NVLink bridge than without (101.9 s versus 131.4 s).", \
      "NVLink 是 NVIDIA 的 GPU 直连通道。NVLink 桥可以连接两块 RTX 3090（112.5 GB/s）或两块专业卡；RTX 40 系" \
      "列已取消 NVLink。SXM 服务器通过 NVSwitch 把一块主板上的 8 块 GPU 全部互连：A100 每卡 600 GB/s，H100/H200 " \
      "每卡 900 GB/s。Hugging Face 实测在两块 TITAN RTX 上训练 GPT-2，接 NVLink 桥比不接快 23%（101.9 秒对 " \
      "131.4 秒）。") \
    P(Interconnect, \
      "GeForce RTX cards cannot send data to each other directly over PCIe (NVIDIA's driver disables " \
      "peer-to-peer on them; two RTX 2080 Tis or 3090s can still use an NVLink bridge), so NCCL passes every gradient " \
      "through the CPU's memory. How fast that is depends " \
      "on the machine: published all-reduce speeds through the host range from about 4 GB/s (two cards on " \
      "PCIe 3.0) to 18 GB/s (four RTX 4090 on PCIe 4.0), against 20 GB/s and more over an NVLink bridge. Sending the " \
      "gradients in 16 bits halves the traffic: in PyTorch DDP, model.register_comm_hook(None, fp16_compress_hook) " \
      "from torch.distributed.algorithms.ddp_comm_hooks.default_hooks. The calculator's \"Gradients sent as\" " \
      "field models it.", \
      "GeForce RTX 显卡之间不能通过 PCIe 直接互传数据（NVIDIA 驱动关闭了它们的 P2P；两块 RTX 2080 Ti 或 3090 仍可" \
      "用 NVLink 桥互连），所以 NCCL 要把每一份" \
      "梯度都经过 CPU 内存中转。中转有多快取决于机器：公开的经主机中转的 all-reduce 速度从约 4 GB/s（两块卡、" \
      "PCIe 3.0）到 18 GB/s（四块 RTX 4090、PCIe 4.0）不等，而 NVLink 桥在 20 GB/s 以上。把梯度按 16 位发送可以让通信" \
      "量减半：在 PyTorch DDP 中调用 model.register_comm_hook(None, fp16_compress_hook)（来自 torch.distributed." \
      "algorithms.ddp_comm_hooks.default_hooks）。计算器中的“梯度同步精度”一项可以模拟它。") \
    P(Interconnect, \
      "Between servers, clusters use InfiniBand or RoCE Ethernet. The clusters described in the Megatron and " \
      "Llama 2 papers used 200 Gb/s links (25 GB/s), eight per node in NVIDIA's Selene. That is an order of " \
      "magnitude below NVLink, which is why multi-node training is for labs with a cluster and a job scheduler, " \
      "not a first project. Cloud servers state their network as a total per server: an AWS p4d (8 A100) has " \
      "400 Gb/s, a p5 (8 H100) 3,200 Gb/s, a DGX H100 8 x 400 Gb/s. Set yours under \"Network between servers\" " \
      "in the calculator; it matters most for FSDP and ZeRO-3, which send more data than DDP (below).", \
      "服务器之间，集群使用 InfiniBand 或 RoCE 以太网。Megatron 和 Llama 2 论文所描述的集群使用 200 Gb/s 链" \
      "路（25 GB/s），NVIDIA 的 Selene 每个节点配 8 条。这比 NVLink 低一个数量级，所以跨节点训练是有集群和作" \
      "业调度系统的实验室才做的事，不适合作为第一个项目。云服务器的网络按每台总带宽标注：AWS p4d（8 块 A100）" \
      "为 400 Gb/s，p5（8 块 H100）为 3200 Gb/s，DGX H100 为 8 × 400 Gb/s。在计算器的“服务器间网络”中选择你的" \
      "网络；它对 FSDP 和 ZeRO-3 影响最大，它们的通信量比 DDP 多（见下文）。") \
    P(Interconnect, \
      "ZeRO splits the model states across GPUs: stage 1 shards optimizer states, stage 2 also gradients, stage " \
      "3 also the weights (PyTorch FSDP is the stage-3 design). For a 7.5-billion-parameter model on 64 GPUs, " \
      "the ZeRO paper gives 120 GB per GPU for DDP, 31.4 GB for stage 1, 16.6 GB for stage 2 and 1.9 GB for " \
      "stage 3. Stages 1 and 2 send as much data as DDP; stage 3 sends about 1.5 times as much.", \
      "ZeRO 把模型状态切分到多块卡上：第 1 阶段切分优化器状态，第 2 阶段再切分梯度，第 3 阶段连权重也切分（" \
      "PyTorch FSDP 就是第 3 阶段的做法）。ZeRO 论文给出，75 亿参数模型在 64 块卡上每卡需要：DDP 120 GB，第" \
      " 1 阶段 31.4 GB，第 2 阶段 16.6 GB，第 3 阶段 1.9 GB。第 1、2 阶段的通信量与 DDP 相同，第 3 阶段约为" \
      " 1.5 倍。") \
    P(Interconnect, \
      "Overlapping communication with computation hides it, but not for free. DDP sends gradients while the " \
      "backward pass continues, and FSDP fetches the next layer's weights while the current one computes; yet " \
      "NCCL's transfers are GPU kernels that share the compute units and the memory with that work. Measured " \
      "on A100 and H100 servers, the computation runs 18.9% slower on average while communication overlaps it " \
      "(up to 40%; arXiv 2507.03114). The calculator charges 18.9% of every hidden transfer's time, plus " \
      "whatever does not fit behind the computation. It matters when the traffic is almost as long as the " \
      "computation: MPT-13B on eight H100s with two sequences per GPU runs 4,792 tokens/s per GPU in MosaicML's " \
      "table; the calculator gives 5,654 with this cost and 6,365 if hiding were free.", \
      "把通信和计算重叠可以掩盖通信，但并非没有代价。DDP 在反向传播继续进行时发送梯度，FSDP 在当前层计算时预取" \
      "下一层的权重；但 NCCL 的传输本身也是 GPU 算子，要和计算争用计算单元和显存。在 A100 和 H100 服务器上的" \
      "实测表明，通信与计算重叠时，计算平均慢 18.9%（最多 40%；arXiv 2507.03114）。本计算器对每段被掩盖的通" \
      "信计入其时间的 18.9%，再加上计算掩盖不住的部分。当通信几乎和计算一样长时，这一点很重要：MosaicML 的表" \
      "中，MPT-13B 在 8 块 H100 上每卡 2 条序列，每块卡每秒 4792 个 token；本计算器计入这项代价时给出 5654 个，" \
      "若掩盖完全免费则为 6365 个。") \
    P(Interconnect, \
      "The largest models are also split inside each layer and across layers (Megatron-LM). Tensor parallelism " \
      "gives each GPU a slice of every layer's attention heads and FFN width and all-reduces each layer's " \
      "activations four times per micro-batch, so it stays inside one NVLink machine. Pipeline parallelism puts " \
      "groups of layers on different GPUs and streams micro-batches through them: the first stage keeps the " \
      "activations of as many micro-batches as there are stages, and every step idles for (stages - 1) " \
      "micro-batches, fewer with the interleaved schedule. Sequence parallelism splits what tensor parallelism " \
      "copies (LayerNorm, dropout). NVIDIA trained a 22-billion-parameter GPT this way on one 8x A100 node at " \
      "1.10 s per step of 4 sequences (Korthikanti et al. 2022); the calculator gives 1.12 s. For a student this " \
      "is mostly how to read such papers: a 7B model fine-tunes on one node with ZeRO or LoRA.", \
      "最大的模型还会在层内和层间切分（Megatron-LM）。张量并行让每张卡持有每一层的一部分注意力头和 FFN 宽度，" \
      "每个 micro-batch 每层的激活值要做 4 次 all-reduce，所以只在同一台 NVLink 机器内使用。流水线并行把不同" \
      "的层组放到不同的卡上，让 micro-batch 依次流过：第一段要同时保存与级数相同个数的 micro-batch 的激活值，" \
      "每步空闲（级数 − 1）个 micro-batch 的时间，交错调度可以减少。序列并行把张量并行中各卡重复存储的部分" \
      "（LayerNorm、dropout）也切开。NVIDIA 用这种方式在一台 8×A100 上训练 220 亿参数的 GPT，每步 4 条序列用" \
      "时 1.10 秒（Korthikanti 等，2022）；本计算器给出 1.12 秒。对学生来说，这主要用于读懂这类论文：70 亿参数" \
      "的模型在一台机器上用 ZeRO 或 LoRA 就能微调。") \
    P(Interconnect, \
      "A practical order: get the job running on one GPU first. Two to four consumer cards over PCIe work well " \
      "with DDP for CNNs and small transformers. For fine-tuning large language models, one card with more " \
      "memory is usually simpler and often faster than several small ones. Before renting more cards, see " \
      "\"The same job on more of this card\" under the calculator's time estimate: it gives the speed-up, the " \
      "time and the memory verdict at 1, 2, 4, 8 and 16 cards.", \
      "实用顺序：先让任务在单卡上跑通。2–4 块消费级显卡通过 PCIe 做 DDP，训练卷积网络和小型 Transformer 效果" \
      "不错。微调大语言模型时，一块显存更大的卡通常比几块小卡更省事，往往也更快。租更多卡之前，先查看计算器" \
      "时间估计下的“同一任务换成更多张这种卡”：它给出 1、2、4、8、16 张卡时的加速比、训练时长和能否装下。") \
    P(Optimizations, \
      "Check the input pipeline first. If nvidia-smi shows the GPU idle much of the time, it is waiting for " \
      "data. Give the PyTorch DataLoader several worker processes (num_workers), set pin_memory=True, and keep " \
      "the dataset on a local SSD (on a rented server, copy it from network storage to the local data disk). " \
      "How much this helps depends on your CPU and data; there is no universal speed-up figure. Detection " \
      "training is a common case: YOLOv5's README gives about 2 days for YOLOv5s (300 COCO epochs) on a V100, " \
      "where the calculator's figure for the GPU's own work is 1.3 days, and Ultralytics names dataloader " \
      "bottlenecks as the usual cause of low GPU use (its mosaic augmentation runs on the CPU). Measure your " \
      "loader and enter its speed under \"Data loading speed\".", \
      "先检查数据读取。如果 nvidia-smi 显示 GPU 经常空闲，说明它在等数据。给 PyTorch DataLoader 设置多个工作" \
      "进程（num_workers）、打开 pin_memory=True，并把数据集放在本地 SSD 上（租用的服务器上，先把数据从网络" \
      "存储拷到本地数据盘）。提速多少取决于你的 CPU 和数据，并没有通用的倍数。目标检测训练就是常见的例子：" \
      "YOLOv5 的 README 说在一块 V100 上训练 YOLOv5s（COCO 300 轮）约需 2 天，而本计算器只算显卡本身的工作" \
      "时给出 1.3 天；Ultralytics 也指出显卡利用率低通常是数据加载造成的（它的 mosaic 数据增强在 CPU 上做）。" \
      "请测一下你的数据读取速度，填到“数据读取速度”里。") \
    P(Optimizations, \
      "Mixed precision (AMP) runs matrix multiplications and convolutions in FP16 or BF16 on the tensor cores " \
      "while keeping FP32 master weights. FP16 needs a GradScaler (loss scaling); BF16 has FP32's range and " \
      "does not, but needs Ampere or newer. Measured gains: BERT-large on a V100 went from 8.86 to 18.64 samples/s " \
      "(Hugging Face), ResNet-50 on an RTX 4090 from 721 (TF32) to 1,301 images/s (Lambda). On GTX 10-series " \
      "cards FP16 runs at 1/64 speed: stay in FP32 there.", \
      "混合精度（AMP）让矩阵乘法和卷积在张量核心上以 FP16 或 BF16 计算，同时保留 FP32 主权重。FP16 需要 GradScaler（" \
      "损失缩放）；BF16 的数值范围与 FP32 相同，不需要缩放，但要求 Ampere 或更新的架构。实测：V100 上 BERT-large " \
      "从每秒 8.86 个样本提高到 18.64 个（Hugging Face），RTX 4090 上 ResNet-50 从每秒 721 张（TF32）提高到" \
      " 1301 张（Lambda）。GTX 10 系列的 FP16 只有 1/64 速度，在这些卡上请继续用 FP32。") \
    P(Optimizations, \
      "For CNNs under AMP, also switch the memory layout to channels_last: model.to(memory_format=" \
      "torch.channels_last) and the same for each input batch. PyTorch keeps images in NCHW by default, and the " \
      "tensor-core convolutions then rearrange every tensor to NHWC and back. In timm's benchmark on an RTX 3090, " \
      "ResNet-50 training went from 826 to 1,218 images/s (1.47x) and ResNet-18 from 2,764 to 3,482 (1.26x), " \
      "with the same memory. The calculator's \"Memory layout\" field models it. MobileNet and EfficientNet gain " \
      "less in the same test (1.26x and 1.20x; the calculator gives 1.29x and 1.32x): their depthwise convolutions " \
      "run cuDNN's own kernels, which cost about the same in either layout. If such a model stays in NCHW, train it " \
      "in FP16: PyTorch hands NCHW depthwise convolutions to cuDNN only in FP16, and in BF16 or FP32 runs its own, " \
      "slower kernels (their weight gradient reads its tensors 9 or 25 times).", \
      "CNN 在混合精度下还应把内存布局改为 channels_last：model.to(memory_format=torch.channels_last)，每个输入" \
      "batch 也同样转换。PyTorch 默认按 NCHW 存放图像，张量核心上的卷积每次都要把张量重排成 NHWC 再排回来。timm " \
      "在 RTX 3090 上的测试中，ResNet-50 训练从每秒 826 张提高到 1218 张（1.47 倍），ResNet-18 从 2764 张提高到 " \
      "3482 张（1.26 倍），显存不变。计算器中的“张量内存布局”一项可以模拟它。MobileNet 和 EfficientNet 在同一" \
      "测试中提升较小（1.26 倍和 1.20 倍；计算器给出 1.29 倍和 1.32 倍）：它们的深度可分离卷积走 cuDNN 自己的内核，" \
      "两种布局下开销差不多。这类模型如果保持 NCHW，请用 FP16 训练：PyTorch 只在 FP16 下把 NCHW 的深度可分离卷积" \
      "交给 cuDNN，BF16 或 FP32 时用它自己较慢的内核（权重梯度要把张量读 9 次或 25 次）。") \
    P(Optimizations, \
      "Check how your optimizer steps. PyTorch 2 updates all parameter tensors with a few multi-tensor kernels " \
      "(foreach, its default) or with one fused kernel (AdamW(fused=True)). PyTorch 1.x, and the AdamW and " \
      "Adafactor that ship with older transformers, loop over the tensors in Python, several small kernels each, " \
      "and clip gradients tensor by tensor. PyTorch's own test timed ResNet-101's Adam step at 42.7 ms in the loop " \
      "and 10.2 ms with foreach: about 13 microseconds per kernel. BERT-large has 393 parameter tensors, so the loop " \
      "costs about 55 ms per step, a quarter of Hugging Face's FP16 step at batch 4 on a V100; at large batches it " \
      "fades. The calculator's \"Optimizer implementation\" field models it.", \
      "看看你的优化器是怎么更新的。PyTorch 2 用少数几个多张量内核（foreach，默认）或一个融合内核（AdamW(fused=True)）" \
      "一次更新全部参数张量。PyTorch 1.x 以及旧版 transformers 自带的 AdamW 和 Adafactor 则在 Python 里逐个张量" \
      "循环，每个张量启动几个小内核，梯度裁剪也逐个张量进行。PyTorch 自己的测试中，ResNet-101 的 Adam 更新循环版用时 " \
      "42.7 毫秒，foreach 版 10.2 毫秒：每个内核约 13 微秒。BERT-large 有 393 个参数张量，循环每步约多花 55 毫秒，" \
      "相当于 Hugging Face 在 V100 上 batch 4 的 FP16 测试中一步的四分之一；批量大时这部分就不明显了。计算器中的" \
      "“优化器实现方式”一项可以模拟它。") \
    P(Optimizations, \
      "Gradient accumulation runs several small micro-batches, adds up their gradients and updates once. You " \
      "get the effective batch size you want with the activation memory of one micro-batch, at some loss of " \
      "speed. Hugging Face's BERT-large test on a 16 GB V100: batch 4 used 14,949 MiB; batch 1 with 4 accumulation " \
      "steps used 8,681 MiB, at 7.75 instead of 8.86 samples/s. BatchNorm layers still see only the micro-batch.", \
      "梯度累积：连续跑几个小的 micro-batch，把梯度加起来再更新一次参数。这样既得到想要的等效 batch size，激" \
      "活值显存又只相当于一个 micro-batch，代价是速度略降。Hugging Face 在 16 GB V100 上测试 BERT-large：batch " \
      "4 占用 14949 MiB；batch 1 加 4 步累积占用 8681 MiB，速度从每秒 8.86 个样本降到 7.75 个。注意 BatchNorm " \
      "层仍只看到一个 micro-batch 的统计量。") \
    P(Optimizations, \
      "Gradient checkpointing keeps only some activations (for example each layer's input) and recomputes the " \
      "rest during the backward pass. It costs about one extra forward pass: Hugging Face quotes about 20% " \
      "slower, and Korthikanti et al. measured 39% more time per layer for full recomputation. For a transformer " \
      "layer it cuts saved activations from s·b·h·(34 + 5·a·s/h) to 2·s·b·h bytes, well over 90% of activation " \
      "memory. In the BERT-large test, adding it took memory from 8,681 to 6,775 MiB (model states did not " \
      "shrink) and speed to 5.99 samples/s.", \
      "梯度检查点只保存部分激活值（例如每层的输入），其余的在反向传播时重新计算。代价大约是多做一次前向传播" \
      "：Hugging Face 称约慢 20%，Korthikanti 等人测得完全重算时每层耗时增加 39%。对 Transformer 层而言，它" \
      "把保存的激活值从 s·b·h·(34 + 5·a·s/h) 字节降到 2·s·b·h 字节，省下的激活值显存远超 90%。在上面的 BERT-large " \
      "测试中，再加上梯度检查点，显存从 8681 MiB 降到 6775 MiB（模型状态没有变小），速度降到每秒 5.99 个样本" \
      "。") \
    P(Optimizations, \
      "The optimizer matters too. AdamW keeps 8 bytes of state per parameter, 8-bit Adam (bitsandbytes) 2 bytes, " \
      "SGD with momentum 4, and Adafactor factorizes its second moment so it needs much less. In the same BERT-large " \
      "test at batch 4: AdamW 14,949 MiB, 8-bit Adam 13,085 MiB, Adafactor 12,295 MiB. Combining accumulation, " \
      "checkpointing, FP16 and 8-bit Adam brought it down to 5,363 MiB.", \
      "优化器也有影响。AdamW 每个参数有 8 字节状态，8 位 Adam（bitsandbytes）2 字节，带动量的 SGD 4 字节，Adafactor " \
      "对二阶矩做了分解，需要的更少。同一个 BERT-large 测试（batch 4）中：AdamW 14949 MiB，8 位 Adam 13085 " \
      "MiB，Adafactor 12295 MiB。把梯度累积、梯度检查点、FP16 和 8 位 Adam 组合起来，降到了 5363 MiB。") \
    P(Optimizations, \
      "An exponential moving average (EMA) of the weights goes the other way: one more copy of every trainable " \
      "weight, kept for the whole run. Ultralytics' YOLO trainer always keeps one; diffusers does with --use_ema. " \
      "For Stable Diffusion's UNet that is 3.4 GB in FP32. diffusers' README still fits its full fine-tune with " \
      "EMA, batch 1, 4 accumulation steps and checkpointing on a single 24 GB card; the calculator puts it at " \
      "22.0 GiB (the \"EMA of the weights\" setting).", \
      "权重的指数滑动平均（EMA）则要多占显存：每个可训练权重再存一份，整个训练期间都在。Ultralytics 的 YOLO " \
      "训练器总会保留一份；diffusers 用 --use_ema 开启。Stable Diffusion 的 UNet 按 FP32 计就是 3.4 GB。diffusers " \
      "的 README 说，开着 EMA、batch 1、4 步梯度累积加梯度检查点做全量微调，一块 24 GB 显卡仍然够用；本计算器" \
      "给出 22.0 GiB（对应设置“权重 EMA”）。") \
    P(Optimizations, \
      "A good order to try: mixed precision, then SDPA or FlashAttention, then a smaller micro-batch with accumulation, " \
      "then gradient checkpointing, then an 8-bit optimizer, then LoRA or QLoRA, and only then several GPUs " \
      "with ZeRO or FSDP.", \
      "建议的尝试顺序：先开混合精度，再用 SDPA 或 FlashAttention，然后减小 micro-batch 并配合梯度累积，再开" \
      "梯度检查点，再换 8 位优化器，再考虑 LoRA 或 QLoRA，最后才是多卡 ZeRO 或 FSDP。") \
    P(FineTuning, \
      "Full fine-tuning updates every weight and pays 16 bytes per parameter with AdamW. LoRA (Hu et al., 2021) " \
      "freezes the pretrained weights and trains two small low-rank matrices beside chosen linear layers. The " \
      "frozen weights need only 2 bytes each in BF16 and no gradients or optimizer state. The LoRA paper reports, " \
      "for GPT-3 175B, 10,000 times fewer trainable parameters and 3 times less GPU memory than full fine-tuning " \
      "with Adam.", \
      "全量微调会更新所有权重，用 AdamW 时每个参数要付出 16 字节。LoRA（Hu 等人，2021）冻结预训练权重，只在" \
      "选定的线性层旁训练两个小的低秩矩阵。被冻结的权重用 BF16 存储每个只占 2 字节，而且不需要梯度和优化器状" \
      "态。LoRA 论文报告，在 GPT-3 175B 上，与用 Adam 全量微调相比，可训练参数减少 1 万倍，显存需求减少到三" \
      "分之一。") \
    P(FineTuning, \
      "Those 2 bytes assume the model was loaded in 16 bits. transformers loads weights in FP32 unless torch_dtype " \
      "says otherwise, and autocast then keeps a 16-bit copy of every frozen weight it multiplies with, for the " \
      "backward pass: Llama 2 7B with LoRA under BF16 autocast (batch 1, 512 tokens, checkpointing) needs 42.1 GiB " \
      "that way and 14.8 GiB when loaded with torch_dtype=torch.bfloat16 (the \"Frozen weights in 16 bits\" " \
      "setting). diffusers' LoRA scripts cast the frozen UNet themselves.", \
      "这 2 字节的前提是模型以 16 位加载。transformers 默认按 FP32 加载权重（除非用 torch_dtype 指定），autocast " \
      "还会为反向传播保存它所用到的每个冻结权重的 16 位副本：Llama 2 7B 在 BF16 autocast 下做 LoRA（batch 1、" \
      "512 个 token、梯度检查点），这样需要 42.1 GiB，而用 torch_dtype=torch.bfloat16 加载只需 14.8 GiB" \
      "（对应设置“冻结的权重存为 16 位”）。diffusers 的 LoRA 脚本会自己把冻结的 UNet 转成 16 位。") \
    P(FineTuning, \
      "The trainable part is tiny: Hugging Face's PEFT benchmark logged 9,175,040 trainable parameters for " \
      "LoRA rank 32 on the q and v projections of Llama-3.2-3B, 0.29% of its 3.21 billion. Activations, however, " \
      "are not reduced by LoRA: long sequences still need checkpointing.", \
      "可训练部分非常小：Hugging Face 的 PEFT 基准记录到，在 Llama-3.2-3B 的 q、v 投影上用秩 32 的 LoRA，可" \
      "训练参数为 9,175,040 个，仅占 32.1 亿参数的 0.29%。但 LoRA 不会减少激活值，长序列仍然需要梯度检查点。") \
    P(FineTuning, \
      "QLoRA (Dettmers et al., 2023) goes further: the frozen base weights are stored in 4-bit NormalFloat " \
      "(NF4), about half a byte per parameter, and computation runs in BF16. The paper fine-tuned a 65-billion-parameter " \
      "model on one 48 GB GPU. An 8B model's weights take roughly 5 to 6 GB this way (embedding and output " \
      "layers usually stay in 16-bit), which puts 7-8B fine-tuning within reach of 12-16 GB cards at small " \
      "batch sizes.", \
      "QLoRA（Dettmers 等人，2023）更进一步：冻结的基座权重以 4 位 NormalFloat（NF4）格式存储，每个参数约半" \
      "个字节，计算仍用 BF16。论文在一块 48 GB 显卡上微调了 650 亿参数的模型。这样存储时，80 亿参数模型的权" \
      "重约 5–6 GB（词嵌入层和输出层通常仍为 16 位），因此 12–16 GB 显卡在小 batch 下也能微调 7–8B 模型。") \
    P(FineTuning, \
      "\"INT8 saves 75% of memory\" is true only of the weights: 1 byte instead of 4 for FP32. In training, gradients, " \
      "optimizer states and activations are not shrunk by quantizing the weights, and post-training INT8 quantization " \
      "is an inference technique. For training on a small card, the quantization that helps is a frozen 4-bit " \
      "base (QLoRA) or an 8-bit optimizer.", \
      "“INT8 能省 75% 显存”只对权重本身成立：1 字节代替 FP32 的 4 字节。训练时，梯度、优化器状态和激活值并不" \
      "会因为权重量化而变小；训练后 INT8 量化是推理阶段的技术。在小显卡上训练，真正有用的量化是冻结的 4 位基" \
      "座（QLoRA）或 8 位优化器。") \
    P(FineTuning, \
      "8-bit optimizers (Dettmers et al., 2021, in the bitsandbytes library) store Adam's two moments in 8 " \
      "bits with block-wise quantization: 2 bytes per parameter instead of 8, with the paper reporting the " \
      "same accuracy as 32-bit Adam. For a 7B model fully fine-tuned that is 14 GB of optimizer state instead " \
      "of 56 GB.", \
      "8 位优化器（Dettmers 等人，2021，bitsandbytes 库）用分块量化把 Adam 的两个动量存成 8 位：每个参数 2 " \
      "字节而不是 8 字节，论文报告精度与 32 位 Adam 相当。全量微调 7B 模型时，优化器状态从 56 GB 降到 14 GB。") \
    P(FineTuning, \
      "For images, the cheapest option is often to freeze the pretrained backbone and train only the classification " \
      "head: no gradients or optimizer state for the backbone, and its activations need not be kept. Diffusion " \
      "models (Stable Diffusion) are commonly fine-tuned with LoRA for the same reason.", \
      "对于图像任务，最省的办法往往是冻结预训练主干网络、只训练分类头：主干不需要梯度和优化器状态，它的激活" \
      "值也不必保存。扩散模型（Stable Diffusion）出于同样的原因，也常用 LoRA 微调。") \
    P(FineTuning, \
      "Diffusion training scripts also run two frozen networks on every step: diffusers' examples encode each image " \
      "with the VAE and each caption with the text encoder before the UNet sees them. At 512 px the VAE encoder " \
      "costs more than the UNet's own forward pass: for an SD 1.5 LoRA step at batch 1 on an RTX 4090 the " \
      "calculator gives 30 of 122 ms to it. Computing the latents once beforehand (the \"Latents precomputed\" " \
      "setting) saves that time and the 0.4 GB the encoders take on the GPU.", \
      "扩散模型的训练脚本每一步还要跑两个冻结的网络：diffusers 的示例在 UNet 之前，先用 VAE 编码每张图、用文本编码器" \
      "编码每条描述。在 512 像素下，VAE 编码器比 UNet 自己的前向计算还费时：RTX 4090 上 batch 1 的 SD 1.5 LoRA，" \
      "本计算器给出每步 122 毫秒中有 30 毫秒花在这里。预先把潜变量算好一次（设置“潜变量已预先算好”），" \
      "就省下这段时间和编码器在显卡上占的 0.4 GB。") \
    P(SmallCards, \
      "An 8 GB card (RTX 4060, RTX 3060 Ti, RTX 3070, RTX 4060 Ti 8GB) is enough to learn on and for many course " \
      "and thesis projects: CNNs on CIFAR or ImageNet subsets, small detection models such as YOLOv5s or YOLOv8n, " \
      "BERT-base fine-tuning at moderate sequence lengths, and QLoRA on 1-3B language models. Check any specific " \
      "job with the calculator before you rely on it.", \
      "8 GB 显卡（RTX 4060、RTX 3060 Ti、RTX 3070、RTX 4060 Ti 8GB）足够入门学习，也能完成不少课程和毕业设计" \
      "：在 CIFAR 或 ImageNet 子集上训练卷积网络、训练 YOLOv5s、YOLOv8n 等小型检测模型、在中等序列长度下微调" \
      " BERT-base、用 QLoRA 微调 1–3B 的语言模型。具体任务请先用计算器核算一下。") \
    P(SmallCards, \
      "What does not fit: full fine-tuning of language models beyond about half a billion parameters. Qwen2.5-0.5B's " \
      "roughly 0.5 billion parameters × 16 bytes is already about 8 GB of model states before any activations. " \
      "Large images or long sequences at big batch sizes also run out quickly; accumulation and checkpointing " \
      "help there.", \
      "放不下的：参数量超过约 5 亿的语言模型的全量微调。Qwen2.5-0.5B 约 5 亿参数 × 16 字节，光模型状态就已约" \
      " 8 GB，还没算激活值。大尺寸图像或长序列配大 batch 也很快会爆显存，这时可以用梯度累积和梯度检查点。") \
    P(SmallCards, \
      "Reference points: BERT-base has about 110 million parameters, so full fine-tuning with AdamW needs about " \
      "1.8 GB of model states and the rest depends on batch size and sequence length. YOLOv5's README trains " \
      "YOLOv5s at batch 64 on a 16 GB V100 at 640 pixels; an 8 GB card needs a smaller batch. MobileNetV2 (3.5 " \
      "million parameters) and EfficientNet-B0 (5.3 million) are small enough to train comfortably.", \
      "几个参考：BERT-base 约 1.1 亿参数，用 AdamW 全量微调时模型状态约 1.8 GB，其余取决于 batch size 和序列" \
      "长度。YOLOv5 的 README 在 16 GB 的 V100 上以 640 像素、batch 64 训练 YOLOv5s；8 GB 显卡需要更小的 batch。" \
      "MobileNetV2（350 万参数）和 EfficientNet-B0（530 万参数）都足够小，训练起来很宽裕。") \
    P(SmallCards, \
      "Claims such as \"BERT-base fits batch 8 in FP32 or batch 16 in FP16 on 8 GB\" mean little without the " \
      "sequence length: at batch 16 in FP16 AMP the calculator puts BERT-base's activations at 1.2 GB for 128 " \
      "tokens and 7.6 GB for 512 with eager attention (1.0 and 3.5 GB with SDPA). Enter your own sequence length " \
      "and batch in the calculator.", \
      "“8 GB 显卡上 BERT-base 可以 FP32 跑 batch 8、FP16 跑 batch 16”这类说法，不给序列长度就没有意义：在 FP16 " \
      "混合精度、batch 16 下，计算器算出 BERT-base 的激活值：朴素注意力时 128 个 token 约 1.2 GB、512 个 token " \
      "约 7.6 GB（用 SDPA 时分别为 1.0 GB 和 3.5 GB）。请在计算器里填入你自己的序列长度和 batch。") \
    P(SmallCards, \
      "GPU memory cannot be upgraded. If you are buying new and expect to touch language models, a 16 GB card " \
      "(RTX 5060 Ti 16GB at 429 USD or RTX 4060 Ti 16GB at 499 USD launch price) gives much more room than " \
      "an 8 GB one for a modest difference in price.", \
      "显存无法升级。如果是新买显卡、又可能接触语言模型，16 GB 的卡（RTX 5060 Ti 16GB 首发价 429 美元，RTX " \
      "4060 Ti 16GB 首发价 499 美元）比 8 GB 的卡宽裕得多，而差价并不大。") \
    P(StartFree, \
      "Your first GPU can be a free one. Google Colab's free tier gives a T4 (16 GB) in a notebook; Kaggle gives a " \
      "P100 (16 GB) or two T4s, with 30 hours of GPU time a week (sometimes more). Small jobs such as ResNet-18 on " \
      "CIFAR-10 or BERT-base on a sentence-classification set finish in minutes to an hour there, and the ranking " \
      "lists these free options first when they can run your job.", \
      "你的第一块 GPU 可以是免费的。Google Colab 免费版在笔记本里提供一块 T4（16 GB）；Kaggle 提供一块 P100（16 GB）" \
      "或两块 T4，每周 30 小时 GPU 时长（有时更多）。像在 CIFAR-10 上训练 ResNet-18、在句子分类数据集上微调 BERT-base " \
      "这样的小任务，在那里几分钟到一小时就能跑完；只要能跑你的任务，排名就会把这些免费选项放在最前面。") \
    P(StartFree, \
      "Free has limits, and gpuguide counts them. A Colab session lasts \"as much as 12 hours\", ends earlier when the " \
      "notebook sits idle, and a GPU is not promised: the best hardware goes to interactive users first. A Kaggle " \
      "session lasts 12 hours and keeps 20 GB of files in /kaggle/working. A run longer than one session is split " \
      "into sessions; a weekly quota makes it wait for the next week, so the result shows its calendar time, not only " \
      "its training time.", \
      "免费是有限制的，gpuguide 会把这些限制算进去。Colab 的一个会话“最长可达 12 小时”，页面闲置时会更早断开，而且" \
      "不保证有 GPU：好硬件优先给交互使用的用户。Kaggle 一个会话 12 小时，/kaggle/working 中保留 20 GB 文件。" \
      "比一个会话还长的训练会被拆成多个会话；每周配额用完就要等到下一周，所以结果给出的是日历时间，而不只是训练时间。") \
    P(StartFree, \
      "- Save checkpoints. Every new session starts on a clean machine: the job must save its weights and optimizer " \
      "state before the session ends and load them in the next one. Without checkpoints a run longer than a session " \
      "never finishes. On Colab copy them to Google Drive; on Kaggle keep them in /kaggle/working.", \
      "- 保存检查点。每个新会话都从一台干净的机器开始：任务要在会话结束前保存权重和优化器状态，并在下一个会话中加载。" \
      "不保存检查点，比一个会话还长的训练永远跑不完。在 Colab 上把检查点复制到 Google Drive；在 Kaggle 上放在 " \
      "/kaggle/working。") \
    P(StartFree, \
      "- Each session downloads again. The dataset and the pretrained weights are fetched in every session, and on a " \
      "rental the meter already runs while they download. Set your dataset size and your download speed to see that " \
      "time in the result; gpuguide does not guess a download speed it has no measurement for.", \
      "- 每个会话都要重新下载。数据集和预训练权重在每个会话里都要重新获取；在租用的机器上，下载时已经开始计费。" \
      "填上数据集大小和你的下载速度，就能在结果里看到这段时间；没有实测数据时，gpuguide 不去猜下载速度。") \
    P(StartFree, \
      "What a rental really bills: from the moment the instance starts, not from the first training step. The start " \
      "(about a minute on a GPU notebook platform that publishes it), installing what the image lacks, the downloads " \
      "and the rounding up to the billing unit all cost money. For a job of two minutes these can cost more than the " \
      "training itself; the cost tooltip in the ranking splits the bill into these terms. Colab's Pay As You Go sells " \
      "100 compute units for 9.99 USD; a T4 used about 1.07 units an hour in September 2026, about 0.11 USD an hour.", \
      "租卡真正的计费：从实例启动的那一刻开始，而不是从第一步训练开始。启动（公布了数据的 GPU 笔记本平台约需一分钟）、" \
      "安装镜像里没有的软件包、下载以及按计费单位向上取整，都要花钱。对于只需两分钟的任务，这些开销可能比训练本身还贵；" \
      "排名中的费用提示把账单拆成这几项。Colab 的按需付费（Pay As You Go）100 个计算单元 9.99 美元；2026 年 9 月一块 " \
      "T4 每小时约用 1.07 个单元，约合每小时 0.11 美元。") \
    P(CloudVsLocal, \
      "Renting costs nothing up front, lets you pick a card per job and scales to many GPUs for a deadline. " \
      "Chinese platforms rent single consumer cards by the hour in CNY: AutoDL listed an RTX 3090 at 1.32 CNY/h, " \
      "an RTX 4090 at 1.88, an RTX 5090 at 2.78 and an A800 80GB at 5.59 (September-October 2026). Global examples: " \
      "RunPod RTX 4090 from 0.34 USD/h, Lambda H100 SXM 4.29 USD/h, AWS p5.48xlarge (8× H100) 55.04 USD/h. " \
      "Prices change often; the Cloud tab lists each offer with its date.", \
      "租用没有前期投入，可以按任务挑卡，赶截止日期时还能一下子用上很多块 GPU。国内平台按小时、以人民币出租" \
      "单块消费级显卡：AutoDL 标价 RTX 3090 每小时 1.32 元、RTX 4090 1.88 元、RTX 5090 2.78 元、A800 80GB 5.59 " \
      "元（2026 年 9–10 月）。国外的例子：RunPod 的 RTX 4090 每小时 0.34 美元起，Lambda 的 H100 SXM 每小时 " \
      "4.29 美元，AWS p5.48xlarge（8 块 H100）每小时 55.04 美元。价格变动频繁，云服务页签里每个报价都注明了" \
      "日期。") \
    P(CloudVsLocal, \
      "Hidden costs of renting: storage (AutoDL charges 0.01 CNY per GB per day beyond its free 20 GB), time " \
      "to upload data, popular cards being sold out at busy times, and paying while the instance sits idle, " \
      "so shut it down when a run ends. Some platforms bill per second (AutoDL, RunPod, vast.ai), others per " \
      "hour.", \
      "租用的隐性成本：存储费（AutoDL 免费 20 GB 之外每 GB 每天 0.01 元）、上传数据的时间、热门显卡在高峰期" \
      "被租光、以及实例空闲时照样计费——训练结束记得关机。有的平台按秒计费（AutoDL、RunPod、vast.ai），有的按" \
      "小时。") \
    P(CloudVsLocal, \
      "Buying costs the card, a computer to put it in, and electricity, minus what you can sell the card for " \
      "later. An RTX 4090 draws up to 450 W; with about 120 W for the rest of the machine (our assumption) " \
      "at 0.4883 CNY/kWh (Beijing residential first tier) that is about 0.28 CNY per training hour. Sold again " \
      "soon after, a used card fetches about 93% of its new price (eBay sales of current cards, 2023), so even a " \
      "short project loses that 7%; the calculator counts it, and keeps the host computer. Two RTX 4090s and the " \
      "host draw about 1,020 W, more than a 1,000 W desktop power supply: a multi-GPU machine costs more than " \
      "the one-card host the calculator prices, and it says so.", \
      "购买的成本是显卡、装显卡的主机和电费，减去日后转卖能收回的钱。RTX 4090 最高功耗 450 W；加上主机其余部" \
      "分约 120 W（我们的假设），按每度电 0.4883 元（北京居民第一档）计算，每训练一小时电费约 0.28 元。买来" \
      "不久就转卖，二手显卡大约能卖回新卡价格的 93%（2023 年 eBay 上在售型号的成交数据），所以即使项目很短也会" \
      "损失这 7%；计算器计入了这一折价，主机则留给你自用。两块 RTX 4090 加主机约耗电 1020 瓦，超过台式机常见的 " \
      "1000 瓦电源：多卡机器比计算器按单卡主机计的价格更贵，计算器会提示这一点。") \
    P(CloudVsLocal, \
      "A worked break-even: at the RTX 4090's launch price of 1,599 USD (about 11,170 CNY at 6.9843 CNY/USD) " \
      "plus a 5,000 CNY host, against renting at 1.88 CNY/h, buying pays off after about 10,100 hours of training: " \
      "14 months around the clock, or about 2.3 years if the card trains half of the time. If you already have " \
      "a PC that can take the card, about 7,000 hours. Resale value shortens this; paying more than launch " \
      "price lengthens it. Enter your own prices in the calculator.", \
      "举例算回本点：RTX 4090 按首发价 1599 美元（按 6.9843 的汇率约 11,170 元），加一台 5000 元的主机，与每" \
      "小时 1.88 元的租金相比，大约训练 10,100 小时后买卡才划算：全天候不停要 14 个月，如果显卡一半时间在训" \
      "练则约 2.3 年。如果你已有能装这块卡的电脑，约 7000 小时。二手转卖能缩短回本时间，买价高于首发价则会拉" \
      "长。请在计算器里填入你自己的价格。") \
    P(CloudVsLocal, \
      "Beyond cost: sensitive data (medical, personal) may not be allowed on a public cloud, so check your " \
      "institution's rules. A common pattern is to develop and debug on a small local card and rent large GPUs " \
      "for the final runs.", \
      "成本之外：敏感数据（医疗、个人信息）可能不允许上传到公有云，请先确认学校或单位的规定。常见做法是在本" \
      "地小显卡上开发调试，最终的大规模训练再租大显卡。") \
    P(Budget, \
      "Choose memory first, then compute and bandwidth, then price. Launch prices below are NVIDIA's US dollar " \
      "prices; street prices in China differ and change, so check before buying.", \
      "先定显存，再看算力和带宽，最后看价格。下面的首发价是 NVIDIA 的美元定价；国内实际售价不同且常变，购买" \
      "前请自行核实。") \
    P(Budget, \
      "- No card yet: rent. At AutoDL's 1.32 CNY/h for an RTX 3090, 100 hours of experiments cost 132 CNY.", \
      "- 还没有显卡：先租。按 AutoDL 上 RTX 3090 每小时 1.32 元计算，100 小时实验花 132 元。") \
    P(Budget, \
      "- 8 GB (RTX 4060, 299 USD launch): learning, small CNNs and detectors, BERT-base. 30.2 TFLOPS dense " \
      "FP16 for training and 272 GB/s.", \
      "- 8 GB（RTX 4060，首发价 299 美元）：入门学习、小型卷积网络和检测模型、BERT-base。训练用的稠密 FP16 " \
      "算力 30.2 TFLOPS，带宽 272 GB/s。") \
    P(Budget, \
      "- 12-16 GB (RTX 3060 12GB 329 USD, RTX 5060 Ti 16GB 429 USD, RTX 4060 Ti 16GB 499 USD, RTX 4070 Ti SUPER " \
      "16GB 799 USD): QLoRA on 7-8B models, ViT-B, larger batches. The 4060 Ti 16GB has a narrow 288 GB/s bus; " \
      "the 5060 Ti 16GB has 448 GB/s.", \
      "- 12–16 GB（RTX 3060 12GB 329 美元、RTX 5060 Ti 16GB 429 美元、RTX 4060 Ti 16GB 499 美元、RTX 4070 Ti " \
      "SUPER 16GB 799 美元）：7–8B 模型的 QLoRA、ViT-B、更大的 batch。4060 Ti 16GB 位宽窄，带宽只有 288 GB/s；" \
      "5060 Ti 16GB 为 448 GB/s。") \
    P(Budget, \
      "- 24-32 GB (used RTX 3090, RTX 4090 1,599 USD, RTX 5090 32GB 1,999 USD): LoRA in BF16 on 7-8B models, " \
      "Stable Diffusion fine-tuning, most CV research. The 5090 has 1,792 GB/s and 209.5 TFLOPS dense FP16 " \
      "for training.", \
      "- 24–32 GB（二手 RTX 3090、RTX 4090 1599 美元、RTX 5090 32GB 1999 美元）：7–8B 模型的 BF16 LoRA、Stable " \
      "Diffusion 微调、大多数视觉方向的研究。5090 带宽 1792 GB/s，训练用稠密 FP16 算力 209.5 TFLOPS。") \
    P(Budget, \
      "- 48-96 GB workstation cards (RTX A6000, RTX 6000 Ada, RTX PRO 6000 Blackwell): a lab purchase; for " \
      "most students, renting an A800/A100 80GB by the hour is cheaper.", \
      "- 48–96 GB 专业卡（RTX A6000、RTX 6000 Ada、RTX PRO 6000 Blackwell）：适合实验室采购；对大多数学生来" \
      "说，按小时租 A800/A100 80GB 更便宜。") \
    P(Budget, \
      "Used cards can be good value (a used RTX 3090 still has 24 GB and 936 GB/s), but check the seller and " \
      "the warranty: many were run hard. Plan the power supply and case airflow for the card's full power draw.", \
      "二手卡可能很划算（二手 RTX 3090 依然有 24 GB 显存和 936 GB/s 带宽），但要看清卖家和保修：不少卡曾被高" \
      "强度使用。电源和机箱散热要按显卡的满载功耗来准备。") \
    P(Software, \
      "You do not install CUDA to use PyTorch. The pip wheels bring their own CUDA runtime and cuDNN; the machine " \
      "needs only an NVIDIA driver new enough for that CUDA version. The CUDA toolkit matters only if you compile " \
      "extensions. So \"PyTorch 2.0 requires CUDA 11.7\" really means its default wheels were built with CUDA " \
      "11.7 (11.8 was the alternative), per PyTorch's release compatibility matrix.", \
      "使用 PyTorch 不需要自己安装 CUDA。pip 安装包自带 CUDA 运行库和 cuDNN，机器上只需要一个足够新的 NVIDIA " \
      "驱动。只有编译扩展时才需要 CUDA 工具包。所以“PyTorch 2.0 需要 CUDA 11.7”的实际含义是：根据 PyTorch 的" \
      "版本兼容表，它的默认安装包是用 CUDA 11.7 构建的（另有 11.8 版本可选）。") \
    P(Software, \
      "New GPUs need new builds, and old GPUs drop out. RTX 50-series cards (Blackwell, compute capability " \
      "12.0) need wheels built with CUDA 12.8 or newer, first released with PyTorch 2.7; older wheels fail " \
      "with \"sm_120 is not compatible with the current PyTorch installation\". In PyTorch 2.11 the CUDA 12.8 " \
      "and 13.0 wheels no longer include Volta (V100); only the CUDA 12.6 wheels still cover Maxwell, Pascal " \
      "and Volta.", \
      "新显卡需要新版本，旧显卡会逐渐不被支持。RTX 50 系列（Blackwell，计算能力 12.0）需要用 CUDA 12.8 或更" \
      "新版本构建的安装包，PyTorch 2.7 起才正式提供；旧安装包会报“sm_120 is not compatible with the current " \
      "PyTorch installation”。PyTorch 2.11 的 CUDA 12.8 和 13.0 安装包已不包含 Volta（V100），只有 CUDA 12.6 " \
      "的安装包还支持 Maxwell、Pascal 和 Volta。") \
    P(Software, \
      "- BF16 needs compute capability 8.0 or higher (Ampere: RTX 30, A100, and newer). On a T4, V100 or RTX " \
      "20 card use FP16 with a GradScaler.", \
      "- BF16 需要计算能力 8.0 及以上（Ampere：RTX 30、A100 及更新的卡）。T4、V100、RTX 20 系列请用 FP16 加" \
      " GradScaler。") \
    P(Software, \
      "- FP8 needs compute capability 8.9 or higher (Ada, Hopper, Blackwell) and a library such as Transformer " \
      "Engine.", \
      "- FP8 需要计算能力 8.9 及以上（Ada、Hopper、Blackwell），还要借助 Transformer Engine 等库。") \
    P(Software, \
      "- FlashAttention-2 supports Ampere, Ada and Hopper (A100, RTX 3090, RTX 4090, H100); its README sends " \
      "Turing users (T4, RTX 2080) to FlashAttention 1.x. FlashAttention-3 targets Hopper.", \
      "- FlashAttention-2 支持 Ampere、Ada 和 Hopper（A100、RTX 3090、RTX 4090、H100）；其 README 建议 Turing（" \
      "T4、RTX 2080）用户使用 FlashAttention 1.x。FlashAttention-3 面向 Hopper。") \
    P(Software, \
      "AMD: PyTorch has ROCm builds, and AMD's own lists cover the Instinct MI250X and MI300X and Radeon cards " \
      "such as the RX 7900 XTX (gfx1100). Check every extra library you need (bitsandbytes, FlashAttention, " \
      "custom CUDA kernels): many have separate ROCm versions or none. For a first project, an NVIDIA card " \
      "avoids that work.", \
      "AMD：PyTorch 提供 ROCm 版本，AMD 的支持列表包括 Instinct MI250X、MI300X，以及 RX 7900 XTX（gfx1100）" \
      "等 Radeon 显卡。你需要的每个额外库（bitsandbytes、FlashAttention、自定义 CUDA 算子）都要单独确认：很" \
      "多库的 ROCm 版本是另外发布的，有的根本没有。第一个项目用 NVIDIA 显卡能省去这些麻烦。") \
    P(Software, \
      "China-market cards: the A800 and H800 are the A100 and H100 SXM with NVLink cut to 400 GB/s (from 600 " \
      "and 900); FP16/BF16 tensor compute and memory are unchanged. The H20 is a Hopper card with 96 GB HBM3 " \
      "at 4.0 TB/s but 148 TFLOPS dense FP16, about 15% of an H100 SXM: roomy and fast for memory-bound work, " \
      "slow for compute-bound training. The RTX 4090 D has 14,592 instead of 16,384 CUDA cores (73.5 instead " \
      "of 82.6 TFLOPS FP32) with the same 24 GB and 1,008 GB/s.", \
      "中国特供卡：A800、H800 就是 A100、H100 SXM，只是 NVLink 降到 400 GB/s（原为 600 和 900），FP16/BF16 " \
      "张量算力和显存不变。H20 是 Hopper 架构，96 GB HBM3、带宽 4.0 TB/s，但稠密 FP16 算力只有 148 TFLOPS，" \
      "约为 H100 SXM 的 15%：显存大、适合受带宽限制的任务，计算密集型训练则很慢。RTX 4090 D 的 CUDA 核心从 " \
      "16,384 个减到 14,592 个（FP32 从 82.6 降到 73.5 TFLOPS），显存 24 GB、带宽 1008 GB/s 不变。") \
    P(Software, \
      "Export rules have changed several times: in October 2023 US rules required licences for the A100, A800, " \
      "H100, H800, L40S and RTX 4090 to China (NVIDIA's SEC filing), which is why the RTX 4090 D exists, and " \
      "in April 2025 the US government told NVIDIA that the H20 needs a licence too (another NVIDIA filing). " \
      "What can be bought or rented in China changes; check current availability.", \
      "出口管制已经改过多次：2023 年 10 月的美国新规要求向中国出口 A100、A800、H100、H800、L40S 和 RTX 4090 " \
      "须获许可（见 NVIDIA 向美国证监会提交的文件），RTX 4090 D 正是因此推出；2025 年 4 月美国政府又通知 NVIDIA，" \
      "H20 出口也须获许可（同样见 NVIDIA 的公告文件）。国内能买到、能租到的型号一直在变，请以当前实际供应为" \
      "准。") \
    P(Myths, \
      "Several figures circulate in Chinese GPU guides that are wrong. Each correction below gives its source; " \
      "the full list with links is in docs/guide-sources.md.", \
      "国内一些显卡选购指南里流传着若干错误数字。下面每条更正都注明了依据；完整列表和链接见 docs/guide-sources.md。") \
    P(Myths, \
      "- \"H100 memory bandwidth 900 GB/s\": 900 GB/s is its NVLink bandwidth. Its HBM3 memory delivers 3.35 " \
      "TB/s (SXM) or 2.0 TB/s (PCIe).", \
      "- “H100 显存带宽 900 GB/s”：900 GB/s 是它的 NVLink 带宽。H100 的 HBM3 显存带宽为 3.35 TB/s（SXM）或 " \
      "2.0 TB/s（PCIe）。") \
    P(Myths, \
      "- \"RTX 4090 672 GB/s\": it has 1,008 GB/s (384-bit, 21 Gbps GDDR6X). 672 GB/s is the RTX 4070 Ti SUPER.", \
      "- “RTX 4090 带宽 672 GB/s”：实际为 1008 GB/s（384 位、21 Gbps GDDR6X）。672 GB/s 是 RTX 4070 Ti SUPER " \
      "的数字。") \
    P(Myths, \
      "- \"A 48 GB A100\": the A100 comes with 40 GB or 80 GB. 48 GB cards are the RTX A6000, A40, L40S, L20 " \
      "and RTX 6000 Ada.", \
      "- “48 GB 的 A100”：A100 只有 40 GB 和 80 GB 两种。48 GB 的卡是 RTX A6000、A40、L40S、L20 和 RTX 6000 " \
      "Ada。") \
    P(Myths, \
      "- \"13B parameters × 2 bytes × 2 copies = 260 GB\": the product is 52 GB. Full fine-tuning with AdamW " \
      "needs 16 bytes per parameter, 208 GB; and the \"65 GB in 8-bit\" that follows would not fit a 48 GB card " \
      "anyway.", \
      "- “130 亿参数 × 2 字节 × 2 份 = 260 GB”：乘出来是 52 GB。用 AdamW 全量微调需要每参数 16 字节，即 208 " \
      "GB；紧接着的“8 位量化后 65 GB”本来也放不进 48 GB 的卡。") \
    P(Myths, \
      "- \"AWS P4d = 8× V100 at about 30 CNY/h\": P4d carries 8× A100 40GB and cost 21.96 USD/h on demand in " \
      "us-east-1 (2026-11), about 153 CNY/h. \"G5 = 16× A100\": G5 has 1 to 8 A10G 24 GB cards; the A10G is not " \
      "an A100.", \
      "- “AWS P4d = 8 块 V100，每小时约 30 元”：P4d 配的是 8 块 A100 40GB，us-east-1 按需价每小时 21.96 美元" \
      "（2026 年 11 月），约 153 元。“G5 = 16 块 A100”：G5 配 1–8 块 A10G 24GB，A10G 并不是 A100。") \
    P(Myths, \
      "- \"ResNet-18 at batch 32 keeps 2.8 GB of activations\": we measured 0.71 GB in FP32 at 224×224; 2.8 GB " \
      "is what ResNet-50 keeps (2.76 GB).", \
      "- “ResNet-18 在 batch 32 时激活值占 2.8 GB”：我们实测 FP32、224×224 下为 0.71 GB；2.8 GB 是 ResNet-50 " \
      "的数字（2.76 GB）。") \
    P(Myths, \
      "- \"Gradient checkpointing saves 33% of activations\": full checkpointing of transformer layers saves " \
      "over 90% of activation memory; roughly a third is the extra compute it costs.", \
      "- “梯度检查点可减少 33% 激活值”：对 Transformer 层做完全检查点可节省 90% 以上的激活值显存；“约三分之" \
      "一”其实是它多花的计算量。") \
    P(Myths, \
      "- \"ECC costs about 10% of memory\": about 6% on GDDR datacenter cards that keep check bits in ordinary " \
      "memory (a T4 shows about 15 of 16 GB), nothing on cards where ECC is off, as it is by default on GeForce.", \
      "- “开启 ECC 损失约 10% 显存”：在把校验位放在普通显存里的 GDDR 数据中心卡上约为 6%（T4 的 16 GB 约剩 " \
      "15 GB）；ECC 关闭时没有损失，而 GeForce 默认就是关闭的。") \
    P(Myths, \
      "- \"PCIe 4.0: 16 GB/s per lane\": one lane carries about 2 GB/s per direction; a x16 slot about 32 GB/s.", \
      "- “PCIe 4.0 单通道 16 GB/s”：单条通道单向约 2 GB/s，x16 插槽约 32 GB/s。") \
    P(Myths, \
      "- \"RTX 40/50 cards are Ampere or Blackwell\": RTX 40 is Ada Lovelace, RTX 30 is Ampere, RTX 50 is Blackwell.", \
      "- “RTX 40/50 系列基于 Ampere 或 Blackwell 架构”：RTX 40 是 Ada Lovelace，RTX 30 才是 Ampere，RTX 50 " \
      "是 Blackwell。") \
    P(Myths, \
      "- \"INT8 saves 75%\", \"PyTorch 2.0 requires CUDA 11.7\", \"num_workers=4 loads data 3× faster\": see the " \
      "sections above; the first applies to weights only, the second to the bundled runtime, and the third " \
      "has no general source.", \
      "- “INT8 省 75%”“PyTorch 2.0 需要 CUDA 11.7”“num_workers=4 让数据加载快 3 倍”：见前面各节；第一条只对" \
      "权重成立，第二条说的是安装包自带的运行库，第三条没有普遍适用的出处。") \
    P(Trends, \
      "Memory per card keeps growing fastest at the top: H100 80 GB, H200 141 GB at 4.8 TB/s, B200 180 GB at " \
      "7.7 TB/s. Consumer cards move slowly: the RTX 4090 has 24 GB, the RTX 5090 32 GB of GDDR7 at 1,792 GB/s.", \
      "高端卡的单卡显存增长最快：H100 为 80 GB，H200 为 141 GB、4.8 TB/s，B200 为 180 GB、7.7 TB/s。消费级显" \
      "卡增长缓慢：RTX 4090 为 24 GB，RTX 5090 为 32 GB GDDR7、1792 GB/s。") \
    P(Trends, \
      "Precision keeps dropping. FP8 training runs on Ada, Hopper and Blackwell through Transformer Engine, " \
      "and Blackwell adds MXFP8 and NVFP4. Software support arrives later than the hardware, and new formats " \
      "help large language models more than a student's CNN.", \
      "数值精度越来越低。FP8 训练可以通过 Transformer Engine 在 Ada、Hopper、Blackwell 上运行，Blackwell 又" \
      "增加了 MXFP8 和 NVFP4。软件支持总是晚于硬件，而且新格式对大语言模型的帮助远大于对学生常用的卷积网络。") \
    P(Trends, \
      "Renting is getting cheaper at the high end: AWS cut the on-demand price of its 8× H100 P5 instance from " \
      "98.32 to 55.04 USD/h in June 2025, and single H100s rented for about 2.4 to 4.3 USD/h in September-October " \
      "2026 (vast.ai median, Lambda list price). Old price tables copied around the web overstate the cost " \
      "of cloud training.", \
      "高端卡的租金在下降：AWS 在 2025 年 6 月把 8 块 H100 的 P5 实例按需价从每小时 98.32 美元降到 55.04 美" \
      "元；2026 年 9–10 月单块 H100 的租价约为每小时 2.4–4.3 美元（vast.ai 中位数、Lambda 标价）。网上流传的" \
      "旧价格表会高估云上训练的成本。") \
    P(Trends, \
      "What this means now: buy for the jobs you will run in the next one or two years, with memory as the " \
      "first criterion, and rent for peaks. Features such as PCIe 5.0 or multi-card expansion rarely matter " \
      "for a single-card student setup.", \
      "对现在的意义：按未来一两年要跑的任务来买卡，显存是第一标准，高峰需求靠租。PCIe 5.0、多卡扩展这些特性" \
      "，对单卡的学生配置来说很少派得上用场。") \
    GG_GUIDE_FIRST_PROJECTS_PARAGRAPHS(P)

// "Try it" buttons: T(section_id, label_en, label_zh, scenario_json), scenario_json in the CLI scenario format.
#define GG_GUIDE_TRY(T) \
    T(Architecture, "ResNet-50, FP16 AMP, on an RTX 4090", \
      "在 RTX 4090 上用 FP16 混合精度训练 ResNet-50", \
      R"({"model":"resnet50","batch_size":256,"image_size":224,"precision":"fp16-amp","optimizer":"sgd-momentum","gpu":{"id":"rtx-4090","count":1},"dataset":{"samples":1281167,"epochs":1}})") \
    T(Architecture, "The same ResNet-50 epoch on an H100 SXM", \
      "同样的 ResNet-50 一个 epoch，换成 H100 SXM", \
      R"({"model":"resnet50","batch_size":256,"image_size":224,"precision":"fp16-amp","optimizer":"sgd-momentum","gpu":{"id":"h100-sxm","count":1},"dataset":{"samples":1281167,"epochs":1}})") \
    T(Architecture, "ResNet-18 in FP32 on a GTX 1080 Ti (no tensor cores)", \
      "在没有张量核心的 GTX 1080 Ti 上用 FP32 训练 ResNet-18", \
      R"({"model":"resnet18","batch_size":64,"image_size":224,"precision":"fp32","optimizer":"sgd-momentum","gpu":{"id":"gtx-1080-ti","count":1},"dataset":{"samples":50000,"epochs":10}})") \
    T(Architecture, "MPT-7B pretraining on 8× A100 80GB (FSDP, FlashAttention)", \
      "8 块 A100 80GB 预训练 MPT-7B（FSDP、FlashAttention）", \
      R"({"model":{"family":"decoder","layers":32,"hidden":4096,"heads":32,"kv_heads":32,"ffn":16384,"glu":false,"vocab":50368,"tied_embeddings":true,"norm":"layernorm","position":"learned","bias":false},"batch_size":6,"grad_accum_steps":2,"seq_len":2048,"precision":"bf16-amp","optimizer":"adamw","attention":"flash","gpu":{"id":"a100-sxm4-80gb","count":8,"strategy":"fsdp","interconnect":"nvlink"},"dataset":{"tokens":1000000000.0}})") \
    T(Architecture, "The same MPT-7B on 8× H100 SXM", \
      "同样的 MPT-7B，换成 8 块 H100 SXM", \
      R"({"model":{"family":"decoder","layers":32,"hidden":4096,"heads":32,"kv_heads":32,"ffn":16384,"glu":false,"vocab":50368,"tied_embeddings":true,"norm":"layernorm","position":"learned","bias":false},"batch_size":6,"grad_accum_steps":1,"seq_len":2048,"precision":"bf16-amp","optimizer":"adamw","attention":"flash","gpu":{"id":"h100-sxm","count":8,"strategy":"fsdp","interconnect":"nvlink"},"dataset":{"tokens":1000000000.0}})") \
    T(Memory, "BERT-base fine-tuning on an 8 GB card", \
      "在 8 GB 显卡上微调 BERT-base", \
      R"({"model":"bert-base","batch_size":16,"seq_len":128,"precision":"fp16-amp","optimizer":"adamw","gpu":{"id":"rtx-4060","count":1}})") \
    T(Memory, "Full fine-tuning of Llama-3.1-8B on one A100 80GB (does it fit?)", \
      "在一块 A100 80GB 上全量微调 Llama-3.1-8B（放得下吗？）", \
      R"({"model":"llama-3.1-8b","batch_size":1,"seq_len":2048,"precision":"bf16-amp","optimizer":"adamw","attention":"sdpa","gpu":{"id":"a100-sxm4-80gb","count":1}})") \
    T(Memory, "BERT-base at 512 tokens with eager attention", \
      "BERT-base 在 512 个 token、朴素注意力下的显存", \
      R"({"model":"bert-base","batch_size":16,"seq_len":512,"precision":"fp16-amp","optimizer":"adamw","attention":"eager","gpu":{"id":"rtx-4060","count":1}})") \
    T(Interconnect, "GPT-2 medium on two RTX 3090s with an NVLink bridge", \
      "两块 RTX 3090 加 NVLink 桥训练 GPT-2 medium", \
      R"({"model":"gpt2-medium","batch_size":4,"seq_len":1024,"precision":"fp16-amp","optimizer":"adamw","attention":"sdpa","gpu":{"id":"rtx-3090","count":2,"strategy":"ddp","interconnect":"nvlink-bridge"},"dataset":{"tokens":1000000000.0}})") \
    T(Interconnect, "The same job on two RTX 4090s over PCIe 4.0", \
      "同样的任务，换成两块 RTX 4090、走 PCIe 4.0", \
      R"({"model":"gpt2-medium","batch_size":4,"seq_len":1024,"precision":"fp16-amp","optimizer":"adamw","attention":"sdpa","gpu":{"id":"rtx-4090","count":2,"strategy":"ddp","interconnect":"pcie4"},"dataset":{"tokens":1000000000.0}})") \
    T(Interconnect, "The two RTX 4090s sending 16-bit gradients (fp16_compress_hook)", \
      "两块 RTX 4090 按 16 位发送梯度（fp16_compress_hook）", \
      R"({"model":"gpt2-medium","batch_size":4,"seq_len":1024,"precision":"fp16-amp","optimizer":"adamw","attention":"sdpa","gpu":{"id":"rtx-4090","count":2,"strategy":"ddp","interconnect":"pcie4","grad_reduce_dtype":"fp16"},"dataset":{"tokens":1000000000.0}})") \
    T(Interconnect, "Full fine-tuning of Llama-2-7B with ZeRO-3 on 8× A100 80GB", \
      "8 块 A100 80GB 用 ZeRO-3 全量微调 Llama-2-7B", \
      R"({"model":"llama-2-7b","batch_size":4,"seq_len":2048,"precision":"bf16-amp","optimizer":"adamw","checkpointing":"full","attention":"flash","gpu":{"id":"a100-sxm4-80gb","count":8,"strategy":"zero3","interconnect":"nvlink"}})") \
    T(Interconnect, "A 22B GPT on one 8× A100 node: tensor + sequence parallel (Megatron-LM, paper: 1.10 s per step)", \
      "一台 8× A100 上的 220 亿参数 GPT：张量并行 + 序列并行（Megatron-LM，论文：每步 1.10 秒）", \
      R"({"model":{"family":"decoder","layers":48,"hidden":6144,"heads":64,"kv_heads":64,"ffn":24576,"glu":false,"vocab":51200,"tied_embeddings":true,"norm":"layernorm","position":"learned","bias":true},"batch_size":4,"seq_len":2048,"precision":"fp16-amp","optimizer":"adam","checkpointing":"selective","attention":"eager","gpu":{"id":"a100-sxm4-80gb","count":8,"interconnect":"nvlink","tensor_parallel":8,"sequence_parallel":true}})") \
    T(Interconnect, "Llama 2 7B on 96 H100s, 12 servers at 800 Gb/s each (IBM's FSDP run: 7,500 tokens/s per GPU)", \
      "96 块 H100（12 台服务器，每台 800 Gb/s）训练 Llama 2 7B（IBM FSDP 实测：每卡每秒 7500 token）", \
      R"({"model":"llama-2-7b","batch_size":2,"seq_len":4096,"precision":"bf16-amp","optimizer":"adamw","attention":"flash","gpu":{"id":"h100-sxm","count":96,"strategy":"fsdp","network":"roce-800g","grad_reduce_dtype":"bf16"},"dataset":{"tokens":100000000000.0}})") \
    T(Optimizations, "ResNet-50 with AMP and channels_last on an RTX 3090 (timm's test)", \
      "在 RTX 3090 上用混合精度和 channels_last 训练 ResNet-50（timm 的测试）", \
      R"({"model":"resnet50","batch_size":256,"image_size":224,"precision":"fp16-amp","optimizer":"sgd-momentum","memory_format":"channels_last","gpu":{"id":"rtx-3090","count":1},"dataset":{"samples":1281167,"epochs":1}})") \
    T(Optimizations, "EfficientNet-B0 with FP16 AMP in NCHW on an RTX 4090 (switch to BF16 to see PyTorch's own depthwise kernels)", \
      "在 RTX 4090 上以 FP16 混合精度、NCHW 布局训练 EfficientNet-B0（改成 BF16 可以看到 PyTorch 自己的深度卷积内核）", \
      R"({"model":"efficientnet-b0","batch_size":256,"image_size":224,"precision":"fp16-amp","optimizer":"sgd-momentum","gpu":{"id":"rtx-4090","count":1},"dataset":{"samples":1281167,"epochs":1}})") \
    T(Optimizations, "BERT-large on a 16 GB V100, plain FP32 (Hugging Face's test)", \
      "16 GB V100 上的 BERT-large，纯 FP32（Hugging Face 的测试）", \
      R"({"model":"bert-large","batch_size":4,"seq_len":512,"precision":"fp32","optimizer":"adamw","attention":"eager","gpu":{"id":"v100-sxm2-16gb","count":1}})") \
    T(Optimizations, "The same with accumulation, checkpointing, FP16 and 8-bit Adam", \
      "同一任务加上梯度累积、梯度检查点、FP16 和 8 位 Adam", \
      R"({"model":"bert-large","batch_size":1,"grad_accum_steps":4,"seq_len":512,"precision":"fp16-amp","optimizer":"adamw-8bit","checkpointing":"full","attention":"eager","gpu":{"id":"v100-sxm2-16gb","count":1}})") \
    T(Optimizations, "BERT-large FP16 at batch 4 with the per-tensor optimizer loop of 2022 (Hugging Face's test)", \
      "V100 上 batch 4 的 BERT-large FP16，使用 2022 年的逐张量优化器循环（Hugging Face 的测试）", \
      R"({"model":"bert-large","batch_size":4,"seq_len":512,"precision":"fp16-amp","optimizer":"adamw","optimizer_impl":"for-loop","attention":"eager","gpu":{"id":"v100-sxm2-16gb","count":1}})") \
    T(Optimizations, "Stable Diffusion's UNet, full fine-tune with EMA on a 24 GB card (diffusers' README)", \
      "24 GB 显卡上带 EMA 全量微调 Stable Diffusion 的 UNet（diffusers 的 README）", \
      R"({"model":"sd-1.5","batch_size":1,"grad_accum_steps":4,"image_size":512,"precision":"fp16-amp","optimizer":"adamw","checkpointing":"full","ema":true,"gpu":{"id":"rtx-3090","count":1}})") \
    T(Optimizations, "GPT-2 with gradient checkpointing on a 12 GB card", \
      "在 12 GB 显卡上开梯度检查点训练 GPT-2", \
      R"({"model":"gpt2","batch_size":8,"seq_len":1024,"precision":"fp16-amp","optimizer":"adamw","checkpointing":"full","attention":"sdpa","gpu":{"id":"rtx-3060-12gb","count":1}})") \
    T(FineTuning, "QLoRA on Llama-3.1-8B with a 16 GB card", \
      "用 16 GB 显卡对 Llama-3.1-8B 做 QLoRA", \
      R"({"model":"llama-3.1-8b","batch_size":1,"grad_accum_steps":16,"seq_len":1024,"precision":"nf4","optimizer":"adamw","method":"qlora","lora":{"rank":16,"targets":["q","k","v","o","gate","up","down"]},"checkpointing":"full","attention":"sdpa","gpu":{"id":"rtx-4060-ti-16gb","count":1}})") \
    T(FineTuning, "LoRA in BF16 on Qwen2.5-7B with an RTX 4090", \
      "在 RTX 4090 上对 Qwen2.5-7B 做 BF16 LoRA", \
      R"({"model":"qwen2.5-7b","batch_size":1,"grad_accum_steps":16,"seq_len":1024,"precision":"bf16","optimizer":"adamw","method":"lora","lora":{"rank":16,"targets":["q","k","v","o","gate","up","down"]},"checkpointing":"full","attention":"flash","gpu":{"id":"rtx-4090","count":1}})") \
    T(FineTuning, "Stable Diffusion 1.5 fine-tuning on an RTX 3090", \
      "在 RTX 3090 上微调 Stable Diffusion 1.5", \
      R"({"model":"sd-1.5","batch_size":4,"image_size":512,"precision":"fp16-amp","optimizer":"adamw-8bit","checkpointing":"full","attention":"sdpa","gpu":{"id":"rtx-3090","count":1}})") \
    T(FineTuning, "Stable Diffusion 1.5 LoRA on an RTX 4090, encoding every step", \
      "在 RTX 4090 上用 LoRA 微调 Stable Diffusion 1.5（每步现算编码）", \
      R"({"model":"sd-1.5","batch_size":1,"image_size":512,"precision":"fp16-amp","optimizer":"adamw","method":"lora","lora":{"rank":4,"targets":["q","k","v","o"]},"gpu":{"id":"rtx-4090","count":1}})") \
    T(SmallCards, "YOLOv5s at 640 pixels on an RTX 4060", \
      "在 RTX 4060 上以 640 像素训练 YOLOv5s", \
      R"({"model":"yolov5s","batch_size":16,"image_size":640,"precision":"fp16-amp","optimizer":"sgd-momentum","ema":true,"gpu":{"id":"rtx-4060","count":1},"dataset":{"samples":118287,"epochs":100}})") \
    T(SmallCards, "MobileNetV2 with a frozen backbone on an 8 GB card", \
      "在 8 GB 显卡上冻结主干、微调 MobileNetV2", \
      R"({"model":"mobilenet-v2","batch_size":64,"image_size":224,"precision":"fp16-amp","optimizer":"adamw","method":"frozen-backbone","gpu":{"id":"rtx-3060-ti","count":1}})") \
    T(SmallCards, "QLoRA on Qwen2.5-1.5B with an 8 GB card", \
      "用 8 GB 显卡对 Qwen2.5-1.5B 做 QLoRA", \
      R"({"model":"qwen2.5-1.5b","batch_size":4,"seq_len":512,"precision":"nf4","optimizer":"adamw","method":"qlora","lora":{"rank":16,"targets":["q","k","v","o","gate","up","down"]},"checkpointing":"full","attention":"sdpa","gpu":{"id":"rtx-4060","count":1}})") \
    T(StartFree, "ResNet-18 on CIFAR-10, 30 epochs: free on Colab or Kaggle", \
      "在 CIFAR-10 上训练 ResNet-18 30 个 epoch：用 Colab 或 Kaggle 免费跑", \
      R"({"model":"resnet18-cifar","batch_size":128,"image_size":32,"precision":"fp16-amp","optimizer":"sgd-momentum","gpu":{"id":"t4","count":1},"dataset":{"samples":50000,"epochs":30},"dataset_gb":0.163,"base_model_gb":0})") \
    T(StartFree, "BERT-base on SST-2 (67,349 sentences), 3 epochs", \
      "在 SST-2（67,349 个句子）上微调 BERT-base 3 个 epoch", \
      R"({"model":"bert-base","batch_size":32,"seq_len":128,"precision":"fp16-amp","optimizer":"adamw","gpu":{"id":"t4","count":1},"dataset":{"samples":67349,"epochs":3}})") \
    T(StartFree, "YOLOv5s on COCO, 100 epochs: sessions, checkpoints and the weekly quota", \
      "在 COCO 上训练 YOLOv5s 100 个 epoch：多个会话、检查点与每周配额", \
      R"({"model":"yolov5s","batch_size":16,"image_size":640,"precision":"fp16-amp","optimizer":"sgd-momentum","ema":true,"gpu":{"id":"t4","count":1},"dataset":{"samples":118287,"epochs":100},"dataset_gb":18,"base_model_gb":0})") \
    T(StartFree, "Stable Diffusion 1.5 LoRA, 15,000 steps of 4 images", \
      "Stable Diffusion 1.5 LoRA 微调，15,000 步、每步 4 张图", \
      R"({"model":"sd-1.5","batch_size":1,"grad_accum_steps":4,"image_size":512,"precision":"fp16-amp","optimizer":"adamw","method":"lora","lora":{"rank":4,"targets":["q","k","v","o"]},"attention":"sdpa","gpu":{"id":"t4","count":1},"dataset":{"samples":60000,"epochs":1}})") \
    T(CloudVsLocal, "ResNet-50 on ImageNet for 90 epochs on one RTX 4090: rent or buy?", \
      "在一块 RTX 4090 上训练 ResNet-50（ImageNet 90 轮）：租还是买？", \
      R"({"model":"resnet50","batch_size":256,"image_size":224,"precision":"fp16-amp","optimizer":"sgd-momentum","gpu":{"id":"rtx-4090","count":1},"dataset":{"samples":1281167,"epochs":90}})") \
    T(CloudVsLocal, "The same run on a rented 8× H100 node", \
      "同样的训练，租一台 8 块 H100 的机器", \
      R"({"model":"resnet50","batch_size":256,"image_size":224,"precision":"fp16-amp","optimizer":"sgd-momentum","gpu":{"id":"h100-sxm","count":8,"strategy":"ddp","interconnect":"nvlink"},"dataset":{"samples":1281167,"epochs":90}})") \
    T(CloudVsLocal, "QLoRA on Llama-3.1-8B, 50,000 samples × 3 epochs, on a rented RTX 4090", \
      "在租来的 RTX 4090 上对 Llama-3.1-8B 做 QLoRA（5 万条样本 × 3 轮）", \
      R"({"model":"llama-3.1-8b","batch_size":2,"grad_accum_steps":8,"seq_len":512,"precision":"nf4","optimizer":"adamw","method":"qlora","lora":{"rank":16,"targets":["q","k","v","o","gate","up","down"]},"checkpointing":"full","attention":"sdpa","gpu":{"id":"rtx-4090","count":1},"dataset":{"samples":50000,"epochs":3}})") \
    T(Budget, "8 GB tier: YOLOv8s on an RTX 4060", \
      "8 GB 档：在 RTX 4060 上训练 YOLOv8s", \
      R"({"model":"yolov8s","batch_size":16,"image_size":640,"precision":"fp16-amp","optimizer":"sgd-momentum","ema":true,"gpu":{"id":"rtx-4060","count":1}})") \
    T(Budget, "16 GB tier: ViT-B/16 on an RTX 5060 Ti 16GB", \
      "16 GB 档：在 RTX 5060 Ti 16GB 上训练 ViT-B/16", \
      R"({"model":"vit-b-16","batch_size":64,"image_size":224,"precision":"bf16-amp","optimizer":"adamw","attention":"sdpa","gpu":{"id":"rtx-5060-ti-16gb","count":1}})") \
    T(Budget, "32 GB tier: LoRA on Llama-3.1-8B with an RTX 5090", \
      "32 GB 档：在 RTX 5090 上对 Llama-3.1-8B 做 LoRA", \
      R"({"model":"llama-3.1-8b","batch_size":2,"grad_accum_steps":8,"seq_len":1024,"precision":"bf16","optimizer":"adamw","method":"lora","lora":{"rank":16,"targets":["q","k","v","o","gate","up","down"]},"checkpointing":"full","attention":"flash","gpu":{"id":"rtx-5090","count":1}})") \
    T(Software, "Qwen2.5-1.5B LoRA on a T4 (FP16, no BF16)", \
      "在 T4 上对 Qwen2.5-1.5B 做 LoRA（只能用 FP16，不支持 BF16）", \
      R"({"model":"qwen2.5-1.5b","batch_size":2,"grad_accum_steps":8,"seq_len":512,"precision":"fp16-amp","optimizer":"adamw","method":"lora","lora":{"rank":16,"targets":["q","v"]},"checkpointing":"full","attention":"sdpa","gpu":{"id":"t4","count":1}})") \
    T(Software, "LoRA on Qwen2.5-14B with one H20 96 GB", \
      "在一块 H20 96GB 上对 Qwen2.5-14B 做 LoRA", \
      R"({"model":"qwen2.5-14b","batch_size":4,"seq_len":2048,"precision":"bf16","optimizer":"adamw","method":"lora","lora":{"rank":16,"targets":["q","k","v","o","gate","up","down"]},"checkpointing":"full","attention":"flash","gpu":{"id":"h20","count":1}})") \
    T(Software, "GPT-2 XL in FP8 on an H100 SXM", \
      "在 H100 SXM 上用 FP8 训练 GPT-2 XL", \
      R"({"model":"gpt2-xl","batch_size":4,"seq_len":1024,"precision":"fp8","optimizer":"adamw","attention":"flash","gpu":{"id":"h100-sxm","count":1}})") \
    T(Myths, "13B model in BF16, weights + gradients only (52 GB, not 260 GB)", \
      "13B 模型 BF16，只算权重和梯度（52 GB，而非 260 GB）", \
      R"({"model":"llama-2-13b","batch_size":1,"seq_len":512,"precision":"bf16","optimizer":"sgd","attention":"sdpa","gpu":{"id":"a100-sxm4-80gb","count":1}})") \
    T(Myths, "ResNet-18, batch 32, FP32: how much memory really?", \
      "ResNet-18、batch 32、FP32：实际要多少显存？", \
      R"({"model":"resnet18","batch_size":32,"image_size":224,"precision":"fp32","optimizer":"sgd-momentum","gpu":{"id":"rtx-4060","count":1}})") \
    T(Trends, "QLoRA on Llama-3.1-70B with one H200 141 GB", \
      "在一块 H200 141GB 上对 Llama-3.1-70B 做 QLoRA", \
      R"({"model":"llama-3.1-70b","batch_size":1,"grad_accum_steps":16,"seq_len":2048,"precision":"nf4","optimizer":"adamw","method":"qlora","lora":{"rank":16,"targets":["q","k","v","o","gate","up","down"]},"checkpointing":"full","attention":"flash","gpu":{"id":"h200","count":1}})") \
    T(Trends, "Full fine-tuning of Qwen2.5-7B with FSDP on 8× B200", \
      "8 块 B200 用 FSDP 全量微调 Qwen2.5-7B", \
      R"({"model":"qwen2.5-7b","batch_size":4,"seq_len":4096,"precision":"bf16-amp","optimizer":"adamw","checkpointing":"full","attention":"flash","gpu":{"id":"b200","count":8,"strategy":"fsdp","interconnect":"nvlink"}})") \
    GG_GUIDE_FIRST_PROJECTS_TRY(T)
