// Hugging Face config.json -> ModelSpec (catalog/hf_config.h): parameter counts against the published counts of
// tests/validation/hf_configs.json (each with its config's source), clear problems for what cannot be read, the
// scenario's "hf_config" model (round trip, same estimate as the preset it describes), and LoRA targets by the
// model's own module names.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/embedded_data.h"
#include "catalog/hf_config.h"
#include "catalog/report.h"
#include "catalog/scenario.h"

using namespace gg::catalog;
using nlohmann::json;

namespace {

const json& cases_file() {
    static const json doc = [] {
        const std::string_view text = embedded_file("tests/validation/hf_configs.json");
        return json::parse(text.begin(), text.end(), nullptr, false);
    }();
    return doc;
}

bool has_problem(const std::vector<Problem>& ps, const std::string& pointer, const std::string& words) {
    for (const Problem& p : ps)
        if (p.pointer == pointer && p.message.find(words) != std::string::npos) return true;
    return false;
}

std::string problems_text(const std::vector<Problem>& ps) {
    std::string s;
    for (const Problem& p : ps) s += p.pointer + ": " + p.message + "\n";
    return s;
}

json llama_2_7b_config() {
    for (const json& c : cases_file()["cases"])
        if (c["repo"] == "meta-llama/Llama-2-7b-hf") return c["config"];
    return json();
}

ParsedScenario parse(const std::string& text) { return parse_scenario(text, "test"); }

// The bytes autograd keeps per sample for a config.json at 128 tokens, FP32, eager attention (the scenario must parse).
double saved(const json& cfg) {
    const ParsedScenario p = parse(std::string(R"({"model": {"hf_config": )") + cfg.dump() +
                                   R"(}, "batch_size": 1, "seq_len": 128, "precision": "fp32", "attention": "eager"})");
    CAPTURE(problems_text(p.problems));
    REQUIRE(p.problems.empty());
    return gg::engine::saved_activation_bytes_per_sample(estimate(p.scenario).graph, p.scenario.training_config());
}

}  // namespace

TEST_CASE("hf_config: parameter counts equal the published counts of the Hub models (within 0.1%)") {
    const json& doc = cases_file();
    REQUIRE(doc.is_object());
    const double tol = doc["tolerance_fraction"].get<double>();
    REQUIRE(tol <= 0.001);
    std::set<std::string> types;
    int checked = 0, exact = 0;
    std::printf("%-40s %-12s %16s %16s %9s\n", "Hub model", "model_type", "published", "engine", "error");
    for (const json& c : doc["cases"]) {
        const std::string repo = c["repo"].get<std::string>();
        CAPTURE(repo);
        REQUIRE(c["config_source"].get<std::string>().find("https://huggingface.co/" + repo) == 0);
        REQUIRE(!c["published_source"].get<std::string>().empty());
        gg::engine::ModelSpec m;
        std::vector<Problem> problems;
        const bool ok = parse_hf_config(c["config"], "hf_configs.json", "/config", m, problems);
        CAPTURE(problems_text(problems));
        REQUIRE(ok);
        const std::string counted = c["counted"].get<std::string>();
        REQUIRE((counted == "causal-lm" || counted == "base-model" || counted == "image-classification" ||
                 counted == "encoder-decoder"));
        // A base model's published count leaves out the task head the engine trains (head_params, by hand).
        const double head = c.contains("head_params") ? c["head_params"].get<double>() : 0;
        CHECK((counted == "base-model") == (head > 0));
        const double engine = gg::engine::count_params(m) - head;
        const double published = c["published_params"].get<double>();
        const double error = engine / published - 1;
        std::printf("%-40s %-12s %16.0f %16.0f %+8.4f%%\n", repo.c_str(),
                    c["config"]["model_type"].get<std::string>().c_str(), published, engine, 100 * error);
        CHECK(std::fabs(error) <= tol);
        types.insert(c["config"]["model_type"].get<std::string>());
        ++checked;
        if (engine == published) ++exact;
    }
    CHECK(checked >= 30);
    CHECK(exact >= checked - 1);  // only a rounded published count (DeepSeek-V3's "671B") may differ
    // Every family the reader knows has a published count here, except Falcon (tested by hand below).
    for (const std::string& t : kHfModelTypes)
        if (t != "falcon") CHECK_MESSAGE(types.count(t) == 1, "no published count for model_type " << t);
}

