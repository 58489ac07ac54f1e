// Workloads as layer graphs: what each layer holds (parameters), costs (forward FLOPs, bytes moved) and keeps
// for backward (saved tensors, deduplicated by storage the way PyTorch's autograd keeps them). Shapes are
// propagated from the image size / sequence length. Pure C++: no JSON, no UI. Built once per model and shape;
// the memory engine (memory.h) walks it many times.
//
// Sections: dtype rules and tensors | layers | the graph | model specs (families) | presets | building.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gg::engine {

// ---- dtype rules ---------------------------------------------------------------------------------------
// How many bytes an element of a saved tensor takes depends on the precision regime (memory.h resolves it).
enum class DtypeRule : std::uint8_t {
    kActivation,    // the regime's activation dtype: fp32 4 B; autocast (matmul/conv outputs) and pure bf16 2 B
    kAutocastFp32,  // output of an op on autocast's fp32 list (layer_norm, softmax, log_softmax...): 4 B under
                    // fp32 and autocast, 2 B under pure bf16 (torch/csrc/autograd/autocast_mode.cpp, fp32 list)
    kMatmulInput,   // the copy a matmul/conv saves of its input: compute dtype (2 B autocast/bf16, 4 B fp32).
                    // Under autocast an fp32 input is cast per op (the cast cache only holds leaf weights), so
                    // this is a new storage unless `source` already has the compute dtype.
    kFp32,          // always 4 B (BatchNorm/LayerNorm saved mean and rstd, RMSNorm rstd, logsumexp)
    kMask1,         // 1 B: CUDA native_dropout keeps a bool mask (aten/src/ATen/native/cuda/Dropout.cu)
    kInt64,         // 8 B: max-pool indices, token ids
    kBool,          // 1 B
};

// One storage that some layer saves for backward. Several layers may name the same tensor id (shared storage:
// ReLU's output saved by the next conv, in-place ops, views): it is counted once.
struct TensorInfo {
    double elements = 0;
    DtypeRule rule = DtypeRule::kActivation;
    std::int32_t source = -1;  // kMatmulInput only: the tensor it is a (possibly aliasing) copy of
    bool attention_core = false;  // the s x s tensors selective recomputation drops (Korthikanti 2022, sec. 4.2)
    bool tp_split = false;  // split across tensor-parallel ranks (heads or FFN width: Megatron's column-parallel
                            // outputs, Shoeybi et al. 2019 sec. 3); the rest of a block is replicated unless
                            // sequence parallelism splits it along the sequence (Korthikanti 2022, sec. 4.2.2)
    // Which implementation of a decoder block keeps the tensor (TrainingConfig::fused_block_kernels): transformers'
    // eager modules (kEager: the default walk) or Unsloth's fused autograd functions (kFused), which keep a different
    // set: Fast_RMS_Layernorm saves its input X and fp32 r (no fp32 copy of X), LoRA_MLP saves X, e and g (the SiLU
    // product h is recomputed in backward), fast_rope_embedding saves only the shared cos/sin tables
    // (unslothai/unsloth unsloth/kernels/rms_layernorm.py, fast_lora.py, rope_embedding.py @e3162dc5).
    enum class Kernels : std::uint8_t { kBoth, kEagerOnly, kFusedOnly } kept_by = Kernels::kBoth;
};

// Why a layer keeps a tensor: autograd only saves what the backward of inputs that require grad needs
// (tools/autograd/gen_variable_type.py guards each SavedVariable with should_compute_output).
enum class SavedFor : std::uint8_t {
    kWeightGrad,  // needed only if this layer's own weights are trainable (conv/linear input)
    kInputGrad,   // needed if anything upstream needs a gradient (ReLU output, softmax output, matmul operands)
    kAny,         // needed for either (BatchNorm/LayerNorm input and stats)
};

struct SavedRef {
    std::int32_t tensor = -1;
    SavedFor needed_for = SavedFor::kAny;
};

// ---- layers --------------------------------------------------------------------------------------------
enum class OpKind : std::uint8_t {
    kMatmul,       // Linear / Conv / batched matmul: compute-bound (tensor cores)
    kAttention,    // fused SDPA/flash attention (matmul FLOPs, O(s) memory)
    kElementwise,  // activations, adds, dropout, scaling: bandwidth-bound
    kNorm,         // BatchNorm, LayerNorm, RMSNorm, GroupNorm: bandwidth-bound
    kReduction,    // pooling, softmax, loss: bandwidth-bound
    kEmbedding,    // gather: bandwidth-bound
};

