// The preset models: architecture hyper-parameters copied from the reference implementations (torchvision 0.14
// constructors; Hugging Face config.json files, as listed in tools/measure/configs.py). Data only; the builders
// are in workload.cpp. Reference parameter counts are the ones the reference implementation reports.
#include <cassert>
#include <cstdio>

#include "engine/workload.h"

namespace gg::engine {
namespace {

ModelSpec vision(const char* id, const char* name, Family f, double ref, std::string source) {
    ModelSpec m;
    m.id = id;
    m.name = name;
    m.family = f;
    m.is_vision = true;
    m.default_image_size = 224;
    m.classes = 1000;
    m.reference_params = ref;
    m.source = std::move(source);
    return m;
}

ModelSpec resnet(const char* id, const char* name, std::vector<int> depths, bool bottleneck, double ref) {
    ModelSpec m = vision(id, name, Family::kResNet, ref,
                         "torchvision 0.14 models/resnet.py; num_params from the IMAGENET1K_V1 weights' meta");
    m.depths = std::move(depths);
    m.bottleneck = bottleneck;
    return m;
}

ModelSpec vit(const char* id, const char* name, int layers, int hidden, int heads, int ffn, double ref) {
    ModelSpec m = vision(id, name, Family::kVit, ref,
                         "torchvision 0.14 models/vision_transformer.py; num_params from IMAGENET1K_V1 meta");
    m.patch = 16;
    m.image_size = 224;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.ffn = ffn;
    return m;
}

ModelSpec encoder(const char* id, const char* name, int layers, int hidden, int heads, int ffn, int vocab, int max_pos,
                  int type_vocab, const char* source) {
    ModelSpec m;
    m.id = id;
    m.name = name;
    m.family = Family::kEncoder;
    m.default_seq_len = 512;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.ffn = ffn;
    m.vocab = vocab;
    m.max_positions = max_pos;
    m.type_vocab = type_vocab;
    m.num_labels = 2;  // *ForSequenceClassification with 2 labels (adds h*2+2 parameters to the base model)
    m.pooler = true;
    m.dropout = 0.1;
    m.bias = true;
    m.source = source;
    return m;
}

ModelSpec gpt2(const char* id, const char* name, int layers, int hidden, int heads) {
    ModelSpec m;
    m.id = id;
    m.name = name;
    m.family = Family::kDecoder;
    m.default_seq_len = 1024;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kv_heads = heads;
    m.ffn = 4 * hidden;
    m.vocab = 50257;
    m.max_positions = 1024;
    m.tied_embeddings = true;
    m.bias = true;
    m.qkv_fused = true;
    m.norm = NormKind::kLayerNorm;
    m.position = PositionKind::kLearned;
    m.activation = Activation::kGeluTanhPython;
    m.dropout = 0.1;
    m.source = std::string("Hugging Face openai-community/") + id + " config.json; transformers v4.39 modeling_gpt2.py";
    return m;
}

ModelSpec llama(const char* id, const char* name, const char* repo, int layers, int hidden, int heads, int kv_heads,
                int ffn, int vocab, bool tied, bool qkv_bias = false, int experts = 1, int top_k = 1) {
    ModelSpec m;
    m.id = id;
    m.name = name;
    m.family = Family::kDecoder;
    m.default_seq_len = 2048;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kv_heads = kv_heads;
    m.ffn = ffn;
    m.vocab = vocab;
    m.tied_embeddings = tied;
    m.qkv_bias = qkv_bias;
    m.glu = true;
    m.norm = NormKind::kRmsNorm;
    m.position = PositionKind::kRope;
    m.activation = Activation::kSilu;
    m.experts = experts;
    m.top_k = top_k;
    m.source = std::string("Hugging Face ") + repo + " config.json; transformers v4.39 modeling_llama.py";
    return m;
}

std::vector<ModelSpec> make_presets() {
    std::vector<ModelSpec> p;
    p.push_back(resnet("resnet18", "ResNet-18", {2, 2, 2, 2}, false, 11689512));
    p.push_back(resnet("resnet34", "ResNet-34", {3, 4, 6, 3}, false, 21797672));
    p.push_back(resnet("resnet50", "ResNet-50", {3, 4, 6, 3}, true, 25557032));
    p.push_back(resnet("resnet101", "ResNet-101", {3, 4, 23, 3}, true, 44549160));
    p.push_back(vision("vgg16", "VGG-16", Family::kVgg, 138357544,
                       "torchvision 0.14 models/vgg.py (cfg D, no BN); num_params from IMAGENET1K_V1 meta"));
    p.push_back(vision("mobilenet-v2", "MobileNetV2", Family::kMobileNetV2, 3504872,
                       "torchvision 0.14 models/mobilenetv2.py; num_params from IMAGENET1K_V1 meta"));
    p.push_back(vision("efficientnet-b0", "EfficientNet-B0", Family::kEfficientNetB0, 5288548,
                       "torchvision 0.14 models/efficientnet.py; num_params from IMAGENET1K_V1 meta"));
    {
        // Ultralytics prints a model summary before fusing (Conv2d + BatchNorm2d weight and bias) and after
        // (BatchNorm folded into a conv bias: one parameter per BN channel fewer); the engine counts the unfused
        // model that trains. Fused counts are checked in tests/engine/test_memory.cpp through the BN channels.
        struct Scale { const char* id; const char* name; double depth, width; int max_channels; double params;
                       const char* summary; };
        auto multiples = [](const Scale& s) {
            char text[48];
            std::snprintf(text, sizeof text, "depth %.2f, width %.2f", s.depth, s.width);
            return std::string(text);
        };
        const Scale v5[] = {
            {"yolov5n", "YOLOv5n", 0.33, 0.25, 1024, 1872157,
             "'YOLOv5n summary: 214 layers, 1872157 parameters' (fused: 157 layers, 1867405)"},
            {"yolov5s", "YOLOv5s", 0.33, 0.50, 1024, 7235389,
             "'YOLOv5s summary: 214 layers, 7235389 parameters' (fused: 213 layers, 7225885)"},
            {"yolov5m", "YOLOv5m", 0.67, 0.75, 1024, 21190557,
             "fused 'YOLOv5m summary: 212 layers, 21172173 parameters' + its 18384 BatchNorm channels"},
            {"yolov5l", "YOLOv5l", 1.00, 1.00, 1024, 46563709,
             "'YOLOv5l summary: 368 layers, 46563709 parameters' (fused: 267 layers, 46533693)"},
            {"yolov5x", "YOLOv5x", 1.33, 1.25, 1024, 86749405,
             "fused 'YOLOv5x summary: 322 layers, 86705005 parameters' + its 44400 BatchNorm channels"},
        };
        for (const Scale& s : v5) {
            ModelSpec m = vision(s.id, s.name, Family::kYolo, s.params,
                                 std::string("ultralytics/yolov5 v6+ models/") + s.id + ".yaml (" + multiples(s) +
                                     ", 80 classes); " + s.summary);
            m.yolo_version = 5;
            m.width_multiple = s.width;
            m.depth_multiple = s.depth;
            m.classes = 80;
            m.default_image_size = 640;
            p.push_back(m);
        }
        // yolov8.yaml `scales: [depth, width, max_channels]`, each with its 'YOLOv8? summary' comment (unfused).
        const Scale v8[] = {
            {"yolov8n", "YOLOv8n", 0.33, 0.25, 1024, 3157200, "'YOLOv8n summary: 225 layers, 3157200 parameters'"},
            {"yolov8s", "YOLOv8s", 0.33, 0.50, 1024, 11166560, "'YOLOv8s summary: 225 layers, 11166560 parameters'"},
            {"yolov8m", "YOLOv8m", 0.67, 0.75, 768, 25902640, "'YOLOv8m summary: 295 layers, 25902640 parameters'"},
            {"yolov8l", "YOLOv8l", 1.00, 1.00, 512, 43691520, "'YOLOv8l summary: 365 layers, 43691520 parameters'"},
            {"yolov8x", "YOLOv8x", 1.00, 1.25, 512, 68229648, "'YOLOv8x summary: 365 layers, 68229648 parameters'"},
        };
        for (const Scale& s : v8) {
            ModelSpec m = vision(s.id, s.name, Family::kYolo, s.params,
                                 std::string("ultralytics cfg/models/v8/yolov8.yaml scale ") + (s.id + 6) + " (" +
                                     multiples(s) + ", max channels " + std::to_string(s.max_channels) +
                                     ", 80 classes); " + s.summary);
            m.yolo_version = 8;
            m.width_multiple = s.width;
            m.depth_multiple = s.depth;
            m.yolo_max_channels = s.max_channels;
            m.classes = 80;
            m.default_image_size = 640;
            p.push_back(m);
        }
    }
    {
        ModelSpec m = vision("unet", "U-Net", Family::kUnet, 0,
                             "Ronneberger et al. 2015, U-Net (MICCAI); layout of milesial/Pytorch-UNet unet_model.py "
                             "(BN, transposed-conv up path, 3 input channels, 2 classes)");
        m.classes = 2;
        m.default_image_size = 256;
        m.base_channels = 64;
        p.push_back(m);
    }
    p.push_back(vit("vit-b-16", "ViT-B/16", 12, 768, 12, 3072, 86567656));
    p.push_back(vit("vit-l-16", "ViT-L/16", 24, 1024, 16, 4096, 304326632));
    p.push_back(encoder("bert-base", "BERT-base (uncased)", 12, 768, 12, 3072, 30522, 512, 2,
                        "Hugging Face google-bert/bert-base-uncased config.json; BertForSequenceClassification"));
    p.push_back(encoder("bert-large", "BERT-large (uncased)", 24, 1024, 16, 4096, 30522, 512, 2,
                        "Hugging Face google-bert/bert-large-uncased config.json; BertForSequenceClassification"));
    {
        ModelSpec m = encoder("albert-base", "ALBERT-base v2", 12, 768, 12, 3072, 30000, 512, 2,
                              "Hugging Face albert/albert-base-v2 config.json (dropout 0, gelu_new, E = 128, shared "
                              "layers); AlbertForSequenceClassification");
        m.embedding_size = 128;
        m.shared_layers = true;
        m.dropout = 0;
        m.activation = Activation::kGeluTanhPython;
        p.push_back(m);
    }
    p.push_back(encoder("roberta-base", "RoBERTa-base", 12, 768, 12, 3072, 50265, 514, 1,
                        "Hugging Face FacebookAI/roberta-base config.json (pooler kept as in RobertaModel)"));
    p.push_back(gpt2("gpt2", "GPT-2 (124M)", 12, 768, 12));
    p.push_back(gpt2("gpt2-medium", "GPT-2 Medium", 24, 1024, 16));
    p.push_back(gpt2("gpt2-large", "GPT-2 Large", 36, 1280, 20));
    p.push_back(gpt2("gpt2-xl", "GPT-2 XL", 48, 1600, 25));
    p.push_back(llama("llama-2-7b", "Llama 2 7B", "meta-llama/Llama-2-7b-hf", 32, 4096, 32, 32, 11008, 32000, false));
    p.push_back(llama("llama-2-13b", "Llama 2 13B", "meta-llama/Llama-2-13b-hf", 40, 5120, 40, 40, 13824, 32000, false));
    p.push_back(llama("llama-2-70b", "Llama 2 70B", "meta-llama/Llama-2-70b-hf", 80, 8192, 64, 8, 28672, 32000, false));
    p.push_back(llama("llama-3.1-8b", "Llama 3.1 8B", "meta-llama/Llama-3.1-8B", 32, 4096, 32, 8, 14336, 128256, false));
    p.push_back(llama("llama-3.1-70b", "Llama 3.1 70B", "meta-llama/Llama-3.1-70B", 80, 8192, 64, 8, 28672, 128256, false));
    p.push_back(llama("llama-3.2-1b", "Llama 3.2 1B", "meta-llama/Llama-3.2-1B", 16, 2048, 32, 8, 8192, 128256, true));
    p.push_back(llama("llama-3.2-3b", "Llama 3.2 3B", "meta-llama/Llama-3.2-3B", 28, 3072, 24, 8, 8192, 128256, true));
    p.push_back(llama("qwen2.5-0.5b", "Qwen2.5 0.5B", "Qwen/Qwen2.5-0.5B", 24, 896, 14, 2, 4864, 151936, true, true));
    p.push_back(llama("qwen2.5-1.5b", "Qwen2.5 1.5B", "Qwen/Qwen2.5-1.5B", 28, 1536, 12, 2, 8960, 151936, true, true));
    p.push_back(llama("qwen2.5-7b", "Qwen2.5 7B", "Qwen/Qwen2.5-7B", 28, 3584, 28, 4, 18944, 152064, false, true));
    p.push_back(llama("qwen2.5-14b", "Qwen2.5 14B", "Qwen/Qwen2.5-14B", 48, 5120, 40, 8, 13824, 152064, false, true));
    p.push_back(llama("qwen2.5-32b", "Qwen2.5 32B", "Qwen/Qwen2.5-32B", 64, 5120, 40, 8, 27648, 152064, false, true));
    p.push_back(llama("qwen2.5-72b", "Qwen2.5 72B", "Qwen/Qwen2.5-72B", 80, 8192, 64, 8, 29568, 152064, false, true));
    p.push_back(llama("mistral-7b", "Mistral 7B v0.1", "mistralai/Mistral-7B-v0.1", 32, 4096, 32, 8, 14336, 32000, false));
    p.push_back(llama("mixtral-8x7b", "Mixtral 8x7B v0.1", "mistralai/Mixtral-8x7B-v0.1", 32, 4096, 32, 8, 14336, 32000,
                      false, false, 8, 2));
    {
        ModelSpec m = vision("sd-1.5", "Stable Diffusion 1.5 UNet", Family::kSdUnet, 859520964,
                             "runwayml/stable-diffusion-v1-5 unet/config.json (diffusers UNet2DConditionModel: "
                             "block_out_channels 320/640/1280/1280, 8 heads, cross_attention_dim 768); "
                             "859,520,964 parameters");
        m.default_image_size = 512;
        m.channel_mult = {320, 640, 1280, 1280};
        m.transformer_depth = {1, 1, 1, 0};
        m.attention_heads = {8, 8, 8, 8};
        m.context_dim = 768;
        m.latent_channels = 4;
        // vae/config.json (AutoencoderKL, 83,653,863 parameters) and text_encoder/config.json (CLIPTextModel,
        // openai/clip-vit-large-patch14: 12 layers, 768 wide, 12 heads, 3072 MLP, 49408 tokens; 123,060,480).
        m.vae_base_channels = 128;
        m.text_encoders = {{12, 768, 12, 3072, 49408, false}};
        p.push_back(m);
        m.id = "sdxl-unet";
        m.name = "SDXL UNet";
        m.reference_params = 2567463684;
        m.source = "stabilityai/stable-diffusion-xl-base-1.0 unet/config.json (block_out_channels 320/640/1280, "
                   "transformer_layers_per_block 1/2/10 with no attention at level 0, heads 5/10/20, "
                   "cross_attention_dim 2048, linear projections, text_time embedding 2816); 2,567,463,684 parameters";
        m.default_image_size = 1024;
        m.channel_mult = {320, 640, 1280};
        m.transformer_depth = {0, 2, 10};
        m.attention_heads = {5, 10, 20};
        m.context_dim = 2048;
        m.linear_projection = true;
        m.addition_embed_dim = 2816;
        m.mid_transformer_depth = 10;
        // SDXL keeps SD's VAE shape and adds OpenCLIP ViT-bigG/14 (text_encoder_2/config.json,
        // CLIPTextModelWithProjection: 32 layers, 1280 wide, 20 heads, 5120 MLP; 694,659,840 parameters).
        m.text_encoders = {{12, 768, 12, 3072, 49408, false}, {32, 1280, 20, 5120, 49408, true}};
        // diffusers' SDXL scripts keep the VAE in fp32 ("The VAE is in float32 to avoid NaN losses":
        // examples/text_to_image/train_text_to_image_lora_sdxl.py @23cf7123, unless another VAE is given), and the
        // full fine-tune (train_text_to_image_sdxl.py @49e40ef6) maps compute_vae_encodings and
        // encode_prompt over the dataset before training, then deletes the VAE and text encoders.
        m.vae_fp32 = true;
        m.full_finetune_precomputes = true;
        p.push_back(m);
    }
    {
        // Word-level BiLSTM-CRF tagger of Lample et al. 2016 (arXiv 1603.01360, sec. 2 and 4): 100-d word
        // embeddings, one bidirectional LSTM layer of 100 units per direction, dropout 0.5 on the embeddings
        // before the LSTM, a linear layer to tag scores, a CRF. Their character-level BiLSTM (25 + 25 units) is
        // not included. Sizes: vocabulary = GloVe 6B (400,000 rows, nlp.stanford.edu/projects/glove; 100-d
        // vectors, fine-tuned); tags = CoNLL-2003 English NER in IOB2, 9 classes (TFDS conll2003 'ner'
        // num_classes=9; Hugging Face eriktks/conll2003 ner_tags). Parameters (torch.nn.LSTM, pytorch-crf 0.7):
        // embedding 400000*100 = 40,000,000; LSTM 2 * (4*100*(100+100) + 8*100) = 161,600; Linear(200, 9)
        // = 1,809; CRF 9*9 + 2*9 = 99; total 40,163,508.
        ModelSpec m;
        m.id = "bilstm-crf";
        m.name = "BiLSTM-CRF";
        m.family = Family::kBiLstmCrf;
        m.default_seq_len = 128;
        m.vocab = 400000;
        m.embed_dim = 100;
        m.lstm_hidden = 100;
        m.tags = 9;
        m.dropout = 0.5;
        m.source = "Lample et al. 2016, Neural Architectures for Named Entity Recognition (arXiv 1603.01360), "
                   "word-level LSTM-CRF without the character BiLSTM: 100-d embeddings, 1 BiLSTM layer of 100 units "
                   "per direction, dropout 0.5, Linear to tags, CRF (pytorch-crf 0.7: transitions + start/end). "
                   "Vocabulary 400,000 = GloVe 6B (nlp.stanford.edu/projects/glove); 9 tags = CoNLL-2003 NER in "
                   "IOB2 (TFDS conll2003). 40,163,508 parameters by hand (40,000,000 of them the embedding)";
        p.push_back(m);
    }
    return p;
}

}  // namespace

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

const std::vector<ModelSpec>& preset_models() {
    static const std::vector<ModelSpec> presets = make_presets();
    return presets;
}

const ModelSpec* find_preset(const std::string& id) {
    for (const ModelSpec& m : preset_models())
        if (m.id == id) return &m;
    return nullptr;
}

}  // namespace gg::engine
