// The scenario key table (scenario_keys.h): one row per key, the walk that reads a scenario by it, and the listings
// made from it (`gpuguide keys`, docs/scenario-keys.md). The rules a row names are in scenario_key_rules.cpp.
#include "catalog/scenario_keys.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "catalog/scenario_key_rules.h"

namespace gg::catalog {
namespace {

using scenario_detail::KeyContext;
using Choices = std::vector<std::string> (*)();

// Builds one row: K("batch_size", KeyType::kWhole, 1).range(1, 1 << 20).sets(&Scenario::batch_size)...
struct K {
    ScenarioKey k;
    K(const char* path, KeyType type, int pass) {
        k.path = path;
        k.type = type;
        k.pass = pass;
    }
    K& range(double lo, double hi) { k.min = lo; k.max = hi; return *this; }
    K& values(Choices f) { k.choices = f; return *this; }
    K& sets(int Scenario::*m) { k.field.whole = m; return *this; }
    K& sets(double Scenario::*m) { k.field.number = m; return *this; }
    K& sets(bool Scenario::*m) { k.field.flag = m; return *this; }
    K& sets(std::string Scenario::*m) { k.field.text = m; return *this; }
    K& sets(double engine::Tunables::*m) { k.field.tunable = m; return *this; }
    K& sets(bool engine::Tunables::*m) { k.field.tunable_flag = m; return *this; }
    K& def(const char* text) { k.default_value = text; return *this; }
    K& help(const char* text) { k.help = text; return *this; }
    K& not_object(const char* message) { k.not_object = message; return *this; }
    K& preset(void (*f)(KeyContext&)) { k.preset = f; return *this; }
    K& read(bool (*f)(KeyContext&)) { k.read = f; return *this; }
    K& check(void (*f)(KeyContext&, bool)) { k.check = f; return *this; }
    operator ScenarioKey() const { return k; }
};

using namespace scenario_detail;
constexpr KeyType kModel = KeyType::kModel, kWhole = KeyType::kWhole, kNumber = KeyType::kNumber,
                  kBoolean = KeyType::kBoolean, kChoice = KeyType::kChoice, kList = KeyType::kList,
                  kText = KeyType::kText, kObject = KeyType::kObject;

// The model and the job: shape, precision, optimizer, method and its LoRA, checkpointing, kernels.
std::vector<ScenarioKey> job_keys() {
    return {
        K("model", kModel, 0).read(read_model).def("required").help(
            "A preset id (gpuguide models), a custom object {\"family\": decoder|encoder|vit|resnet|wide-resnet|unet, "
            "...} (gpuguide estimate --help lists each family's keys) or {\"hf_config\": a Hugging Face config.json}. "
            "A GAN preset or {\"gan\": {...}} is a GAN scenario (docs/gan.md)."),
        K("batch_size", kWhole, 1).range(1, 1 << 20).sets(&Scenario::batch_size).def("1").help(
            "The micro-batch per GPU."),
        K("grad_accum_steps", kWhole, 1).range(1, 1 << 20).sets(&Scenario::grad_accum_steps).def("1").help(
            "Micro-batches per optimizer step; the gradients then stay allocated between micro-batches."),
        K("image_size", kWhole, 1).range(8, 16384).sets(&Scenario::image_size).check(check_image_size)
            .def("the model's").help("The image side in pixels, vision models only."),
        K("seq_len", kWhole, 1).range(2, 1 << 21).sets(&Scenario::seq_len).check(check_seq_len)
            .def("the model's").help("Tokens per sample, sequence models only."),
        K("precision", kChoice, 1).values([] { return kPrecisions; }).sets(&Scenario::precision)
            .def("nf4 with qlora; bf16-amp (fp16-amp without bf16) for a transformer saved in 16 bits; else fp32")
            .help("The training precision: fp16-amp/bf16-amp are PyTorch autocast, bf16 is pure bf16, int8 and nf4 "
                  "are bitsandbytes weights."),
        K("optimizer", kChoice, 1).values([] { return kOptimizers; }).sets(&Scenario::optimizer).def("adamw").help(
            "The optimizer; its states are counted per trainable parameter."),
        K("optimizer_impl", kChoice, 1).values([] { return kOptimizerImpls; }).sets(&Scenario::optimizer_impl)
            .def("foreach").help("How the optimizer step runs: foreach (PyTorch >= 2.0), for-loop (PyTorch < 2.0, "
                                 "transformers' own optimizers) or fused (one kernel)."),
        K("method", kChoice, 1).values([] { return kMethods; }).sets(&Scenario::method).def("full").help(
            "What trains: every weight, a head on a frozen backbone, LoRA adapters, or QLoRA (needs precision nf4)."),
        K("lora", kObject, 6).check(check_lora).not_object("'lora' must be an object {\"rank\", \"targets\", \"dropout\"}")
            .help("The LoRA adapters (method lora or qlora)."),
        K("lora/rank", kWhole, 0).range(1, 65536).sets(&Scenario::lora_rank).def("16").help(
            "The adapters' rank; at most the width of the narrowest layer adapted."),
        K("lora/targets", kList, 1).read(read_lora_targets).def("q and v (PEFT's)").help(
            "The modules adapted: q, k, v, o, qkv, gate, up, down, fc1, fc2, the model's own module names (q_proj, "
            "c_attn, ...) or all-linear."),
        K("lora/dropout", kNumber, 0).range(0, 0.99).sets(&Scenario::lora_dropout).def("0").help(
            "The adapters' dropout probability."),
        K("checkpointing", kChoice, 1).values([] { return kCheckpointings; }).sets(&Scenario::checkpointing)
            .def("none; the stack's own, or full for a transformer saved in 16 bits without a precision").help(
                "Activation checkpointing: selective recomputes the attention core, full keeps only layer inputs."),
        K("attention", kChoice, 2).values([] { return kAttentions; }).sets(&Scenario::attention).def("sdpa").help(
            "The attention kernel: eager keeps the s x s scores; flash needs 16-bit precision."),
        K("memory_format", kChoice, 2).values([] { return kMemoryFormats; }).sets(&Scenario::memory_format)
            .def("nchw").help("The tensor layout of convolution models: channels_last avoids layout transposes "
                              "around 16-bit convolutions."),
    };
}

// The cards and how they work together.
std::vector<ScenarioKey> gpu_keys() {
    return {
        K("gpu", kObject, 6).help("The cards and how they work together.").not_object(
            "'gpu' must be an object {\"id\", \"count\", \"strategy\", \"interconnect\", \"peer_to_peer\", "
            "\"grad_reduce_dtype\", \"tensor_parallel\", \"pipeline_parallel\", \"pipeline_interleave\", "
            "\"sequence_parallel\"}"),
        K("gpu/id", kText, 0).read(read_gpu_id).def("no card").help("A GPU id (gpuguide gpus, data/gpus.json)."),
        K("gpu/count", kWhole, 0).range(1, 1 << 16).sets(&Scenario::gpu_count).def("1").help(
            "GPUs in all (tensor x pipeline x data-parallel replicas)."),
        K("gpu/strategy", kChoice, 0).values([] { return kStrategies; }).sets(&Scenario::strategy).def("ddp").help(
            "Data parallelism: DDP, DeepSpeed ZeRO stages, FSDP, or dp (torch.nn.DataParallel)."),
        K("gpu/interconnect", kChoice, 0).values([] { return kInterconnects; }).sets(&Scenario::interconnect)
            .def("the card's own link").help("The link between the cards; nvlink and nvlink-bridge need NVLink."),
        K("gpu/network", kChoice, 0).values(network_ids).sets(&Scenario::network).check(check_network)
            .def("ib-hdr; ethernet-25g with interconnect ethernet").help(
                "The network between 8-GPU servers when the job spans several (data/interconnects.json)."),
        K("gpu/peer_to_peer", kBoolean, 0).sets(&Scenario::peer_to_peer).check(check_peer_to_peer)
            .def("the card's (GeForce RTX 40-series and later: none)").help(
                "false = NCCL_P2P_DISABLE=1: collectives go through host memory."),
        K("gpu/grad_reduce_dtype", kChoice, 1).values([] { return kGradReduceDtypes; })
            .sets(&Scenario::grad_reduce_dtype).def("the gradients' own").help(
                "The dtype gradients are all-reduced in (fp16 = DDP fp16_compress_hook, DeepSpeed fp16)."),
        K("gpu/tensor_parallel", kWhole, 1).range(1, 1024).sets(&Scenario::tensor_parallel).def("1").help(
            "Megatron-LM tensor parallelism: heads and FFN split over this many GPUs (transformers)."),
        K("gpu/pipeline_parallel", kWhole, 1).range(1, 1024).sets(&Scenario::pipeline_parallel).def("1").help(
            "Pipeline stages (1F1B; grad_accum_steps = micro-batches per step)."),
        K("gpu/pipeline_interleave", kWhole, 1).range(1, 64).sets(&Scenario::pipeline_interleave).def("1").help(
            "Layer chunks per GPU; > 1 = interleaved 1F1B."),
        K("gpu/sequence_parallel", kBoolean, 1).sets(&Scenario::sequence_parallel).def("false").help(
            "Norms and dropout split along the sequence; needs tensor_parallel > 1."),
        K("gpu/ecc", kBoolean, 0).read(read_ecc).def("as the card ships").help(
            "ECC on your own GDDR card: false gives back the 1/16 its check bits take."),
    };
}

// The headroom, the data, the memory switches and the memory model's tunables.
std::vector<ScenarioKey> data_and_memory_keys() {
    return {
        K("reserve_fraction", kNumber, 4).range(0, 0.9).sets(&Scenario::reserve_fraction).def("0").help(
            "A share of the card kept free on top of the headroom."),
        K("dataset", kObject, 6).check(check_dataset).help("The training data, for the time and cost estimates.")
            .not_object("'dataset' must be {\"samples\", \"epochs\"} or {\"tokens\"}, optionally with "
                        "\"loader_samples_per_s\""),
        K("dataset/samples", kNumber, 2).range(1, 1e15).sets(&Scenario::dataset_samples).check(check_samples)
            .def("none").help("Samples per epoch (a whole number)."),
        K("dataset/epochs", kNumber, 2).range(1e-3, 1e6).sets(&Scenario::dataset_epochs).def("none").help(
            "Passes over the samples."),
        K("dataset/tokens", kNumber, 2).range(1, 1e16).sets(&Scenario::dataset_tokens).def("none").help(
            "Tokens in all, instead of samples and epochs (language models)."),
        K("dataset/loader_samples_per_s", kNumber, 1).range(1e-3, 1e9).sets(&Scenario::loader_samples_per_s)
            .def("it keeps up").help("What the input pipeline delivers per GPU, measured; a slower loader sets "
                                     "the step time."),
        K("dataset/loader", kObject, 0).read(read_loader).def("the pipeline the job implies").help(
            "The input pipeline {\"pipeline\", \"workers\", \"cpus\"} (docs/time-model.md)."),
        K("offload_optimizer", kBoolean, 2).sets(&Scenario::offload_optimizer).def("false").help(
            "Optimizer states (with fp32 master weights and gradients) in host RAM (ZeRO-Offload)."),
        K("ema", kBoolean, 2).sets(&Scenario::ema).preset([](KeyContext& c) { c.s.ema = c.s.ema_default(); })
            .def("true for YOLO, else false").help(
                "An exponential moving average of the trainable weights, kept on the GPU."),
        K("precomputed_latents", kBoolean, 3).sets(&Scenario::precomputed_latents)
            .preset([](KeyContext& c) { c.s.precomputed_latents = c.s.precomputed_latents_default(); })
            .check(check_precomputed_latents).def("true for the SDXL full fine-tune, else false").help(
                "SD models: VAE latents and text embeddings computed before training."),
        K("frozen_weights_16bit", kBoolean, 2).sets(&Scenario::frozen_weights_16bit)
            .preset([](KeyContext& c) { c.s.frozen_weights_16bit = c.s.frozen_weights_16bit_default(); })
            .check(check_frozen_weights_16bit).def("true for SD LoRA and 16-bit loading stacks, else false").help(
                "Under fp16-amp/bf16-amp with lora or frozen-backbone: the weights that do not train are stored in "
                "16 bits."),
        K("fp32_modules", kChoice, 7).values([] { return kFp32Modules; }).sets(&Scenario::fp32_modules)
            .check(check_fp32_modules).def("the stack's (hf-trainer: all)").help(
                "int8/nf4 models: which unquantized modules train in fp32."),
        K("tunables", kObject, 6).check(note_tunables).not_object("'tunables' must be an object").help(
            "The memory model's tunable factors (docs/memory-model.md)."),
        K("tunables/cuda_context_bytes", kNumber, 1).range(0, 64e9).sets(&engine::Tunables::cuda_context_bytes)
            .def("419430400").help("The CUDA context and kernels, seen by nvidia-smi."),
        K("tunables/fragmentation_fraction", kNumber, 1).range(0, 2)
            .sets(&engine::Tunables::fragmentation_fraction).def("0.1").help(
                "The caching allocator's reserve on top of the allocated peak."),
        K("tunables/cublas_workspace_bytes", kNumber, 1).range(0, 64e9)
            .sets(&engine::Tunables::cublas_workspace_bytes).def("8519680").help("cuBLAS's workspace."),
        K("tunables/cudnn_workspace_bytes", kNumber, 1).range(0, 64e9)
            .sets(&engine::Tunables::cudnn_workspace_bytes).def("0").help("cuDNN's workspace."),
        K("tunables/optimizer_temp_fraction", kNumber, 1).range(0, 4)
            .sets(&engine::Tunables::optimizer_temp_fraction).def("1").help(
                "The optimizer step's temporaries, as a share of the largest parameter group."),
        K("tunables/zero_grad_set_to_none", kBoolean, 0).sets(&engine::Tunables::zero_grad_set_to_none)
            .def("true").help("false = torch < 2.0: gradients stay allocated between steps."),
    };
}

// The fine-tuning stack, its switches, and what the headroom holds beside the job.
std::vector<ScenarioKey> stack_keys() {
    return {
        K("stack", kChoice, 4).values([] { return kStacks; }).sets(&Scenario::stack).check(check_stack)
            .def("hf-trainer").help("The fine-tuning stack, with its documented defaults (decoder models)."),
        K("stack_options", kObject, 5).check(check_stack_options).help("The stack's switches.").not_object(
            "'stack_options' must be an object {\"liger_kernel\", \"use_unsloth\", \"packing\", "
            "\"offload_activations\", \"paged_optimizer\", \"compile\"}"),
        K("stack_options/liger_kernel", kBoolean, 2).sets(&Scenario::liger_kernel).def("false").help(
            "Liger's fused linear cross-entropy (hf-trainer, llama-factory, axolotl)."),
        K("stack_options/use_unsloth", kBoolean, 2).sets(&Scenario::use_unsloth).def("false").help(
            "LLaMA-Factory's Unsloth patch."),
        K("stack_options/packing", kBoolean, 2).sets(&Scenario::packing).def("false").help(
            "Every sequence seq_len tokens long, no padding."),
        K("stack_options/offload_activations", kBoolean, 2).sets(&Scenario::offload_activations)
            .check(note_offload_activations).def("the stack's (unsloth: true)").help(
                "Checkpointed activations in host RAM (unsloth, torchtune, axolotl; needs checkpointing full)."),
        K("stack_options/paged_optimizer", kBoolean, 1).sets(&Scenario::paged_optimizer)
            .check(check_paged_optimizer).def("false").help(
                "bitsandbytes' paged AdamW: its states leave the GPU around the forward and backward."),
        K("stack_options/compile", kBoolean, 0).sets(&Scenario::compile).check(check_compile).def("false").help(
            "torchtune's compile: True (its chunked loss compiled)."),
        K("display", kChoice, 5).values([] { return kDisplays; }).sets(&Scenario::display).def("auto").help(
            "The desktop on the card, counted in the headroom (auto: a desktop on an owned consumer card)."),
        K("eval_batch_size", kWhole, 5).range(0, 1 << 20).sets(&Scenario::eval_batch_size).def("0 (none)").help(
            "Evaluation during training at this batch: its logits count in the headroom."),
        K("longest_seq_len", kWhole, 5).range(2, 1 << 21).sets(&Scenario::longest_seq_len)
            .check(check_longest_seq_len).def("seq_len").help(
                "The longest sample when samples vary and are not packed: its extra counts in the headroom."),
    };
}

std::vector<ScenarioKey> make_table() {
    std::vector<ScenarioKey> table;
    for (auto part : {job_keys, gpu_keys, data_and_memory_keys, stack_keys}) {
        std::vector<ScenarioKey> rows = part();
        table.insert(table.end(), rows.begin(), rows.end());
    }
    return table;
}

// Reads a key by its type into its field (keys with a `read` of their own read themselves).
bool read_value(KeyContext& c, const ScenarioKey& k) {
    const std::string name = k.name();
    const KeyField& f = k.field;
    Scenario& s = c.s;
    switch (k.type) {
        case KeyType::kWhole:
            return c.r.integer(*c.object, name.c_str(), c.pointer, s.*f.whole, (long long)k.min, (long long)k.max);
        case KeyType::kNumber:
            return c.r.number(*c.object, name.c_str(), c.pointer, f.tunable ? s.tunables.*f.tunable : s.*f.number,
                              k.min, k.max, k.min_open);
        case KeyType::kBoolean:
            return c.r.boolean(*c.object, name.c_str(), c.pointer,
                               f.tunable_flag ? s.tunables.*f.tunable_flag : s.*f.flag);
        case KeyType::kChoice: return c.r.choice(*c.object, name.c_str(), c.pointer, k.choices(), s.*f.text);
        default: return false;
    }
}

// An object key, when present: its own keys, each in its pass, then its check (which sees the object as c.object).
void read_object(KeyContext& c, const ScenarioKey& k) {
    const std::string name = k.name();
    if (!c.object->contains(name)) return;
    const nlohmann::json& value = c.object->at(name);
    const std::string pointer = c.pointer + "/" + name;
    const nlohmann::json* outer = c.object;
    const std::string outer_pointer = c.pointer;
    c.object = &value;
    c.pointer = pointer;
    if (!value.is_object()) {
        c.r.problem(pointer, k.not_object);
    } else {
        c.r.unknown_keys(value, pointer, scenario_key_names(k.path));
        read_scenario_keys(c, k.path, 0, 1 << 20);
    }
    if (k.check) k.check(c, value.is_object());
    c.object = outer;
    c.pointer = outer_pointer;
}

std::string number_text(double x) {
    if (x == std::floor(x) && std::fabs(x) < 1e7) return std::to_string((long long)x);
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", x);
    return buffer;
}

// `text` in lines of at most 110 columns, each indented by `indent` spaces (a word longer than a line keeps its own).
std::string wrapped(const std::string& text, std::size_t indent) {
    constexpr std::size_t kColumns = 110;
    std::string out, line;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find(' ', at), text.size());
        const std::string word = text.substr(at, end - at);
        at = end + 1;
        if (word.empty()) continue;
        if (!line.empty() && indent + line.size() + 1 + word.size() > kColumns) {
            out += std::string(indent, ' ') + line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty()) out += std::string(indent, ' ') + line + "\n";
    return out;
}

std::string join_values(const std::vector<std::string>& v, const char* separator) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? separator : "") + v[i];
    return out;
}

}  // namespace