// Which module a parameterised layer is (for trainability under a method and LoRA targets).
enum class ParamRole : std::uint8_t {
    kNone, kEmbedding, kNorm, kConv, kQ, kK, kV, kQkv, kO, kGate, kUp, kDown, kFc1, kFc2, kHead, kOther, kRouter,
    kGateUp,  // Phi-3's fused gate_up_proj (gate and up in one Linear)
    kQa, kQb, kKvA, kKvB,  // MLA (DeepSeek-V2/V3): q_a_proj, q_b_proj, kv_a_proj_with_mqa, kv_b_proj
};

struct Layer {
    std::string name;          // "layer3.1.conv2", "h.5.attn.c_attn"
    OpKind kind = OpKind::kElementwise;
    ParamRole role = ParamRole::kNone;
    bool backbone = true;        // false for the task head (trainable under frozen-backbone)
    double params = 0;           // parameter elements (weights + biases); 0 for a tied weight counted elsewhere
    bool tied = false;           // uses another layer's weight (GPT-2/Llama-3.2 lm_head = embedding): trainable
                                 // with it, but its elements are counted once, at the embedding
    double matmul_weight_params = 0;  // elements of weights used by a matmul/conv (autocast copies, LoRA base)
    int in_features = 0, out_features = 0;  // for LoRA on Linear layers (0 = not a Linear)
    double tokens = 0;           // rows a Linear sees per micro-batch (b*s or b): LoRA activations scale with it
    double forward_flop = 0;     // per micro-batch, 2 FLOP per multiply-add
    double bytes_moved_elements = 0;  // elements read + written by a bandwidth-bound op (times dtype bytes)
    // Parameter tensors (as in model.parameters()): a for-loop optimizer launches its kernels once per tensor, and
    // Adafactor factors the matrices (>= 2 dims) only. 0 for a tied weight counted at its owner.
    std::int32_t param_matrices = 0, param_vectors = 0;
    std::int32_t block = -1;     // the repeated block this layer belongs to (-1 = outside): checkpointing unit
    std::vector<SavedRef> saved;
    double transient_elements = 0;  // extra buffer alive only while this op runs (forward), e.g. fp32 logits
    // Conv2d only (0 elsewhere): groups, kernel size k (k x k), stride, input channels and width; the time engine
    // picks the depthwise kernel PyTorch runs from them (time_prepare.cpp depthwise_backend).
    std::int32_t conv_groups = 0, conv_kernel = 0, conv_stride = 0, conv_in_channels = 0, conv_in_width = 0;
    std::int32_t experts = 1;    // MoE: params are this many copies; activations/FLOPs use top_k of them
    bool tp_split = false;       // Megatron tensor parallelism splits its weights, FLOPs and traffic across the
                                 // ranks (column/row-parallel Linear, attention heads, vocab-parallel embedding
                                 // and head); false = replicated on every rank (norms, residual adds, dropout)
};

// ---- the graph -----------------------------------------------------------------------------------------
struct Graph {
    std::vector<TensorInfo> tensors;
    std::vector<Layer> layers;          // in forward order
    std::int32_t block_count = 0;
    double batch = 1;                   // the micro-batch the graph was built for (element counts scale with it)
    double logits_elements = 0;         // b x s x vocab (or b x classes): fp32 loss temporaries
    bool logits_tp_split = false;       // the logits are split across tensor-parallel ranks (vocab-parallel head)
    double largest_param_tensor = 0;    // elements of the largest single parameter tensor (ZeRO-3 gather)
    std::vector<std::int32_t> block_inputs;  // per block: the tensor torch.utils.checkpoint keeps (its input)
    // SD pipelines: the frozen VAE and text encoders the scripts put on the GPU (not in params_total), in the
    // scripts' weight dtype, and those kept in fp32 whatever it is (SDXL's VAE); the largest activation bytes per
    // sample the VAE encoder's forward holds at once (per element; x 2 or 4 bytes).
    double input_encoder_params = 0, input_encoder_fp32_params = 0;
    double input_encoder_transient_elements = 0;
    // Under eager attention: the values the VAE mid-block's attention holds at once in fp32 whatever the VAE's dtype
    // (its softmax is upcast: scores and probabilities, 2 x T^2 per sample); 0 with fused attention.
    double input_encoder_attention_fp32_elements = 0;
    double params_total() const;
    double param_tensor_count() const;  // len(list(model.parameters()))
    double param_matrix_count() const;  // those with >= 2 dims
};

