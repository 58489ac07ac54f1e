// Scenario JSON <-> engine configuration (see scenario.h). Never throws: text is read with parse_json_text (depth
// limit, duplicate keys, located syntax errors; it catches nlohmann's exceptions) and values with explicit type
// checks; every problem carries its JSON pointer and the allowed values. The keys and their rules are in
// scenario_keys.cpp and scenario_key_rules.cpp, custom models in scenario_custom.cpp.
//
// Sections: allowed values | parse | to_json | engine config | the stacks
#include "catalog/scenario.h"
#include "catalog/hf_config.h"
#include "catalog/json_text.h"
#include "catalog/loader_json.h"
#include "catalog/scenario_key_rules.h"
#include "catalog/time_data.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace gg::catalog {

using nlohmann::json;

// ---- allowed values ------------------------------------------------------------------------------------------
const std::vector<std::string> kFp32Modules = {"none", "norms", "all"};
const std::vector<std::string> kPrecisions = {"fp32", "tf32", "fp16-amp", "bf16-amp", "bf16", "fp8", "int8", "nf4"};
const std::vector<std::string> kOptimizers = {"sgd", "sgd-momentum", "adam", "adamw", "adamw-8bit", "adafactor", "lion"};
const std::vector<std::string> kMethods = {"full", "frozen-backbone", "lora", "qlora"};
const std::vector<std::string> kCheckpointings = {"none", "selective", "full"};
const std::vector<std::string> kAttentions = {"eager", "sdpa", "flash"};
// In engine::Strategy's order ("dp": torch.nn.DataParallel, engine/data_parallel.h).
const std::vector<std::string> kStrategies = {"ddp", "zero1", "zero2", "zero3", "fsdp", "dp"};
const std::vector<std::string> kInterconnects = {"pcie3", "pcie4", "pcie5", "nvlink-bridge", "nvlink", "ib", "ethernet"};
const std::vector<std::string> kGradReduceDtypes = {"fp32", "fp16", "bf16"};
const std::vector<std::string> kMemoryFormats = {"nchw", "channels_last"};
const std::vector<std::string> kOptimizerImpls = {"foreach", "for-loop", "fused"};  // engine::OptimizerImpl order
const std::vector<std::string> kLoraTargets = {"q", "k", "v", "o", "qkv", "gate", "up", "down", "fc1", "fc2"};
// The fine-tuning stacks a scenario can name, and their switches (stack_mechanisms below).
const std::vector<std::string> kStacks = {"hf-trainer", "llama-factory", "unsloth", "torchtune", "axolotl"};
const std::vector<std::string> kDisplays = {"auto", "none", "linux-desktop", "windows-desktop"};  // engine::Display

std::vector<std::string> network_ids() {
    std::vector<std::string> ids;
    for (const engine::InterconnectSpec& e : embedded_time_data().interconnects.entries)
        if (e.inter_node) ids.push_back(e.id);
    return ids;
}

const char* network_conflict(const Scenario& s) {
    const engine::InterconnectSpec* e = embedded_time_data().interconnects.find_id(s.network);
    if (!e || !(s.interconnect == "ib" || s.interconnect == "ethernet")) return nullptr;
    const char* kind = engine::interconnect_name(e->kind);
    return kind == s.interconnect ? nullptr : kind;
}

void align_network(Scenario& s, NetworkEdit edited) {
    const char* kind = network_conflict(s);
    if (!kind) return;
    if (edited == NetworkEdit::kNetworkChanged) s.interconnect = kind;
    else s.network.clear();
}

namespace {

using scenario_detail::index_of;

engine::ParamRole role_of(const std::string& t) {
    using engine::ParamRole;
    static const std::vector<std::pair<std::string, ParamRole>> map = {
        {"q", ParamRole::kQ},       {"k", ParamRole::kK},     {"v", ParamRole::kV},       {"o", ParamRole::kO},
        {"qkv", ParamRole::kQkv},   {"gate", ParamRole::kGate}, {"up", ParamRole::kUp},   {"down", ParamRole::kDown},
        {"fc1", ParamRole::kFc1},   {"fc2", ParamRole::kFc2}};
    for (const auto& [name, role] : map)
        if (name == t) return role;
    return ParamRole::kNone;
}

}  // namespace

