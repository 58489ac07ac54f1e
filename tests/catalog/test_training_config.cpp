// `gpuguide from-config`: the stacks' own example configs (tests/data/training_configs/, copied from upstream with
// their provenance) give the scenario they describe; what `gpuguide config` writes reads back to the same estimate;
// bad YAML is a clear problem naming the key.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/embedded_data.h"
#include "catalog/report.h"
#include "catalog/scenario.h"
#include "catalog/stack_config.h"
#include "catalog/time_data.h"
#include "catalog/time_json.h"
#include "catalog/training_config.h"
#include "catalog/yaml_text.h"
#include "engine/workload.h"

using namespace gg::catalog;
using nlohmann::json;

namespace {

std::string upstream(const std::string& name) {
    std::ifstream in(std::string(GG_SOURCE_DIR) + "/tests/data/training_configs/" + name, std::ios::binary);
    REQUIRE(in.good());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

Scenario scenario_of(const json& j) {
    const ParsedScenario p = parse_scenario_json(j);
    for (const Problem& x : p.problems) {
        CAPTURE(x.pointer);
        CAPTURE(x.message);
        CHECK(false);
    }
    return p.scenario;
}

bool has_note(const std::vector<ConfigKeyNote>& notes, const std::string& key) {
    for (const ConfigKeyNote& n : notes)
        if (n.key == key) return true;
    return false;
}

std::string problems_text(const TrainingConfigRead& r) {
    std::string s;
    for (const Problem& p : r.problems) s += p.pointer + " " + p.message + "\n";
    return s;
}

// The Meta-Llama-3-8B / Llama-3.1-8B parameter count (data/models.json llama-3.1-8b reference_params).
constexpr double kLlama3_8bParams = 8030261248.0;

}  // namespace

TEST_CASE("LLaMA-Factory's examples/train_lora/llama3_lora_sft.yaml gives the scenario the file says") {
    const TrainingConfigRead r = read_training_config(upstream("llama_factory_llama3_lora_sft.yaml"), "llama3_lora_sft.yaml");
    INFO(problems_text(r));
    REQUIRE(r.problems.empty());
    CHECK(r.format == "llama-factory");
    const json& j = r.scenario;
    const Scenario s = scenario_of(j);
    CHECK(gg::engine::count_params(s.model) == kLlama3_8bParams);  // meta-llama/Meta-Llama-3-8B-Instruct
    CHECK(j["model"]["hf_config"]["max_position_embeddings"] == 8192);  // Llama 3, not 3.1
    CHECK(s.method == "lora");
    CHECK(s.lora_rank == 8);
    CHECK(s.lora_targets == std::vector<std::string>{"all-linear"});
    CHECK(s.seq_len == 2048);
    CHECK(s.batch_size == 1);
    CHECK(s.grad_accum_steps == 8);
    CHECK(s.precision == "bf16-amp");
    CHECK(s.checkpointing == "full");  // disable_gradient_checkpointing: false by default
    CHECK_FALSE(s.packing);            // packing: None = on for stage pt only
    CHECK_FALSE(s.paged_optimizer);
    CHECK(s.stack == "llama-factory");
    CHECK(s.dataset_epochs == 3.0);
    CHECK(has_note(r.assumed, "optim"));  // transformers' default optimizer, named
    CHECK(has_note(r.not_used, "learning_rate"));
    CHECK(has_note(r.not_used, "max_samples"));
    CHECK(has_note(r.not_used, "trust_remote_code"));
}

TEST_CASE("LLaMA-Factory's qwen3_lora_sft.yaml names Qwen/Qwen3-4B-Instruct-2507 and asks for its config.json") {
    const std::string text = upstream("llama_factory_qwen3_lora_sft.yaml");
    const TrainingConfigRead r = read_training_config(text, "qwen3_lora_sft.yaml");
    CHECK(r.unknown_model == "Qwen/Qwen3-4B-Instruct-2507");
    REQUIRE(r.problems.size() == 1);
    CHECK(r.problems[0].pointer == "/model_name_or_path");
    CHECK(r.problems[0].message.find("Qwen/Qwen3-4B-Instruct-2507") != std::string::npos);
    CHECK(r.problems[0].message.find("config.json") != std::string::npos);
    CHECK(r.scenario.is_null());

    // With its config.json (huggingface.co/Qwen/Qwen3-4B-Instruct-2507/blob/main/config.json, architecture fields).
    const json hf = json::parse(R"({"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 2560,
        "num_hidden_layers": 36, "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
        "intermediate_size": 9728, "vocab_size": 151936, "tie_word_embeddings": true,
        "max_position_embeddings": 262144, "attention_bias": false, "hidden_act": "silu", "rms_norm_eps": 1e-06,
        "torch_dtype": "bfloat16"})");
    TrainingConfigOptions options;
    options.hf_config = &hf;
    const TrainingConfigRead with = read_training_config(text, "qwen3_lora_sft.yaml", options);
    INFO(problems_text(with));
    REQUIRE(with.problems.empty());
    const Scenario s = scenario_of(with.scenario);
    // 151936 x 2560 tied embedding + 36 blocks of (q 2560x4096, k and v 2560x1024, o 4096x2560, q/k norms 2 x 128,
    // MLP 3 x 2560 x 9728, 2 norms of 2560) + the final norm: 4,022,468,096.
    CHECK(gg::engine::count_params(s.model) == 4022468096.0);
    CHECK(s.method == "lora");
    CHECK(s.lora_rank == 8);
    CHECK(s.seq_len == 2048);
    CHECK(s.batch_size == 1);
    CHECK(s.grad_accum_steps == 8);
    CHECK(s.precision == "bf16-amp");
    CHECK(s.dataset_epochs == 3.0);
}

