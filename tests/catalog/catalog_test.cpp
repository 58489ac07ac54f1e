// Tests of the catalog layer: one test per class of data error (a small bad JSON each; the problem's pointer is
// checked and the good records must survive), unit conversion, user data, JSON output, and the bundled data.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/embedded_data.h"

using gg::catalog::Catalog;
using gg::catalog::Problem;
using nlohmann::json;

namespace {

// A complete, valid GPU record in the format of data/gpus.json (values of the RTX 4090, NVIDIA Ada whitepaper
// Appendix A); tests change one key at a time.
json good_gpu(const std::string& id = "good-gpu") {
    return {
        {"id", id},
        {"name", "Test GPU"},
        {"vendor", "nvidia"},
        {"segment", "consumer"},
        {"architecture", "Ada Lovelace"},
        {"compute_capability", "8.9"},
        {"launch_year", 2022},
        {"memory_gib", 24},
        {"memory_type", "GDDR6X"},
        {"memory_bandwidth_gb_per_s", 1008},
        {"dense_tflops",
         {{"fp32", 82.6}, {"tf32", 82.6}, {"fp16", 165.2}, {"fp16_fp16acc", 330.3}, {"bf16", 165.2}, {"fp8", 330.3},
          {"int8", 660.6}}},
        {"tdp_w", 450},
        {"form_factor", "pcie"},
        {"pcie_gen", 4},
        {"pcie_lanes", 16},
        {"nvlink_gb_per_s", nullptr},
        {"ecc", false},
        {"ecc_on_by_default", false},
        {"visible_memory",
         {{"total_mib", 24564}, {"ecc_on", false}, {"source", "RLinf/RLinf issue #255 (nvidia-smi, driver 550.163.01)"},
          {"as_of", "2025-11-12"}}},
        {"launch_price_usd", 1599},
        {"street_price_cny", {{"new", 13999}, {"used", 11000}, {"as_of", "2025-11-01"}, {"source", "a shop"}}},
        {"notes", json::array()},
        {"source", "NVIDIA Ada whitepaper, Appendix A"},
        {"as_of", "2023-01-05"},
    };
}

json good_offer(const std::string& id = "good-offer", const std::string& gpu = "good-gpu") {
    return {
        {"id", id},
        {"provider", "AWS"},
        {"region", "us-east-1"},
        {"instance", "test.xlarge"},
        {"gpu", gpu},
        {"gpu_count", 8},
        {"price_per_hour", 55.04},
        {"currency", "USD"},
        {"billing", "on-demand"},
        {"billing_granularity_s", 1},
        {"price_per_month", nullptr},
        {"as_of", "2025-06-05"},
        {"source", "https://aws.amazon.com/ec2/pricing/on-demand/"},
        {"notes", json::array()},
    };
}

json good_settings() {
    return json::parse(R"({
      "schema_version": 1,
      "exchange_rate": {"cny_per_usd": 7.1, "as_of": "2025-06-01", "source": "a central bank"},
      "electricity": [
        {"id": "cn-residential", "region": "cn", "label_en": "China, residential", "label_zh": "中国居民用电",
         "price_per_kwh": 0.56, "currency": "CNY", "as_of": "2025-01-01", "source": "a tariff"}
      ],
      "default_electricity": "cn-residential",
      "host_system": {"cost_cny": 5000, "power_w": 120, "as_of": "2025-01-01", "source": "a shop", "note": "host"},
      "resale_value": {"points": [{"months": 0, "fraction": 1.0}, {"months": 12, "fraction": 0.75}],
                       "as_of": "2025-01-01", "source": "assumption"},
      "utilization_fraction": {"value": 0.5, "source": "assumption"},
      "reserve_fraction": {"value": 0.2, "source": "seed guide"},
      "storage": {"price_per_gb_month_cny": 0.35, "source": "a price page"}
    })");
}

// The three documents of a catalog, each with two records: a good one and one the test breaks.
struct Fixture {
    json gpus = {{"schema_version", 1}, {"about", "test"}, {"gpus", {good_gpu(), good_gpu("bad-gpu")}}};
    json offers = {{"schema_version", 1},
                   {"about", "test"},
                   {"offers", {good_offer(), good_offer("bad-offer")}}};
    json settings = good_settings();
    std::vector<Problem> problems;

    json& bad_gpu() { return gpus["gpus"][1]; }
    json& bad_offer() { return offers["offers"][1]; }
    Catalog parse() {
        problems.clear();
        return gg::catalog::parse_catalog(gpus.dump(), offers.dump(), settings.dump(), problems);
    }
};

bool has_problem(const std::vector<Problem>& problems, const std::string& file, const std::string& pointer) {
    return std::any_of(problems.begin(), problems.end(),
                       [&](const Problem& p) { return p.file == file && p.pointer == pointer; });
}

std::string list(const std::vector<Problem>& problems) {
    std::string out;
    for (const Problem& p : problems) out += p.file + ":" + p.pointer + ": " + p.message + "\n";
    return out;
}

// The bad GPU's one problem is at `pointer`; the good GPU and its offer survive; the bad GPU is dropped.
void check_bad_gpu(Fixture& f, const std::string& pointer) {
    const Catalog c = f.parse();
    const std::string problems = list(f.problems);
    CAPTURE(problems);
    CHECK(has_problem(f.problems, "data/gpus.json", pointer));
    CHECK(c.find_gpu("good-gpu") != nullptr);
    CHECK(c.find_gpu("bad-gpu") == nullptr);
    CHECK(c.find_offer("good-offer") != nullptr);
}

void check_bad_offer(Fixture& f, const std::string& pointer) {
    const Catalog c = f.parse();
    const std::string problems = list(f.problems);
    CAPTURE(problems);
    CHECK(has_problem(f.problems, "data/cloud_offers.json", pointer));
    CHECK(f.problems.size() == 1);
    CHECK(c.find_offer("good-offer") != nullptr);
    CHECK(c.find_offer("bad-offer") == nullptr);
    CHECK(c.gpus.size() == 2);
    // Only offers that survived count as renting a card.
    CHECK(c.rents(c.find_offer("good-offer")->gpu_id));
    CHECK_FALSE(c.rents("no-such-gpu"));
    CHECK(c.most_rented_at_once(c.find_offer("good-offer")->gpu_id) == c.find_offer("good-offer")->gpu_count);
    CHECK(c.most_rented_at_once("no-such-gpu") == 0);
}

}  // namespace