// ---- model specs ---------------------------------------------------------------------------------------
enum class Family : std::uint8_t {
    kResNet, kVgg, kMobileNetV2, kEfficientNetB0, kVit, kEncoder, kDecoder, kUnet, kYolo, kSdUnet, kBiLstmCrf,
};

// kGelu: one fused kernel that keeps its input (F.gelu, also approximate="tanh": derivatives.yaml gelu); kGeluTanhPython:
// transformers' NewGELUActivation written out in Python ops; kQuickGelu: CLIP's x * sigmoid(1.702 x).
enum class Activation : std::uint8_t { kGelu, kGeluTanhPython, kRelu, kSilu, kQuickGelu };
enum class NormKind : std::uint8_t { kLayerNorm, kRmsNorm };
enum class PositionKind : std::uint8_t { kLearned, kRope };

struct ModelSpec {
    std::string id;       // preset id or "custom"
    std::string name;     // "ResNet-50 (torchvision)"
    std::string source;   // where the architecture / parameter count comes from
    Family family = Family::kDecoder;
    bool is_vision = false;       // takes image_size; else seq_len
    int default_image_size = 0;   // vision
    int default_seq_len = 0;      // sequence
    double reference_params = 0;  // the parameter count of the reference implementation (0 = not recorded)
    std::string reference_source; // where that count is published
    bool available = true;        // false: listed preset whose layer graph is not implemented yet
    // The dtype the checkpoint is saved in (config.json "torch_dtype", "dtype" since transformers v5): "float16",
    // "bfloat16" or "float32"; "" = not given. transformers v5 loads it as saved by default (dtype="auto").
    std::string checkpoint_dtype;

    // transformer (encoder, decoder, vit)
    int layers = 0, hidden = 0, heads = 0, kv_heads = 0, ffn = 0, vocab = 0, head_dim = 0;
    bool glu = false, tied_embeddings = false, bias = false, qkv_bias = false, qkv_fused = false;
    NormKind norm = NormKind::kLayerNorm;
    PositionKind position = PositionKind::kLearned;
    Activation activation = Activation::kGelu;
    int max_positions = 0, type_vocab = 0, num_labels = 0;
    int experts = 1, top_k = 1;
    double dropout = 0;           // hidden/attention dropout probability (0 = no masks)
    int embedding_size = 0;       // ALBERT factorised embedding (0 = hidden)
    bool shared_layers = false;   // ALBERT cross-layer sharing
    bool final_norm = true;
    bool pooler = false;          // BERT pooler
    bool lm_head = true;          // decoder: vocabulary head and loss

