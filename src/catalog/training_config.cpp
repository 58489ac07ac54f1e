// Reading a stack's training config (see training_config.h): the key reader, telling the stacks apart, torchtune's
// key=value overrides, the base model by Hub name, and the scenario's own checks named by the config's keys. Each
// stack's keys are in training_config_{hf,axolotl,torchtune}.cpp.
#include "catalog/training_config.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "catalog/embedded_data.h"
#include "catalog/json_text.h"
#include "catalog/scenario.h"
#include "catalog/training_config_reader.h"
#include "catalog/yaml_text.h"
#include "engine/workload.h"

namespace gg::catalog {

const std::vector<std::string> kTrainingConfigFormats = {"llama-factory", "axolotl", "torchtune", "peft-adapter",
                                                         "hf-training-arguments"};

namespace config_detail {

std::string in_quotes(const std::string& s) { return "'" + printable(s, 120) + "'"; }

std::string kind_of(const json& v) {
    if (v.is_array()) return "a list";
    if (v.is_object()) return "a mapping";
    if (v.is_string()) return "text " + in_quotes(v.get<std::string>());
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_number()) return v.dump();
    return "nothing";
}

namespace {
std::string pointer_of(const std::string& key) {
    std::string p = "/";
    for (char c : key) p += c == '.' ? '/' : c;
    return p;
}
}  // namespace

const json* ConfigReader::find(const std::string& key) {
    used_.insert(key);
    const json* node = &doc_;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = key.find('.', start);
        const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!node->is_object() || !node->contains(part)) return nullptr;
        node = &(*node)[part];
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    return node->is_null() ? nullptr : node;
}

void ConfigReader::problem(const std::string& key, const std::string& message) {
    out_.problems.push_back({file_, pointer_of(key), key + ": " + message});
}

bool ConfigReader::integer(const std::string& key, int& value, int lo, int hi) {
    const json* v = find(key);
    if (v == nullptr) return false;
    double d = 0;
    if (v->is_number()) d = v->get<double>();
    if (!v->is_number() || d != std::floor(d) || d < lo || d > hi) {
        problem(key, "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
                         kind_of(*v));
        return false;
    }
    value = static_cast<int>(d);
    return true;
}

bool ConfigReader::number(const std::string& key, double& value, double lo, double hi) {
    const json* v = find(key);
    if (v == nullptr) return false;
    if (!v->is_number() || !(v->get<double>() >= lo && v->get<double>() <= hi)) {
        char range[96];
        std::snprintf(range, sizeof range, "%g to %g", lo, hi);
        problem(key, std::string("expected a number from ") + range + ", got " + kind_of(*v));
        return false;
    }
    value = v->get<double>();
    return true;
}

bool ConfigReader::boolean(const std::string& key, bool& value) {
    const json* v = find(key);
    if (v == nullptr) return false;
    if (!v->is_boolean()) {
        problem(key, "expected true or false, got " + kind_of(*v));
        return false;
    }
    value = v->get<bool>();
    return true;
}

bool ConfigReader::text(const std::string& key, std::string& value) {
    const json* v = find(key);
    if (v == nullptr) return false;
    if (!v->is_string()) {
        problem(key, "expected text, got " + kind_of(*v));
        return false;
    }
    value = v->get<std::string>();
    return true;
}

bool ConfigReader::names(const std::string& key, std::vector<std::string>& value) {
    const json* v = find(key);
    if (v == nullptr) return false;
    std::vector<std::string> out;
    if (v->is_string()) {
        const std::string s = v->get<std::string>();
        std::size_t start = 0;
        while (start <= s.size()) {
            const std::size_t comma = std::min(s.find(',', start), s.size());
            std::string name = s.substr(start, comma - start);
            name.erase(0, name.find_first_not_of(" \t"));
            name.erase(name.find_last_not_of(" \t") + 1);
            if (!name.empty()) out.push_back(name);
            start = comma + 1;
        }
    } else if (v->is_array()) {
        for (const json& item : *v) {
            if (!item.is_string()) {
                problem(key, "expected a list of module names, got an item that is " + kind_of(item));
                return false;
            }
            out.push_back(item.get<std::string>());
        }
    } else {
        problem(key, "expected a list of module names, got " + kind_of(*v));
        return false;
    }
    if (out.empty()) {
        problem(key, "names no module");
        return false;
    }
    value = out;
    return true;
}

void ConfigReader::not_used(const std::string& key, const std::string& reason) {
    used_.insert(key);
    out_.not_used.push_back({key, reason});
}

