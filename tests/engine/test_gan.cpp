// Issue 42: GANs (src/engine/gan.h). Parameter counts against the reference code instantiated on CPU PyTorch
// (tools/measure/gan_params.py -> data/gan_models.json reference counts), the published StyleGAN2-ADA speed and
// memory tables (tests/data/published_gan.json, with their sources), the phase mechanics, and the input checks.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/gan_models.h"
#include "catalog/time_data.h"
#include "engine/gan.h"

using namespace gg::engine;

namespace {

nlohmann::json read_json(const std::string& relative) {
    std::ifstream in(std::string(GG_SOURCE_DIR) + "/" + relative);
    std::stringstream ss;
    ss << in.rdbuf();
    return nlohmann::json::parse(ss.str(), nullptr, false);
}

// A published row's preset with the row's command-line changes ("overrides": --map-depth, --aug=noaug, --cbase,
// --mbstd-group), as the GanSpec keys of the same names.
GanSpec row_spec(const nlohmann::json& row) {
    const GanSpec* preset = gg::catalog::find_gan_preset(row["preset"].get<std::string>());
    REQUIRE(preset != nullptr);
    GanSpec s = *preset;
    if (row.contains("overrides")) {
        const nlohmann::json& o = row["overrides"];
        for (const auto& it : o.items())
            CHECK_MESSAGE((it.key() == "mapping_layers" || it.key() == "augment" || it.key() == "channel_base" ||
                           it.key() == "mbstd_group"), "unknown override " << it.key());
        s.mapping_layers = o.value("mapping_layers", s.mapping_layers);
        s.augment = o.value("augment", s.augment);
        s.channel_base = o.value("channel_base", s.channel_base);
        s.mbstd_group = o.value("mbstd_group", s.mbstd_group);
    }
    return s;
}

GanReport run(const GanSpec& spec, double batch, int gpus, const char* gpu_id) {
    const GpuSpec* gpu = gg::catalog::embedded_catalog().find_gpu(gpu_id);
    REQUIRE(gpu != nullptr);
    GanTraining t;
    t.batch = batch;
    t.gpu_count = gpus;
    return evaluate_gan(spec, t, *gpu, gg::catalog::embedded_time_data());
}

}  // namespace

TEST_CASE("GAN presets load from data/gan_models.json without problems") {
    CHECK(gg::catalog::embedded_gan_problems().empty());
    for (const char* id : {"stylegan2-ada-128", "stylegan2-ada-256", "stylegan2-ada-512", "stylegan2-ada-1024",
                           "dcgan-64", "pix2pix-256", "stylegan3-t-256", "stylegan3-t-512", "stylegan3-t-1024",
                           "stylegan3-r-256", "stylegan3-r-512", "stylegan3-r-1024"})
        CHECK(gg::catalog::find_gan_preset(id) != nullptr);
}

TEST_CASE("GAN generator and discriminator parameter counts equal the reference code's exactly") {
    // reference_*_params: the networks built from the reference code on CPU PyTorch 1.13 (tools/measure/gan_params.py).
    for (const GanSpec& s : gg::catalog::gan_presets()) {
        CAPTURE(s.id);
        const GanNetworks n = build_gan_networks(s);
        CHECK(n.g.params() == s.reference_g_params);
        CHECK(n.d.params() == s.reference_d_params);
    }
}