    // Hugging Face config.json models (catalog/hf_config.cpp) that the presets' shapes do not cover. The defaults
    // leave the presets' graphs as they were.
    // Module names of the model's own Linears, by role, as a path below the block (".attention.query_key_value");
    // a role not listed keeps the builder's name. LoRA targets are matched against the last part (as PEFT does).
    std::vector<std::pair<ParamRole, std::string>> module_names;
    std::string shared_expert_prefix = ".mlp.shared_experts";  // DeepSeek; Qwen2-MoE: ".mlp.shared_expert"
    bool parallel_residual = false;   // GPT-NeoX, Falcon: x + attn(ln1(x)) + mlp(ln2(x)) (modeling_gpt_neox.py)
    bool parallel_shared_norm = false;  // Falcon-7B/-40B's first layout: one LayerNorm feeds attention and MLP
    // Rotary positions on the first int(head_dim x rotary_fraction) of each head, the rest passed through
    // (GPT-NeoX rotary_pct, Phi partial_rotary_factor): the muls keep cos and sin of that width only.
    double rotary_fraction = 1;
    // Phi (modeling_phi.py): embd_pdrop on the embeddings and attention_dropout on the attention probabilities are
    // their own probabilities, and `dropout` is resid_pdrop (the attention and MLP outputs). false: dropout is all.
    bool split_dropout = false;
    double embedding_dropout = 0, attention_dropout = 0;
    bool lm_head_bias = false;        // Phi: lm_head = nn.Linear(hidden, vocab, bias=True)
    // Phi's code is Llama's with LayerNorm: eager_attention_forward's softmax(dtype=float32).to(q.dtype) and the
    // loss's logits.float(), as the RMSNorm decoders (a LayerNorm decoder otherwise follows GPT-2's typed softmax).
    bool llama_upcasts = false;
    bool qk_norm = false;             // Qwen3, Gemma 3: RMSNorm over each head of q and k (head_dim weights each)
    bool sandwich_norm = false;       // Gemma 2/3: RMSNorm on the attention and MLP outputs too (4 per block)
    bool gate_up_fused = false;       // Phi-3: gate_up_proj = one Linear to 2 x ffn, chunked
    bool separate_qkv = false;        // ViT: q, k, v Linears (Hugging Face ViT) instead of torchvision's in_proj
    // Sliding-window attention: the keys a query sees in the layers that slide (0 = none), and which layers do
    // (empty = every layer; else layer i slides when sliding_layers[i] is 1). Fused attention computes only the window
    // (flash-attn window_size); eager attention computes every score and masks (transformer_block).
    int sliding_window = 0;
    std::vector<std::uint8_t> sliding_layers;
    // Gemma 2 soft-capping (modeling_gemma2.py): cap * tanh(x / cap) on the attention scores (eager) and on the
    // logits; tanh saves its output, one more scores tensor per layer and one more logits tensor (0 = none).
    double attn_logit_softcapping = 0, final_logit_softcapping = 0;
    int moe_ffn = 0;                  // an expert's intermediate size (0 = ffn); ffn is then the dense layers' width
    int shared_expert_ffn = 0;        // always-on shared expert MLP width (DeepSeek n_shared x moe_ffn; Qwen2-MoE)
    bool shared_expert_gate = false;  // Qwen2-MoE: sigmoid(Linear(h, 1)) scales the shared expert
    bool router_bias = false;         // DeepSeek-V3: e_score_correction_bias (one value per expert)
    bool moe_renormalize = false;     // top-k weights divided by their sum (Mixtral always; norm_topk_prob)
    int first_dense_layers = 0;       // DeepSeek first_k_dense_replace: the first layers keep a dense MLP
    int moe_layer_step = 1;           // Qwen-MoE decoder_sparse_step: layer i is MoE when (i + 1) % step == 0
    bool k_bias = true;               // false: k_proj has no bias where q and v have one (Whisper)
    bool patch_bias = true;           // ViT patch conv bias (CLIP's vision tower has none)
    bool embed_norm = false;          // CLIP vision: LayerNorm on the embeddings before the layers (pre_layrnorm)
    // OPT (modeling_opt.py): OPT-350m's blocks are post-LN (do_layer_norm_before false: x = LN(x + sublayer(x)), as
    // BERT's), and its token embeddings and tied lm_head are word_embed_proj_dim wide (512) with project_in and
    // project_out Linears (no bias) to and from the hidden width. 0 = hidden (no projections).
    bool post_norm = false;
    int word_embed_proj_dim = 0;
    // Encoder-decoder (Whisper, modeling_whisper.py): an audio encoder (two GELU conv1d over num_mel_bins x 2S
    // frames, the second of stride 2, S frozen sinusoidal positions, pre-LN layers, LayerNorm) whose output every
    // decoder layer reads through cross-attention. encoder_layers 0 = decoder only.
    int encoder_layers = 0, encoder_positions = 0, mel_bins = 0;
    // Multi-head latent attention (DeepSeek-V2 sec. 2.1.2; modeling_deepseek.py): kv_lora_rank > 0 turns it on.
    int q_lora_rank = 0, kv_lora_rank = 0, qk_nope_head_dim = 0, qk_rope_head_dim = 0, v_head_dim = 0;

