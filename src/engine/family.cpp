// The model families' stable names. The preset models themselves are data (data/models.json, read by
// catalog/models.cpp); the builders are in workload_*.cpp (build_graph in workload.cpp dispatches to them).

#include "engine/workload.h"

namespace gg::engine {

const char* family_name(Family f) {
    switch (f) {
        case Family::kResNet: return "resnet";
        case Family::kVgg: return "vgg";
        case Family::kMobileNetV2: return "mobilenet";
        case Family::kEfficientNetB0: return "efficientnet";
        case Family::kVit: return "vit";
        case Family::kEncoder: return "encoder";
        case Family::kDecoder: return "decoder";
        case Family::kUnet: return "unet";
        case Family::kYolo: return "yolo";
        case Family::kSdUnet: return "diffusion-unet";
        case Family::kBiLstmCrf: return "bilstm-crf";
    }
    return "custom";
}

}  // namespace gg::engine