TEST_CASE("StyleGAN2-ADA and StyleGAN3: sec/kimg within 30% and peak memory within 20% on the published rows") {
    const nlohmann::json doc = read_json("tests/data/published_gan.json");
    REQUIRE(doc.is_object());
    int rows = 0, time_pass = 0, mem_pass = 0, sg3_rows = 0, sg3_time_pass = 0, sg3_mem_pass = 0;
    for (const auto& row : doc["rows"]) {
        const GanSpec spec = row_spec(row);
        const GanReport r = run(spec, row["batch_per_gpu"].get<double>(), row["gpus"].get<int>(),
                                row["gpu"].get<std::string>().c_str());
        REQUIRE(r.time_ok);
        const double published_s = row["sec_per_kimg"].get<double>();
        const double published_gib = row["peak_allocated_gib"].get<double>();
        const double est_gib = r.peak_allocated_bytes / double(1 << 30);
        const double time_err = r.sec_per_kimg / published_s - 1, mem_err = est_gib / published_gib - 1;
        const bool sg3 = spec.kind == GanKind::kStyleGan3;
        ++rows;
        time_pass += std::fabs(time_err) <= 0.30;
        mem_pass += std::fabs(mem_err) <= 0.20;
        sg3_rows += sg3;
        sg3_time_pass += sg3 && std::fabs(time_err) <= 0.30;
        sg3_mem_pass += sg3 && std::fabs(mem_err) <= 0.20;
        std::printf("%-30s sec/kimg %7.2f est %7.2f (%+5.0f%%)  mem %4.1f est %5.2f GiB (%+4.0f%%) peak %s\n",
                    row["id"].get<std::string>().c_str(), published_s, r.sec_per_kimg, 100 * time_err,
                    published_gib, est_gib, 100 * mem_err, r.peak_phase);
    }
    CAPTURE(rows);
    CAPTURE(time_pass);
    CAPTURE(mem_pass);
    CAPTURE(sg3_time_pass);
    CAPTURE(sg3_mem_pass);
    // 46 StyleGAN2-ADA rows (stylegan2-ada-pytorch README, stylegan3 docs/configs.md "Old StyleGAN2-ADA"), 64
    // StyleGAN3-T/-R rows (stylegan3 docs/configs.md "Recommended configurations") and 26 rows of the StyleGAN3 paper's
    // and the repro configurations (--cfg=stylegan2 and -t/-r with their own map depth, cbase, augmentation), each on
    // V100 and A100, 1-8 GPUs.
    CHECK(rows == 136);
    CHECK(sg3_rows == 76);
    // Issue 42's done-when: peak memory within 20% on at least 75% of the rows (met: 132 of 136 on 2026-12-07, 56 of
    // the 60 StyleGAN2 rows and all 76 StyleGAN3 rows).
    CHECK(mem_pass >= 0.75 * rows);
    CHECK(mem_pass >= 132);
    CHECK(sg3_mem_pass >= 76);
    // Speed within 30% on at least 75% of the rows (met: 126 of 136 on 2026-12-07, 58 of 60 StyleGAN2 and 68 of 76
    // StyleGAN3; docs/gan.md lists the misses). The counts are guarded so that a change that loses rows fails. No
    // constant was fitted to these rows.
    CHECK(time_pass >= 0.75 * rows);
    CHECK(time_pass - sg3_time_pass >= 58);
    CHECK(sg3_time_pass >= 68);
    CHECK(time_pass >= 126);
}

TEST_CASE("StyleGAN2-ADA and StyleGAN3: every published row within 60% for speed and 30% for memory") {
    const nlohmann::json doc = read_json("tests/data/published_gan.json");
    REQUIRE(doc.is_object());
    for (const auto& row : doc["rows"]) {
        CAPTURE(row["id"].get<std::string>());
        const GanReport r = run(row_spec(row), row["batch_per_gpu"].get<double>(), row["gpus"].get<int>(),
                                row["gpu"].get<std::string>().c_str());
        const double time_ratio = r.sec_per_kimg / row["sec_per_kimg"].get<double>();
        CHECK(time_ratio > 0.40);
        CHECK(time_ratio < 1.60);
        CHECK(r.peak_allocated_bytes / double(1 << 30) == doctest::Approx(row["peak_allocated_gib"].get<double>()).epsilon(0.30));
    }
}

