// Memory engine from first principles: parameter counts of the presets, byte tables per precision/optimizer,
// Korthikanti et al. 2022's activation formula, checkpointing, sharding, the solver. No validation files here.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/memory.h"

using namespace gg::engine;

namespace {

Graph graph_of(const ModelSpec& m, int seq_or_image, bool eager = false) {
    WorkloadShape s;
    s.batch = 1;
    (m.is_vision ? s.image_size : s.seq_len) = seq_or_image;
    BuildOptions o;
    o.eager_attention = eager;
    return build_graph(m, s, o);
}

ModelSpec gpt_layer_spec(int layers, int hidden, int heads) {
    ModelSpec m;
    m.id = "custom";
    m.family = Family::kDecoder;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kv_heads = heads;
    m.ffn = 4 * hidden;
    m.vocab = 1000;
    m.max_positions = 4096;
    m.bias = true;
    m.tied_embeddings = true;
    m.norm = NormKind::kLayerNorm;
    m.position = PositionKind::kLearned;
    m.activation = Activation::kGelu;
    m.dropout = 0.1;
    return m;
}

}  // namespace

TEST_CASE("preset parameter counts equal the reference implementations") {
    // torchvision 0.14 weights meta["num_params"]; Hugging Face model cards / num_parameters().
    struct Known { const char* id; double params; };
    const Known known[] = {
        {"resnet18", 11689512},       {"resnet50", 25557032},        {"vgg16", 138357544},
        {"mobilenet-v2", 3504872},    {"efficientnet-b0", 5288548},  {"vit-b-16", 86567656},
        {"vit-l-16", 304326632},      {"gpt2", 124439808},           {"gpt2-xl", 1557611200},
        {"llama-2-7b", 6738415616},   {"llama-3.1-8b", 8030261248},  {"llama-3.2-1b", 1235814400},
        {"llama-3.2-3b", 3212749824}, {"mistral-7b", 7241732096},    {"mixtral-8x7b", 46702792704},
        {"qwen2.5-7b", 7615616512},
        // ultralytics model summaries; diffusers UNet2DConditionModel num_parameters()
        {"yolov5n", 1872157},         {"yolov5s", 7235389},          {"yolov5l", 46563709},
        {"yolov8n", 3157200},         {"yolov8s", 11166560},         {"yolov8m", 25902640},
        {"yolov8l", 43691520},        {"yolov8x", 68229648},
        {"sd-1.5", 859520964},        {"sdxl-unet", 2567463684},     {"unet", 31037698},
        // BertModel 109482240 + a 2-label classifier (768 * 2 + 2)
        {"bert-base", 109482240 + 1538},
    };
    for (const Known& k : known) {
        CAPTURE(k.id);
        const ModelSpec* m = find_preset(k.id);
        REQUIRE(m != nullptr);
        CHECK(count_params(*m) == doctest::Approx(k.params).epsilon(1e-9));
    }
}

TEST_CASE("SD pipelines: the frozen VAE and text encoders have diffusers' and transformers' parameter counts") {
    // AutoencoderKL (SD's vae/config.json) 83,653,863 = encoder 34,163,592 + decoder 49,490,179 + quant_conv 72 +
    // post_quant_conv 20; CLIPTextModel (clip-vit-large-patch14) 123,060,480; CLIPTextModelWithProjection
    // (OpenCLIP ViT-bigG/14, SDXL's text_encoder_2) 694,659,840. Each module's num_parameters().
    CHECK(input_encoder_params(*find_preset("sd-1.5")) == doctest::Approx(83653863.0 + 123060480.0).epsilon(1e-12));
    CHECK(input_encoder_params(*find_preset("sdxl-unet")) ==
          doctest::Approx(83653863.0 + 123060480.0 + 694659840.0).epsilon(1e-12));
    CHECK(input_encoder_params(*find_preset("resnet50")) == 0);
    // The encoder graph alone: the VAE encoder with quant_conv, and CLIP-L.
    WorkloadShape s;
    s.image_size = 512;
    const Graph g = build_input_encoders(*find_preset("sd-1.5"), s, BuildOptions{});
    CHECK(g.params_total() == doctest::Approx(34163592.0 + 72.0 + 123060480.0).epsilon(1e-12));
    for (const Layer& l : g.layers) CHECK(l.backbone);
}