const std::vector<ScenarioKey>& scenario_keys() {
    static const std::vector<ScenarioKey> table = make_table();  // function-local: safe from initialisation order
    return table;
}

const ScenarioKey* find_scenario_key(std::string_view path) {
    for (const ScenarioKey& k : scenario_keys())
        if (k.path == path) return &k;
    return nullptr;
}

std::vector<std::string> scenario_key_names(std::string_view parent) {
    std::vector<std::string> names;
    for (const ScenarioKey& k : scenario_keys())
        if (k.parent() == parent) names.push_back(k.name());
    return names;
}

std::string ScenarioKey::allowed() const {
    switch (type) {
        case KeyType::kModel: return "preset id or object";
        case KeyType::kWhole: return "whole number " + number_text(min) + " to " + number_text(max);
        case KeyType::kNumber:
            return std::string("number ") + (min_open ? "greater than " : "from ") + number_text(min) +
                   (min_open ? ", at most " : " to ") + number_text(max);
        case KeyType::kBoolean: return "true or false";
        case KeyType::kChoice: return "one of: " + join_values(choices(), ", ");
        case KeyType::kList: return "list of names";
        case KeyType::kText: return "string";
        case KeyType::kObject: return "object";
    }
    return "";
}

namespace scenario_detail {

void read_scenario_keys(KeyContext& c, const std::string& parent, int first_pass, int last_pass) {
    int passes = 0;
    for (const ScenarioKey& k : scenario_keys()) passes = std::max(passes, k.pass + 1);
    for (int pass = first_pass; pass <= std::min(last_pass, passes - 1); ++pass)
        for (const ScenarioKey& k : scenario_keys()) {
            if (k.pass != pass || k.parent() != parent) continue;
            if (k.preset) k.preset(c);
            if (k.type == KeyType::kObject && !k.read) {
                read_object(c, k);
                continue;
            }
            const bool read = k.read ? k.read(c) : read_value(c, k);
            if (k.check) k.check(c, read);
        }
}

}  // namespace scenario_detail

