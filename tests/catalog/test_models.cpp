// The presets as data (data/models.json, catalog/models.h): every record loads, each counts its reference parameters,
// a new record needs no code, and a bad record is a problem that names it.
#include <doctest/doctest.h>

#include <string>

#include "catalog/embedded_data.h"
#include "catalog/models.h"

using namespace gg::catalog;
using gg::engine::ModelSpec;

namespace {

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

}  // namespace

TEST_CASE("models.json: every preset loads, with a name, a source and a reference count where one is published") {
    INFO(problems_text(embedded_model_problems()));
    CHECK(embedded_model_problems().empty());
    const auto& presets = gg::engine::preset_models();
    CHECK(presets.size() >= 46);  // the 46 presets that were C++ code; a record added to the file adds one
    int referenced = 0;
    for (const ModelSpec& m : presets) {
        CAPTURE(m.id);
        CHECK(!m.name.empty());
        CHECK(!m.source.empty());
        if (m.reference_params <= 0) continue;
        ++referenced;
        CHECK(!m.reference_source.empty());
        // Within 0.1%, as the Hub models of tests/validation/hf_configs.json (most are exact).
        CHECK(gg::engine::count_params(m) == doctest::Approx(m.reference_params).epsilon(1e-3));
    }
    CHECK(referenced >= 44);  // all but the U-Net layout (no published count)
    const ModelSpec* llama = gg::engine::find_preset("llama-3.1-8b");
    REQUIRE(llama != nullptr);
    CHECK(llama->name == "Llama 3.1 8B");
    CHECK(gg::engine::find_preset("no-such-model") == nullptr);
}

TEST_CASE("models.json: a preset is added by a record alone, as config.json or as a typed architecture") {
    const std::string text = R"({"schema_version": 1, "models": [
        {"id": "qwen3-0.6b", "name": "Qwen3 0.6B", "source": "Hugging Face Qwen/Qwen3-0.6B config.json",
         "reference_params": 596049920, "reference_source": "Hub safetensors.total",
         "hf_config": {"model_type": "qwen3", "hidden_size": 1024, "num_hidden_layers": 28, "num_attention_heads": 16,
                       "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 3072, "vocab_size": 151936,
                       "tie_word_embeddings": true, "max_position_embeddings": 40960}},
        {"id": "resnet152", "name": "ResNet-152", "source": "torchvision 0.14 models/resnet.py",
         "reference_params": 60192808, "reference_source": "torchvision ResNet152_Weights.IMAGENET1K_V1 meta num_params",
         "architecture": {"family": "resnet", "depths": [3, 8, 36, 3], "bottleneck": true, "image_size": 224,
                          "classes": 1000}}]})";
    std::vector<Problem> problems;
    const auto models = parse_models(text, "test", problems);
    INFO(problems_text(problems));
    REQUIRE(problems.empty());
    REQUIRE(models.size() == 2);
    CHECK(models[0].id == "qwen3-0.6b");
    CHECK(models[0].name == "Qwen3 0.6B");
    CHECK(models[0].family == gg::engine::Family::kDecoder);
    CHECK(gg::engine::count_params(models[0]) == doctest::Approx(596049920).epsilon(1e-9));
    CHECK(models[1].is_vision);
    CHECK(gg::engine::count_params(models[1]) == doctest::Approx(60192808).epsilon(1e-9));
}

TEST_CASE("models.json: a bad record is a problem naming it; the other records stay") {
    const std::string text = R"({"models": [
        {"id": "a", "name": "A", "source": "s", "architecture": {"family": "vgg", "image_size": 224, "classes": 10}},
        {"id": "a", "name": "A again", "source": "s", "architecture": {"family": "vgg", "image_size": 224, "classes": 10}},
        {"id": "b", "name": "B", "source": "s"},
        {"id": "c", "name": "C", "source": "s", "architecture": {"family": "transformer"}},
        {"id": "d", "name": "D", "source": "s", "architecture": {"family": "resnet", "depths": [2, 2], "bottleneck": false,
                                                                 "image_size": 224, "classes": 1000, "widths": 3}},
        {"id": "e", "source": "s", "hf_config": {"model_type": "llama", "hidden_size": 64}},
        {"id": "f", "name": "F", "source": "s", "implementation": "torchvision",
         "hf_config": {"model_type": "bert", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 2,
                       "intermediate_size": 128, "vocab_size": 100}},
        {"id": "g", "name": "G", "source": "s", "reference_params": 5,
         "architecture": {"family": "vgg", "image_size": 224, "classes": 10}}]})";
    std::vector<Problem> problems;
    const auto models = parse_models(text, "test", problems);
    INFO(problems_text(problems));
    REQUIRE(models.size() == 1);
    CHECK(models[0].id == "a");
    CHECK(has_problem(problems, "/models/1/id", "duplicate id 'a'"));
    CHECK(has_problem(problems, "/models/2", "exactly one of \"hf_config\""));
    CHECK(has_problem(problems, "/models/3/architecture/family", "family 'transformer' has no typed architecture"));
    CHECK(has_problem(problems, "/models/4/architecture/widths", "unknown key \"widths\""));
    CHECK(has_problem(problems, "/models/5/hf_config/num_hidden_layers", "needs 'num_hidden_layers'"));
    CHECK(has_problem(problems, "/models/5/name", "missing key \"name\""));
    CHECK(has_problem(problems, "/models/6/implementation", "only be \"torchvision\", for a ViT"));
    CHECK(has_problem(problems, "/models/7/reference_source", "missing key \"reference_source\""));
    std::vector<Problem> none;
    CHECK(parse_models("[1]", "test", none).empty());
    CHECK(has_problem(none, "", "not a JSON object"));
}