TEST_CASE("YOLOv5 presets: the fused counts Ultralytics prints are the unfused ones less one per BatchNorm channel") {
    // Fusing folds each BatchNorm2d (weight + bias per channel) into its conv as one bias per channel, so
    // fused = unfused - channels. Ultralytics prints the fused count after 'Fusing layers...' (v7.0 detect.py and
    // val.py logs): 'YOLOv5n summary: 157 layers, 1867405 parameters', 'YOLOv5s summary: 213 layers, 7225885',
    // 'YOLOv5m summary: 212 layers, 21172173', 'YOLOv5l summary: 267 layers, 46533693', 'YOLOv5x summary:
    // 322 layers, 86705005'. Unfused, as trained: n 1872157, s 7235389, l 46563709 ('... 368 layers').
    struct Known { const char* id; double fused; };
    const Known known[] = {{"yolov5n", 1867405}, {"yolov5s", 7225885}, {"yolov5m", 21172173}, {"yolov5l", 46533693},
                           {"yolov5x", 86705005}};
    for (const Known& k : known) {
        CAPTURE(k.id);
        const ModelSpec* m = find_preset(k.id);
        REQUIRE(m != nullptr);
        const Graph g = graph_of(*m, 640);
        double bn_channels = 0;
        for (const Layer& l : g.layers)
            if (l.name.size() > 3 && l.name.compare(l.name.size() - 3, 3, ".bn") == 0) bn_channels += l.params / 2;
        CHECK(bn_channels > 0);
        CHECK(g.params_total() - bn_channels == doctest::Approx(k.fused).epsilon(1e-9));
        CHECK(m->reference_params == doctest::Approx(g.params_total()).epsilon(1e-9));
    }
}

TEST_CASE("every available preset builds a graph whose parameters do not depend on the shape") {
    for (const ModelSpec& m : preset_models()) {
        if (!m.available) continue;
        CAPTURE(m.id);
        const Graph a = graph_of(m, m.is_vision ? m.default_image_size : 64);
        CHECK(a.params_total() == doctest::Approx(count_params(m)));
        CHECK(a.block_count > 0);
    }
}

TEST_CASE("Korthikanti's per-layer activations: sbh(34 + 5as/h) with 16-bit activations and eager attention") {
    // Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models", sec. 4.1, eq. (1):
    // a GPT layer with dropout, GELU, LayerNorm, 16-bit activations, 1-byte dropout masks, no flash attention.
    const int s = 512, h = 1024, a = 16;
    const ModelSpec m = gpt_layer_spec(2, h, a);
    const Graph g = graph_of(m, s, true);
    TrainingConfig c;
    c.precision = Precision::kBf16;
    c.eager_attention = true;
    const PreparedMemory p = prepare_memory(g, c);
    const double expected = double(s) * h * (34.0 + 5.0 * a * s / h);
    const double ln_stats = 2 /*LNs*/ * 2 /*mean, rstd*/ * double(s) * 4 /*fp32*/;
    int blocks = 0;
    for (const Segment& seg : p.segments) {
        if (seg.full_per_sample_bytes < expected / 2) continue;  // embeddings / head segments
        ++blocks;
        CHECK(seg.full_per_sample_bytes - ln_stats == doctest::Approx(expected).epsilon(1e-12));
    }
    CHECK(blocks == 2);

    SUBCASE("selective recomputation drops the 5as^2b attention core (sec. 4.2)") {
        c.checkpointing = Checkpointing::kSelective;
        const PreparedMemory q = prepare_memory(g, c);
        for (const Segment& seg : q.segments)
            if (seg.full_per_sample_bytes >= expected / 2)
                CHECK(seg.kept_per_sample_bytes - ln_stats == doctest::Approx(34.0 * s * h).epsilon(1e-12));
    }
    SUBCASE("full recomputation keeps only each layer's 2sbh input") {
        c.checkpointing = Checkpointing::kFull;
        const PreparedMemory q = prepare_memory(g, c);
        for (const Segment& seg : q.segments)
            if (seg.full_per_sample_bytes >= expected / 2)
                CHECK(seg.kept_per_sample_bytes == doctest::Approx(2.0 * s * h).epsilon(1e-12));
    }
}

