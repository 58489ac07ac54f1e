// The axolotl reader (training_config.h): the keys of axolotl's config schema, src/axolotl/utils/schemas/
// {config,training,peft,model}.py at axolotl-ai-cloud/axolotl 067b021c (0.18.0), with its defaults for what a file
// leaves out. docs/training-configs.md lists every key read.
#include <string>
#include <vector>

#include "catalog/training_config_reader.h"

namespace gg::catalog::config_detail {

namespace {

void read_precision(ConfigReader& r, json& s, bool four_bit, bool eight_bit) {
    // bf16: "auto" (the default) = bf16 where the card has it; fp16; bfloat16 / float16 = the model loaded in 16 bits
    // without autocast. QLoRA computes in bf16.
    bool bf16 = true, fp16 = false, pure_bf16 = false, pure_fp16 = false;
    std::string bf16_text = "auto";
    if (const json* b = r.find("bf16")) {
        if (b->is_boolean()) bf16 = b->get<bool>();
        else if (!(b->is_string() && b->get<std::string>() == "auto"))
            r.problem("bf16", "expected true, false or auto, got " + kind_of(*b));
    } else {
        r.assume("bf16", "not given: axolotl's default, auto (bf16 on cards that have it)");
    }
    if (r.find("bf16") && r.find("bf16")->is_string())
        r.assume("bf16", "auto: bf16 autocast, as on cards that have it (Ampere or newer); older cards run fp16");
    r.boolean("fp16", fp16);
    r.boolean("bfloat16", pure_bf16);
    r.boolean("float16", pure_fp16);
    if (four_bit) s["precision"] = "nf4";
    else if (eight_bit) s["precision"] = "int8";
    else if (pure_bf16) s["precision"] = "bf16";
    else if (pure_fp16) r.problem("float16", "pure fp16 training (no autocast) is not modelled by gpuguide");
    else if (fp16) s["precision"] = "fp16-amp";
    else if (bf16) s["precision"] = "bf16-amp";
    else s["precision"] = "fp32";
    r.origin("/precision", four_bit ? "load_in_4bit" : eight_bit ? "load_in_8bit" : "bf16");
}

void read_attention(ConfigReader& r, json& s) {
    bool flash = false, sdp = false, xformers = false;
    r.boolean("flash_attention", flash);
    r.boolean("sdp_attention", sdp);
    r.boolean("xformers_attention", xformers);
    std::string impl;
    if (r.text("attn_implementation", impl)) {
        if (impl == "flash_attention_2" || impl == "flash_attention_3") flash = true;
        else if (impl == "sdpa") sdp = true;
        else if (impl == "eager") s["attention"] = "eager";
        else if (impl == "xformers") xformers = true;
        else if (impl == "flex_attention") {
            // torch.nn.attention.flex_attention: a fused kernel that keeps no seq x seq matrix for backward, only its
            // log-sum-exp, as PyTorch's SDPA kernels do.
            sdp = true;
            r.assume("attn_implementation", "flex_attention is modelled as sdpa: a fused kernel, no seq x seq matrix kept");
        } else {
            r.problem("attn_implementation",
                      in_quotes(impl) + ": expected flash_attention_2, sdpa, flex_attention, xformers or eager");
        }
    }
    if (xformers && !flash) {
        // xformers' memory_efficient_attention (cutlass) is the kernel PyTorch's SDPA memory-efficient backend came
        // from (torch.nn.functional.scaled_dot_product_attention's docs: "Memory-Efficient Attention", xFormers).
        sdp = true;
        r.assume("xformers_attention", "xformers' memory-efficient attention is modelled as sdpa, the kernel PyTorch "
                                       "took from it");
    }
    if (flash) s["attention"] = "flash";
    else if (sdp) s["attention"] = "sdpa";
    else if (!s.contains("attention")) {
        s["attention"] = "sdpa";
        r.assume("attn_implementation", "no attention switch: transformers' default, sdpa (PyTorch 2.1.1 or newer)");
    }
    r.origin("/attention", flash ? "flash_attention" : "sdp_attention");
}

}  // namespace

void read_axolotl(ConfigReader& r, StackRead& out) {
    json& s = out.scenario;
    s["stack"] = "axolotl";
    out.model_key = "base_model";
    r.text("base_model", out.model_name);
    r.origin("/model", "base_model");
    // `rl` (dpo, ipo, kto, orpo, simpo, grpo ...: axolotl's RLType, trained by trl's trainers) is preference or
    // reinforcement training: a reference model's forward, paired sequences or generated completions besides the
    // policy's own step. Refused as LLaMA-Factory's non-sft stages are, not read as supervised fine-tuning.
    if (const json* rl = r.find("rl"); rl != nullptr && !(rl->is_boolean() && !rl->get<bool>())) {
        r.problem("rl", (rl->is_string() ? in_quotes(rl->get<std::string>()) : std::string("rl")) +
                            ": gpuguide estimates supervised fine-tuning and pre-training; dpo, ipo, kto, orpo, simpo "
                            "and grpo also run a reference model, paired sequences or generated completions");
    }
    bool four = false, eight = false;
    r.boolean("load_in_4bit", four);
    r.boolean("load_in_8bit", eight);
    if (four && eight) r.problem("load_in_8bit", "load_in_4bit and load_in_8bit are both true");
    std::string adapter;
    r.text("adapter", adapter);
    if (adapter == "qlora" && !four) r.problem("adapter", "qlora needs load_in_4bit: true");
    if (adapter == "lora" || adapter == "qlora") {
        s["method"] = four ? "qlora" : "lora";
        int rank = 0;
        double dropout = 0;  // peft.py: lora_dropout 0.0; lora_r has no default (PEFT's LoraConfig needs it)
        if (!r.integer("lora_r", rank, 1, 4096) && r.ok())
            r.problem("lora_r", "not given: axolotl has no default rank for an adapter");
        r.number("lora_dropout", dropout, 0, 1);
        json lora = {{"rank", rank > 0 ? rank : 8}, {"dropout", dropout}};
        bool linear = false;
        r.boolean("lora_target_linear", linear);
        std::vector<std::string> targets;
        r.names("lora_target_modules", targets);
        if (linear) targets.insert(targets.begin(), "all-linear");
        if (!targets.empty()) lora["targets"] = targets;
        else r.assume("lora_target_modules", "none given: PEFT's default for the model (its attention's query and value)");
        s["lora"] = lora;
        r.origin("/lora/targets", linear ? "lora_target_linear" : "lora_target_modules");
        r.origin("/lora", "lora_r");
        bool dora = false;
        if (r.boolean("peft_use_dora", dora) && dora) r.problem("peft_use_dora", "DoRA is not modelled by gpuguide");
    } else if (adapter.empty()) {
        s["method"] = "full";
        if (four || eight) r.problem("adapter", "quantized weights (load_in_4bit / load_in_8bit) train with an adapter: "
                                                "set adapter: lora or qlora");
    } else {
        r.problem("adapter", in_quotes(adapter) + " is not modelled by gpuguide (lora, qlora, or none for full)");
    }
    r.origin("/method", "adapter");
    read_precision(r, s, four, eight);
    if (four || eight) s["fp32_modules"] = "none";
    // Sequences and batches (schemas/config.py sequence_len 512; training.py micro_batch_size 1, accumulation 1).
    int seq = 512, batch = 1, accum = 1;
    if (!r.integer("sequence_len", seq, 2, 1 << 21)) r.assume("sequence_len", "not given: axolotl's default, 512 tokens");
    r.integer("micro_batch_size", batch, 1, 1 << 20);
    r.integer("gradient_accumulation_steps", accum, 1, 1 << 20);
    s["seq_len"] = seq;
    s["batch_size"] = batch;
    s["grad_accum_steps"] = accum;
    r.origin("/seq_len", "sequence_len");
    r.origin("/batch_size", "micro_batch_size");
    r.origin("/grad_accum_steps", "gradient_accumulation_steps");
    bool packing = false;
    if (r.boolean("sample_packing", packing) && packing) s["stack_options"]["packing"] = true;
    if (r.find("pad_to_sequence_len"))
        r.not_used("pad_to_sequence_len", "the estimate counts every sample at sequence_len already");
    double epochs = 1.0;  // training.py num_epochs
    r.number("num_epochs", epochs, 1e-3, 1e6);
    s["dataset"]["epochs"] = epochs;
    // Evaluation: val_set_size > 0 (or test_datasets) evaluates with eval_batch_size (default: micro_batch_size).
    double val = 0;
    r.number("val_set_size", val, 0, 1e12);
    const bool tests = r.find("test_datasets") != nullptr;
    int eval_batch = batch;
    r.integer("eval_batch_size", eval_batch, 1, 1 << 20);
    if (val > 0 || tests) s["eval_batch_size"] = eval_batch;
    else if (r.find("eval_batch_size")) {
        s["eval_batch_size"] = eval_batch;
        r.assume("val_set_size", "0 or not given, but eval_batch_size is: evaluation while training is assumed");
    }
    // Optimizer (training.py: adamw_torch_fused).
    std::string optim = "adamw_torch_fused";
    r.text("optimizer", optim);
    OptimChoice choice;
    if (!hf_optim_choice(optim, choice)) r.problem("optimizer", in_quotes(optim) + " is not an optimizer gpuguide models");
    put_optim(s, choice);
    r.origin("/optimizer", "optimizer");
    // Checkpointing: true, "offload" (activations to host RAM), false (default); activation_offloading too.
    if (const json* g = r.find("gradient_checkpointing")) {
        if (g->is_boolean()) s["checkpointing"] = g->get<bool>() ? "full" : "none";
        else if (g->is_string() && g->get<std::string>() == "offload") {
            s["checkpointing"] = "full";
            s["stack_options"]["offload_activations"] = true;
        } else r.problem("gradient_checkpointing", "expected true, false or offload, got " + kind_of(*g));
    } else {
        s["checkpointing"] = "none";
    }
    if (const json* a = r.find("activation_offloading"))
        if (!(a->is_boolean() && !a->get<bool>()))
            r.problem("activation_offloading", "axolotl's activation_offloading is not modelled by gpuguide "
                                               "(gradient_checkpointing: offload is)");
    read_attention(r, s);
    // The Liger plugin's fused linear cross-entropy.
    bool flce = false;
    r.boolean("liger_fused_linear_cross_entropy", flce);
    if (const json* plugins = r.find("plugins")) {
        const bool liger = plugins->is_array() && plugins->dump().find("LigerPlugin") != std::string::npos;
        if (liger && flce) s["stack_options"]["liger_kernel"] = true;
        else r.not_used("plugins", "only the Liger plugin's fused linear cross-entropy changes gpuguide's estimate");
    }
    if (const json* ds = r.find("deepspeed")) {
        const ZeroChoice z = zero_from(*ds);
        if (z.stage == 0 || z.offload_params)
            r.problem("deepspeed", "expected axolotl's deepspeed_configs/zero1.json, zero2.json or zero3.json (got " +
                                       kind_of(*ds) + ")");
        else {
            s["gpu"]["strategy"] = "zero" + std::to_string(z.stage);
            if (z.offload_optimizer) s["offload_optimizer"] = true;
            r.origin("/gpu", "deepspeed");
            r.assume("deepspeed", "the number of GPUs is set at launch: the scenario has 1; set gpu.count");
        }
    }
    if (const json* f = r.find("fsdp"))
        if (!(f->is_array() && f->empty())) {
            s["gpu"]["strategy"] = "fsdp";
            r.origin("/gpu", "fsdp");
            r.assume("fsdp", "the number of GPUs is set at launch: the scenario has 1; set gpu.count");
        }
    r.find("fsdp_config");
    r.finish({"model_type", "tokenizer_type", "tokenizer_", "strict", "datasets", "dataset_", "output_dir", "lora_alpha",
              "lora_model_dir", "lora_fan_in_fan_out", "wandb_", "mlflow_", "comet_", "lr_scheduler", "learning_rate",
              "train_on_inputs", "group_by_length", "tf32", "early_stopping_patience", "resume_from_checkpoint",
              "local_rank", "logging_steps", "warmup_", "evals_per_epoch", "eval_steps", "eval_table_size",
              "saves_per_epoch", "save_", "debug", "weight_decay", "special_tokens", "hub_", "seed", "chat_template",
              "max_grad_norm", "shuffle_merged_datasets", "trust_remote_code", "fsdp_config", "use_tensorboard",
              "gradient_checkpointing_kwargs", "ddp_", "eval_sample_packing"},
             "axolotl");
}

}  // namespace gg::catalog::config_detail