TEST_CASE("a valid catalog parses without problems and converts data units to base units exactly") {
    Fixture f;
    const Catalog c = f.parse();
    CHECK(list(f.problems) == "");
    REQUIRE(c.gpus.size() == 2);
    REQUIRE(c.offers.size() == 2);
    const gg::engine::GpuSpec& g = *c.find_gpu("good-gpu");
    CHECK(g.memory_bytes == 24.0 * 1073741824.0);                  // GiB = 2^30 bytes
    CHECK(g.memory_bandwidth_bytes_per_s == 1008e9);               // decimal GB/s
    CHECK(g.dense_flop_per_s.fp32 == 82600000000000.0);            // 82.6 TFLOPS, exactly
    CHECK(g.dense_flop_per_s.fp16_fp16acc == 330300000000000.0);
    CHECK(g.nvlink_bytes_per_s == 0);                              // null -> 0 (none)
    CHECK(g.visible_memory_bytes == 24564.0 * 1048576.0);          // nvidia-smi's MiB = 2^20 bytes
    CHECK(g.compute_capability_major == 8);
    CHECK(g.compute_capability_minor == 9);
    CHECK(g.street_price.new_cny == 13999);
    CHECK(c.offers[0].gpu_count == 8);
    CHECK(c.offers[0].billing == gg::engine::Billing::OnDemand);
    CHECK(c.settings.exchange_rate.cny_per_usd == 7.1);
    REQUIRE(c.default_electricity() != nullptr);
    CHECK(c.default_electricity()->price_per_kwh == 0.56);
    CHECK(c.settings.resale_value.points.size() == 2);
    CHECK(c.settings.storage.price_per_gb_month_cny == 0.35);
}

TEST_CASE("text that is not JSON, or not an object, is one problem at the document and never throws") {
    for (const char* text : {"", "{", "[1, 2]", "null", "{\"gpus\": 5}", "{\"schema_version\": 1, \"gpus\": [7]}",
                             "{\"schema_version\": 1, // comment\n \"gpus\": []}"}) {
        CAPTURE(text);
        Fixture f;
        std::vector<Problem> problems;
        Catalog c;
        CHECK_NOTHROW(c = gg::catalog::parse_catalog(text, f.offers.dump(), f.settings.dump(), problems));
        CHECK(!problems.empty());
        CHECK(c.gpus.empty());
        CHECK(std::all_of(problems.begin(), problems.end(), [](const Problem& p) { return !p.message.empty(); }));
    }
}

TEST_CASE("a schema_version other than 1 is reported at /schema_version") {
    Fixture f;
    f.gpus["schema_version"] = 2;
    const Catalog c = f.parse();
    CHECK(has_problem(f.problems, "data/gpus.json", "/schema_version"));
    CHECK(c.gpus.empty());
    SUBCASE("and in settings") {
        Fixture g;
        g.settings["schema_version"] = "1";
        g.parse();
        CHECK(has_problem(g.problems, "data/settings.json", "/schema_version"));
    }
}

TEST_CASE("a missing required key is reported at its record and names the key") {
    Fixture f;
    SUBCASE("memory_gib") { f.bad_gpu().erase("memory_gib"); }
    SUBCASE("source") { f.bad_gpu().erase("source"); }
    SUBCASE("a nullable key must still be present in bundled data") { f.bad_gpu().erase("nvlink_gb_per_s"); }
    SUBCASE("dense_tflops/int8") { f.bad_gpu()["dense_tflops"].erase("int8"); }
    const bool nested = !f.bad_gpu()["dense_tflops"].contains("int8");
    check_bad_gpu(f, nested ? "/gpus/1/dense_tflops" : "/gpus/1");
    CHECK(f.problems.size() == 1);
    CHECK(f.problems[0].message.find("missing key") != std::string::npos);
}

TEST_CASE("a value of the wrong type is reported at its key") {
    Fixture f;
    std::string pointer;
    SUBCASE("string for a number") {
        f.bad_gpu()["memory_gib"] = "24";
        pointer = "/gpus/1/memory_gib";
    }
    SUBCASE("number for a string") {
        f.bad_gpu()["name"] = 4090;
        pointer = "/gpus/1/name";
    }
    SUBCASE("string for a bool") {
        f.bad_gpu()["ecc"] = "no";
        pointer = "/gpus/1/ecc";
    }
    SUBCASE("null where null is not allowed") {
        f.bad_gpu()["name"] = nullptr;
        pointer = "/gpus/1/name";
    }
    SUBCASE("a whole number with a fraction") {
        f.bad_gpu()["launch_year"] = 2022.5;
        pointer = "/gpus/1/launch_year";
    }
    SUBCASE("a note that is not a string") {
        f.bad_gpu()["notes"] = {"fine", 3};
        pointer = "/gpus/1/notes/1";
    }
    check_bad_gpu(f, pointer);
}

TEST_CASE("an unknown key is reported so that typos are caught, with RFC 6901 escaping") {
    Fixture f;
    std::string pointer;
    SUBCASE("top level of a record") {
        f.bad_gpu()["memory_gb"] = 24;
        pointer = "/gpus/1/memory_gb";
    }
    SUBCASE("nested") {
        f.bad_gpu()["dense_tflops"]["fp16_sparse"] = 1;
        pointer = "/gpus/1/dense_tflops/fp16_sparse";
    }
    SUBCASE("escaped") {
        f.bad_gpu()["a/b~c"] = 1;
        pointer = "/gpus/1/a~1b~0c";
    }
    if (!pointer.empty()) check_bad_gpu(f, pointer);
    SUBCASE("top level of a document is reported but drops nothing") {
        Fixture g;
        g.gpus["gpu"] = json::array();
        const Catalog c = g.parse();
        CHECK(has_problem(g.problems, "data/gpus.json", "/gpu"));
        CHECK(c.gpus.size() == 2);
    }
}