TEST_CASE("hf_config: Falcon's fused multi-query attention, parallel block and tied head count as modeling_falcon.py") {
    // tiiuae/falcon-7b config.json (https://huggingface.co/tiiuae/falcon-7b/blob/main/config.json): 32 layers, 4544
    // wide, 71 heads of 64, multi_query, parallel_attn, no biases, 65024 tokens, tied head. By the modules of
    // modeling_falcon.py: word_embeddings 65024 x 4544; per layer query_key_value 4544 x (71 + 2) x 64, dense 4544^2,
    // dense_h_to_4h and dense_4h_to_h 4544 x 18176 each, one input_layernorm (2 x 4544); ln_f.
    const json cfg = {{"model_type", "falcon"}, {"hidden_size", 4544}, {"num_hidden_layers", 32},
                      {"num_attention_heads", 71}, {"vocab_size", 65024}, {"multi_query", true},
                      {"parallel_attn", true}, {"bias", false}, {"new_decoder_architecture", false}, {"alibi", false}};
    gg::engine::ModelSpec m;
    std::vector<Problem> problems;
    REQUIRE(parse_hf_config(cfg, "t", "", m, problems));
    const double layer = 4544.0 * 73 * 64 + 4544.0 * 4544 + 2 * 4544.0 * 18176 + 2 * 4544;
    CHECK(gg::engine::count_params(m) == 65024.0 * 4544 + 32 * layer + 2 * 4544);
    // falcon-40b's new decoder architecture: 8 key/value heads, ln_attn and ln_mlp.
    json big = cfg;
    big["hidden_size"] = 8192, big["num_hidden_layers"] = 60, big["num_attention_heads"] = 128;
    big["new_decoder_architecture"] = true, big["num_kv_heads"] = 8;
    REQUIRE(parse_hf_config(big, "t", "", m, problems));
    const double layer40 = 8192.0 * (128 + 16) * 64 + 8192.0 * 8192 + 2 * 8192.0 * 32768 + 4 * 8192;
    CHECK(gg::engine::count_params(m) == 65024.0 * 8192 + 60 * layer40 + 2 * 8192);
}

TEST_CASE("hf_config: Phi keeps its three dropout probabilities apart; rotary covers partial_rotary_factor of a head") {
    // A small Phi (modeling_phi.py): 2 layers, 256 wide, 8 heads of 32, 128 tokens, fp32, eager attention. What
    // each setting adds to the saved bytes of one sample follows from the modules: resid_pdrop a 1-byte mask on the
    // attention output and one on the MLP output (b s h each, per layer); embd_pdrop one on the embeddings;
    // attention_dropout one on the probabilities (and the dropped probabilities matmul keeps), none of the others.
    const json phi = {{"model_type", "phi"}, {"hidden_size", 256}, {"num_hidden_layers", 2},
                      {"num_attention_heads", 8}, {"intermediate_size", 1024}, {"vocab_size", 1000},
                      {"partial_rotary_factor", 0.5}, {"resid_pdrop", 0.0}, {"embd_pdrop", 0.0},
                      {"attention_dropout", 0.0}};
    const double T = 128, h = 256, layers = 2;
    const double base = saved(phi);
    json c = phi;
    c["resid_pdrop"] = 0.1;
    CHECK(saved(c) - base == layers * 2 * T * h);
    c = phi;
    c["embd_pdrop"] = 0.1;
    CHECK(saved(c) - base == T * h);
    c = phi;
    c["attention_dropout"] = 0.1;
    CHECK(saved(c) - base >= layers * T * 8 * 128);  // at least the b heads s s mask per layer
    // Rotary on all 32 of each head instead of 16: the muls keep cos and sin 16 wider (fp32), per layer.
    c = phi;
    c["partial_rotary_factor"] = 1.0;
    CHECK(saved(c) - base == layers * 2 * T * 16 * 4);
    // GPT-NeoX's rotary_pct does the same (Pythia: 0.25 of 64 = 16).
    json neox;
    for (const json& k : cases_file()["cases"])
        if (k["repo"] == "EleutherAI/pythia-70m") neox = k["config"];
    REQUIRE(neox.is_object());
    const double quarter = saved(neox);
    neox["rotary_pct"] = 1.0;
    CHECK(saved(neox) - quarter == 6 * 2 * T * (64 - 16) * 4);
    // And Phi-3's partial_rotary_factor (Phi-4-mini: 0.75; Phi-3 has none, i.e. all of each head).
    json phi3 = {{"model_type", "phi3"}, {"hidden_size", 256}, {"num_hidden_layers", 2}, {"num_attention_heads", 8},
                 {"num_key_value_heads", 8}, {"intermediate_size", 512}, {"vocab_size", 1000},
                 {"max_position_embeddings", 4096}, {"partial_rotary_factor", 0.5}};
    const double half3 = saved(phi3);
    phi3["partial_rotary_factor"] = 1.0;
    CHECK(saved(phi3) - half3 == layers * 2 * T * 16 * 4);
    phi3.erase("partial_rotary_factor");
    CHECK(saved(phi3) - half3 == layers * 2 * T * 16 * 4);
    // A share out of (0, 1] and qk_layernorm are problems at their keys.
    c = phi;
    c["partial_rotary_factor"] = 0;
    c["qk_layernorm"] = true;
    gg::engine::ModelSpec m;
    std::vector<Problem> ps;
    CHECK_FALSE(parse_hf_config(c, "f", "", m, ps));
    CHECK(has_problem(ps, "/partial_rotary_factor", "above 0 and at most 1"));
    CHECK(has_problem(ps, "/qk_layernorm", "not modelled"));
}