TEST_CASE("byte tables per precision and optimizer (bytes per parameter)") {
    const ModelSpec* m = find_preset("llama-3.2-1b");
    REQUIRE(m != nullptr);
    const Graph g = graph_of(*m, 128);
    const double n = g.params_total();
    struct Row { Precision p; Optimizer o; double w, gr, opt; };
    const Row rows[] = {
        {Precision::kFp32, Optimizer::kAdamW, 4, 4, 8},          // fp32 Adam: 16 B/param
        {Precision::kBf16Amp, Optimizer::kAdamW, 4, 4, 8},       // autocast keeps fp32 params
        {Precision::kFp16Amp, Optimizer::kSgdMomentum, 4, 4, 4},
        {Precision::kBf16, Optimizer::kAdamW, 2, 2, 4},          // pure bf16: states bf16 (zeros_like)
        {Precision::kFp32, Optimizer::kSgd, 4, 4, 0},
        {Precision::kFp32, Optimizer::kLion, 4, 4, 4},
        {Precision::kFp32, Optimizer::kAdamW8bit, 4, 4, 2.0 + 8.0 / 2048},
    };
    for (const Row& r : rows) {
        CAPTURE(int(r.p));
        CAPTURE(int(r.o));
        TrainingConfig c;
        c.precision = r.p;
        c.optimizer = r.o;
        const PreparedMemory pm = prepare_memory(g, c);
        CHECK(pm.weight_bytes == doctest::Approx(r.w * n));
        CHECK(pm.grad_bytes == doctest::Approx(r.gr * n));
        CHECK(pm.optimizer_bytes == doctest::Approx(r.opt * n));
    }
}

TEST_CASE("ZeRO stages shard optimizer, gradients, parameters (Rajbhandari et al. 2020, Fig. 1)") {
    const ModelSpec* m = find_preset("llama-3.2-1b");
    const Graph g = graph_of(*m, 128);
    const double n = g.params_total();
    TrainingConfig c;
    c.precision = Precision::kFp16Amp;
    c.optimizer = Optimizer::kAdam;
    c.gpu_count = 64;
    // DeepSpeed mixed precision: 2 + 2 + K with K = 12 (fp32 master + m + v)
    c.strategy = Strategy::kZero1;
    PreparedMemory p = prepare_memory(g, c);
    CHECK(p.weight_bytes + p.grad_bytes + p.optimizer_bytes == doctest::Approx((2 + 2 + 12.0 / 64) * n));
    c.strategy = Strategy::kZero2;
    p = prepare_memory(g, c);
    CHECK(p.weight_bytes + p.grad_bytes + p.optimizer_bytes == doctest::Approx((2 + 14.0 / 64) * n));
    c.strategy = Strategy::kZero3;
    p = prepare_memory(g, c);
    CHECK(p.weight_bytes + p.grad_bytes + p.optimizer_bytes == doctest::Approx(16.0 / 64 * n));
    CHECK(p.gathered_bytes > 0);
    c.strategy = Strategy::kDdp;  // torch DDP + autocast: fp32 params/grads/states, plus the gradient buckets
    p = prepare_memory(g, c);
    CHECK(p.weight_bytes + p.grad_bytes + p.optimizer_bytes == doctest::Approx(16.0 * n));
    CHECK(p.ddp_bucket_bytes == doctest::Approx(4.0 * n));
}