TEST_CASE("GAN phases: lazy regularization at its interval, sec/kimg is 1000 / real images per second") {
    const GanSpec& s = *gg::catalog::find_gan_preset("stylegan2-ada-256");
    const GanReport r = run(s, 16, 1, "a100-sxm4-40gb");
    REQUIRE(r.phases.size() == 4);
    CHECK(std::string(r.phases[0].name) == "Gmain");
    CHECK(r.phases[1].every == 4);   // training_loop.py G_reg_interval
    CHECK(r.phases[1].batch == 8);   // loss.py pl_batch_shrink 2
    CHECK(r.phases[3].every == 16);  // D_reg_interval
    double iteration = 0;
    for (const GanPhase& p : r.phases) iteration += p.seconds / p.every;
    CHECK(r.iteration_s > iteration);  // + the G_ema update
    CHECK(r.sec_per_kimg == doctest::Approx(1000.0 / r.samples_per_s));
    CHECK(r.samples_per_s == doctest::Approx(16 / r.iteration_s));
    // R1's double backward keeps about twice D's forward set, so the Dreg phase holds more than Dmain's D.
    CHECK(r.phases[3].activation_bytes > r.phases[2].activation_bytes * 1.2);
    // Both networks' fp32 weights, gradients and Adam states, and G's moving average: 16 B x (G + D) + 4 B x G.
    CHECK(r.g_weight_bytes + r.d_weight_bytes + r.gradient_bytes + r.optimizer_bytes ==
          doctest::Approx(16 * (r.g_params + r.d_params)));
    CHECK(r.g_ema_bytes >= 4 * r.g_params);
    // The per-GPU batch is what sets memory: the same job on 4 cards at a quarter of the batch holds less.
    CHECK(run(s, 4, 4, "a100-sxm4-40gb").peak_allocated_bytes < r.peak_allocated_bytes);
}

TEST_CASE("DCGAN and pix2pix: D's step while G's graph waits, then G's step through D") {
    for (const char* id : {"dcgan-64", "pix2pix-256"}) {
        CAPTURE(id);
        const GanReport r = run(*gg::catalog::find_gan_preset(id), std::string(id) == "dcgan-64" ? 128 : 1, 1, "t4");
        REQUIRE(r.phases.size() == 2);
        CHECK(std::string(r.phases[0].name) == "Dmain");
        CHECK(r.g_ema_bytes == 0);
        CHECK(r.time_ok);
        CHECK(r.peak_allocated_bytes > 16 * (r.g_params + r.d_params));
        CHECK(r.peak_allocated_bytes < 15.0 * (1 << 30));  // both run on a free T4 (the tutorial's / repo's defaults)
    }
}

TEST_CASE("A GAN description is validated key by key, every problem naming its field") {
    using gg::catalog::Problem;
    auto parse = [](const char* text, std::vector<Problem>& problems) {
        GanSpec s;
        const bool ok = gg::catalog::parse_gan_spec(nlohmann::json::parse(text), "/model/gan", "scenario", s, problems);
        return ok;
    };
    std::vector<Problem> p;
    CHECK(parse(R"({"kind": "stylegan2", "resolution": 256, "channel_base": 16384, "mapping_layers": 2})", p));
    CHECK(p.empty());
    p.clear();
    CHECK_FALSE(parse(R"({"kind": "biggan"})", p));
    REQUIRE(p.size() == 1);
    CHECK(p[0].pointer == "/model/gan/kind");
    p.clear();
    CHECK_FALSE(parse(R"({"kind": "stylegan2", "resolution": 300, "fp16_levels": -1, "colour": 1})", p));
    REQUIRE(p.size() == 3);
    CHECK(p[0].pointer == "/model/gan/resolution");
    CHECK(p[1].pointer == "/model/gan/fp16_levels");
    CHECK(p[2].pointer == "/model/gan/colour");
    p.clear();
    CHECK_FALSE(parse(R"({"kind": "dcgan", "resolution": 128})", p));
    REQUIRE(p.size() == 1);
    CHECK(p[0].pointer == "/model/gan/resolution");
    p.clear();
    CHECK(parse(R"({"kind": "stylegan3", "resolution": 512, "conv_kernel": 1, "radial_filters": true, "g_channel_scale": 2})", p));
    CHECK(p.empty());
    CHECK_FALSE(parse(R"({"kind": "stylegan3", "conv_kernel": 2, "path_length": "no"})", p));
    REQUIRE(p.size() == 2);
    CHECK(p[0].pointer == "/model/gan/path_length");
    CHECK(p[1].pointer == "/model/gan/conv_kernel");
    p.clear();
    CHECK_FALSE(parse(R"([1, 2])", p));
    CHECK(p.size() == 1);
}
