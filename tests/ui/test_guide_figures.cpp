// The guide quotes what the calculator gives for a few published runs. Those figures must be the calculator's own,
// today: each is recomputed here from the validation case it names, so a change to the engine or its data that
// moves them fails until the guide's text is updated (in both languages).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "catalog/report.h"
#include "catalog/scenario.h"
#include "catalog/time_data.h"
#include "catalog/time_json.h"
#include "ui/guide_content.h"
#include "ui/strings.h"

namespace engine = gg::engine;

namespace {

struct GuideText {
    std::string en, zh;
};

const GuideText& guide_text() {
    static const GuideText t = [] {
        GuideText g;
#define GG_TEST_GUIDE_PARAGRAPH(section, text_en, text_zh) g.en += text_en, g.en += "\n", g.zh += text_zh, g.zh += "\n";
        GG_GUIDE_PARAGRAPHS(GG_TEST_GUIDE_PARAGRAPH)
#undef GG_TEST_GUIDE_PARAGRAPH
        return g;
    }();
    return t;
}

// 5011 -> "5,011" (the English text's thousands separator); the Chinese text writes "5011".
std::string thousands(long v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

std::string one_decimal(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string two_decimals(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

const gg::catalog::TimeCase& time_case(const std::string& id) {
    static const std::vector<gg::catalog::TimeCase> cases = gg::catalog::load_time_cases();
    for (const gg::catalog::TimeCase& c : cases)
        if (c.row.id == id) return c;
    FAIL("no validation case " << id);
    return cases.front();
}

// The case's prediction under the bundled priors (or `priors`), per GPU for whole-job token rates.
double predicted(const std::string& id, const engine::ThroughputPriors& priors = gg::catalog::embedded_time_data()) {
    const gg::catalog::ValidationRow r = gg::catalog::evaluate_time_case(time_case(id), priors);
    REQUIRE(r.ran);
    return r.predicted;
}

void check_quoted(const std::string& en, const std::string& zh) {
    CAPTURE(en);
    CAPTURE(zh);
    CHECK(guide_text().en.find(en) != std::string::npos);
    CHECK(guide_text().zh.find(zh) != std::string::npos);
}

}  // namespace

TEST_CASE("the calculator's figures the guide quotes are what the calculator gives today") {
    // "Compute": MPT-7B pretraining on 8 A100s and 8 H100s, tokens/s per GPU, and their ratio.
    const double a100 = predicted("mpt-7b-seq2048-8x-a100-sxm4-80gb") / 8;
    const double h100 = predicted("mpt-7b-seq2048-8x-h100-sxm") / 8;
    check_quoted("The calculator gives " + thousands(std::lround(a100)) + " and " + thousands(std::lround(h100)) +
                     " (" + one_decimal(h100 / a100) + " times)",
                 "本计算器给出 " + std::to_string(std::lround(a100)) + " 和 " + std::to_string(std::lround(h100)) +
                     "（" + one_decimal(h100 / a100) + " 倍）");

    // "Interconnect": MPT-13B on 8 H100s with the overlap slowdown, and with hiding for free.
    engine::ThroughputPriors free_overlap = gg::catalog::embedded_time_data();
    free_overlap.comm.overlap_slowdown_fraction = 0;
    const double with_cost = predicted("mpt-13b-seq2048-8x-h100-sxm") / 8;
    const double free = predicted("mpt-13b-seq2048-8x-h100-sxm", free_overlap) / 8;
    CHECK(free > with_cost);
    check_quoted("the calculator gives " + thousands(std::lround(with_cost)) + " with this cost and " +
                     thousands(std::lround(free)) + " if hiding were free",
                 "本计算器计入这项代价时给出 " + std::to_string(std::lround(with_cost)) + " 个，若掩盖完全免费则为 " +
                     std::to_string(std::lround(free)) + " 个");

    // "Small cards": BERT-base's activations at batch 16 in FP16 AMP, 128 and 512 tokens, eager and SDPA, in GB.
    auto activations_gb = [](int seq_len, const char* attention) {
        const std::string json = R"({"model": "bert-base", "batch_size": 16, "precision": "fp16-amp", "seq_len": )" +
                                 std::to_string(seq_len) + R"(, "attention": ")" + attention + "\"}";
        const gg::catalog::ParsedScenario p = gg::catalog::parse_scenario(json, "guide");
        REQUIRE(p.problems.empty());
        return one_decimal(gg::catalog::estimate(p.scenario).report.activations.bytes / 1e9);
    };
    const std::string e128 = activations_gb(128, "eager"), e512 = activations_gb(512, "eager");
    const std::string s128 = activations_gb(128, "sdpa"), s512 = activations_gb(512, "sdpa");
    check_quoted("activations at " + e128 + " GB for 128 tokens and " + e512 + " GB for 512 with eager attention (" +
                     s128 + " and " + s512 + " GB with SDPA)",
                 "128 个 token 约 " + e128 + " GB、512 个 token 约 " + e512 + " GB（用 SDPA 时分别为 " + s128 + " GB 和 " +
                     s512 + " GB）");

    // "Interconnect": Korthikanti et al.'s 22B GPT on one 8x A100 node, seconds per step.
    const double step_s = predicted("korthikanti-22b-step-selective-sp");
    check_quoted("the calculator gives " + two_decimals(step_s) + " s", "本计算器给出 " + two_decimals(step_s) + " 秒");

    // "Optimizations": the weight EMA of SD's UNet in FP32 (GB), and diffusers' README fine-tune with it (GiB).
    {
        const std::string json = R"({"model": "sd-1.5", "batch_size": 1, "grad_accum_steps": 4, "image_size": 512,
            "precision": "fp16-amp", "optimizer": "adamw", "checkpointing": "full", "ema": true,
            "gpu": {"id": "rtx-3090"}})";
        const gg::catalog::ParsedScenario p = gg::catalog::parse_scenario(json, "guide");
        REQUIRE(p.problems.empty());
        const gg::catalog::Estimate e = gg::catalog::estimate(p.scenario);
        const std::string ema_gb = one_decimal(e.prepared.ema_bytes / 1e9);
        const std::string total_gib = one_decimal(e.report.nvidia_smi.bytes / engine::kBytesPerGiB);
        check_quoted("For Stable Diffusion's UNet that is " + ema_gb + " GB in FP32",
                     "Stable Diffusion 的 UNet 按 FP32 计就是 " + ema_gb + " GB");
        check_quoted("the calculator puts it at " + total_gib + " GiB", "本计算器给出 " + total_gib + " GiB");
    }

