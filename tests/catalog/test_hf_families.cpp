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
        // The dense Llama-shaped cases pass at -8.6%: on torch 1.13 each RMSNorm's mean() also keeps its input, the
        // pow(2) output (5 norms x b s h x 4 bytes = 1,310,720 bytes here, PowBackward0 in the breakdown; a 4-line
        // probe shows it). Today's derivatives.yaml mean.dim keeps only sizes and numel
        // (mean_backward(grad, self.sym_sizes(), dim, self.sym_numel(), keepdim)), so the engine does not count it.
        // The misses below are that same tensor, from the extra norms these families have.
        {"hf-qwen3-qknorm-b2-fp32-eager",
         "-12%: over the Mistral case it measures 2,371,584 bytes, the engine adds 1,585,152 for the q/k RMSNorms; "
         "the 786,432 left are exactly the q/k norms' pow(2) outputs that torch 1.13's mean() keeps (2 layers x "
         "b s (heads + kv_heads) head_dim x 4 bytes), besides the -8.6% every Llama-shaped case has"},
        {"hf-gemma3-qknorm-window32-b2-fp32-eager",
         "-16%: over the Gemma 1 case it measures 5,526,528 bytes, the engine adds 3,686,400; the 1,840,128 left are "
         "the pow(2) outputs torch 1.13's mean() keeps in the two sandwich norms (1,048,576) and the q/k norms "
         "(786,432) of the two layers, plus their rsqrt-sized rows"},
        {"hf-gemma2-softcap-window32-b2-fp32-eager",
         "-12%: over the Gemma 1 case it measures 5,226,544 bytes, the engine adds 4,173,824 (the soft-capping tanh "
         "outputs and the sandwich norms); the 1,052,720 left are the sandwich norms' pow(2) outputs that torch "
         "1.13's mean() keeps (2 layers x 2 norms x b s h x 4 bytes = 1,048,576)"},
        {"hf-qwen3moe-4e-top2-norm-b2-fp32-eager",
         "-12%: the expert loop is counted (the Mixtral and Qwen2-MoE cases pass); what is left is Qwen3's: the q/k "
         "norms' pow(2) outputs that torch 1.13's mean() keeps, as in the dense Qwen3 case"},
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