TEST_CASE("QLoRA: 4-bit NF4 weights with double quantization and trainable adapters only") {
    const ModelSpec* m = find_preset("llama-2-7b");
    const Graph g = graph_of(*m, 128);
    TrainingConfig c;
    c.precision = Precision::kNf4;
    c.method = Method::kQlora;
    c.lora.rank = 16;
    c.lora.targets = {ParamRole::kQ, ParamRole::kV};
    const PreparedMemory p = prepare_memory(g, c);
    // 32 layers x 16 x ((4096 + 4096) + (4096 + 4096))
    CHECK(p.params_lora == doctest::Approx(32.0 * 16 * 16384));
    CHECK(p.params_trainable == doctest::Approx(p.params_lora));
    // Linear weights at 4.127 bits (QLoRA sec. 3), embeddings + lm_head in bf16, adapters fp32.
    double linear = 0, other = 0;
    for (const Layer& l : g.layers) {
        if (l.params <= 0) continue;
        if (l.kind == OpKind::kMatmul && l.in_features > 0 && l.role != ParamRole::kHead) linear += l.params;
        else other += l.params;
    }
    const double expected = linear * (4 + 8.0 / 64 + 32.0 / (64 * 256)) / 8 + other * 2 + p.params_lora * 4;
    CHECK(p.weight_bytes == doctest::Approx(expected));
    CHECK(p.weight_bytes < 0.3 * 2 * g.params_total());  // far below bf16
}

TEST_CASE("frozen backbone keeps no backbone activations; LoRA keeps the adapted layers' inputs") {
    const ModelSpec* m = find_preset("resnet50");
    const Graph g = graph_of(*m, 224);
    TrainingConfig full, probe;
    probe.method = Method::kFrozenBackbone;
    const double a_full = saved_activation_bytes_per_sample(g, full);
    const double a_probe = saved_activation_bytes_per_sample(g, probe);
    CHECK(a_probe < 0.001 * a_full);
    CHECK(prepare_memory(g, probe).params_trainable == doctest::Approx(2048.0 * 1000 + 1000));
}

TEST_CASE("memory grows with the batch and the solver finds the largest batch that fits") {
    const ModelSpec* m = find_preset("gpt2");
    const Graph g = graph_of(*m, 1024);
    TrainingConfig c;
    c.precision = Precision::kBf16Amp;
    const PreparedMemory p = prepare_memory(g, c);
    double prev = 0;
    for (int b = 1; b <= 64; b *= 2) {
        const double r = required_bytes(p, b);
        CHECK(r > prev);
        prev = r;
    }
    const std::vector<double> cards = {8.0 * (1ull << 30), 24.0 * (1ull << 30), 80.0 * (1ull << 30), 1.0 * (1ull << 30)};
    const std::vector<int> best = max_batch_sizes(p, cards);
    REQUIRE(best.size() == cards.size());
    CHECK(best[3] == 0);
    CHECK(best[0] < best[1]);
    CHECK(best[1] < best[2]);
    for (std::size_t i = 0; i < 3; ++i) {
        const double usable = cards[i] * (1 - c.reserve_fraction);
        CHECK(required_bytes(p, best[i]) <= usable);
        CHECK(required_bytes(p, best[i] + 1) > usable);
    }
    const MemoryReport r = evaluate_memory(p, best[1], cards[1]);
    CHECK(r.fits);
    CHECK(r.fits_without_reserve);
    CHECK_FALSE(evaluate_memory(p, best[1] + 1, cards[1]).fits);
}