TEST_CASE("hf_config: OPT's position offset, post-LN layout and embedding projections count as modeling_opt.py") {
    json opt125, opt350;
    for (const json& c : cases_file()["cases"]) {
        if (c["repo"] == "facebook/opt-125m") opt125 = c["config"];
        if (c["repo"] == "facebook/opt-350m") opt350 = c["config"];
    }
    REQUIRE(opt125.is_object());
    REQUIRE(opt350.is_object());
    gg::engine::ModelSpec m;
    std::vector<Problem> ps;
    REQUIRE(parse_hf_config(opt350, "f", "", m, ps));
    // OPT-350m: 2048 + 2 positional rows (OPTLearnedPositionalEmbedding's offset), LayerNorm after each residual add,
    // no final LayerNorm, 512-wide embeddings and tied head with project_in / project_out, ReLU, biases.
    CHECK(m.max_positions == 2050);
    CHECK(m.default_seq_len == 2048);
    CHECK(m.post_norm);
    CHECK_FALSE(m.final_norm);
    CHECK(m.word_embed_proj_dim == 512);
    CHECK(m.tied_embeddings);
    CHECK(m.activation == gg::engine::Activation::kRelu);
    CHECK(m.bias);
    REQUIRE(parse_hf_config(opt125, "f", "", m, ps));
    const double h = 768, ffn = 3072, layers = 12;
    const double full = gg::engine::count_params(m);
    CHECK_FALSE(m.post_norm);
    CHECK(m.final_norm);
    CHECK(m.word_embed_proj_dim == 0);
    // _remove_final_layer_norm drops the decoder's final LayerNorm; enable_bias false every Linear's bias.
    json c = opt125;
    c["_remove_final_layer_norm"] = true;
    REQUIRE(parse_hf_config(c, "f", "", m, ps));
    CHECK(gg::engine::count_params(m) == full - 2 * h);
    c = opt125;
    c["enable_bias"] = false;
    REQUIRE(parse_hf_config(c, "f", "", m, ps));
    CHECK(gg::engine::count_params(m) == full - layers * (4 * h + ffn + h));
    // An untied head is vocabulary x word_embed_proj_dim of its own.
    c = opt350;
    c["tie_word_embeddings"] = false;
    REQUIRE(parse_hf_config(opt350, "f", "", m, ps));
    const double tied350 = gg::engine::count_params(m);
    REQUIRE(parse_hf_config(c, "f", "", m, ps));
    CHECK(gg::engine::count_params(m) == tied350 + 50272.0 * 512);
    // `dropout` is a 1-byte mask on the attention output and one on fc2's output per layer, none on the embeddings.
    c = opt125;
    c["dropout"] = 0.0;
    CHECK(saved(opt125) - saved(c) == layers * 2 * 128 * h);
    // A missing size and a setting the graph does not model are problems at their keys.
    c = opt125;
    c.erase("ffn_dim");
    c.erase("num_attention_heads");
    c["layerdrop"] = 0.1;
    c["layer_norm_elementwise_affine"] = false;
    ps.clear();
    CHECK_FALSE(parse_hf_config(c, "f", "/model/hf_config", m, ps));
    CHECK(has_problem(ps, "/model/hf_config/ffn_dim", "needs 'ffn_dim'"));
    CHECK(has_problem(ps, "/model/hf_config/num_attention_heads", "needs 'num_attention_heads'"));
    CHECK(has_problem(ps, "/model/hf_config/layerdrop", "not modelled"));
    CHECK(has_problem(ps, "/model/hf_config/layer_norm_elementwise_affine", "not modelled"));
}

