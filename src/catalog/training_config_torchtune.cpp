// The torchtune reader (training_config.h): a recipe config (recipes/configs/<model>/*.yaml) with its key=value
// overrides, as lora_finetune_single_device.py / full_finetune_single_device.py read it, and the model builders of
// torchtune/models/<family>/_model_builders.py (lora_* and qlora_* = lora_* with quantize_base=True; LoRA defaults
// rank 8, dropout 0.0, no MLP, no output), at pytorch/torchtune bd2a0fc7 (0.7.0). docs/training-configs.md lists
// every key read.
#include <string>
#include <vector>

#include "catalog/training_config_reader.h"

namespace gg::catalog::config_detail {

namespace {

// torchtune's base builders -> the preset (or Hub name) they build. Their sizes are the Hugging Face checkpoints'.
struct Builder {
    const char* name;
    const char* preset;    // a data/models.json id, or "" when `hub_name` is looked up instead
    const char* hub_name;
};
constexpr Builder kBuilders[] = {
    {"llama3_1_8b", "llama-3.1-8b", ""},    {"llama3_1_70b", "llama-3.1-70b", ""},
    {"llama3_2_1b", "llama-3.2-1b", ""},    {"llama3_2_3b", "llama-3.2-3b", ""},
    {"llama3_8b", "", "meta-llama/Meta-Llama-3-8B"},
    {"llama2_7b", "llama-2-7b", ""},        {"llama2_13b", "llama-2-13b", ""},
    {"llama2_70b", "llama-2-70b", ""},      {"mistral_7b", "mistral-7b", ""},
    {"qwen2_5_0_5b", "qwen2.5-0.5b", ""},   {"qwen2_5_1_5b", "qwen2.5-1.5b", ""},
    {"qwen2_5_7b", "qwen2.5-7b", ""},       {"qwen2_5_14b", "qwen2.5-14b", ""},
    {"qwen2_5_32b", "qwen2.5-32b", ""},     {"qwen2_5_72b", "qwen2.5-72b", ""},
    {"qwen2_5_3b", "", "Qwen/Qwen2.5-3B"},
    // Qwen2 has Qwen2.5's architecture at these sizes (data/hub_names.json says so with its sources).
    {"qwen2_0_5b", "qwen2.5-0.5b", ""},     {"qwen2_1_5b", "qwen2.5-1.5b", ""},
    {"qwen2_7b", "qwen2.5-7b", ""},
    {"qwen3_0_6b", "", "Qwen/Qwen3-0.6B"},  {"qwen3_1_7b", "", "Qwen/Qwen3-1.7B"},
    {"qwen3_4b", "", "Qwen/Qwen3-4B"},      {"qwen3_8b", "", "Qwen/Qwen3-8B"},
    {"llama3_70b", "llama-3.1-70b", ""},    {"llama3_3_70b", "llama-3.1-70b", ""},
    {"gemma_2b", "", "google/gemma-2b"},    {"gemma_7b", "", "google/gemma-7b"},
    {"gemma2_2b", "", "google/gemma-2-2b"}, {"gemma2_9b", "", "google/gemma-2-9b"},
    {"gemma2_27b", "", "google/gemma-2-27b"},
    // Not phi3_mini / phi4_14b: torchtune splits Phi-3's fused qkv_proj and gate_up_proj into separate LoRA targets,
    // which the Hugging Face modules the engine builds do not have.
};

bool strip_prefix(std::string& s, const std::string& prefix) {
    if (s.rfind(prefix, 0) != 0) return false;
    s = s.substr(prefix.size());
    return true;
}

// "torchtune.models.llama3_1.qlora_llama3_1_8b" -> model, method; false when the builder is not one of kBuilders.
bool read_builder(ConfigReader& r, json& s, bool& lora, bool& quantized) {
    std::string component;
    r.text("model._component_", component);
    std::string name = component.substr(component.find_last_of('.') + 1);
    quantized = strip_prefix(name, "qlora_");
    lora = quantized || strip_prefix(name, "lora_");
    for (const char* suffix : {"_base", "_instruct"})
        if (name.size() > std::string(suffix).size() && name.compare(name.size() - std::string(suffix).size(), std::string::npos, suffix) == 0)
            name.resize(name.size() - std::string(suffix).size());
    for (const Builder& b : kBuilders) {
        if (name != b.name) continue;
        s["model"] = *b.preset ? json(b.preset) : model_for_hub_name(b.hub_name);
        return true;
    }
    r.problem("model._component_", in_quotes(component) + " is not a torchtune model builder gpuguide knows (Llama 2, "
                                   "Llama 3, 3.1, 3.2, 3.3 70B, Mistral 7B, Qwen2, Qwen2.5, Qwen3 up to 8B, Gemma, Gemma 2)");
    return false;
}

void read_lora(ConfigReader& r, json& s) {
    // lora_attn_modules: q_proj, k_proj, v_proj, output_proj (the Hugging Face o_proj); apply_lora_to_mlp adapts
    // w1, w2, w3 (gate, down, up); apply_lora_to_output the output layer.
    std::vector<std::string> attn, targets;
    if (!r.names("model.lora_attn_modules", attn) && r.ok())
        r.problem("model.lora_attn_modules", "not given: torchtune's LoRA builders need it (no default)");
    for (const std::string& m : attn) {
        if (m == "output_proj") targets.push_back("o_proj");
        else if (m == "q_proj" || m == "k_proj" || m == "v_proj") targets.push_back(m);
        else r.problem("model.lora_attn_modules", in_quotes(m) + ": expected q_proj, k_proj, v_proj or output_proj");
    }
    bool mlp = false, output = false, dora = false;
    r.boolean("model.apply_lora_to_mlp", mlp);
    r.boolean("model.apply_lora_to_output", output);
    if (mlp) targets.insert(targets.end(), {"gate_proj", "up_proj", "down_proj"});
    if (output) targets.push_back("lm_head");
    if (r.boolean("model.use_dora", dora) && dora) r.problem("model.use_dora", "DoRA is not modelled by gpuguide");
    int rank = 8;
    double dropout = 0;
    r.integer("model.lora_rank", rank, 1, 4096);
    r.number("model.lora_dropout", dropout, 0, 1);
    s["lora"] = {{"rank", rank}, {"dropout", dropout}};
    if (!targets.empty()) s["lora"]["targets"] = targets;
    r.origin("/lora/targets", "model.lora_attn_modules");
    r.origin("/lora", "model.lora_rank");
}

void read_optimizer(ConfigReader& r, json& s) {
    std::string component = "torch.optim.AdamW";
    r.text("optimizer._component_", component);
    OptimChoice c;
    if (component == "torch.optim.AdamW" || component == "torch.optim.Adam") c.optimizer = "adamw";
    else if (component == "bitsandbytes.optim.PagedAdamW8bit") c = {"adamw-8bit", "", true};
    else if (component == "bitsandbytes.optim.PagedAdamW" || component == "bitsandbytes.optim.PagedAdamW32bit")
        c = {"adamw", "", true};
    else if (component == "bitsandbytes.optim.AdamW8bit" || component == "torchao.optim.AdamW8bit") c.optimizer = "adamw-8bit";
    else if (component == "torch.optim.SGD") c.optimizer = "sgd";
    else r.problem("optimizer._component_", in_quotes(component) + " is not an optimizer gpuguide models");
    bool fused = false;
    if (r.boolean("optimizer.fused", fused) && fused && c.optimizer == "adamw" && !c.paged) c.impl = "fused";
    put_optim(s, c);
    r.origin("/optimizer", "optimizer._component_");
}

}  // namespace

void read_torchtune(ConfigReader& r, StackRead& out) {
    json& s = out.scenario;
    s["stack"] = "torchtune";
    // A fine-tuning recipe's config has an optimizer and a loss; the evaluation, generation and quantization configs
    // beside them (recipes/configs/*/evaluation.yaml, generation.yaml, quantization.yaml) have neither.
    if (r.find("optimizer") == nullptr && r.find("loss") == nullptr) {
        r.problem("optimizer", "no optimizer and no loss: this is an evaluation, generation or quantization config, "
                               "not a training recipe's; gpuguide reads the configs of lora_finetune_*, "
                               "full_finetune_* and qat recipes");
        out.model_refused = true;
        return;
    }
    bool lora = false, quantized = false;
    if (!read_builder(r, s, lora, quantized)) {
        out.model_refused = true;
        return;
    }
    r.origin("/model", "model._component_");
    bool quantize = quantized;
    r.boolean("model.quantize_base", quantize);
    s["method"] = !lora ? "full" : quantize ? "qlora" : "lora";
    r.origin("/method", "model._component_");
    if (lora) read_lora(r, s);
    // dtype: bf16 or fp32, no autocast (training.get_dtype); QLoRA's base is NF4 (torchao) computing in bf16.
    std::string dtype;
    if (!r.text("dtype", dtype)) r.problem("dtype", "not given: torchtune's recipes need it (bf16 or fp32)");
    else if (dtype != "bf16" && dtype != "fp32") r.problem("dtype", in_quotes(dtype) + ": torchtune trains in bf16 or fp32");
    s["precision"] = quantize && lora ? "nf4" : dtype == "fp32" ? "fp32" : "bf16";
    if (quantize && lora) s["fp32_modules"] = "none";
    r.origin("/precision", "dtype");
    // Required by the recipes (cfg.batch_size, cfg.gradient_accumulation_steps, cfg.epochs: no defaults).
    int batch = 1, accum = 1;
    if (!r.integer("batch_size", batch, 1, 1 << 20) && r.ok()) r.problem("batch_size", "not given: the recipe needs it");
    if (!r.integer("gradient_accumulation_steps", accum, 1, 1 << 20) && r.ok())
        r.problem("gradient_accumulation_steps", "not given: the recipe needs it");
    s["batch_size"] = batch;
    s["grad_accum_steps"] = accum;
    r.origin("/batch_size", "batch_size");
    r.origin("/grad_accum_steps", "gradient_accumulation_steps");
    double epochs = 1;
    if (r.number("epochs", epochs, 1e-3, 1e6)) s["dataset"]["epochs"] = epochs;
    if (r.find("max_steps_per_epoch"))
        r.not_used("max_steps_per_epoch", "stops each epoch after that many steps; the time is estimated from the "
                                          "epochs and the dataset size you give (dataset.samples)");
    // Sequences: tokenizer.max_seq_len truncates; null = no truncation (samples as long as the data's).
    int seq = 0;
    if (r.integer("tokenizer.max_seq_len", seq, 2, 1 << 21)) {
        s["seq_len"] = seq;
        r.origin("/seq_len", "tokenizer.max_seq_len");
    } else {
        out.seq_len_key = "tokenizer.max_seq_len";
        out.seq_len_note = "null or not given: torchtune does not truncate, so a sample is as long as the data makes it";
    }
    bool packed = false;
    if (r.boolean("dataset.packed", packed) && packed) s["stack_options"]["packing"] = true;
    // Memory switches (recipe: cfg.get(..., False)).
    bool ckpt = false, offload = false, compile = false;
    r.boolean("enable_activation_checkpointing", ckpt);
    r.boolean("enable_activation_offloading", offload);
    if (const json* c = r.find("compile")) {
        if (c->is_boolean()) compile = c->get<bool>();
        else if (!c->is_object()) r.problem("compile", "expected true or false, got " + kind_of(*c));
        else compile = true;
    }
    s["checkpointing"] = ckpt ? "full" : "none";
    if (offload) s["stack_options"]["offload_activations"] = true;
    if (compile) s["stack_options"]["compile"] = true;
    read_optimizer(r, s);
    // The loss: the chunked cross-entropy is what gpuguide's torchtune stack models.
    std::string loss = "torchtune.modules.loss.CEWithChunkedOutputLoss";
    r.text("loss._component_", loss);
    if (loss != "torchtune.modules.loss.CEWithChunkedOutputLoss" && loss != "torchtune.modules.loss.LinearCrossEntropyLoss")
        r.problem("loss._component_", in_quotes(loss) + ": gpuguide models torchtune's chunked cross-entropy "
                                                     "(CEWithChunkedOutputLoss)");
    std::string device = "cuda";
    if (r.text("device", device) && device != "cuda")
        r.problem("device", in_quotes(device) + ": gpuguide estimates NVIDIA GPUs (cuda)");
    r.finish({"tokenizer", "tokenizer.", "checkpointer", "dataset.", "resume_from_checkpoint", "save_adapter_weights_only", "dataset",
              "seed", "shuffle", "lr_scheduler", "optimizer.weight_decay", "optimizer.lr", "optimizer.betas",
              "optimizer.eps", "output_dir", "metric_logger", "log_every_n_steps", "log_peak_memory_stats",
              "log_level", "profiler", "low_cpu_ram", "model.lora_alpha", "clip_grad_norm", "save_every_n_steps",
              "enable_async_checkpointing", "cudnn_deterministic_mode", "collate_fn", "run_val_every_n_steps"},
             "torchtune");
}

}  // namespace gg::catalog::config_detail