TEST_CASE("a duplicate id is reported at the second record, which is dropped") {
    Fixture f;
    f.bad_gpu()["id"] = "good-gpu";
    const Catalog c = f.parse();
    CHECK(has_problem(f.problems, "data/gpus.json", "/gpus/1/id"));
    REQUIRE(c.gpus.size() == 1);
    CHECK(c.gpus[0].name == "Test GPU");
    SUBCASE("offers too") {
        Fixture g;
        g.bad_offer()["id"] = "good-offer";
        const Catalog d = g.parse();
        CHECK(has_problem(g.problems, "data/cloud_offers.json", "/offers/1/id"));
        CHECK(d.offers.size() == 1);
    }
}

TEST_CASE("ids must be lowercase letters, digits, dots and hyphens") {
    for (const char* id : {"RTX-4090", "rtx 4090", "rtx_4090", "-rtx", "rtx-", ""}) {
        CAPTURE(id);
        Fixture f;
        f.bad_gpu()["id"] = id;
        check_bad_gpu(f, "/gpus/1/id");
    }
    Fixture f;
    f.bad_gpu()["id"] = "a100-sxm4-80gb.v2";
    f.parse();
    CHECK(f.problems.empty());
}

TEST_CASE("an offer whose GPU is unknown, or was dropped, is reported and dropped") {
    Fixture f;
    SUBCASE("unknown") {
        f.bad_offer()["gpu"] = "rtx-9999";
        check_bad_offer(f, "/offers/1/gpu");
    }
    SUBCASE("dropped for its own problems") {
        f.bad_gpu()["memory_gib"] = -1;
        f.bad_offer()["gpu"] = "bad-gpu";
        const Catalog c = f.parse();
        CHECK(has_problem(f.problems, "data/gpus.json", "/gpus/1/memory_gib"));
        CHECK(has_problem(f.problems, "data/cloud_offers.json", "/offers/1/gpu"));
        CHECK(c.offers.size() == 1);
    }
}

TEST_CASE("values outside their sane range are reported at their key") {
    struct Case {
        const char* key;
        json value;
    };
    const Case gpu_cases[] = {
        {"memory_gib", 0.5},   {"memory_gib", 24576},      {"memory_bandwidth_gb_per_s", 20},
        {"memory_bandwidth_gb_per_s", 1.008e12},           {"tdp_w", 10},
        {"tdp_w", 4500},       {"launch_year", 2009},      {"launch_year", 2031},
        {"pcie_lanes", 32},
    };
    for (const Case& c : gpu_cases) {
        CAPTURE(c.key);
        CAPTURE(c.value.dump());
        Fixture f;
        f.bad_gpu()[c.key] = c.value;
        check_bad_gpu(f, std::string("/gpus/1/") + c.key);
    }
    for (double fp32 : {0.1, 82600.0}) {  // GFLOPS or FLOP/s written as TFLOPS
        CAPTURE(fp32);
        Fixture f;
        f.bad_gpu()["dense_tflops"]["fp32"] = fp32;
        check_bad_gpu(f, "/gpus/1/dense_tflops/fp32");
    }
    const Case offer_cases[] = {{"price_per_hour", 0}, {"price_per_hour", -1}, {"gpu_count", 0}, {"gpu_count", 17}};
    for (const Case& c : offer_cases) {
        CAPTURE(c.key);
        CAPTURE(c.value.dump());
        Fixture f;
        f.bad_offer()[c.key] = c.value;
        check_bad_offer(f, std::string("/offers/1/") + c.key);
    }
    SUBCASE("exchange rate 1-20 CNY per USD") {
        for (double rate : {0.14, 71.0}) {
            CAPTURE(rate);
            Fixture f;
            f.settings["exchange_rate"]["cny_per_usd"] = rate;
            const Catalog c = f.parse();
            CHECK(has_problem(f.problems, "data/settings.json", "/exchange_rate/cny_per_usd"));
            CHECK(c.settings.exchange_rate.cny_per_usd == 0);  // left unknown, never a wrong value
            CHECK(c.gpus.size() == 2);
        }
    }
}

TEST_CASE("dates must be YYYY-MM-DD real days, not in the future of the build") {
    for (const char* date : {"2023-1-5", "05/01/2023", "2023-02-30", "2023-13-01", "9999-01-01"}) {
        CAPTURE(date);
        Fixture f;
        f.bad_gpu()["as_of"] = date;
        check_bad_gpu(f, "/gpus/1/as_of");
    }
    Fixture f;
    f.bad_offer()["as_of"] = "2024-02-29";  // a leap day
    f.parse();
    CHECK(f.problems.empty());
    CHECK(gg::catalog::newest_allowed_date().size() == 10);
    CHECK(gg::catalog::newest_allowed_date() >= "2025-01-01");
}

TEST_CASE("peak rates must respect the architecture's order rules") {
    Fixture f;
    std::string pointer;
    json& d = f.bad_gpu()["dense_tflops"];
    SUBCASE("tensor FP16 below FP32 on a card with tensor cores") {
        d["fp16"] = 41.3;
        d["bf16"] = 41.3;
        pointer = "/gpus/1/dense_tflops/fp16";
    }
    SUBCASE("FP16 accumulate below FP32 accumulate (swapped)") {
        d["fp16_fp16acc"] = 82.6;
        pointer = "/gpus/1/dense_tflops/fp16_fp16acc";
    }
    SUBCASE("GeForce fp16 given at the FP16-accumulate rate") {
        d["fp16"] = 330.3;
        d["bf16"] = 330.3;
        pointer = "/gpus/1/dense_tflops/fp16";
    }
    SUBCASE("datacenter fp16 given at half rate") {
        f.bad_gpu()["segment"] = "datacenter";
        pointer = "/gpus/1/dense_tflops/fp16";
    }
    SUBCASE("BF16 before Ampere") {
        f.bad_gpu()["compute_capability"] = "7.5";
        d["fp8"] = nullptr;
        d["tf32"] = nullptr;
        pointer = "/gpus/1/dense_tflops/bf16";
    }
    SUBCASE("TF32 before Ampere") {
        f.bad_gpu()["compute_capability"] = "7.0";
        d["fp8"] = nullptr;
        d["bf16"] = nullptr;
        pointer = "/gpus/1/dense_tflops/tf32";
    }
    SUBCASE("FP8 on Ampere (8.6)") {
        f.bad_gpu()["compute_capability"] = "8.6";
        pointer = "/gpus/1/dense_tflops/fp8";
    }
    SUBCASE("FP8 on AMD CDNA 2") {
        f.bad_gpu()["vendor"] = "amd";
        f.bad_gpu()["compute_capability"] = nullptr;
        f.bad_gpu()["architecture"] = "CDNA 2";
        pointer = "/gpus/1/dense_tflops/fp8";
    }
    SUBCASE("a CUDA compute capability on an AMD card") {
        f.bad_gpu()["vendor"] = "amd";
        f.bad_gpu()["architecture"] = "CDNA 3";
        pointer = "/gpus/1/compute_capability";
    }
    SUBCASE("no compute capability on an NVIDIA card") {
        f.bad_gpu()["compute_capability"] = nullptr;
        pointer = "/gpus/1/compute_capability";
    }
    check_bad_gpu(f, pointer);
}

