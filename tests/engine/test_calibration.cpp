// "Calibrate with my measurement" (issue 33): each measured figure goes to the term that explains it (the job's own
// tensors, the allocator's slack, the CUDA context, the card's efficiency for the family); a card's calibration
// reaches the estimate, the time and the ranking, and user data with a bad calibration is refused field by field.
#include <doctest/doctest.h>

#include <string>

#include "catalog/calibrate.h"
#include "catalog/catalog.h"
#include "catalog/decision_json.h"
#include "catalog/full_report.h"
#include "catalog/report.h"
#include "catalog/scenario.h"
#include "engine/calibration.h"
#include "engine/memory.h"

using namespace gg::engine;

namespace {

constexpr double kGiB = double(1ull << 30);
constexpr double kMiB = double(1ull << 20);

CalibrationInputs inputs_10gib() {
    CalibrationInputs e;
    e.peak_allocated_bytes = 10 * kGiB;
    e.fragmentation_fraction = 0.10;
    e.cuda_context_bytes = 400 * kMiB;
    e.samples_per_s = 10;
    e.step_s = 1.0;
    e.card_work_s = 0.8;  // 0.2 s of the step is communication / loader
    e.samples_per_step = 10;
    e.family = "decoder";
    return e;
}

bool has(const CalibrationResult& r, CalibrationIssue i) {
    for (CalibrationIssue x : r.issues)
        if (x == i) return true;
    return false;
}

const char* kLoraJob = R"({"model": "llama-3.1-8b", "seq_len": 2048, "batch_size": 1, "precision": "bf16",
    "optimizer": "adamw", "method": "lora", "lora": {"rank": 8}, "checkpointing": "full", "gpu": {"id": "rtx-4090"}})";

}  // namespace

TEST_CASE("all three memory readings separate the allocator's slack and the CUDA context exactly") {
    Measurement m;
    m.peak_allocated_bytes = 10 * kGiB;
    m.peak_reserved_bytes = 12 * kGiB;
    m.nvidia_smi_bytes = 12 * kGiB + 900 * kMiB;
    const CalibrationResult r = attribute_measurement(m, inputs_10gib());
    CHECK(r.fragmentation_fraction == doctest::Approx(0.2));
    CHECK(r.cuda_context_bytes == doctest::Approx(900 * kMiB));
    CHECK(r.tensors_delta_bytes == doctest::Approx(0));
    CHECK_FALSE(has(r, CalibrationIssue::kTensorsDiffer));
    CHECK(r.applicable());
    // the error as the user sees it: predicted 10 x 1.1 GiB + 400 MiB vs 12 GiB + 900 MiB
    CHECK(r.nvidia_smi_error_fraction == doctest::Approx((11 * kGiB + 400 * kMiB) / (12 * kGiB + 900 * kMiB) - 1));
}

TEST_CASE("max_memory_allocated alone is the job's own tensors: reported, never a term of the card") {
    Measurement m;
    m.peak_allocated_bytes = 11 * kGiB;
    const CalibrationResult r = attribute_measurement(m, inputs_10gib());
    CHECK(has(r, CalibrationIssue::kTensorsDiffer));
    CHECK(r.tensors_delta_bytes == doctest::Approx(1 * kGiB));
    CHECK(r.allocated_error_fraction == doctest::Approx(10.0 / 11 - 1));
    CHECK(r.cuda_context_bytes < 0);
    CHECK(r.fragmentation_fraction < 0);
    CHECK_FALSE(r.applicable());
}