// ---- parse ---------------------------------------------------------------------------------------------------
ParsedScenario parse_scenario(std::string_view text, const std::string& file, const Catalog* catalog) {
    const JsonText doc = parse_json_text(text);
    if (!doc.error.empty()) {
        ParsedScenario out;
        out.problems.push_back({file, "", doc.error});
        return out;
    }
    return parse_scenario_json(doc.value, file, catalog);
}

namespace {
bool holds_null(const json& j) {
    if (j.is_null()) return true;
    if (j.is_object())
        for (const auto& [key, value] : j.items())
            if (holds_null(value)) return true;
    return false;
}
json drop_nulls(const json& j) {
    if (!j.is_object()) return j;
    json out = json::object();
    for (const auto& [key, value] : j.items())
        if (!value.is_null()) out[key] = drop_nulls(value);
    return out;
}
}  // namespace

json scenario_without_nulls(const json& doc) {
    if (!doc.is_object()) return doc;
    bool any = false;
    for (const auto& [key, value] : doc.items()) any |= key != "model" && holds_null(value);
    if (!any) return doc;
    json out = json::object();
    for (const auto& [key, value] : doc.items())
        if (key == "model") out[key] = value;
        else if (!value.is_null()) out[key] = drop_nulls(value);
    return out;
}

ParsedScenario parse_scenario_json(const json& doc_as_given, const std::string& file, const Catalog* catalog) {
    using namespace scenario_detail;
    const json doc = scenario_without_nulls(doc_as_given);
    const Catalog& cat = catalog != nullptr ? *catalog : embedded_catalog();
    ParsedScenario out;
    Reader r{file, &out.problems};
    if (!doc.is_object()) {
        r.problem("", "a scenario must be a JSON object");
        return out;
    }
    r.unknown_keys(doc, "", scenario_key_names(""));
    // The keys in their passes (scenario_keys.h), with the defaults that need keys of several passes in between.
    KeyContext c{doc, out.scenario, r, cat, &doc, ""};
    read_scenario_keys(c, "", 0, 1);  // the model, then the job: shape, precision, optimizer, method, checkpointing
    default_precision(c);
    read_scenario_keys(c, "", 2, 6);  // memory switches, the stack and its switches, headroom, lora, gpu, dataset
    // frozen_weights_16bit's default depends on the stack and the strategy, both known only now.
    Scenario& s = out.scenario;
    if (!doc.contains("frozen_weights_16bit")) s.frozen_weights_16bit = s.frozen_weights_16bit_default();
    read_scenario_keys(c, "", 7, 7);  // fp32_modules, against the precision
    check_combinations(c);  // impossible combinations
    return out;
}

