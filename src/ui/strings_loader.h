// The data loader's strings (issue 42) in English and Simplified Chinese: X(id, english, chinese), joined to the one
// string table by strings_table.h. The font subset reads every src/ui file, so these render in Chinese too.
#pragma once

#define GG_UI_STRINGS_LOADER(X)                                                                                 \
    X(LoaderPipeline, "Input pipeline", "数据预处理流程")                                                        \
    X(LoaderPipelineTip, "What the DataLoader's CPU workers do per sample. 'From the job' picks CIFAR augmentation " \
      "for an image classifier at 64 px or less, an ImageNet-style JPEG folder above that, and pre-tokenized ids "   \
      "for text; other jobs have no measured per-CPU rate. 'Keeps up' ignores the CPU.",                          \
      "DataLoader 的 CPU 工作进程对每个样本做什么。“按任务推断”：64 像素及以下的图像分类用 CIFAR 增强，更大的用 "  \
      "ImageNet 式 JPEG 文件夹，文本用预先分词的 id；其他任务没有实测的单 CPU 速度。“跟得上”表示不考虑 CPU。")    \
    X(LoaderPipelineAuto, "From the job", "按任务推断")                                                          \
    X(LoaderPipelineCifar, "CIFAR augmentation (PIL crop + flip)", "CIFAR 增强（PIL 裁剪 + 翻转）")              \
    X(LoaderPipelineJpeg, "JPEG decode + RandomResizedCrop (ImageNet-style)", "JPEG 解码 + 随机缩放裁剪（ImageNet 式）") \
    X(LoaderPipelineText, "Pre-tokenized text", "预先分词的文本")                                               \
    X(LoaderPipelineKeepsUp, "Keeps up (ignore the CPU)", "跟得上（不考虑 CPU）")                               \
    X(LoaderWorkers, "DataLoader workers", "DataLoader 工作进程数")                                             \
    X(LoaderWorkersTip, "num_workers per GPU. Each worker is one process that builds whole batches. -1 = one per " \
      "CPU; 0 = loading in the training process, between steps (the PyTorch default).",                         \
      "每块 GPU 的 num_workers。每个 worker 是一个进程，负责组装整批数据。-1 = 每个 CPU 一个；0 = 在训练进程里、" \
      "两步之间读数据（PyTorch 的默认值）。")                                                                     \
    X(LoaderCpus, "CPU threads of your machine", "你电脑的 CPU 线程数")                                          \
    X(LoaderCpusTip, "Shared by the GPUs in the machine. 0 = unknown (then the loader is assumed to keep up). "   \
      "Rented and free offers in the ranking use their own vCPU count.",                                          \
      "由机器里的所有 GPU 共用。0 = 未知（此时假定数据加载跟得上）。排名里的租用和免费方案使用它们自己的 vCPU 数。") \
    X(LoaderCpuBound, "The CPU sets the pace: %s workers x %s samples/s per CPU = %s samples/s, below the GPU's %s " \
      "samples/s (%s%s).",                                                                                       \
      "CPU 决定了速度：%s 个 worker × 每个 CPU %s 样本/秒 = %s 样本/秒，低于显卡的 %s 样本/秒（%s%s）。")          \
    X(LoaderKeepsUpLine, "Data loader: %s workers x %s samples/s per CPU = %s samples/s, enough for the GPU's %s "   \
      "samples/s (%s%s).",                                                                                       \
      "数据加载：%s 个 worker × 每个 CPU %s 样本/秒 = %s 样本/秒，够显卡的 %s 样本/秒用（%s%s）。")               \
    X(LoaderCpusUnknownLine, "Data loader: %s at %s samples/s per CPU; your CPU count is not given, so it is "     \
      "assumed to keep up (the GPU alone: %s samples/s). Enter your CPU threads to check.",                      \
      "数据加载：%s，每个 CPU %s 样本/秒；没有填 CPU 数，所以假定它跟得上（显卡单独：%s 样本/秒）。填上 CPU 线程数即可核对。") \
    X(LoaderNoPipelineLine, "Data loader: no measured per-CPU rate for this job's pipeline; it is assumed to keep " \
      "up. Measure yours and enter it as the data loading speed.",                                               \
      "数据加载：这种任务的预处理没有实测的单 CPU 速度，假定它跟得上。请实测后填入“数据读取速度”。")             \
    X(LoaderNoLimitLine, "Data loader: pre-tokenized text costs the CPU almost nothing; no limit.",              \
      "数据加载：预先分词的文本几乎不占 CPU，没有限制。")                                                        \
    X(LoaderAssumed, ", assumed from the job", "，按任务推断")                                                   \
    X(LoaderInTrainingProcess, "; num_workers=0 loads between steps", "；num_workers=0 时在两步之间读数据")
