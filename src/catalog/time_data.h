// Loads data/throughput_priors.json and data/interconnects.json into the time engine's structs (base units:
// bytes/s, seconds, fractions). Never throws or aborts: every problem is collected with its file and JSON
// pointer, bad records are dropped and the rest kept. No UI code here.
#pragma once

#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "engine/time.h"

namespace gg::catalog {

inline constexpr const char* kThroughputPriorsFile = "data/throughput_priors.json";
inline constexpr const char* kInterconnectsFile = "data/interconnects.json";

// throughput_priors.json:
//   {"schema_version": 1, "priors": [{"id", "families": ["resnet", ...], "matmul_fraction": {"low", "expected",
//    "high"}, "bandwidth_fraction": {...}, "per_layer_overhead_us", "source", "fitted_to": [case ids]}],
//    "comm": {"overlap_fraction", "sharded_overlap_fraction", "gpus_per_node", "source"}}
// interconnects.json:
//   {"schema_version": 1, "interconnects": [{"id", "kind" ("pcie3" ... "ethernet"), "peer_to_peer",
//    "per_gpu_link", "inter_node", "default", "nominal_gb_per_s" (10^9 B/s, null when per_gpu_link),
//    "achievable_fraction" (null = unmeasured: 1.0 is used), "latency_us", "source"}]}
engine::ThroughputPriors parse_time_data(std::string_view priors_json, std::string_view interconnects_json,
                                         std::vector<Problem>& problems);

// The bundled files, parsed once.
const engine::ThroughputPriors& embedded_time_data();
const std::vector<Problem>& embedded_time_data_problems();

// Family names as the priors file writes them ("resnet", "mobilenet-v2", "sd-unet", ...; not quite
// engine::family_name's, which the reports use); parse_family is false when unknown.
const char* prior_family_name(engine::Family family);
bool parse_family(std::string_view name, engine::Family& out);

}  // namespace gg::catalog