TEST_CASE("axolotl's examples/llama-3/qlora.yml gives the scenario the file says") {
    const TrainingConfigRead r = read_training_config(upstream("axolotl_llama3_qlora.yml"), "qlora.yml");
    INFO(problems_text(r));
    REQUIRE(r.problems.empty());
    CHECK(r.format == "axolotl");
    const Scenario s = scenario_of(r.scenario);
    CHECK(gg::engine::count_params(s.model) == kLlama3_8bParams);  // NousResearch/Meta-Llama-3-8B
    CHECK(s.method == "qlora");
    CHECK(s.precision == "nf4");
    CHECK(s.lora_rank == 32);
    CHECK(s.lora_dropout == doctest::Approx(0.05));
    CHECK(s.lora_targets == std::vector<std::string>{"all-linear"});  // lora_target_linear: true
    CHECK(s.seq_len == 4096);
    CHECK(s.packing);
    CHECK(s.batch_size == 2);
    CHECK(s.grad_accum_steps == 4);
    CHECK(s.optimizer == "adamw");
    CHECK(s.paged_optimizer);  // paged_adamw_32bit
    CHECK(s.checkpointing == "full");
    CHECK(s.attention == "flash");
    CHECK(s.stack == "axolotl");
    CHECK(s.dataset_epochs == 4.0);
    CHECK(has_note(r.assumed, "bf16"));  // bf16: auto, named
    CHECK(has_note(r.not_used, "lora_alpha"));
    CHECK(has_note(r.not_used, "special_tokens"));
}

