// Memory as the card reports it (issue 41 item 1): nvidia-smi's total with ECC's share of GDDR memory, the
// scenario's gpu.ecc switch, and the verdict at the boundary between the ECC-on total and the datasheet size.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/report.h"
#include "catalog/scenario.h"
#include "engine/card_memory.h"
#include "engine/memory.h"

using namespace gg::engine;
using gg::catalog::embedded_catalog;
using gg::catalog::parse_scenario;

namespace {

constexpr double kMiB = double(1 << 20);
constexpr double kGiB = double(1ull << 30);

const GpuSpec& card(const std::string& id) {
    const GpuSpec* g = embedded_catalog().find_gpu(id);
    REQUIRE_MESSAGE(g != nullptr, "data/gpus.json lost the card " << id);
    return *g;
}

gg::catalog::Estimate estimate_of(const std::string& json) {
    const auto p = parse_scenario(json);
    for (const auto& x : p.problems) {
        CAPTURE(x.pointer);
        CAPTURE(x.message);
        CHECK(false);
    }
    return gg::catalog::estimate(p.scenario);
}

// The problems parse_scenario reports at `pointer`.
int problems_at(const std::string& json, const std::string& pointer) {
    int n = 0;
    for (const auto& x : parse_scenario(json).problems) n += x.pointer == pointer;
    return n;
}

}  // namespace

TEST_CASE("T4, L4 and A10G: the usable bytes are the totals nvidia-smi prints on them with ECC on") {
    // Published nvidia-smi outputs ("Memory-Usage" column, ECC column "0" = ECC on). The catalog's own source must
    // name the same output, so a changed value and a changed source both show up here.
    struct Row {
        const char* id;
        double total_mib;
        const char* source;  // where the figure was printed
    };
    const std::vector<Row> rows = {
        {"t4", 15360, "MagicQuill issue #57"},      // '3MiB / 15360MiB', Tesla T4, driver 535.183.01
        {"l4", 23034, "TensorRT-LLM issue #2398"},  // '7086MiB /  23034MiB', NVIDIA L4, driver 550.127.05
        {"a10g", 23028, "DCGM issue #232"},         // '8722MiB / 23028MiB', NVIDIA A10G, driver 535.247.01
    };
    for (const Row& r : rows) {
        CAPTURE(r.id);
        const GpuSpec& g = card(r.id);
        CHECK(g.ecc_on_by_default);
        CHECK(g.visible_memory_ecc_on);
        CHECK(g.visible_memory_source.find(r.source) != std::string::npos);
        CHECK(usable_memory_bytes(g) == r.total_mib * kMiB);
        CHECK(usable_memory_bytes(g) < g.memory_bytes);  // the datasheet size stays as the vendor states it
        // ECC's share is 1/16 of the datasheet size; the rest of the gap is the driver's (0 to 12 MiB here).
        CHECK(ecc_reserved_bytes(g) == g.memory_bytes / 16);
        const double driver_mib = (g.memory_bytes - ecc_reserved_bytes(g)) / kMiB - r.total_mib;
        CHECK(driver_mib >= 0);
        CHECK(driver_mib <= 12);
    }
}

TEST_CASE("ECC off gives ECC's share back on GDDR cards; ECC on takes it from a workstation card") {
    const GpuSpec& t4 = card("t4");
    CHECK(usable_memory_bytes(t4, EccSetting::kOff) == 16.0 * kGiB);  // 15360 + 1024 MiB: the whole 16 GiB
    CHECK(usable_memory_bytes(t4, EccSetting::kOn) == 15360 * kMiB);
    CHECK(usable_memory_bytes(card("l4"), EccSetting::kOff) == (23034 + 1536) * kMiB);
    // A workstation card ships with ECC off; without a reading its datasheet size less 1/16 when turned on.
    const GpuSpec& a6000 = card("rtx-a6000");
    CHECK_FALSE(a6000.ecc_on_by_default);
    CHECK(usable_memory_bytes(a6000) == 48.0 * kGiB);
    CHECK(usable_memory_bytes(a6000, EccSetting::kOn) == 45.0 * kGiB);
}

