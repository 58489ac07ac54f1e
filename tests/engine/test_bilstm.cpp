// The bilstm-crf preset (Lample et al. 2016 word-level tagger, src/engine/presets.cpp): parameter count by hand
// from torch.nn shapes, saved activations by hand from the ops in workload_rnn.cpp build_bilstm_crf, linearity in
// batch and sequence length, and the scenario / CLI path. No validation files here (nothing measured yet).
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "catalog/report.h"
#include "catalog/scenario.h"
#include "engine/memory.h"

using namespace gg::engine;

namespace {

Graph bilstm_graph(const ModelSpec& m, int seq) {
    WorkloadShape s;
    s.batch = 1;  // prepare_memory wants the batch-1 graph
    s.seq_len = seq;
    return build_graph(m, s, BuildOptions{});
}

double saved_per_sample(const ModelSpec& m, int seq, Precision p) {
    TrainingConfig c;
    c.precision = p;
    return prepare_memory(bilstm_graph(m, seq), c).saved_per_sample_bytes;
}

}  // namespace

TEST_CASE("bilstm-crf preset is available and its parameter count matches hand arithmetic") {
    const ModelSpec* m = find_preset("bilstm-crf");
    REQUIRE(m != nullptr);
    CHECK(m->available);
    CHECK(m->default_seq_len == 128);
    // Embedding: vocab x dim = 400,000 x 100 (GloVe 6B rows).
    const double embedding = 400000.0 * 100;
    // torch.nn.LSTM, per direction: weight_ih (4h, in) + weight_hh (4h, h) + bias_ih (4h) + bias_hh (4h)
    // = 4*100*100 + 4*100*100 + 400 + 400 = 80,800; two directions.
    const double lstm = 2 * (4.0 * 100 * 100 + 4.0 * 100 * 100 + 400 + 400);
    CHECK(lstm == 161600);
    const double linear = 200.0 * 9 + 9;  // nn.Linear(2h = 200, 9 tags)
    const double crf = 9.0 * 9 + 9 + 9;   // pytorch-crf: transitions, start_transitions, end_transitions
    CHECK(count_params(*m) == doctest::Approx(embedding + lstm + linear + crf).epsilon(1e-12));
    CHECK(count_params(*m) == doctest::Approx(40163508).epsilon(1e-12));
}

TEST_CASE("bilstm-crf preset: fp32 saved bytes per sample equal the hand sum of what each op keeps") {
    const ModelSpec& m = *find_preset("bilstm-crf");
    const double e = 100, h = 100, k = 9;
    for (int s : {16, 128, 300}) {
        CAPTURE(s);
        const double expected = s * 8.0               // token ids (int64), embedding backward
                                + s * e * 1.0         // dropout mask (bool)
                                + s * e * 4.0         // dropout output = LSTM input (fp32: no cast)
                                + 2 * 2 * h * 4.0     // hx and cx zeros (2 directions x h each)
                                + 2 * 5 * s * h * 4.0 // cuDNN reserve as modelled: 4 gates + cell, 2 directions
                                + 2 * s * h * 4.0     // LSTM output
                                + 2 * s * h * 4.0     // the contiguous copy hidden2tag's mm saves
                                + (s - 1) * (k * k + k) * 4.0  // CRF logsumexp input and result per step
                                + s * (1.0 + 8 + 8 + 4);       // CRF mask, tags, arange, mask.float()
        CHECK(saved_per_sample(m, s, Precision::kFp32) == doctest::Approx(expected).epsilon(1e-12));
    }
}

TEST_CASE("bilstm-crf preset: activation bytes grow linearly in batch and sequence length") {
    const ModelSpec& m = *find_preset("bilstm-crf");
    for (Precision p : {Precision::kFp32, Precision::kBf16Amp, Precision::kBf16}) {
        CAPTURE(int(p));
        // Sequence: equal increments (affine in s: the hx/cx zeros and the s - 1 CRF steps add a constant).
        const double a = saved_per_sample(m, 64, p), b = saved_per_sample(m, 128, p), c = saved_per_sample(m, 192, p);
        CHECK(b > a);
        CHECK(c - b == doctest::Approx(b - a).epsilon(1e-12));
        // Batch: the saved activations (without the batch-independent autocast weight copies) scale exactly.
        TrainingConfig cfg;
        cfg.precision = p;
        const PreparedMemory prep = prepare_memory(bilstm_graph(m, 128), cfg);
        const MemoryReport r1 = evaluate_memory(prep, 1, 0);
        const MemoryReport r32 = evaluate_memory(prep, 32, 0);
        const double copies = r1.autocast_weight_copies.bytes;
        CHECK(r32.autocast_weight_copies.bytes == doctest::Approx(copies));
        CHECK(r32.activations.bytes - copies == doctest::Approx(32 * (r1.activations.bytes - copies)).epsilon(1e-12));
    }
}