TEST_CASE("torchtune's llama3_1/8B_qlora_single_device.yaml gives the scenario; max_seq_len: null is named") {
    const std::string text = upstream("torchtune_llama3_1_8B_qlora_single_device.yaml");
    const TrainingConfigRead r = read_training_config(text, "8B_qlora_single_device.yaml");
    INFO(problems_text(r));
    REQUIRE(r.problems.empty());
    CHECK(r.format == "torchtune");
    const Scenario s = scenario_of(r.scenario);
    CHECK(s.model_id == "llama-3.1-8b");
    CHECK(gg::engine::count_params(s.model) == kLlama3_8bParams);
    CHECK(s.method == "qlora");
    CHECK(s.precision == "nf4");
    CHECK(s.lora_rank == 8);
    CHECK(s.lora_targets ==
          std::vector<std::string>{"q_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"});
    CHECK(s.batch_size == 2);
    CHECK(s.grad_accum_steps == 8);
    CHECK(s.checkpointing == "full");
    CHECK_FALSE(s.packing);
    CHECK_FALSE(s.paged_optimizer);
    CHECK(s.optimizer_impl == "fused");
    CHECK_FALSE(s.compile);
    CHECK(s.stack == "torchtune");
    CHECK(s.dataset_epochs == 1.0);
    // tokenizer.max_seq_len: null decides memory and has no default: named with what was assumed.
    REQUIRE(has_note(r.assumed, "tokenizer.max_seq_len"));
    CHECK(s.seq_len == s.model.default_seq_len);
    CHECK(has_note(r.not_used, "checkpointer"));

    SUBCASE("a key=value override after the file, as tune run takes it") {
        TrainingConfigOptions o;
        o.overrides = {"tokenizer.max_seq_len=4096", "enable_activation_checkpointing=False", "dataset.packed=True"};
        const TrainingConfigRead r2 = read_training_config(text, "8B_qlora_single_device.yaml", o);
        INFO(problems_text(r2));
        REQUIRE(r2.problems.empty());
        const Scenario s2 = scenario_of(r2.scenario);
        CHECK(s2.seq_len == 4096);
        CHECK(s2.checkpointing == "none");
        CHECK(s2.packing);
        CHECK_FALSE(has_note(r2.assumed, "tokenizer.max_seq_len"));
    }
}

TEST_CASE("what gpuguide config writes for LLaMA-Factory and axolotl reads back to the same estimate (1%)") {
    const char* const kScenarios[] = {
        R"({"model": "llama-3.1-8b", "seq_len": 2048, "batch_size": 2, "grad_accum_steps": 8, "precision": "nf4",
            "method": "qlora", "lora": {"rank": 16, "targets": ["q", "k", "v", "o"]}, "checkpointing": "full",
            "stack_options": {"liger_kernel": true, "packing": true, "paged_optimizer": true}, "attention": "flash",
            "gpu": {"id": "rtx-4090"}, "dataset": {"epochs": 2}})",
        R"({"model": "qwen2.5-7b", "seq_len": 1024, "batch_size": 4, "grad_accum_steps": 2, "precision": "bf16-amp",
            "method": "lora", "lora": {"rank": 8, "targets": ["all-linear"]}, "checkpointing": "full",
            "gpu": {"id": "a100-sxm4-80gb"}, "dataset": {"epochs": 3}})",
        R"({"model": "llama-3.2-1b", "seq_len": 512, "batch_size": 8, "precision": "bf16-amp", "method": "full",
            "checkpointing": "none", "optimizer": "adamw-8bit", "gpu": {"id": "rtx-4090"}, "dataset": {"epochs": 1}})",
    };
    for (const char* stack : {"llama-factory", "axolotl"}) {
        for (const char* text : kScenarios) {
            json j = json::parse(text);
            j["stack"] = stack;
            CAPTURE(stack);
            CAPTURE(text);
            const Scenario original = scenario_of(j);
            const StackConfig written = stack_config(original);
            REQUIRE(written.format == "yaml");
            const TrainingConfigRead r = read_training_config(written.text, "written.yaml");
            INFO(problems_text(r));
            INFO(written.text);
            REQUIRE(r.problems.empty());
            json back = r.scenario;
            back["gpu"]["id"] = j["gpu"]["id"];  // the card is the user's choice, not the config's
            back["dataset"] = j["dataset"];
            const Scenario read = scenario_of(back);
            const json a = report_to_json(original, estimate(original));
            const json b = report_to_json(read, estimate(read));
            const double peak_a = a["memory_bytes"]["peak_allocated"].get<double>();
            CHECK(b["memory_bytes"]["peak_allocated"].get<double>() == doctest::Approx(peak_a).epsilon(0.01));
            gg::engine::TimeReport ta, tb;
            REQUIRE(estimate_time(original, embedded_catalog(), embedded_time_data(), ta));
            REQUIRE(estimate_time(read, embedded_catalog(), embedded_time_data(), tb));
            CHECK(tb.step_s == doctest::Approx(ta.step_s).epsilon(0.01));
        }
    }
}