void ConfigReader::walk(const json& node, const std::string& path, const std::vector<std::string>& irrelevant,
                        const std::string& stack_name) {
    for (auto it = node.begin(); it != node.end(); ++it) {
        const std::string key = path.empty() ? it.key() : path + "." + it.key();
        if (used_.count(key)) continue;
        // A mapping some of whose keys were read: list the others one by one.
        const bool partly_read = std::any_of(used_.begin(), used_.end(),
                                             [&](const std::string& u) { return u.rfind(key + ".", 0) == 0; });
        if (it->is_object() && partly_read) {
            walk(*it, key, irrelevant, stack_name);
            continue;
        }
        const bool known = std::any_of(irrelevant.begin(), irrelevant.end(), [&](const std::string& k) {
            const char last = k.empty() ? ' ' : k.back();
            return key == k || ((last == '_' || last == '.') && key.rfind(k, 0) == 0);
        });
        if (it->is_null())
            out_.not_used.push_back({key, "empty: " + stack_name + "'s default applies", ConfigNoteKind::kEmpty});
        else if (known)
            out_.not_used.push_back({key, "does not change memory or time", ConfigNoteKind::kIrrelevant});
        else
            out_.not_used.push_back({key,
                                     "not read: gpuguide does not model this key; check that it does not change "
                                     "memory or time",
                                     ConfigNoteKind::kNotModelled});
    }
}

void ConfigReader::finish(const std::vector<std::string>& irrelevant, const std::string& stack_name) {
    if (doc_.is_object()) walk(doc_, "", irrelevant, stack_name);
}

bool hf_optim_choice(const std::string& o, OptimChoice& c) {
    c = {};
    if (o == "adamw_torch" || o == "adamw_hf" || o == "adamw_torch_xla") c.optimizer = "adamw";
    else if (o == "adamw_torch_fused") c = {"adamw", "fused", false};
    else if (o == "paged_adamw_32bit" || o == "paged_adamw") c = {"adamw", "", true};
    else if (o == "paged_adamw_8bit") c = {"adamw-8bit", "", true};
    else if (o == "adamw_8bit" || o == "adamw_bnb_8bit") c.optimizer = "adamw-8bit";
    // torchao.optim.AdamW8bit (transformers trainer: OptimizerNames.ADAMW_TORCH_8BIT, one of _TORCHAO_OPTIMIZERS): both
    // moments in 8 bits with a scale per block of 256, as torchtune's reader maps it too. bitsandbytes' blocks are
    // 2048, so the states come out 1.4% low (2.03 against 2.00 bytes per parameter). adamw_torch_4bit is refused.
    else if (o == "adamw_torch_8bit") c.optimizer = "adamw-8bit";
    else if (o == "adafactor") c.optimizer = "adafactor";
    else if (o == "lion_32bit" || o == "lion") c.optimizer = "lion";
    else if (o == "sgd") c.optimizer = "sgd";
    else return false;
    return true;
}

void put_optim(json& s, const OptimChoice& c) {
    s["optimizer"] = c.optimizer;
    if (!c.impl.empty()) s["optimizer_impl"] = c.impl;
    if (c.paged) s["stack_options"]["paged_optimizer"] = true;
}

ZeroChoice zero_from(const json& v) {
    ZeroChoice z;
    if (v.is_object()) {
        const json zo = v.value("zero_optimization", json::object());
        if (zo.is_object() && zo.contains("stage") && zo["stage"].is_number_integer()) z.stage = zo["stage"].get<int>();
        if (zo.is_object()) {
            const auto offloaded = [&](const char* k) {
                return zo.contains(k) && zo[k].is_object() && zo[k].value("device", std::string("none")) != "none";
            };
            z.offload_optimizer = offloaded("offload_optimizer");
            z.offload_params = offloaded("offload_param");
        }
        if (z.stage < 1 || z.stage > 3) z.stage = 0;
        return z;
    }
    if (!v.is_string()) return z;
    std::string name = v.get<std::string>();
    name = name.substr(name.find_last_of('/') == std::string::npos ? 0 : name.find_last_of('/') + 1);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (int stage = 1; stage <= 3; ++stage) {
        const std::string n = std::to_string(stage);
        if (name.find("zero" + n) != std::string::npos || name.find("_z" + n) != std::string::npos ||
            name.find("zero_" + n) != std::string::npos || name.rfind("z" + n + "_", 0) == 0)
            z.stage = stage;
    }
    z.offload_params = name.find("offload_param") != std::string::npos || name.find("offload_all") != std::string::npos;
    z.offload_optimizer = !z.offload_params && name.find("offload") != std::string::npos;
    return z;
}

}  // namespace config_detail

