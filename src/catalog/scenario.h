// Scenario JSON (the `gpuguide estimate` input, validation cases, the page's links) <-> engine configuration.
// parse_scenario never throws or aborts: every problem is collected with its JSON pointer. scenario_to_json is
// its exact inverse (parse(to_json(s)) gives s back). No UI code here.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "engine/advisor.h"
#include "engine/card_memory.h"
#include "engine/memory.h"

namespace gg::catalog {

struct Scenario {
    std::string model_id;            // a preset id, or "custom"
    engine::ModelSpec model;         // the preset's spec, or the custom one
    nlohmann::json custom_model;     // the custom object as given (normalised), null for presets
    int batch_size = 1;
    int grad_accum_steps = 1;
    int image_size = 0;              // 0 = the model's default (vision only)
    int seq_len = 0;                 // 0 = the model's default (sequence models only)
    std::string precision = "fp32";
    // The scenario gave no precision: it got what people run the model with (parse_scenario_json), and a transformer
    // saved in 16 bits is loaded as saved (frozen_weights_16bit_default). scenario_to_json writes what it got.
    bool precision_defaulted = false;
    std::string optimizer = "adamw";
    std::string optimizer_impl = "foreach";  // "foreach" (torch >= 2.0 default) | "for-loop" (torch < 2.0) | "fused"
    std::string method = "full";
    int lora_rank = 16;
    std::vector<std::string> lora_targets;  // empty = PEFT default (q, v)
    double lora_dropout = 0;
    std::string checkpointing = "none";
    std::string attention = "sdpa";
    std::string memory_format = "nchw";  // "nchw" (PyTorch's default) | "channels_last" (convolution models)
    std::string gpu_id;              // "" = no card
    int gpu_count = 1;
    std::string strategy = "ddp";
    int tensor_parallel = 1;         // gpu.tensor_parallel: Megatron-LM tensor parallelism (heads / FFN split)
    int pipeline_parallel = 1;       // gpu.pipeline_parallel: pipeline stages (1F1B; micro-batches = grad_accum_steps)
    int pipeline_interleave = 1;     // gpu.pipeline_interleave: model chunks per GPU (interleaved 1F1B when > 1)
    bool sequence_parallel = false;  // gpu.sequence_parallel: norms/dropout split along the sequence (needs TP)
    // GPUs per model copy (tensor_parallel x pipeline_parallel; 1 = each GPU holds the whole model).
    int model_copy_gpus() const { return tensor_parallel * pipeline_parallel; }
    std::string interconnect;        // "" = not given
    std::string network;             // gpu.network: an inter-node row id of data/interconnects.json; "" = not given
    bool peer_to_peer = true;        // gpu.peer_to_peer: false = NCCL_P2P_DISABLE=1 (collectives staged through host)
    bool peer_to_peer_set = false;   // false = not given: the card's default (GeForce RTX 40+: no P2P)
    // gpu.ecc: the user turned ECC off (or on) on their own card; kDefault = as the card ships (engine/card_memory.h).
    engine::EccSetting ecc = engine::EccSetting::kDefault;
    std::string grad_reduce_dtype;   // gpu.grad_reduce_dtype: "" = the gradients' own dtype; "fp32", "fp16", "bf16"
    bool offload_optimizer = false;
    bool ema = false;                // an exponential moving average of the weights (Ultralytics, timm, diffusers);
                                     // when the scenario does not say, ema_default()
    bool precomputed_latents = false;  // SD pipelines: VAE latents + text embeddings computed before training;
                                       // when the scenario does not say, precomputed_latents_default()
    bool frozen_weights_16bit = false;  // frozen parameters stored in the 16-bit autocast dtype; when the scenario
                                        // does not say, frozen_weights_16bit_default()
    double reserve_fraction = 0;     // the user's own margin on top of the headroom (0 = none)
    // bitsandbytes models (int8/nf4): which unquantized modules train in fp32 ("none", "norms", "all";
    // engine::Fp32Modules); "" = the stack's default, fp32_modules_default().
    std::string fp32_modules;
    // The fine-tuning stack and the switches it exposes (docs/memory-model.md sec. 10), resolved by
    // stack_mechanisms() into what the engine models: the loss kernel, offloaded checkpointing, packing.
    std::string stack = "hf-trainer";
    bool liger_kernel = false;       // stack_options.liger_kernel: HF use_liger_kernel, LLaMA-Factory
                                     // enable_liger_kernel, axolotl's Liger plugin (fused linear cross-entropy)
    bool use_unsloth = false;        // stack_options.use_unsloth: LLaMA-Factory's Unsloth patch
    bool packing = false;            // stack_options.packing: LLaMA-Factory packing, axolotl sample_packing,
                                     // trl SFTConfig packing, torchtune dataset.packed
    bool compile = false;            // stack_options.compile: torchtune `compile: True` (the chunked loss compiled)
    bool paged_optimizer = false;    // stack_options.paged_optimizer: bitsandbytes' paged AdamW (HF/LLaMA-Factory/
                                     // axolotl optim paged_adamw_32bit / paged_adamw_8bit, torchtune PagedAdamW8bit)
    bool offload_activations = false;      // stack_options.offload_activations
    bool offload_activations_set = false;  // false = the stack's default
    // Headroom inputs (engine::judge_fit): the desktop on the card, evaluation during training, the longest sample.
    std::string display = "auto";    // "auto" | "none" | "linux-desktop" | "windows-desktop"
    int eval_batch_size = 0;         // 0 = no evaluation while training
    int longest_seq_len = 0;         // 0 = every sample is seq_len long (or packed)
    double dataset_samples = 0, dataset_epochs = 0, dataset_tokens = 0;  // 0 = not given
    double loader_samples_per_s = 0;  // dataset.loader_samples_per_s: what the input pipeline delivers per GPU (measured)
    // dataset.loader {pipeline, workers, cpus} (catalog/loader_json.h): "" = the pipeline the job implies
    std::string loader_pipeline;
    int loader_workers = -1;          // DataLoader num_workers per GPU; -1 = one per CPU
    int loader_cpus = 0;              // the user's machine's CPU threads (shared by its GPUs); 0 = unknown
    engine::Tunables tunables;
    bool has_tunables = false;       // the "tunables" object was given (written back only then)