TEST_CASE("FP8 is accepted on AMD CDNA 3 and on NVIDIA from compute capability 8.9") {
    Fixture f;
    f.bad_gpu()["vendor"] = "amd";
    f.bad_gpu()["compute_capability"] = nullptr;
    f.bad_gpu()["architecture"] = "CDNA 3";
    f.gpus["gpus"].push_back(good_gpu("hopper"));
    f.gpus["gpus"][2]["compute_capability"] = "9.0";
    const Catalog c = f.parse();
    CHECK(list(f.problems) == "");
    CHECK(c.gpus.size() == 3);
}

TEST_CASE("an unpublished figure may be null: fp32 and tdp_w of a cloud-only card") {
    Fixture f;
    f.bad_gpu()["dense_tflops"] = {{"fp32", nullptr}, {"tf32", nullptr}, {"fp16", nullptr}, {"fp16_fp16acc", nullptr},
                                   {"bf16", nullptr}, {"fp8", nullptr},  {"int8", nullptr}};
    f.bad_gpu()["tdp_w"] = nullptr;
    const Catalog c = f.parse();
    CHECK(list(f.problems) == "");
    REQUIRE(c.find_gpu("bad-gpu") != nullptr);
    CHECK(c.find_gpu("bad-gpu")->dense_flop_per_s.fp32 == 0);
    CHECK(c.find_gpu("bad-gpu")->tdp_w == 0);
}

TEST_CASE("sources and dates must be present and not empty") {
    Fixture f;
    std::string pointer;
    SUBCASE("GPU source empty") {
        f.bad_gpu()["source"] = "  ";
        pointer = "/gpus/1/source";
    }
    SUBCASE("GPU as_of null") {
        f.bad_gpu()["as_of"] = nullptr;
        pointer = "/gpus/1/as_of";
    }
    SUBCASE("street price without source") {
        f.bad_gpu()["street_price_cny"]["source"] = "";
        pointer = "/gpus/1/street_price_cny/source";
    }
    SUBCASE("street price with neither new nor used") {
        f.bad_gpu()["street_price_cny"]["new"] = nullptr;
        f.bad_gpu()["street_price_cny"]["used"] = nullptr;
        pointer = "/gpus/1/street_price_cny";
    }
    if (!pointer.empty()) check_bad_gpu(f, pointer);
    SUBCASE("offer source empty") {
        Fixture g;
        g.bad_offer()["source"] = "";
        check_bad_offer(g, "/offers/1/source");
    }
    SUBCASE("settings source missing: that part is left unknown") {
        Fixture g;
        g.settings["utilization_fraction"].erase("source");
        const Catalog c = g.parse();
        CHECK(has_problem(g.problems, "data/settings.json", "/utilization_fraction"));
        CHECK(c.settings.utilization.value_fraction == 0);
        CHECK(c.settings.reserve.value_fraction == 0.2);
    }
}

TEST_CASE("billing and currency must be one of the allowed words") {
    Fixture f;
    SUBCASE("billing") {
        f.bad_offer()["billing"] = "hourly";
        check_bad_offer(f, "/offers/1/billing");
    }
    SUBCASE("currency") {
        f.bad_offer()["currency"] = "EUR";
        check_bad_offer(f, "/offers/1/currency");
    }
}

TEST_CASE("offers: an offer without a source or a date, and a free offer without sourced session limits, are rejected") {
    SUBCASE("offer as_of missing") {
        Fixture f;
        f.bad_offer().erase("as_of");
        check_bad_offer(f, "/offers/1");
    }
    SUBCASE("offer source missing") {
        Fixture f;
        f.bad_offer().erase("source");
        check_bad_offer(f, "/offers/1");
    }
    const json limits = {{"max_session_h", 12}, {"gpu_hours_per_week", 30}, {"gpu_guaranteed", true},
                         {"disk_gb", 20}, {"source", "a tier's docs"}, {"as_of", "2025-06-01"}};
    auto make_free = [&](Fixture& f) {
        f.bad_offer()["billing"] = "free";
        f.bad_offer()["price_per_hour"] = 0;
        f.bad_offer()["session_limits"] = limits;
    };
    SUBCASE("a free offer with its limits parses, in base units") {
        Fixture f;
        make_free(f);
        const Catalog c = f.parse();
        CAPTURE(list(f.problems));
        REQUIRE(f.problems.empty());
        const gg::engine::CloudOffer* o = c.find_offer("bad-offer");
        REQUIRE(o != nullptr);
        CHECK(o->billing == gg::engine::Billing::Free);
        CHECK(o->has_limits);
        CHECK(o->limits.max_session_s == 12 * 3600);
        CHECK(o->limits.gpu_s_per_week == 30 * 3600);
        CHECK(o->limits.disk_bytes == 20e9);
        // and it reads back as written
        const json back = gg::catalog::offer_to_json(*o);
        CHECK(back["billing"] == "free");
        CHECK(back["session_limits"]["gpu_hours_per_week"] == 30);
    }
    SUBCASE("a free offer without session_limits") {
        Fixture f;
        make_free(f);
        f.bad_offer().erase("session_limits");
        check_bad_offer(f, "/offers/1");
    }
    SUBCASE("session limits without a source") {
        Fixture f;
        make_free(f);
        f.bad_offer()["session_limits"].erase("source");
        check_bad_offer(f, "/offers/1/session_limits");
    }
    SUBCASE("session limits without a date") {
        Fixture f;
        make_free(f);
        f.bad_offer()["session_limits"].erase("as_of");
        check_bad_offer(f, "/offers/1/session_limits");
    }
    SUBCASE("a free offer with a price") {
        Fixture f;
        make_free(f);
        f.bad_offer()["price_per_hour"] = 0.5;
        check_bad_offer(f, "/offers/1/price_per_hour");
    }
    SUBCASE("a priced offer with price 0") {
        Fixture f;
        f.bad_offer()["price_per_hour"] = 0;
        check_bad_offer(f, "/offers/1/price_per_hour");
    }
}