TEST_CASE("nvidia-smi alone goes to the context first, within its bounds, then to the allocator's slack") {
    SUBCASE("within the context's bounds: the context alone") {
        Measurement m;
        m.nvidia_smi_bytes = 11 * kGiB + 1200 * kMiB;  // 800 MiB more than estimated: an eager-loading CUDA
        const CalibrationResult r = attribute_measurement(m, inputs_10gib());
        CHECK(r.cuda_context_bytes == doctest::Approx(1200 * kMiB));
        CHECK(r.fragmentation_fraction < 0);
    }
    SUBCASE("past the context's upper bound: the rest is the allocator's") {
        Measurement m;
        m.nvidia_smi_bytes = 16 * kGiB;
        const CalibrationResult r = attribute_measurement(m, inputs_10gib());
        CHECK(has(r, CalibrationIssue::kContextOutOfRange));
        CHECK(r.cuda_context_bytes == doctest::Approx(kCalibrationContextMaxBytes));
        CHECK(r.fragmentation_fraction == doctest::Approx((16 * kGiB - kCalibrationContextMaxBytes) / (10 * kGiB) - 1));
        CHECK(r.unexplained_bytes == doctest::Approx(0));
    }
    SUBCASE("with the measured tensors, what nvidia-smi adds over them") {
        Measurement m;
        m.peak_allocated_bytes = 9 * kGiB;
        m.nvidia_smi_bytes = 9 * kGiB * 1.1 + 700 * kMiB;
        const CalibrationResult r = attribute_measurement(m, inputs_10gib());
        CHECK(has(r, CalibrationIssue::kTensorsDiffer));
        CHECK(r.cuda_context_bytes == doctest::Approx(700 * kMiB));
    }
    SUBCASE("within the readings' rounding: nothing to apply") {
        Measurement m;
        m.nvidia_smi_bytes = 11 * kGiB + 400 * kMiB + 10 * kMiB;
        CHECK_FALSE(attribute_measurement(m, inputs_10gib()).applicable());
    }
    SUBCASE("far past both bounds: the rest is left unexplained") {
        Measurement m;
        m.nvidia_smi_bytes = 40 * kGiB;
        const CalibrationResult r = attribute_measurement(m, inputs_10gib());
        CHECK(has(r, CalibrationIssue::kAllocatorOutOfRange));
        CHECK(r.fragmentation_fraction == doctest::Approx(kCalibrationFragmentationMax));
        CHECK(r.unexplained_bytes == doctest::Approx(40 * kGiB - kCalibrationContextMaxBytes - 20 * kGiB));
    }
}

TEST_CASE("impossible readings (reserved below allocated, nvidia-smi below reserved) apply nothing") {
    Measurement m;
    m.peak_allocated_bytes = 10 * kGiB;
    m.peak_reserved_bytes = 9 * kGiB;
    const CalibrationResult r = attribute_measurement(m, inputs_10gib());
    CHECK(has(r, CalibrationIssue::kReservedBelowAllocated));
    CHECK(r.fragmentation_fraction < 0);
    CHECK(r.cuda_context_bytes < 0);
}

TEST_CASE("a measured throughput scales the card's own work, not the communication or the loader") {
    Measurement m;
    m.samples_per_s = 8;  // step 1.25 s measured: card work 1.05 s instead of 0.8 s
    const CalibrationResult r = attribute_measurement(m, inputs_10gib());
    CHECK(r.efficiency_factor == doctest::Approx(0.8 / 1.05));
    CHECK(r.speed_error_fraction == doctest::Approx(10.0 / 8 - 1));
    SUBCASE("a step shorter than what the card's efficiency does not set is not the card's") {
        Measurement fast;
        fast.samples_per_s = 60;  // 0.167 s < the 0.2 s the card does not set
        const CalibrationResult f = attribute_measurement(fast, inputs_10gib());
        CHECK(has(f, CalibrationIssue::kNotCardWork));
        CHECK(f.efficiency_factor == 0);
    }
    SUBCASE("a factor past the bounds is refused") {
        Measurement slow;
        slow.samples_per_s = 1;  // step 10 s: card work 9.8 s, factor 0.08
        const CalibrationResult s = attribute_measurement(slow, inputs_10gib());
        CHECK(has(s, CalibrationIssue::kFactorOutOfRange));
        CHECK(s.efficiency_factor == 0);
    }
}

TEST_CASE("the calibrated card's required bytes and their inverse agree") {
    Tunables job;
    CardCalibration c;
    c.cuda_context_bytes = 1200 * kMiB;
    c.fragmentation_fraction = 0.25;
    const double required = 20 * kGiB;
    const double calibrated = calibrated_required_bytes(required, job, c);
    const double allocated = (required - job.cuda_context_bytes) / (1 + job.fragmentation_fraction);
    CHECK(calibrated == doctest::Approx(allocated * 1.25 + 1200 * kMiB));
    CHECK(uncalibrated_limit_bytes(calibrated, job, c) == doctest::Approx(required));
    CHECK(calibrated_required_bytes(required, job, CardCalibration{}) == required);
}