TEST_CASE("HBM cards lose nothing to ECC; GeForce cards have none; the driver's share shows where it was read") {
    for (const char* id : {"a100-sxm4-40gb", "a100-sxm4-80gb", "v100-sxm2-16gb", "h100-sxm", "h200"}) {
        CAPTURE(id);
        const GpuSpec& g = card(id);
        CHECK_FALSE(ecc_in_band(g));
        CHECK(ecc_reserved_bytes(g) == 0);
        CHECK(usable_memory_bytes(g, EccSetting::kOn) == usable_memory_bytes(g, EccSetting::kOff));
    }
    CHECK(usable_memory_bytes(card("a100-sxm4-40gb")) == 40.0 * kGiB);  // 40960 MiB with ECC on
    CHECK(usable_memory_bytes(card("h100-sxm")) == 81559 * kMiB);       // HGX H100: 361 MiB below 80 GiB
    CHECK(usable_memory_bytes(card("h200")) == card("h200").memory_bytes);  // no reading found: the datasheet
    CHECK(usable_memory_bytes(card("rtx-4090")) == 24564 * kMiB);
    CHECK_FALSE(ecc_on(card("rtx-4090"), EccSetting::kOn));  // no ECC memory to turn on
}

TEST_CASE("a job between 15,360 MiB and 16 GiB does not fit a T4 with ECC on, and fits with ECC off") {
    // Find the batch whose nvidia-smi bytes fall between the T4's ECC-on total and its datasheet size.
    const std::string head = R"({"model": "bert-base", "seq_len": 512, "precision": "fp32", "optimizer": "adamw",
        "method": "full", "checkpointing": "none", "gpu": {"id": "t4")";
    const gg::catalog::Estimate probe = estimate_of(head + R"(}, "batch_size": 1})");
    int batch = 0;
    for (int b = 1; b <= 512 && batch == 0; ++b) {
        const double bytes = required_bytes(probe.prepared, b);
        if (bytes > 15360 * kMiB && bytes < 16.0 * kGiB) batch = b;
    }
    REQUIRE_MESSAGE(batch > 0, "no batch of this job lands between 15360 MiB and 16 GiB: pick another job");
    CAPTURE(batch);
    const auto on = estimate_of(head + R"(}, "batch_size": )" + std::to_string(batch) + "}");
    CHECK(on.report.card_memory_bytes == 15360 * kMiB);
    CHECK(on.report.nvidia_smi.bytes > on.report.card_memory_bytes);
    CHECK(on.report.verdict.verdict == Verdict::kDoesNotFit);
    CHECK(on.max_batch_size < batch);
    CHECK(on.ecc_on);
    CHECK(on.ecc_reserved_bytes == 1.0 * kGiB);
    CHECK(on.datasheet_memory_bytes == 16.0 * kGiB);
    const auto off = estimate_of(head + R"(, "ecc": false}, "batch_size": )" + std::to_string(batch) + "}");
    CHECK(off.report.card_memory_bytes == 16.0 * kGiB);
    CHECK(off.report.verdict.verdict == Verdict::kFits);  // a T4 in a data centre has no desktop: no headroom
    CHECK(off.max_batch_size >= batch);
    CHECK_FALSE(off.ecc_on);
}