TEST_CASE("bilstm-crf preset: autocast keeps 2-byte LSTM tensors and the fp16 flat weight copy") {
    const ModelSpec& m = *find_preset("bilstm-crf");
    const int s = 128;
    const double h = 100;
    const double fp32 = saved_per_sample(m, s, Precision::kFp32);
    const double amp = saved_per_sample(m, s, Precision::kBf16Amp);
    // Under autocast the reserve, the output, hx/cx and hidden2tag's copy halve, and the LSTM keeps an fp16
    // copy of its input instead of the fp32 dropout output, which nothing else saves (4 -> 2 bytes as well).
    const double halved = (2 * 5 * s * h + 2 * s * h + 2 * s * h + 2 * 2 * h + s * 100.0) * 2.0;
    CHECK(fp32 - amp == doctest::Approx(halved).epsilon(1e-12));
    TrainingConfig c;
    c.precision = Precision::kBf16Amp;
    const PreparedMemory prep = prepare_memory(bilstm_graph(m, s), c);
    // The LSTM's flat fp16 buffer (161,600 values) and hidden2tag's weight (1,800) are the autocast copies.
    CHECK(prep.autocast_copy_bytes == doctest::Approx((161600.0 + 1800.0) * 2));
}

TEST_CASE("bilstm-crf preset: forward FLOPs of the LSTM are 2 x 4h(in + h) per token and direction") {
    const ModelSpec& m = *find_preset("bilstm-crf");
    const Graph g = bilstm_graph(m, 128);
    double lstm_flop = -1;
    for (const Layer& l : g.layers)
        if (l.name == "lstm") lstm_flop = l.forward_flop;
    CHECK(lstm_flop == doctest::Approx(2 /*dirs*/ * 2.0 * 4 * 100 * (100 + 100) * 128));
    CHECK(g.block_count == 1);
}

TEST_CASE("bilstm-crf preset: the scenario of the guide's use case gives a memory report") {
    using namespace gg::catalog;
    const ParsedScenario p =
        parse_scenario(R"({"model": "bilstm-crf", "seq_len": 128, "batch_size": 32, "gpu": {"id": "rtx-4060"}})", "test");
    for (const Problem& q : p.problems) FAIL_CHECK(q.pointer << ": " << q.message);
    REQUIRE(p.problems.empty());
    const nlohmann::json r = report_to_json(p.scenario, estimate(p.scenario));
    CHECK(r["params"]["total"].get<double>() == doctest::Approx(40163508));
    CHECK(r["memory_bytes"]["activations"].get<double>() > 0);
    CHECK(r["memory_bytes"]["peak_allocated"].get<double>() > r["memory_bytes"]["weights"].get<double>());
    CHECK(r.contains("fits"));
}

#if defined(GG_CLI_PATH) && !defined(_WIN32)
TEST_CASE("bilstm-crf preset: gpuguide estimate prints a report for it") {
    const std::string cmd = std::string("printf '%s' '{\"model\":\"bilstm-crf\",\"seq_len\":128,\"batch_size\":32,"
                                        "\"gpu\":{\"id\":\"rtx-4060\"}}' | ") +
                            GG_CLI_PATH + " estimate - 2>/dev/null";
    FILE* f = popen(cmd.c_str(), "r");
    REQUIRE(f != nullptr);
    std::string out;
    char buf[4096];
    while (std::size_t n = fread(buf, 1, sizeof buf, f)) out.append(buf, n);
    const int status = pclose(f);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    const auto j = nlohmann::json::parse(out, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    CHECK(j["memory_bytes"]["peak_allocated"].is_number());
    CHECK(j["params"]["total"].get<double>() == doctest::Approx(40163508));
}
#endif
