// What a scenario's model-dependent settings become when the model changes on the page (issue 40: a ResNet's batch
// of 128 kept for Llama asked for 2.8 TB; an 8B LoRA was estimated in fp32): the settings people run that model
// with, as the scenario parser gives a scenario that leaves them out. No UI code here.
#pragma once

#include "catalog/catalog.h"
#include "catalog/scenario.h"

namespace gg::catalog {

// The per-GPU batch the model family's usual training recipe uses (sources next to the table in model_defaults.cpp).
int family_default_batch(const engine::ModelSpec& model);

// `s` switched to `model_id` (a preset) with its model-dependent settings reset to their defaults: the batch of its
// family, the precision, checkpointing and frozen-weight dtype the parser gives a scenario without them
// (parse_scenario_json), the model's own sequence length or image size. Everything else (card, count, method, LoRA,
// stack, dataset, money) is kept. Returns false and leaves `s` alone when the kept settings do not parse with the new
// model; `problems` then says why.
bool switch_model(Scenario& s, const std::string& model_id, const Catalog& catalog, std::vector<Problem>& problems);

}  // namespace gg::catalog