TEST_CASE("a job that misses only the safety reserve is told apart from one that exceeds the card") {
    const ModelSpec* m = find_preset("gpt2");
    TrainingConfig c;
    c.precision = Precision::kBf16Amp;
    c.reserve_fraction = 0.2;
    const PreparedMemory p = prepare_memory(graph_of(*m, 1024), c);
    const double card = 24.0 * (1ull << 30);
    // The largest batch within the whole card, and with the reserve: every batch between them misses the reserve only.
    c.reserve_fraction = 0;
    const int whole = max_batch_sizes(prepare_memory(graph_of(*m, 1024), c), {card})[0];
    const int usable = max_batch_sizes(p, {card})[0];
    REQUIRE(usable + 1 < whole);
    const MemoryReport between = evaluate_memory(p, usable + 1, card);
    CHECK_FALSE(between.fits);
    CHECK(between.fits_without_reserve);
    CHECK(between.nvidia_smi.bytes > between.usable_bytes);
    CHECK(between.nvidia_smi.bytes <= card);
    const MemoryReport over = evaluate_memory(p, whole + 1, card);
    CHECK_FALSE(over.fits);
    CHECK_FALSE(over.fits_without_reserve);
    CHECK_FALSE(evaluate_memory(p, 1, 0).fits_without_reserve);  // no card: no verdict
}

TEST_CASE("the sequence-length solver returns a length that fits and the next one that does not") {
    const ModelSpec* m = find_preset("llama-3.2-1b");
    TrainingConfig c;
    c.precision = Precision::kBf16;
    c.batch = 1;
    const double card = 24.0 * (1ull << 30);
    const int s = max_shape_that_fits(*m, c, card, false, 256, 1 << 17);
    CHECK(s > 0);
    CHECK(s % 256 == 0);
}

TEST_CASE("eager attention keeps the s x s scores, SDPA keeps O(s)") {
    const ModelSpec* m = find_preset("llama-3.2-1b");
    TrainingConfig c;
    c.precision = Precision::kBf16;
    const double sdpa_1k = saved_activation_bytes_per_sample(graph_of(*m, 1024, false), c);
    const double sdpa_2k = saved_activation_bytes_per_sample(graph_of(*m, 2048, false), c);
    c.eager_attention = true;
    const double eager_1k = saved_activation_bytes_per_sample(graph_of(*m, 1024, true), c);
    const double eager_2k = saved_activation_bytes_per_sample(graph_of(*m, 2048, true), c);
    CHECK(sdpa_2k == doctest::Approx(2 * sdpa_1k).epsilon(0.01));
    CHECK(eager_2k > 2.2 * eager_1k);
    CHECK(eager_1k > sdpa_1k);
}

TEST_CASE("tensor and sequence parallelism split a layer's activations as Korthikanti's Table 2 says") {
    // Korthikanti et al. 2022, Table 2 (bytes per transformer layer, 16-bit activations, 1-byte dropout masks):
    //   tensor parallel: sbh(10 + 24/t + 5as/(ht)); + sequence parallel: sbh(34/t + 5as/(ht));
    //   + selective recomputation: sbh(10 + 24/t) and sbh(34/t). LayerNorm statistics (fp32, b x s) are not in it:
    //   replicated without sequence parallelism, split with it.
    const int s = 512, h = 1024, a = 16;
    const ModelSpec m = gpt_layer_spec(2, h, a);
    const Graph g = graph_of(m, s, true);
    for (int t : {2, 4, 8}) {
        for (bool sp : {false, true}) {
            for (Checkpointing ck : {Checkpointing::kNone, Checkpointing::kSelective}) {
                CAPTURE(t);
                CAPTURE(sp);
                CAPTURE(int(ck));
                TrainingConfig c;
                c.precision = Precision::kBf16;
                c.eager_attention = true;
                c.gpu_count = t;
                c.tensor_parallel = t;
                c.sequence_parallel = sp;
                c.checkpointing = ck;
                const PreparedMemory p = prepare_memory(g, c);
                const double core = ck == Checkpointing::kNone ? 5.0 * a * s / (double(h) * t) : 0.0;
                const double expected = double(s) * h * ((sp ? 34.0 / t : 10.0 + 24.0 / t) + core);
                const double ln_stats = 2 * 2 * double(s) * 4 / (sp ? t : 1);
                REQUIRE(p.segments.size() == 4);  // embeddings, 2 blocks, final norm + head + loss
                for (std::size_t i : {1, 2})
                    CHECK(p.segments[i].kept_per_sample_bytes - ln_stats == doctest::Approx(expected).epsilon(1e-12));
            }
        }
    }
}