// ---- to_json -------------------------------------------------------------------------------------------------
json scenario_to_json(const Scenario& s) {
    json j = json::object();
    if (s.model_id == "custom") j["model"] = s.custom_model;
    else j["model"] = s.model_id;
    j["batch_size"] = s.batch_size;
    j["grad_accum_steps"] = s.grad_accum_steps;
    if (s.image_size > 0) j["image_size"] = s.image_size;
    if (s.seq_len > 0) j["seq_len"] = s.seq_len;
    j["precision"] = s.precision;
    j["optimizer"] = s.optimizer;
    if (s.optimizer_impl != "foreach") j["optimizer_impl"] = s.optimizer_impl;
    j["method"] = s.method;
    if (s.method == "lora" || s.method == "qlora") {
        json l = {{"rank", s.lora_rank}, {"dropout", s.lora_dropout}};
        if (!s.lora_targets.empty()) l["targets"] = s.lora_targets;
        j["lora"] = l;
    }
    j["checkpointing"] = s.checkpointing;
    j["attention"] = s.attention;
    if (s.memory_format != "nchw") j["memory_format"] = s.memory_format;
    json g = {{"count", s.gpu_count}, {"strategy", s.strategy}};
    if (!s.gpu_id.empty()) g["id"] = s.gpu_id;
    if (!s.interconnect.empty()) g["interconnect"] = s.interconnect;
    if (!s.network.empty()) g["network"] = s.network;
    if (s.peer_to_peer_set) g["peer_to_peer"] = s.peer_to_peer;
    if (s.ecc != engine::EccSetting::kDefault) g["ecc"] = s.ecc == engine::EccSetting::kOn;
    if (!s.grad_reduce_dtype.empty()) g["grad_reduce_dtype"] = s.grad_reduce_dtype;
    if (s.tensor_parallel != 1) g["tensor_parallel"] = s.tensor_parallel;
    if (s.pipeline_parallel != 1) g["pipeline_parallel"] = s.pipeline_parallel;
    if (s.pipeline_interleave != 1) g["pipeline_interleave"] = s.pipeline_interleave;
    if (s.sequence_parallel) g["sequence_parallel"] = true;
    j["gpu"] = g;
    j["reserve_fraction"] = s.reserve_fraction;
    if (s.stack != "hf-trainer") j["stack"] = s.stack;
    json so = json::object();
    if (s.liger_kernel) so["liger_kernel"] = true;
    if (s.use_unsloth) so["use_unsloth"] = true;
    if (s.packing) so["packing"] = true;
    if (s.paged_optimizer) so["paged_optimizer"] = true;
    if (s.compile) so["compile"] = true;
    if (s.offload_activations_set) so["offload_activations"] = s.offload_activations;
    if (!so.empty()) j["stack_options"] = so;
    if (s.display != "auto") j["display"] = s.display;
    if (s.eval_batch_size > 0) j["eval_batch_size"] = s.eval_batch_size;
    if (s.longest_seq_len > 0) j["longest_seq_len"] = s.longest_seq_len;
    j["offload_optimizer"] = s.offload_optimizer;
    if (s.ema || s.ema_default()) j["ema"] = s.ema;  // written when it differs from the default, or the default is on
    if (s.frozen_weights_16bit_applies() && (s.frozen_weights_16bit || s.frozen_weights_16bit_default()))
        j["frozen_weights_16bit"] = s.frozen_weights_16bit;
    if (!s.fp32_modules.empty()) j["fp32_modules"] = s.fp32_modules;
    if (engine::has_input_encoders(s.model) && (s.precomputed_latents || s.precomputed_latents_default()))
        j["precomputed_latents"] = s.precomputed_latents;  // as "ema": differs from the default, or the default is on
    json d = json::object();
    if (s.dataset_tokens > 0) d["tokens"] = s.dataset_tokens;
    else {
        if (s.dataset_samples > 0) d["samples"] = s.dataset_samples;
        if (s.dataset_epochs > 0) d["epochs"] = s.dataset_epochs;
    }
    if (s.loader_samples_per_s > 0) d["loader_samples_per_s"] = s.loader_samples_per_s;
    loader_key_to_json(s, d);  // catalog/loader_json.cpp
    if (!d.empty()) j["dataset"] = d;
    if (s.has_tunables)
        j["tunables"] = {{"cuda_context_bytes", s.tunables.cuda_context_bytes},
                         {"fragmentation_fraction", s.tunables.fragmentation_fraction},
                         {"cublas_workspace_bytes", s.tunables.cublas_workspace_bytes},
                         {"cudnn_workspace_bytes", s.tunables.cudnn_workspace_bytes},
                         {"optimizer_temp_fraction", s.tunables.optimizer_temp_fraction},
                         {"zero_grad_set_to_none", s.tunables.zero_grad_set_to_none}};
    return j;
}

