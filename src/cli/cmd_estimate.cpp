// `gpuguide estimate SCENARIO.json|-`: the memory report of one scenario as JSON on standard output.
// Bad input: every problem on standard error (file, JSON pointer, message), exit 2, nothing on standard output.
#include <cstdio>

#include "catalog/full_report.h"
#include "catalog/gan_scenario.h"
#include "catalog/report.h"
#include "catalog/scenario.h"
#include "cli/command.h"
#include "cli/scenario_input.h"

namespace gg::cli {
namespace {

int run(const std::vector<std::string>& args) {
    ScenarioInput in;
    if (const int rc = read_scenario_argument("estimate", args, in); rc != kExitOk) return rc;
    if (in.is_gan) {  // a GAN preset or {"gan": {...}} (catalog/gan_scenario.h, docs/gan.md)
        std::printf("%s\n", catalog::gan_report_json(in.gan, in.catalog()).dump(2).c_str());
        return kExitOk;
    }
    const catalog::ParsedDecision& parsed = in.parsed;
    const catalog::Catalog& cat = in.catalog();
    const catalog::Estimate e = catalog::estimate(parsed.value.scenario, cat);
    const std::string out = catalog::full_report(parsed.value, e, cat).dump(2);
    std::printf("%s\n", out.c_str());
    return kExitOk;
}

const char* kHelp =
    "Prints the training-memory and training-time report of one scenario as JSON (key `time`: step_s,\n"
    "total_s, low_s, high_s, samples_per_s, tokens_per_s, flop_per_step, mfu, epoch_s, and `scaling`: the same\n"
    "job on 1, 2, 4, 8, 16 cards and the scenario's own count; null without a GPU). SCENARIO.json is a file, or - for\n"
    "standard input.\n"
    "\n"
    "Scenario keys (all optional except model; `gpuguide keys` lists every key with its range, values and default\n"
    "from the table the parser reads by):\n"
    "  model              preset id (gpuguide models) or a custom object (a GAN preset or {\"gan\": {...}}: the keys\n"
    "                     and output of docs/gan.md, length in kimg or dataset samples x epochs):\n"
    "                       {\"family\": \"decoder\", \"layers\", \"hidden\", \"heads\", \"kv_heads\", \"ffn\", \"glu\", \"vocab\",\n"
    "                        \"tied_embeddings\", \"norm\": rmsnorm|layernorm, \"position\": rope|learned, \"bias\", \"qkv_bias\",\n"
    "                        \"experts\", \"top_k\", \"head_dim\", \"max_positions\" (learned: default 2048), \"dropout\",\n"
    "                        \"activation\": silu|gelu|gelu_new|relu, \"seq_len\" (default sequence length)}\n"
    "                       GPT-style (layernorm + learned) decoders default to dropout 0.1 and GELU; others to none/SiLU.\n"
    "                       {\"family\": \"encoder\", \"layers\", \"hidden\", \"heads\", \"ffn\", \"vocab\", \"max_positions\",\n"
    "                        \"type_vocab\", \"num_labels\", \"dropout\", \"embedding_size\", \"activation\": gelu|gelu_new}\n"
    "                       {\"family\": \"vit\", \"image_size\", \"patch\", \"layers\", \"hidden\", \"heads\", \"ffn\", \"classes\"}\n"
    "                       {\"family\": \"resnet\", \"depths\": [2,2,2,2], \"block\": basic|bottleneck, \"width\", \"classes\"}\n"
    "                       {\"family\": \"unet\", \"base_channels\", \"classes\", \"in_channels\"}\n"
    "                       {\"hf_config\": the config.json of a Hugging Face model, as given}: model_type llama,\n"
    "                        mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, gemma, gemma2, gemma3_text, phi3,\n"
    "                        phi, gpt2, opt, gpt_neox, falcon, deepseek_v2, deepseek_v3, bert, roberta,\n"
    "                        xlm-roberta, distilbert, albert, vit, clip_vision_model, whisper. A missing field\n"
    "                        or another model_type is an error.\n"
    "  batch_size         micro-batch per GPU, 1..1048576 (default 1)\n"
    "  grad_accum_steps   1.. (default 1); gradients then stay allocated between micro-batches\n"
    "  image_size         vision models only (default: the model's, e.g. 224)\n"
    "  seq_len            sequence models only (default: the model's)\n"
    "  precision          fp32 | tf32 | fp16-amp | bf16-amp | bf16 (pure) | fp8 | int8 (int8 weights) | nf4 (4-bit weights)\n"
    "                     (default: nf4 with qlora; bf16-amp, or fp16-amp on a card without bf16, for a\n"
    "                     transformer whose config.json saves it in 16 bits, then also its weights loaded as saved\n"
    "                     and, on the Trainer, checkpointing full (TRL SFTConfig's defaults); else fp32).\n"
    "                     fp16-amp/bf16-amp = PyTorch autocast with DDP; DeepSpeed-style 16-bit\n"
    "                     modules + fp32 master weights with zero1/2/3; FSDP MixedPrecision with fsdp.\n"
    "  optimizer          sgd | sgd-momentum | adam | adamw | adamw-8bit | adafactor | lion (default adamw)\n"
    "  optimizer_impl     foreach | for-loop | fused (default foreach, PyTorch >= 2.0's; for-loop = PyTorch < 2.0 or\n"
    "                     transformers' own AdamW/Adafactor: a few small kernels per parameter tensor, with per-tensor\n"
    "                     gradient clipping; fused = one kernel, e.g. AdamW(fused=True), apex FusedAdam).\n"
    "                     adamw-8bit (bitsandbytes) and lion (lion-pytorch) always loop; adafactor has no fused\n"
    "                     kernel (foreach then). ZeRO/FSDP loop over flat partitions, not the model's tensors\n"
    "  method             full | frozen-backbone | lora | qlora (default full); qlora needs precision nf4,\n"
    "                     int8/nf4 need lora, qlora or frozen-backbone\n"
    "  lora               {\"rank\": 16, \"targets\": [q, k, v, o, qkv, gate, up, down, fc1, fc2], \"dropout\": 0}\n"
    "                     (targets default: q and v, as PEFT). Targets may also be the model's own module names as\n"
    "                     PEFT takes them (q_proj, c_attn, query_key_value, dense...) or all-linear; a target the\n"
    "                     model does not have is an error that lists the ones it has\n"
    "  checkpointing      none | selective (attention core recomputed) | full (layer inputs kept) (default none;\n"
    "                     the stack's own default, see stack; full for a 16-bit transformer without a precision)\n"
    "  attention          eager (keeps the s x s scores) | sdpa | flash (default sdpa; flash needs 16-bit)\n"
    "  memory_format      nchw | channels_last (default nchw, PyTorch's; channels_last = model and inputs\n"
    "                     .to(memory_format=torch.channels_last): no layout transposes around 16-bit convolutions)\n"
    "  gpu                {\"id\": GPU id from data/gpus.json, \"count\": 1, \"strategy\": ddp|zero1|zero2|zero3|fsdp|dp\n"
    "                      (dp = torch.nn.DataParallel: the report's data_parallel gives GPU 0 and the other cards\n"
    "                      apart and what DDP would save),\n"
    "                      \"interconnect\": pcie3|pcie4|pcie5|nvlink-bridge|nvlink|ib|ethernet,\n"
    "                      \"network\": the network between servers, per 8-GPU server, when the job spans several\n"
    "                      (more than 8 GPUs, or interconnect ib|ethernet): ib-hdr (default; 8 x 200 Gb/s) | ib-ndr\n"
    "                      (8 x 400) | roce-200g (8 x 200) | roce-800g | efa-400g (AWS p4d) | efa-3200g (AWS p5) |\n"
    "                      ethernet-100g | ethernet-25g (default for interconnect ethernet) | ethernet-10g\n"
    "                      \"peer_to_peer\": true|false (false = NCCL_P2P_DISABLE=1: collectives through host\n"
    "                      memory, NVLink unused; default: the card's, GeForce RTX 40-series and later have none),\n"
    "                      \"grad_reduce_dtype\": fp32|fp16|bf16 (the dtype gradients are all-reduced in; default:\n"
    "                      their own, fp32 under AMP; fp16 = DDP fp16_compress_hook, apex amp O2, DeepSpeed fp16),\n"
    "                      \"ecc\": true|false (ECC on your own GDDR card with ECC: false gives back the 1/16 its\n"
    "                      check bits take, a T4's 1 GiB; default: as the card ships, on for data-centre cards;\n"
    "                      refused on cards without ECC and on HBM cards, where it frees nothing),\n"
    "                      Megatron-LM model parallelism, transformers only (count = tensor x pipeline x replicas):\n"
    "                      \"tensor_parallel\": 1 (heads and FFN split over this many GPUs; must divide them),\n"
    "                      \"sequence_parallel\": false (norms and dropout split along the sequence; needs TP),\n"
    "                      \"pipeline_parallel\": 1 (layer stages; grad_accum_steps = micro-batches per step),\n"
    "                      \"pipeline_interleave\": 1 (layer chunks per GPU; > 1 = interleaved 1F1B, needs\n"
    "                      grad_accum_steps a multiple of pipeline_parallel); strategy ddp or zero1 with them}\n"
    "  reserve_fraction   an extra share of the card kept free on top of the headroom, 0..0.9 (default 0)\n"
    "  stack              hf-trainer (default) | llama-factory | unsloth | torchtune | axolotl: each stack's\n"
    "                     documented defaults (unsloth: fused cross-entropy and offloaded checkpointing; torchtune:\n"
    "                     CEWithChunkedOutputLoss; the others: transformers' loss)\n"
    "  stack_options      {\"liger_kernel\" (hf-trainer, llama-factory, axolotl: fused linear cross-entropy),\n"
    "                      \"use_unsloth\" (llama-factory), \"packing\" (every sequence seq_len tokens, no\n"
    "                      padding), \"offload_activations\" (unsloth, torchtune, axolotl; needs checkpointing full),\n"
    "                      \"paged_optimizer\" (bitsandbytes paged AdamW: states leave the forward/backward)}\n"
    "  display            auto (default: a desktop on an owned consumer/workstation card, 793 MiB) | none |\n"
    "                     linux-desktop (74 MiB) | windows-desktop (793 MiB): counted in the headroom\n"
    "  eval_batch_size    evaluation during training at this batch (0 = none): its logits count in the headroom\n"
    "  longest_seq_len    the longest sample when samples vary and are not packed: its extra counts in the headroom\n"
    "  offload_optimizer  true: optimizer states (+ fp32 master weights and gradients) in host RAM\n"
    "  ema                true: an exponential moving average of the trainable weights, kept on the GPU in their\n"
    "                     dtype and updated after every optimizer step (Ultralytics YOLO, timm --model-ema,\n"
    "                     diffusers --use_ema); counted in memory_bytes.optimizer and the optimizer step time.\n"
    "                     Default: true for YOLO models (Ultralytics' trainer always keeps one), false otherwise\n"
    "  frozen_weights_16bit  under fp16-amp/bf16-amp with lora or frozen-backbone: true = the weights that do not\n"
    "                     train are stored in the 16-bit dtype (no fp32 copy, no autocast copies). Default true for\n"
    "                     SD LoRA (diffusers casts the frozen UNet), false otherwise (transformers loads fp32)\n"
    "  precomputed_latents  SD models (sd-1.5, sdxl-unet): true = VAE latents and text embeddings were computed\n"
    "                     before training, so the frozen VAE and text encoders neither run per step nor sit on\n"
    "                     the GPU. Default as diffusers' scripts do: true for the SDXL full fine-tune (it encodes\n"
    "                     the dataset first), false otherwise (they encode every batch: time.input_encoder_s)\n"
    "  dataset            {\"samples\" (whole, >= 1), \"epochs\" (>= 0.001)} or {\"tokens\" (>= 1; language models)}\n"
    "                     (used by the time and cost estimates), and optionally \"loader_samples_per_s\": what the\n"
    "                     input pipeline delivers per GPU (>= 0.001; absent = it keeps up); a slower loader sets\n"
    "                     the step time\n"
    "  tunables           {\"cuda_context_bytes\" (default 419430400), \"fragmentation_fraction\" (0.1),\n"
    "                      \"cublas_workspace_bytes\" (8519680), \"cudnn_workspace_bytes\" (0),\n"
    "                      \"optimizer_temp_fraction\" (1.0), \"zero_grad_set_to_none\" (true; false = torch < 2.0)}\n"
    "                     sources in docs/memory-model.md\n"
    "\n"
    "Output keys: params {total, trainable, per_gpu}; memory_bytes {weights, gradients, optimizer, activations,\n"
    "temporary, framework, peak_allocated, reserved, nvidia_smi, model_states, autocast_weight_copies} (per GPU: under\n"
    "pipeline parallelism of pipeline_stage, the fuller of the first and last); in_flight_micro_batches; peak_phase;\n"
    "host_ram_bytes;\n"
    "gpu {id, count, memory_bytes (nvidia-smi's total: the card the verdict compares with), datasheet_memory_bytes,\n"
    "ecc_on, ecc_reserved_bytes, visible_memory_source, usable_bytes, reserve_fraction};\n"
    "verdict (fits: nvidia_smi plus the headroom within the card; tight: within the card only; does_not_fit);\n"
    "headroom_bytes {display, long_sample, evaluation, reserve, total}; fits (verdict fits); fits_without_reserve\n"
    "(fits or tight); max_batch_size (with the headroom); stack {name, loss_kernel, offload_activations, packing,\n"
    "host_activation_bytes, offload_pcie_bytes_per_step}; explain {figure: {formula, bytes, operands}}.\n"
    "Exit codes: 0 ok; 1 the file could not be read; 2 bad scenario (messages on standard error)." GG_SCENARIO_OPTIONS_HELP;

const bool kRegistered = register_command(
    {"estimate", "gpuguide estimate SCENARIO.json|- [--user-data FILE]", "memory report of a training scenario (JSON)", kHelp, run});

}  // namespace
}  // namespace gg::cli