TEST_CASE("tensor parallelism splits the blocks' weights; pipeline stages split the layers and stash micro-batches") {
    const ModelSpec m = gpt_layer_spec(8, 1024, 16);
    const Graph g = graph_of(m, 256);
    TrainingConfig one;
    one.precision = Precision::kFp32;
    const PreparedMemory whole = prepare_memory(g, one);

    TrainingConfig tp = one;
    tp.gpu_count = tp.tensor_parallel = 4;
    const PreparedMemory split = prepare_memory(g, tp);
    CHECK(split.params_total == doctest::Approx(whole.params_total));  // the model, not the GPU's share
    // Per block 12h^2 + 13h: the Linear weights and the column-parallel biases split 4 ways; the row-parallel biases
    // (added after the all-reduce, Megatron-LM RowParallelLinear) and the LayerNorms stay whole on every rank. The
    // token embedding's rows split (vocab-parallel), the positions do not.
    const double h = 1024, blocks = 8;
    const double weights = 12 * h * h, column_bias = 3 * h + 4 * h, row_bias = 2 * h, norms = 4 * h;
    const double block_params = weights + column_bias + row_bias + norms;
    const double expected_rank = blocks * ((weights + column_bias) / 4 + row_bias + norms) + m.vocab * h / 4 +
                                 m.max_positions * h + 2 * h;
    CHECK(split.rank_params == doctest::Approx(expected_rank));
    CHECK(split.weight_bytes == doctest::Approx(4 * expected_rank));

    SUBCASE("pipeline: the first stage holds its layers and p micro-batches in flight, the last its head") {
        TrainingConfig pp = one;
        pp.gpu_count = pp.pipeline_parallel = 4;
        pp.grad_accum_steps = 8;
        const PreparedMemory p = prepare_memory(g, pp);
        REQUIRE(p.last_stage.size() == 1);
        CHECK(p.stage == 0);
        CHECK(p.in_flight == 4);                       // min(p - 0, m) (1F1B)
        CHECK(p.last_stage[0].in_flight == 1);
        CHECK(p.loss_forward_per_sample_bytes == 0);   // only the last stage computes the loss
        CHECK(p.last_stage[0].loss_forward_per_sample_bytes > 0);
        // 2 of 8 blocks on each stage: the first adds the embeddings, the last its own copy of the tied head.
        CHECK(p.rank_params == doctest::Approx(2 * block_params + m.vocab * h + m.max_positions * h));
        CHECK(p.last_stage[0].rank_params == doctest::Approx(2 * block_params + 2 * h + m.vocab * h));
        // Activations: the stash of the other micro-batches in flight comes on top of one micro-batch.
        const MemoryReport r = evaluate_memory(p, 1, 0);
        CHECK(r.pipeline_stage == 0);
        CHECK(r.activations.bytes == doctest::Approx(4 * p.kept_per_sample_bytes));
        // The stash is part of the activations the peak's breakdown names.
        double at_peak = 0;
        for (const auto& [name, value] : r.peak_allocated.operands)
            if (std::string(name) == "activations_at_peak") at_peak = value;
        CHECK(at_peak >= 3 * p.kept_per_sample_bytes);
    }
    SUBCASE("pipeline warm-up: Megatron's 1F1B and interleaved schedules") {
        CHECK(pipeline_in_flight(0, 1, 1, 8) == 1);
        CHECK(pipeline_in_flight(0, 4, 1, 8) == 4);
        CHECK(pipeline_in_flight(3, 4, 1, 8) == 1);
        CHECK(pipeline_in_flight(0, 4, 1, 2) == 2);  // fewer micro-batches than stages
        // Interleaved, v chunks: (2(p - 1) + (v - 1)p + 1) chunks of 1/v stage = p + (p - 1)/v (Korthikanti sec. 4.2.3:
        // the first stage's activations x (1 + (p - 1)/(pv))).
        CHECK(pipeline_in_flight(0, 8, 3, 64) == doctest::Approx(8 * (1 + 7.0 / 24)));
        CHECK(pipeline_in_flight(7, 8, 3, 64) == doctest::Approx((2 * 8 + 1) / 3.0));
    }
    SUBCASE("stages: blocks evenly in order, the rest on the first or the last") {
        const std::vector<int> st = layer_stages(g, 4);
        REQUIRE(st.size() == g.layers.size());
        CHECK(st.front() == 0);
        CHECK(st.back() == 3);
        for (std::size_t i = 0; i < g.layers.size(); ++i)
            if (g.layers[i].block >= 0) CHECK(st[i] == g.layers[i].block / 2);
    }
    SUBCASE("ZeRO-1 shards over the data-parallel replicas only") {
        TrainingConfig z = tp;
        z.gpu_count = 16;  // 4 replicas of 4 tensor-parallel GPUs
        z.strategy = Strategy::kZero1;
        z.optimizer = Optimizer::kAdam;
        const PreparedMemory q = prepare_memory(g, z);
        CHECK(data_parallel(z) == 4);
        CHECK(q.optimizer_bytes == doctest::Approx(8 * expected_rank / 4));
    }
}

