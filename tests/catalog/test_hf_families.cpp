// Each config.json family's saved activations against a CPU PyTorch measurement of a small random-weight model built
// from the same config (tests/validation/families/measured_hf_activations.json, written by
// tools/measure/hf_families.py; the file is read from the source tree, so `gpuguide validate` and the page's
// Validation tab do not list these cases). A miss fails unless it is listed below with what the measurement shows;
// a listed case that passes fails too, so the list stays true.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "catalog/report.h"

using namespace gg::catalog;

namespace {

constexpr const char* kFamiliesFile = "tests/validation/families/measured_hf_activations.json";

// What each miss is, from the case's per-producer breakdown (source_detail); findings to explain, not constants.
const std::map<std::string, const char*>& known_misses() {
    static const std::map<std::string, const char*> m = {
        {"hf-qwen3-qknorm-b2-fp32-eager",
         "-12%: Qwen3's q/k RMSNorms (per head, before the transpose) measure 2,371,584 bytes over the Mistral case of "
         "the same sizes; the engine adds 1,585,152 for them. Not yet broken down op by op"},
        {"hf-gemma3-qknorm-window32-b2-fp32-eager",
         "-16%: Gemma 3's q/k norms and sandwich norms measure 5,526,528 bytes over the Gemma 1 case of the same sizes; "
         "the engine adds 3,686,400. The Gemma 1 case (2 GemmaRMSNorms per layer) is within tolerance"},
        {"hf-gemma2-softcap-window32-b2-fp32-eager",
         "-12%: over the Gemma 1 case it measures 5,226,544 bytes, 2,072,576 of them the soft-capping tanh outputs "
         "(attention scores and logits), which the engine counts; the engine adds 4,173,824 in all, so the sandwich "
         "norms are short as in the Gemma 3 case"},
        {"hf-qwen2moe-4e-top2-shared-b2-fp32-eager",
         "-25%: Qwen2MoeSparseMoeBlock's loop over experts keeps each expert's gathered rows (IndexBackward0, "
         "1,052,672 bytes), the expert output times its routing weight and the index_add_ indices, and the shared "
         "expert keeps its sigmoid gate's product; the engine counts the routed MLPs over the token-expert pairs, "
         "the router's probabilities and top-k indices only"},
        {"hf-qwen3moe-4e-top2-norm-b2-fp32-eager",
         "-30%: the same expert loop as the Qwen2-MoE case (modeling_qwen3_moe.py): each expert's gathered rows "
         "(IndexBackward0 1,052,672 bytes), its output times the routing weight (MulBackward0 5,242,880 in all) and "
         "the index_add_ indices, plus the top-k renormalisation; the engine counts the routed MLPs over the "
         "token-expert pairs and the router's probabilities and indices only. Its q/k norms add Qwen3's -12%"},
        {"hf-mixtral-4e-top2-b2-fp32-eager",
         "-29%: MixtralSparseMoeBlock's expert loop (modeling_mixtral.py) keeps what the Qwen2-MoE case keeps without "
         "the shared expert: the gathered rows (IndexBackward0 1,052,672 bytes), each expert output times its routing "
         "weight, the index_add_ indices and the renormalised top-k weights"},
        {"hf-clip-vision-p32-224-b2-fp32-eager",
         "-12%: CLIP's quick_gelu (x * sigmoid(1.702 x)) keeps the sigmoid's output and the mul's operands "
         "(SigmoidBackward0 614,400 and MulBackward0 614,400 bytes); the engine counts a GELU, which keeps its input "
         "only. At 50 tokens the MLP is most of the activations"},
    };
    return m;
}

std::string read_source_file(const std::string& path) {
    std::ifstream in(std::string(GG_SOURCE_DIR) + "/" + path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("config.json families: saved activations against a CPU PyTorch measurement of the same config") {
    const std::string text = read_source_file(kFamiliesFile);
    REQUIRE_MESSAGE(!text.empty(), kFamiliesFile << " is missing");
    const std::vector<ValidationRow> rows = run_memory_validation_file(kFamiliesFile, text);
    REQUIRE(rows.size() >= 12);
    std::set<std::string> ids;
    int pass = 0;
    std::printf("\n%-46s %14s %14s %8s %s\n", "family case", "measured", "engine", "error", "result");
    for (const ValidationRow& r : rows) {
        CAPTURE(r.id);
        CAPTURE(r.problem);
        REQUIRE(r.ran);
        CHECK(r.quantity == "saved_activations_bytes");
        ids.insert(r.id);
        const bool listed = known_misses().count(r.id) > 0;
        std::printf("%-46s %14.0f %14.0f %+7.1f%% %s\n", r.id.c_str(), r.measured, r.predicted,
                    100 * r.error_fraction, r.pass ? "pass" : listed ? "KNOWN" : "MISS");
        CAPTURE(r.measured);
        CAPTURE(r.predicted);
        pass += r.pass;
        if (!r.pass && !listed) FAIL_CHECK("new miss: fix the engine, or list the case with what the measurement shows");
        if (r.pass && listed) FAIL_CHECK("known miss now passes: remove it from known_misses()");
    }
    for (const auto& [id, reason] : known_misses()) {
        CAPTURE(id);
        if (!ids.count(id)) FAIL_CHECK("known_misses() lists a case id the file does not have");
    }
    std::printf("%d of %zu family cases within tolerance\n", pass, rows.size());
}