TEST_CASE("bad training configs get a clear problem naming the key, never an abort") {
    SUBCASE("not YAML") {
        const TrainingConfigRead r = read_training_config("base_model: [unclosed\nlora_r: 8\n", "bad.yml");
        REQUIRE(r.problems.size() == 1);
        CHECK(r.problems[0].message.find("not YAML") != std::string::npos);
        CHECK(r.problems[0].message.find("line") != std::string::npos);
    }
    SUBCASE("5 MB") {
        const std::string big = "base_model: x\n# " + std::string(5000000, 'a') + "\n";
        const TrainingConfigRead r = read_training_config(big, "big.yml");
        REQUIRE(r.problems.size() == 1);
        CHECK(r.problems[0].message.find("at most 256 KiB") != std::string::npos);
    }
    SUBCASE("anchors and aliases that expand (billion laughs)") {
        std::string y = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
        for (char c = 'b'; c <= 'j'; ++c)
            y += std::string(1, c) + ": &" + c + " [*" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) +
                 ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" +
                 char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + "]\n";
        const TrainingConfigRead r = read_training_config(y, "laughs.yml");
        REQUIRE(r.problems.size() == 1);
        CHECK(r.problems[0].message.find("more than 20000 values") != std::string::npos);
    }
    SUBCASE("a list where a number belongs") {
        const TrainingConfigRead r = read_training_config(
            "model_name_or_path: meta-llama/Llama-3.1-8B\nfinetuning_type: lora\nlora_rank: [8, 16]\n", "lf.yaml");
        REQUIRE_FALSE(r.problems.empty());
        CHECK(r.problems[0].pointer == "/lora_rank");
        CHECK(r.problems[0].message.find("lora_rank: expected a whole number") != std::string::npos);
        CHECK(r.problems[0].message.find("a list") != std::string::npos);
    }
    SUBCASE("a nested key is named with its path") {
        const std::string t = upstream("torchtune_llama3_1_8B_qlora_single_device.yaml");
        TrainingConfigOptions o;
        o.overrides = {"model.lora_rank=high"};
        const TrainingConfigRead r = read_training_config(t, "tt.yaml", o);
        REQUIRE_FALSE(r.problems.empty());
        CHECK(r.problems[0].pointer == "/model/lora_rank");
        CHECK(r.problems[0].message.find("model.lora_rank") == 0);
    }
    SUBCASE("nested deeper than any config, a merge key, two documents") {
        const TrainingConfigRead deep = read_training_config("base_model: " + std::string(40, '[') + std::string(40, ']'), "d.yml");
        REQUIRE(deep.problems.size() == 1);
        CHECK(deep.problems[0].message.find("nested more than 32 levels") != std::string::npos);
        const TrainingConfigRead merge = read_training_config("x: &x {lora_r: 8}\nbase: {<<: *x}\n", "m.yml");
        REQUIRE(merge.problems.size() == 1);
        CHECK(merge.problems[0].message.find("merge keys") != std::string::npos);
        const TrainingConfigRead two = read_training_config("base_model: a\n---\nbase_model: b\n", "two.yml");
        REQUIRE(two.problems.size() == 1);
        CHECK(two.problems[0].message.find("more than one YAML document") != std::string::npos);
    }
    SUBCASE("a key given twice") {
        const TrainingConfigRead r = read_training_config("base_model: a\nbase_model: b\n", "twice.yml");
        REQUIRE(r.problems.size() == 1);
        CHECK(r.problems[0].message.find("'base_model' is given twice") != std::string::npos);
    }
    SUBCASE("not a training config") {
        const TrainingConfigRead r = read_training_config("just: a mapping\n", "other.yml");
        REQUIRE(r.problems.size() == 1);
        CHECK(r.problems[0].message.find("not a training config") != std::string::npos);
        CHECK(read_training_config("- a list\n", "list.yml").problems.size() == 1);
        CHECK(read_training_config("", "empty.yml").problems.size() == 1);
    }
    SUBCASE("a setting the estimate does not model is refused, not dropped") {
        const TrainingConfigRead r = read_training_config(
            "model_name_or_path: meta-llama/Llama-3.1-8B\nstage: dpo\nfinetuning_type: lora\n", "dpo.yaml");
        REQUIRE_FALSE(r.problems.empty());
        CHECK(r.problems[0].pointer == "/stage");
    }
    SUBCASE("a target the model does not have is named by the config's key") {
        const TrainingConfigRead r = read_training_config(
            "model_name_or_path: meta-llama/Llama-3.1-8B\nfinetuning_type: lora\nlora_target: c_attn\n", "t.yaml");
        REQUIRE_FALSE(r.problems.empty());
        CHECK(r.problems[0].message.find("lora_target: ") == 0);
    }
}

