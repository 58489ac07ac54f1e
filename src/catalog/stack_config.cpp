// The stack configurations (see stack_config.h). Each key is the stack's own documented option:
//  - LLaMA-Factory: src/llamafactory/hparams/{model,data,finetuning}_args.py and transformers' Seq2SeqTrainingArguments
//    (examples/train_lora/llama3_lora_sft.yaml shows the layout);
//  - Hugging Face: transformers TrainingArguments, peft LoraConfig, transformers BitsAndBytesConfig;
//  - torchtune: `tune run <recipe> --config <name> key=value ...` overrides of recipes/configs/<model>/*.yaml;
//  - Unsloth: FastLanguageModel.from_pretrained(model_name, max_seq_length, load_in_4bit) and
//    FastLanguageModel.get_peft_model(model, r, target_modules, lora_dropout, use_gradient_checkpointing) as its
//    README's and notebooks' examples call them, then transformers' TrainingArguments for trl's SFTTrainer;
//  - axolotl: the keys of its config reference (docs/config.qmd: base_model, load_in_4bit, adapter, lora_r,
//    lora_target_modules, sequence_len, sample_packing, micro_batch_size, bf16 / bfloat16, gradient_checkpointing
//    true | offload, flash_attention / sdp_attention, the LigerPlugin) and its deepspeed_configs/zero{1,2,3}.json.
#include "catalog/stack_config.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "catalog/hf_config.h"

