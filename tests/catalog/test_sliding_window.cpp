// Sliding-window attention from config.json (catalog/hf_config.cpp, engine transformer_block): which layers slide in
// each family, fused attention costed over the window, eager attention over every key (it scores all and masks).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/hf_config.h"

using namespace gg::catalog;
using gg::engine::Graph;
using gg::engine::Layer;
using gg::engine::ModelSpec;
using nlohmann::json;

namespace {

json small(const std::string& type) {
    return {{"model_type", type},   {"hidden_size", 256},        {"num_hidden_layers", 6}, {"num_attention_heads", 4},
            {"num_key_value_heads", 2}, {"intermediate_size", 512}, {"vocab_size", 1000},     {"head_dim", 64}};
}

ModelSpec read(const json& config) {
    ModelSpec m;
    std::vector<Problem> problems;
    REQUIRE(parse_hf_config(config, "test", "", m, problems));
    return m;
}

// Forward FLOPs of each layer's self-attention core (QK^T and PV), in layer order.
std::vector<double> attention_flop(const ModelSpec& m, int seq, bool eager) {
    gg::engine::WorkloadShape shape;
    shape.seq_len = seq;
    const Graph g = gg::engine::build_graph(m, shape, {eager});
    std::vector<double> out;
    for (const Layer& l : g.layers)
        if (l.name.size() > 5 && l.name.compare(l.name.size() - 5, 5, ".attn") == 0) out.push_back(l.forward_flop);
    return out;
}

}  // namespace

TEST_CASE("sliding window: each family's layers slide as its modeling code picks them") {
    const int seq = 4096, window = 1024;
    const double full = 2.0 * 2.0 * seq * seq * 4 * 64, local = full * window / seq;  // QK^T + PV, 4 heads of 64
    SUBCASE("Mistral: every layer") {
        json c = small("mistral");
        c["sliding_window"] = window;
        CHECK(attention_flop(read(c), seq, false) == std::vector<double>(6, local));
    }
    SUBCASE("Gemma 2: the even layers (layer_idx % 2 == 0)") {
        json c = small("gemma2");
        c["sliding_window"] = window;
        CHECK(attention_flop(read(c), seq, false) == std::vector<double>{local, full, local, full, local, full});
    }
    SUBCASE("Gemma 3: all but every sliding_window_pattern-th") {
        json c = small("gemma3_text");
        c["sliding_window"] = window;
        c["sliding_window_pattern"] = 3;
        CHECK(attention_flop(read(c), seq, false) == std::vector<double>{local, local, full, local, local, full});
    }
    SUBCASE("Qwen2: only with use_sliding_window, from max_window_layers on") {
        json c = small("qwen2");
        c["sliding_window"] = window;
        c["max_window_layers"] = 4;
        CHECK(attention_flop(read(c), seq, false) == std::vector<double>(6, full));
        c["use_sliding_window"] = true;
        CHECK(attention_flop(read(c), seq, false) == std::vector<double>{full, full, full, full, local, local});
    }
    SUBCASE("layer_types names each layer and wins over the family's rule") {
        json c = small("gemma2");
        c["sliding_window"] = window;
        c["layer_types"] = {"full_attention", "sliding_attention", "full_attention", "full_attention",
                            "full_attention", "sliding_attention"};
        CHECK(attention_flop(read(c), seq, false) == std::vector<double>{full, local, full, full, full, local});
        c["layer_types"] = {"sliding_attention"};
        ModelSpec m;
        std::vector<Problem> problems;
        CHECK_FALSE(parse_hf_config(c, "test", "/hf_config", m, problems));
        REQUIRE(problems.size() == 1);
        CHECK(problems[0].pointer == "/hf_config/layer_types");
    }
    SUBCASE("a sequence shorter than the window is unchanged") {
        json c = small("mistral");
        c["sliding_window"] = window;
        const double short_full = 2.0 * 2.0 * 512 * 512 * 4 * 64;
        CHECK(attention_flop(read(c), 512, false) == std::vector<double>(6, short_full));
    }
}

TEST_CASE("sliding window: eager attention scores every key (the window is a mask), so its bytes and FLOPs stay s x s") {
    json with = small("mistral"), without = small("mistral");
    with["sliding_window"] = 1024;
    const ModelSpec a = read(with), b = read(without);
    CHECK(attention_flop(a, 4096, true) == attention_flop(b, 4096, true));
    gg::engine::WorkloadShape shape;
    shape.seq_len = 4096;
    const Graph ga = gg::engine::build_graph(a, shape, {true}), gb = gg::engine::build_graph(b, shape, {true});
    double elements_a = 0, elements_b = 0;
    for (const auto& t : ga.tensors) elements_a += t.elements;
    for (const auto& t : gb.tensors) elements_b += t.elements;
    CHECK(elements_a == elements_b);
    // Fused attention keeps O(s) tensors either way; only its FLOPs follow the window.
    CHECK(attention_flop(a, 4096, false)[0] * 4 == attention_flop(b, 4096, false)[0]);
}
