// The string table: complete in both languages, with the same printf arguments in each.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/embedded_data.h"
#include "catalog/full_report.h"
#include "ui/glossary.h"
#include "ui/strings.h"

namespace {
// The printf conversions of a format string, in order ("%d%s" for "... %d ... %s ..."); "%%" is not one.
std::string conversions(const char* text) {
    std::string out;
    for (const char* p = text; *p; ++p) {
        if (*p != '%') continue;
        ++p;
        if (*p == '%') continue;
        while (*p && std::string("-+#0123456789.").find(*p) != std::string::npos) ++p;
        // Only real conversions count: "20% of" in plain text (shown through "%s") is not one.
        if (*p && std::string("dioufFeEgGxXsc").find(*p) != std::string::npos) out += std::string("%") + *p;
        if (!*p) break;
    }
    return out;
}

bool has_cjk(const char* utf8) {
    // U+4E00..U+9FFF are three bytes starting 0xE4..0xE9.
    for (const unsigned char* p = reinterpret_cast<const unsigned char*>(utf8); *p; ++p)
        if (*p >= 0xE4 && *p <= 0xE9) return true;
    return false;
}
}  // namespace

TEST_CASE("every string exists in English and Chinese with the same printf conversions") {
    using namespace gg::ui;
    REQUIRE(string_count() > 10);
    for (int i = 0; i < string_count(); ++i) {
        const char* en = string_at(i, Lang::En);
        const char* zh = string_at(i, Lang::Zh);
        CAPTURE(i);
        CAPTURE(en);
        REQUIRE(en != nullptr);
        REQUIRE(zh != nullptr);
        CHECK(std::string(en).size() > 0);
        CHECK(std::string(zh).size() > 0);
        CHECK(conversions(en) == conversions(zh));
    }
}

TEST_CASE("the Chinese table is actually Chinese where the English is a sentence") {
    using namespace gg::ui;
    for (int i = 0; i < string_count(); ++i) {
        const std::string en = string_at(i, Lang::En);
        if (en.find(' ') == std::string::npos) continue;  // names and single words may stay as they are
        CAPTURE(en);
        CHECK(has_cjk(string_at(i, Lang::Zh)));
    }
}

TEST_CASE("conversions() reads printf formats the way the table uses them") {
    CHECK(conversions("%d GPUs, %.1f GiB, 100%%") == "%d%f");
    CHECK(conversions("keep 20% free") == "");
    CHECK(conversions("plain") == "");
}

TEST_CASE("every formula id the engines report has a sentence in both languages") {
    // The page shows each explained figure as "value  sentence" above its id and operands: an id the engines emit
    // without a sentence would show an empty line. Walk whole reports of jobs that reach every formula: one GPU,
    // a DDP ring, ZeRO-3 collectives, tensor + pipeline parallelism.
    const gg::catalog::Catalog& catalog = gg::catalog::embedded_catalog();
    std::set<std::string> ids;
    for (const char* text :
         {R"({"model": "bert-large", "batch_size": 8, "precision": "fp16-amp", "gpu": {"id": "a100-sxm4-80gb"}})",
          R"({"model": "resnet50", "batch_size": 64, "gpu": {"id": "rtx-4090", "count": 2}})",
          R"({"model": "gpt2", "batch_size": 4, "precision": "bf16-amp",
              "gpu": {"id": "a100-sxm4-80gb", "count": 8, "strategy": "zero3"}})",
          R"({"model": "llama-2-7b", "batch_size": 1, "grad_accum_steps": 8, "precision": "bf16-amp",
              "gpu": {"id": "a100-sxm4-80gb", "count": 16, "tensor_parallel": 4, "pipeline_parallel": 2,
                      "sequence_parallel": true}})"}) {
        const gg::catalog::ParsedDecision p = gg::catalog::parse_decision_scenario(text, catalog);
        REQUIRE(p.problems.empty());
        const gg::catalog::Estimate e = gg::catalog::estimate(p.value.scenario, catalog);
        const nlohmann::json report = gg::catalog::full_report(p.value, e, catalog);
        // Memory figures: formula ids of the engine's report (the page reads them from the MemoryReport itself).
        const gg::engine::MemoryReport& m = e.report;
        for (const gg::engine::Figure* f : {&m.weights, &m.gradients, &m.optimizer, &m.autocast_weight_copies,
                                            &m.activations, &m.temporary, &m.framework, &m.peak_allocated,
                                            &m.reserved, &m.nvidia_smi})
            ids.insert(f->formula);
        REQUIRE(report["time"].is_object());
        for (const auto& [key, figure] : report["time"]["explain"].items()) ids.insert(figure["formula"].get<std::string>());
    }
    CHECK(ids.count("time.ring_allreduce"));
    CHECK(ids.count("time.zero_collectives"));
    CHECK(ids.count("time.model_parallel"));
    CHECK(ids.size() == 19);  // 10 memory + 9 time formulas
    for (const std::string& id : ids) {
        CAPTURE(id);
        CHECK(std::string(gg::ui::formula_text(id, gg::ui::Lang::En)).size() > 20);
        CHECK(has_cjk(gg::ui::formula_text(id, gg::ui::Lang::Zh)));
    }
    CHECK(std::string(gg::ui::formula_text("time.no_such_formula", gg::ui::Lang::En)).empty());
}