// ---- engine config -------------------------------------------------------------------------------------------
engine::TrainingConfig Scenario::training_config() const {
    using namespace engine;
    TrainingConfig c;
    c.batch = batch_size;
    c.grad_accum_steps = grad_accum_steps;
    const int p = index_of(kPrecisions, precision);
    c.precision = p >= 0 ? Precision(p) : Precision::kFp32;
    const int o = index_of(kOptimizers, optimizer);
    c.optimizer = o >= 0 ? Optimizer(o) : Optimizer::kAdamW;
    const int oi = index_of(kOptimizerImpls, optimizer_impl);
    c.optimizer_impl = oi >= 0 ? OptimizerImpl(oi) : OptimizerImpl::kForeach;
    const int m = index_of(kMethods, method);
    c.method = m >= 0 ? Method(m) : Method::kFull;
    c.lora.rank = lora_rank;
    c.lora.dropout = lora_dropout;
    bool short_names = true;  // the scenario format's own names map to roles without the model
    for (const std::string& t : lora_targets) {
        const ParamRole r = role_of(t);
        if (r != ParamRole::kNone) c.lora.targets.push_back(r);
        else short_names = false;
    }
    if (!short_names) c.lora.targets = catalog::resolve_lora_targets(model, lora_targets).roles;
    const int k = index_of(kCheckpointings, checkpointing);
    c.checkpointing = k >= 0 ? Checkpointing(k) : Checkpointing::kNone;
    c.eager_attention = attention == "eager";
    c.channels_last = memory_format == "channels_last";
    c.gpu_count = gpu_count;
    const int st = index_of(kStrategies, strategy);
    c.strategy = st >= 0 ? Strategy(st) : Strategy::kDdp;
    c.tensor_parallel = tensor_parallel;
    c.pipeline_parallel = pipeline_parallel;
    c.pipeline_interleave = pipeline_interleave;
    c.sequence_parallel = sequence_parallel;
    c.offload_optimizer = offload_optimizer;
    c.ema_weights = ema;
    c.precomputed_latents = precomputed_latents;
    c.frozen_weights_16bit = frozen_weights_16bit && frozen_weights_16bit_applies();
    c.reserve_fraction = reserve_fraction;
    c.tunables = tunables;
    c.loss_kernel = loss_kernel();
    c.offload_activations = offload_activations_effective() && c.checkpointing == Checkpointing::kFull;
    c.fused_block_kernels = stack == "unsloth" || use_unsloth;
    if (precision == "int8" || precision == "nf4") {
        const std::string f = fp32_modules_effective();
        c.fp32_modules = f == "all" ? engine::Fp32Modules::kAll : f == "norms" ? engine::Fp32Modules::kNorms
                                                                               : engine::Fp32Modules::kNone;
    }
    c.packing = packing;
    const int d = index_of(kDisplays, display);
    c.display = d >= 0 ? Display(d) : Display::kAuto;
    c.eval_batch = eval_batch_size;
    c.paged_optimizer = paged_optimizer;
    c.compiled_loss = compile && stack == "torchtune";
    // The longest sample (unpacked, variable lengths): the bytes it needs beyond seq_len at this micro-batch.
    const WorkloadShape shape = shape_per_sample();
    if (!packing && !model.is_vision && longest_seq_len > shape.seq_len) {
        c.longest_seq_len = longest_seq_len;
        BuildOptions o;
        o.eager_attention = c.eager_attention;
        WorkloadShape longest = shape;
        longest.seq_len = longest_seq_len;
        const double at_seq = required_bytes(prepare_memory(build_graph(model, shape, o), c), c.batch);
        const double at_longest = required_bytes(prepare_memory(build_graph(model, longest, o), c), c.batch);
        c.long_sample_extra_bytes = std::max(0.0, at_longest - at_seq);
    }
    return c;
}

// ---- the stacks --------------------------------------------------------------------------------------------
// Each stack's documented defaults, and what its switches turn on:
//  - hf-trainer: transformers' loss (TrainingArguments.use_liger_kernel defaults to False; trl SFTConfig.packing
//    defaults to False);
//  - llama-factory: the same model code (FinetuningArguments: enable_liger_kernel False, use_unsloth False; packing
//    None = on only for pre-training, so off for sft); use_unsloth applies Unsloth's patches, whose PEFT model LLaMA-
//    Factory asks for with use_gradient_checkpointing="unsloth" (llamafactory/model/model_utils/unsloth.py);
//  - unsloth: its fused cross-entropy always, and the offloaded checkpointing of its notebooks and docs
//    (get_peft_model(..., use_gradient_checkpointing = "unsloth"): "uses 30% less VRAM, fits 2x larger batch sizes");
//  - torchtune: the LoRA and full recipes' configs (recipes/configs/llama3_1/8B_lora_single_device.yaml): loss
//    torchtune.modules.loss.CEWithChunkedOutputLoss, enable_activation_checkpointing True,
//    enable_activation_offloading False, dataset packed False, compile False;
//  - axolotl: transformers' loss unless the Liger plugin is on (liger_fused_linear_cross_entropy), sample_packing
//    off unless set, gradient_checkpointing "offload" as the offloading switch.
const char* stack_switch_line(const std::string& stack, engine::Change change) {
    if (change == engine::Change::kFusedLoss) {
        // transformers TrainingArguments.use_liger_kernel; LLaMA-Factory FinetuningArguments.enable_liger_kernel;
        // axolotl's Liger plugin (docs: "plugins: - axolotl.integrations.liger.LigerPlugin" with
        // liger_fused_linear_cross_entropy: true).
        if (stack == "hf-trainer") return "TrainingArguments(..., use_liger_kernel=True)";
        if (stack == "llama-factory") return "enable_liger_kernel: true";
        if (stack == "axolotl")
            return "plugins: [axolotl.integrations.liger.LigerPlugin]\nliger_fused_linear_cross_entropy: true";
        return nullptr;  // unsloth: always fused; torchtune: its own chunked loss
    }
    if (change == engine::Change::kOffloadActivations) {
        if (stack == "unsloth") return "FastLanguageModel.get_peft_model(..., use_gradient_checkpointing=\"unsloth\")";
        if (stack == "torchtune") return "enable_activation_offloading=True";
        if (stack == "axolotl") return "gradient_checkpointing: offload";
        return nullptr;
    }
    return nullptr;
}