    // vision
    int image_size = 0, patch = 0, classes = 0;
    std::vector<int> depths;      // resnet stages
    bool bottleneck = false;
    int width = 64;
    // resnet variants students train on CIFAR (issue 42). cifar_stem: a 3x3 stride-1 stem and no max-pool
    // (github.com/kuangliu/pytorch-cifar models/resnet.py). widen > 0: Wide-ResNet-d-k (Zagoruyko & Komodakis 2016,
    // arXiv:1605.07146): pre-activation basic blocks, wide_depth = 6n + 4, widths 16k, 32k, 64k, dropout
    // block_dropout between a block's two convolutions.
    bool cifar_stem = false;
    int widen = 0;
    int wide_depth = 0;
    double block_dropout = 0;
    double width_multiple = 1, depth_multiple = 1;  // yolo
    int yolo_version = 8;
    int yolo_max_channels = 1024;  // YOLOv8 scales cap channels before the width multiple
    int in_channels = 3;
    // unet / sd-unet
    std::vector<int> channel_mult;
    int base_channels = 64;
    int unet_depth = 4;           // U-Net down/up steps
    int context_dim = 0;          // sd cross-attention
    std::vector<int> transformer_depth;  // SD UNets: transformer layers per level (0 = no attention)
    std::vector<int> attention_heads;    // SD UNets: heads per level
    int mid_transformer_depth = 1;       // SD UNets: transformer layers in the mid block
    bool linear_projection = false;      // SD UNets: proj_in/proj_out are Linear (SDXL) instead of 1x1 conv
    int addition_embed_dim = 0;          // SDXL add_embedding input (text_time: 2816)
    int latent_channels = 4;
    // SD pipelines: the frozen networks diffusers' training scripts (train_text_to_image*.py, train_dreambooth*.py)
    // run forward on every step before the UNet: the VAE encoder (vae.encode(pixels)) and the text encoders.
    int vae_base_channels = 0;           // AutoencoderKL block_out_channels[0] (128 x 1/2/4/4); 0 = no VAE
    bool vae_fp32 = false;               // the scripts keep the VAE in fp32 whatever the mixed precision (SDXL)
    bool full_finetune_precomputes = false;  // the full fine-tune script encodes the dataset once first (SDXL)
    struct TextEncoder { int layers = 0, hidden = 0, heads = 0, ffn = 0, vocab = 0; bool projection = false; };
    std::vector<TextEncoder> text_encoders;  // CLIP text transformers, 77 tokens each
    // bilstm-crf
    int embed_dim = 0, lstm_hidden = 0, tags = 0;
};

// The family's stable name in JSON ("resnet", "decoder", "diffusion-unet", ...).
const char* family_name(Family family);
// Decoder, encoder and ViT: the families LoRA targets and Megatron-style tensor/pipeline parallelism apply to.
bool is_transformer(Family family);

// Megatron-LM's split of a transformer's Linears (Shoeybi et al. 2019, sec. 3): column-parallel ones (QKV, FC1,
// gate, up) split their output features, row-parallel ones (output projection, FC2, down) their input features and
// add their bias after the all-reduce.
bool is_column_parallel(ParamRole role);
bool is_row_parallel(ParamRole role);

// ---- presets and building ------------------------------------------------------------------------------
// The presets are data (data/models.json, read by the catalog: these two are defined in catalog/models.cpp, which
// links with every program that uses them; the engine itself never calls them).
const std::vector<ModelSpec>& preset_models();             // every preset id, in the file's order
const ModelSpec* find_preset(const std::string& id);       // nullptr when unknown

// Shape the graph is built for: image_size for vision models, seq_len for sequence models.
struct WorkloadShape {
    double batch = 1;
    int image_size = 0;
    int seq_len = 0;
};

// Build options that change what is saved (not just how many bytes).
struct BuildOptions {
    bool eager_attention = false;  // true: keep the s x s scores, softmax and dropout mask; false: SDPA/flash
};

Graph build_graph(const ModelSpec& spec, const WorkloadShape& shape, const BuildOptions& options);

// The frozen input encoders of an SD pipeline (ModelSpec::vae_base_channels, text_encoders) as a graph, all layers
// frozen (backbone), for a forward-only pass per sample: the VAE encoder, the text encoders, or both; an empty graph
// for models without them.
enum class InputEncoders : std::uint8_t { kAll, kVae, kText };
Graph build_input_encoders(const ModelSpec& spec, const WorkloadShape& shape, const BuildOptions& options,
                           InputEncoders which = InputEncoders::kAll);
bool has_input_encoders(const ModelSpec& spec);
// Their parameters (the whole VAE, decoder included, as the scripts move it to the GPU, and the text encoders).
double input_encoder_params(const ModelSpec& spec);

// Parameter count without building the activations (cheap; equal to build_graph(...).params_total()).
double count_params(const ModelSpec& spec);

}  // namespace gg::engine
