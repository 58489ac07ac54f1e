// The parser's state while it walks the key table (scenario_keys.h), and the rules of the keys that need more than
// a type and a range: how a key is read, the default it takes from other keys, the checks against other keys
// (scenario_key_rules.cpp). Catalog-internal: the parser's, not the UI's or the CLI's.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/scenario.h"
#include "catalog/scenario_keys.h"
#include "catalog/scenario_reader.h"

namespace gg::catalog {

extern const std::vector<std::string> kFp32Modules;  // fp32_modules' values (scenario.cpp)

namespace scenario_detail {

struct KeyContext {
    const nlohmann::json& doc;     // the whole scenario, nulls dropped (scenario_without_nulls)
    Scenario& s;
    Reader& r;
    const Catalog& cat;
    const nlohmann::json* object;  // the object whose keys are being read: doc, or doc["gpu"], ...
    std::string pointer;           // its JSON pointer: "", "/gpu"
    bool model_ok = false;         // the model was read without a problem (checks against it apply)
};

// Reads the keys of `parent` ("" = the scenario; "gpu", ...) whose pass is in [first_pass, last_pass], pass by pass
// and in table order; an object's own keys are read when the object is (scenario_keys.cpp).
void read_scenario_keys(KeyContext& c, const std::string& parent, int first_pass, int last_pass);

// ---- the rules, one per key (scenario_key_rules.cpp) ------------------------------------------------------------
bool read_model(KeyContext& c);
void check_image_size(KeyContext& c, bool read);
void check_seq_len(KeyContext& c, bool read);
void check_frozen_weights_16bit(KeyContext& c, bool read);
void check_precomputed_latents(KeyContext& c, bool read);
void check_stack(KeyContext& c, bool read);
void check_compile(KeyContext& c, bool read);
void check_paged_optimizer(KeyContext& c, bool read);
void note_offload_activations(KeyContext& c, bool read);
void check_stack_options(KeyContext& c, bool read);
void check_longest_seq_len(KeyContext& c, bool read);
bool read_lora_targets(KeyContext& c);
void check_lora(KeyContext& c, bool read);
bool read_gpu_id(KeyContext& c);
void check_network(KeyContext& c, bool read);
void check_peer_to_peer(KeyContext& c, bool read);
bool read_ecc(KeyContext& c);
bool read_loader(KeyContext& c);
void check_samples(KeyContext& c, bool read);
void check_dataset(KeyContext& c, bool read);
void note_tunables(KeyContext& c, bool read);
void check_fp32_modules(KeyContext& c, bool read);

// ---- the defaults and checks that span several keys, run between passes (scenario_key_rules.cpp) ------------------
void default_precision(KeyContext& c);  // after the job's keys (pass 1): what people run the model with
void check_combinations(KeyContext& c); // after every key: precision, method, LoRA, parallelism, the card

}  // namespace scenario_detail
}  // namespace gg::catalog