    // "Fine-tuning": the frozen VAE and text encoder in an SD 1.5 LoRA step on an RTX 4090 (ms), and their GB.
    {
        const gg::catalog::ParsedScenario p = gg::catalog::parse_scenario(
            R"({"model": "sd-1.5", "batch_size": 1, "image_size": 512, "precision": "fp16-amp", "optimizer": "adamw",
                "method": "lora", "lora": {"rank": 4, "targets": ["q", "k", "v", "o"]}, "gpu": {"id": "rtx-4090"}})",
            "guide");
        REQUIRE(p.problems.empty());
        gg::engine::TimeReport t;
        REQUIRE(gg::catalog::estimate_time(p.scenario, gg::catalog::embedded_catalog(),
                                           gg::catalog::embedded_time_data(), t));
        const std::string enc_ms = std::to_string(int(std::lround(t.input_encoder_s * 1e3)));
        const std::string step_ms = std::to_string(int(std::lround(t.step_s * 1e3)));
        const std::string gb = one_decimal(gg::catalog::estimate(p.scenario).prepared.input_encoder_bytes / 1e9);
        check_quoted("the calculator gives " + enc_ms + " of " + step_ms + " ms to it",
                     "每步 " + step_ms + " 毫秒中有 " + enc_ms + " 毫秒花在这里");
        check_quoted("the " + gb + " GB the encoders take", "编码器在显卡上占的 " + gb + " GB");
    }

    // "Fine-tuning": Llama 2 7B LoRA under bf16 autocast, loaded in fp32 and in bf16 (GiB as nvidia-smi shows it).
    {
        auto smi_gib = [](const char* frozen16) {
            const std::string json = std::string(R"({"model": "llama-2-7b", "batch_size": 1, "seq_len": 512,
                "precision": "bf16-amp", "optimizer": "adamw", "method": "lora", "checkpointing": "full",
                "gpu": {"id": "rtx-4090"}, "frozen_weights_16bit": )") + frozen16 + "}";
            const gg::catalog::ParsedScenario p = gg::catalog::parse_scenario(json, "guide");
            REQUIRE(p.problems.empty());
            return one_decimal(gg::catalog::estimate(p.scenario).report.nvidia_smi.bytes / engine::kBytesPerGiB);
        };
        const std::string fp32 = smi_gib("false"), bf16 = smi_gib("true");
        check_quoted("needs " + fp32 + " GiB that way and " + bf16 + " GiB when loaded",
                     "这样需要 " + fp32 + " GiB，而用 torch_dtype=torch.bfloat16 加载只需 " + bf16 + " GiB");
    }

    // The calculator's YOLO hint: Ultralytics' README days (YOLOv5n..x on a V100) over the engine's figures.
    {
        double lo = 1e9, hi = 0;
        for (const char* m : {"yolov5n", "yolov5s", "yolov5m", "yolov5l", "yolov5x"}) {
            const std::string id = std::string("ultralytics-") + m + "-coco-300-epochs-v100-days";
            const double ratio = time_case(id).row.measured / predicted(id);
            lo = std::min(lo, ratio);
            hi = std::max(hi, ratio);
        }
        const std::string range_en = one_decimal(lo) + "-" + one_decimal(hi) + "x";
        const std::string range_zh = one_decimal(lo) + "–" + one_decimal(hi) + " 倍";
        CAPTURE(range_en);
        CHECK(std::string(gg::ui::tr(gg::ui::Str::YoloLoaderHint, gg::ui::Lang::En)).find(range_en) != std::string::npos);
        CHECK(std::string(gg::ui::tr(gg::ui::Str::YoloLoaderHint, gg::ui::Lang::Zh)).find(range_zh) != std::string::npos);
    }

    // "Optimizations", channels_last: timm's measured NHWC-over-NCHW gains for MobileNetV2 and EfficientNet-B0 on an RTX
    // 3090, and the calculator's for the same rows, to two decimals.
    {
        auto gain = [](const char* model, bool measured) {
            const std::string nchw = std::string("timm-") + model + "-train-amp-rtx3090";
            const std::string nhwc = std::string("timm-") + model + "-train-amp-channels-last-rtx3090";
            return measured ? time_case(nhwc).row.measured / time_case(nchw).row.measured : predicted(nhwc) / predicted(nchw);
        };
        const std::string m1 = two_decimals(gain("mobilenet-v2", true)), m2 = two_decimals(gain("efficientnet-b0", true));
        const std::string p1 = two_decimals(gain("mobilenet-v2", false)), p2 = two_decimals(gain("efficientnet-b0", false));
        check_quoted("(" + m1 + "x and " + m2 + "x; the calculator gives " + p1 + "x and " + p2 + "x)",
                     "（" + m1 + " 倍和 " + m2 + " 倍；计算器给出 " + p1 + " 倍和 " + p2 + " 倍）");
    }

    // "Optimizations": YOLOv5s, 300 COCO epochs on a V100 (the README's 2 days), the GPU's own work in days.
    const std::string days = one_decimal(predicted("ultralytics-yolov5s-coco-300-epochs-v100-days") / 86400);
    check_quoted("where the calculator's figure for the GPU's own work is " + days + " days",
                 "而本计算器只算显卡本身的工作时给出 " + days + " 天");
}