std::string scenario_keys_text() {
    std::string out = "Scenario keys (every key optional except model; a/b is key b inside object a):\n";
    for (const ScenarioKey& k : scenario_keys()) {
        out += "\n  " + k.path + "\n";
        out += wrapped(k.allowed() + (k.default_value.empty() ? "" : "; default: " + k.default_value), 6);
        out += wrapped(k.help, 6);
    }
    return out;
}

std::string scenario_keys_markdown() {
    auto cell = [](std::string text) {
        for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2))
            text.replace(at, 1, "\\|");
        return text;
    };
    std::string out =
        "# Scenario keys\n"
        "\n"
        "Every key of a scenario (the input of `gpuguide estimate`, `rank`, `advise` and of the page's links), made\n"
        "from the key table the parser reads them by (`src/catalog/scenario_keys.cpp`) with\n"
        "`gpuguide keys --markdown > docs/scenario-keys.md`; the `scenario_keys_doc` test fails when this page and the\n"
        "table differ. `a/b` is key `b` inside object `a`. Only `model` is required. The keys `rank` and `advise` add\n"
        "(objective, budget, currency, ...) are in `docs/decisions.md`; GAN scenarios have keys of their own\n"
        "(`docs/gan.md`).\n"
        "\n"
        "| key | allowed | default | what it says |\n"
        "| --- | --- | --- | --- |\n";
    for (const ScenarioKey& k : scenario_keys())
        out += "| `" + k.path + "` | " + cell(k.allowed()) + " | " + cell(k.default_value) + " | " + cell(k.help) + " |\n";
    return out;
}

}  // namespace gg::catalog
