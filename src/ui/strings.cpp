// The texts of the string table (data/text/strings/*.json, as ui/strings_table.h), looked up by id and language.
#include "ui/strings.h"

#include <cassert>
#include <utility>

namespace gg::ui {
namespace {
struct Entry {
    const char* en;
    const char* zh;
};
const Entry kEntries[] = {
#define GG_UI_STRING_ENTRY(id, en, zh) {en, zh},
    GG_UI_STRINGS(GG_UI_STRING_ENTRY)
#undef GG_UI_STRING_ENTRY
};
static_assert(sizeof(kEntries) / sizeof(kEntries[0]) == static_cast<int>(Str::Count), "one entry per Str id");
}  // namespace

const char* tr(Str id, Lang lang) {
    const int index = static_cast<int>(id);
    assert(index >= 0 && index < static_cast<int>(Str::Count) && "tr(): id out of range; add it to data/text/strings");
    return lang == Lang::Zh ? kEntries[index].zh : kEntries[index].en;
}

const char* formula_text(std::string_view formula_id, Lang lang) {
    // Memory ids: engine/memory.cpp evaluate (docs/memory-model.md); time ids: engine/time.cpp (docs/time-model.md).
    static const std::pair<std::string_view, Str> kTexts[] = {
        {"weights", Str::FmWeights},
        {"gradients", Str::FmGradients},
        {"optimizer_states", Str::FmOptimizer},
        {"autocast_weight_copies", Str::FmAutocastCopies},
        {"saved_activations", Str::FmActivations},
        {"temporaries_at_peak", Str::FmTemporaries},
        {"framework", Str::FmFramework},
        {"peak_allocated", Str::FmPeakAllocated},
        {"reserved", Str::FmReserved},
        {"nvidia_smi", Str::FmNvidiaSmi},
        {"time.step", Str::TfStep},
        {"time.compute_roofline", Str::TfCompute},
        {"time.bandwidth_roofline", Str::TfBandwidth},
        {"time.optimizer_step", Str::TfOptimizer},
        {"time.ring_allreduce", Str::TfRing},
        {"time.zero_collectives", Str::TfZero},
        {"time.exposed_comm", Str::TfExposed},
        {"time.model_flop", Str::TfModelFlop},
        {"time.model_parallel", Str::TfModelParallel},
    };
    for (const auto& [id, text] : kTexts)
        if (id == formula_id) return tr(text, lang);
    return "";
}

int string_count() { return static_cast<int>(Str::Count); }

const char* string_at(int index, Lang lang) { return tr(static_cast<Str>(index), lang); }

}  // namespace gg::ui