TEST_CASE("monthly offers carry price_per_month consistent with price_per_hour x 720 within 1%") {
    Fixture f;
    f.bad_offer()["billing"] = "monthly";
    f.bad_offer()["billing_granularity_s"] = 2592000;
    f.bad_offer()["currency"] = "CNY";
    SUBCASE("consistent") {
        f.bad_offer()["price_per_hour"] = 6.494;
        f.bad_offer()["price_per_month"] = 4675.66;
        const Catalog c = f.parse();
        CHECK(list(f.problems) == "");
        REQUIRE(c.find_offer("bad-offer") != nullptr);
        CHECK(c.find_offer("bad-offer")->billing == gg::engine::Billing::Monthly);
        CHECK(c.find_offer("bad-offer")->price_per_month == 4675.66);
    }
    SUBCASE("inconsistent: the price per hour of a 30-day month was computed with 730 h") {
        f.bad_offer()["price_per_hour"] = 4675.66 / 730 * 0.98;
        f.bad_offer()["price_per_month"] = 4675.66;
        check_bad_offer(f, "/offers/1/price_per_hour");
    }
    SUBCASE("missing monthly price") {
        f.bad_offer()["price_per_hour"] = 6.494;
        check_bad_offer(f, "/offers/1/price_per_month");
    }
    SUBCASE("a monthly price on an on-demand offer") {
        Fixture g;
        g.bad_offer()["price_per_month"] = 1000;
        check_bad_offer(g, "/offers/1/price_per_month");
    }
}

TEST_CASE("settings: the default electricity price must exist and resale points must age in order") {
    Fixture f;
    SUBCASE("default electricity unknown") {
        f.settings["default_electricity"] = "mars-residential";
        const Catalog c = f.parse();
        CHECK(has_problem(f.problems, "data/settings.json", "/default_electricity"));
        CHECK(c.default_electricity() == nullptr);
        CHECK(c.settings.electricity.size() == 1);
    }
    SUBCASE("electricity currency outside what the exchange rate converts") {
        f.settings["electricity"][0]["currency"] = "EUR";
        f.parse();
        CHECK(has_problem(f.problems, "data/settings.json", "/electricity/0/currency"));
    }
    SUBCASE("resale months out of order") {
        f.settings["resale_value"]["points"][1]["months"] = 0;
        const Catalog c = f.parse();
        CHECK(has_problem(f.problems, "data/settings.json", "/resale_value/points/1/months"));
        CHECK(c.settings.resale_value.points.empty());
    }
    SUBCASE("resale value rising with age") {
        f.settings["resale_value"]["points"][1]["fraction"] = 1.2;
        f.parse();
        CHECK(has_problem(f.problems, "data/settings.json", "/resale_value/points/1/fraction"));
    }
    SUBCASE("unknown settings key") {
        f.settings["reserve_fracton"] = {{"value", 0.1}, {"source", "x"}};
        f.parse();
        CHECK(has_problem(f.problems, "data/settings.json", "/reserve_fracton"));
    }
}

TEST_CASE("user data replaces base records by id, adds new ones, and needs only the estimate's keys") {
    Fixture f;
    const Catalog base = f.parse();
    REQUIRE(f.problems.empty());
    json user = {{"schema_version", 1},
                 {"gpus",
                  {{{"id", "good-gpu"},
                    {"name", "My overclocked card"},
                    {"memory_gib", 24},
                    {"memory_bandwidth_gb_per_s", 1100},
                    {"dense_tflops", {{"fp32", 90}, {"fp16", 180}}}},
                   {{"id", "my-card"},
                    {"name", "My card"},
                    {"memory_gib", 16},
                    {"memory_bandwidth_gb_per_s", 500},
                    {"dense_tflops", {{"fp32", 20}}}}}},
                 {"offers",
                  {{{"id", "my-rental"},
                    {"provider", "a friend"},
                    {"gpu", "my-card"},
                    {"gpu_count", 1},
                    {"price_per_hour", 2},
                    {"currency", "CNY"},
                    {"billing", "on-demand"}}}}};
    std::vector<Problem> problems;
    const Catalog merged = gg::catalog::merge_user_data(base, user.dump(), problems);
    CHECK(list(problems) == "");
    CHECK(merged.gpus.size() == 3);
    REQUIRE(merged.find_gpu("good-gpu") != nullptr);
    CHECK(merged.find_gpu("good-gpu")->name == "My overclocked card");
    CHECK(merged.find_gpu("good-gpu")->memory_bandwidth_bytes_per_s == 1100e9);
    REQUIRE(merged.find_gpu("my-card") != nullptr);
    CHECK(merged.find_offer("my-rental") != nullptr);
    CHECK(merged.offers.size() == 3);
    CHECK(base.find_gpu("my-card") == nullptr);  // the base is untouched

    SUBCASE("bad user data is reported under 'user data' and leaves the base in place") {
        user["gpus"][1]["memory_gib"] = "lots";
        user["offers"][0]["gpu"] = "no-such-gpu";
        problems.clear();
        const Catalog m = gg::catalog::merge_user_data(base, user.dump(), problems);
        CHECK(has_problem(problems, "user data", "/gpus/1/memory_gib"));
        CHECK(has_problem(problems, "user data", "/offers/0/gpu"));
        CHECK(m.find_gpu("my-card") == nullptr);
        CHECK(m.find_gpu("good-gpu") != nullptr);
        CHECK(m.gpus.size() == 2);
    }
    SUBCASE("text that is not JSON leaves the base unchanged") {
        problems.clear();
        const Catalog m = gg::catalog::merge_user_data(base, "{not json", problems);
        CHECK(problems.size() == 1);
        CHECK(m.gpus.size() == base.gpus.size());
    }
}