using config_detail::ConfigReader;
using config_detail::StackRead;
using nlohmann::json;

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// "Hugging Face meta-llama/Llama-3.1-8B config.json; ..." -> "meta-llama/Llama-3.1-8B".
std::string preset_repo(const engine::ModelSpec& m) {
    const std::string prefix = "Hugging Face ";
    if (m.source.rfind(prefix, 0) != 0) return "";
    const std::size_t end = m.source.find(' ', prefix.size());
    return m.source.substr(prefix.size(), end == std::string::npos ? std::string::npos : end - prefix.size());
}

std::string format_of(const json& doc) {
    if (!doc.is_object()) return "";
    if (doc.contains("peft_type")) return "peft-adapter";
    if (doc.contains("model") && doc["model"].is_object() && doc["model"].contains("_component_")) return "torchtune";
    if (doc.contains("base_model")) return "axolotl";
    static const char* const kLlamaFactoryKeys[] = {"finetuning_type", "stage", "cutoff_len", "lora_target", "template",
                                                    "quantization_bit", "lora_rank", "dataset"};
    if (doc.contains("model_name_or_path"))
        for (const char* k : kLlamaFactoryKeys)
            if (doc.contains(k)) return "llama-factory";
    static const char* const kTrainerKeys[] = {"per_device_train_batch_size", "output_dir", "gradient_accumulation_steps",
                                               "num_train_epochs", "optim", "model_name_or_path"};
    for (const char* k : kTrainerKeys)
        if (doc.contains(k)) return "hf-training-arguments";
    return "";
}

// torchtune's `key=value` overrides, applied to the document as `tune run` applies them (OmegaConf dotted keys; the
// value typed as YAML types it: "True", "2048", "[q_proj,v_proj]", "null").
void apply_overrides(json& doc, const std::vector<std::string>& overrides, const std::string& file,
                     std::vector<Problem>& problems) {
    for (const std::string& o : overrides) {
        const std::size_t eq = o.find('=');
        if (eq == std::string::npos || eq == 0) {
            problems.push_back({file, "", "override " + config_detail::in_quotes(o) + ": expected key=value"});
            continue;
        }
        const std::string key = o.substr(0, eq);
        if (first_invalid_utf8(key) != std::string::npos) {
            problems.push_back({file, "", "override " + config_detail::in_quotes(key) + ": the key is not UTF-8 text"});
            continue;
        }
        JsonText value = parse_yaml_text(o.substr(eq + 1));
        if (!value.error.empty()) {
            problems.push_back({file, "", "override " + config_detail::in_quotes(key) + ": " + value.error});
            continue;
        }
        json* node = &doc;
        std::size_t start = 0;
        while (true) {
            const std::size_t dot = key.find('.', start);
            const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
            if (!node->is_object()) *node = json::object();
            node = &(*node)[part];
            if (dot == std::string::npos) break;
            start = dot + 1;
        }
        *node = value.value;
    }
}

// Renames a problem of the scenario's own checks ("/lora/targets") after the config key it came from.
void name_by_config_key(std::vector<Problem>& problems, const ConfigReader& r, const std::string& file) {
    for (Problem& p : problems) {
        std::string best, key;
        for (const auto& [pointer, config_key] : r.origins())
            if ((p.pointer == pointer || p.pointer.rfind(pointer + "/", 0) == 0) && pointer.size() > best.size()) {
                best = pointer;
                key = config_key;
            }
        p.file = file;
        if (!key.empty()) {
            p.message = key + ": " + p.message;
            p.pointer = "/" + key;
            for (char& c : p.pointer) c = c == '.' ? '/' : c;
        } else {
            p.message = "the scenario this config describes: " + p.message + " (at " + p.pointer + ")";
        }
    }
}

void finalize(ConfigReader& r, StackRead& sr, const TrainingConfigOptions& options, const std::string& file,
              TrainingConfigRead& out) {
    json& s = sr.scenario;
    if (options.hf_config != nullptr) {
        s["model"] = {{"hf_config", *options.hf_config}};
        r.origin("/model", "--hf-config");
    } else if (!s.contains("model")) {
        if (sr.model_name.empty()) {
            if (!sr.model_refused)  // (a refused torchtune builder has said why: no second problem)
                r.problem(sr.model_key, "the base model is not given (its Hub name, or --hf-config CONFIG.json)");
        } else {
            const json model = model_for_hub_name(sr.model_name);
            if (model.is_null()) {
                out.unknown_model = sr.model_name;
                r.problem(sr.model_key, config_detail::in_quotes(sr.model_name) +
                                            " is not bundled with gpuguide and nothing is fetched: give its config.json "
                                            "(huggingface.co/" + printable(sr.model_name, 120) +
                                            "/blob/main/config.json)");
            } else {
                s["model"] = model;
            }
        }
    }
    if (!r.ok()) return;
    ParsedScenario parsed = parse_scenario_json(s, file);
    if (parsed.problems.empty() && !sr.seq_len_key.empty() && !s.contains("seq_len")) {
        const int seq = parsed.scenario.shape_per_sample().seq_len;
        s["seq_len"] = seq;
        r.assume(sr.seq_len_key, sr.seq_len_note + "; the estimate assumes " + std::to_string(seq) +
                                     " tokens per sample (the scenario's default for this model): set it to your "
                                     "data's longest sample");
        parsed = parse_scenario_json(s, file);
    }
    if (!parsed.problems.empty()) {
        name_by_config_key(parsed.problems, r, file);
        out.problems.insert(out.problems.end(), parsed.problems.begin(), parsed.problems.end());
        return;
    }
    out.scenario = s;
}

}  // namespace

