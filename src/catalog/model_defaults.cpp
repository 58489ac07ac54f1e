// The model-dependent defaults of a scenario (see model_defaults.h).
#include "catalog/model_defaults.h"

namespace gg::catalog {

int family_default_batch(const engine::ModelSpec& model) {
    // CIFAR networks: kuangliu/pytorch-cifar main.py loads the training set with batch_size=128, and Wide-ResNets
    // were trained with mini-batches of 128 (Zagoruyko & Komodakis 2016, sec. 4).
    if (model.family == engine::Family::kResNet && (model.cifar_stem || model.widen > 0)) return 128;
    switch (model.family) {
        // LLaMA-Factory's examples/train_lora/llama3_lora_sft.yaml: per_device_train_batch_size: 1 (with
        // gradient_accumulation_steps: 8); Unsloth's notebooks use 2.
        case engine::Family::kDecoder: return 1;
        // transformers TrainingArguments: per_device_train_batch_size defaults to 8 (BERT, RoBERTa fine-tunes).
        case engine::Family::kEncoder: return 8;
        // torchvision's references/classification/train.py: --batch-size defaults to 32 per GPU.
        case engine::Family::kResNet:
        case engine::Family::kVgg:
        case engine::Family::kMobileNetV2:
        case engine::Family::kEfficientNetB0:
        case engine::Family::kVit: return 32;
        // Ultralytics' default.yaml: batch: 16.
        case engine::Family::kYolo: return 16;
        // diffusers' text_to_image LoRA README runs --train_batch_size=1; milesial/Pytorch-UNet's train.py defaults
        // to --batch-size 1.
        case engine::Family::kSdUnet:
        case engine::Family::kUnet: return 1;
        // The BiLSTM-CRF tagger's PyTorch tutorial (Robert Guthrie, "Advanced: Making Dynamic Decisions and the
        // Bi-LSTM CRF") trains one sentence at a time.
        case engine::Family::kBiLstmCrf: return 1;
    }
    return 1;
}

bool switch_model(Scenario& s, const std::string& model_id, const Catalog& catalog, std::vector<Problem>& problems) {
    nlohmann::json doc = scenario_to_json(s);
    doc["model"] = model_id;
    // The model-dependent keys: left out so the parser gives the new model's defaults.
    for (const char* key : {"precision", "checkpointing", "frozen_weights_16bit", "seq_len", "image_size",
                            "precomputed_latents", "ema", "longest_seq_len", "memory_format"})
        doc.erase(key);
    doc["batch_size"] = 1;  // replaced below; 1 parses for every model
    ParsedScenario parsed = parse_scenario_json(doc, "scenario", &catalog);
    if (!parsed.problems.empty()) {
        problems = std::move(parsed.problems);
        return false;
    }
    parsed.scenario.batch_size = family_default_batch(parsed.scenario.model);
    s = std::move(parsed.scenario);
    return true;
}

}  // namespace gg::catalog