TEST_CASE("user data carries the page's pinned scenarios: each checked against the merged catalog, field by field") {
    const Catalog& base = gg::catalog::embedded_catalog();
    const json card = {{"id", "my-card"}, {"name", "My card"}, {"memory_gib", 16}, {"memory_bandwidth_gb_per_s", 500},
                       {"dense_tflops", {{"fp32", 20}, {"fp16", 80}}}};
    const json on_my_card = {{"model", "bert-base"}, {"batch_size", 8}, {"gpu", {{"id", "my-card"}}}};
    const json on_4090 = {{"model", "bert-base"}, {"batch_size", 8}, {"method", "lora"}, {"gpu", {{"id", "rtx-4090"}}}};
    std::vector<Problem> problems;
    json user = {{"schema_version", 1}, {"gpus", {card}}, {"pins", {on_my_card, on_4090}}};
    const Catalog merged = gg::catalog::merge_user_data(base, user.dump(), problems);
    CHECK(list(problems) == "");  // a pin may name the file's own card
    CHECK(merged.gpus.size() == base.gpus.size() + 1);  // pins change nothing in the catalog

    SUBCASE("a bad pin is named with its field; the records are still merged") {
        json bad = user;
        bad["pins"][1]["batch_size"] = 0;
        bad["pins"][0]["gpu"]["id"] = "no-such-card";
        problems.clear();
        const Catalog c = gg::catalog::merge_user_data(base, bad.dump(), problems);
        CHECK(c.find_gpu("my-card") != nullptr);
        const std::string text = list(problems);
        CAPTURE(text);
        CHECK(text.find("user data:/pins/0/gpu/id: ") != std::string::npos);
        CHECK(text.find("no-such-card") != std::string::npos);
        CHECK(text.find("user data:/pins/1/batch_size: ") != std::string::npos);
        CHECK(problems.size() == 2);
    }
    SUBCASE("pins must be a list of at most three scenario objects") {
        json bad = user;
        bad["pins"] = {on_4090, 42, on_4090, on_4090};
        problems.clear();
        gg::catalog::merge_user_data(base, bad.dump(), problems);
        CHECK(list(problems) ==
              "user data:/pins/1: each pin must be a scenario (an object with \"model\" and \"gpu\"), not a number\n"
              "user data:/pins/3: more than 3 pinned scenarios (the page compares at most 3)\n");
        bad["pins"] = "rtx-4090";
        problems.clear();
        gg::catalog::merge_user_data(base, bad.dump(), problems);
        REQUIRE(problems.size() == 1);
        CHECK(problems[0].pointer == "/pins");
    }
}

TEST_CASE("gpu_to_json and offer_to_json give base units under the keys scripts rely on") {
    Fixture f;
    const Catalog c = f.parse();
    const json g = gg::catalog::gpu_to_json(*c.find_gpu("good-gpu"));
    for (const char* key : {"id", "name", "memory_bytes", "memory_bandwidth_bytes_per_s", "dense_flop_per_s", "tdp_w"})
        CHECK_MESSAGE(g.contains(key), key);
    CHECK(g["memory_bytes"] == 25769803776LL);
    CHECK(g["memory_bandwidth_bytes_per_s"] == 1008000000000LL);
    CHECK(g["dense_flop_per_s"]["fp16"] == 165200000000000LL);
    for (const char* key : {"fp32", "tf32", "fp16", "bf16", "fp8", "int8"})
        CHECK_MESSAGE(g["dense_flop_per_s"].contains(key), key);
    CHECK(g["nvlink_bytes_per_s"].is_null());
    CHECK(g["compute_capability"] == "8.9");
    const json o = gg::catalog::offer_to_json(*c.find_offer("good-offer"));
    for (const char* key : {"id", "provider", "gpu", "gpu_count", "price_per_hour", "currency", "billing", "as_of"})
        CHECK_MESSAGE(o.contains(key), key);
    CHECK(o["billing"] == "on-demand");
    CHECK(o["gpu"] == "good-gpu");
    SUBCASE("settings round-trip through settings_to_json") {
        std::vector<Problem> problems;
        const Catalog again = gg::catalog::parse_catalog(f.gpus.dump(), f.offers.dump(),
                                                         gg::catalog::settings_to_json(c.settings).dump(), problems);
        CHECK(list(problems) == "");
        CHECK(again.settings.exchange_rate.cny_per_usd == 7.1);
    }
}

TEST_CASE("the loader survives truncated and mangled copies of the bundled files without throwing") {
    const std::string gpus(gg::catalog::embedded_file(gg::catalog::kGpusFile));
    const std::string offers(gg::catalog::embedded_file(gg::catalog::kOffersFile));
    const std::string settings(gg::catalog::embedded_file(gg::catalog::kSettingsFile));
    for (std::size_t step = 1; step <= 64; ++step) {
        CAPTURE(step);
        std::vector<Problem> problems;
        // Cut each file at a different point, and swap a byte for a quote, a brace or a digit.
        std::string g = gpus.substr(0, gpus.size() * step / 64);
        std::string o = offers;
        std::string s = settings;
        if (!o.empty()) o[o.size() * step / 65] = "\"}9"[step % 3];
        if (!s.empty()) s[s.size() * step / 65] = "]:\""[step % 3];
        CHECK_NOTHROW(gg::catalog::parse_catalog(g, o, s, problems));
        CHECK_NOTHROW(gg::catalog::merge_user_data(gg::catalog::embedded_catalog(), g, problems));
    }
}

TEST_CASE("the bundled catalog has no problems") {
    const std::string problems = list(gg::catalog::embedded_catalog_problems());
    CAPTURE(problems);
    CHECK(problems == "");
    CHECK(!gg::catalog::embedded_catalog().gpus.empty());
    CHECK(!gg::catalog::embedded_catalog().offers.empty());
    CHECK(gg::catalog::embedded_catalog().default_electricity() != nullptr);
    // The largest offer of a card: H100s come in 8-card servers at most, so a 96-card job has no single offer.
    int most = 0;
    for (const auto& o : gg::catalog::embedded_catalog().offers)
        if (o.gpu_id == "h100-sxm") most = std::max(most, o.gpu_count);
    CHECK(most >= 1);
    CHECK(gg::catalog::embedded_catalog().most_rented_at_once("h100-sxm") == most);
}