json model_for_hub_name(const std::string& hub_name) {
    const std::string want = lower(hub_name);
    if (want.empty()) return nullptr;
    for (const engine::ModelSpec& m : engine::preset_models())
        if (lower(preset_repo(m)) == want) return m.id;
    static const json names = [] {
        json j = json::parse(embedded_file(kHubNamesFile), nullptr, false);
        return j.is_object() ? j : json::object();
    }();
    for (const json& rec : names.value("names", json::array())) {
        for (const json& n : rec.value("names", json::array())) {
            if (!n.is_string() || lower(n.get<std::string>()) != want) continue;
            if (rec.contains("preset")) return rec["preset"];
            if (rec.contains("hf_config")) return {{"hf_config", rec["hf_config"]}};
        }
    }
    // The causal-LM configs bundled with the validation cases (tests/validation/hf_configs.json), as the Hub has them.
    static const json bundled = [] {
        json j = json::parse(embedded_file("tests/validation/hf_configs.json"), nullptr, false);
        return j.is_object() ? j : json::object();
    }();
    for (const json& c : bundled.value("cases", json::array()))
        if (c.value("counted", "") == "causal-lm" && lower(c.value("repo", "")) == want && c.contains("config"))
            return {{"hf_config", c["config"]}};
    return nullptr;
}

TrainingConfigRead read_training_config(std::string_view text, const std::string& file,
                                        const TrainingConfigOptions& options) {
    TrainingConfigRead out;
    // JSON is YAML too, but a PEFT adapter_config.json or TrainingArguments file gets the JSON reader's messages.
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    const bool looks_json = first != std::string_view::npos && text[first] == '{';
    JsonText parsed = looks_json ? parse_json_text(text) : parse_yaml_text(text);
    if (!parsed.error.empty()) {
        out.problems.push_back({file, "", parsed.error});
        return out;
    }
    json doc = std::move(parsed.value);
    if (!doc.is_object()) {
        out.problems.push_back({file, "", "expected a mapping of keys (a training config), got " +
                                              config_detail::kind_of(doc)});
        return out;
    }
    out.format = format_of(doc);
    if (!options.overrides.empty()) {
        if (out.format != "torchtune") {
            out.problems.push_back({file, "", "key=value overrides are torchtune's; this is " +
                                                  (out.format.empty() ? std::string("not a torchtune config")
                                                                      : "a " + out.format + " config")});
            return out;
        }
        apply_overrides(doc, options.overrides, file, out.problems);
        if (!out.problems.empty()) return out;
    }
    ConfigReader r(doc, file, out);
    StackRead sr;
    if (out.format == "llama-factory") config_detail::read_llama_factory(r, sr);
    else if (out.format == "axolotl") config_detail::read_axolotl(r, sr);
    else if (out.format == "torchtune") config_detail::read_torchtune(r, sr);
    else if (out.format == "peft-adapter") config_detail::read_peft_adapter(r, sr);
    else if (out.format == "hf-training-arguments") config_detail::read_hf_training_arguments(r, sr);
    else {
        out.problems.push_back({file, "", "not a training config gpuguide reads: expected LLaMA-Factory "
                                          "(model_name_or_path + finetuning_type ...), axolotl (base_model), torchtune "
                                          "(model._component_), a PEFT adapter_config.json (peft_type) or Hugging Face "
                                          "TrainingArguments (per_device_train_batch_size ...)"});
        return out;
    }
    finalize(r, sr, options, file, out);
    if (!out.problems.empty()) out.scenario = nullptr;
    return out;
}

json training_config_read_to_json(const TrainingConfigRead& read) {
    json assumed = json::array(), not_used = json::array();
    for (const ConfigKeyNote& n : read.assumed) assumed.push_back({{"key", n.key}, {"note", n.note}});
    for (const ConfigKeyNote& n : read.not_used) not_used.push_back({{"key", n.key}, {"reason", n.note}});
    return {{"format", read.format}, {"scenario", read.scenario}, {"assumed", assumed}, {"not_used", not_used}};
}

}  // namespace gg::catalog
