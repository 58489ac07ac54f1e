// The training-config readers of the Hugging Face family (training_config.h):
//  - LLaMA-Factory YAML: src/llamafactory/hparams/{model,data,finetuning}_args.py and parser.py at
//    hiyouga/LLaMA-Factory ff6d4d12 (0.9.6.dev0), over transformers' Seq2SeqTrainingArguments;
//  - Hugging Face TrainingArguments as JSON (transformers training_args.py; the ModelArguments of its example
//    scripts, run_clm.py's model_name_or_path and block_size, and trl's SFTConfig max_length / packing);
//  - a PEFT adapter_config.json (peft LoraConfig: r, target_modules, lora_dropout, base_model_name_or_path).
// docs/training-configs.md lists every key read and its default.
#include <string>
#include <vector>

#include "catalog/training_config_reader.h"

namespace gg::catalog::config_detail {

namespace {

// What several Trainer-based files share: batch, accumulation, epochs, optimizer, evaluation.
void read_trainer_arguments(ConfigReader& r, json& s, const std::string& stack_name) {
    int batch = 8, accum = 1;  // TrainingArguments: per_device_train_batch_size 8, gradient_accumulation_steps 1
    if (!r.integer("per_device_train_batch_size", batch, 1, 1 << 20))
        r.assume("per_device_train_batch_size", "not given: " + stack_name + "'s default 8 (TrainingArguments)");
    r.integer("gradient_accumulation_steps", accum, 1, 1 << 20);
    s["batch_size"] = batch;
    s["grad_accum_steps"] = accum;
    r.origin("/batch_size", "per_device_train_batch_size");
    r.origin("/grad_accum_steps", "gradient_accumulation_steps");
    double epochs = 3.0;  // TrainingArguments.num_train_epochs
    r.number("num_train_epochs", epochs, 1e-3, 1e6);
    s["dataset"]["epochs"] = epochs;
    r.origin("/dataset", "num_train_epochs");
    std::string optim;
    OptimChoice choice;
    if (r.text("optim", optim)) {
        if (!hf_optim_choice(optim, choice))
            r.problem("optim", in_quotes(optim) + " is not an optimizer gpuguide models (adamw_torch, adamw_torch_fused, "
                                               "paged_adamw_32bit, paged_adamw_8bit, adamw_8bit, adafactor, lion_32bit, sgd)");
    } else {
        // transformers 4.5x: "adamw_torch", "adamw_torch_fused" with torch >= 2.8 (training_args.py default_optim).
        hf_optim_choice("adamw_torch_fused", choice);
        r.assume("optim", "not given: transformers' default, adamw_torch_fused with PyTorch 2.8 or newer "
                          "(adamw_torch before)");
    }
    put_optim(s, choice);
    r.origin("/optimizer", "optim");
    // Evaluation while training: the evaluation pass's activations are headroom (eval_batch_size).
    std::string strategy = "no";
    r.text("eval_strategy", strategy) || r.text("evaluation_strategy", strategy);
    int eval_batch = 8;  // TrainingArguments.per_device_eval_batch_size
    const bool eval_batch_given = r.integer("per_device_eval_batch_size", eval_batch, 1, 1 << 20);
    if (strategy != "no") s["eval_batch_size"] = eval_batch;
    else if (eval_batch_given) {
        s["eval_batch_size"] = eval_batch;
        r.assume("eval_strategy", "not given, but per_device_eval_batch_size is: evaluation while training is assumed");
    }
    r.origin("/eval_batch_size", "per_device_eval_batch_size");
    // Precision: 16-bit autocast from bf16 / fp16 (pure_bf16: LLaMA-Factory's bf16 without autocast).
    bool bf16 = false, fp16 = false;
    r.boolean("bf16", bf16);
    r.boolean("fp16", fp16);
    if (bf16 && fp16) r.problem("fp16", "bf16 and fp16 are both true; the Trainer takes one");
    s["precision"] = bf16 ? "bf16-amp" : fp16 ? "fp16-amp" : "fp32";
    r.origin("/precision", bf16 ? "bf16" : "fp16");
    // DeepSpeed (a file name or an inline config) and FSDP.
    if (const json* ds = r.find("deepspeed")) {
        const ZeroChoice z = zero_from(*ds);
        if (z.stage == 0)
            r.problem("deepspeed", "cannot tell the ZeRO stage from " + kind_of(*ds) + " (expected a file named like "
                                   "ds_z2_config.json / zero3.json, or {\"zero_optimization\": {\"stage\": N}})");
        else if (z.offload_params)
            r.problem("deepspeed", "parameter offload (offload_param) is not modelled by gpuguide");
        else {
            s["gpu"]["strategy"] = "zero" + std::to_string(z.stage);
            if (z.offload_optimizer) s["offload_optimizer"] = true;
            r.origin("/gpu", "deepspeed");
            r.assume("deepspeed", "the number of GPUs is set at launch, not in this file: the scenario has 1; set "
                                  "gpu.count for your run");
        }
    }
    if (const json* fsdp = r.find("fsdp")) {
        if (!(fsdp->is_string() && fsdp->get<std::string>().empty()) && !(fsdp->is_array() && fsdp->empty()) &&
            !(fsdp->is_boolean() && !fsdp->get<bool>())) {
            s["gpu"]["strategy"] = "fsdp";
            r.origin("/gpu", "fsdp");
            r.assume("fsdp", "the number of GPUs is set at launch, not in this file: the scenario has 1; set gpu.count");
        }
    }
    if (const json* steps = r.find("max_steps"))
        if (!(steps->is_number() && steps->get<double>() <= 0))
            r.not_used("max_steps", "stops training after that many steps; the time is estimated from the epochs "
                                    "and the dataset size you give (dataset.samples)");
}

// Keys of the Trainer, LLaMA-Factory and their logging and data plumbing that change neither memory nor time.
const std::vector<std::string> kTrainerIrrelevant = {
    "output_dir", "overwrite_output_dir", "logging_", "save_", "plot_loss", "report_to", "learning_rate",
    "lr_scheduler_", "warmup_", "weight_decay", "adam_", "max_grad_norm", "seed", "data_seed", "ddp_", "run_name",
    "resume_from_checkpoint", "push_to_hub", "hub_", "eval_steps", "eval_delay", "load_best_model_at_end",
    "metric_for_best_model", "greater_is_better", "do_train", "do_eval", "do_predict", "trust_remote_code",
    "dataset", "dataset_dir", "eval_dataset", "template", "overwrite_cache", "preprocessing_num_workers",
    "dataloader_", "val_size", "max_samples", "tokenized_path", "media_dir", "lora_alpha", "label_smoothing_factor",
    "disable_tqdm", "remove_unused_columns", "include_", "predict_with_generate", "generation_", "cache_dir",
    "use_fast_tokenizer", "split", "streaming", "buffer_size", "mix_strategy", "interleave_probs", "train_on_prompt",
    "mask_history", "ignore_pad_token_for_loss", "local_rank", "log_level", "log_on_each_node", "report_", "ray_",
    "model_revision", "hf_hub_token", "ms_hub_token", "om_hub_token", "print_param_status", "infer_backend",
    "adapter_name_or_path", "create_new_adapter", "lr_scheduler_kwargs", "optim_args", "prediction_loss_only",
    "per_device_eval_batch_size", "eval_strategy", "evaluation_strategy"};

}  // namespace

void read_llama_factory(ConfigReader& r, StackRead& out) {
    json& s = out.scenario;
    s["stack"] = "llama-factory";
    out.model_key = "model_name_or_path";
    r.text("model_name_or_path", out.model_name);
    r.origin("/model", "model_name_or_path");
    std::string stage = "sft";
    r.text("stage", stage);
    if (stage != "sft" && stage != "pt")
        r.problem("stage", in_quotes(stage) + ": gpuguide estimates supervised fine-tuning (sft) and pre-training (pt); "
                                           "rm, ppo, dpo and kto also hold a reward, value or reference model");
    std::string ft = "lora";  // FinetuningArguments.finetuning_type
    if (!r.text("finetuning_type", ft)) r.assume("finetuning_type", "not given: LLaMA-Factory's default, lora");
    int bits = 0;
    if (r.integer("quantization_bit", bits, 2, 8) && bits != 4 && bits != 8)
        r.problem("quantization_bit", std::to_string(bits) + " bits: gpuguide models bitsandbytes' 4-bit (NF4) and "
                                                             "8-bit (LLM.int8) weights");
    std::string qmethod = "bnb";
    if (r.text("quantization_method", qmethod) && qmethod != "bnb" && qmethod != "bitsandbytes")
        r.problem("quantization_method", in_quotes(qmethod) + ": gpuguide models bitsandbytes (bnb) only");
    if (bits == 0 && r.find("quantization_method"))
        r.not_used("quantization_method", "no quantization_bit: the weights are not quantized");
    // Method and LoRA (FinetuningArguments: lora_rank 8, lora_target "all", lora_dropout 0.0).
    if (ft == "lora") {
        s["method"] = bits == 4 ? "qlora" : "lora";
        int rank = 8;
        double dropout = 0;
        std::vector<std::string> targets = {"all"};
        r.integer("lora_rank", rank, 1, 4096);
        r.number("lora_dropout", dropout, 0, 1);
        r.names("lora_target", targets);
        json lora = {{"rank", rank}, {"dropout", dropout}};
        if (targets.size() == 1 && targets[0] == "all") lora["targets"] = json::array({"all-linear"});
        else lora["targets"] = targets;
        s["lora"] = lora;
        r.origin("/lora/targets", "lora_target");
        r.origin("/lora/rank", "lora_rank");
        r.origin("/lora", "lora_rank");
        r.origin("/method", "finetuning_type");
        bool flag = false;
        if (r.boolean("use_dora", flag) && flag) r.problem("use_dora", "DoRA is not modelled by gpuguide");
        std::string extra;
        if (r.text("additional_target", extra))
            r.problem("additional_target", "fully trained extra modules are not modelled by gpuguide");
    } else if (ft == "full") {
        s["method"] = "full";
    } else if (ft == "freeze") {
        // gpuguide's frozen backbone trains the output layer only: LLaMA-Factory's freeze tuning with no trainable
        // block (freeze_trainable_layers 0; its default 2 trains the last two blocks too).
        int layers = 2;
        r.integer("freeze_trainable_layers", layers, -1000, 1000);
        if (layers != 0)
            r.problem("freeze_trainable_layers", std::to_string(layers) + " trainable blocks: gpuguide's frozen "
                                                 "backbone trains only the output layer (freeze_trainable_layers: 0)");
        std::vector<std::string> extra;  // the head that trains (lm_head, or embed_tokens when tied): no memory choice
        r.names("freeze_extra_modules", extra);
        s["method"] = "frozen-backbone";
    } else {
        r.problem("finetuning_type", in_quotes(ft) + " is not modelled by gpuguide (lora, full, freeze)");
    }
    if (bits == 4) s["precision"] = "nf4";
    if (bits == 8) s["precision"] = "int8";
    // Sequences (DataArguments.cutoff_len 2048; packing: None = on for stage pt only; neat_packing implies it).
    int cutoff = 2048;
    if (!r.integer("cutoff_len", cutoff, 2, 1 << 21))
        r.assume("cutoff_len", "not given: LLaMA-Factory's default, 2048 tokens");
    s["seq_len"] = cutoff;
    r.origin("/seq_len", "cutoff_len");
    bool packing = stage == "pt", neat = false;
    r.boolean("packing", packing);
    r.boolean("neat_packing", neat);
    if (packing || neat) s["stack_options"]["packing"] = true;
    // Model switches (ModelArguments): checkpointing on unless disabled, attention, kernels.
    bool no_ckpt = false, liger = false, unsloth = false, upcast = false, pure_bf16 = false;
    r.boolean("disable_gradient_checkpointing", no_ckpt);
    s["checkpointing"] = no_ckpt ? "none" : "full";
    std::string attn = "auto";
    r.text("flash_attn", attn);
    if (attn == "fa2" || attn == "fa3") s["attention"] = "flash";
    else if (attn == "disabled") s["attention"] = "eager";
    else if (attn == "auto" || attn == "sdpa") s["attention"] = "sdpa";
    else r.problem("flash_attn", in_quotes(attn) + ": expected auto, disabled, sdpa, fa2 or fa3");
    r.origin("/attention", "flash_attn");
    if (r.boolean("enable_liger_kernel", liger) && liger) s["stack_options"]["liger_kernel"] = true;
    if (r.boolean("use_unsloth", unsloth) && unsloth) s["stack_options"]["use_unsloth"] = true;
    read_trainer_arguments(r, s, "LLaMA-Factory");
    r.boolean("pure_bf16", pure_bf16);
    if (bits > 0) {
        s["precision"] = bits == 4 ? "nf4" : "int8";
        r.boolean("upcast_layernorm", upcast);
        s["fp32_modules"] = upcast ? "norms" : "none";
        r.origin("/precision", "quantization_bit");
    } else if (pure_bf16) {
        s["precision"] = "bf16";
        r.origin("/precision", "pure_bf16");
    } else {
        r.boolean("upcast_layernorm", upcast);
        if (upcast) r.not_used("upcast_layernorm", "applies to quantized models in gpuguide's estimate");
        if (s["precision"] == "fp32")
            r.assume("bf16", "neither bf16 nor fp16 is true: the Trainer runs without autocast, estimated as fp32 "
                             "(LLaMA-Factory may still load the weights in bf16 on cards that have it, which needs less)");
    }
    r.finish(kTrainerIrrelevant, "LLaMA-Factory");
}

void read_hf_training_arguments(ConfigReader& r, StackRead& out) {
    json& s = out.scenario;
    out.model_key = "model_name_or_path";
    r.text("model_name_or_path", out.model_name);
    r.origin("/model", "model_name_or_path");
    s["method"] = "full";
    r.assume("method", "TrainingArguments do not say whether PEFT wraps the model: full fine-tuning is assumed (for "
                       "LoRA, read the adapter_config.json)");
    read_trainer_arguments(r, s, "transformers");
    bool ckpt = false, liger = false, packing = false;
    r.boolean("gradient_checkpointing", ckpt);
    s["checkpointing"] = ckpt ? "full" : "none";
    if (r.boolean("use_liger_kernel", liger) && liger) s["stack_options"]["liger_kernel"] = true;
    if (r.boolean("packing", packing) && packing) s["stack_options"]["packing"] = true;
    // The sequence length is the data's: the example scripts' block_size, trl SFTConfig's max_length (older
    // max_seq_length).
    int seq = 0;
    for (const char* key : {"max_length", "max_seq_length", "block_size"})
        if (seq == 0 && r.integer(key, seq, 2, 1 << 21)) r.origin("/seq_len", key);
    if (seq > 0) s["seq_len"] = seq;
    else {
        out.seq_len_key = "max_length";
        out.seq_len_note = "TrainingArguments do not give the sequence length (trl's max_length, run_clm's block_size)";
    }
    r.finish(kTrainerIrrelevant, "transformers");
}

void read_peft_adapter(ConfigReader& r, StackRead& out) {
    json& s = out.scenario;
    std::string type;
    r.text("peft_type", type);
    if (type != "LORA") {
        r.problem("peft_type", in_quotes(type) + ": gpuguide models LoRA adapters (LORA)");
        return;
    }
    out.model_key = "base_model_name_or_path";
    r.text("base_model_name_or_path", out.model_name);
    r.origin("/model", "base_model_name_or_path");
    s["method"] = "lora";
    int rank = 8;  // LoraConfig.r
    double dropout = 0;
    r.integer("r", rank, 1, 4096);
    r.number("lora_dropout", dropout, 0, 1);
    json lora = {{"rank", rank}, {"dropout", dropout}};
    std::vector<std::string> targets;
    if (const json* t = r.find("target_modules")) {
        if (t->is_string() && t->get<std::string>() == "all-linear") targets = {"all-linear"};
        else if (t->is_string())
            r.problem("target_modules", "a regular expression (" + in_quotes(t->get<std::string>()) + ") is not read by "
                                        "gpuguide: give the module names as a list");
        else r.names("target_modules", targets);
    } else {
        r.assume("target_modules", "not given: PEFT's default for the model (its attention's query and value)");
    }
    if (!targets.empty()) lora["targets"] = targets;
    s["lora"] = lora;
    r.origin("/lora/targets", "target_modules");
    r.origin("/lora", "r");
    bool flag = false;
    if (r.boolean("use_dora", flag) && flag) r.problem("use_dora", "DoRA is not modelled by gpuguide");
    if (const json* m = r.find("modules_to_save"))
        if (!(m->is_array() && m->empty()))
            r.problem("modules_to_save", "fully trained extra modules are not modelled by gpuguide");
    // What an adapter file cannot say: how the base was loaded and how it was trained.
    s["checkpointing"] = "full";
    r.assume("(training)", "an adapter_config.json says nothing of the training run: batch 1, no accumulation, "
                           "gradient checkpointing on, and the precision people run this model with (bf16 autocast, "
                           "weights as saved); a base loaded in 4 bits (QLoRA) is precision nf4");
    out.seq_len_key = "(sequence length)";
    out.seq_len_note = "an adapter_config.json does not give the sequence length";
    r.finish({"lora_alpha", "task_type", "inference_mode", "revision", "bias", "fan_in_fan_out", "init_lora_weights",
              "layers_to_transform", "layers_pattern", "rank_pattern", "alpha_pattern", "auto_mapping",
              "use_rslora", "megatron_", "loftq_config", "layer_replication", "runtime_config", "lora_bias",
              "eva_config", "exclude_modules", "corda_config", "trainable_token_indices", "qalora_group_size",
              "use_qalora", "target_parameters"},
             "PEFT");
}

}  // namespace gg::catalog::config_detail