TEST_CASE("PEFT adapter_config.json and TrainingArguments JSON: read, with what they cannot say named") {
    const TrainingConfigRead a = read_training_config(
        R"({"peft_type": "LORA", "base_model_name_or_path": "meta-llama/Llama-3.2-1B-Instruct", "r": 16,
            "lora_alpha": 32, "lora_dropout": 0.05, "target_modules": ["q_proj", "v_proj"], "task_type": "CAUSAL_LM"})",
        "adapter_config.json");
    INFO(problems_text(a));
    REQUIRE(a.problems.empty());
    CHECK(a.format == "peft-adapter");
    const Scenario s = scenario_of(a.scenario);
    CHECK(s.model_id == "llama-3.2-1b");
    CHECK(s.lora_rank == 16);
    CHECK(s.lora_targets == std::vector<std::string>{"q_proj", "v_proj"});
    CHECK(has_note(a.assumed, "(sequence length)"));
    CHECK(has_note(a.assumed, "(training)"));

    const TrainingConfigRead t = read_training_config(
        R"({"model_name_or_path": "Qwen/Qwen2.5-0.5B", "output_dir": "out", "per_device_train_batch_size": 4,
            "gradient_accumulation_steps": 2, "bf16": true, "gradient_checkpointing": true, "block_size": 1024,
            "optim": "adamw_8bit", "learning_rate": 2e-5})",
        "args.json");
    INFO(problems_text(t));
    REQUIRE(t.problems.empty());
    CHECK(t.format == "hf-training-arguments");
    const Scenario h = scenario_of(t.scenario);
    CHECK(h.model_id == "qwen2.5-0.5b");
    CHECK(h.batch_size == 4);
    CHECK(h.seq_len == 1024);
    CHECK(h.optimizer == "adamw-8bit");
    CHECK(h.checkpointing == "full");
    CHECK(h.method == "full");
    CHECK(has_note(t.assumed, "method"));
}

TEST_CASE("Hub names are found offline: presets, data/hub_names.json, the bundled configs; case does not matter") {
    CHECK(model_for_hub_name("meta-llama/Llama-3.1-8B") == "llama-3.1-8b");
    CHECK(model_for_hub_name("NOUSRESEARCH/meta-llama-3.1-8b-instruct") == "llama-3.1-8b");
    CHECK(model_for_hub_name("Qwen/Qwen3-8B").contains("hf_config"));
    CHECK(model_for_hub_name("unknown/model").is_null());
    // Every record of data/hub_names.json names a preset that exists or carries a config.json with its count.
    for (const char* name : {"meta-llama/Meta-Llama-3-8B-Instruct", "mistralai/Mistral-7B-Instruct-v0.1",
                             "Qwen/Qwen2.5-7B-Instruct", "meta-llama/Llama-2-7b-chat-hf"}) {
        CAPTURE(name);
        const json m = model_for_hub_name(name);
        REQUIRE_FALSE(m.is_null());
        scenario_of({{"model", m}});
    }
}