    // What a scenario without "ema" means: the model's own trainer keeps an EMA (Ultralytics' ModelEMA, always on for
    // YOLO), otherwise none.
    bool ema_default() const { return model.family == engine::Family::kYolo; }
    // What a scenario without "precomputed_latents" means: what the model's diffusers script does (SDXL's full
    // fine-tune encodes the dataset first; every other script encodes each batch).
    bool precomputed_latents_default() const { return model.full_finetune_precomputes && method == "full"; }
    // Whether frozen_weights_16bit can apply (fp16/bf16 autocast, a method that freezes weights), and its default:
    // diffusers' LoRA scripts cast the frozen UNet to the mixed-precision dtype (unet.to(dtype=weight_dtype)).
    bool frozen_weights_16bit_applies() const {
        return (precision == "fp16-amp" || precision == "bf16-amp") && (method == "lora" || method == "frozen-backbone");
    }
    bool frozen_weights_16bit_default() const;
    // fp32_modules when the scenario does not say: what the stack does to a bitsandbytes model (scenario.cpp).
    std::string fp32_modules_default() const;
    std::string fp32_modules_effective() const { return fp32_modules.empty() ? fp32_modules_default() : fp32_modules; }  // engine::frozen_weights_16bit_default() of this scenario, or the stack's
    // Whether the stack loads the model in the autocast dtype (LLaMA-Factory, axolotl, Unsloth): its frozen weights
    // are 16-bit under fp16/bf16 autocast and it has no way to keep them fp32 (scenario.cpp).
    bool stack_loads_16bit() const;