engine::LossKernel Scenario::loss_kernel() const {
    if (liger_kernel || use_unsloth || stack == "unsloth") return engine::LossKernel::kFused;
    if (stack == "torchtune") return engine::LossKernel::kChunked;
    return engine::LossKernel::kEager;
}
// What each stack does to the unquantized modules of a bitsandbytes model (engine::Fp32Modules):
//  - hf-trainer: the QLoRA recipe calls peft's prepare_model_for_kbit_training, which upcasts every fp16/bf16
//    parameter to fp32 (peft/utils/other.py @012c0d5a); trl's SFTTrainer calls it for a 4-bit model given a
//    peft_config (and with bf16=True takes embeddings and lm_head back to bf16: "norms", set it so);
//  - llama-factory: neither; upcast_layernorm (default False, hparams/model_args.py) is its "norms";
//  - axolotl: prepare_model_for_kbit_training, then "converting modules to torch_dtype for flash attention": norms,
//    embed_tokens and lm_head back to the 16-bit dtype (src/axolotl/utils/models.py load_model);
//  - unsloth: its own prepare_model_for_kbit_training upcasts only the LoRA weights (unsloth/models/_utils.py);
//  - torchtune: the whole model in `dtype` (bf16).
std::string Scenario::fp32_modules_default() const {
    if (stack == "hf-trainer") return "all";
    return "none";
}
bool Scenario::offload_activations_default() const { return stack == "unsloth" || use_unsloth; }
bool Scenario::offload_activations_effective() const {
    return offload_activations_set ? offload_activations : offload_activations_default();
}

// Stacks that load the model in the mixed-precision dtype, so a frozen base is 16-bit under autocast:
//  - LLaMA-Factory: patch_config sets from_pretrained's torch_dtype to compute_dtype (bf16 / fp16 from the training
//    arguments) unless DeepSpeed ZeRO-3 runs without quantization (model/patcher.py), and init_adapter upcasts only
//    the trainable parameters to fp32 (model/adapter.py);
//  - axolotl: normalize_config sets cfg.torch_dtype to bfloat16 with bf16, float16 with fp16, and loads with it;
//  - Unsloth: FastLanguageModel.from_pretrained(dtype=None) loads bf16 where the card has it, else fp16.
// transformers' Trainer and torchtune (no autocast) keep their own rule (engine::frozen_weights_16bit_default).
bool Scenario::stack_loads_16bit() const {
    return (stack == "llama-factory" && strategy != "zero3") || stack == "axolotl" || stack == "unsloth";
}

bool Scenario::frozen_weights_16bit_default() const {
    const int m = index_of(kMethods, method);
    const int p = index_of(kPrecisions, precision);
    if (m < 0 || p < 0) return false;
    if (stack_loads_16bit() && frozen_weights_16bit_applies()) return true;
    // No precision given: the weights load as the checkpoint saved them (see parse_scenario_json).
    if (precision_defaulted && (model.checkpoint_dtype == "bfloat16" || model.checkpoint_dtype == "float16") &&
        frozen_weights_16bit_applies())
        return true;
    return engine::frozen_weights_16bit_default(model.family, engine::Method(m), engine::Precision(p));
}

bool interconnect_possible(const engine::GpuSpec& gpu, std::string_view id) {
    return id.rfind("nvlink", 0) != 0 || gpu.nvlink_bytes_per_s > 0;
}

engine::WorkloadShape Scenario::shape_per_sample() const {
    engine::WorkloadShape s;
    s.batch = 1;
    if (model.is_vision) s.image_size = image_size > 0 ? image_size : model.default_image_size;
    else s.seq_len = seq_len > 0 ? seq_len : model.default_seq_len;
    return s;
}

}  // namespace gg::catalog