TEST_CASE("every record of data/hub_names.json resolves: its preset exists, or its config.json gives its count") {
    const json names = json::parse(embedded_file(kHubNamesFile));
    REQUIRE(names["names"].size() > 0);
    for (const json& rec : names["names"]) {
        CAPTURE(rec.dump().substr(0, 120));
        CHECK(rec.contains("source"));
        CHECK(rec.contains("as_of"));
        REQUIRE(rec.contains("preset") != rec.contains("hf_config"));
        for (const json& n : rec["names"]) {
            const json m = model_for_hub_name(n.get<std::string>());
            REQUIRE_FALSE(m.is_null());
            const Scenario s = scenario_of({{"model", m}});
            if (rec.contains("preset")) CHECK(s.model_id == rec["preset"].get<std::string>());
            else CHECK(gg::engine::count_params(s.model) == rec["reference_params"].get<double>());
        }
    }
}

TEST_CASE("YAML 1.1 plain scalars are typed as PyYAML types them; quoted ones stay text") {
    CHECK(yaml_plain_scalar("True") == true);
    CHECK(yaml_plain_scalar("off") == false);
    CHECK(yaml_plain_scalar("8") == 8);
    CHECK(yaml_plain_scalar("1.0e-4") == doctest::Approx(1e-4));
    CHECK(yaml_plain_scalar("3e-4") == doctest::Approx(3e-4));
    CHECK(yaml_plain_scalar("~").is_null());
    CHECK(yaml_plain_scalar("q_proj,v_proj") == "q_proj,v_proj");
    const JsonText t = parse_yaml_text("a: '8'\nb: 8\nc:\n");
    REQUIRE(t.error.empty());
    CHECK(t.value["a"] == "8");
    CHECK(t.value["b"] == 8);
    CHECK(t.value["c"].is_null());
}

TEST_CASE("the common reasons for a key not used carry their kind, so the page says them in Chinese too") {
    const TrainingConfigRead r =
        read_training_config(upstream("torchtune_llama3_1_8B_qlora_single_device.yaml"), "8B.yaml");
    REQUIRE(r.problems.empty());
    int irrelevant = 0, empty = 0;
    for (const ConfigKeyNote& n : r.not_used) {
        if (n.key == "log_level") {
            CHECK(n.kind == ConfigNoteKind::kIrrelevant);
            ++irrelevant;
        }
        if (n.key == "clip_grad_norm") {
            CHECK(n.kind == ConfigNoteKind::kEmpty);
            ++empty;
        }
        if (n.kind == ConfigNoteKind::kIrrelevant) CHECK(n.note == "does not change memory or time");
        if (n.kind == ConfigNoteKind::kEmpty) CHECK(n.note == "empty: torchtune's default applies");
    }
    CHECK(irrelevant == 1);
    CHECK(empty == 1);
}

TEST_CASE("text that is not UTF-8 is refused with its line and column, never carried into keys (fuzz_training_config)") {
    // Found by fuzz_training_config in its first 40 inputs: a byte 0xFF inside a key of the upstream torchtune
    // config reached a not-used note, and writing the result as JSON (as the CLI and the page's link do) threw.
    std::string text = upstream("torchtune_llama3_1_8B_qlora_single_device.yaml");
    const std::size_t at = text.find("gradient_accumulation_steps");
    REQUIRE(at != std::string::npos);
    text[at + 17] = '\xFF';
    const JsonText yaml = parse_yaml_text(text);
    CHECK(yaml.error.rfind("not UTF-8 text: byte 0xFF (line ", 0) == 0);
    const std::string line = std::to_string(std::count(text.begin(), text.begin() + at, '\n') + 1);
    CHECK(yaml.error.find("(line " + line + ", column 18)") != std::string::npos);
    const TrainingConfigRead r = read_training_config(text, "8B_qlora_single_device.yaml");
    REQUIRE(r.problems.size() == 1);
    CHECK(r.scenario.is_null());
    CHECK_NOTHROW((void)training_config_read_to_json(r).dump());

    TrainingConfigOptions o;
    o.overrides = {"tokenizer.max_seq_len\xC0=4096"};
    const TrainingConfigRead k =
        read_training_config(upstream("torchtune_llama3_1_8B_qlora_single_device.yaml"), "8B.yaml", o);
    REQUIRE(!k.problems.empty());
    CHECK(k.problems[0].message.find("the key is not UTF-8 text") != std::string::npos);
    CHECK_NOTHROW((void)training_config_read_to_json(k).dump());
}

