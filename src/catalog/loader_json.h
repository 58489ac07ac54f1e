// The data loader as JSON: the pipelines' per-CPU rates (data/loader_pipelines.json), the scenario's
// dataset.loader key {pipeline, workers, cpus}, the pipeline a job implies, and the report's time.loader line.
// The mechanism itself is engine/loader.h; no UI here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/scenario.h"
#include "engine/loader.h"
#include "engine/time.h"

namespace gg::catalog {

struct LoaderPipelineRecord {
    std::string id;                    // "cifar-augment", "imagenet-jpeg", "pretokenized"
    std::string name;
    double samples_per_s_per_cpu = 0;  // one DataLoader worker on one CPU; 0 = no CPU limit
    std::string as_of, source;
};

// Reads a loader_pipelines.json text; every problem with its JSON pointer (file = `file`).
std::vector<LoaderPipelineRecord> parse_loader_pipelines(std::string_view text, const std::string& file,
                                                         std::vector<Problem>& problems);
// The embedded data/loader_pipelines.json (read once; empty when it has problems, which check-data reports).
const std::vector<LoaderPipelineRecord>& loader_pipelines();
const LoaderPipelineRecord* find_loader_pipeline(const std::string& id);

// The scenario key: dataset.loader {"pipeline", "workers", "cpus"} (pipeline "measured" = dataset.loader_samples_per_s).
extern const std::vector<std::string> kLoaderPipelineChoices;  // the pipelines plus "keeps-up" and "measured"
void parse_loader_key(const nlohmann::json& dataset, Scenario& s, std::vector<Problem>& problems,
                      const std::string& file);
void loader_key_to_json(const Scenario& s, nlohmann::json& dataset);

// The pipeline the job implies when the scenario names none: an image classifier at <= 64 px trains on CIFAR-style
// in-memory images, a larger one on a JPEG folder; a text model on pre-tokenized ids; "" = no sourced pipeline for
// this job (detection mosaics, segmentation masks, diffusion: the loader is then assumed to keep up, and said so).
std::string implied_loader_pipeline(const Scenario& s);
std::string effective_loader_pipeline(const Scenario& s);  // the scenario's own, else the implied one
engine::LoaderSetup loader_setup(const Scenario& s);        // the engine's inputs (CPUs from loader.cpus)

// The report's time.loader: pipeline, assumed, per_cpu_samples_per_s, workers, workers_used, cpus_per_gpu,
// samples_per_s (per GPU; null = no limit), gpu_samples_per_s (per GPU, the step without the loader), cpu_bound,
// in_training_process, status ("cpu_bound", "keeps_up", "cpus_unknown", "no_cpu_limit", "measured", "no_pipeline").
nlohmann::json loader_to_json(const Scenario& s, const engine::TimeReport& r);

}  // namespace gg::catalog