TEST_CASE("every glossary entry has its term, a line in English and in Chinese, and a source") {
    using namespace gg::ui;
    REQUIRE(glossary_count() >= 20);
    std::set<std::string> terms;
    for (int i = 0; i < glossary_count(); ++i) {
        const GlossaryEntry& e = glossary_entry(i);
        const std::string term = e.term;
        CAPTURE(term);
        CHECK(terms.insert(e.term).second);  // each term once
        CHECK(std::string(e.en).size() > 20);
        CHECK_FALSE(has_cjk(e.en));
        CHECK(has_cjk(e.zh));
        CHECK(std::string(e.source).size() > 5);
        CHECK(conversions(e.en).empty());  // shown through "%s": a stray % would not print
        CHECK(conversions(e.zh).empty());
        // Every spelling it is matched by names it in the tooltip: the entry is found in its own match list's words.
        CHECK_FALSE(glossary_terms_in(e.match).empty());
    }
}

TEST_CASE("the glossary explains the issue's terms of art and every entry names a term the page uses") {
    using namespace gg::ui;
    // Issue 40's list: each is found in a text that uses it.
    for (const char* text : {"MFU 38%", "ZeRO-3 over 4 cards", "SDPA attention", "foreach AdamW", "Liger kernel",
                             "sample packing", "on the frontier", "LoRA rank", "QLoRA", "AMP", "checkpointing",
                             "NVLink", "ECC memory", "TF32"}) {
        CAPTURE(text);
        CHECK_FALSE(glossary_terms_in(text).empty());
    }
    // Whole words only: QLoRA is not LoRA, "camp" is not AMP, "fp16-amp" is FP16.
    const auto only = [](const char* text) {
        std::set<std::string> out;
        for (int i : glossary_terms_in(text)) out.insert(glossary_entry(i).term);
        return out;
    };
    CHECK(only("QLoRA") == std::set<std::string>{"QLoRA"});
    CHECK(only("a camp") == std::set<std::string>{});
    CHECK(only("fp16-amp") == std::set<std::string>{"FP16"});
    CHECK(only("ZeRO-3") == std::set<std::string>{"ZeRO"});
    CHECK(only("ZeRO 阶段3，检查点") == std::set<std::string>{"ZeRO", "checkpointing"});
    // No entry is dead: each names a term some page string uses, in English and in Chinese.
    for (int i = 0; i < glossary_count(); ++i) {
        const std::string term = glossary_entry(i).term;
        CAPTURE(term);
        bool en = false, zh = false;
        for (int s = 0; s < string_count() && !(en && zh); ++s) {
            for (int t : glossary_terms_in(string_at(s, Lang::En))) en |= t == i;
            for (int t : glossary_terms_in(string_at(s, Lang::Zh))) zh |= t == i;
        }
        CHECK(en);
        CHECK(zh);
    }
}
