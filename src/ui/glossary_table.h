// The glossary: every term of art the page uses, one line each in English and Simplified Chinese, with where the
// definition comes from. X(id, term, match, english, chinese, source): `match` lists, separated by '|', the spellings
// that name the term in the page's texts of both languages (matched as whole words). Text only, no logic.
// The build subsets the Chinese font to the characters of src/ui, this file included.
#pragma once

#define GG_GLOSSARY(X)                                                                                                \
    X(Mfu, "MFU", "MFU",                                                                                              \
      "Model FLOPs utilization: the share of the card's peak FLOP/s that the model's own arithmetic uses.",           \
      "模型算力利用率：模型本身的计算量占显卡峰值算力的比例。",                                                      \
      "Chowdhery et al. 2022, PaLM, appendix B")                                                                      \
    X(Zero, "ZeRO", "ZeRO",                                                                                           \
      "Zero Redundancy Optimizer (DeepSpeed): splits optimizer states (stage 1), gradients (2) and weights (3) over the cards, so each holds a share.", \
      "零冗余优化器（DeepSpeed）：把优化器状态（阶段 1）、梯度（阶段 2）和权重（阶段 3）分摊到各张卡上，每张卡只存一份。", \
      "Rajbhandari et al. 2020, ZeRO, SC20")                                                                          \
    X(Fsdp, "FSDP", "FSDP",                                                                                           \
      "Fully Sharded Data Parallel: PyTorch's own sharding of weights, gradients and optimizer states over the cards, like ZeRO-3.", \
      "完全分片数据并行：PyTorch 自带的、类似 ZeRO-3 的权重、梯度和优化器状态分片。",                                \
      "Zhao et al. 2023, PyTorch FSDP, VLDB")                                                                         \
    X(Ddp, "DDP", "DDP",                                                                                              \
      "Distributed Data Parallel: every card holds the whole model and trains on its share of the batch; the gradients are averaged.", \
      "分布式数据并行：每张卡都存完整模型，各自训练一部分批次，再平均梯度。",                                        \
      "Li et al. 2020, PyTorch Distributed, VLDB")                                                                    \
    X(Sdpa, "SDPA", "SDPA",                                                                                           \
      "Scaled dot-product attention: PyTorch's fused attention, which runs a FlashAttention or memory-efficient kernel and keeps no full attention matrix.", \
      "缩放点积注意力：PyTorch 的融合注意力，会选用 FlashAttention 或省显存的内核，不保存完整的注意力矩阵。",      \
      "PyTorch docs, torch.nn.functional.scaled_dot_product_attention")                                               \
    X(FlashAttention, "FlashAttention", "FlashAttention",                                                             \
      "An exact attention kernel that works in tiles: memory grows with the sequence length, not with its square.",   \
      "分块计算的精确注意力内核：显存随序列长度增长，而不是随其平方增长。",                                          \
      "Dao et al. 2022, FlashAttention, NeurIPS")                                                                     \
    X(Foreach, "foreach", "foreach",                                                                                  \
      "PyTorch optimizers' foreach implementation: updates all tensors in a few batched kernels, faster than one at a time but with temporary copies while it runs.", \
      "PyTorch 优化器的 foreach 实现：用少数几个批量内核更新全部参数，比逐个更新快，但运行时多占一些临时显存。",     \
      "PyTorch docs, torch.optim, Algorithms: foreach and fused implementations")                                     \
    X(Liger, "Liger", "Liger",                                                                                        \
      "Liger Kernel: Triton kernels for LLM training; its fused linear cross-entropy never builds the full-vocabulary logits.", \
      "Liger Kernel：用于大模型训练的 Triton 内核；它的融合线性交叉熵不生成完整词表的 logits。",                     \
      "Hsu et al. 2024, Liger Kernel, arXiv 2410.10989")                                                              \
    X(Packing, "packing", "packing|Packing|打包",                                                                     \
      "Sample packing: several short samples joined into one sequence of the full length, so no compute goes to padding.", \
      "样本打包：把几条短样本拼成一条满长度的序列，不在填充上浪费计算。",                                            \
      "Hugging Face TRL docs, SFTTrainer: packing")                                                                   \
    X(Frontier, "frontier", "frontier|Frontier|最优前沿",                                                             \
      "Pareto frontier: the options no other option beats on both time and cost; marked * in the ranking.",          \
      "帕累托最优前沿：没有别的方案在时间和费用上同时更好的那些方案；排名里用 * 标出。",                             \
      "Pareto optimality, as in any multi-objective optimization text")                                              \
    X(Lora, "LoRA", "LoRA",                                                                                           \
      "Low-rank adaptation: the model stays frozen and small low-rank matrices beside its layers are trained.",       \
      "低秩适配：冻结原模型，只训练加在各层旁边的小型低秩矩阵。",                                                    \
      "Hu et al. 2021, LoRA, arXiv 2106.09685")                                                                       \
    X(Qlora, "QLoRA", "QLoRA",                                                                                        \
      "LoRA on a base model stored in 4 bits (NF4), so a large model fits a small card.",                             \
      "在以 4 位（NF4）存储的基座模型上做 LoRA，让大模型装进小显卡。",                                               \
      "Dettmers et al. 2023, QLoRA, NeurIPS")                                                                         \
    X(Amp, "AMP", "AMP|mixed precision|Mixed precision|混合精度",                                                     \
      "Automatic mixed precision: computes in FP16 or BF16 while the master copy of the weights stays in FP32.",     \
      "自动混合精度：用 FP16 或 BF16 计算，权重的主副本仍保存为 FP32。",                                             \
      "Micikevicius et al. 2018, Mixed Precision Training, ICLR; PyTorch docs, torch.amp")                            \
    X(Checkpointing, "checkpointing", "checkpointing|Checkpointing|检查点",                                           \
      "Activation checkpointing: keeps only some activations and recomputes the rest in the backward pass; less memory for about one more forward pass of time.", \
      "激活检查点：只保存部分激活值，反向传播时重算其余部分；省显存，多花大约一次前向传播的时间。",                  \
      "Chen et al. 2016, Training Deep Nets with Sublinear Memory Cost, arXiv 1604.06174")                             \
    X(NvLink, "NVLink", "NVLink",                                                                                     \
      "NVIDIA's direct card-to-card link, several times faster than PCIe; only some cards have it.",                  \
      "NVIDIA 的显卡间直连通道，比 PCIe 快数倍；只有部分显卡有。",                                                   \
      "NVIDIA, NVLink and NVSwitch product page")                                                                     \
    X(Pcie, "PCIe", "PCIe",                                                                                           \
      "The slot a card sits in; cards without NVLink exchange gradients through it (PCIe 4.0 x16: about 32 GB/s each way).", \
      "显卡插在主板上的插槽；没有 NVLink 的卡通过它交换梯度（PCIe 4.0 x16：每个方向约 32 GB/s）。",                 \
      "PCI-SIG, PCI Express Base Specification 4.0 (16 GT/s per lane)")                                               \
    X(Ecc, "ECC", "ECC",                                                                                              \
      "Error-correcting memory: finds and fixes flipped bits; on GDDR cards, turned on, it takes 1/16 of the memory.", \
      "纠错内存：发现并纠正翻转的比特；GDDR 显卡开启后占用 1/16 的显存。",                                           \
      "NVIDIA nvidia-smi outputs with ECC on and off (docs/catalog.md sec. 11)")                                      \
    X(Tf32, "TF32", "TF32",                                                                                           \
      "TensorFloat-32: Ampere and newer tensor cores multiply FP32 numbers with a 10-bit mantissa, much faster than full FP32.", \
      "TensorFloat-32：Ampere 及更新架构的张量核心以 10 位尾数做 FP32 乘法，比完整 FP32 快得多。",                  \
      "NVIDIA A100 Tensor Core GPU Architecture whitepaper, 2020")                                                    \
    X(Bf16, "BF16", "BF16|bf16",                                                                                      \
      "bfloat16: 16-bit floats with FP32's range of exponents, so no loss scaling is needed; Ampere (RTX 30, A100) and newer.", \
      "bfloat16：指数范围与 FP32 相同的 16 位浮点数，不需要损失缩放；Ampere（RTX 30、A100）及更新的显卡支持。",      \
      "Kalamkar et al. 2019, A Study of BFLOAT16 for Deep Learning Training, arXiv 1905.12322")                        \
    X(Fp16, "FP16", "FP16|fp16",                                                                                      \
      "Half precision: 16-bit floats, half the memory of FP32; training needs loss scaling to keep small gradients.", \
      "半精度：16 位浮点数，显存是 FP32 的一半；训练时需要损失缩放来保留很小的梯度。",                               \
      "Micikevicius et al. 2018, Mixed Precision Training, ICLR")                                                     \
    X(Nf4, "NF4", "NF4|nf4",                                                                                          \
      "4-bit NormalFloat: QLoRA's type for frozen weights, its 16 values spaced for normally distributed weights.",    \
      "4 位 NormalFloat：QLoRA 存冻结权重的数据类型，16 个取值按正态分布的权重设计。",                               \
      "Dettmers et al. 2023, QLoRA, NeurIPS")                                                                         \
    X(Optimizer8bit, "8-bit optimizer", "8-bit|8 位",                                                                 \
      "bitsandbytes' 8-bit Adam: keeps Adam's two states in 8 bits, quantized block by block.",                       \
      "bitsandbytes 的 8 位 Adam：把 Adam 的两个状态按块量化成 8 位保存。",                                           \
      "Dettmers et al. 2022, 8-bit Optimizers via Block-wise Quantization, ICLR")                                     \
    X(Accumulation, "gradient accumulation", "accumulation|Accumulation|累积",                                        \
      "Gradient accumulation: adds up the gradients of several micro-batches before one update: a large batch in the memory of a small one.", \
      "梯度累积：累加几个微批次的梯度再更新一次：用小批次的显存得到大批次的效果。",                                  \
      "Hugging Face transformers docs, gradient_accumulation_steps")                                                  \
    X(MicroBatch, "micro-batch", "micro-batch|微批次",                                                                \
      "The samples one card takes through one forward and backward pass; the batch of one update is micro-batch x accumulation x cards.", \
      "一张卡一次前向和反向传播处理的样本数；一次更新的批大小 = 微批次 x 累积步数 x 卡数。",                          \
      "DeepSpeed docs, train_micro_batch_size_per_gpu")                                                               \
    X(Ema, "EMA", "EMA",                                                                                              \
      "Exponential moving average of the weights: a second copy of the trainable weights, averaged over the steps, that is evaluated and saved.", \
      "权重的指数滑动平均：可训练权重的第二份拷贝，按步平均，用于评估和保存。",                                      \
      "Polyak and Juditsky 1992; diffusers --use_ema")                                                                \
    X(Offload, "offload", "offload|Offload|卸载",                                                                     \
      "Offload: optimizer states or activations kept in the computer's RAM instead of the card's memory, at the cost of transfers.", \
      "卸载：把优化器状态或激活值放在电脑内存而不是显存里，代价是来回传输。",                                        \
      "Ren et al. 2021, ZeRO-Offload, USENIX ATC")                                                                    \
    X(TensorParallel, "tensor parallelism", "tensor parallel|Tensor parallel|张量并行",                               \
      "Tensor parallelism: each layer's matrices split over cards that work on every sample together.",               \
      "张量并行：把每层的矩阵拆到几张卡上，这几张卡一起处理每个样本。",                                              \
      "Shoeybi et al. 2019, Megatron-LM, arXiv 1909.08053")                                                           \
    X(Pipeline, "pipeline parallelism", "pipeline|Pipeline|流水线",                                                   \
      "Pipeline parallelism: the layers split into stages on different cards, with micro-batches flowing through them.", \
      "流水线并行：把各层分成几段放在不同的卡上，微批次依次流过。",                                                  \
      "Huang et al. 2019, GPipe, NeurIPS")                                                                            \
    X(NvidiaSmi, "nvidia-smi", "nvidia-smi",                                                                          \
      "NVIDIA's command-line tool; its memory figure is what the run takes on the card, PyTorch's cache and the CUDA context included.", \
      "NVIDIA 的命令行工具；它显示的显存是训练在卡上实际占用的量，包括 PyTorch 的缓存和 CUDA 上下文。",             \
      "NVIDIA System Management Interface documentation")                                                             \
    X(Spot, "spot", "spot|竞价",                                                                                      \
      "Spot (preemptible) instance: a cheaper rental the provider may stop at any time; save checkpoints often.",      \
      "竞价实例：更便宜的租用方式，服务商可能随时收回；要经常保存检查点。",                                          \
      "AWS EC2 Spot Instances documentation")                                                                         \
    X(Tflops, "TFLOPS", "TFLOPS",                                                                                     \
      "Trillions of floating-point operations per second: a card's arithmetic rate; datasheets often quote it with sparsity, twice the dense rate.", \
      "每秒万亿次浮点运算：显卡的算力；厂商参数表常写带稀疏的数字，是稠密算力的两倍。",                              \
      "NVIDIA A100 datasheet (dense and sparse figures)")                                                             \
    X(TensorCores, "tensor cores", "tensor cores|Tensor cores|tensor core|Tensor core|张量核心",                                                \
      "Tensor cores: NVIDIA's matrix units (Volta and newer) that multiply FP16, BF16 or TF32 many times faster than the regular cores.", \
      "张量核心：NVIDIA 的矩阵运算单元（Volta 及更新架构），做 FP16、BF16 或 TF32 乘法比普通核心快很多倍。",         \
      "NVIDIA Tesla V100 GPU Architecture whitepaper, 2017")
