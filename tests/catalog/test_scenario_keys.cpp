// The scenario key table (catalog/scenario_keys.h) is what the parser reads by: its rows name a field or a reader,
// the "allowed keys" messages list its keys, and a value outside a row's range is refused with that range.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/scenario.h"
#include "catalog/scenario_keys.h"

using gg::catalog::KeyType;
using gg::catalog::ScenarioKey;
using gg::catalog::scenario_keys;

namespace {

int fields_named(const gg::catalog::KeyField& f) {
    return (f.whole != nullptr) + (f.number != nullptr) + (f.flag != nullptr) + (f.text != nullptr) +
           (f.tunable != nullptr) + (f.tunable_flag != nullptr);
}

// A scenario of bert-base (lora where the key is a LoRA one) with `value` at the key's path.
nlohmann::json scenario_with(const ScenarioKey& k, const nlohmann::json& value) {
    nlohmann::json doc = {{"model", "bert-base"}};
    if (k.path.rfind("lora/", 0) == 0) doc["method"] = "lora";
    doc[nlohmann::json::json_pointer("/" + k.path)] = value;
    return doc;
}

const gg::catalog::Problem* problem_at(const std::vector<gg::catalog::Problem>& problems, const std::string& ptr) {
    for (const auto& p : problems)
        if (p.pointer == ptr) return &p;
    return nullptr;
}

}  // namespace

TEST_CASE("every scenario key row reads itself or names exactly the one field it sets, and has help") {
    for (const ScenarioKey& k : scenario_keys()) {
        CAPTURE(k.path);
        CHECK(!k.help.empty());
        CHECK(!k.allowed().empty());
        if (k.parent() != "") CHECK(gg::catalog::find_scenario_key(k.parent()) != nullptr);
        if (k.type == KeyType::kObject && k.read == nullptr) {
            CHECK(!k.not_object.empty());
            CHECK(fields_named(k.field) == 0);
        } else if (k.read == nullptr) {
            CHECK(fields_named(k.field) == 1);
            if (k.type == KeyType::kChoice) CHECK(bool(k.choices));
        }
    }
    CHECK(gg::catalog::find_scenario_key("gpu/count") != nullptr);
    CHECK(gg::catalog::find_scenario_key("gpu/no_such_key") == nullptr);
}

TEST_CASE("an unknown key is refused with the table's keys of its object, in table order") {
    for (const std::string parent : {"", "gpu", "lora", "dataset", "tunables", "stack_options"}) {
        CAPTURE(parent);
        nlohmann::json doc = {{"model", "bert-base"}, {"method", "lora"}};
        if (parent.empty()) doc["no_such_key"] = 1;
        else doc[parent] = {{"no_such_key", 1}};
        const auto parsed = gg::catalog::parse_scenario_json(doc);
        const std::string ptr = (parent.empty() ? "" : "/" + parent) + "/no_such_key";
        const auto* p = problem_at(parsed.problems, ptr);
        REQUIRE(p != nullptr);
        std::string list;
        for (const std::string& name : gg::catalog::scenario_key_names(parent)) list += (list.empty() ? "" : ", ") + name;
        CHECK(p->message == "unknown key 'no_such_key'; allowed keys: " + list);
    }
}

TEST_CASE("a whole-number key outside its row's range is refused with that range, one inside is taken") {
    int ranged = 0;
    for (const ScenarioKey& k : scenario_keys()) {
        if (k.type != KeyType::kWhole) continue;
        CAPTURE(k.path);
        ++ranged;
        const auto too_big = gg::catalog::parse_scenario_json(scenario_with(k, (long long)k.max + 1));
        const auto* p = problem_at(too_big.problems, "/" + k.path);
        REQUIRE(p != nullptr);
        CHECK(p->message == "'" + k.name() + "' must be from " + std::to_string((long long)k.min) + " to " +
                                std::to_string((long long)k.max) + " (got " + std::to_string((long long)k.max + 1) + ")");
        const auto at_min = gg::catalog::parse_scenario_json(scenario_with(k, (long long)k.min));
        const auto* q = problem_at(at_min.problems, "/" + k.path);
        CHECK((q == nullptr || q->message.find("must be from") == std::string::npos));
    }
    CHECK(ranged >= 10);
}

TEST_CASE("a choice key takes each of its row's values and refuses another, listing them") {
    for (const ScenarioKey& k : scenario_keys()) {
        if (k.type != KeyType::kChoice) continue;
        CAPTURE(k.path);
        const auto bad = gg::catalog::parse_scenario_json(scenario_with(k, "no-such-value"));
        const auto* p = problem_at(bad.problems, "/" + k.path);
        REQUIRE(p != nullptr);
        CHECK(p->message.find(k.allowed().substr(std::string("one of: ").size())) != std::string::npos);
        for (const std::string& v : k.choices()) {
            CAPTURE(v);
            const auto good = gg::catalog::parse_scenario_json(scenario_with(k, v));
            const auto* q = problem_at(good.problems, "/" + k.path);
            CHECK((q == nullptr || q->message.find("must be one of") == std::string::npos));
        }
    }
}

TEST_CASE("the key listings name every key of the table") {
    const std::string text = gg::catalog::scenario_keys_text();
    const std::string markdown = gg::catalog::scenario_keys_markdown();
    for (const ScenarioKey& k : scenario_keys()) {
        CAPTURE(k.path);
        CHECK(text.find("\n  " + k.path + "\n") != std::string::npos);
        CHECK(markdown.find("| `" + k.path + "` |") != std::string::npos);
    }
}