TEST_CASE("hf_config: an unknown architecture or a missing field is a problem that names it") {
    std::vector<Problem> ps;
    gg::engine::ModelSpec m;
    CHECK_FALSE(parse_hf_config(json{{"model_type", "mamba"}, {"hidden_size", 768}}, "f", "/model/hf_config", m, ps));
    CHECK(has_problem(ps, "/model/hf_config/model_type", "'mamba' is not modelled"));
    ps.clear();
    CHECK_FALSE(parse_hf_config(json{{"hidden_size", 768}}, "f", "/model/hf_config", m, ps));
    CHECK(has_problem(ps, "/model/hf_config/model_type", "needs 'model_type'"));
    ps.clear();
    json cfg = llama_2_7b_config();
    cfg.erase("intermediate_size");
    cfg.erase("num_hidden_layers");
    CHECK_FALSE(parse_hf_config(cfg, "f", "/model/hf_config", m, ps));
    CHECK(has_problem(ps, "/model/hf_config/intermediate_size", "needs 'intermediate_size'"));
    CHECK(has_problem(ps, "/model/hf_config/num_hidden_layers", "needs 'num_hidden_layers'"));
    ps.clear();
    cfg = llama_2_7b_config();
    cfg["num_key_value_heads"] = 5;  // 32 heads are not a multiple of 5
    CHECK_FALSE(parse_hf_config(cfg, "f", "", m, ps));
    CHECK(has_problem(ps, "/num_key_value_heads", "multiple"));
    ps.clear();
    cfg = llama_2_7b_config();
    cfg["mlp_bias"] = true;
    CHECK_FALSE(parse_hf_config(cfg, "f", "", m, ps));
    CHECK(has_problem(ps, "/mlp_bias", "not modelled"));
    ps.clear();
    CHECK_FALSE(parse_hf_config(json{{"model_type", "gemma3"}}, "f", "", m, ps));
    CHECK(has_problem(ps, "/model_type", "text_config"));
    ps.clear();
    CHECK_FALSE(parse_hf_config(json::array(), "f", "/model/hf_config", m, ps));
    CHECK(has_problem(ps, "/model/hf_config", "config.json object"));
}

TEST_CASE("hf_config: a pasted config.json is a model like a preset: round trip and the same estimate") {
    // Llama 2 7B's config.json against the llama-2-7b preset, GPT-2's against gpt2, BERT's against bert-base.
    struct Pair { const char* repo; const char* preset; const char* rest; };
    const Pair pairs[] = {
        {"meta-llama/Llama-2-7b-hf", "llama-2-7b",
         R"("batch_size": 2, "seq_len": 512, "precision": "bf16-amp", "method": "lora", "gpu": {"id": "a100-sxm4-80gb"})"},
        {"openai-community/gpt2", "gpt2", R"("batch_size": 8, "precision": "fp16-amp", "gpu": {"id": "rtx-4090"})"},
        {"google-bert/bert-base-uncased", "bert-base", R"("batch_size": 32, "seq_len": 128, "gpu": {"id": "t4"})"},
    };
    for (const Pair& p : pairs) {
        CAPTURE(p.repo);
        json cfg;
        for (const json& c : cases_file()["cases"])
            if (c["repo"] == p.repo) cfg = c["config"];
        REQUIRE(cfg.is_object());
        const std::string text = std::string(R"({"model": {"hf_config": )") + cfg.dump() + "}, " + p.rest + "}";
        const ParsedScenario a = parse(text);
        CAPTURE(problems_text(a.problems));
        REQUIRE(a.problems.empty());
        const ParsedScenario b = parse(std::string(R"({"model": ")") + p.preset + "\", " + p.rest + "}");
        REQUIRE(b.problems.empty());
        // The link and the CLI carry the config as given: parse(to_json(s)) gives it back.
        const json back = scenario_to_json(a.scenario);
        CHECK(back["model"]["hf_config"] == cfg);
        const ParsedScenario again = parse_scenario_json(back, "test");
        REQUIRE(again.problems.empty());
        CHECK(scenario_to_json(again.scenario) == back);
        const Estimate ea = estimate(a.scenario), eb = estimate(b.scenario);
        CHECK(ea.graph.params_total() == eb.graph.params_total());
        CHECK(ea.report.peak_allocated.bytes == doctest::Approx(eb.report.peak_allocated.bytes).epsilon(1e-12));
        CHECK(ea.max_batch_size == eb.max_batch_size);
    }
    // A config the engine cannot read is a problem at its field, inside the scenario.
    const ParsedScenario bad = parse(R"({"model": {"hf_config": {"model_type": "llama", "hidden_size": 64}}})");
    CHECK(has_problem(bad.problems, "/model/hf_config/num_hidden_layers", "needs"));
    const ParsedScenario extra = parse(R"({"model": {"hf_config": {"model_type": "gpt2", "n_embd": 64, "n_layer": 2,
        "n_head": 2}, "family": "decoder"}})");
    CHECK(has_problem(extra.problems, "/model/family", "unknown key"));
}