TEST_CASE("gpu.ecc is refused by key where it changes nothing, and round-trips where it does") {
    const std::string a100 = R"({"model": "bert-base", "gpu": {"id": "a100-sxm4-40gb", "ecc": false}})";
    CHECK(problems_at(a100, "/gpu/ecc") == 1);  // HBM: the check bits are not in the memory
    const std::string geforce = R"({"model": "bert-base", "gpu": {"id": "rtx-4090", "ecc": true}})";
    CHECK(problems_at(geforce, "/gpu/ecc") == 1);  // no ECC memory
    CHECK(problems_at(R"({"model": "bert-base", "gpu": {"id": "t4", "ecc": "off"}})", "/gpu/ecc") == 1);
    const auto p = parse_scenario(R"({"model": "bert-base", "gpu": {"id": "rtx-a6000", "ecc": true}})");
    CHECK(p.problems.empty());
    CHECK(p.scenario.ecc == EccSetting::kOn);
    const nlohmann::json j = gg::catalog::scenario_to_json(p.scenario);
    CHECK(j["gpu"]["ecc"] == true);
    CHECK_FALSE(gg::catalog::scenario_to_json(parse_scenario(R"({"model": "bert-base", "gpu": {"id": "t4"}})").scenario)
                    ["gpu"].contains("ecc"));
}

TEST_CASE("visible_memory is checked where it enters: at most the datasheet, ECC only on an ECC card") {
    const auto problems_of = [](const std::string& visible, bool ecc) {
        const std::string user = R"({"schema_version": 1, "gpus": [{"id": "my-card", "name": "My card",
            "memory_gib": 16, "memory_bandwidth_gb_per_s": 300, "ecc": )" + std::string(ecc ? "true" : "false") +
                                 R"(, "dense_tflops": {"fp32": 8}, "visible_memory": )" + visible + "}]}";
        std::vector<gg::catalog::Problem> problems;
        gg::catalog::merge_user_data(embedded_catalog(), user, problems);
        std::vector<std::string> at;
        for (const auto& x : problems) at.push_back(x.pointer);
        return at;
    };
    const std::string ok = R"({"total_mib": 15360, "ecc_on": true, "source": "nvidia-smi", "as_of": "2025-01-23"})";
    CHECK(problems_of(ok, true).empty());
    const std::vector<std::string> over = problems_of(
        R"({"total_mib": 16500, "ecc_on": false, "source": "nvidia-smi", "as_of": "2025-01-23"})", true);
    REQUIRE(over.size() == 1);
    CHECK(over[0] == "/gpus/0/visible_memory/total_mib");
    const std::vector<std::string> no_ecc = problems_of(ok, false);
    REQUIRE(no_ecc.size() == 1);
    CHECK(no_ecc[0] == "/gpus/0/visible_memory/ecc_on");
    CHECK(problems_of(R"({"total_mib": 15360, "ecc_on": true})", true).size() == 2);  // source and as_of
}

TEST_CASE("a user's price for a bundled card, saved before visible_memory existed, keeps the card's reading") {
    // The page's "my price" copies the bundled record (gpu_to_data_json); one saved by an older page lacks the keys.
    nlohmann::json record = gg::catalog::gpu_to_data_json(card("t4"));
    CHECK(record["visible_memory"]["total_mib"] == 15360);
    record.erase("visible_memory");
    record.erase("ecc_on_by_default");
    record["street_price_cny"] = {{"new", 9000}, {"used", nullptr}, {"as_of", "2026-11-30"}, {"source", "a shop"}};
    const nlohmann::json user = {{"schema_version", 1}, {"gpus", {record}}};
    std::vector<gg::catalog::Problem> problems;
    const gg::catalog::Catalog merged = gg::catalog::merge_user_data(embedded_catalog(), user.dump(), problems);
    CHECK(problems.empty());
    const GpuSpec* t4 = merged.find_gpu("t4");
    REQUIRE(t4 != nullptr);
    CHECK(t4->street_price.new_cny == 9000);
    CHECK(usable_memory_bytes(*t4) == 15360 * kMiB);
    // Other memory: the reading is not this card's, and the record's own keys decide.
    record["memory_gib"] = 32;
    const nlohmann::json other = {{"schema_version", 1}, {"gpus", {record}}};
    const gg::catalog::Catalog merged32 = gg::catalog::merge_user_data(embedded_catalog(), other.dump(), problems);
    CHECK(usable_memory_bytes(*merged32.find_gpu("t4")) == 32.0 * kGiB);
}