TEST_CASE("a calibrated card changes the estimate, the time and the ranking, and says so") {
    const gg::catalog::Catalog& base = gg::catalog::embedded_catalog();
    const auto parsed = gg::catalog::parse_decision_scenario(kLoraJob, base);
    REQUIRE(parsed.problems.empty());
    const gg::catalog::Scenario& s = parsed.value.scenario;
    const gg::catalog::Estimate plain = gg::catalog::estimate(s, base);
    CHECK_FALSE(plain.memory_calibrated);

    std::vector<gg::catalog::Problem> problems;
    const gg::catalog::Catalog cal = gg::catalog::merge_user_data(base, R"({"schema_version": 1, "calibrations": [
        {"id": "calibration-rtx-4090", "gpu": "rtx-4090", "as_of": "2026-12-01", "cuda_context_bytes": 1610612736,
         "speed": [{"family": "decoder", "efficiency_factor": 0.5}]}]})", problems);
    REQUIRE(problems.empty());
    const gg::catalog::Estimate e = gg::catalog::estimate(s, cal);
    CHECK(e.memory_calibrated);
    CHECK(e.report.nvidia_smi.bytes - plain.report.nvidia_smi.bytes == doctest::Approx(1610612736.0 - 400 * kMiB));
    const nlohmann::json report = gg::catalog::full_report(parsed.value, e, cal);
    CHECK(report["calibration"]["by"] == kCalibratedByUser);
    REQUIRE(report["time"]["calibration"].is_object());
    CHECK(report["time"]["calibration"]["efficiency_factor"] == doctest::Approx(0.5));
    const nlohmann::json plain_report = gg::catalog::full_report(parsed.value, plain, base);
    CHECK(plain_report["calibration"].is_null());
    CHECK(plain_report["time"]["calibration"].is_null());
    // half the efficiency: the card's own work takes twice as long (a single card: nearly the whole step)
    const double ratio = report["time"]["step_s"].get<double>() / plain_report["time"]["step_s"].get<double>();
    CHECK(ratio > 1.8);
    CHECK(ratio <= 2.0 + 1e-9);

    // The ranking: the calibrated card's options say so and carry the calibrated bytes; other cards do not change.
    const nlohmann::json ranked = gg::catalog::rank_json(parsed.value, cal);
    const nlohmann::json ranked_plain = gg::catalog::rank_json(parsed.value, base);
    int calibrated_options = 0;
    for (const auto& o : ranked["options"]) {
        if (o["gpu"] != "rtx-4090") {
            CHECK_FALSE(o["calibrated"].get<bool>());
            continue;
        }
        CHECK(o["calibrated"].get<bool>());
        ++calibrated_options;
        for (const auto& p : ranked_plain["options"])
            if (p["id"] == o["id"] && o["fits"].get<bool>() && p["fits"].get<bool>() &&
                o["plan"]["scenario"] == p["plan"]["scenario"]) {
                CAPTURE(o["id"].get<std::string>());
                CHECK(o["peak_bytes_per_card"].get<double>() > p["peak_bytes_per_card"].get<double>());
            }
    }
    CHECK(calibrated_options > 0);
}

TEST_CASE("the attribution reads the uncalibrated estimate and its record reads back into the same calibration") {
    const gg::catalog::Catalog& base = gg::catalog::embedded_catalog();
    const auto parsed = gg::catalog::parse_decision_scenario(kLoraJob, base);
    REQUIRE(parsed.problems.empty());
    CalibrationInputs in;
    REQUIRE(gg::catalog::calibration_inputs(parsed.value.scenario, base, in));
    CHECK(in.family == "decoder");
    CHECK(in.samples_per_s > 0);
    CHECK(in.card_work_s > 0);
    CHECK(in.card_work_s <= in.step_s);
    Measurement m;
    m.nvidia_smi_bytes = in.peak_allocated_bytes * 1.1 + 1000 * kMiB;
    m.samples_per_s = in.samples_per_s * 0.8;
    const CalibrationResult r = attribute_measurement(m, in);
    CHECK(r.cuda_context_bytes == doctest::Approx(1000 * kMiB));
    REQUIRE(r.efficiency_factor > 0);
    const CardCalibration c = gg::catalog::accept_calibration({}, r, in.family);
    const nlohmann::json record = gg::catalog::calibration_record("rtx-4090", c, m, "llama-3.1-8b", "2026-12-01");
    std::vector<gg::catalog::Problem> problems;
    const gg::catalog::Catalog cal = gg::catalog::merge_user_data(
        base, nlohmann::json{{"schema_version", 1}, {"calibrations", {record}}}.dump(), problems);
    REQUIRE(problems.empty());
    const GpuSpec* g = cal.find_gpu("rtx-4090");
    REQUIRE(g != nullptr);
    CHECK(g->calibration.cuda_context_bytes == doctest::Approx(1000 * kMiB));
    CHECK(g->calibration.efficiency_factor("decoder") == doctest::Approx(r.efficiency_factor));
    // the calibrated estimate now meets the measurement (the card's term is the measured one)
    const gg::catalog::Estimate e = gg::catalog::estimate(parsed.value.scenario, cal);
    CHECK(e.report.nvidia_smi.bytes == doctest::Approx(m.nvidia_smi_bytes).epsilon(1e-6));
    CalibrationInputs again;
    REQUIRE(gg::catalog::calibration_inputs(parsed.value.scenario, cal, again));
    CHECK(again.peak_allocated_bytes == doctest::Approx(in.peak_allocated_bytes));  // uncalibrated, as before
}