namespace gg::catalog {

namespace {

// "Hugging Face meta-llama/Llama-3.1-8B config.json; ..." -> "meta-llama/Llama-3.1-8B" (the "source" of the data/models.json decoders).
std::string hub_repo(const Scenario& s) {
    const std::string prefix = "Hugging Face ";
    if (s.model.family != engine::Family::kDecoder || s.model.norm != engine::NormKind::kRmsNorm ||
        s.model.source.rfind(prefix, 0) != 0)
        return "";
    const std::size_t end = s.model.source.find(' ', prefix.size());
    return s.model.source.substr(prefix.size(), end == std::string::npos ? std::string::npos : end - prefix.size());
}

// The model's own module names of exactly the Linears the estimate adapts (the scenario's targets resolved as the
// estimate resolves them: short role names, the model's module names, "all-linear"; none = PEFT's default q and v),
// so the config trains the job that was estimated.
std::vector<std::string> lora_modules(const Scenario& s) {
    return lora_module_names(s.model, s.training_config().lora.targets);
}

// The bits bitsandbytes loads the frozen base weights in: the scenario's precision decides (nf4 = 4-bit, int8 =
// LLM.int8), whatever the method is called; 0 = not quantized.
int quantization_bits(const Scenario& s) { return s.precision == "nf4" ? 4 : s.precision == "int8" ? 8 : 0; }

// The 16-bit dtype the estimate stores frozen weights in when they are not fp32: pure bf16, bitsandbytes' non-
// quantized modules (memory_terms.cpp param_bytes: the 16-bit torch_dtype; bf16 like the 4-bit compute dtype written
// here), frozen weights in the autocast dtype (frozen_weights_16bit). "" = fp32, transformers' default.
std::string frozen_dtype(const Scenario& s) {
    if (s.precision == "bf16" || quantization_bits(s) > 0) return "bfloat16";
    if (s.training_config().frozen_weights_16bit) return s.precision == "fp16-amp" ? "float16" : "bfloat16";
    return "";
}

// DeepSpeed's ZeRO stage of the scenario's strategy; 0 = none (DDP, FSDP, one card).
int zero_stage(const Scenario& s) {
    return s.strategy == "zero1" ? 1 : s.strategy == "zero2" ? 2 : s.strategy == "zero3" ? 3 : 0;
}

// Whether the 16-bit autocast the Trainer turns on is bf16 (bf16-amp, and the compute dtype of quantized weights).
bool autocast_bf16(const Scenario& s) { return s.precision == "bf16-amp" || quantization_bits(s) > 0; }

std::string joined(const std::vector<std::string>& v, const char* sep) {
    std::string out;
    for (const std::string& x : v) out += (out.empty() ? "" : sep) + x;
    return out;
}

// transformers' optim names (TrainingArguments.optim, OptimizerNames).
std::string hf_optim(const Scenario& s) {
    if (s.optimizer == "adamw-8bit") return s.paged_optimizer ? "paged_adamw_8bit" : "adamw_8bit";
    if (s.optimizer == "adamw" || s.optimizer == "adam") {
        if (s.paged_optimizer) return "paged_adamw_32bit";
        return s.optimizer_impl == "fused" ? "adamw_torch_fused" : "adamw_torch";
    }
    if (s.optimizer == "adafactor") return "adafactor";
    if (s.optimizer == "lion") return "lion_32bit";
    return "sgd";
}

std::string yes(bool b) { return b ? "true" : "false"; }

StackConfig llama_factory(const Scenario& s, const std::string& repo) {
    // LLaMA-Factory's init_adapter: "Quantized models can only be used for the LoRA tuning."
    if (quantization_bits(s) > 0 && s.method != "lora" && s.method != "qlora") return {"", "", "precision"};
    if (s.strategy == "zero1" || s.strategy == "fsdp") return {"", "", "parallelism"};
    std::string y = "### LLaMA-Factory config written by gpuguide: every memory-relevant setting of the estimate\n";
    y += "### llamafactory-cli train this.yaml (add dataset, template and output_dir)\n";
    y += "model_name_or_path: " + repo + "\n";
    y += "stage: sft\n";
    y += "do_train: true\n";
    if (s.method == "lora" || s.method == "qlora") {
        y += "finetuning_type: lora\n";
        y += "lora_rank: " + std::to_string(s.lora_rank) + "\n";
        char dropout[32];
        std::snprintf(dropout, sizeof dropout, "%g", s.lora_dropout);
        y += std::string("lora_dropout: ") + dropout + "\n";
        y += "lora_target: " + joined(lora_modules(s), ",") + "\n";
    } else if (s.method == "frozen-backbone") {
        // Freeze tuning trains the last freeze_trainable_layers blocks (default 2) plus freeze_extra_modules
        // (LLaMA-Factory model/adapter.py _setup_freeze_tuning): no block and the output layer is the estimate's
        // frozen backbone with its head (a tied head is the embedding).
        y += "finetuning_type: freeze\nfreeze_trainable_layers: 0\n";
        y += std::string("freeze_extra_modules: ") + (s.model.tied_embeddings ? "embed_tokens" : "lm_head") + "\n";
    } else {
        y += "finetuning_type: full\n";
    }
    // quantization_method takes LLaMA-Factory's QuantizationMethod values ("bnb" since c3c0efba, 2025-04; the older
    // "bitsandbytes" no longer parses: extras/constants.py).
    if (quantization_bits(s) > 0)
        y += "quantization_bit: " + std::to_string(quantization_bits(s)) + "\nquantization_method: bnb\n";
    if (quantization_bits(s) > 0 && s.fp32_modules_effective() == "norms") y += "upcast_layernorm: true\n";
    y += "cutoff_len: " + std::to_string(s.shape_per_sample().seq_len) + "\n";
    y += "per_device_train_batch_size: " + std::to_string(s.batch_size) + "\n";
    y += "gradient_accumulation_steps: " + std::to_string(s.grad_accum_steps) + "\n";
    if (autocast_bf16(s)) y += "bf16: true\n";
    if (s.precision == "fp16-amp") y += "fp16: true\n";
    if (s.precision == "bf16") y += "pure_bf16: true\n";
    y += "optim: " + hf_optim(s) + "\n";
    y += "disable_gradient_checkpointing: " + yes(s.checkpointing == "none") + "\n";
    y += std::string("flash_attn: ") + (s.attention == "flash" ? "fa2" : s.attention == "eager" ? "disabled" : "sdpa") + "\n";
    y += "enable_liger_kernel: " + yes(s.liger_kernel) + "\n";
    y += "use_unsloth: " + yes(s.use_unsloth) + "\n";
    y += "packing: " + yes(s.packing) + "\n";
    if (s.eval_batch_size > 0) y += "per_device_eval_batch_size: " + std::to_string(s.eval_batch_size) + "\n";
    // The DeepSpeed files LLaMA-Factory ships (examples/deepspeed/): ds_z2_config, ds_z3_config and their _offload_
    // twins (optimizer states in host RAM); stage 1 has none, and its FSDP runs through an accelerate config.
    if (zero_stage(s) > 0)
        y += "deepspeed: examples/deepspeed/ds_z" + std::to_string(zero_stage(s)) +
             (s.offload_optimizer ? "_offload" : "") + "_config.json\n";
    return {"yaml", y, ""};
}

// transformers TrainingArguments with the memory-relevant settings (the Hugging Face Trainer's and Unsloth's).
nlohmann::json training_arguments(const Scenario& s) {
    nlohmann::json args = {{"output_dir", "out"},
                           {"per_device_train_batch_size", s.batch_size},
                           {"gradient_accumulation_steps", s.grad_accum_steps},
                           {"optim", hf_optim(s)},
                           {"bf16", autocast_bf16(s)},
                           {"fp16", s.precision == "fp16-amp"}};
    if (s.eval_batch_size > 0) {
        args["eval_strategy"] = "steps";
        args["per_device_eval_batch_size"] = s.eval_batch_size;
    }
    return args;
}

StackConfig hf_trainer(const Scenario& s, const std::string& repo) {
    nlohmann::json args = training_arguments(s);
    args["gradient_checkpointing"] = s.checkpointing == "full";
    args["use_liger_kernel"] = s.liger_kernel;
    // TrainingArguments takes a DeepSpeed config as a dict ("auto" values filled from the arguments) and FSDP as a
    // string (transformers' deepspeed integration, HfTrainerDeepSpeedConfig; TrainingArguments.fsdp).
    if (zero_stage(s) > 0) {
        nlohmann::json zero = {{"stage", zero_stage(s)}};
        if (s.offload_optimizer) zero["offload_optimizer"] = {{"device", "cpu"}, {"pin_memory", true}};
        args["deepspeed"] = {{"zero_optimization", zero},
                             {"bf16", {{"enabled", "auto"}}},
                             {"fp16", {{"enabled", "auto"}}},
                             {"train_micro_batch_size_per_gpu", "auto"},
                             {"gradient_accumulation_steps", "auto"}};
    }
    if (s.strategy == "fsdp") args["fsdp"] = "full_shard auto_wrap";
    std::string p = "# Hugging Face Trainer + PEFT, written by gpuguide: every memory-relevant setting of the estimate.\n";
    p += "# Sequences: tokenize with truncation to max_length=" + std::to_string(s.shape_per_sample().seq_len) +
         (s.packing ? " and pack them (trl SFTConfig(packing=True))" : "") + ".\n";
    p += "import json\nimport torch\n";
    p += "from transformers import AutoModelForCausalLM, BitsAndBytesConfig, TrainingArguments\n";
    p += "from peft import LoraConfig, get_peft_model\n\n";
    const std::string attn = s.attention == "flash" ? "flash_attention_2" : s.attention;
    std::string load = "model = AutoModelForCausalLM.from_pretrained(\"" + repo + "\", attn_implementation=\"" + attn + "\"";
    // The dtype the estimate stores the weights in: without torch_dtype transformers loads fp32, which autocast keeps.
    if (const std::string dtype = frozen_dtype(s); !dtype.empty()) load += ", torch_dtype=torch." + dtype;
    if (quantization_bits(s) == 4)
        load += ",\n    quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=\"nf4\", "
                "bnb_4bit_use_double_quant=True, bnb_4bit_compute_dtype=torch.bfloat16)";
    if (quantization_bits(s) == 8) load += ",\n    quantization_config=BitsAndBytesConfig(load_in_8bit=True)";
    p += load + ")\n";
    if (s.method == "lora" || s.method == "qlora") {
        const nlohmann::json lora = {{"r", s.lora_rank},
                                     {"lora_dropout", s.lora_dropout},
                                     {"target_modules", lora_modules(s)},
                                     {"task_type", "CAUSAL_LM"}};
        // fp32 modules of a 4/8-bit model (the estimate's fp32_modules): peft's prepare_model_for_kbit_training
        // upcasts every unquantized parameter; "norms" takes the embeddings and the head back to bf16 as trl's
        // SFTTrainer does with bf16=True (peft_module_casting_to_bf16).
        const std::string f32 = quantization_bits(s) > 0 ? s.fp32_modules_effective() : "none";
        if (f32 != "none") {
            p += "from peft import prepare_model_for_kbit_training\n";
            p += std::string("model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=") +
                 (s.checkpointing == "full" ? "True" : "False") + ")\n";
        }
        if (f32 == "norms")
            p += "for name, module in model.named_modules():\n"
                 "    if any(k in name for k in (\"lm_head\", \"embed_tokens\")) and hasattr(module, \"weight\"):\n"
                 "        module.to(torch.bfloat16)\n";
        p += "lora_config = LoraConfig(**json.loads(\"\"\"" + lora.dump() + "\"\"\"))\n";
        p += "model = get_peft_model(model, lora_config)\n";
    } else if (s.method == "frozen-backbone") {
        // Only the output layer trains (the estimate's frozen backbone with its task head; a tied head is the
        // embedding's weight, which get_output_embeddings returns too).
        p += "for param in model.parameters():\n    param.requires_grad = False\n";
        p += "model.get_output_embeddings().weight.requires_grad = True\n";
    }
    p += "training_args = TrainingArguments(**json.loads(\"\"\"" + args.dump() + "\"\"\"))\n";
    return {"python", p, ""};
}

// torchtune's single-device LoRA/QLoRA configs for the presets it ships (recipes/configs/).
std::string torchtune_config(const Scenario& s) {
    const std::string kind = s.method == "qlora" ? "qlora" : "lora";
    if (s.model_id == "llama-3.1-8b") return "llama3_1/8B_" + kind + "_single_device";
    if (s.model_id == "llama-3.2-1b") return "llama3_2/1B_" + kind + "_single_device";
    if (s.model_id == "llama-3.2-3b") return "llama3_2/3B_" + kind + "_single_device";
    if (s.model_id == "llama-2-7b") return "llama2/7B_" + kind + "_single_device";
    if (s.model_id == "mistral-7b") return "mistral/7B_" + kind + "_single_device";
    if (s.model_id == "qwen2.5-7b" && kind == "lora") return "qwen2_5/7B_lora_single_device";
    return "";
}

StackConfig torchtune(const Scenario& s) {
    if (s.method != "lora" && s.method != "qlora") return {"", "", "method"};
    // lora_finetune_single_device: one card, no DeepSpeed or FSDP.
    if (s.gpu_count > 1 || s.strategy != "ddp" || s.offload_optimizer) return {"", "", "parallelism"};
    // torchtune's recipes run in `dtype` (bf16 or fp32, no autocast) and its QLoRA configs quantize the base to NF4
    // (torchao); no config loads 8-bit weights.
    const std::string config = torchtune_config(s);
    if (config.empty()) return {"", "", "model"};
    const int bits = quantization_bits(s);
    if (bits == 8 || s.precision == "fp16-amp" || s.precision == "bf16-amp" || s.precision == "tf32" ||
        (bits == 4) != (s.method == "qlora"))
        return {"", "", "precision"};
    // torchtune's lora_llama builders: lora_attn_modules names q_proj, k_proj, v_proj, output_proj; apply_lora_to_mlp
    // adapts w1, w2 and w3 (gate, down, up) together; apply_lora_to_output the output layer.
    std::vector<std::string> attn;
    int mlp = 0;
    bool output = false;
    for (const std::string& m : lora_modules(s)) {
        if (m == "o_proj") attn.push_back("output_proj");
        else if (m == "q_proj" || m == "k_proj" || m == "v_proj") attn.push_back(m);
        else if (m == "gate_proj" || m == "up_proj" || m == "down_proj") ++mlp;
        else if (m == "lm_head") output = true;
        else return {"", "", "targets"};
    }
    if (mlp != 0 && mlp != 3) return {"", "", "targets"};  // one or two MLP projections: no torchtune switch
    if (attn.empty()) return {"", "", "targets"};        // lora_attn_modules must name one at least
    char dropout[32];
    std::snprintf(dropout, sizeof dropout, "%g", s.lora_dropout);
    std::string c = "# torchtune, written by gpuguide: every memory-relevant setting of the estimate\n";
    c += "tune run lora_finetune_single_device --config " + config;
    c += " batch_size=" + std::to_string(s.batch_size);
    c += " gradient_accumulation_steps=" + std::to_string(s.grad_accum_steps);
    c += " tokenizer.max_seq_len=" + std::to_string(s.shape_per_sample().seq_len);
    c += " model.lora_rank=" + std::to_string(s.lora_rank);
    c += std::string(" model.lora_dropout=") + dropout;
    c += " model.lora_attn_modules=[" + joined(attn, ",") + "]";
    c += " model.apply_lora_to_mlp=" + std::string(mlp == 3 ? "True" : "False");
    c += " model.apply_lora_to_output=" + std::string(output ? "True" : "False");
    c += std::string(" dtype=") + (s.precision == "fp32" ? "fp32" : "bf16");
    c += " enable_activation_checkpointing=" + std::string(s.checkpointing == "full" ? "True" : "False");
    c += " enable_activation_offloading=" + std::string(s.offload_activations_effective() ? "True" : "False");
    c += " dataset.packed=" + std::string(s.packing ? "True" : "False");
    c += " compile=" + std::string(s.compile ? "True" : "False");
    c += " optimizer.fused=" + std::string(s.optimizer_impl == "fused" ? "True" : "False");
    c += "\n";
    return {"shell", c, ""};
}

// Unsloth: LoRA and QLoRA through FastLanguageModel; its fused cross-entropy is always on, and the checkpointing is
// use_gradient_checkpointing ("unsloth" = offloaded to host RAM, True = torch's, False = none).
StackConfig unsloth(const Scenario& s, const std::string& repo) {
    if (s.method != "lora" && s.method != "qlora") return {"", "", "method"};
    if (s.gpu_count > 1 || s.strategy != "ddp" || s.offload_optimizer) return {"", "", "parallelism"};  // one card
    const int seq = s.shape_per_sample().seq_len;
    // Unsloth loads the base in 16 bit (dtype=None: bf16 where the card has it), 4-bit or 8-bit: no fp32 weights.
    if (quantization_bits(s) == 0 && frozen_dtype(s).empty()) return {"", "", "precision"};
    const nlohmann::json load = {{"model_name", repo},
                                 {"max_seq_length", seq},
                                 {"load_in_4bit", quantization_bits(s) == 4},
                                 {"load_in_8bit", quantization_bits(s) == 8}};
    nlohmann::json peft = {{"r", s.lora_rank},
                           {"target_modules", lora_modules(s)},
                           {"lora_dropout", s.lora_dropout},
                           {"bias", "none"}};
    if (s.checkpointing != "full") peft["use_gradient_checkpointing"] = false;
    else if (s.offload_activations_effective()) peft["use_gradient_checkpointing"] = "unsloth";
    else peft["use_gradient_checkpointing"] = true;
    nlohmann::json args = training_arguments(s);
    std::string p = "# Unsloth, written by gpuguide: every memory-relevant setting of the estimate.\n";
    p += "# Weights load in bf16 where the card has it, else fp16 (dtype=None); add your dataset and output_dir.\n";
    p += "import json\n";
    p += "from unsloth import FastLanguageModel\n";
    p += "from transformers import TrainingArguments\n";
    p += "from trl import SFTTrainer\n\n";
    p += "model, tokenizer = FastLanguageModel.from_pretrained(**json.loads(\"\"\"" + load.dump() + "\"\"\"))\n";
    p += "model = FastLanguageModel.get_peft_model(model, **json.loads(\"\"\"" + peft.dump() + "\"\"\"))\n";
    p += "training_args = TrainingArguments(**json.loads(\"\"\"" + args.dump() + "\"\"\"))\n";
    p += "# trainer = SFTTrainer(model=model, tokenizer=tokenizer, train_dataset=..., max_seq_length=" +
         std::to_string(seq) + ", packing=" + (s.packing ? "True" : "False") + ", args=training_args)\n";
    return {"python", p, ""};
}

// axolotl: one YAML file for `axolotl train`.
StackConfig axolotl(const Scenario& s, const std::string& repo) {
    // axolotl's shipped DeepSpeed files (deepspeed_configs/zero1, zero2, zero3.json) keep the optimizer on the card;
    // its offload files move parameters too, which the estimate does not model. Its FSDP needs an fsdp_config.
    if (s.offload_optimizer || s.strategy == "fsdp") return {"", "", "parallelism"};
    std::string y = "# axolotl config written by gpuguide: every memory-relevant setting of the estimate\n";
    y += "# axolotl train this.yml (add datasets and output_dir)\n";
    y += "base_model: " + repo + "\n";
    y += "load_in_8bit: " + yes(quantization_bits(s) == 8) + "\n";
    y += "load_in_4bit: " + yes(quantization_bits(s) == 4) + "\n";
    if (s.method == "lora" || s.method == "qlora") {
        y += std::string("adapter: ") + (quantization_bits(s) == 4 ? "qlora" : "lora") + "\n";
        y += "lora_r: " + std::to_string(s.lora_rank) + "\n";
        char dropout[32];
        std::snprintf(dropout, sizeof dropout, "%g", s.lora_dropout);
        y += std::string("lora_dropout: ") + dropout + "\n";
        y += "lora_target_modules:\n";
        for (const std::string& m : lora_modules(s)) y += "  - " + m + "\n";
    } else if (s.method != "full") {
        return {"", "", "method"};  // axolotl trains full models and adapters; a frozen backbone has no key
    }
    y += "sequence_len: " + std::to_string(s.shape_per_sample().seq_len) + "\n";
    y += "sample_packing: " + yes(s.packing) + "\n";
    y += "micro_batch_size: " + std::to_string(s.batch_size) + "\n";
    y += "gradient_accumulation_steps: " + std::to_string(s.grad_accum_steps) + "\n";
    if (s.eval_batch_size > 0) y += "eval_batch_size: " + std::to_string(s.eval_batch_size) + "\n";
    // bf16 / fp16 = autocast; bfloat16 loads the model in bf16 without it (pure bf16). QLoRA computes in bf16.
    y += "bf16: " + yes(autocast_bf16(s)) + "\n";
    y += "fp16: " + yes(s.precision == "fp16-amp") + "\n";
    if (s.precision == "bf16") y += "bfloat16: true\n";
    y += "optimizer: " + hf_optim(s) + "\n";
    y += std::string("gradient_checkpointing: ") +
         (s.checkpointing != "full" ? "false" : s.offload_activations_effective() ? "offload" : "true") + "\n";
    y += "flash_attention: " + yes(s.attention == "flash") + "\n";
    y += "sdp_attention: " + yes(s.attention == "sdpa") + "\n";
    if (s.liger_kernel) {
        y += "plugins:\n  - axolotl.integrations.liger.LigerPlugin\n";
        y += "liger_fused_linear_cross_entropy: true\n";
    }
    if (zero_stage(s) > 0) y += "deepspeed: deepspeed_configs/zero" + std::to_string(zero_stage(s)) + ".json\n";
    return {"yaml", y, ""};
}

}  // namespace

StackConfig stack_config(const Scenario& s) {
    // Tensor or pipeline parallelism has no single-stack config here; optimizer offload is DeepSpeed's (ZeRO-Offload).
    if (s.model_copy_gpus() > 1 || (s.offload_optimizer && zero_stage(s) == 0)) return {"", "", "parallelism"};
    const std::string repo = hub_repo(s);
    if (repo.empty()) return {"", "", "model"};
    // frozen_weights_16bit off where the stack loads 16-bit weights: the estimate counts fp32 weights the stack
    // cannot keep.
    if (s.stack_loads_16bit() && s.frozen_weights_16bit_applies() && !s.frozen_weights_16bit) return {"", "", "precision"};
    // fp32 modules of a bitsandbytes model a stack has no switch for (scenario.cpp fp32_modules_default): LLaMA-Factory
    // upcasts the norms only (upcast_layernorm); axolotl, Unsloth and torchtune keep every module 16-bit.
    if (quantization_bits(s) > 0) {
        const std::string f = s.fp32_modules_effective();
        if (f == "all" && s.stack != "hf-trainer") return {"", "", "precision"};
        if (f == "norms" && s.stack != "hf-trainer" && s.stack != "llama-factory") return {"", "", "precision"};
    }
    if (s.stack == "llama-factory") return llama_factory(s, repo);
    if (s.stack == "hf-trainer") return hf_trainer(s, repo);
    if (s.stack == "torchtune") return torchtune(s);
    if (s.stack == "unsloth") return unsloth(s, repo);
    if (s.stack == "axolotl") return axolotl(s, repo);
    return {"", "", "stack"};
}

}  // namespace gg::catalog