TEST_CASE("LoRA targets: the model's own module names as PEFT takes them; a missing one lists what the model has") {
    auto roles = [](const char* scenario) {
        const ParsedScenario p = parse(scenario);
        CAPTURE(problems_text(p.problems));
        REQUIRE(p.problems.empty());
        return p.scenario.training_config().lora.targets;
    };
    using R = gg::engine::ParamRole;
    using V = std::vector<R>;
    // Llama: q_proj/v_proj = q/v; all-linear = every Linear but lm_head.
    CHECK(roles(R"({"model": "llama-2-7b", "method": "lora", "lora": {"targets": ["q_proj", "v_proj"]}})") ==
          V{R::kQ, R::kV});
    CHECK(roles(R"({"model": "llama-2-7b", "method": "lora", "lora": {"targets": ["all-linear"]}})") ==
          V{R::kQ, R::kK, R::kV, R::kO, R::kGate, R::kUp, R::kDown});
    // GPT-2's Conv1D names: c_attn is the fused qkv; c_proj is both the attention output and the MLP's second layer.
    CHECK(roles(R"({"model": "gpt2", "method": "lora", "lora": {"targets": ["c_attn"]}})") == V{R::kQkv});
    CHECK(roles(R"({"model": "gpt2", "method": "lora", "lora": {"targets": ["c_proj"]}})") == V{R::kO, R::kFc2});
    // BERT's "dense" matches attention.output.dense, intermediate.dense, output.dense and pooler.dense, as in PEFT.
    CHECK(roles(R"({"model": "bert-base", "method": "lora", "lora": {"targets": ["query", "dense"]}})") ==
          V{R::kQ, R::kO, R::kFc1, R::kFc2, R::kOther});
    // Pythia (GPT-NeoX) from its config.json: query_key_value.
    json pythia;
    for (const json& c : cases_file()["cases"])
        if (c["repo"] == "EleutherAI/pythia-70m") pythia = c["config"];
    CHECK(roles((R"({"model": {"hf_config": )" + pythia.dump() +
                 R"(}, "method": "lora", "lora": {"targets": ["query_key_value", "dense_4h_to_h"]}})").c_str()) ==
          V{R::kQkv, R::kFc2});
    // OPT (the PEFT tutorials' LoRA on opt-350m: q_proj, v_proj); out_proj, fc1 and fc2 by their own names.
    json opt350;
    for (const json& c : cases_file()["cases"])
        if (c["repo"] == "facebook/opt-350m") opt350 = c["config"];
    CHECK(roles((R"({"model": {"hf_config": )" + opt350.dump() +
                 R"(}, "method": "lora", "lora": {"targets": ["q_proj", "v_proj"]}})").c_str()) == V{R::kQ, R::kV});
    CHECK(roles((R"({"model": {"hf_config": )" + opt350.dump() +
                 R"(}, "method": "lora", "lora": {"targets": ["out_proj", "fc1", "fc2"]}})").c_str()) ==
          V{R::kO, R::kFc1, R::kFc2});

    // What the model does not have is an error that lists what it has (was: silently dropped).
    const ParsedScenario llama = parse(R"({"model": "llama-2-7b", "method": "lora", "lora": {"targets": ["q", "fc1", "fc2"]}})");
    CHECK(has_problem(llama.problems, "/lora/targets", "no module 'fc1'"));
    CHECK(has_problem(llama.problems, "/lora/targets", "no module 'fc2'"));
    CHECK(has_problem(llama.problems, "/lora/targets", "q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj"));
    const ParsedScenario custom = parse(R"({"model": {"family": "decoder", "layers": 2, "hidden": 64, "heads": 4,
        "ffn": 128, "vocab": 100}, "method": "lora", "lora": {"targets": ["qkv", "o"]}})");
    CHECK(has_problem(custom.problems, "/lora/targets", "no module 'qkv'"));
    const ParsedScenario typo = parse(R"({"model": "gpt2", "method": "lora", "lora": {"targets": ["c_atn"]}})");
    CHECK(has_problem(typo.problems, "/lora/targets", "it has: c_attn, c_proj, c_fc"));
}