TEST_CASE("data/gpus.json agrees with the independent second source: memory exact, bandwidth and FP32 within 3%") {
    const std::string_view crosscheck = gg::catalog::embedded_file(gg::catalog::kCrosscheckFile);
    CHECK_MESSAGE(!crosscheck.empty(), "tests/validation/gpu_spec_crosscheck.json is missing");
    int compared_count = 0;
    const std::string problems =
        list(gg::catalog::crosscheck_gpu_specs(gg::catalog::embedded_catalog(), crosscheck, compared_count));
    CAPTURE(problems);
    CHECK(problems == "");
    CHECK(compared_count > 0);
    MESSAGE("cross-checked " << compared_count << " of " << gg::catalog::embedded_catalog().gpus.size() << " GPUs");
}

TEST_CASE("the cross-check reports a GPU whose figures differ from the second source") {
    Fixture f;
    const Catalog c = f.parse();
    const char* second = R"({"gpus": [
        {"id": "good-gpu", "memory_gib": 24, "memory_bandwidth_gb_per_s": 1008, "fp32_tflops": 82.58, "source": "x"},
        {"id": "bad-gpu", "memory_gib": 22, "memory_bandwidth_gb_per_s": 900, "fp32_tflops": 90, "source": "x"},
        {"id": "no-such-gpu", "memory_gib": 8, "source": "x"}]})";
    int compared_count = 0;
    const auto problems = gg::catalog::crosscheck_gpu_specs(c, second, compared_count);
    CAPTURE(list(problems));
    CHECK(compared_count == 2);
    CHECK(problems.size() == 4);
    CHECK(has_problem(problems, gg::catalog::kCrosscheckFile, "/gpus/1/memory_gib"));
    CHECK(has_problem(problems, gg::catalog::kCrosscheckFile, "/gpus/1/memory_bandwidth_gb_per_s"));
    CHECK(has_problem(problems, gg::catalog::kCrosscheckFile, "/gpus/1/fp32_tflops"));
    CHECK(has_problem(problems, gg::catalog::kCrosscheckFile, "/gpus/2/id"));
}

#if defined(GG_CLI_PATH) && !defined(_WIN32)
namespace {
// Runs the CLI; returns its exit status and standard output.
int run_cli(const std::string& args, std::string& out) {
    out.clear();
    FILE* pipe = popen((std::string(GG_CLI_PATH) + " " + args + " 2>/dev/null").c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
    const int status = pclose(pipe);
    return status == -1 ? -1 : (status >> 8) & 0xff;  // WEXITSTATUS
}
}  // namespace

TEST_CASE("gpuguide gpus/offers/settings --json print the catalog in base units; check-data exits 0 on clean data") {
    std::string out;
    REQUIRE(run_cli("gpus --json", out) == 0);
    const json gpus = json::parse(out, nullptr, false);
    REQUIRE(gpus.is_object());
    REQUIRE(gpus["gpus"].is_array());
    CHECK(gpus["gpus"].size() == gg::catalog::embedded_catalog().gpus.size());
    if (!gpus["gpus"].empty()) CHECK(gpus["gpus"][0].contains("memory_bytes"));

    REQUIRE(run_cli("offers --json", out) == 0);
    const json offers = json::parse(out, nullptr, false);
    REQUIRE(offers.is_object());
    CHECK(offers["offers"].size() == gg::catalog::embedded_catalog().offers.size());

    REQUIRE(run_cli("settings --json", out) == 0);
    CHECK(json::parse(out, nullptr, false).contains("exchange_rate"));

    CHECK(run_cli("gpus --bogus", out) == 2);
    CHECK(out.empty());

    int compared_count = 0;
    const bool clean = gg::catalog::embedded_catalog_problems().empty() &&
                       (gg::catalog::embedded_file(gg::catalog::kCrosscheckFile).empty() ||  // check-data skips it
                        gg::catalog::crosscheck_gpu_specs(gg::catalog::embedded_catalog(),
                                                         gg::catalog::embedded_file(gg::catalog::kCrosscheckFile),
                                                         compared_count)
                            .empty());
    const int status = run_cli("check-data", out);
    CAPTURE(out);
    CHECK(status == (clean ? 0 : 1));
}

TEST_CASE("gpuguide estimate/rank/advise --user-data: the user's own card and offer are used; bad user data exits 2") {
    // A card that is not in the catalog and an offer renting it (the page's "Save as a file" format).
    const json user = {{"schema_version", 1},
                       {"gpus",
                        {{{"id", "my-card"},
                          {"name", "My card"},
                          {"memory_gib", 16},
                          {"memory_bandwidth_gb_per_s", 500},
                          {"dense_tflops", {{"fp32", 20}, {"fp16", 80}}}}}},
                       {"offers",
                        {{{"id", "my-rental"},
                          {"provider", "a friend"},
                          {"gpu", "my-card"},
                          {"gpu_count", 1},
                          {"price_per_hour", 2},
                          {"currency", "CNY"},
                          {"billing", "on-demand"}}}}};
    const std::string dir = "gg_cli_user_data_test";
    std::filesystem::create_directories(dir);
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir + "/" + name, std::ios::binary) << text;
        return dir + "/" + name;
    };
    const std::string user_file = write("user.json", user.dump());
    const std::string scenario = write("scenario.json",
        R"({"model": "bert-base", "batch_size": 8, "gpu": {"id": "my-card"}, "dataset": {"samples": 10000, "epochs": 1}})");
    std::string out;

    REQUIRE(run_cli("estimate " + scenario + " --user-data " + user_file, out) == 0);
    const json report = json::parse(out, nullptr, false);
    REQUIRE(report.is_object());
    CHECK(report["gpu"]["memory_bytes"].get<double>() == 16.0 * 1073741824.0);
    CHECK(report["time"]["step_s"].get<double>() > 0);
    CHECK(report["time"]["scaling"].size() == 5);  // 1, 2, 4, 8, 16 of the user's card

    REQUIRE(run_cli("rank --user-data " + user_file + " " + scenario, out) == 0);
    const json ranked = json::parse(out, nullptr, false);
    REQUIRE(ranked.contains("options"));
    bool rented = false, bought = false;
    for (const json& o : ranked["options"]) {
        rented |= o.value("offer", json()) == "my-rental";
        bought |= o["gpu"] == "my-card" && o["kind"] == "buy";
    }
    CHECK(rented);
    CHECK(bought);
    CHECK(run_cli("advise " + scenario + " --user-data " + user_file, out) == 0);

    // The page's export carries its pinned scenarios: the tool accepts them (and checks them like the records).
    json with_pins = user;
    with_pins["pins"] = json::array({json::parse(R"({"model": "bert-base", "batch_size": 8, "gpu": {"id": "my-card"}})")});
    CHECK(run_cli("estimate " + scenario + " --user-data " + write("pins.json", with_pins.dump()), out) == 0);
    with_pins["pins"][0]["batch_size"] = "eight";
    CHECK(run_cli("estimate " + scenario + " --user-data " + write("bad_pins.json", with_pins.dump()), out) == 2);

    // Without the user data the card is unknown; a bad record, a missing file or a missing FILE are refused.
    CHECK(run_cli("estimate " + scenario, out) == 2);
    json bad = user;
    bad["gpus"][0]["memory_gib"] = "lots";
    CHECK(run_cli("rank " + scenario + " --user-data " + write("bad.json", bad.dump()), out) == 2);
    CHECK(out.empty());
    CHECK(run_cli("rank " + scenario + " --user-data " + dir + "/missing.json", out) == 1);
    CHECK(run_cli("rank " + scenario + " --user-data", out) == 2);
    std::filesystem::remove_all(dir);
}
#endif

