// The rules of the scenario keys that need more than a type and a range (scenario_key_rules.h): reading the model,
// the lists and the card; the defaults that depend on other keys; the checks of one key against others, and of the
// combinations once every key is read. Each message names the key and says what to write instead.
#include "catalog/scenario_key_rules.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "catalog/compat_data.h"
#include "catalog/gan_models.h"
#include "catalog/hf_config.h"
#include "catalog/loader_json.h"
#include "catalog/scenario_custom.h"

namespace gg::catalog::scenario_detail {

using nlohmann::json;

// ---- one key ------------------------------------------------------------------------------------------------
// "model": a preset id, a Hugging Face config.json ({"hf_config": ...}) or a custom object (scenario_custom.cpp).
bool read_model(KeyContext& c) {
    Scenario& s = c.s;
    Reader& r = c.r;
    const json& doc = c.doc;
    if (!doc.contains("model")) {
        r.problem("/model", "'model' is required: a preset id (gpuguide models) or a custom object with 'family'");
    } else if (doc["model"].is_string()) {
        const std::string id = doc["model"].get<std::string>();
        const engine::ModelSpec* p = engine::find_preset(id);
        std::vector<std::string> ids;
        for (const auto& m : engine::preset_models()) ids.push_back(m.id);
        if (p == nullptr && find_gan_preset(id) != nullptr)  // GAN scenarios are read by gan_scenario.cpp
            r.problem("/model", "'" + id + "' is a GAN (two networks, docs/gan.md): gpuguide estimate, rank and advise "
                                "take it; this input takes one-network models only");
        else if (p == nullptr) r.problem("/model", "unknown model '" + id + "'; presets: " + join(ids));
        else if (!p->available)
            r.problem("/model", "model '" + id + "' is listed but its memory graph is not implemented yet; choose another preset");
        else {
            s.model_id = id;
            s.model = *p;
            c.model_ok = true;
        }
    } else if (doc["model"].is_object() && doc["model"].contains("hf_config")) {
        // A Hugging Face config.json, read as transformers reads it (catalog/hf_config.h).
        const std::size_t before = r.problems->size();
        r.unknown_keys(doc["model"], "/model", {"hf_config"});
        engine::ModelSpec m;
        if (parse_hf_config(doc["model"]["hf_config"], r.file, "/model/hf_config", m, *r.problems)) s.model = m;
        s.custom_model = json{{"hf_config", doc["model"]["hf_config"]}};
        s.model_id = "custom";
        c.model_ok = r.problems->size() == before;
    } else if (doc["model"].is_object()) {
        const std::size_t before = r.problems->size();
        s.model = parse_custom(doc["model"], r, s.custom_model);
        s.model_id = "custom";
        c.model_ok = r.problems->size() == before;
    } else {
        r.problem("/model", "'model' must be a preset id (string) or a custom model object");
    }
    return c.model_ok;
}

void check_image_size(KeyContext& c, bool read) {
    Scenario& s = c.s;
    Reader& r = c.r;
    if (!read || !c.model_ok) return;
    if (!s.model.is_vision) {
        r.problem("/image_size", "'image_size' applies to vision models only; '" + s.model_id +
                                     "' takes 'seq_len'");
    } else if (s.model.family == engine::Family::kVit && s.image_size % s.model.patch != 0) {
        r.problem("/image_size", "'image_size' must be a multiple of the patch size " +
                                     std::to_string(s.model.patch));
    } else if (s.model.family == engine::Family::kSdUnet &&
               s.image_size % (8 << (s.model.channel_mult.size() - 1)) != 0) {
        r.problem("/image_size", "'image_size' must be a multiple of " +
                                     std::to_string(8 << (s.model.channel_mult.size() - 1)) +
                                     " for this diffusion UNet (8x VAE, then one halving per level)");
    } else if (s.model.family == engine::Family::kYolo && s.image_size % 32 != 0) {
        r.problem("/image_size", "'image_size' must be a multiple of 32 for YOLO (stride 32)");
    } else if (s.model.family == engine::Family::kUnet && s.image_size % (1 << s.model.unet_depth) != 0) {
        r.problem("/image_size", "'image_size' must be a multiple of " +
                                     std::to_string(1 << s.model.unet_depth) + " for this U-Net (one halving per level)");
    } else if (s.image_size < 32) {
        r.problem("/image_size", "'image_size' must be at least 32");
    }
}

void check_seq_len(KeyContext& c, bool read) {
    Scenario& s = c.s;
    Reader& r = c.r;
    if (!read || !c.model_ok) return;
    if (s.model.is_vision)
        r.problem("/seq_len", "'seq_len' applies to sequence models only; '" + s.model_id +
                                  "' takes 'image_size'");
    else if (s.model.max_positions > 0 && (s.model.family == engine::Family::kEncoder ||
                                           s.model.position == engine::PositionKind::kLearned) &&
             s.seq_len > s.model.max_positions - (s.model_id == "roberta-base" ? 2 : 0))
        r.problem("/seq_len", "'seq_len' must be at most " + std::to_string(s.model.max_positions) +
                                  " (the model's learned position embeddings)");
}

void default_precision(KeyContext& c) {
    Scenario& s = c.s;
    const json& doc = c.doc;
    const bool model_ok = c.model_ok;
    const Catalog& cat = c.cat;
    // What a scenario without "precision" means: what people run the model with (issue 40: an 8B LoRA was estimated in
    // fp32 by default). A transformer whose checkpoint is saved in 16 bits trains under bf16 autocast, fp16 on a card
    // without bf16 (TRL's SFTConfig: "bf16: Defaults to True if fp16 is not set"; LLaMA-Factory's examples set bf16),
    // with gradient checkpointing (SFTConfig: "gradient_checkpointing: Defaults to True") and its weights loaded as
    // saved (transformers v5 from_pretrained defaults to dtype="auto", huggingface/transformers PR #42805); QLoRA's
    // base is NF4. Everything else keeps PyTorch's fp32.
    s.precision_defaulted = !doc.contains("precision") && model_ok;
    if (s.precision_defaulted) {
        bool card_bf16 = true;  // no card named: bf16, what current cards run
        if (doc.contains("gpu") && doc["gpu"].is_object() && doc["gpu"].contains("id") && doc["gpu"]["id"].is_string())
            if (const engine::GpuSpec* gpu = cat.find_gpu(doc["gpu"]["id"].get<std::string>()))
                card_bf16 = engine::precision_supported(*gpu, engine::Precision::kBf16Amp, embedded_compat_data());
        const bool saved_16bit = s.model.checkpoint_dtype == "bfloat16" || s.model.checkpoint_dtype == "float16";
        if (s.method == "qlora") {
            s.precision = "nf4";
        } else if (saved_16bit) {
            s.precision = card_bf16 ? "bf16-amp" : "fp16-amp";
            // The Trainer's stack (TRL's SFTTrainer runs on it); the other stacks keep their own defaults below.
            const bool trainer = !doc.contains("stack") || doc["stack"] == "hf-trainer";
            if (!doc.contains("checkpointing") && trainer && s.model.family == engine::Family::kDecoder)
                s.checkpointing = "full";
        }
    }
}

void check_frozen_weights_16bit(KeyContext& c, bool) {
    Scenario& s = c.s;
    Reader& r = c.r;
    if (s.frozen_weights_16bit && !s.frozen_weights_16bit_applies())
        r.problem("/frozen_weights_16bit", "'frozen_weights_16bit' needs precision fp16-amp or bf16-amp and a method "
                                           "that freezes weights (lora, frozen-backbone); pure bf16 keeps every weight "
                                           "in 16 bits already");
}

void check_precomputed_latents(KeyContext& c, bool) {
    Scenario& s = c.s;
    Reader& r = c.r;
    const json& doc = c.doc;
    const bool model_ok = c.model_ok;
    if (doc.contains("precomputed_latents") && model_ok && !engine::has_input_encoders(s.model))
        r.problem("/precomputed_latents", "'precomputed_latents' applies to the SD pipelines (sd-1.5, sdxl-unet), "
                                          "whose frozen VAE and text encoders run before the UNet");
}

void check_stack(KeyContext& c, bool read) {
    Scenario& s = c.s;
    Reader& r = c.r;
    const json& doc = c.doc;
    const bool model_ok = c.model_ok;
    // The fine-tuning stacks other than transformers' Trainer train causal language models only.
    if (read && model_ok && s.stack != "hf-trainer" &&
        s.model.family != engine::Family::kDecoder)
        r.problem("/stack", "stack '" + s.stack + "' fine-tunes decoder language models; '" +
                                (s.model_id == "custom" ? s.model.name : s.model_id) + "' is a " +
                                engine::family_name(s.model.family) + " model (use 'hf-trainer', the default)");
    // A scenario without "checkpointing" gets its stack's default: LLaMA-Factory checkpoints unless told
    // (ModelArguments.disable_gradient_checkpointing defaults to False), Unsloth always does (its "unsloth" mode),
    // torchtune's configs set enable_activation_checkpointing: True; transformers' TrainingArguments and axolotl
    // leave gradient_checkpointing off.
    if (!doc.contains("checkpointing") && (s.stack == "llama-factory" || s.stack == "unsloth" || s.stack == "torchtune"))
        s.checkpointing = "full";
}

void check_compile(KeyContext& c, bool) {
    Scenario& s = c.s;
    Reader& r = c.r;
    if (s.compile && s.stack != "torchtune")
        r.problem("/stack_options/compile", "'compile' is modelled for torchtune (compile: True compiles its "
                                            "chunked loss); other stacks' torch.compile is not modelled");
}

void check_paged_optimizer(KeyContext& c, bool) {
    Scenario& s = c.s;
    Reader& r = c.r;
    if (s.paged_optimizer && s.optimizer != "adamw" && s.optimizer != "adamw-8bit")
        r.problem("/stack_options/paged_optimizer", "bitsandbytes pages AdamW only (paged_adamw_32bit, "
                                                    "paged_adamw_8bit): set 'optimizer' to adamw or adamw-8bit");
}

void note_offload_activations(KeyContext& c, bool read) {
    if (read) c.s.offload_activations_set = true;
}

// The switches against the stack and the model, once every switch is read.
void check_stack_options(KeyContext& c, bool) {
    Scenario& s = c.s;
    Reader& r = c.r;
    const bool model_ok = c.model_ok;
    // Which stack exposes which switch (their documented options; docs/memory-model.md sec. 10).
    if (s.liger_kernel && s.stack != "hf-trainer" && s.stack != "llama-factory" && s.stack != "axolotl")
        r.problem("/stack_options/liger_kernel", "'liger_kernel' is a switch of hf-trainer (use_liger_kernel), "
                                                 "llama-factory (enable_liger_kernel) and axolotl (the Liger "
                                                 "plugin); stack '" + s.stack + "' has no such switch");
    if (s.use_unsloth && s.stack != "llama-factory")
        r.problem("/stack_options/use_unsloth", "'use_unsloth' is LLaMA-Factory's switch (stack "
                                                "'llama-factory'); for Unsloth itself set 'stack': 'unsloth'");
    // The fused loss, Unsloth's kernels and packing work on token sequences of a language model: on an image
    // model they would change nothing and be reported as if they had.
    const bool decoder = s.model.family == engine::Family::kDecoder;
    if (model_ok)
        for (const auto& [on, key] : {std::pair{s.liger_kernel && !decoder, "liger_kernel"},
                                      std::pair{s.use_unsloth && !decoder, "use_unsloth"},
                                      std::pair{s.packing && s.model.is_vision, "packing"}})
            if (on)
                r.problem(std::string("/stack_options/") + key,
                          "'" + std::string(key) + "' applies to decoder language models (token sequences and "
                          "a vocabulary loss); '" + (s.model_id == "custom" ? s.model.name : s.model_id) +
                          "' is a " + engine::family_name(s.model.family) + " model");
    if (s.offload_activations && s.stack != "unsloth" && s.stack != "torchtune" && s.stack != "axolotl")
        r.problem("/stack_options/offload_activations",
                  "'offload_activations' is a switch of unsloth (use_gradient_checkpointing=\"unsloth\"), "
                  "torchtune (enable_activation_offloading) and axolotl (gradient_checkpointing: offload)");
    if (s.offload_activations_set && s.offload_activations && s.checkpointing != "full")
        r.problem("/stack_options/offload_activations", "offloaded activations are the inputs torch.utils.checkpoint "
                                                        "keeps: they need 'checkpointing': 'full'");
}

void check_longest_seq_len(KeyContext& c, bool read) {
    Scenario& s = c.s;
    Reader& r = c.r;
    if (!read || !c.model_ok) return;
    const int seq = s.seq_len > 0 ? s.seq_len : s.model.default_seq_len;
    if (s.model.is_vision)
        r.problem("/longest_seq_len", "'longest_seq_len' applies to sequence models only");
    else if (s.longest_seq_len < seq)
        r.problem("/longest_seq_len", "'longest_seq_len' (the longest sample) must be at least seq_len (" +
                                          std::to_string(seq) + ")");
    else if (s.model.max_positions > 0 && s.model.position == engine::PositionKind::kLearned &&
             s.longest_seq_len > s.model.max_positions)
        r.problem("/longest_seq_len", "'longest_seq_len' must be at most " +
                                          std::to_string(s.model.max_positions) +
                                          " (the model's learned position embeddings)");
}

bool read_lora_targets(KeyContext& c) {
    Scenario& s = c.s;
    Reader& r = c.r;
    if (!c.object->contains("targets")) return false;
    const json& l = *c.object;
    const json& t = l["targets"];
    bool ok = t.is_array() && !t.empty();
    std::vector<std::string> targets;
    if (ok)
        for (const json& x : t) {
            // Short role names (kLoraTargets), the model's own module names or "all-linear", as PEFT
            // takes them; whether the model has them is checked below, once the model is known.
            if (!x.is_string() || x.get<std::string>().empty() || x.get<std::string>().size() > 200) ok = false;
            else if (index_of(targets, x.get<std::string>()) < 0) targets.push_back(x.get<std::string>());
        }
    if (!ok)
        r.problem("/lora/targets", "'targets' must be a non-empty list of module names (" +
                                       join(kLoraTargets) + ", the model's own such as q_proj or c_attn, "
                                       "or all-linear)");
    else s.lora_targets = targets;
    return ok;
}

void check_lora(KeyContext& c, bool) {
    Scenario& s = c.s;
    Reader& r = c.r;
    if (s.method != "lora" && s.method != "qlora")
        r.problem("/lora", "'lora' settings need 'method': 'lora' or 'qlora' (method is '" + s.method + "')");
}

bool read_gpu_id(KeyContext& c) {
    Scenario& s = c.s;
    Reader& r = c.r;
    const Catalog& cat = c.cat;
    const json& g = *c.object;
    if (!g.contains("id")) return false;
    if (!g["id"].is_string()) r.problem("/gpu/id", "'id' must be a GPU id string (gpuguide gpus)");
    else {
        s.gpu_id = g["id"].get<std::string>();
        if (cat.find_gpu(s.gpu_id) == nullptr)
            r.problem("/gpu/id", "unknown GPU '" + s.gpu_id + "' (see the GPU list in data/gpus.json)");
    }
    return true;
}

void check_network(KeyContext& c, bool read) {
    Scenario& s = c.s;
    Reader& r = c.r;
    if (!read) return;
    if (const char* kind = network_conflict(s))
        r.problem("/gpu/network", "network '" + s.network + "' is " + kind + ", but 'interconnect' says '" +
                                      s.interconnect + "': leave one out or make them agree");
}

void check_peer_to_peer(KeyContext& c, bool read) {
    Scenario& s = c.s;
    Reader& r = c.r;
    const Catalog& cat = c.cat;
    s.peer_to_peer_set = read;
    // Peer-to-peer the card does not have would make its collectives faster than they run: refused by key.
    // An NVLink bridge gives GeForce cards peer-to-peer over the bridge (interconnect "nvlink-bridge").
    if (s.peer_to_peer_set && s.peer_to_peer && !s.gpu_id.empty())
        if (const engine::GpuSpec* gpu = cat.find_gpu(s.gpu_id);
            gpu != nullptr && !engine::pcie_peer_to_peer_capable(*gpu) &&
            !(s.interconnect == "nvlink-bridge" && gpu->nvlink_bytes_per_s > 0))
            r.problem("/gpu/peer_to_peer", "'peer_to_peer': true needs PCIe peer-to-peer, which NVIDIA's driver "
                                           "does not give " + gpu->name + " (a GeForce RTX card: its collectives "
                                           "go through host memory); leave it out, or with an NVLink bridge set "
                                           "'interconnect': 'nvlink-bridge'");
}

bool read_ecc(KeyContext& c) {
    Scenario& s = c.s;
    Reader& r = c.r;
    const Catalog& cat = c.cat;
    // ECC on or off on the user's own card: refused by key where it changes nothing (engine/card_memory.h).
    bool ecc = true;
    if (!r.boolean(*c.object, "ecc", c.pointer, ecc)) return false;
    s.ecc = ecc ? engine::EccSetting::kOn : engine::EccSetting::kOff;
    if (const engine::GpuSpec* gpu = cat.find_gpu(s.gpu_id); gpu != nullptr && !gpu->ecc)
        r.problem("/gpu/ecc", gpu->name + " has no ECC memory: leave 'ecc' out");
    else if (gpu != nullptr && !engine::ecc_in_band(*gpu))
        r.problem("/gpu/ecc", gpu->name + " keeps ECC's check bits outside its " + gpu->memory_type +
                                  " memory, so turning ECC off or on frees nothing: leave 'ecc' out");
    return true;
}

bool read_loader(KeyContext& c) {
    const std::size_t before = c.r.problems->size();
    parse_loader_key(*c.object, c.s, *c.r.problems, c.r.file);  // catalog/loader_json.cpp
    return c.object->contains("loader") && c.r.problems->size() == before;
}

void check_samples(KeyContext& c, bool read) {
    Scenario& s = c.s;
    Reader& r = c.r;
    if (!read) return;
    const json& d = *c.object;
    if (s.dataset_samples != std::floor(s.dataset_samples)) {
        r.problem("/dataset/samples", "'samples' must be a whole number of samples (got " + d["samples"].dump() + ")");
        s.dataset_samples = 0;
    }
}

void check_dataset(KeyContext& c, bool) {
    Scenario& s = c.s;
    Reader& r = c.r;
    const bool model_ok = c.model_ok;
    const json& d = *c.object;
    if (d.contains("tokens") && d.contains("samples"))
        r.problem("/dataset", "give either 'samples' (+ 'epochs') or 'tokens', not both");
    if (d.contains("tokens") && model_ok && s.model.is_vision)
        r.problem("/dataset/tokens", "'tokens' counts text; '" + s.model_id + "' trains on images: give "
                                         "'samples' (images per epoch) and 'epochs'");
}

void note_tunables(KeyContext& c, bool) { c.s.has_tunables = true; }

void check_fp32_modules(KeyContext& c, bool) {
    Scenario& s = c.s;
    Reader& r = c.r;
    const bool quantized = s.precision == "int8" || s.precision == "nf4";
    if (!c.object->contains("fp32_modules")) return;
    if (!quantized)
        r.problem("/fp32_modules", "'fp32_modules' says which unquantized modules of a bitsandbytes model (precision "
                                   "int8 or nf4) train in fp32; with precision '" + s.precision +
                                   "' every module follows the precision");
}


// ---- combinations, once every key is read -------------------------------------------------------------------
namespace {

// Precision against method and attention.
void check_precision_and_method(KeyContext& c) {
    Scenario& s = c.s;
    Reader& r = c.r;
    const bool model_ok = c.model_ok;
    const bool quantized = s.precision == "int8" || s.precision == "nf4";
    if (s.method == "qlora" && s.precision != "nf4")
        r.problem("/precision", "method 'qlora' needs precision 'nf4' (4-bit base weights); got '" + s.precision + "'");
    if (quantized && s.method == "full")
        r.problem("/method", "precision '" + s.precision + "' stores frozen quantized weights; use method 'lora', "
                             "'qlora' or 'frozen-backbone'");
    if (s.attention == "flash" && (s.precision == "fp32" || s.precision == "tf32"))
        r.problem("/attention", "FlashAttention runs in fp16/bf16 only; use precision fp16-amp, bf16-amp, bf16, or "
                                "attention 'sdpa'/'eager'");
    if (model_ok && s.method == "frozen-backbone" && s.model.family == engine::Family::kDecoder && !s.model.lm_head)
        r.problem("/method", "frozen-backbone needs a task head");
}

// LoRA against the model's layers: the targets it has, and a rank no wider than the layers it adapts.
void check_lora_layers(KeyContext& ctx) {
    Scenario& s = ctx.s;
    Reader& r = ctx.r;
    const bool model_ok = ctx.model_ok;
    if (!(model_ok && (s.method == "lora" || s.method == "qlora"))) return;
    if (!s.lora_targets.empty()) {
        const LoraTargets resolved = resolve_lora_targets(s.model, s.lora_targets);
        for (const std::string& t : resolved.unknown)
            r.problem("/lora/targets", "'" + (s.model_id == "custom" ? s.model.name : s.model_id) + "' has no module '" +
                                           t + "' for LoRA to adapt; it has: " +
                                           join(resolved.available));
    }
    engine::TrainingConfig c = s.training_config();
    engine::WorkloadShape shape;
    shape.image_size = s.model.is_vision ? 32 : 0;
    if (s.model.family == engine::Family::kVit) shape.image_size = s.model.image_size;
    shape.seq_len = s.model.is_vision ? 0 : 2;
    const engine::Graph g = engine::build_graph(s.model, shape, {});
    bool any = false;
    int narrowest = 0;  // the smallest in/out width among the adapted Linears
    for (const engine::Layer& l : g.layers) {
        if (l.in_features <= 0 || l.kind != engine::OpKind::kMatmul) continue;
        const auto& t = c.lora.targets;
        if (t.empty() ? (l.role == engine::ParamRole::kQ || l.role == engine::ParamRole::kV ||
                         l.role == engine::ParamRole::kQkv)
                      : std::find(t.begin(), t.end(), l.role) != t.end()) {
            any = true;
            // A Linear to one value (Qwen2-MoE's shared_expert_gate, which all-linear adapts as PEFT does) carries
            // no features: the rank limit below is about the layers that do.
            const int width = l.out_features > 0 ? std::min(l.in_features, l.out_features) : l.in_features;
            if (l.out_features != 1) narrowest = narrowest == 0 ? width : std::min(narrowest, width);
        }
    }
    if (!any) {
        // What the model has, so the message says what to write (DeepSeek-V3's MLA has no q_proj or v_proj).
        const LoraTargets have = resolve_lora_targets(s.model, {"(none)"});
        r.problem("/lora/targets", std::string(s.lora_targets.empty() ? "PEFT's default LoRA targets (q and v) "
                                                                        "are not"
                                                                      : "none of the LoRA targets is") +
                                       " in '" + (s.model_id == "custom" ? s.model.name : s.model_id) +
                                       "'; set 'lora': {'targets': [...]} from what it has: " + join(have.available));
    }
    // A rank above a layer's width gives the adapter (rank x (in + out)) more parameters than the layer itself
    // and no more expressive power than full fine-tuning of it.
    else if (narrowest > 0 && s.lora_rank > narrowest)
        r.problem("/lora/rank", "'rank' (" + std::to_string(s.lora_rank) + ") must be at most " +
                                    std::to_string(narrowest) + ", the width of the narrowest layer LoRA adapts in '" +
                                    (s.model_id == "custom" ? s.model.name : s.model_id) + "' (typical ranks are 4 to 64)");
}

void check_data_parallel(KeyContext& c) {
    Scenario& s = c.s;
    Reader& r = c.r;
    // torch.nn.DataParallel is one process on one machine (its replicas are threads), with no optimizer offload.
    if (s.strategy == "dp") {
        if (s.gpu_count > 16)
            r.problem("/gpu/count", "strategy 'dp' (torch.nn.DataParallel) drives the GPUs of one machine from one "
                                    "process: at most 16, got " + std::to_string(s.gpu_count) + "; use 'ddp' across machines");
        if (s.offload_optimizer)
            r.problem("/offload_optimizer", "optimizer offload is DeepSpeed's (ZeRO-Offload); strategy 'dp' "
                                            "(torch.nn.DataParallel) has none");
    }
}

void check_model_parallel(KeyContext& c) {
    Scenario& s = c.s;
    Reader& r = c.r;
    const bool model_ok = c.model_ok;
    const bool quantized = s.precision == "int8" || s.precision == "nf4";
    // Tensor / pipeline parallelism: Megatron-LM's layout for transformers (engine/memory.h TrainingConfig).
    const int tp = s.tensor_parallel, pp = s.pipeline_parallel;
    if (tp > 1 || pp > 1) {
        const long long slice = (long long)tp * pp;
        if (s.gpu_count % slice != 0)
            r.problem("/gpu/count", "'count' (" + std::to_string(s.gpu_count) + ") must be a multiple of tensor_parallel x "
                                    "pipeline_parallel (" + std::to_string(tp) + " x " + std::to_string(pp) + " = " +
                                    std::to_string(slice) + "): the GPUs of one model copy");
        if (s.strategy != "ddp" && s.strategy != "zero1")
            r.problem("/gpu/strategy", "with tensor or pipeline parallelism the replicas use 'ddp' or 'zero1' "
                                       "(Megatron-LM's distributed optimizer); got '" + s.strategy + "'");
        if (s.method == "lora" || s.method == "qlora" || quantized)
            r.problem("/method", "tensor and pipeline parallelism are modelled for full training and frozen backbones "
                                 "in 16/32-bit, not for LoRA/QLoRA or int8/nf4 weights");
        if (s.offload_optimizer)
            r.problem("/offload_optimizer", "optimizer offload is not modelled with tensor or pipeline parallelism");
        if (model_ok) {
            const engine::Family f = s.model.family;
            if (!engine::is_transformer(f)) {
                r.problem(tp > 1 ? "/gpu/tensor_parallel" : "/gpu/pipeline_parallel",
                          "tensor and pipeline parallelism are modelled for transformers (Megatron-LM's layout); '" +
                              s.model_id + "' is a " + engine::family_name(f) + " model");
            } else {
                const int kv = s.model.kv_heads > 0 ? s.model.kv_heads : s.model.heads;
                if (tp > 1 && (s.model.heads % tp != 0 || kv % tp != 0 || s.model.ffn % tp != 0))
                    r.problem("/gpu/tensor_parallel", "'tensor_parallel' (" + std::to_string(tp) + ") must divide the "
                              "attention heads (" + std::to_string(s.model.heads) + "), the key/value heads (" +
                              std::to_string(kv) + ") and the FFN width (" + std::to_string(s.model.ffn) + ")");
                // Megatron-LM splits the layers evenly: num_layers divisible by the stages (x chunks when interleaved).
                const long long chunks = (long long)pp * s.pipeline_interleave;
                if (pp > 1 && s.model.layers % chunks != 0)
                    r.problem("/gpu/pipeline_parallel", "the model's " + std::to_string(s.model.layers) +
                              " layers must split evenly into pipeline_parallel x pipeline_interleave (" +
                              std::to_string(chunks) + ") parts");
                if (pp > 1 && s.model.shared_layers)
                    r.problem("/gpu/pipeline_parallel", "'" + s.model_id + "' shares one set of weights across its "
                              "layers (ALBERT): its layers cannot be split into pipeline stages");
                // Sequence parallelism splits the sequence t ways (Megatron asserts seq_length % t == 0).
                if (s.sequence_parallel && tp > 1) {
                    const engine::WorkloadShape shape = s.shape_per_sample();
                    const long long tokens = s.model.family == engine::Family::kVit && s.model.patch > 0
                        ? (long long)(shape.image_size / s.model.patch) * (shape.image_size / s.model.patch) + 1
                        : shape.seq_len;
                    if (tokens % tp != 0)
                        r.problem("/gpu/sequence_parallel", "sequence parallelism splits the " + std::to_string(tokens) +
                                  " tokens per sequence over tensor_parallel (" + std::to_string(tp) +
                                  ") GPUs: they must divide evenly");
                }
            }
        }
    }
    if (s.sequence_parallel && tp <= 1)
        r.problem("/gpu/sequence_parallel", "sequence parallelism splits what tensor parallelism replicates: it needs "
                                            "'tensor_parallel' > 1");
    if (s.pipeline_interleave > 1) {
        if (pp <= 1)
            r.problem("/gpu/pipeline_interleave", "'pipeline_interleave' > 1 needs 'pipeline_parallel' > 1");
        else if (s.grad_accum_steps % pp != 0)
            r.problem("/grad_accum_steps", "the interleaved schedule needs the micro-batches per step "
                                           "('grad_accum_steps', " + std::to_string(s.grad_accum_steps) +
                                           ") to be a multiple of 'pipeline_parallel' (" + std::to_string(pp) + ")");
    }
}

// Precision, attention and the link against the card named.
void check_card(KeyContext& c) {
    Scenario& s = c.s;
    Reader& r = c.r;
    const Catalog& cat = c.cat;
    if (!s.gpu_id.empty()) {
        if (const engine::GpuSpec* gpu = cat.find_gpu(s.gpu_id)) {
            const int cc = gpu->compute_capability_major * 10 + gpu->compute_capability_minor;
            if (gpu->vendor == "nvidia" && cc > 0) {
                if (s.precision == "fp8" && cc < 89)
                    r.problem("/precision", "fp8 needs FP8 tensor cores (compute capability 8.9+: Ada, Hopper); '" +
                                                s.gpu_id + "' has " + std::to_string(cc / 10) + "." + std::to_string(cc % 10));
                // TF32 is a setting, not a format: before Ampere PyTorch ignores allow_tf32 and runs FP32 (the
                // time engine's precision fallback). BF16 tensors fail or are emulated there: refused.
                if ((s.precision == "bf16" || s.precision == "bf16-amp") && cc < 80)
                    r.problem("/precision", "'" + s.precision + "' needs compute capability 8.0+ (Ampere or newer); '" +
                                                s.gpu_id + "' has " + std::to_string(cc / 10) + "." + std::to_string(cc % 10));
                if (s.attention == "flash" && cc < 80)
                    r.problem("/attention", "FlashAttention 2 needs compute capability 8.0+; use 'sdpa'");
            }
            if (!s.interconnect.empty() && !interconnect_possible(*gpu, s.interconnect))
                r.problem("/gpu/interconnect", "'" + s.interconnect + "' needs NVLink, which '" + s.gpu_id +
                                                   "' does not have; its cards talk over PCIe (pcie3, pcie4, pcie5) or, "
                                                   "across servers, ib / ethernet");
        }
    }
}

}  // namespace

void check_combinations(KeyContext& c) {
    check_precision_and_method(c);
    check_lora_layers(c);
    check_data_parallel(c);
    check_model_parallel(c);
    check_card(c);
}

}  // namespace gg::catalog::scenario_detail
