// The stack configurations (see stack_config.h). Each key is the stack's own documented option:
//  - LLaMA-Factory: src/llamafactory/hparams/{model,data,finetuning}_args.py and transformers' Seq2SeqTrainingArguments
//    (examples/train_lora/llama3_lora_sft.yaml shows the layout);
//  - Hugging Face: transformers TrainingArguments, peft LoraConfig, transformers BitsAndBytesConfig;
//  - torchtune: `tune run <recipe> --config <name> key=value ...` overrides of recipes/configs/<model>/*.yaml.
#include "catalog/stack_config.h"

#include <cstdio>
#include <nlohmann/json.hpp>

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

// PEFT/transformers module names of a Llama-style decoder.
std::vector<std::string> lora_modules(const Scenario& s) {
    if (s.lora_targets.empty()) return {"q_proj", "v_proj"};  // PEFT's default for Llama (TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING)
    std::vector<std::string> out;
    for (const std::string& t : s.lora_targets) out.push_back(t + "_proj");
    return out;
}

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
    } else {
        y += std::string("finetuning_type: ") + (s.method == "frozen-backbone" ? "freeze" : "full") + "\n";
    }
    if (s.method == "qlora") y += "quantization_bit: 4\nquantization_method: bitsandbytes\n";
    y += "cutoff_len: " + std::to_string(s.shape_per_sample().seq_len) + "\n";
    y += "per_device_train_batch_size: " + std::to_string(s.batch_size) + "\n";
    y += "gradient_accumulation_steps: " + std::to_string(s.grad_accum_steps) + "\n";
    if (s.precision == "bf16-amp" || s.method == "qlora") y += "bf16: true\n";
    if (s.precision == "fp16-amp") y += "fp16: true\n";
    if (s.precision == "bf16") y += "pure_bf16: true\n";
    y += "optim: " + hf_optim(s) + "\n";
    y += "disable_gradient_checkpointing: " + yes(s.checkpointing == "none") + "\n";
    y += std::string("flash_attn: ") + (s.attention == "flash" ? "fa2" : s.attention == "eager" ? "disabled" : "sdpa") + "\n";
    y += "enable_liger_kernel: " + yes(s.liger_kernel) + "\n";
    y += "use_unsloth: " + yes(s.use_unsloth) + "\n";
    y += "packing: " + yes(s.packing) + "\n";
    if (s.eval_batch_size > 0) y += "per_device_eval_batch_size: " + std::to_string(s.eval_batch_size) + "\n";
    if (s.strategy == "zero1" || s.strategy == "zero2" || s.strategy == "zero3")
        y += "deepspeed: examples/deepspeed/ds_z" + s.strategy.substr(4) + "_config.json\n";
    return {"yaml", y, ""};
}

StackConfig hf_trainer(const Scenario& s, const std::string& repo) {
    nlohmann::json args = {{"output_dir", "out"},
                           {"per_device_train_batch_size", s.batch_size},
                           {"gradient_accumulation_steps", s.grad_accum_steps},
                           {"gradient_checkpointing", s.checkpointing == "full"},
                           {"optim", hf_optim(s)},
                           {"use_liger_kernel", s.liger_kernel},
                           {"bf16", s.precision == "bf16-amp" || s.method == "qlora"},
                           {"fp16", s.precision == "fp16-amp"}};
    if (s.eval_batch_size > 0) {
        args["eval_strategy"] = "steps";
        args["per_device_eval_batch_size"] = s.eval_batch_size;
    }
    std::string p = "# Hugging Face Trainer + PEFT, written by gpuguide: every memory-relevant setting of the estimate.\n";
    p += "# Sequences: tokenize with truncation to max_length=" + std::to_string(s.shape_per_sample().seq_len) +
         (s.packing ? " and pack them (trl SFTConfig(packing=True))" : "") + ".\n";
    p += "import json\nimport torch\n";
    p += "from transformers import AutoModelForCausalLM, BitsAndBytesConfig, TrainingArguments\n";
    p += "from peft import LoraConfig, get_peft_model\n\n";
    const std::string attn = s.attention == "flash" ? "flash_attention_2" : s.attention;
    std::string load = "model = AutoModelForCausalLM.from_pretrained(\"" + repo + "\", attn_implementation=\"" + attn + "\"";
    // Pure bf16 loads the weights in bf16; autocast keeps fp32 weights (transformers' default dtype).
    if (s.precision == "bf16") load += ", torch_dtype=torch.bfloat16";
    if (s.method == "qlora")
        load += ",\n    quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=\"nf4\", "
                "bnb_4bit_use_double_quant=True, bnb_4bit_compute_dtype=torch.bfloat16)";
    p += load + ")\n";
    if (s.method == "lora" || s.method == "qlora") {
        const nlohmann::json lora = {{"r", s.lora_rank},
                                     {"lora_dropout", s.lora_dropout},
                                     {"target_modules", lora_modules(s)},
                                     {"task_type", "CAUSAL_LM"}};
        p += "lora_config = LoraConfig(**json.loads(\"\"\"" + lora.dump() + "\"\"\"))\n";
        p += "model = get_peft_model(model, lora_config)\n";
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
    const std::string config = torchtune_config(s);
    if (config.empty()) return {"", "", "model"};
    std::vector<std::string> attn, mlp;
    for (const std::string& m : lora_modules(s)) {
        if (m == "o_proj") attn.push_back("output_proj");
        else if (m == "q_proj" || m == "k_proj" || m == "v_proj") attn.push_back(m);
        else mlp.push_back(m);
    }
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
    c += " model.apply_lora_to_mlp=" + std::string(mlp.empty() ? "False" : "True");
    c += " enable_activation_checkpointing=" + std::string(s.checkpointing == "full" ? "True" : "False");
    c += " enable_activation_offloading=" + std::string(s.offload_activations_effective() ? "True" : "False");
    c += " dataset.packed=" + std::string(s.packing ? "True" : "False");
    c += " compile=" + std::string(s.compile ? "True" : "False");
    c += " optimizer.fused=" + std::string(s.optimizer_impl == "fused" ? "True" : "False");
    c += "\n";
    return {"shell", c, ""};
}

}  // namespace

StackConfig stack_config(const Scenario& s) {
    if (s.model_copy_gpus() > 1) return {"", "", "parallelism"};
    const std::string repo = hub_repo(s);
    if (repo.empty()) return {"", "", "model"};
    if (s.stack == "llama-factory") return llama_factory(s, repo);
    if (s.stack == "hf-trainer") return hf_trainer(s, repo);
    if (s.stack == "torchtune") return torchtune(s);
    return {"", "", "stack"};
}

}  // namespace gg::catalog