TEST_CASE("bitsandbytes Linears keep their input while gradients flow, frozen weight or not") {
    // bitsandbytes/autograd/_functions.py @29e3420c: MatMul4Bit keeps A "if any(ctx.needs_input_grad[:2])",
    // MatMul8bitLt keeps A and its int8 transposed copy CAt; both only while an autograd node exists (a gradient
    // flows through the call). An nn.Linear with a frozen
    // weight keeps nothing, so under QLoRA a block keeps three more inputs than under LoRA: o_proj's (the attention
    // output after its reshape copy), gate/up's (the normed residual) and down_proj's (act(gate) * up).
    const ModelSpec* m = find_preset("llama-2-7b");
    const double tokens = 128;
    const Graph g = graph_of(*m, int(tokens));
    TrainingConfig c;
    c.method = Method::kLora;
    c.precision = Precision::kBf16;
    c.lora.rank = 8;
    c.lora.dropout = 0;
    c.lora.targets = {ParamRole::kQ, ParamRole::kV};
    const double lora = saved_activation_bytes_per_sample(g, c);
    c.method = Method::kQlora;
    c.precision = Precision::kNf4;
    const double nf4 = saved_activation_bytes_per_sample(g, c);
    const double h = 4096, ffn = 11008, layers = 32;
    CHECK(nf4 - lora == doctest::Approx(layers * tokens * (2 * h + ffn) * 2.0));
    // int8: + CAt of every quantized call that a gradient flows through (q, k, v, o, gate, up: h; down: ffn), except
    // the first block's q, whose input needs no gradient (its LoRA adapter is the first trainable layer).
    c.precision = Precision::kInt8;
    const double int8 = saved_activation_bytes_per_sample(g, c);
    CHECK(int8 - nf4 == doctest::Approx(tokens * (layers * (6 * h + ffn) - h) * 1.0));
    // Without any gradient flowing through them (a frozen backbone: only the 16-bit head trains), no quantized call
    // keeps anything: the same as with 16-bit weights.
    c.method = Method::kFrozenBackbone;
    const double frozen_int8 = saved_activation_bytes_per_sample(g, c);
    c.precision = Precision::kBf16;
    CHECK(frozen_int8 == doctest::Approx(saved_activation_bytes_per_sample(g, c)));
}

namespace {

// A vision preset's graph at one image size (batch 1), and LoRA under fp16 autocast.
Graph image_graph(const char* id, int image) {
    WorkloadShape s;
    s.image_size = image;
    return build_graph(*find_preset(id), s, BuildOptions{});
}

TrainingConfig amp_lora() {
    TrainingConfig c;
    c.precision = Precision::kFp16Amp;
    c.method = Method::kLora;
    return c;
}

}  // namespace