TEST_CASE("offers: access facts are given to every offer of their provider; a bad fact is reported and left unknown") {
    Fixture f;
    auto fact = [](bool value) {
        return json{{"value", value}, {"source", "a provider's billing page"}, {"as_of", "2026-12-01"}};
    };
    f.offers["access"] = {{{"provider", "AWS"},
                           {"facts", {{"international_payment_only", fact(true)}, {"phone_verification", fact(false)}}}}};
    SUBCASE("known facts reach the offers; the rest stay unknown") {
        const Catalog c = f.parse();
        CAPTURE(list(f.problems));
        CHECK(f.problems.empty());
        const gg::engine::CloudOffer* o = c.find_offer("good-offer");
        REQUIRE(o != nullptr);
        CHECK(o->access.international_payment_only.value == gg::engine::Fact::kYes);
        CHECK(o->access.phone_verification.value == gg::engine::Fact::kNo);
        CHECK(o->access.blocked_in_mainland_china.value == gg::engine::Fact::kUnknown);
        CHECK(o->access.international_payment_only.source == "a provider's billing page");
        CHECK(o->access.limits_mainland_china());
    }
    SUBCASE("a fact without its source is reported at the fact and not kept") {
        f.offers["access"][0]["facts"]["international_payment_only"].erase("source");
        const Catalog c = f.parse();
        CHECK(has_problem(f.problems, "data/cloud_offers.json", "/access/0/facts/international_payment_only"));
        CHECK(c.find_offer("good-offer")->access.international_payment_only.value == gg::engine::Fact::kUnknown);
        CHECK(c.find_offer("good-offer")->access.phone_verification.value == gg::engine::Fact::kNo);
    }
    SUBCASE("an unknown fact name is reported (typos are caught)") {
        f.offers["access"][0]["facts"]["needs_vpn"] = fact(true);
        f.parse();
        CHECK(has_problem(f.problems, "data/cloud_offers.json", "/access/0/facts/needs_vpn"));
    }
    SUBCASE("a provider no offer has is reported, naming the key") {
        f.offers["access"][0]["provider"] = "Amazon";
        const Catalog c = f.parse();
        CHECK(has_problem(f.problems, "data/cloud_offers.json", "/access/0/provider"));
        CHECK(c.find_offer("good-offer")->access.international_payment_only.value == gg::engine::Fact::kUnknown);
    }
    SUBCASE("a value that is not true or false is reported at the value") {
        f.offers["access"][0]["facts"]["phone_verification"]["value"] = "yes";
        f.parse();
        CHECK(has_problem(f.problems, "data/cloud_offers.json", "/access/0/facts/phone_verification/value"));
    }
}

TEST_CASE("gpus: a laptop GPU is marked laptop, must sit on PCIe, and the bundled laptops carry their TGP assumption") {
    Fixture f;
    f.bad_gpu()["laptop"] = true;
    f.bad_gpu()["form_factor"] = "sxm";
    check_bad_gpu(f, "/gpus/1/laptop");
    const Catalog& c = gg::catalog::embedded_catalog();
    for (const char* id : {"rtx-4060-laptop", "rtx-4070-laptop", "rtx-4080-laptop", "rtx-4090-laptop"}) {
        CAPTURE(id);
        const gg::engine::GpuSpec* g = c.find_gpu(id);
        REQUIRE(g != nullptr);
        CHECK(g->laptop);
        CHECK(g->launch_price_usd == 0);              // sold only inside laptops
        CHECK(g->street_price.new_cny == 0);
        CHECK_FALSE(c.rents(id));                     // owned, never rented
        bool assumption = false;
        for (const std::string& n : g->notes) assumption |= n.find("ASSUMPTION") != std::string::npos;
        CHECK(assumption);                            // the clock depends on the maker's power limit: said so
        CHECK(gg::catalog::gpu_to_json(*g)["laptop"] == true);
        CHECK(gg::catalog::gpu_to_data_json(*g)["laptop"] == true);
    }
    // NVIDIA's table (data/gpus.json source): memory per laptop GPU.
    CHECK(c.find_gpu("rtx-4090-laptop")->memory_bytes == 16.0 * (1ull << 30));
    CHECK(c.find_gpu("rtx-4080-laptop")->memory_bytes == 12.0 * (1ull << 30));
    CHECK(c.find_gpu("rtx-4060-laptop")->memory_bytes == 8.0 * (1ull << 30));
    CHECK_FALSE(c.find_gpu("rtx-4090")->laptop);
}