TEST_CASE("a bad calibration in user data is refused with the field named, and the card stays uncalibrated") {
    const gg::catalog::Catalog& base = gg::catalog::embedded_catalog();
    struct Bad {
        const char* record;
        const char* pointer;
    };
    const Bad cases[] = {
        {R"({"id": "c1", "gpu": "rtx-4090", "as_of": "2026-12-01", "cuda_context_bytes": 10})", "/calibrations/0/cuda_context_bytes"},
        {R"({"id": "c1", "gpu": "rtx-4090", "as_of": "2026-12-01", "fragmentation_fraction": -0.1})", "/calibrations/0/fragmentation_fraction"},
        {R"({"id": "c1", "gpu": "rtx-4090", "as_of": "2026-12-01", "speed": [{"family": "decoder", "efficiency_factor": 9}]})", "/calibrations/0/speed/0/efficiency_factor"},
        {R"({"id": "c1", "gpu": "rtx-4090", "as_of": "2026-12-01", "speed": [{"family": "gpt", "efficiency_factor": 1.2}]})", "/calibrations/0/speed/0/family"},
        {R"({"id": "c1", "gpu": "no-such-card", "as_of": "2026-12-01", "cuda_context_bytes": 1e9})", "/calibrations/0/gpu"},
        {R"({"id": "c1", "gpu": "rtx-4090", "cuda_context_bytes": 1e9})", "/calibrations/0"},
        {R"({"id": "c1", "gpu": "rtx-4090", "as_of": "2026-12-01"})", "/calibrations/0"},
        {R"({"id": "c1", "gpu": "rtx-4090", "as_of": "2026-12-01", "cuda_context_bytes": 1e9, "measured": {"nvidia_smi_bytes": "9 GiB"}})", "/calibrations/0/measured/nvidia_smi_bytes"},
        {R"({"id": "c1", "gpu": "rtx-4090", "as_of": "2026-12-01", "cuda_context_bytes": 1e9, "context": 1})", "/calibrations/0/context"},
    };
    for (const Bad& b : cases) {
        CAPTURE(b.record);
        std::vector<gg::catalog::Problem> problems;
        const gg::catalog::Catalog cal = gg::catalog::merge_user_data(
            base, std::string(R"({"schema_version": 1, "calibrations": [)") + b.record + "]}", problems);
        REQUIRE_FALSE(problems.empty());
        CHECK(problems.front().pointer == b.pointer);
        CHECK_FALSE(cal.find_gpu("rtx-4090")->calibration.any());
    }
}

#if defined(GG_CLI_PATH) && !defined(_WIN32)
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

TEST_CASE("gpuguide estimate --user-data with a calibration marks the calibrated numbers; a bad one exits 2 naming it") {
    const std::string dir = std::filesystem::temp_directory_path().string();
    const std::string scenario = dir + "/test_calibration_scenario.json";
    const std::string good = dir + "/test_calibration_good.json";
    const std::string bad = dir + "/test_calibration_bad.json";
    std::ofstream(scenario) << kLoraJob;
    std::ofstream(good) << R"({"schema_version": 1, "calibrations": [{"id": "calibration-rtx-4090", "gpu": "rtx-4090",
        "as_of": "2026-12-01", "cuda_context_bytes": 1073741824, "speed": [{"family": "decoder", "efficiency_factor": 0.8}]}]})";
    std::ofstream(bad) << R"({"schema_version": 1, "calibrations": [{"id": "calibration-rtx-4090", "gpu": "rtx-4090",
        "as_of": "2026-12-01", "cuda_context_bytes": -5}]})";
    auto run = [&](const std::string& user_data, std::string& out) {
        const std::string cmd = std::string(GG_CLI_PATH) + " estimate " + scenario + " --user-data " + user_data + " 2>&1";
        FILE* f = popen(cmd.c_str(), "r");
        REQUIRE(f != nullptr);
        char buf[4096];
        out.clear();
        while (std::size_t n = fread(buf, 1, sizeof buf, f)) out.append(buf, n);
        const int status = pclose(f);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    std::string out;
    REQUIRE(run(good, out) == 0);
    const nlohmann::json report = nlohmann::json::parse(out);
    CHECK(report["calibration"]["by"] == "calibrated by you");
    CHECK(report["calibration"]["cuda_context_bytes"].get<double>() == doctest::Approx(1073741824.0));
    CHECK(report["time"]["calibration"]["efficiency_factor"].get<double>() == doctest::Approx(0.8));
    CHECK(run(bad, out) == 2);
    CHECK(out.find("/calibrations/0/cuda_context_bytes") != std::string::npos);
    std::remove(scenario.c_str());
    std::remove(good.c_str());
    std::remove(bad.c_str());
}
#endif