    // What the stack and its switches mean for the engine (each stack's documented defaults, scenario.cpp).
    engine::LossKernel loss_kernel() const;
    bool offload_activations_effective() const;
    bool offload_activations_default() const;

    // The engine configuration and shape this scenario stands for (with longest_seq_len set, the longest sample's
    // extra bytes are computed here: two graph builds).
    engine::TrainingConfig training_config() const;
    // The largest micro-batch worth offering: the dataset's samples shared by the data-parallel replicas (a batch
    // larger than the dataset is no batch; issue 40); without a dataset, the solver's own limit.
    int batch_limit() const {
        constexpr int kSolverLimit = 1 << 20;
        if (!(dataset_samples > 0)) return kSolverLimit;
        const int replicas = std::max(1, gpu_count / std::max(1, model_copy_gpus()));
        const double per_replica = dataset_samples / replicas;
        return per_replica >= kSolverLimit ? kSolverLimit : std::max(1, int(per_replica));
    }
    engine::WorkloadShape shape_per_sample() const;  // batch 1, resolved image size / seq len
};

struct ParsedScenario {
    Scenario scenario;
    std::vector<Problem> problems;  // empty = valid
};

// `file` names the source in problems ("scenario.json", "-", "user data"). GPU ids are looked up in `catalog`
// (nullptr: the bundled one; the page passes the bundled catalog merged with the user's own GPUs).
ParsedScenario parse_scenario(std::string_view json_text, const std::string& file = "scenario",
                              const Catalog* catalog = nullptr);
ParsedScenario parse_scenario_json(const nlohmann::json& doc, const std::string& file = "scenario",
                                   const Catalog* catalog = nullptr);
// A key whose value is null is a key left out, as in a JSON merge patch (RFC 7396, sec. 2): a ranking's
// `plan.scenario` says "the card's own link" with `"interconnect": null`, and `estimate` takes that scenario as
// printed. The model's own description is kept as given (a Hugging Face config.json's `"sliding_window": null` is
// not the class default). Returns `doc` itself where it holds no null.
nlohmann::json scenario_without_nulls(const nlohmann::json& doc);
nlohmann::json scenario_to_json(const Scenario& scenario);

// The exact line that turns on an advisor's stack switch (engine::Change::kFusedLoss, kOffloadActivations) in a
// stack's own configuration, or nullptr when the stack has no such switch (or it is always on there).
const char* stack_switch_line(const std::string& stack, engine::Change change);

// Allowed values, for messages and --help.
extern const std::vector<std::string> kPrecisions, kOptimizers, kMethods, kCheckpointings, kAttentions, kStrategies,
    kInterconnects, kGradReduceDtypes, kMemoryFormats, kOptimizerImpls, kLoraTargets, kStacks, kDisplays;
// The values gpu.network takes: the ids of the inter-node rows of data/interconnects.json, in file order.
std::vector<std::string> network_ids();
// Keeps gpu.interconnect and gpu.network in agreement after one of them was edited (an interconnect of kind ib or
// ethernet and a network of the other kind is a problem at /gpu/network): a new network sets such an interconnect
// to its own kind; a new interconnect drops a network of the other kind (the interconnect's default row applies).
// The network's kind ("ib", "ethernet") when it contradicts an interconnect of kind ib or ethernet; else nullptr.
const char* network_conflict(const Scenario& scenario);
enum class NetworkEdit { kNetworkChanged, kLinkChanged };
// Whether gpu.interconnect `id` can link cards of this GPU: "nvlink" and "nvlink-bridge" need NVLink on the card
// (GpuSpec::nvlink_bytes_per_s); the others always can. The parser refuses the rest; the page offers only these.
bool interconnect_possible(const engine::GpuSpec& gpu, std::string_view id);
void align_network(Scenario& scenario, NetworkEdit edited);

}  // namespace gg::catalog
