// Every string the page shows, in English and Simplified Chinese: X(id, english, chinese).
// The build subsets the Chinese font to the characters of THIS file, so a string shown anywhere else would
// render as '?'. Keep sentences short and plain: readers are new to GPUs. No logic here.
#pragma once

#include "ui/strings_loader.h"  // GG_UI_STRINGS_LOADER: the data loader's strings

#define GG_UI_STRINGS(X)                                                                                    \
    X(AppName, "gpuguide", "gpuguide")                                                                      \
    X(Tagline, "Which GPU for your training job: will it fit, how long, what it costs",                      \
      "训练该用哪块显卡：装不装得下、要多久、花多少钱")                                                     \
    X(LanguageToggle, "中文", "English")                                                                    \
    X(LanguageToggleTip, "Switch the page to Chinese", "把页面切换为英文")                                  \
    X(WelcomeTitle, "Plan a training job before you pay for a GPU",                                          \
      "在为显卡花钱之前，先把训练任务算清楚")                                                               \
    X(WelcomeBody,                                                                                          \
      "Describe the model you want to train and how. gpuguide works out how much GPU memory it needs, "     \
      "which cards and cloud offers can run it, how long it will take and what renting or buying costs. "   \
      "Every number comes with its formula and its source.",                                                \
      "描述你要训练的模型和训练方式，gpuguide 会算出需要多少显存、哪些显卡和云服务器跑得动、"             \
      "需要训练多久，以及租用或购买各要花多少钱。每个数字都附有公式和出处。")                            \
    X(QuestionsTitle, "Questions it answers", "它能回答的问题")                                            \
    X(QuestionFit, "Will my job fit in this card's memory?", "我的训练任务能装进这块显卡的显存吗？")       \
    X(QuestionWhich, "Which cards and cloud offers can run it?", "哪些显卡和云服务器能跑？")               \
    X(QuestionTime, "How long will training take?", "训练需要多长时间？")                                   \
    X(QuestionCost, "What does it cost to rent, and to buy?", "租用和购买分别要花多少钱？")                \
    X(QuestionChange, "What should I change so it fits what I can afford?",                                  \
      "要改哪些设置，才能在我负担得起的显卡上跑起来？")                                                     \
    X(PrivacyNote, "Everything is computed in your browser. Nothing you enter leaves this page.",           \
      "所有计算都在你的浏览器里完成，你输入的内容不会离开本页面。")                                         \
    X(CatalogSummary, "Catalog: %d GPUs, %d cloud offers from %d providers.",                                \
      "数据库：%d 款显卡，%d 个云服务器报价，来自 %d 家服务商。")                                          \
    X(CatalogEmpty, "The GPU catalog is not available in this build.", "此版本没有内置显卡数据库。")       \
    X(Version, "Version %s", "版本 %s")                                                                      \
    X(TabCalculator, "Calculator", "计算器")                                                                 \
    X(TabGuide, "Guide", "选型指南")                                                                         \
    X(TabValidation, "Accuracy", "准确度验证")                                                              \
    X(TabData, "GPUs and prices", "显卡与价格")                                                              \
    X(StepModel, "1  Model", "1  模型")                                                                      \
    X(StepData, "2  Data", "2  数据")                                                                        \
    X(StepTraining, "3  Training settings", "3  训练设置")                                                   \
    X(StepHardware, "4  Hardware", "4  硬件")                                                                \
    X(Model, "Model", "模型")                                                                                \
    X(ModelDefaultsNote, "Set for this model: batch %d, %s, checkpointing %s: what it is usually trained with. Change any of them below.", \
      "已按这个模型的常见训练方式设置：batch %d、%s、检查点 %s。可在下面修改。") \
    X(ModelTip, "The network you want to train. Presets have the parameter counts of the reference implementations.", \
      "要训练的网络。预设模型的参数量与官方实现一致。")                                                       \
    X(BatchSize, "Batch size per GPU", "每卡批大小")                                                         \
    X(BatchSizeCopy, "Batch size per model copy", "每个模型副本的批大小")                                     \
    X(BatchSizeTip, "Samples each card processes at once (the micro-batch). Memory grows with it.",          \
      "每张卡一次处理的样本数（微批次）。显存占用随之增长。")                                                 \
    X(GradAccum, "Gradient accumulation", "梯度累积步数")                                                    \
    X(GradAccumTip, "Add up gradients over this many micro-batches before each update: a larger effective batch without more memory.", \
      "累积多少个微批次的梯度再更新一次参数：不增加显存也能得到更大的有效批大小。")                         \
    X(SeqLen, "Sequence length", "序列长度")                                                                 \
    X(SeqLenTip, "Tokens per sample. Attention memory and time grow quickly with it.",                       \
      "每个样本的 token 数。注意力的显存和时间随之快速增长。")                                               \
    X(ImageSize, "Image size", "图像尺寸")                                                                   \
    X(ImageSizeTip, "Side of the square input image, in pixels. Activation memory grows with its square.",   \
      "输入图像（正方形）的边长，单位像素。激活值显存随边长的平方增长。")                                     \
    X(UnitTokens, "tokens", "个 token")                                                                      \
    X(UnitPixels, "px", "像素")                                                                              \
    X(UnitSamples, "samples", "个样本")                                                                      \
    X(UnitCards, "cards", "张")                                                                              \
    X(UnitPercent, "%", "%")                                                                                 \
    X(Precision, "Precision", "精度")                                                                        \
    X(PrecisionTip, "Number format for training. Mixed precision (AMP) keeps activations in 16 bits and uses tensor cores.", \
      "训练使用的数值格式。混合精度（AMP）用 16 位保存激活值并使用张量核心。")                               \
    X(PrecFp32, "FP32 (full precision)", "FP32（单精度）")                                                   \
    X(PrecTf32, "TF32 (FP32 on tensor cores)", "TF32（在张量核心上算 FP32）")                                \
    X(PrecFp16Amp, "FP16 mixed precision (AMP)", "FP16 混合精度（AMP）")                                     \
    X(PrecBf16Amp, "BF16 mixed precision (AMP)", "BF16 混合精度（AMP）")                                     \
    X(PrecBf16, "Pure BF16", "纯 BF16")                                                                      \
    X(PrecFp8, "FP8 (Transformer Engine)", "FP8（需 Transformer Engine）")                                     \
    X(PrecInt8, "INT8 weights (frozen)", "INT8 权重（冻结）")                                                \
    X(PrecNf4, "4-bit NF4 weights (QLoRA)", "4 位 NF4 权重（QLoRA）")                                        \
    X(Optimizer, "Optimizer", "优化器")                                                                      \
    X(OptimizerTip, "Adam keeps two extra numbers per trainable parameter; SGD keeps none or one.",          \
      "Adam 为每个可训练参数额外保存两个数；SGD 不保存或只保存一个。")                                       \
    X(OptimizerImpl, "Optimizer implementation", "优化器实现方式")                                             \
    X(OptimizerImplTip, "How the optimizer step runs over the parameter tensors. PyTorch 2 updates all of them with a few multi-tensor kernels (foreach, its default) or one fused kernel. PyTorch 1.x and transformers' own AdamW and Adafactor loop over the tensors in Python, a few small kernels each, and clip gradients tensor by tensor: about 13 microseconds per kernel, which shows at small batches (BERT-large: about 55 ms per step). 8-bit AdamW and Lion always loop.", \
      "优化器更新如何遍历各个参数张量。PyTorch 2 用少数几个多张量内核（foreach，默认）或一个融合内核一次更新全部参数。PyTorch 1.x 以及 transformers 自带的 AdamW 和 Adafactor 在 Python 里逐个张量循环，每个张量启动几个小内核，梯度裁剪也逐个张量进行：每个内核约 13 微秒，小批量时很明显（BERT-large：每步约 55 毫秒）。8 位 AdamW 和 Lion 总是逐张量循环。") \
    X(ImplForeach, "foreach (PyTorch 2 default)", "foreach（PyTorch 2 默认）")                                \
    X(ImplForLoop, "Per-tensor loop (PyTorch 1.x, old HF Trainer)", "逐张量循环（PyTorch 1.x、旧版 HF Trainer）") \
    X(ImplFused, "Fused kernel (fused=True, apex)", "融合内核（fused=True、apex）")                             \
    X(OptSgd, "SGD", "SGD")                                                                                  \
    X(OptSgdMomentum, "SGD with momentum", "带动量的 SGD")                                                   \
    X(OptAdam, "Adam", "Adam")                                                                               \
    X(OptAdamW, "AdamW", "AdamW")                                                                            \
    X(OptAdamW8bit, "8-bit AdamW", "8 位 AdamW")                                                             \
    X(OptAdafactor, "Adafactor", "Adafactor")                                                                \
    X(OptLion, "Lion", "Lion")                                                                               \
    X(Method, "Training method", "训练方式")                                                                 \
    X(MethodTip, "Full training updates every weight; LoRA trains small adapters; QLoRA also keeps the frozen model in 4 bits.", \
      "全量训练更新所有权重；LoRA 只训练小的适配器；QLoRA 还把冻结的模型以 4 位保存。")                     \
    X(MethodFull, "Full training", "全量训练")                                                               \
    X(MethodFrozen, "Frozen backbone (train the head)", "冻结主干（只训练输出层）")                          \
    X(MethodLora, "LoRA", "LoRA")                                                                            \
    X(MethodQlora, "QLoRA", "QLoRA")                                                                         \
    X(LoraRank, "LoRA rank", "LoRA 秩")                                                                      \
    X(LoraRankTip, "Size of each adapter; 8 to 64 is typical. Memory and quality grow slowly with it.",     \
      "每个适配器的大小，常用 8 到 64。显存和效果随之缓慢增长。")                                             \
    X(Checkpointing, "Gradient checkpointing", "梯度检查点")                                                 \
    X(CheckpointingTip, "Keep fewer activations and recompute them during the backward pass: less memory, more compute.", \
      "只保存部分激活值，在反向传播时重新计算：显存更少，计算更多。")                                       \
    X(Ema, "EMA of the weights", "权重 EMA（滑动平均）")                                                    \
    X(EmaTip, "An exponential moving average of the trainable weights, kept on the GPU for the whole run and updated after every optimizer step. YOLO (Ultralytics) always keeps one; timm (--model-ema) and diffusers (--use_ema) when asked. It costs one more copy of the trainable weights in their dtype (4 bytes per parameter in FP32) and a little time per step.", \
      "对可训练权重做指数滑动平均，整个训练期间都放在显卡上，每次优化器更新后更新一次。YOLO（Ultralytics）总会保留一份；timm（--model-ema）和 diffusers（--use_ema）需要手动开启。代价是多一份可训练权重（按其数据类型，FP32 为每个参数 4 字节），以及每步少许时间。") \
    X(FrozenWeights16bit, "Frozen weights in 16 bits", "冻结的权重存为 16 位")                                  \
    X(FrozenWeights16bitTip, "Whether the weights that do not train are stored in FP16/BF16. diffusers' LoRA scripts do this (the UNet is cast to the mixed-precision type), and so does loading a model with torch_dtype=float16 or bfloat16 before adding LoRA. Off means the model was loaded in FP32, as transformers does by default, and only the computation runs in 16 bits: twice the memory for those weights, plus 16-bit copies made during the forward pass.", \
      "不参与训练的权重是否以 FP16/BF16 存放。diffusers 的 LoRA 脚本会这样做（把 UNet 转成混合精度的类型），用 torch_dtype=float16 或 bfloat16 加载模型后再加 LoRA 也是如此。不勾选表示模型按 FP32 加载（transformers 的默认做法），只有计算用 16 位：这些权重占双倍显存，前向时还要另存 16 位副本。") \
    X(PrecomputedLatents, "Latents precomputed", "潜变量已预先算好")                                          \
    X(PrecomputedLatentsTip, "Stable Diffusion training needs each image encoded by the VAE and each caption by the text encoder. diffusers' training scripts do this on every step, so these frozen networks sit on the GPU and their forward passes add to each step. Tick this if your pipeline computed the latents and text embeddings beforehand (as MosaicML's diffusion code can).", \
      "训练 Stable Diffusion 时，每张图要先经过 VAE 编码、每条描述要先经过文本编码器。diffusers 的训练脚本每一步都现算，所以这两个冻结的网络要放在显卡上，它们的前向计算也算进每一步的时间。如果你的流程已经提前算好了潜变量和文本向量（MosaicML 的 diffusion 代码就可以这样做），请勾选。") \
    X(CkptNone, "Off", "关闭")                                                                               \
    X(CkptSelective, "Selective (attention only)", "选择性（仅注意力）")                                     \
    X(CkptFull, "Full (every layer)", "完全（每一层）")                                                      \
    X(Attention, "Attention kernel", "注意力实现")                                                           \
    X(AttentionTip, "Eager attention keeps the full score matrix for backward; SDPA and FlashAttention do not.", \
      "普通（eager）注意力会为反向传播保存完整的分数矩阵；SDPA 和 FlashAttention 不会。")                     \
    X(AttnEager, "Eager (plain PyTorch ops)", "普通实现（eager）")                                           \
    X(AttnSdpa, "SDPA (PyTorch 2 default)", "SDPA（PyTorch 2 默认）")                                        \
    X(AttnFlash, "FlashAttention-2", "FlashAttention-2")                                                     \
    X(MemoryFormat, "Memory layout", "张量内存布局")                                                          \
    X(MemoryFormatTip, "How image tensors are laid out in memory. PyTorch's default is NCHW; under mixed precision (AMP) the convolutions then rearrange each tensor to NHWC and back, which costs time. model.to(memory_format=torch.channels_last) and the same for the inputs avoid that: often 1.2-1.5x faster for CNNs. Memory is the same.", \
      "图像张量在显存中的排列方式。PyTorch 默认是 NCHW；在混合精度（AMP）下，卷积每次都要把张量重排成 NHWC 再排回来，这会耗时。对模型和输入使用 .to(memory_format=torch.channels_last) 可以避免：CNN 训练常快 1.2–1.5 倍。显存占用不变。") \
    X(MemNchw, "NCHW (PyTorch default)", "NCHW（PyTorch 默认）")                                            \
    X(MemChannelsLast, "channels_last (NHWC)", "channels_last（NHWC 布局）")                                    \
    X(Gpu, "GPU", "显卡")                                                                                    \
    X(GpuTip, "The card to check. The table on the right compares every card.", "要检查的显卡。右侧的表格比较所有显卡。") \
    X(GpuNone, "(choose a GPU)", "（选择显卡）")                                                             \
    X(GpuCount, "Number of GPUs", "显卡数量")                                                                \
    X(GpuCountTip, "Cards training together. With DDP each holds a full copy of the model.",                \
      "一起训练的显卡数。使用 DDP 时每张卡都保存一份完整模型。")                                              \
    X(Interconnect, "Link between the cards", "卡间互联")                                                 \
    X(InterconnectTip, "How gradients travel between the cards. The card's default is what it is usually sold with; NVLink and NVSwitch are many times faster than PCIe.", \
      "梯度在多张卡之间通过什么传输。“默认”是这款卡通常的配置；NVLink/NVSwitch 比 PCIe 快好几倍。")       \
    X(LinkDefault, "Card default", "按显卡默认")                                                           \
    X(LinkPcie3, "PCIe 3.0", "PCIe 3.0 总线")                                                                   \
    X(LinkPcie4, "PCIe 4.0", "PCIe 4.0 总线")                                                                   \
    X(LinkPcie5, "PCIe 5.0", "PCIe 5.0 总线")                                                                   \
    X(LinkNvlinkBridge, "NVLink bridge (2 cards)", "NVLink 桥接（两卡）")                                  \
    X(LinkNvlink, "NVLink / NVSwitch (SXM)", "NVLink / NVSwitch（SXM 模组）")                                    \
    X(LinkIb, "Several servers: InfiniBand", "多台服务器：InfiniBand")                                     \
    X(LinkEthernet, "Several servers: Ethernet", "多台服务器：以太网")                                     \
    X(Network, "Network between servers", "服务器间网络")                                                  \
    X(NetworkTip, "For jobs that span several servers (more than 8 cards, or the link set to InfiniBand or Ethernet): the network joining them, as the total of one 8-card server's ports. By default InfiniBand HDR (a DGX A100's 8 x 200 Gb/s), or one 25 Gb/s port for Ethernet.", \
      "任务跨多台服务器时（超过 8 张卡，或互联选了 InfiniBand/以太网）：连接服务器的网络，按一台 8 卡服务器所有网口的总带宽计。默认是 InfiniBand HDR（DGX A100 的 8 × 200 Gb/s），以太网默认一个 25 Gb/s 网口。") \
    X(NetDefault, "Default for the link", "按互联默认")                                                   \
    X(NetIbHdr, "InfiniBand HDR, 8 x 200 Gb/s", "InfiniBand HDR，每台 8 × 200 Gb/s")                               \
    X(NetIbNdr, "InfiniBand NDR, 8 x 400 Gb/s", "InfiniBand NDR，每台 8 × 400 Gb/s")                               \
    X(NetRoce200, "RoCE, 8 x 200 Gb/s", "RoCE，每台 8 × 200 Gb/s")                                                 \
    X(NetRoce800, "RDMA Ethernet, 800 Gb/s in all", "RDMA 以太网，每台共 800 Gb/s")                                \
    X(NetEfa400, "AWS EFA, 400 Gb/s (p4d)", "AWS EFA，每台 400 Gb/s（p4d）")                                        \
    X(NetEfa3200, "AWS EFA, 3200 Gb/s (p5)", "AWS EFA，每台 3200 Gb/s（p5）")                                       \
    X(NetEth100, "Ethernet, one 100 Gb/s port", "以太网，单口 100 Gb/s")                                       \
    X(NetEth25, "Ethernet, one 25 Gb/s port", "以太网，单口 25 Gb/s")                                          \
    X(NetEth10, "Ethernet, one 10 Gb/s port", "以太网，单口 10 Gb/s")                                          \
    X(PeerToPeer, "Peer-to-peer transfers", "显卡直连传输（P2P）")                                          \
    X(PeerToPeerTip, "Whether cards send data to each other directly. GeForce RTX cards (20 series on) cannot over PCIe (NVIDIA's driver disables it; an NVLink bridge on two RTX 2080 Ti or 3090 still works), so data goes through the CPU's memory and is much slower. Off also models NCCL_P2P_DISABLE=1.", \
      "显卡之间能否直接互传数据。GeForce RTX 游戏卡不能经 PCIe 直连（NVIDIA 驱动已禁用；RTX 2080 Ti、3090 的 NVLink 桥仍可用），数据要经过 CPU 内存中转，慢很多。“关闭”也对应 NCCL_P2P_DISABLE=1。") \
    X(P2pOn, "On", "开启")                                                                                 \
    X(Ecc, "ECC memory", "ECC 显存纠错")                                                                     \
    X(EccTip, "Error-correcting memory. On this card the check bits live in the memory itself, so with ECC on nvidia-smi shows 1/16 less (a T4: 15 GiB of 16). Data-centre cards ship with it on and clouds keep it on; on your own card `sudo nvidia-smi -e 0` and a reboot turn it off.", \
      "纠错显存。此卡的校验位存放在显存里，开启 ECC 时 nvidia-smi 显示的总量少 1/16（T4：16 GiB 中的 15 GiB）。数据中心卡出厂即开启，云上也保持开启；自己的卡可用 `sudo nvidia-smi -e 0` 并重启来关闭。") \
    X(EccDefault, "As the card ships", "按出厂设置")                                                          \
    X(EccOff, "Off (the whole memory)", "关闭（全部显存可用）")                                               \
    X(P2pOff, "Off (through host memory)", "关闭（经主机内存中转）")                                         \
    X(GradReduce, "Gradients sent as", "梯度同步精度")                                                       \
    X(GradReduceTip, "The number format of the gradients the cards exchange after each step. By default they are sent as they are kept: 32-bit under mixed precision (AMP). 16-bit halves the traffic: PyTorch DDP's fp16_compress_hook, NVIDIA apex amp O2, DeepSpeed fp16. Memory is not affected in this estimate.", \
      "每步结束后各卡交换梯度时使用的数值格式。默认按梯度本身的格式发送：混合精度（AMP）下是 32 位。16 位可让通信量减半：PyTorch DDP 的 fp16_compress_hook、NVIDIA apex amp O2、DeepSpeed fp16 都是这样。本估算中它不影响显存。") \
    X(TensorParallel, "Tensor parallel", "张量并行")                                                       \
    X(TensorParallelTip, "Megatron-LM splits each transformer layer's attention heads and FFN width over this many cards, usually inside one NVLink machine; each layer's activations are then all-reduced 4 times per micro-batch. Must divide the attention heads (and key/value heads) and the FFN width; tensor x pipeline parallel must divide the number of GPUs. 1 = off. Transformers only.", \
      "Megatron-LM 把每个 Transformer 层的注意力头和 FFN 宽度拆到这么多张卡上，通常在同一台 NVLink 机器内；每个 micro-batch 每层的激活值要做 4 次 all-reduce。必须能整除注意力头数（含 key/value 头数）和 FFN 宽度；张量并行 × 流水线并行必须能整除卡数。1 = 不用。仅适用于 Transformer。") \
    X(PipelineParallel, "Pipeline stages", "流水线并行级数")                                                 \
    X(PipelineParallelTip, "The layers are split into this many stages on different cards and the micro-batches (gradient accumulation steps) flow through them (1F1B schedule). The first stage keeps the activations of up to this many micro-batches; each step idles for (stages - 1) micro-batches. 1 = off.", \
      "把模型各层分成这么多段放在不同的卡上，micro-batch（梯度累积步数）依次流过（1F1B 调度）。第一段最多同时保存这么多个 micro-batch 的激活值；每步空闲（级数 − 1）个 micro-batch 的时间。1 = 不用。") \
    X(PipelineInterleave, "Layer chunks per card", "每卡模型块数")                                         \
    X(PipelineInterleaveTip, "Megatron's interleaved schedule: each card holds this many separate chunks of layers. The idle time shrinks by this factor and the sends between stages grow by it. Gradient accumulation steps must be a multiple of the stages. 1 = plain 1F1B.", \
      "Megatron 的交错调度：每张卡持有这么多段不相邻的层。空闲时间按此倍数缩短，级间发送按此倍数增加。梯度累积步数必须是流水线级数的整数倍。1 = 普通 1F1B。") \
    X(SequenceParallel, "Sequence parallel", "序列并行")                                                   \
    X(SequenceParallelTip, "With tensor parallelism: the activations of LayerNorm, dropout and the residual stream are split along the sequence instead of copied on every card (Korthikanti et al. 2022). The same bytes travel; activations per card shrink.", \
      "配合张量并行：LayerNorm、dropout 和残差的激活值沿序列维切分，而不是每张卡各存一份（Korthikanti 等，2022）。通信量不变，每张卡的激活值减少。") \
    X(GradReduceOwn, "As kept (default)", "与梯度格式相同（默认）")                                          \
    X(GradReduceFp32, "32-bit (fp32)", "32 位（fp32）")                                                      \
    X(GradReduceFp16, "16-bit (fp16)", "16 位（fp16）")                                                      \
    X(GradReduceBf16, "16-bit (bf16)", "16 位（bf16）")                                                      \
    X(Strategy, "Multi-GPU strategy", "多卡策略")                                                            \
    X(OffloadOptimizer, "Optimizer states in host RAM", "优化器状态放在内存")                                    \
    X(OffloadOptimizerTip, "DeepSpeed ZeRO-Offload: the fp32 master weights, gradients and optimizer states live in host RAM and the optimizer step runs on the CPU. Saves GPU memory; each step waits for PCIe and the CPU.", \
      "DeepSpeed ZeRO-Offload：fp32 主权重、梯度和优化器状态放在主机内存，优化器步骤在 CPU 上运行。省显存，但每一步都要等 PCIe 和 CPU。") \
    X(StrategyTip, "DDP copies the model to every card; ZeRO and FSDP split optimizer states, gradients and weights across cards; DataParallel (the guides' nn.DataParallel example) re-sends the model from GPU 0 every step.", \
      "DDP 在每张卡上放一份完整模型；ZeRO 和 FSDP 把优化器状态、梯度和权重分摊到各张卡上；DataParallel（指南中 nn.DataParallel 的例子）每一步都从 GPU 0 重新发送模型。")               \
    X(StratDdp, "DDP (full copy per card)", "DDP（每卡完整副本）")                                           \
    X(StratZero1, "ZeRO-1 (split optimizer states)", "ZeRO-1（切分优化器状态）")                             \
    X(StratZero2, "ZeRO-2 (+ split gradients)", "ZeRO-2（再切分梯度）")                                      \
    X(StratZero3, "ZeRO-3 (+ split weights)", "ZeRO-3（再切分权重）")                                        \
    X(StratFsdp, "FSDP full shard", "FSDP 完全切分")                                                         \
    X(StratDp, "DataParallel (one process, through GPU 0)", "DataParallel（单进程，经由 GPU 0）")             \
    X(DpTitle, "DataParallel: GPU 0 and the other cards", "DataParallel：GPU 0 与其他卡")                      \
    X(DpGpu0, "GPU 0: %s (optimizer states %s, outputs gathered from every card %s, the whole input batch %s)",   \
      "GPU 0：%s（优化器状态 %s，从各卡汇集的输出 %s，整批输入 %s）")                                               \
    X(DpOthers, "Each other card: %s (a copy of the weights, its gradients and activations; no optimizer states)", \
      "其余每张卡：%s（权重副本、自己的梯度和激活；没有优化器状态）")                                             \
    X(DpTransfers, "Each step GPU 0 broadcasts the weights (%s), collects the gradients (%s) and moves inputs and "  \
      "outputs (%s); none of it overlaps compute. One Python thread launches every card's kernels (wait %s).",      \
      "每一步 GPU 0 广播权重（%s）、汇总梯度（%s）、分发输入并汇集输出（%s），都不与计算重叠；所有卡的内核由一个 Python 线程启动（等待 %s）。") \
    X(DpDdpSaves, "With DDP (torchrun, one process per card): %s per step instead of %s, %s less over the run, and " \
      "%s on every card instead of %s on GPU 0.",                                                                  \
      "改用 DDP（torchrun，每卡一个进程）：每步 %s 而不是 %s，全程少 %s；每张卡 %s，而 GPU 0 现在要 %s。")          \
    X(Reserve, "Extra reserve", "额外余量")                                                                  \
    X(ReserveTip, "Memory you want kept free on top of the headroom the verdict already counts (the desktop on " \
      "this card, evaluation, the longest sample). 0 by default: the guides' flat 20% counted the CUDA context and " \
      "allocator slack twice.",                                                                                    \
      "在结论已计入的余量（这块卡上的桌面、评估、最长样本）之外，你还想空出的显存。默认 0：旧的“留 20%”经验法则把 CUDA 上下文和分配器碎片重复算了一次。") \
    X(Samples, "Training samples", "训练样本数")                                                             \
    X(SamplesTip, "How many examples one epoch goes through.", "一轮（epoch）要训练的样本数量。")           \
    X(Epochs, "Epochs", "训练轮数")                                                                          \
    X(EpochsTip, "How many times training goes through the whole data set.", "完整遍历数据集的次数。")     \
    X(Loader, "Data loading speed per GPU (0 = keeps up)", "每张卡的数据读取速度（0 表示跟得上）")               \
    X(LoaderTip, "How many samples per second your input pipeline (DataLoader workers: reading, decoding, augmenting) delivers to each GPU. 0 = it keeps up with the GPU. To measure it, loop over your DataLoader alone for a minute and count. If the GPU is faster than this, it waits: more num_workers, pin_memory=True and data on a local SSD help.", \
      "输入流水线（DataLoader 工作进程：读取、解码、数据增强）每秒能给每张卡送多少个样本。0 表示它跟得上显卡。测量方法：只遍历 DataLoader 一分钟并计数。如果显卡比它快，显卡就会等数据：加大 num_workers、打开 pin_memory=True、把数据放在本地 SSD 上都有帮助。") \
    X(UnitSamplesPerS, "samples/s", "个样本/秒")                                                               \
    X(RangeInt, "Enter a whole number from %s to %s.", "请输入 %s 到 %s 之间的整数。")                     \
    X(RangeNumber, "Enter a number from %s to %s.", "请输入 %s 到 %s 之间的数。")                           \
    X(InputsInvalid, "Some settings are not valid; the results below are for the last valid ones.",        \
      "部分设置无效；下面的结果对应上一次有效的设置。")                                                      \
    X(ResultTitle, "Will it fit?", "装得下吗？")                                                             \
    X(CardCount, "%d × %s", "%d 张 %s")                                                                        \
    X(VerdictFits, "Fits on %s", "能装进 %s")                                                                \
    X(VerdictNoFit, "Does not fit on %s", "装不进 %s")                                                       \
    X(VerdictTight, "Tight on %s", "勉强装进 %s")                                                             \
    X(TightShort, "Tight", "勉强")                                                                                \
    X(CompareTitle, "Compare side by side", "并排比较")                                                          \
    X(PinCurrent, "Pin this scenario", "固定这个方案")                                                           \
    X(PinCurrentTip, "Keeps this answer on the page: change the inputs and compare (up to 3 pinned). Pins are "  \
      "kept in the link and your saved settings. A ranked option: right-click its row.",                       \
      "把这个答案留在页面上：修改输入后即可对比（最多固定 3 个）。固定的方案会保存在链接和本机设置里。"       \
      "排名中的选项：右键点击它所在的行。")                                                                   \
    X(PinnedAlready, "This scenario is pinned.", "这个方案已固定。")                                             \
    X(PinsFull, "Three scenarios are pinned: unpin one to pin another.", "已固定 3 个方案：先取消一个才能再固定。") \
    X(CompareHint, "Pin this scenario, then change the inputs (another card, LoRA instead of full, 4 cards "    \
      "instead of 1): both answers stay side by side.",                                                        \
      "先固定这个方案，再修改输入（换一块显卡、用 LoRA 代替全参数、4 张卡代替 1 张）：两个答案会并排显示。")  \
    X(ColNow, "Now", "当前")                                                                                   \
    X(ColPinned, "Pinned %d", "固定 %d")                                                                       \
    X(Unpin, "Unpin", "取消固定")                                                                              \
    X(PinLoad, "Edit", "编辑")                                                                                 \
    X(PinLoadTip, "Puts this pinned scenario into the inputs (the current one is replaced; pin it first to keep it).", \
      "把这个固定的方案放回输入（当前输入会被替换；想保留请先固定它）。")                                     \
    X(PinOption, "Pin this option for comparison", "固定这个选项用于比较")                                     \
    X(RowScenario, "Scenario", "方案")                                                                         \
    X(RowVerdict, "Fits?", "装得下吗")                                                                         \
    X(RowMemory, "Memory (peak, on one scale)", "显存（峰值，同一刻度）")                                      \
    X(RowTime, "Training time", "训练时间")                                                                    \
    X(RowRent, "Rent (cheapest offer)", "租用（最便宜的报价）")                                                \
    X(RowBuy, "Buy", "购买")                                                                                   \
    X(PinProblems, "Cannot be computed with the data now:", "按现在的数据无法计算：")                            \
    X(PinNoTimeNoFit, "- (out of memory at the first step)", "-（第一步就显存不足）")                          \
    X(PinBarTip, "%s: %s (the red mark: %s usable on this card)", "%s：%s（红线：这块卡可用 %s）")             \
    X(VerdictCard, "Needs %s of the card's %s; a real run needs %s more headroom: %s.",                        \
      "需要 %s，显卡共 %s；实际运行还需 %s 余量：%s。")                                                       \
    X(VerdictCardNoHeadroom, "Needs %s of the card's %s.", "需要 %s，显卡共 %s。")                               \
    X(CardMemoryEccOn, "%s usable of %s (ECC on: its check bits take %s; nvidia-smi shows the rest as the total).", \
      "可用 %s，标称 %s（ECC 开启：校验位占用 %s；nvidia-smi 显示的总量即为其余部分）。")                          \
    X(CardMemoryEccOff, "%s usable of %s (ECC off).", "可用 %s，标称 %s（ECC 关闭）。")                             \
    X(CardMemoryDriver, "%s usable of %s (what nvidia-smi shows as the total; the driver keeps the rest).",        \
      "可用 %s，标称 %s（nvidia-smi 显示的总量，其余由驱动保留）。")                                              \
    X(VerdictNoFitWhy, "The training steps alone fit the card, but %s passes it: the run stops with out-of-memory " \
      "when that comes. Take one of the changes below.",                                                           \
      "单看训练步骤能装进显卡，但 %s 会超出：到那一步就会显存不足而中断。请采用下面的修改。")                      \
    X(VerdictTightWhy, "It fits the card, but not with that headroom: %s may push it over. Close other programs " \
      "on this card, or take one of the switches below.",                                                          \
      "能装进显卡，但留不出这些余量：%s 可能让它超出。关掉这块卡上的其他程序，或采用下面的开关。")              \
    X(HeadroomDesktop, "the desktop on this card %s", "这块卡上的桌面 %s")                                      \
    X(HeadroomLongSample, "the longest sample %s", "最长样本 %s")                                               \
    X(HeadroomEvaluation, "evaluation %s", "评估 %s")                                                           \
    X(HeadroomReserve, "your extra reserve %s", "你的额外余量 %s")                                              \
    X(Stack, "Fine-tuning stack", "微调框架")                                                                    \
    X(StackTip, "The tool that runs the training. Each ships its own loss and checkpointing kernels; the "       \
      "estimate uses each one's documented defaults.",                                                             \
      "运行训练的工具。各自带有自己的损失函数和检查点实现；估算采用各自文档中的默认值。")                       \
    X(StackHelpTitle, "Which stack should I use?", "该用哪个微调框架？")                                      \
    X(StackHelpHf, "Hugging Face Trainer + PEFT: the general training loop of transformers, with PEFT for LoRA and QLoRA. Works with any model on the Hub; most tutorials use it. Start here if you write Python.", \
      "Hugging Face 训练器 + PEFT：transformers 的通用训练循环，用 PEFT 做 LoRA 和 QLoRA。Hub 上的模型都能用，多数教程用的就是它。会写 Python 就从这里开始。") \
    X(StackHelpLlamaFactory, "LLaMA-Factory: no code. A YAML file or its web page (LlamaBoard) fine-tunes 100+ LLMs with LoRA, QLoRA or full training; documented in Chinese too. Good for a first LLM fine-tune.", \
      "LLaMA-Factory：不用写代码。用一个 YAML 文件或它的网页界面（LlamaBoard）就能对 100 多种大模型做 LoRA、QLoRA 或全量微调；有中文文档。适合第一次微调大模型。") \
    X(StackHelpUnsloth, "Unsloth: its own kernels for LoRA and QLoRA on one card; its README reports about 2x the speed and 70% less memory than Hugging Face with FlashAttention 2 for Llama 3.1 8B. Free Colab and Kaggle notebooks. Made for one card.", \
      "Unsloth：为单卡 LoRA、QLoRA 写的专用内核；它的 README 称 Llama 3.1 8B 比 Hugging Face + FlashAttention 2 快约 2 倍、省约 70% 显存。有免费的 Colab 和 Kaggle 笔记本。面向单卡。") \
    X(StackHelpAxolotl, "axolotl: one YAML file per run over the Hugging Face stack, with DeepSpeed or FSDP for several cards and sample packing; many example configs. For multi-GPU runs you want to repeat.", \
      "axolotl：每次训练一个 YAML 文件，底层是 Hugging Face，多卡用 DeepSpeed 或 FSDP，支持样本打包；有很多示例配置。适合要反复跑的多卡训练。") \
    X(StackHelpTorchtune, "torchtune: PyTorch's own library: plain-PyTorch recipes (no Trainer) with YAML configs, on one card or many (FSDP2). For those who want to read and change the training loop.", \
      "torchtune：PyTorch 官方的库：纯 PyTorch 写的训练配方（不用 Trainer），用 YAML 配置，单卡或多卡（FSDP2）。适合想读懂并修改训练循环的人。") \
    X(StackHelpSources, "Sources: Hugging Face transformers Trainer and PEFT docs; Zheng et al. 2024, LlamaFactory, ACL (arXiv 2403.13372); unslothai/unsloth README (benchmark table); axolotl README; pytorch.org/torchtune overview.", \
      "来源：Hugging Face transformers Trainer 与 PEFT 文档；Zheng 等 2024，LlamaFactory，ACL（arXiv 2403.13372）；unslothai/unsloth README（性能表）；axolotl README；pytorch.org/torchtune 概览。") \
    X(StackHf, "Hugging Face Trainer + PEFT", "Hugging Face 训练器 + PEFT")                                   \
    X(StackLlamaFactory, "LLaMA-Factory", "LLaMA-Factory")                                                      \
    X(StackUnsloth, "Unsloth", "Unsloth")                                                                       \
    X(StackTorchtune, "torchtune", "torchtune")                                                                 \
    X(StackAxolotl, "axolotl", "axolotl")                                                                       \
    X(LigerKernel, "Liger kernel (fused loss)", "Liger 内核（融合损失）")                                      \
    X(LigerKernelTip, "Fused linear cross-entropy: the full-vocabulary logits are never stored. Same results.", \
      "融合的线性交叉熵：不再保存整个词表的 logits。结果不变。")                                                \
    X(UseUnsloth, "Use Unsloth (use_unsloth)", "使用 Unsloth（use_unsloth）")                                  \
    X(UseUnslothTip, "LLaMA-Factory's Unsloth patch: fused loss and activations offloaded to host RAM.",       \
      "LLaMA-Factory 的 Unsloth 补丁：融合损失，激活卸载到内存。")                                               \
    X(Packing, "Sample packing", "样本打包（packing）")                                                         \
    X(PackingTip, "Concatenate samples into full sequences: no padding, and no batch longer than the sequence " \
      "length.",                                                                                                    \
      "把样本拼接成完整序列：没有填充，也不会出现比序列长度更长的批次。")                                       \
    X(OffloadActivations, "Offload activations to RAM", "激活卸载到内存")                                      \
    X(OffloadActivationsTip, "With full checkpointing, each block's input waits in host RAM (and crosses PCIe " \
      "twice per step).",                                                                                           \
      "开启完整检查点时，每个块的输入放在主机内存（每步经 PCIe 往返两次）。")                                    \
    X(Display, "This card drives a display", "这块卡连接显示器")                                                 \
    X(DisplayTip, "A desktop drawn by the training card takes memory: 793 MiB measured on Windows, 74 MiB for " \
      "a bare Linux GNOME session (browsers add more). Auto: counted for a consumer or workstation card you own.", \
      "训练用的卡同时显示桌面会占显存：Windows 实测 793 MiB，Linux 纯 GNOME 会话 74 MiB（浏览器更多）。自动：自有的消费级或工作站卡计入。") \
    X(DisplayAuto, "Auto", "自动")                                                                              \
    X(DisplayNone, "No (headless)", "否（无显示）")                                                             \
    X(DisplayLinux, "Linux desktop", "Linux 桌面")                                                              \
    X(DisplayWindows, "Windows desktop", "Windows 桌面")                                                        \
    X(EvalBatch, "Evaluation batch (0 = none)", "评估批大小（0 = 不评估）")                                      \
    X(EvalBatchTip, "Evaluation during training materialises the full logits of its batch while the weights and " \
      "optimizer states stay on the card.",                                                                         \
      "训练中评估时，权重和优化器状态仍在显存中，同时要生成整批的完整 logits。")                                   \
    X(LongestSample, "Longest sample (tokens, 0 = all equal)", "最长样本（token，0 = 等长）")                    \
    X(LongestSampleTip, "Without packing, a batch is padded to its longest sample: the peak is at that length.", \
      "不打包时，批次会填充到其中最长的样本：峰值出现在这个长度。")                                               \
    X(NarrowJob, "1  Your job", "1  你的任务")                                                              \
    X(NarrowAnswer, "2  The answer", "2  结果")                                                             \
    X(NarrowSeeAnswer, "See the answer", "查看结果")                                                         \
    X(NarrowChangeJob, "Change the job", "修改任务")                                                          \
    X(SummaryFits, "Fits on %s: needs %s of %s usable.", "能装进 %s：需要 %s，可用 %s。")                        \
    X(SummaryNoFit, "Does not fit on %s: needs %s, %s usable.", "装不进 %s：需要 %s，可用 %s。")                 \
    X(SummaryTight, "Tight on %s: needs %s, %s with the headroom a real run needs.",                           \
      "勉强装进 %s：需要 %s，留出实际运行所需余量后可用 %s。")                                                   \
    X(SummaryTime, "Training takes about %s.", "训练约需 %s。")                                               \
    X(VerdictNeeds, "Needs %s of %s usable (%s card, %s kept free).", "需要 %s，可用 %s（显卡共 %s，预留 %s）。") \
    X(NoGpuChosen, "Choose a GPU on the left to get a verdict.", "在左侧选择一块显卡即可得到结论。")       \
    X(NoCardChosen, "No card chosen", "未选择显卡")                                                         \
    X(MaxBatch, "Largest batch size per GPU that fits: %d", "能装下的最大每卡批大小：%d")                  \
    X(MaxBatchCopy, "Largest batch size per model copy that fits: %d", "能装下的最大每个模型副本批大小：%d") \
    X(MaxBatchNone, "Even a batch size of 1 does not fit this card.", "即使批大小为 1 也装不进这块显卡。") \
    X(ParamsLine, "Parameters: %s in total, %s trained", "参数量：共 %s，参与训练 %s")                     \
    X(ModelParallelLine, "Each GPU holds %s of them; one model copy spans %d GPUs and takes the batch size above.", \
      "每张卡存其中的 %s；一个模型副本占 %d 张卡，处理上面的批大小。") \
    X(PipelineStageLine, "Memory shown for pipeline stage %d of %d, which holds the activations of %s micro-batches at once.", \
      "显示的是流水线 %d / %d 段的显存，这一段同时保存 %s 个 micro-batch 的激活值。") \
    X(PartWeights, "Weights", "权重")                                                                        \
    X(PartGradients, "Gradients", "梯度")                                                                    \
    X(PartOptimizer, "Optimizer states", "优化器状态")                                                       \
    X(PartOptimizerEma, "Optimizer states + weight EMA", "优化器状态 + 权重 EMA")                             \
    X(PartWeightsEncoders, "Weights + frozen VAE and text encoders", "权重 + 冻结的 VAE 和文本编码器")         \
    X(PartActivations, "Activations kept for backward", "为反向传播保存的激活值")                           \
    X(PartTemporary, "Temporary buffers at the peak", "峰值时的临时缓冲")                                   \
    X(PartFramework, "CUDA context and allocator", "CUDA 上下文与显存分配器")                                \
    X(PartReserve, "Safety reserve", "安全余量")                                                             \
    X(PeakAllocated, "Peak allocated by PyTorch", "PyTorch 峰值分配")                                        \
    X(NvidiaSmi, "As nvidia-smi shows it", "nvidia-smi 显示的占用")                                          \
    X(PhaseForwardEnd, "The peak comes at the end of the forward pass.", "峰值出现在前向传播结束时。")     \
    X(PhaseBackward, "The peak comes during the backward pass.", "峰值出现在反向传播过程中。")             \
    X(PhaseOptimizer, "The peak comes during the optimizer step.", "峰值出现在优化器更新参数时。")         \
    X(PartsNotAtOnce, "Each part is shown at its largest, and they are not all at their largest at once (gradients, for one, fill in during the backward pass), so the peak is less than their sum.", \
      "表中每一项都是它自己的最大值，而它们不会同时达到最大（例如梯度在反向传播中逐步产生），所以峰值小于各项之和。") \
    X(TimelineTitle, "Memory through one training step", "一个训练步内的显存变化")                          \
    X(TimelineStart, "Start", "开始")                                                                        \
    X(TimelineForwardEnd, "Forward", "前向")                                                                 \
    X(TimelineLoss, "Loss", "损失")                                                                          \
    X(TimelineBackward, "Backward", "反向")                                                                  \
    X(TimelineStep, "Step", "更新")                                                                          \
    X(TimelineEval, "Eval", "评估")                                                                          \
    X(TimelineStartLong, "Before the forward pass", "前向传播开始前")                                        \
    X(TimelineForwardEndLong, "End of the forward pass", "前向传播结束时")                                   \
    X(TimelineLossLong, "Backward through the loss", "损失的反向传播")                                       \
    X(TimelineBackwardLong, "Backward of block %d of %d (from the last)", "第 %d / %d 块的反向传播（从最后一块开始）") \
    X(TimelineStepLong, "Optimizer step", "优化器更新参数")                                                  \
    X(TimelineEvalLong, "Evaluation pass, between steps", "评估（在两个训练步之间）")                        \
    X(TimelineTemporary, "Temporary buffers", "临时缓冲")                                                    \
    X(TimelineWorkspace, "cuBLAS and cuDNN workspaces", "cuBLAS 与 cuDNN 工作区")                           \
    X(TimelineAllocated, "Allocated", "已分配")                                                              \
    X(TimelinePeak, "peak", "峰值")                                                                          \
    X(TimelineCard, "card", "显卡")                                                                          \
    X(TimelineAxis, "phase of the step", "训练步中的阶段")                                                   \
    X(TimelineHint, "What PyTorch has allocated at each point of one step. nvidia-smi shows more at the peak (%s): the CUDA context and the allocator's cached blocks.", \
      "一个训练步中每个时刻 PyTorch 已分配的显存。nvidia-smi 在峰值时显示得更多（%s）：还包括 CUDA 上下文和分配器缓存的显存块。") \
    X(TimelineEvalHint, "Evaluation runs between steps: it is checked on its own, not added to the training peak.", \
      "评估在两个训练步之间进行：单独检查，不计入训练峰值。")                                                 \
    X(BreakdownTitle, "Where the memory goes", "显存都用在哪里")                                             \
    X(ColPart, "Part", "组成部分")                                                                           \
    X(ColBytes, "Memory", "显存")                                                                            \
    X(ColFormula, "How it is computed", "计算方式")                                                          \
    X(ExplainTip, "Click a row to see its formula with the numbers filled in.", "点击一行查看代入数值的公式。") \
    X(PerCardTitle, "Largest batch on each GPU", "各显卡能装下的最大批大小")                                \
    X(ColGpu, "GPU", "显卡")                                                                                 \
    X(ColMemory, "Memory", "显存")                                                                           \
    X(ColMaxBatch, "Largest batch", "最大批大小")                                                            \
    X(ColFits, "Fits?", "装得下？")                                                                          \
    X(Yes, "Yes", "是")                                                                                      \
    X(No, "No", "否")                                                                                        \
    X(MemVsBatchTitle, "Memory needed as the batch grows", "所需显存随批大小的变化")                        \
    X(AxisBatch, "batch size per GPU", "每卡批大小")                                                         \
    X(AxisGiB, "GiB", "GiB")                                                                                 \
    X(TickHours, "%s h", "%s 小时")                                                                                 \
    X(Usable, "usable", "可用")                                                                              \
    X(FamilyCnn, "Image classification (CNN)", "图像分类（CNN）")                                            \
    X(FamilyDetection, "Detection and segmentation", "目标检测与分割")                                       \
    X(FamilyVit, "Vision transformers", "视觉 Transformer")                                                  \
    X(FamilyEncoder, "Text encoders (BERT family)", "文本编码器（BERT 系列）")                               \
    X(FamilyDecoder, "Language models (GPT, Llama, Qwen)", "语言模型（GPT、Llama、Qwen）")                   \
    X(FamilyDiffusion, "Diffusion (image generation)", "扩散模型（图像生成）")                               \
    X(FamilyCustom, "Your own model (enter its sizes)", "自定义模型（填写各项尺寸）")                         \
    X(CustomDecoder, "Custom language model (decoder, GPT/Llama-like)", "自定义语言模型（解码器，类 GPT/Llama）") \
    X(CustomEncoder, "Custom encoder (BERT-like)", "自定义编码器（类 BERT）")                                  \
    X(CustomVit, "Custom vision transformer (ViT)", "自定义视觉 Transformer（ViT）")                         \
    X(CustomResNet, "Custom CNN (ResNet-like)", "自定义卷积网络（类 ResNet）")                               \
    X(CustomUnet, "Custom U-Net (segmentation)", "自定义 U-Net（图像分割）")                                  \
    X(CustomCnnTip, "The sizes from the code or paper that defines the model (for example torchvision's resnet50: bottleneck blocks, 3-4-6-3 blocks per stage, width 64). The parameter count and every estimate follow from them.", \
      "模型定义代码或论文中的尺寸（例如 torchvision 的 resnet50：瓶颈块，各阶段 3-4-6-3 个块，宽度 64）。参数量和所有估算都由它们算出。") \
    X(CustomBlock, "Block type", "残差块类型")                                                               \
    X(CustomBlockBasic, "Basic: two 3x3 convolutions (ResNet-18/34)", "基本块：两个 3x3 卷积（ResNet-18/34）")      \
    X(CustomBlockBottleneck, "Bottleneck: 1x1-3x3-1x1 (ResNet-50/101/152)", "瓶颈块：1x1-3x3-1x1（ResNet-50/101/152）") \
    X(CustomWidth, "Width (channels of the first stage)", "宽度（第一阶段的通道数）")                          \
    X(CustomStages, "Stages", "阶段数")                                                                      \
    X(CustomStageBlocks, "Blocks in stage %d", "第 %d 阶段的块数")                                            \
    X(CustomClasses, "Output classes", "输出类别数")                                                         \
    X(CustomBaseChannels, "Channels of the first level", "第一层级的通道数")                                  \
    X(CustomUnetDepth, "Down-sampling steps (depth)", "下采样次数（深度）")                                   \
    X(CustomInChannels, "Input channels (3 for RGB)", "输入通道数（RGB 为 3）")                                \
    X(CustomModelTip, "The sizes from the model's config file (config.json on Hugging Face). The parameter count and every estimate follow from them.", \
      "模型配置文件（Hugging Face 上的 config.json）里的尺寸。参数量和所有估算都由它们算出。")             \
    X(CustomLayers, "Layers", "层数")                                                                         \
    X(CustomHidden, "Hidden size", "隐藏层维度")                                                             \
    X(CustomHeads, "Attention heads", "注意力头数")                                                          \
    X(CustomFfn, "Feed-forward size", "前馈层维度")                                                          \
    X(CustomVocab, "Vocabulary size", "词表大小")                                                            \
    X(CustomMaxPositions, "Longest sequence (positions)", "最大序列长度（位置数）")                           \
    X(CustomPatch, "Patch size", "图块大小")                                                                 \
    X(CustomImage, "Image size it was built for", "模型设计的输入图像尺寸")                                  \
    X(CustomModelProblems, "These sizes do not describe a model gpuguide can build:", "这些尺寸无法构成有效的模型：") \
    X(HfConfigPaste, "Paste a Hugging Face config.json", "粘贴 Hugging Face 模型的 config.json")             \
    X(HfConfigTip, "Any model on the Hugging Face Hub: open its Files tab, copy config.json and paste it here. gpuguide reads the architecture from it (Llama, Mistral, Mixtral, Qwen, Gemma, Phi-1.5 to Phi-4, GPT-2, OPT, Pythia, Falcon, DeepSeek, BERT, RoBERTa, XLM-RoBERTa, DistilBERT, ALBERT, ViT, CLIP vision, Whisper) and counts its parameters exactly.", \
      "Hugging Face 上的任何模型：打开它的 Files 页，复制 config.json 粘贴到这里。gpuguide 从中读取模型结构（Llama、Mistral、Mixtral、Qwen、Gemma、Phi-1.5 到 Phi-4、GPT-2、OPT、Pythia、Falcon、DeepSeek、BERT、RoBERTa、XLM-RoBERTa、DistilBERT、ALBERT、ViT、CLIP 视觉塔、Whisper），并精确计算参数量。") \
    X(HfConfigApply, "Use this model", "使用这个模型")                                                       \
    X(HfConfigProblems, "This config.json cannot be used:", "无法使用这个 config.json：")                    \
    X(TrainingConfigPaste, "Paste your training config (LLaMA-Factory, axolotl, torchtune, PEFT)", "粘贴你的训练配置（LLaMA-Factory、axolotl、torchtune、PEFT）") \
    X(TrainingConfigTip, "A LLaMA-Factory or axolotl YAML, a torchtune recipe config, a PEFT adapter_config.json or Hugging Face TrainingArguments JSON: the calculator fills in from it and lists what the file does not say and the keys it does not use. Nothing is fetched: the base model must be a preset or a bundled Hub model, or paste its config.json above and use it first.", \
      "LLaMA-Factory 或 axolotl 的 YAML、torchtune 的配方配置、PEFT 的 adapter_config.json 或 Hugging Face TrainingArguments 的 JSON：计算器据此填写，并列出文件没有说明的设置和未使用的键。不会下载任何内容：基础模型须是预设或内置的 Hub 模型，否则请先在上面粘贴并使用它的 config.json。") \
    X(TrainingConfigApply, "Use this config", "使用这个配置")                                               \
    X(TrainingConfigProblems, "This training config cannot be used:", "无法使用这个训练配置：")              \
    X(TrainingConfigNeedsHfConfig, "Paste the base model's config.json in the box above, press \"Use this model\", then \"Use this config\" again.", "请在上面的框中粘贴基础模型的 config.json，点“使用这个模型”，再点“使用这个配置”。") \
    X(TrainingConfigAssumed, "Assumed (the file does not say):", "假设（文件中没有写）：")                  \
    X(TrainingConfigNotUsed, "Not used:", "未使用：")                                                        \
    X(TrainingConfigNoteIrrelevant, "does not change memory or time", "不影响显存和训练时间")                     \
    X(TrainingConfigNoteEmpty, "empty: the stack's default applies", "留空：使用该训练框架的默认值")              \
    X(TrainingConfigNoteNotModelled, "not read: gpuguide does not model this key; check that it does not change memory or time", \
      "未读取：gpuguide 不模拟此项；请确认它不影响显存和训练时间")                                              \
    X(TrainingConfigNotesInEnglish, "The notes below are in English.", "以下说明为英文原文：")                    \
    X(FamilyRnn, "Recurrent networks", "循环神经网络")                                                       \
    X(SegConsumer, "GeForce (consumer)", "GeForce 消费级")                                                   \
    X(SegWorkstation, "Workstation", "工作站级")                                                             \
    X(SegDatacenter, "Data center", "数据中心级")                                                            \
    X(GuideIntro, "A short guide to choosing a GPU for training. Each section ends with examples you can open in the calculator.", \
      "一份简明的训练显卡选型指南。每一节末尾都有可以在计算器中打开的例子。")                               \
    X(TryIt, "Try it:", "试一试：")                                                                          \
    X(ValidationIntro, "How far to trust the numbers: every case the tests check, measured on real hardware or by our own scripts, against what gpuguide predicts.", \
      "这些数字有多可信：测试所检查的每一个案例，真实硬件或我们自己的脚本测得的数值，与 gpuguide 的预测对比。") \
    X(ValidationSummary, "%d cases: %d within tolerance, %d outside, %d not judged (not expressible or not a measurement)", "共 %d 个案例：%d 个在误差范围内，%d 个超出，%d 个未评判（无法表示或并非实测）") \
    X(ValidationTargets,                                                                                    \
      "Against the time engine's targets: throughput within 25%% of the measurement in %d of %d cases; GPUs in " \
      "the published order in %d of %d pairs; multi-GPU scaling within 10 points in %d of %d cases.",        \
      "对照时间估算的目标：吞吐量与实测相差不超过 25%% 的有 %d 个（共 %d 个）；显卡快慢顺序与公布结果一致的有 "   \
      "%d 对（共 %d 对）；多卡扩展效率相差不超过 10 个百分点的有 %d 个（共 %d 个）。")                     \
    X(ValidationRangeSummary, "Time estimates come with a range (the low and high ends the calculator shows): the measured value lies inside it for %d of %d measured speeds and durations.", "时间估算都带一个区间（计算器显示的最快与最慢值）：实测的速度和时长中，有 %d 个落在这个区间内（共 %d 个）。") \
    X(ErrorTableTitle, "Time error by card class and model family", "按显卡类别和模型类型看时间误差")            \
    X(ErrorTableHint, "Only cases the fitted numbers never saw (speeds and durations). Power-capped data-centre cards: 165 W or less (T4, L4, A10, A10G, A30).", \
      "只计入拟合时没有用到的案例（速度与时长）。限功耗数据中心卡：功耗不超过 165 W（T4、L4、A10、A10G、A30）。") \
    X(ColGroup, "Group", "分组")                                                                             \
    X(ColCases, "Cases", "案例数")                                                                           \
    X(ColWithin25, "Within 25%", "误差不超过 25%")                                                           \
    X(ColMedianError, "Median error", "误差中位数")                                                          \
    X(ColRmsLogError, "RMS log error", "对数误差均方根")                                                     \
    X(ClassAll, "All", "全部")                                                                               \
    X(ClassGeforce, "GeForce", "GeForce 消费级")                                                             \
    X(ClassWorkstation, "Workstation", "工作站级")                                                           \
    X(ClassDcPowerCapped, "Data centre, power-capped", "数据中心级（限功耗）")                               \
    X(ClassDcFullPower, "Data centre, full power", "数据中心级（满功耗）")                                   \
    X(ClassOther, "Other cards", "其他显卡")                                                                 \
    X(ColCase, "Case", "案例")                                                                               \
    X(ColQuantity, "Quantity", "指标")                                                                       \
    X(ColMeasured, "Measured", "实测")                                                                       \
    X(ColPredicted, "Predicted", "预测")                                                                     \
    X(ColError, "Error", "误差")                                                                             \
    X(ColTolerance, "Tolerance", "容差")                                                                     \
    X(ColSource, "Source file", "来源文件")                                                                  \
    X(Pass, "within", "达标")                                                                                \
    X(Fail, "outside", "超出")                                                                               \
    X(NotRun, "not run", "未运行")                                                                           \
    X(Informative, "shown, not judged", "仅供参考")                                                          \
    X(FilterFailures, "Only cases outside tolerance", "只看超出容差的案例")                                  \
    X(AccuracyChartTitle, "Predicted against measured", "预测值与实测值对比")                                \
    X(AccuracyAxisMeasured, "measured", "实测值")                                                            \
    X(AccuracyAxisPredicted, "gpuguide", "gpuguide 预测")                                                    \
    X(AccuracyBand, "tolerance ±%d%%", "容差 ±%d%%")                                                         \
    X(AccuracyChartHint, "One point per case, on log scales. On the diagonal the prediction equals the measurement; the shaded band is the most common tolerance of the cases shown. Hollow points are outside their own tolerance. Click a point to open its case in the calculator.", \
      "每个点是一个案例，两轴都是对数刻度。对角线上表示预测值等于实测值；阴影带是所示案例中最常见的容差。空心点超出了该案例自己的容差。点击一个点，即可在计算器中打开该案例。") \
    X(AccuracyShown, "%d of %d cases match the filters; %d are drawn (a case needs a positive measured and predicted value).", \
      "共 %d 个案例符合筛选条件（总计 %d 个）；图中画出 %d 个（需要实测值和预测值都大于零）。")           \
    X(AccuracyPointTip, "Click to open this case in the calculator", "点击可在计算器中打开这个案例")       \
    X(AccuracyCaseOpened, "Opened a case from the Accuracy tab: the inputs are the case's own.",            \
      "已从“准确度验证”页打开一个案例：各项输入就是该案例的设置。")                                      \
    X(AccuracyCaseLine, "%s: %s measured %s, gpuguide %s", "%s：%s 实测 %s，gpuguide 预测 %s")               \
    X(FilterFamily, "Model family", "模型类别")                                                              \
    X(FilterCard, "Card", "显卡")                                                                            \
    X(FilterKind, "Kind of figure", "数值类型")                                                              \
    X(FilterAll, "All", "全部")                                                                              \
    X(KindPeakMemory, "Peak memory", "峰值显存")                                                             \
    X(KindModelStates, "Weights and optimizer states", "权重与优化器状态")                                  \
    X(KindActivations, "Saved activations", "保存的激活值")                                                  \
    X(KindParams, "Parameter counts", "参数数量")                                                            \
    X(KindMaxLength, "Longest sequence that fits", "能装下的最长序列")                                       \
    X(KindThroughput, "Throughput", "吞吐量")                                                                \
    X(KindDuration, "Step and run time", "单步与总训练时间")                                                 \
    X(KindScaling, "Scaling over cards", "多卡扩展效率")                                                     \
    X(KindMfu, "Model FLOPs utilisation", "模型算力利用率（MFU）")                                          \
    X(StacksTitle, "The fine-tuning stacks' own published figures", "各微调框架自己公布的数字")             \
    X(StacksHint, "Grouped by stack: each figure its documentation publishes, against gpuguide's estimate with that stack's settings.", \
      "按框架分组：每个框架文档里公布的数字，与 gpuguide 按该框架设置得出的估算对比。")                   \
    X(CalTitle, "Calibrate with my measurement", "用我的实测数据校准")                                      \
    X(CalIntro, "Ran this job on %s? Enter what your run measured. gpuguide shows its error and which term explains it. If you apply it, later estimates and rankings on this card use it, marked \"calibrated by you\"; you can undo it.", \
      "在 %s 上跑过这个任务？填入你实测到的数字。gpuguide 会给出误差，并说明是哪一项造成的。应用后，之后这块卡上的估算和排名都会使用它，并标注“经你校准”；随时可以撤销。") \
    X(CalNoCard, "Pick a GPU first: a calibration belongs to one card.", "请先选择显卡：校准只针对一块显卡。") \
    X(CalNvidiaSmi, "Peak in nvidia-smi", "nvidia-smi 中的峰值")                                             \
    X(CalNvidiaSmiTip, "The Memory-Usage of your training process in nvidia-smi at its highest. It includes the CUDA context and what PyTorch's allocator keeps cached. Leave 0 if you did not read it.", \
      "训练进程在 nvidia-smi 中 Memory-Usage 的最高值。它包含 CUDA 上下文和 PyTorch 分配器缓存的显存。没读到就留 0。") \
    X(CalAllocated, "torch.cuda.max_memory_allocated", "torch.cuda.max_memory_allocated")                    \
    X(CalAllocatedTip, "The tensors alone, as PyTorch counts them: no CUDA context and no allocator cache. Print torch.cuda.max_memory_allocated() / 2**30 after a few steps. Leave 0 if you did not read it.", \
      "PyTorch 统计的张量本身：不含 CUDA 上下文，也不含分配器缓存。训练几步后打印 torch.cuda.max_memory_allocated() / 2**30。没读到就留 0。") \
    X(CalReserved, "torch.cuda.max_memory_reserved (optional)", "torch.cuda.max_memory_reserved（可选）")   \
    X(CalReservedTip, "What PyTorch's caching allocator held at most: the tensors plus its cache, without the CUDA context. With all three figures the allocator and the context are told apart exactly.", \
      "PyTorch 缓存分配器最多占用的显存：张量加上缓存，不含 CUDA 上下文。三个数字都填时，分配器和上下文可以精确分开。") \
    X(CalSpeed, "Measured speed", "实测速度")                                                               \
    X(CalSpeedTip, "The Hugging Face Trainer prints train_samples_per_second and train_steps_per_second (optimizer steps) at the end. Leave 0 if you did not measure it.", \
      "Hugging Face Trainer 结束时会打印 train_samples_per_second 和 train_steps_per_second（优化器步数）。没测就留 0。") \
    X(CalSamplesPerS, "samples/s", "样本/秒")                                                                \
    X(CalStepsPerS, "steps/s", "步/秒")                                                                      \
    X(CalCheck, "Compare with the estimate", "与估算对比")                                                  \
    X(CalNothingEntered, "Enter at least one measured figure (memory or speed).", "请至少填写一个实测数字（显存或速度）。") \
    X(CalErrorLine, "%s: you measured %s, gpuguide estimated %s (%s)", "%s：你实测 %s，gpuguide 估算 %s（%s）") \
    X(CalTermContext, "CUDA context on your card: %s (gpuguide assumes %s).", "你这块卡上的 CUDA 上下文：%s（gpuguide 默认 %s）。") \
    X(CalTermAllocator, "PyTorch's allocator cache: %s of the tensors (gpuguide assumes %s).", "PyTorch 分配器缓存：张量的 %s（gpuguide 默认 %s）。") \
    X(CalTermSpeed, "Speed of your card on this kind of model: %s of gpuguide's estimate.", "你这块卡在这类模型上的速度：gpuguide 估算的 %s。") \
    X(CalTensorsDiffer, "The tensors themselves differ by %s. That is gpuguide's model of this job, not a property of your card, so it is not applied: please report the scenario.", \
      "张量本身相差 %s。这是 gpuguide 对这个任务的建模误差，不是你这块卡的特性，所以不会应用：欢迎反馈这个场景。") \
    X(CalUnexplained, "%s is left unexplained: it is past what the context and the allocator can plausibly hold.", \
      "还有 %s 无法解释：超出了上下文和分配器的合理范围。")                                                \
    X(CalContextOutOfRange, "The context these figures imply is outside 256 MiB to 3 GiB: it was limited to that range.", \
      "按这些数字推出的上下文不在 256 MiB 到 3 GiB 之间，已限制在这个范围内。")                            \
    X(CalImpossible, "Refused: the figures contradict each other. max_memory_reserved must be at least max_memory_allocated, and nvidia-smi at least both.", \
      "已拒绝：这些数字互相矛盾。max_memory_reserved 不应小于 max_memory_allocated，nvidia-smi 不应小于这两者。") \
    X(CalNoTime, "Refused for the speed: gpuguide has no time estimate for this scenario to compare with.", "速度未采用：这个场景没有时间估算可以对比。") \
    X(CalNotCardWork, "Refused for the speed: it is faster than the parts of the step your card's speed does not set (communication, offload, data loading) allow. Check the figure and its unit.", \
      "速度未采用：它比步长中与显卡速度无关的部分（通信、卸载、数据加载）所允许的还快。请检查数字和单位。") \
    X(CalFactorOutOfRange, "Refused for the speed: it is more than 4 times off the estimate. Check the unit (samples or steps), the batch size and the accumulation steps.", \
      "速度未采用：与估算相差 4 倍以上。请检查单位（样本还是步）、批大小和梯度累积步数。")                \
    X(CalNothingToApply, "Nothing to apply: within the readings' rounding, or only the job's own tensors differ.", "没有可应用的项：误差在读数的舍入范围内，或者只是任务本身的张量有差别。") \
    X(CalApply, "Apply to my card", "应用到我的显卡")                                                       \
    X(CalUndo, "Undo", "撤销")                                                                               \
    X(CalRemove, "Remove this card's calibration", "删除这块卡的校准")                                      \
    X(CalApplied, "Applied: estimates and rankings on %s now use your measurement.", "已应用：%s 上的估算和排名现在使用你的实测数据。") \
    X(CalUndone, "Undone: %s is back to what it was before.", "已撤销：%s 恢复到之前的状态。")              \
    X(CalibratedByYou, "calibrated by you", "经你校准")                                                     \
    X(CalBadge, "Calibrated by you on %s:", "%s 已经你校准：")                                              \
    X(CalBadgeContext, "CUDA context %s", "CUDA 上下文 %s")                                                  \
    X(CalBadgeAllocator, "allocator cache %s", "分配器缓存 %s")                                              \
    X(CalBadgeSpeed, "speed x%s (%s)", "速度 x%s（%s）")                                                     \
    X(DataIntro, "Every GPU and cloud offer gpuguide knows, with where each number comes from. Hover a row for its source.", \
      "gpuguide 收录的全部显卡和云服务器报价，以及每个数字的出处。鼠标悬停在某一行上即可查看来源。")       \
    X(GpusTitle, "GPUs", "显卡")                                                                             \
    X(OffersTitle, "Cloud offers", "云服务器报价")                                                           \
    X(ColBandwidth, "Bandwidth", "带宽")                                                                     \
    X(ColFp32, "FP32", "FP32")                                                                               \
    X(ColTensor16, "FP16/BF16 tensor", "FP16/BF16 张量")                                                     \
    X(ColTdp, "Power", "功耗")                                                                               \
    X(GpuPriceRate, "Launch prices are the makers' US dollar prices, shown in yuan at %s CNY per USD (the catalog's rate of %s; hover here for its source, over a price for the dollars).", \
      "首发价是厂商的美元定价，这里按 1 美元 = %s 元换算成人民币（数据库的汇率，%s；悬停此处查看来源，悬停价格查看美元价）。") \
    X(GpuPriceUserRate, "Launch prices are the makers' US dollar prices, shown in yuan at your rate of %s CNY per USD. Hover a price for the dollars.", \
      "首发价是厂商的美元定价，这里按你设置的汇率 1 美元 = %s 元换算成人民币。鼠标悬停可看美元价。")        \
    X(ColPrice, "Price", "价格")                                                                             \
    X(ColProvider, "Provider", "服务商")                                                                     \
    X(ColInstance, "Instance", "实例")                                                                       \
    X(ColCount, "Cards", "卡数")                                                                             \
    X(ColPerHour, "Per hour", "每小时")                                                                      \
    X(ColBilling, "Billing", "计费")                                                                         \
    X(NoTensorCores, "none", "无")                                                                            \
    X(QSamplesPerS, "samples/s", "样本/秒")                                                                   \
    X(QTokensPerS, "tokens/s", "token/秒")                                                                   \
    X(QSavedActivations, "saved activations", "保存的激活值")                                                \
    X(QParamsTotal, "parameters", "参数量")                                                                   \
    X(QParamsTrainable, "trained parameters", "可训练参数量")                                                 \
    X(QParamTensors, "parameter tensors", "参数张量数")                                                       \
    X(QParamMatrices, "weight matrices", "权重矩阵数")                                                        \
    X(QTotalTime, "total time", "总时间")                                                                     \
    X(QStepTime, "step time", "每步时间")                                                                     \
    X(QNvidiaSmi, "nvidia-smi memory", "nvidia-smi 显存")                                                     \
    X(QScalingEfficiency, "scaling efficiency", "扩展效率")                                                   \
    X(QSpeedup, "speed-up", "加速比")                                                                         \
    X(QModelStates, "model states", "模型状态")                                                               \
    X(QGpuHours, "GPU-hours", "GPU 小时")                                                                     \
    X(QMfu, "MFU", "MFU（算力利用率）")                                                                       \
    X(QPeakAllocated, "peak allocated", "峰值已分配显存")                                                     \
    X(QPeakReserved, "peak reserved", "峰值预留显存")                                                         \
    X(QMaxSeqLen, "longest sequence that fits", "能装下的最长序列")                                             \
    X(QWeights, "weights", "权重")                                                                            \
    X(BillingOnDemand, "on-demand", "按量")                                                                  \
    X(BillingSpot, "spot", "竞价")                                                                           \
    X(BillingMonthly, "monthly", "包月")                                                                     \
    X(BillingFree, "free", "免费")                                                                     \
    X(ColAsOf, "As of", "日期")                                                                              \
    X(UnitTflops, "TFLOPS", "TFLOPS")                                                                        \
    X(Searchbox, "Filter", "筛选")                                                                           \
    X(TimeTitle, "How long, and what it costs", "要多久、花多少钱")                                          \
    X(TimeLine, "On %d x %s, training takes %s (%s per step, range %s to %s).", "在 %d 张 %s 上训练需要 %s（每步 %s，范围 %s 到 %s）。") \
    X(TimeLineLoaderBound, "On %d x %s, training takes %s (%s per step, set by data loading).", "在 %d 张 %s 上训练需要 %s（每步 %s，由数据读取速度决定）。") \
    X(TimeNoDataset, "Enter the number of samples and epochs to get the total time.", "填写样本数和训练轮数即可得到总时间。") \
    X(TimeUnknown, "No published compute rate for this card, so no time estimate.", "这块显卡没有公开的算力数据，因此无法估计时间。") \
    X(ImplausibleMfu, "Not to be trusted: this speed is past the card's own peak (MFU %s, above 100%%). Check the calibration you entered for this card and family.", \
      "不可信：这个速度超过了显卡自身的峰值（MFU %s，超过 100%%）。请检查你为这张卡和这类模型输入的校准。") \
    X(ImplausibleTime, "Not to be trusted: this run would take more than a hundred years. Check the dataset size, the epochs and the speeds you entered.", \
      "不可信：这次训练要超过一百年。请检查数据集大小、轮数和你输入的速度。") \
    X(PeakInferredHint, "Neither the vendor nor the cloud publishes this card's TFLOPS: its speed here comes from a measured matrix-multiply benchmark, and MFU is against the peak that benchmark implies.", \
      "厂商和云平台都没有公布这张卡的 TFLOPS：这里的速度来自一次实测的矩阵乘法基准，MFU 也是相对这次实测推出的峰值。") \
    X(PrecisionFallbackHint, "This card has no tensor-core units for the precision you chose: the matrix multiplies run at its %s rate (PyTorch falls back by itself, e.g. TF32 before Ampere runs in FP32, QLoRA's compute in FP16 without BF16).", \
      "这张卡没有你所选精度的张量核心单元：矩阵乘法按它的 %s 速率运行（PyTorch 会自动回退，例如 Ampere 之前的卡上 TF32 按 FP32 运行，没有 BF16 时 QLoRA 按 FP16 计算）。") \
    X(ThroughputLine, "%s samples per second; %s of the card's peak is used (MFU).", "每秒 %s 个样本；用到了显卡峰值算力的 %s（MFU）。") \
    X(EpochLine, "One epoch (one pass over the %s samples, %s steps) takes %s.",                             \
      "一轮（把 %s 个样本过一遍，共 %s 步）需要 %s。")                                                     \
    X(ScalingTitle, "The same job on more of this card", "同一任务换成更多张这种卡")                         \
    X(ScalingNote,                                                                                          \
      "Each card keeps the batch size you set, so more cards train on more samples per step. Past 8 cards " \
      "the cards sit in several servers joined by the network set under \"Network between servers\" " \
      "(InfiniBand HDR unless you choose another). Click a row to use that many cards.",        \
      "每张卡的批大小保持不变，所以卡越多，每一步训练的样本越多。超过 8 张卡时，按多台机器"               \
      "之间用“服务器间网络”所选的网络相连来计算（未选时为 InfiniBand HDR）。点击一行即可改用该卡数。")                                       \
    X(ScalingAboveLinear,                                                                                   \
      "Speed-up above the number of cards: with ZeRO or FSDP each card updates only its share of the "      \
      "weights, so the optimizer step gets shorter as cards are added. The efficiency counts only the time "  \
      "lost to communication, so it stays at or below 100%.",                                                \
      "加速比超过卡数：使用 ZeRO 或 FSDP 时，每张卡只更新自己那一份权重，所以卡越多，优化器这一步越短。"   \
      "效率只计算通信造成的时间损失，所以不会超过 100%。")                                                   \
    X(ColCards, "Cards", "卡数")                                                                              \
    X(ColSpeedup, "Speed-up", "加速比")                                                                       \
    X(ColScalingEfficiency, "Efficiency", "扩展效率")                                                         \
    X(ColTimeToTrain, "Time to train", "训练总时长")                                                         \
    X(ColStepTime, "Time per step", "每步耗时")                                                               \
    X(EncoderLine, "Each step includes %s of frozen VAE and text-encoder passes (the script encodes every batch; tick \"Latents precomputed\" if yours does not).", \
      "每一步里有 %s 花在冻结的 VAE 和文本编码器上（脚本每个 batch 都现算；如果你的流程不是这样，请勾选“潜变量已预先算好”）。") \
    X(LoaderWaitLine, "Data loading sets the pace: each step the GPU waits %s for data.", "数据读取成了瓶颈：每一步显卡要等数据 %s。") \
    X(YoloLoaderHint, "This is the GPU's share. YOLO training often waits for its CPU data loader (mosaic augmentation): Ultralytics' own COCO runs took 1.0-1.7x this kind of figure (YOLOv5 README, V100). Measure your loader and enter it under \"Data loading speed\".", \
      "这是显卡本身的耗时。YOLO 训练常常要等 CPU 上的数据加载（mosaic 数据增强）：Ultralytics 自己在 COCO 上的训练用时是这类估算的 1.0–1.7 倍（YOLOv5 README，V100）。请测一下你的数据读取速度，填到“数据读取速度”里。") \
    X(RankingTitle, "Every option, best first", "所有方案（最优在前）")                                      \
    X(RankingHint, "Buy = own the cards (price + host + electricity - resale). Rent = cloud price for the hours. * = on the frontier: nothing else is both cheaper and faster. Click a row to check it above.", \
      "购买 = 自己买卡（价格 + 主机 + 电费 - 转卖收入）。租用 = 按训练时长支付的云服务费。* = 在最优前沿上：没有别的方案同时更便宜又更快。点击某行可在上方查看。") \
    X(SourceHeading, "Source:", "来源（按原文引用，多为英文）：")                                                 \
    X(SourceAsOf, "Checked %s", "核对日期 %s")                                                                 \
    X(ColOption, "Option", "方案")                                                                           \
    X(ColTime, "Time", "时间")                                                                               \
    X(ColCost, "Cost", "费用")                                                                               \
    X(ColValue, "Value", "性价比")                                                                           \
    X(KindBuy, "Buy", "购买")                                                                                \
    X(KindRent, "Rent", "租用")                                                                              \
    X(CellTime, "One run: %s. %d runs: %s.", "一次训练：%s。%d 次：%s。")                                      \
    X(CellTimeOneRun, "One run: %s.", "一次训练：%s。")                                                       \
    X(CellCalendar, "Training %s; with %s session(s), their start, setup and downloads, it ends %s after the first start.", \
      "训练 %s；算上 %s 个会话及其启动、配置环境和下载，从第一次启动算起 %s 后结束。")                              \
    X(WatchFor, "Watch for:", "注意：")                                                                       \
    X(WatchSession, "each session ends after %s: the job must save checkpoints and resume in the next one", \
      "每个会话最长 %s：任务必须保存检查点，并在下一个会话中接着训练")                                            \
    X(WatchIdle, "the notebook disconnects after about %s without interaction: keep it open", \
      "约 %s 无操作就会断开：保持笔记本页面打开")                                                                 \
    X(WatchQuota, "%s of GPU time a week; this run uses %s of the weekly quota", \
      "每周 %s GPU 时长；这次训练用掉 %s 周的配额")                                                               \
    X(WatchNoGpu, "a GPU is not promised: at busy times none may be given", "不保证有 GPU：高峰时可能分不到")    \
    X(WatchNeedsCheckpoints, "the run is longer than one session and the job saves no checkpoints: it cannot finish", \
      "训练比一个会话还长，而任务不保存检查点：无法跑完")                                                          \
    X(WatchDownload, "download time not counted: no download speed is known (set download_mb_per_s)", \
      "未计入下载时间：不知道下载速度（可设置 download_mb_per_s）")                                               \
    X(WatchSpot, "a spot instance can be taken back at any time: save checkpoints", "竞价实例随时可能被收回：请保存检查点") \
    X(RentTerms, "Of the compute bill: training %s, start + setup + downloads %s, checkpoints %s, work redone %s, rounding up %s.", \
      "计算费用中：训练 %s，启动 + 配置 + 下载 %s，检查点 %s，重做的训练 %s，向上取整 %s。")                                                       \
    X(CellEligible, "Meets every condition: fits with the memory kept free, compatible, within the budget and the deadline.", \
      "满足全部条件：留出预留显存后装得下、兼容、不超预算、不超截止时间。")                                        \
    X(CellLeftOut, "Left out of the best options because:", "未列为最佳方案，原因：")                           \
    X(WhyNoFit, "the job needs %s per card, %s usable", "每张卡需要 %s，可用 %s")                               \
    X(WhyBudget, "it costs %s up front or in total, over the budget of %s", "需支付 %s，超出预算 %s")            \
    X(WhyDeadline, "one run takes %s, past the deadline of %s", "一次训练需 %s，超过截止时间 %s")                \
    X(WhyRegion, "the offer is in region %s, not the one chosen", "该报价位于 %s 区域，不是所选区域")             \
    X(RegionQuestion, "Where are you? Some clouds cannot be reached or paid for from mainland China; the ranking labels them.", "你在哪里？有些云平台在中国大陆无法访问或无法付款，排名会标出它们。") \
    X(RegionMainland, "I am in mainland China", "我在中国大陆") \
    X(RegionElsewhere, "Elsewhere", "在其他地区") \
    X(RegionNotSaid, "Not said", "未选择") \
    X(RegionLabel, "Where you are", "你所在的地区") \
    X(RegionTip, "Saved in this browser, never put in a shared link. In mainland China, offers that are blocked there or take only foreign payment are labelled and ranked after the rest; nothing is hidden.", "只保存在本浏览器中，不会放进分享链接。选择中国大陆时，在大陆被屏蔽或只收境外付款的报价会被标出并排在其余报价之后，不会被隐藏。") \
    X(AccessLimitedTag, "likely not usable from mainland China", "在中国大陆可能无法使用") \
    X(AccessBlocked, "Cannot be reached from mainland China without a VPN.", "在中国大陆不使用 VPN 无法访问。") \
    X(AccessNotBlocked, "Reachable from mainland China.", "在中国大陆可以访问。") \
    X(AccessForeignPay, "Pays only by an international card (Visa, Mastercard...) or crypto: no Alipay, WeChat Pay or CNY card.", "只能用国际信用卡（Visa、Mastercard 等）或加密货币付款：不支持支付宝、微信支付或人民币卡。") \
    X(AccessCnyPay, "Accepts a Chinese yuan (CNY) credit card.", "支持人民币信用卡付款。") \
    X(AccessPhone, "The account needs a verified phone number.", "账号需要验证手机号。") \
    X(AccessRealName, "Needs real-name (identity) verification before renting.", "租用前需要实名认证。") \
    X(AccessSource, "Source: %s", "出处：%s") \
    X(AccessUnknownFacts, "Access and payment from mainland China: not found in any source for this provider.", "从中国大陆访问与付款的情况：没有找到这家服务商的相关出处。") \
    X(WhyCurrency, "the offer is priced in %s, not the currency chosen", "该报价以 %s 计价，不是所选币种")       \
    X(WhyOwnership, "renting or buying is switched off in the budget settings", "预算设置中排除了租用或购买")     \
    X(WhyIncompatible, "a compatibility problem (see the card's warnings)", "存在兼容性问题（见该卡的警告）")      \
    X(WhyUnknown, "its time or cost is unknown, so the budget or deadline cannot be checked", "时间或费用未知，无法检查预算或截止时间") \
    X(ParetoTip, "On the frontier: no other option is both faster and cheaper.", "位于最优前沿：没有其他方案既更快又更便宜。") \
    X(ShowNotFitting, "Also show the options that were left out (the job does not fit, or a setting excludes them)", "也显示被排除的方案（装不下，或被设置排除）") \
    X(LeftOut, "Left out", "已排除")                \
    X(CostTimeTitle, "Cost against time (frontier in blue)", "费用与时间（蓝色为最优前沿）")               \
    X(AxisHours, "hours per run", "每次训练的小时数")                                                        \
    X(AdviceTitle, "What to change so it fits", "怎样修改才能装下")                                          \
    X(AdviceWorks, "No change needed on this card.", "在这块显卡上无需修改。")                               \
    X(AdviceNone, "No combination of the usual changes makes this job fit this card.", "常用的修改组合都无法让任务装进这块显卡。") \
    X(AdviceResult, "Then it needs %s of %s usable and takes %s the time.", "修改后需要 %s（可用 %s），所需时间为原来的 %s。") \
    X(AdviceResultNoTime, "Then it needs %s of %s usable.", "修改后需要 %s（可用 %s）。")                    \
    X(AdviceResultSameTime, "Then it needs %s of %s usable and takes about the same time.", "修改后需要 %s（可用 %s），所需时间基本不变。") \
    X(AdviceTight, "Tight: no change keeps the memory you asked to keep free (reserve, desktop); this one fits the " \
      "card itself, with less margin.",                                                                          \
      "偏紧：没有哪种修改能留出你要求的空闲显存（预留、桌面显示）；这种做法能放进显卡本身，但余量更小。")  \
    X(ApplyFix, "Apply these changes", "应用这些修改")                                                       \
    X(AdviceOnYourCards, "On your %s:", "在你的 %s 上：")                                                       \
    X(AdviceNoSameCount, "No change that fits your %s was found.", "在你的 %s 上找不到能装下的修改。")          \
    X(AdviceMoreCards, "Or with more cards (uses %d cards):", "或者多用几张卡（要用 %d 张卡）：")              \
    X(ApplyFixCards, "Apply: uses %d cards", "应用：要用 %d 张卡")                                              \
    X(ApplyFixCardsAsk, "This changes the card count from %d to %d. Apply it only if you have that many cards or will rent them.", \
      "这会把显卡数量从 %d 张改成 %d 张。只有你有这么多卡、或打算租这么多卡时才应用。")                     \
    X(ApplyFixCardsYes, "Yes, use %d cards", "确定，用 %d 张卡")                                                \
    X(TimeNotFit, "It does not fit, so it would stop with an out-of-memory error: the times below assume it ran. Apply a change above first.", \
      "装不下，实际会因显存不足而报错停止：下面的时间是假设它能跑时的估计。请先应用上面的修改。")           \
    X(GlossaryTitle, "Glossary: the terms of art on this page", "术语表：本页用到的专业术语")                  \
    X(StartOver, "Start over", "重新开始")                                                                     \
    X(StartOverTip, "Put every input back to the example the page opens with. Your own cards, offers and pins stay, and Undo brings your inputs back.", \
      "把所有输入恢复为页面打开时的示例。你自己添加的显卡、报价和固定的方案都会保留，可以撤销。")           \
    X(StartedOver, "Started over from the example. Your own cards, offers and pins are kept.",                \
      "已恢复为示例。你自己添加的显卡、报价和固定的方案都保留着。")                                         \
    X(StartOverUndo, "Undo", "撤销")                                                                           \
    X(StartOverUndoFailed, "Your inputs from before could not be brought back:", "无法恢复之前的输入：")       \
    X(ChangeMixedPrecision, "Use mixed precision (AMP)", "使用混合精度（AMP）")                              \
    X(ChangeCheckpointing, "Turn on gradient checkpointing", "开启梯度检查点")                               \
    X(ChangeAccumulation, "Smaller micro-batch with gradient accumulation (same effective batch)", "减小微批次并使用梯度累积（有效批大小不变）") \
    X(ChangeOptimizer8bit, "Use an 8-bit optimizer", "使用 8 位优化器")                                      \
    X(ChangeNoEma, "Drop the EMA of the weights", "不保留权重 EMA")                                           \
    X(ChangeFusedLoss, "Turn on the fused loss (Liger kernel): same results", "开启融合损失（Liger 内核）：结果不变") \
    X(ChangeSwitchToDdp, "Switch from DataParallel to DDP (torchrun, one process per card): same results",          \
      "从 DataParallel 换成 DDP（torchrun，每卡一个进程）：结果不变")                                               \
    X(ChangeOffloadActivations, "Offload checkpointed activations to RAM: same results",                       \
      "把检查点激活卸载到内存：结果不变")                                                                        \
    X(StackLine, "Set: %s", "设置：%s")                                                                            \
    X(StackConfigTitle, "Settings to paste into %s", "粘贴到 %s 的配置")                                           \
    X(StackConfigTip, "Every memory-relevant setting this estimate assumed. Add your dataset and output paths. Copy " \
      "puts it all on the clipboard; or select part of it and press Ctrl+C.",                                      \
      "本次估算假设的所有与显存相关的设置。请补上数据集和输出路径。点“复制”复制全部；也可选中一部分后按 Ctrl+C。") \
    X(ChangePrecomputeLatents, "Encode the images and captions once, before training", "训练前一次性编码图像和描述")   \
    X(ChangeFrozenWeights16bit, "Keep the frozen weights in 16 bits: load the model in FP16/BF16", "冻结的权重存为 16 位：以 FP16/BF16 加载模型") \
    X(ChangeLora, "Train LoRA adapters instead of all weights", "改为训练 LoRA 适配器")                       \
    X(ChangeQlora, "Use QLoRA (4-bit base model)", "使用 QLoRA（4 位基座模型）")                             \
    X(ChangeMoreCards, "Spread the model over %d cards with ZeRO / FSDP", "用 ZeRO / FSDP 把模型分摊到 %d 张显卡上") \
    X(ChangePlan, "Run it the planned way on these cards (the plan above: same model, same results)",          \
      "在这些卡上换用上面的跑法（模型和结果都不变）")                                                       \
    X(ChangeShorterSequence, "Use shorter sequences: %d tokens", "缩短序列长度：%d 个 token")                 \
    X(ChangeSmallerImage, "Use smaller images: %d px", "减小图像尺寸：%d 像素")                               \
    X(RiskNone, "no effect on accuracy", "不影响精度")                                                       \
    X(RiskSmall, "small effect on accuracy", "对精度影响很小")                                               \
    X(RiskTask, "may change accuracy, depends on the task", "可能影响精度，取决于任务")                      \
    X(Ownership, "Rent or buy", "租用还是购买")                                                              \
    X(OwnershipTip, "Compare cloud rental, buying your own cards, or both.", "比较租用云服务器、自己买卡，或两者都比较。") \
    X(OwnBoth, "Compare both", "两者都比较")                                                                 \
    X(OwnRent, "Rent only", "只看租用")                                                                      \
    X(OwnBuy, "Buy only", "只看购买")                                                                        \
    X(Budget, "Budget (0 = no limit)", "预算（0 表示不限）")                                                 \
    X(BudgetTip, "The most you can pay for the whole project. Options above it are hidden.", "整个项目最多能花的钱。超出预算的方案会被隐藏。") \
    X(Deadline, "Deadline (0 = none)", "截止时间（0 表示不限）")                                             \
    X(DeadlineTip, "One training run must finish within this many hours.", "一次训练必须在这么多小时内完成。") \
    X(UnitHours, "h", "小时")                                                                                \
    X(UnitCny, "CNY", "元")                                                                                  \
    X(CopyLink, "Copy link", "复制链接")                                                                     \
    X(CopyLinkTip, "A link that opens this page with exactly these settings.", "复制一个链接，打开后就是现在这组设置。") \
    X(LinkCopied, "Link copied", "链接已复制")                                                               \
    X(OpenFull, "Open the full calculator", "打开完整计算器")                                                \
    X(LinkBroken, "This link is damaged and could not be read; the default example is shown instead.",      \
      "这个链接已损坏，无法读取；现在显示的是默认示例。")                                                     \
    X(LinkNewer, "This link comes from a newer version of gpuguide; the default example is shown instead.", \
      "这个链接来自更新版本的 gpuguide；现在显示的是默认示例。")                                             \
    X(LinkOwnRecordKept, "This link carries a card or offer with the same id as one of your own but different values; your own is used. Ids:", \
      "此链接附带的显卡或报价与你自己保存的某条记录 id 相同但数值不同；这里使用你自己的记录。id：")              \
    X(LinkInvalid, "Some settings in this link are not valid, so the default example is shown. The problems:", \
      "这个链接中的部分设置无效，因此显示默认示例。问题如下：")                                               \
    X(LinkInvalidKept, "Some settings in this link are not valid, so your previous settings are unchanged. The problems:", \
      "这个链接中的部分设置无效，因此保留你之前的设置。问题如下：")                                           \
    X(LinkPartlyApplied, "Some settings in this link are not valid; they are left at their defaults and the rest of the link is applied. Not used:", \
      "这个链接中的部分设置无效，已改用默认值，其余设置照常应用。未采用的设置：")                                 \
    X(LinkBrokenKept, "This link is damaged and could not be read; your previous settings are unchanged.", \
      "这个链接已损坏，无法读取；你之前的设置保持不变。")                                                     \
    X(LinkNewerKept, "This link comes from a newer version of gpuguide; your previous settings are unchanged.", \
      "这个链接来自更新版本的 gpuguide；你之前的设置保持不变。")                                               \
    X(Dismiss, "OK", "知道了")                                                                               \
    X(RentLine, "Renting: %s on %s (%s per hour; %s, %s of training) costs %s for this job.", \
      "租用：%s（%s，每小时 %s；%s，训练 %s），这次训练共 %s。")                                          \
    X(BuyLine, "Buying: %s up front (cards and a host computer); after reselling the cards, this job costs %s, of which %s is the host computer you keep (less if your own PC can take the cards).", \
      "购买：需先付 %s（显卡加主机）；把显卡转卖后，这次训练的成本为 %s，其中 %s 是留给你自己的主机（如果你自己的电脑能装下这些显卡，成本会少这一块）。")                                      \
    X(NoOfferForCard, "No cloud offer in the catalog rents this card.", "数据库中没有出租这块显卡的云服务器报价。") \
    X(OfferButDoesNotFit, "Cloud offers rent this card, but the job as set does not fit it: no rental cost until it fits (see what to change above).", "有云服务器出租这块显卡，但按当前设置任务放不下：放得下之后才会给出租用费用（见上方的修改建议）。") \
    X(OfferTooSmall, "Cloud offers rent this card %d at a time at most, and the job as set does not fit on that many: no rental cost here. The list of options below has the offers it does fit.", \
      "云服务器最多一次出租 %d 块这种显卡，而按当前设置任务在这么多卡上放不下：这里不给租用费用。下方的选项列表里有放得下的报价。") \
    X(RentBuyTitle, "Rent or buy over time (same card, at your GPU-hours per month)", "随时间累计的租用与购买成本（同一块显卡，按你每月的训练小时数）") \
    X(GpuHoursPerMonth, "GPU-hours per month on your own card", "你自己的显卡每月训练小时数") \
    X(GpuHoursTip, "How many hours a month your own card trains. It sets how many months the project keeps a bought card (so what it resells for) and the months of this chart. The default, %s h, is an assumption (%s of the 730.5 hours of a mean month; no survey was found).", "你自己的显卡每月训练多少小时。它决定买来的卡在这个项目里用几个月（也就决定了转卖价），以及本图的月数。默认 %s 小时是假设（平均每月 730.5 小时的 %s；没有找到相关调查）。") \
    X(UnitHoursPerMonth, "h/month", "小时/月") \
    X(AxisMonths, "months", "月")                                                                            \
    X(LegendRent, "rent", "租用")                                                                            \
    X(LegendBuy, "buy", "购买")                                                                              \
    X(LegendFrontier, "frontier: nothing else is both cheaper and faster", "最优前沿：没有别的方案同时更便宜又更快")                                                                              \
    X(BreakEvenAt, "Training like this, buying becomes cheaper than renting after about %s months.", "按这样的使用强度，大约 %s 个月后购买比租用更划算。")                                \
    X(NoBreakEven, "Within 3 years of training like this, renting stays cheaper than buying this card.", "按这样的使用强度，3 年内租用这块显卡都比购买便宜。") \
    X(TimeFormula, "How the time is computed", "时间的计算方式")                                             \
    X(TfStep, "One optimizer step: compute + bandwidth-bound kernels + launch overhead + recurrence + communication not hidden (+ offload transfers, + tensor/pipeline parallel traffic and the pipeline's idle slots, + the frozen VAE and text encoders of Stable Diffusion, input_encoder_s); never faster than the data loader.", \
      "一步优化 = 计算 + 受带宽限制的算子 + 启动开销 + 循环步 + 未被掩盖的通信（+ 卸载传输，+ 张量/流水线并行的通信与流水线空闲时间，+ Stable Diffusion 冻结的 VAE 和文本编码器 input_encoder_s）；不会快于数据读取。") \
    X(TfCompute, "Compute-bound kernels: FLOPs per sample x batch / (the card's peak x the matmul fraction). Where the card's best matrix multiply was measured (matmul_limit_flop_per_s; a few cards take the figure of the same chip in another card: an identical twin such as the H100 for the H800, or a card with a higher power limit such as the L40S for the RTX 6000 Ada; a GeForce card without one takes the median share of its datasheet rate that the measured GeForce cards reach for FP16/BF16, geforce_median_share), that replaces the peak, scaled by the A100's measured share of its own peak: GeForce cards run above their datasheet rate, power-limited ones below. Fused FlashAttention-2 kernels run at most at fused_attention_flop_per_s: 73% of the peak on Ampere and Ada, 35% on Hopper (H100), whose newest tensor-core instructions they do not use. A workstation or data-centre card whose 16-bit matrix multiply was measured but not its TF32 one runs TF32 at the same share of its datasheet rate (tf32_16bit_share): under tensor-core load a power-limited card holds one clock, whatever the input type.", \
      "受算力限制的算子：每样本 FLOPs × 批大小 /（显卡峰值算力 × 矩阵乘效率）。如果这块卡的矩阵乘最高速度有实测值（matmul_limit_flop_per_s；少数显卡借用同一芯片在另一张卡上的实测值：完全相同的“孪生”卡，如 H800 用 H100 的；或功耗上限更高的卡，如 RTX 6000 Ada 用 L40S 的；没有实测值的 GeForce 显卡，FP16/BF16 按已实测 GeForce 显卡达到标称值的中位比例 geforce_median_share 估算），就用它代替峰值，并按 A100 实测达到自身峰值的比例折算：GeForce 显卡实际跑得比标称值快，功耗受限的显卡则更慢。FlashAttention-2 融合注意力算子最多只能跑到 fused_attention_flop_per_s：在 Ampere 和 Ada 上为峰值的 73%，在 Hopper（H100）上为 35%，因为它没有用上 Hopper 最新的张量核心指令。专业卡和数据中心卡若只实测了 16 位矩阵乘、没有实测 TF32，TF32 按同样的标称值比例计算（tf32_16bit_share）：功耗受限的显卡在张量核心负载下只保持一个频率，与输入类型无关。") \
    X(TfBandwidth, "Bandwidth-bound kernels (norms, activations, layout transposes): bytes moved / (memory bandwidth x the bandwidth fraction), at most SMs x clock x stream_bytes_per_sm_cycle bytes per second: such kernels keep only a few bytes per thread in flight, which caps them on HBM cards such as the A100 and H100.", \
      "受带宽限制的算子（归一化、激活、布局转换）：搬运字节数 /（显存带宽 × 带宽效率），且每秒不超过 SM 数 × 时钟 × stream_bytes_per_sm_cycle 字节：这类算子每个线程只有几个字节在途，所以在 A100、H100 等 HBM 显卡上会被这个上限卡住。") \
    X(TfOptimizer, "Optimizer step: the parameters, gradients and optimizer states it reads and writes / the bandwidth-bound kernels' rate (elementwise_bytes_per_s above); a per-tensor loop adds its small kernels x host time per kernel. A weight EMA adds its update: 3 small kernels per trainable tensor (ema_loop_ops) moving ema_bytes.", \
      "优化器更新：读写的参数、梯度和优化器状态字节数 / 受带宽限制算子的速率（上面的 elementwise_bytes_per_s）；逐张量循环再加上小内核数 × 每个内核的主机耗时。开启权重 EMA 时再加上它的更新：每个可训练张量 3 个小内核（ema_loop_ops），搬运 ema_bytes 字节。") \
    X(TfRing, "Gradient all-reduce (ring): 2(n-1)/n x gradient bytes / bus bandwidth + 2(n-1) x latency.", \
      "梯度 all-reduce（环形）：2(n-1)/n × 梯度字节数 / 总线带宽 + 2(n-1) × 延迟。")                       \
    X(TfZero, "ZeRO / FSDP collectives: gradients reduce-scattered and parameters all-gathered over the same bus.", \
      "ZeRO / FSDP 集合通信：在同一总线上对梯度做 reduce-scatter、对参数做 all-gather。")                  \
    X(TfExposed, "Communication not hidden: what exceeds the overlap window (overlap fraction x backward time; ZeRO-3/FSDP: forward and backward), plus overlap_slowdown_fraction x the part that is hidden, because collectives running beside the compute slow it down.", \
      "未被掩盖的通信：超出重叠窗口（重叠比例 × 反向传播时间；ZeRO-3/FSDP 为前向和反向）的部分，加上被掩盖部分 × overlap_slowdown_fraction：与计算同时运行的集合通信会拖慢计算。") \
    X(TfModelParallel, "Tensor and pipeline parallelism: each layer's forward all-reduces (backward's hide behind the weight gradients) + sends between stages + the pipeline's idle (stages - 1) / chunks micro-batch slots.", \
      "张量并行与流水线并行：每层前向的 all-reduce（反向的被权重梯度计算掩盖）+ 级间发送 + 流水线空闲的（级数 − 1）/ 块数个 micro-batch 时间。") \
    X(TfModelFlop, "Model FLOPs per step (for MFU): model FLOPs per sample x samples per step.", \
      "每步模型 FLOPs（用于计算 MFU）：每样本模型 FLOPs × 每步样本数。")                                   \
    X(FmWeights, "Weights: parameters x bytes per parameter in the dtype they are kept in; tensor and pipeline parallelism give each GPU its share; ZeRO-3/FSDP split them across the GPUs and gather one unit at a time. Stable Diffusion adds its frozen VAE and text encoders (input_encoder_bytes), whole on every GPU.", \
      "权重：参数量 × 每个参数按其存储类型的字节数；张量并行和流水线并行让每张卡只存自己那一份；ZeRO-3/FSDP 把它们分摊到各卡，每次只聚合一个单元。Stable Diffusion 另有冻结的 VAE 和文本编码器（input_encoder_bytes），每张卡都存完整一份。") \
    X(FmGradients, "Gradients: trainable parameters x bytes per gradient; ZeRO-2 and up split them across the GPUs; DDP adds its communication buckets.", \
      "梯度：可训练参数量 × 每个梯度的字节数；ZeRO-2 及以上分摊到各卡；DDP 另加通信桶。") \
    X(FmOptimizer, "Optimizer states: trainable parameters x state bytes per parameter (Adam: two moments, plus FP32 master weights where the weights are 16-bit); ZeRO-1 and up split them across the GPUs; none on the GPU when offloaded. With a weight EMA, plus its copy of the trainable weights (ema_bytes), which stays on the GPU.", \
      "优化器状态：可训练参数量 × 每个参数的状态字节数（Adam 两个动量；权重为 16 位时另有 FP32 主权重）；ZeRO-1 及以上分摊到各卡；卸载到 CPU 时不占显存。开启权重 EMA 时，再加上它那份可训练权重副本（ema_bytes），它始终留在显卡上。") \
    X(FmAutocastCopies, "Autocast's 16-bit copies of the FP32 weights, made in the forward pass and kept for backward.", \
      "autocast 在前向传播时为 FP32 权重生成、并为反向传播保留的 16 位副本。") \
    X(FmActivations, "Activations kept for backward: bytes kept per sample (after checkpointing) x micro-batch, plus autocast's weight copies; a pipeline stage holds several micro-batches at once.", \
      "为反向传播保存的激活值：每个样本保留的字节数（梯度检查点之后）× micro-batch，再加 autocast 的权重副本；流水线的一段会同时保存多个 micro-batch。") \
    X(FmTemporaries, "Temporary buffers alive at the peak: dequantized weights, the loss's FP32 logits and their gradient, or the optimizer step's scratch buffers, whichever the peak phase has.", \
      "峰值时刻存在的临时缓冲：反量化的权重、损失函数的 FP32 logits 及其梯度，或优化器更新的临时缓冲，取决于峰值所在阶段。") \
    X(FmFramework, "Outside PyTorch's tensors: the CUDA context and its loaded kernels, plus the cuBLAS and cuDNN workspaces.", \
      "PyTorch 张量之外的部分：CUDA 上下文及已加载的内核，再加 cuBLAS 和 cuDNN 的工作区。") \
    X(FmPeakAllocated, "Peak allocated by PyTorch: the largest of the three phases (end of forward, backward, optimizer step), each with the workspaces.", \
      "PyTorch 已分配显存的峰值：前向结束、反向传播、优化器更新三个阶段中最大的一个，各自包含工作区。") \
    X(FmReserved, "Reserved by PyTorch's caching allocator: peak allocated x (1 + fragmentation).", \
      "PyTorch 缓存分配器保留的显存：已分配峰值 × (1 + 碎片比例)。") \
    X(FmNvidiaSmi, "What nvidia-smi shows: reserved + the CUDA context.", "nvidia-smi 显示的用量：保留显存 + CUDA 上下文。") \
    X(CostFormula, "How the cost is computed", "费用的计算方式")                                             \
    X(RentFormula, "Billed per run: %s (one run of %s with its start, setup and downloads, rounded up to the billing unit of %s per session) x %s x %s per hour = %s; cloud disk %s. Price: %s, as of %s.", \
      "每次运行计费 %s（一次运行 %s，含启动、配置和下载，每个会话按 %s 的计费单位向上取整）× %s × 每小时 %s = %s；云盘 %s。价格来源：%s，日期 %s。") \
    X(BuyFormulaCards, "Up front: %s x %s (%s) + host computer %s = %s.", "先付：%s × %s（%s）+ 主机 %s = %s。") \
    X(CountCard, "%d card", "%d 张卡")                                                                        \
    X(CountCards, "%d cards", "%d 张卡")                                                                      \
    X(CountRun, "%d run", "%d 次")                                                                            \
    X(CountRuns, "%d runs", "%d 次")                                                                          \
    X(BuyFormulaPower, "Electricity: %s W x %s of training x %s per kWh = %s.", "电费：%s 瓦 × 训练 %s × 每千瓦时 %s = %s。") \
    X(BuyFormulaResale, "Resale after %s of ownership: a used card fetches %s of its new price (the used-market discount) = %s back; the host computer is kept, not resold. Cost = up front + electricity - resale = %s.", \
      "拥有 %s 后转卖：二手显卡能卖回新卡价格的 %s（二手折价）= 收回 %s；主机自己留用，不计转卖。成本 = 先付 + 电费 - 转卖 = %s。") \
    X(BuyPriceUnknown, "No purchase price for this card in the catalog: data-centre cards are sold through server vendors, and older cards are no longer sold new. Add the price you were quoted under \"Your own cards, offers and prices\" to see what buying costs.", \
      "数据库里没有这块显卡的购买价格：数据中心显卡通过服务器厂商销售，较老的显卡已不再出售新品。在“你自己的显卡、报价和价格”中填入你拿到的报价，即可看到购买成本。")                              \
    X(BuyServerOnly, "SXM and OAM modules are sold only inside 4- or 8-GPU servers, not as cards for a desktop, so no card-plus-host price is given (one report: 8-GPU H20 servers at about 1.4 million CNY while the cards were advertised at about 110,000 CNY each). Rent them by the hour instead.", \
      "SXM 和 OAM 模组只随 4 卡或 8 卡服务器整机出售，不能单独装进台式机，所以这里不给“显卡 + 主机”的价格（一则报道：8 卡 H20 服务器约 140 万元，而单卡报价约 11 万元）。这类卡建议按小时租用。") \
    X(BuyHostUnderpowered, "These cards and the host draw about %s W, more than the host's %s W power supply: a multi-GPU workstation or a server costs more than the host counted here, so this cost is a lower bound.", \
      "这些显卡加主机约耗电 %s 瓦，超过了主机 %s 瓦的电源：多卡工作站或服务器比这里计入的主机更贵，所以这个成本是下限。") \
    X(PriceStreet, "street price", "市场价")                                                                  \
    X(PriceLaunch, "launch price of %d x today's exchange rate; not a price you can buy it at today if it is no longer made", "%d 年首发价 × 当前汇率；如果已经停产，现在买不到这个价")                                          \
    X(PriceUser, "your price", "你的价格")  \
    X(StorePartlyApplied, "Some of your saved settings are not accepted by this version; they are back at their defaults and the rest is restored. Reset:", \
      "你保存的部分设置在这个版本中不再有效，已恢复为默认值，其余设置照常恢复。已重置：")                       \
    X(StoreBroken, "Your saved settings could not be read, so the default example is shown. Why, and where the saved text is:", \
      "无法读取你保存的设置，因此显示默认示例。原因及原来保存的内容所在位置：") \
    X(StoreNewer, "Your saved settings come from a newer version of gpuguide; they are left untouched and the default example is shown.", \
      "你保存的设置来自更新版本的 gpuguide；它们保持不变，现在显示默认示例。")                            \
    X(MyDataTitle, "Your own cards, offers and prices", "你自己的显卡、报价和价格")                            \
    X(MyDataIntro, "Add what the catalog lacks: the price you can actually get for a card, a card that is not listed, or a cloud offer you found. It is used everywhere on the page, kept in this browser, and can be saved as a file.", \
      "补充数据库里没有的内容：你实际能买到的显卡价格、未收录的显卡，或你找到的云服务器报价。它们会在整个页面中使用，保存在本浏览器里，也可以导出为文件。") \
    X(MyDataExport, "Save as a file", "导出为文件")                                                           \
    X(MyDataImport, "Load from a file", "从文件导入")                                                         \
    X(MyPriceTitle, "My price for a card", "我能买到的显卡价格")                                               \
    X(MyPriceGpu, "Card", "显卡")                                                                             \
    X(MyPriceAmount, "Price of one new card", "一张新卡的价格")                                               \
    X(MyPriceTip, "What you would pay for one card (CNY). Buying costs use it instead of the catalog's price.", \
      "你买一张卡实际要付的钱（人民币）。购买成本会用它代替数据库里的价格。")                               \
    X(MyPriceSave, "Save my price", "保存我的价格")                                                           \
    X(MyGpuTitle, "A card that is not in the catalog", "数据库里没有的显卡")                                   \
    X(MyGpuName, "Name", "名称")                                                                              \
    X(MyGpuNameTip, "Any name you will recognise, e.g. the model printed on the box.", "任意你认得出的名称，例如包装盒上的型号。") \
    X(MyGpuMemoryTip, "Memory capacity as the vendor states it (24 for a 24 GB card).", "厂商标注的显存容量（24 GB 的卡填 24）。") \
    X(MyGpuBandwidthTip, "Memory bandwidth from the datasheet, in GB/s.", "规格表上的显存带宽，单位 GB/s。")      \
    X(MyGpuFp32Tip, "Dense FP32 throughput from the datasheet (not GFLOPS).", "规格表上的 FP32 稠密算力（注意不是 GFLOPS）。") \
    X(MyGpuTensorTip, "Dense FP16 tensor throughput with FP32 accumulate, without sparsity. GeForce datasheets often print the sparse or FP16-accumulate figure, which is 2x or 4x too high.", \
      "FP16 张量核心稠密算力（FP32 累加、不含稀疏）。游戏卡规格表常印稀疏或 FP16 累加的数字，会高出 2 倍或 4 倍。") \
    X(MyGpuTdpTip, "Board power in watts (for the electricity cost).", "整卡功耗，单位瓦（用于计算电费）。")   \
    X(MyGpuPriceTip, "Optional: what one card costs you (CNY), for buying costs.", "可选：一张卡的价格（人民币），用于计算购买成本。") \
    X(MyGpuCopyFrom, "Start from the figures of", "从这块显卡的参数开始")                                      \
    X(MyGpuCopyFromTip, "Copies a catalog card's memory, bandwidth, compute and power into the fields below; then change what differs (e.g. the memory of a modded card).", \
      "把数据库中某块显卡的显存、带宽、算力和功耗填入下面各项；再修改不同之处（例如改装卡的显存）。")            \
    X(MyGpuMissing, "Enter the name, the memory, the bandwidth and the FP32 rate (or start from a catalog card) to add the card.", \
      "请填写名称、显存、带宽和 FP32 算力（或从数据库中的显卡开始），才能添加这块显卡。")                         \
    X(MyGpuReady, "It will be added as \"%s\" and can then be chosen everywhere on the page.", "将以 id“%s”添加，之后可在页面各处选用。") \
    X(MyGpuAdd, "Add this card", "添加这块显卡")                                                             \
    X(MyOfferTitle, "A cloud offer", "云服务器报价")                                                          \
    X(MyOfferProvider, "Provider", "服务商")                                                                  \
    X(MyOfferProviderTip, "Who rents it out, e.g. your university's cluster or a cloud platform.", "出租方，例如学校集群或某个云平台。") \
    X(MyOfferPriceTip, "The hourly price of the whole machine with these cards, billed by the hour.", "整台机器（含这些显卡）每小时的价格，按小时计费。") \
    X(MyOfferAdd, "Add this offer", "添加这个报价")                                                           \
    X(PerHourSuffix, " per hour", " 每小时")                                                                  \
    X(Remove, "Remove", "删除")                                                                               \
    X(UserDataProblems, "Some of your own data could not be used (it is kept, fix or remove it):", "你的部分自定义数据无法使用（已保留，请修改或删除）：") \
    X(SaveKeptStore, "Save that data as a file", "把这些数据另存为文件")                                      \
    X(ExportLabel, "Copy the table as:", "复制表格为：")                                                    \
    X(ExportCopied, "Copied", "已复制")                                                                      \
    X(Copy, "Copy", "复制")                                                                                  \
    X(CopyRefused, "The browser did not allow copying: the text is shown to copy by hand.",                   \
      "浏览器不允许复制：文字已单独显示，请手动复制。")                                                        \
    X(CopyByHand, "The browser did not allow the page to copy. The text is selected below: press Ctrl+C (Cmd+C on a Mac), or long-press it on a phone.", \
      "浏览器不允许本页复制。下面的文字已选中：按 Ctrl+C（Mac 上按 Cmd+C）复制，手机上长按复制。")            \
    X(Close, "Close", "关闭")                                                                                \
    X(Paste, "Paste", "粘贴")                                                                                \
    X(PasteTip, "Pastes the clipboard into the box (the browser may ask first). Ctrl+V (Cmd+V on a Mac) in the box works too.", \
      "把剪贴板的内容粘贴到框里（浏览器可能会先询问）。也可以在框里按 Ctrl+V（Mac 上按 Cmd+V）。")             \
    X(PasteRefused, "The browser did not let the page read the clipboard: click in the box and press Ctrl+V (Cmd+V on a Mac), or right-click it and choose Paste.", \
      "浏览器不允许本页读取剪贴板：请点一下框内，按 Ctrl+V（Mac 上按 Cmd+V），或右键选择“粘贴”。")            \
    X(Currency, "Show money in", "金额显示为")                                                             \
    X(CurrencyTip, "Costs are converted at the exchange rate in the catalog's settings; independent of the page language.", \
      "费用按数据库设置中的汇率换算；与页面语言无关。")                                                     \
    X(CurCny, "CNY (yuan)", "人民币（元）")                                                                  \
    X(CurUsd, "USD (dollars)", "美元")                                                                       \
    X(Tokens, "Training tokens", "训练 token 数")                                                            \
    X(TokensTip, "Total tokens the whole training run processes (all epochs).", "整个训练过程要处理的 token 总数（所有轮次合计）。") \
    X(NothingFits, "No option fits this job as it is: see what to change above, or tick the box to see them all.", \
      "按现在的设置没有方案装得下：请看上方的修改建议，或勾选复选框查看全部方案。") \
    X(ImportNotJson, "That file is not a gpuguide data file: it is not valid JSON. Nothing was changed. Why:", \
      "这个文件不是 gpuguide 数据文件：它不是有效的 JSON。没有做任何修改。原因：") \
    X(ImportNotData, "That file is not a gpuguide data file (an object with \"gpus\" and \"offers\" lists of cards and offers). Nothing was changed. What it holds:", \
      "这个文件不是 gpuguide 数据文件（应为含 \"gpus\" 和 \"offers\" 显卡与报价列表的 JSON 对象）。没有做任何修改。文件内容：") \
    X(ImportEmpty, "That file has no cards and no offers (its \"gpus\" and \"offers\" lists are missing or empty), so it would only remove your data. Nothing was changed.", \
      "这个文件里没有任何显卡或报价（\"gpus\" 和 \"offers\" 列表缺失或为空），导入只会清空你的数据。没有做任何修改。") \
    X(ImportIsScenario, "That file is a training scenario (a model and how to train it), not a file of cards and offers. Nothing was changed. Data files are the ones \"Save as a file\" writes.", \
      "这个文件是一个训练场景（模型及训练方式），不是显卡和报价的数据文件。没有做任何修改。数据文件是用“导出为文件”保存的那种。") \
    X(ImportIsSettings, "That file is the page's saved settings (\"Save that data as a file\"), not a file of cards and offers. Nothing was changed. Data files are the ones \"Save as a file\" writes.", \
      "这个文件是页面保存的设置（“把这些数据另存为文件”），不是显卡和报价的数据文件。没有做任何修改。数据文件是用“导出为文件”保存的那种。") \
    X(ImportNewer, "That data file comes from a newer version of gpuguide, which this version cannot read. Nothing was changed. Its version:", \
      "这个数据文件来自更新版本的 gpuguide，当前版本无法读取。没有做任何修改。文件版本：") \
    X(ImportTooLarge, "That file is too large to be a gpuguide data file, so it was not read. Nothing was changed. Its size and the limit:", \
      "这个文件太大，不可能是 gpuguide 数据文件，因此没有读取。没有做任何修改。文件大小与上限：") \
    X(ImportAskTitle, "Load this file into your data?", "要把这个文件导入你的数据吗？") \
    X(ImportAskSummary, "It adds %d, replaces %d and keeps %d of your records as they are.", \
      "它会新增 %d 条、替换 %d 条记录，并保留你原有的 %d 条记录不变。") \
    X(ImportAdds, "Added:", "新增：") \
    X(ImportReplaces, "Replaced by the file's version:", "被文件中的版本替换：") \
    X(ImportKeeps, "Kept as they are:", "保持不变：") \
    X(ImportOverBundled, "These have the id of a card or offer in the catalog and replace its figures:", \
      "以下记录与数据库中的显卡或报价 id 相同，会替换数据库中的数值：") \
    X(ImportUnchanged, "%d records are the same as yours.", "%d 条记录与你现有的相同。") \
    X(ImportSkipped, "%d entries are not records with an \"id\" and are left out.", "%d 个条目不是带 \"id\" 的记录，不会导入。") \
    X(ImportHasProblems, "Some records have problems; they are kept and listed, but not used:", \
      "部分记录有问题；它们会被保留并列出，但不会被使用：") \
    X(ImportConfirm, "Import", "导入") \
    X(ImportCancel, "Cancel", "取消") \
    X(ImportLoaded, "The file was loaded into your data:", "文件已导入你的数据：") \
    X(ImportAddedLine, "added: %s", "新增：%s") \
    X(ImportReplacedLine, "replaced: %s", "替换：%s") \
    X(ImportPinsReplace, "Pinned scenarios: yours (%d) are replaced by the file's (%d); \"Undo import\" brings yours back.", \
      "固定的方案：你的 %d 个会被文件中的 %d 个替换；“撤销导入”可以恢复你的方案。") \
    X(ImportPinsLine, "pinned scenarios: %s", "固定的方案：%s") \
    X(ImportNothingNew, "nothing new: every record of the file is the same as yours", "没有新内容：文件中的每条记录都与你现有的相同") \
    X(UndoImport, "Undo import", "撤销导入") \
    X(UndoImportTip, "Puts your cards, offers, prices and pinned scenarios back as they were before the last import.", \
      "把你的显卡、报价、价格和固定的方案恢复到上次导入之前的样子。") \
    X(ImportUndone, "The last import was undone: your data is as it was before it.", "已撤销上次导入：你的数据已恢复到导入之前。") \
    X(LinkRecordsInView, "This link brings its own cards or offers. They are used for this view only and are not saved to your data:", \
      "此链接附带了它自己的显卡或报价。它们只用于当前页面，不会保存到你的数据中：") \
    X(LinkRecordsOverBundled, "These have the id of a card or offer in the catalog and replace its figures in this view:", \
      "以下记录与数据库中的显卡或报价 id 相同，在当前页面中替换了数据库中的数值：") \
    X(LinkRecordsIgnored, "%d other records in the link are not used by its scenario and were not read.", \
      "链接中另有 %d 条记录与它的场景无关，没有读取。") \
    X(LinkSaveRecords, "Save to my data", "保存到我的数据") \
    X(LinkSaveConfirm, "Saving keeps the link's figures instead of the catalog's for the cards and offers above, on every visit. Save them?", \
      "保存后，以后每次访问都会用链接中的数值代替数据库中上述显卡和报价的数值。确定保存吗？") \
    X(LinkSaveYes, "Yes, save", "确定保存") \
    X(LinkRecordsSaved, "The link's cards and offers are now in your data:", "链接中的显卡和报价已保存到你的数据：") \
    X(StoreSetAside, "Part of your saved settings could not be used; the rest is restored. Set aside:", \
      "你保存的部分设置无法使用；其余设置已恢复。被搁置的部分：") \
    X(StoreKeptUnder, "The saved text is kept in this browser under the key %s.", "原来保存的内容保留在本浏览器的 %s 键下。") \
    X(StoreNotCopied, "Browser storage is full, so the saved text could not be kept in this browser: save it as a file (button below). Until you do, your settings are not saved, so nothing is overwritten.", \
      "浏览器存储空间已满，无法在本浏览器中保留原来保存的内容：请用下方按钮把它另存为文件。在你保存之前，页面不会保存你的设置，因此不会覆盖任何内容。") \
    X(LinkTooLarge, "This link is too long to be a gpuguide link, so it was not read; your previous settings are unchanged.", \
      "这个链接太长，不可能是 gpuguide 链接，因此没有读取；你之前的设置保持不变。") \
    X(LinkViewing, "You are looking at a shared link. Nothing you saved has changed: your own settings come back on your next visit unless you keep the link's.", \
      "你正在查看分享的链接。你保存的内容没有任何改变：除非保留链接中的设置，下次打开时仍是你自己的设置。") \
    X(LinkViewPins, "Pinned scenarios shown: the link's (%d). Yours (%d) are kept.", \
      "显示的是链接中的固定方案（%d 个）；你自己的（%d 个）仍然保留。") \
    X(LinkKeep, "Keep the link's settings", "保留链接中的设置") \
    X(PageRecovered, "Something in your saved settings or in the link stopped the page from drawing, so it was set aside and the page starts from the example. What you had is kept (button below). The error:", \
      "你保存的设置或链接中的某些内容使页面无法显示，已被搁置，页面从示例开始。原有内容已保留（见下方按钮）。错误信息：") \
    X(LinkKeepTip, "Saves the link's scenario and pinned scenarios in this browser in place of yours. Undo brings yours back.", \
      "把链接中的方案和固定方案保存到本浏览器，替换你原来的。可以撤销。") \
    X(LinkDiscard, "Back to my settings", "回到我的设置") \
    X(LinkKept, "The link's settings are now saved as yours.", "链接中的设置已保存为你的设置。") \
    X(LinkKeepUndo, "Undo", "撤销") \
    X(LinkKeepUndone, "Your settings from before the link are back.", "已恢复打开链接之前你自己的设置。") \
    X(CatalogFigures, "catalog: %s", "数据库中：%s") \
    X(CheckTitle, "These results cannot be what you meant; check the inputs:", "这些结果不合常理，请检查输入：") \
    X(CheckCentury, "one training run takes %s, more than a century: check the dataset size, the epochs, the batch size and the card.", \
      "一次训练需要 %s，超过一百年：请检查数据集大小、训练轮数、批大小和显卡。") \
    X(CheckCost, "the cheapest option costs %s, more than any training budget (the largest published training runs cost on the order of 100 million USD): check the dataset size, the epochs and the number of runs.", \
      "最便宜的方案也要 %s，超出任何训练预算（已公开的最大规模训练约花费 1 亿美元量级）：请检查数据集大小、训练轮数和训练次数。") \
    X(CheckEfficiency, "a scaling efficiency of %s, above 100%%, which the model rules out: please report this scenario (copy its link).", \
      "扩展效率为 %s，超过 100%%，这在模型中不应出现：请反馈这个场景（复制它的链接）。") \
    X(ColPlan, "Plan", "跑法")                                                                               \
    X(RankingPlanHint, "Each option runs your job the fastest way that trains the same model (same precision, "  \
      "method and global batch): the Plan column says how. Click a row to use its plan.",                     \
      "每个方案都按最快、且训练结果不变（精度、方法和全局批大小都不变）的跑法计算，“跑法”一列写明怎么跑。" \
      "点击一行即可采用它的跑法。")                                                                         \
    X(PlanAsTyped, "as you set it", "按你的设置")                                                            \
    X(PlanDdp, "DDP", "DDP")                                                                                 \
    X(PlanZero, "ZeRO-%d", "ZeRO-%d")                                                                        \
    X(PlanFsdp, "FSDP", "FSDP")                                                                              \
    X(PlanTensorParallel, "tensor parallel x%d", "张量并行 x%d")                                              \
    X(PlanPipeline, "%d pipeline stages", "%d 段流水线")                                                      \
    X(PlanOffload, "optimizer in host RAM (%s)", "优化器放在内存（%s）")                                     \
    X(PlanCkptFull, "full checkpointing", "完全检查点")                                                      \
    X(PlanCkptSelective, "selective checkpointing", "选择性检查点")                                          \
    X(PlanFusedAttention, "fused attention", "融合注意力")                                                   \
    X(PlanMicroBatch, "micro-batch %d x %d steps", "微批次 %d x %d 步")                                      \
    X(PlanMicroBatchOnly, "micro-batch %d", "微批次 %d")                                                     \
    X(PlanServers, "%d servers", "%d 台服务器")                                                              \
    X(PlanWhyTitle, "Why this layout (each lighter one it was compared with):", "为什么这样跑（与每个更轻的跑法比较）：") \
    X(PlanWhyNoneTitle, "Why no layout works here:", "为什么这里没有可行的跑法：")                         \
    X(AxisCheckpointing, "Without checkpointing", "不用检查点")                                              \
    X(AxisSharding, "With less sharding", "分片更少")                                                        \
    X(AxisOffload, "Without optimizer offload", "不把优化器卸载到内存")                                      \
    X(AxisTensorParallel, "With less tensor parallelism", "张量并行更少")                                    \
    X(AxisPipeline, "With fewer pipeline stages", "流水线段数更少")                                          \
    X(AxisMicroBatch, "With a larger micro-batch", "微批次更大")                                             \
    X(AxisNone, "Even the most memory-saving layout", "即使最省显存的跑法")                                  \
    X(NoteMemory, "%s: %s per card needed, %s usable.", "%s：每卡需要 %s，可用 %s。")                      \
    X(NoteSlower, "%s: it fits, but takes %s.", "%s：也装得下，但需要 %s。")                                \
    X(NoteSlowerStep, "%s: it fits, but a step takes %s.", "%s：也装得下，但每步需要 %s。")                 \
    X(NoteHostRam, "Offloading the optimizer would need %s of host RAM; the host has %s.",                    \
      "把优化器卸载到内存需要 %s 主机内存，而主机只有 %s。")                                              \
    X(NoteHostRamUnknown, "Offloading the optimizer would need %s of host RAM; this offer does not say how much it has.", \
      "把优化器卸载到内存需要 %s 主机内存，这个报价没有写明主机内存大小。")                              \
    X(NoteLink, "Tensor parallelism needs NVLink or NVSwitch inside one server; these cards talk over PCIe.",  \
      "张量并行需要同一台服务器内的 NVLink 或 NVSwitch；这些卡之间只有 PCIe。")                            \
    X(NoteBatchSplit, "The global batch (%s) does not split evenly over %s data-parallel copies.",            \
      "全局批大小（%s）不能平均分到 %s 个数据并行副本上。")                                                \
    X(NoteBatchNorm, "BatchNorm's statistics are per micro-batch, so the micro-batch stays %s; the global batch "   \
      "(%s) cannot be shared that way over these cards.",                                                     \
      "BatchNorm 的统计量按微批次计算，所以微批次保持为 %s；全局批大小（%s）无法这样分到这些卡上。")     \
    X(VerdictPlanAsTyped, "Fits as you set it.", "按你的设置就能装下。")                                     \
    X(VerdictPlanFits, "Fits with this plan (same model, same results): %s.",                                 \
      "换一种跑法就能装下（模型和训练结果都不变）：%s。")                                                 \
    X(VerdictPlanFaster, "A faster plan on the same cards (same results): %s, %s instead of %s.",            \
      "同样的卡有更快的跑法（结果不变）：%s，用时 %s，而不是 %s。")                                       \
    X(VerdictPlanNone, "No way of running it on these cards keeps the results: it needs a change that may alter them (see below).", \
      "在这些卡上没有不改变训练结果的跑法：需要改动可能影响结果的设置（见下方）。")                      \
    X(VerdictPlanNoneSwitch, "No other layout of these cards (sharding, offload, checkpointing, micro-batch) fits it; the change below does, and keeps the results.", \
      "这些卡换什么跑法（分片、卸载、检查点、微批次）都装不下；下面的修改能装下，而且不改变训练结果。")   \
    X(VerdictPlanNoneMoreCards, "No way of running it on these cards keeps the results; with more cards one does (see below).", \
      "在这些卡上没有不改变训练结果的跑法；多用几张卡就有（见下方）。")                                 \
    X(ApplyPlan, "Use this plan", "采用这个跑法")                                                            \
    X(AllowResultChanges, "Advice may change the results", "建议可以改变训练结果")                          \
    X(AllowResultChangesTip, "Off: the advice first keeps what is learned (checkpointing, accumulation, more cards "  \
      "with ZeRO), and proposes a new precision, LoRA/QLoRA, an 8-bit optimizer or shorter inputs only when nothing "  \
      "else works. On: the fewest changes win, even ones that may change the trained model.",              \
      "关闭：建议优先保持训练结果不变（检查点、梯度累积、用 ZeRO 加卡），只有这些都不行时才建议换精度、"     \
      "LoRA/QLoRA、8 位优化器或缩短输入。打开：改动最少的方案优先，即使它可能改变训练出的模型。") \
    X(FamilyGan, "GANs (generator + discriminator)",  \
      "生成对抗网络 GAN（生成器 + 判别器）") \
    X(GanInputsNote, "A GAN trains both networks in full with Adam, in the dtypes of its reference code: precision, method, checkpointing and model parallelism do not apply.",  \
      "GAN 用 Adam 完整训练两个网络，数据类型与参考代码相同：精度、微调方法、检查点和模型并行都不适用。") \
    X(GanKimg, "Training length",  \
      "训练长度") \
    X(GanKimgTip, "Thousands of real images shown to the discriminator (StyleGAN's --kimg). 0: use the samples and epochs below.",  \
      "判别器看到的真实图片数，以千张（kimg）计（StyleGAN 的 --kimg）。填 0 则按下面的样本数和轮数计算。") \
    X(UnitKimg, "kimg",  \
      "kimg") \
    X(GanBatchTip, "Images per GPU in each pass (StyleGAN: --batch-gpu, which is --batch divided by --gpus).",  \
      "每张卡每次前向的图片数（StyleGAN 的 --batch-gpu，即 --batch 除以 --gpus）。") \
    X(GanGpuCountTip, "Cards training together; each holds both networks whole and their gradients are all-reduced.",  \
      "一起训练的显卡数；每张卡都放着完整的两个网络，梯度在卡间做 all-reduce。") \
    X(GanSmallerBatch, "A batch of %d images per GPU fits (StyleGAN: --batch-gpu); more GPUs keep the total batch.",  \
      "每卡批大小降到 %d 张图片就能装下（StyleGAN 的 --batch-gpu）；多加几张卡可保持总批大小。") \
    X(GanNoFitAtOne, "It does not fit even at one image per GPU. More GPUs do not help: each holds both networks whole.",  \
      "每卡只放一张图片也装不下。加卡没有用：每张卡都要放完整的两个网络。") \
    X(GanMaxBatch, "Largest batch per GPU that fits this card: %d.",  \
      "这块卡能装下的最大每卡批大小：%d。") \
    X(GanNetworksTitle, "The two networks",  \
      "两个网络") \
    X(GanColNetwork, "Network",  \
      "网络") \
    X(GanColParams, "Parameters",  \
      "参数量") \
    X(GanColWeights, "Weights",  \
      "权重") \
    X(GanColStates, "Grads + Adam",  \
      "梯度 + Adam") \
    X(GanColEma, "Moving average",  \
      "滑动平均") \
    X(GanGenerator, "Generator (G)",  \
      "生成器（G）") \
    X(GanDiscriminator, "Discriminator (D)",  \
      "判别器（D）") \
    X(GanStatesNote, "FP32 weights, gradients and Adam's two states for each network, plus G's moving average (G_ema).",  \
      "每个网络都有 FP32 权重、梯度和 Adam 的两份状态，另加生成器的滑动平均副本（G_ema）。") \
    X(GanPhasesTitle, "Phases of one iteration",  \
      "一次迭代的各个阶段") \
    X(GanColPhase, "Phase",  \
      "阶段") \
    X(GanColEvery, "Every",  \
      "间隔") \
    X(GanColKept, "Kept alive",  \
      "保留的激活") \
    X(GanColRun, "Per run",  \
      "每次耗时") \
    X(GanColPerIteration, "Per iteration",  \
      "摊到每次迭代") \
    X(GanPeak, "peak",  \
      "峰值") \
    X(GanPeakLine, "Memory peaks in %s with %s of activations; PyTorch allocates %s at most.",  \
      "显存峰值出现在 %s 阶段，激活占 %s；PyTorch 最多分配 %s。") \
    X(GanNoTime, "No speed estimate for this card.",  \
      "这块卡没有速度估计。") \
    X(GanSpeed, "%s sec/kimg (%s images/s)",  \
      "%s 秒/kimg（每秒 %s 张图片）") \
    X(GanNoLength, "Give a training length (kimg, or samples and epochs) for the time and cost of the run.",  \
      "填写训练长度（kimg，或样本数和轮数），即可算出训练时间和费用。") \
    X(GanTotal, "Training for %s kimg takes about %s.",  \
      "训练 %s kimg 约需 %s。") \
    X(GanRent, "Renting these cards costs about %s for the run (%s, the cheapest offer).",  \
      "租这些卡跑完一次约需 %s（%s，最便宜的报价）。") \
    X(GanMs, "%s ms",  \
      "%s 毫秒")

namespace gg::ui {
enum class Str {
#define GG_UI_STRING_ENUM(id, en, zh) id,
    GG_UI_STRINGS(GG_UI_STRING_ENUM)
    GG_UI_STRINGS_LOADER(GG_UI_STRING_ENUM)
#undef GG_UI_STRING_ENUM
        Count
};
}  // namespace gg::ui