#if defined(GG_CLI_PATH) && !defined(_WIN32)
namespace {
int run_cli(const std::string& args, std::string& out) {
    out.clear();
    FILE* pipe = popen((std::string(GG_CLI_PATH) + " " + args + " 2>&1").c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
    const int status = pclose(pipe);
    return status == -1 ? -1 : (status >> 8) & 0xff;
}
}  // namespace

TEST_CASE("gpuguide from-config prints the scenario; the Qwen3 example without --hf-config exits 2 naming the model") {
    const std::string dir = std::string(GG_SOURCE_DIR) + "/tests/data/training_configs/";
    std::string out;
    REQUIRE(run_cli("from-config " + dir + "axolotl_llama3_qlora.yml", out) == 0);
    const json j = json::parse(out, nullptr, false);
    REQUIRE(j.is_object());
    CHECK(j["format"] == "axolotl");
    CHECK(j["scenario"]["lora"]["rank"] == 32);
    CHECK(j["not_used"].is_array());
    CHECK(run_cli("from-config " + dir + "llama_factory_qwen3_lora_sft.yaml", out) == 2);
    CHECK(out.find("Qwen/Qwen3-4B-Instruct-2507") != std::string::npos);
    CHECK(out.find("config.json") != std::string::npos);
    CHECK(out.find("--hf-config") != std::string::npos);
    REQUIRE(run_cli("from-config " + dir + "torchtune_llama3_1_8B_qlora_single_device.yaml --scenario-only "
                    "tokenizer.max_seq_len=2048", out) == 0);
    CHECK(json::parse(out, nullptr, false)["seq_len"] == 2048);
}
#endif

TEST_CASE("more upstream spellings: torchao's 8-bit AdamW, xformers and flex attention, torchtune's Qwen2/Qwen3/Gemma builders") {
    // axolotl examples (axolotl-ai-cloud/axolotl @067b021, e.g. examples/llama-3/lora-1b.yml) train with
    // optimizer: adamw_torch_8bit, attn_implementation: xformers or flex_attention, base_model NousResearch/Llama-3.2-1B.
    const std::string axolotl = "base_model: NousResearch/Llama-3.2-1B\nadapter: lora\nlora_r: 16\n"
                                "lora_target_linear: true\nsequence_len: 2048\nmicro_batch_size: 2\n"
                                "gradient_accumulation_steps: 4\nnum_epochs: 1\nbf16: auto\n"
                                "optimizer: adamw_torch_8bit\nattn_implementation: ATTN\n";
    for (const char* attn : {"xformers", "flex_attention"}) {
        CAPTURE(attn);
        std::string text = axolotl;
        text.replace(text.find("ATTN"), 4, attn);
        const TrainingConfigRead r = read_training_config(text, "lora-1b.yml");
        INFO(problems_text(r));
        REQUIRE(r.problems.empty());
        CHECK(r.scenario["model"] == "llama-3.2-1b");
        CHECK(r.scenario["optimizer"] == "adamw-8bit");
        CHECK(r.scenario["attention"] == "sdpa");
        CHECK(has_note(r.assumed, std::string(attn) == "xformers" ? "xformers_attention" : "attn_implementation"));
        scenario_of(r.scenario);
    }
    // Preference training (examples/llama-3/instruct-dpo-lora-8b.yml: rl: dpo) is refused, not read as SFT.
    std::string dpo = axolotl;
    dpo.replace(dpo.find("ATTN"), 4, "sdpa");
    const TrainingConfigRead rd = read_training_config("rl: dpo\n" + dpo, "instruct-dpo-lora-8b.yml");
    REQUIRE(rd.problems.size() == 1);
    CHECK(rd.problems[0].pointer == "/rl");
    CHECK(read_training_config("rl: null\n" + dpo, "sft.yml").problems.empty());
    // A 4-bit AdamW is not modelled: refused with the key named, not read as something else.
    std::string four = axolotl;
    four.replace(four.find("adamw_torch_8bit"), 16, "adamw_torch_4bit");
    four.replace(four.find("ATTN"), 4, "sdpa");
    const TrainingConfigRead r4 = read_training_config(four, "lora-1b.yml");
    REQUIRE(r4.problems.size() == 1);
    CHECK(r4.problems[0].pointer == "/optimizer");

    // torchtune builders of models whose config is bundled or listed in data/hub_names.json
    // (pytorch/torchtune @bd2a0fc recipes/configs/qwen3/4B_lora_single_device.yaml and the like).
    const std::string torchtune = "model:\n  _component_: torchtune.models.BUILDER\n  lora_attn_modules: ['q_proj', "
                                  "'v_proj']\n  apply_lora_to_mlp: True\n  lora_rank: 8\n  lora_alpha: 16\n"
                                  "tokenizer:\n  max_seq_len: 1024\nbatch_size: 2\ngradient_accumulation_steps: 8\n"
                                  "epochs: 1\ndtype: bf16\nenable_activation_checkpointing: True\n"
                                  "loss:\n  _component_: torchtune.modules.loss.CEWithChunkedOutputLoss\n"
                                  "optimizer:\n  _component_: torch.optim.AdamW\n  fused: True\n";
    const struct {
        const char* builder;
        double params;  // the base model's count (data/hub_names.json, tests/validation/hf_configs.json)
    } cases[] = {{"qwen3.lora_qwen3_4b_instruct", 4022468096.0},
                 {"qwen3.lora_qwen3_1_7b_base", 1720574976.0},
                 {"qwen2_5.lora_qwen2_5_3b", 3085938688.0},
                 {"qwen2.lora_qwen2_1_5b", 1543714304.0}};
    for (const auto& c : cases) {
        CAPTURE(c.builder);
        std::string text = torchtune;
        text.replace(text.find("BUILDER"), 7, c.builder);
        const TrainingConfigRead r = read_training_config(text, "lora_single_device.yaml");
        INFO(problems_text(r));
        REQUIRE(r.problems.empty());
        Scenario s = scenario_of(r.scenario);
        s.method = "full";  // the base model's own count, without the adapters
        CHECK(gg::engine::count_params(s.model) >= c.params);
        CHECK(gg::engine::count_params(s.model) < c.params * 1.02);
    }
    // Gemma 2 is bundled; Phi-3's fused qkv_proj does not match torchtune's split LoRA targets: refused, named.
    std::string gemma = torchtune;
    gemma.replace(gemma.find("BUILDER"), 7, "gemma2.lora_gemma2_2b");
    CHECK(read_training_config(gemma, "2B_lora.yaml").problems.empty());
    std::string phi = torchtune;
    phi.replace(phi.find("BUILDER"), 7, "phi3.lora_phi3_mini");
    const TrainingConfigRead rp = read_training_config(phi, "mini_lora.yaml");
    REQUIRE(rp.problems.size() == 1);  // one problem: no second, keyless "base model not given"
    CHECK(rp.problems[0].pointer == "/model/_component_");
    // An evaluation config (recipes/configs/qwen3/evaluation.yaml: a model, a checkpointer, tasks; no optimizer, no
    // loss) is said to be one, not read as a recipe missing its batch size.
    const TrainingConfigRead re = read_training_config(
        "model:\n  _component_: torchtune.models.qwen3.qwen3_0_6b_instruct\ntasks: [\"truthfulqa_mc2\"]\n"
        "limit: null\nmax_seq_length: 4096\nbatch_size: 8\n", "evaluation.yaml");
    REQUIRE(re.problems.size() == 1);
    CHECK(re.problems[0].pointer == "/optimizer");
    CHECK(re.problems[0].message.find("evaluation") != std::string::npos);
}