TEST_CASE("SD pipelines: the VAE encoder's forward is a peak candidate of its own") {
    // SDXL's scripts keep the VAE in fp32: at 1024 px its first resnets hold 3 maps of 128 x 1024^2 at once.
    const Graph g = image_graph("sdxl-unet", 1024);
    TrainingConfig c = amp_lora();
    PreparedMemory p = prepare_memory(g, c);
    CHECK(p.input_encoder_transient_per_sample_bytes == doctest::Approx(3.0 * 128 * 1024 * 1024 * 4));
    // When it is the largest moment, the peak is the forward's, its bytes are the temporaries, no UNet activations.
    p.input_encoder_transient_per_sample_bytes = 1e12;
    const MemoryReport r = evaluate_memory(p, 2, 0);
    CHECK(r.peak_phase == PeakPhase::kForwardEnd);
    CHECK(r.temporary.bytes == doctest::Approx(2e12));
    c.precomputed_latents = true;
    CHECK(prepare_memory(g, c).input_encoder_transient_per_sample_bytes == 0);
    CHECK(prepare_memory(g, c).input_encoder_bytes == 0);
    // Under eager attention the mid-block's single head over (1024/8)^2 positions holds fp32 scores and
    // probabilities (upcast softmax), 2 x 16384^2 values: 2.1 GB, more than the first resnets' maps. SD 1.5 at 512 px
    // in fp16: 2 x 4096^2 fp32 values (134 MB) are less than its 3 x 128 x 512^2 fp16 ones (201 MB).
    WorkloadShape s;
    s.image_size = 1024;
    BuildOptions eager;
    eager.eager_attention = true;
    c.precomputed_latents = false;
    c.eager_attention = true;
    CHECK(prepare_memory(build_graph(*find_preset("sdxl-unet"), s, eager), c).input_encoder_transient_per_sample_bytes ==
          doctest::Approx(2.0 * 16384.0 * 16384.0 * 4));
    s.image_size = 512;
    CHECK(prepare_memory(build_graph(*find_preset("sd-1.5"), s, eager), c).input_encoder_transient_per_sample_bytes ==
          doctest::Approx(3.0 * 128 * 512 * 512 * 2));
}

TEST_CASE("frozen weights in 16 bits: no fp32 copy and no autocast copy of what does not train") {
    // diffusers' LoRA scripts cast the frozen UNet to weight_dtype; autocast then uses those fp16 weights as they are.
    const Graph g = image_graph("sd-1.5", 512);
    TrainingConfig c = amp_lora();
    c.lora.rank = 4;
    c.lora.targets = {ParamRole::kQ, ParamRole::kK, ParamRole::kV, ParamRole::kO};
    c.precomputed_latents = true;
    const PreparedMemory fp32_base = prepare_memory(g, c);
    c.frozen_weights_16bit = true;
    const PreparedMemory half_base = prepare_memory(g, c);
    const double unet = g.params_total();
    CHECK(fp32_base.weight_bytes - half_base.weight_bytes == doctest::Approx(unet * 2.0));
    CHECK(fp32_base.autocast_copy_bytes > 1e9);
    CHECK(half_base.autocast_copy_bytes == 0);
    CHECK(half_base.weight_bytes_per_param == 2.0);  // the report's operand says what the frozen weights take
    CHECK(fp32_base.weight_bytes_per_param == 4.0);
    // The adapters still train in fp32 (peft's cast_training_params / autocast_adapter_dtype).
    CHECK(half_base.weight_bytes == doctest::Approx(unet * 2.0 + half_base.params_lora * 4.0));
    // Outside fp16/bf16 autocast the setting changes nothing (pure bf16 is 16-bit already; fp32 stays fp32).
    for (Precision p : {Precision::kFp32, Precision::kBf16}) {
        c.precision = p;
        c.frozen_weights_16bit = false;
        const double off = prepare_memory(g, c).weight_bytes;
        c.frozen_weights_16bit = true;
        CHECK(prepare_memory(g, c).weight_bytes == doctest::Approx(off));
    }
}
