// The scenario's keys, one row each (name, type, range or values, default, the field it sets, help text): the
// parser walks this table (parse_scenario_json), `gpuguide keys` prints it, docs/scenario-keys.md is generated from
// it (a ctest compares them) and the page looks a key's help up by its path. A key is added here, in one place.
// No UI code; the Chinese help texts live with the UI strings (their font is subset from them).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/memory.h"

namespace gg::catalog {

struct Scenario;
namespace scenario_detail {
struct KeyContext;  // the parser's state while it walks the table (scenario_key_rules.h)
}

enum class KeyType { kModel, kWhole, kNumber, kBoolean, kChoice, kList, kText, kObject };

// The Scenario field a key sets (exactly one is non-null; none for objects and keys read by their own `read`).
struct KeyField {
    int Scenario::*whole = nullptr;
    double Scenario::*number = nullptr;
    bool Scenario::*flag = nullptr;
    std::string Scenario::*text = nullptr;
    double engine::Tunables::*tunable = nullptr;
    bool engine::Tunables::*tunable_flag = nullptr;
};

struct ScenarioKey {
    using Context = scenario_detail::KeyContext;
    std::string path;           // below the scenario's root, '/'-separated: "batch_size", "gpu/count"
    KeyType type = KeyType::kText;
    double min = 0, max = 0;    // kWhole, kNumber: the allowed range
    bool min_open = false;      // kNumber: greater than min (not equal)
    std::vector<std::string> (*choices)() = nullptr;  // kChoice: the allowed values
    std::string default_value;  // as the docs write it: "1", "adamw", "the card's"
    std::string help;           // English, one or two sentences
    KeyField field;
    // How the parser reads it. Keys are read pass by pass (0 first), in table order within a pass: the order the
    // parser read them in before this table, so that a scenario with several problems lists them in the same order;
    // a key's pass also comes after every key its rules look at.
    int pass = 0;
    std::string not_object;                   // kObject: the message when the value is not an object
    void (*preset)(Context&) = nullptr;       // before reading: the default that depends on other keys
    bool (*read)(Context&) = nullptr;         // reads the key itself (called whether or not it is present)
    void (*check)(Context&, bool read) = nullptr;  // after reading (objects: after their keys), when present

    std::string name() const { return path.substr(path.rfind('/') + 1); }
    std::string parent() const { return path.rfind('/') == std::string::npos ? "" : path.substr(0, path.rfind('/')); }
    // "whole number 1 to 1048576", "one of: fp32, tf32, ...", "true or false", "object" (for listings and docs).
    std::string allowed() const;
};

// Every scenario key, parents before their keys, in the order the docs and the "allowed keys" messages list them.
const std::vector<ScenarioKey>& scenario_keys();
// The row of a key path ("gpu/count"), or nullptr: the page's tooltips and the CLI's help look keys up here.
const ScenarioKey* find_scenario_key(std::string_view path);
// The keys of one object ("" = the scenario itself), in table order.
std::vector<std::string> scenario_key_names(std::string_view parent);

// The key list as plain text (`gpuguide keys`) and as Markdown (`gpuguide keys --markdown`, docs/scenario-keys.md).
std::string scenario_keys_text();
std::string scenario_keys_markdown();

}  // namespace gg::catalog
