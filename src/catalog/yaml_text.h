// Reading YAML that users hand us (training configs of LLaMA-Factory, axolotl, torchtune) into the same JSON values
// the rest of the catalog reads, with yaml-cpp (Debian's libyaml-cpp-dev natively, its source package in the page).
// What yaml-cpp does not do for us, done here: a size limit, a limit on the values an alias can expand to ("billion
// laughs": a few lines of anchors and aliases that stand for billions of values), duplicate keys, and YAML 1.1's
// plain scalars (True, 1.0e-4, null, empty) typed as PyYAML and OmegaConf type them. Never throws. No UI code here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "catalog/json_text.h"

namespace gg::catalog {

// Larger than this is refused before parsing: the upstream configs are 1 to 4 KB; the biggest torchtune config
// with its comments is under 10 KB.
constexpr std::size_t kMaxYamlTextBytes = 256u << 10;  // 256 KiB
// More values than this, counting every value an alias stands for each time it is used, are refused.
constexpr std::size_t kMaxYamlValues = 20000;

// The document as JSON (mappings -> objects with string keys, sequences -> arrays, scalars -> null, bool, integer,
// number or string), or `error` set: a sentence naming the line and column, or the key, that could not be read.
JsonText parse_yaml_text(std::string_view text);

// One scalar as YAML 1.1 types a plain (unquoted) scalar: "True" -> true, "8" -> 8, "1.0e-4" -> 0.0001, "null" /
// "~" / "" -> null, anything else a string. torchtune's key=value overrides are typed this way too.
nlohmann::json yaml_plain_scalar(const std::string& text);

}  // namespace gg::catalog
