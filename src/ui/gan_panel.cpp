// The page's GAN view (gan_panel.h): the "GANs" group of the model box, the inputs a GAN takes, and its answer read
// from catalog::gan_report_json (the CLI's `gpuguide estimate` report of the same scenario). ImGui only.
#include "ui/gan_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>

#include "catalog/gan_models.h"
#include "catalog/gan_scenario.h"
#include "catalog/json_text.h"
#include "ui/calculator_panels.h"
#include "ui/format.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace gg::ui {

using nlohmann::json;

nlohmann::json gan_scenario_doc(const AppState& app) {
    const catalog::Scenario& s = app.scenario;
    json doc = {{"model", app.gan_model_id}, {"batch_size", s.batch_size}};
    if (!s.gpu_id.empty()) {
        doc["gpu"] = {{"id", s.gpu_id}, {"count", s.gpu_count}};
        if (s.ecc != engine::EccSetting::kDefault) doc["gpu"]["ecc"] = s.ecc == engine::EccSetting::kOn;
    }
    if (app.gan_kimg > 0) doc["kimg"] = app.gan_kimg;
    else if (s.dataset_samples > 0 && s.dataset_epochs > 0)
        doc["dataset"] = {{"samples", s.dataset_samples}, {"epochs", s.dataset_epochs}};
    if (s.display != "auto") doc["display"] = s.display;
    if (s.reserve_fraction > 0) doc["reserve_fraction"] = s.reserve_fraction;
    return doc;
}

void gan_update_results(AppState& app) {
    const catalog::ParsedGanScenario p = catalog::parse_gan_scenario_json(gan_scenario_doc(app), app.catalog());
    app.scenario_problems = p.problems;
    if (!p.problems.empty()) return;  // keep showing the last valid GAN answer
    app.gan_report = catalog::gan_report_json(p.scenario, app.catalog());
    ++app.results_generation;
}

bool gan_load_scenario(AppState& app, std::string_view text, std::vector<catalog::Problem>& problems) {
    const catalog::JsonText doc = catalog::parse_json_text(text);
    if (!doc.error.empty() || !catalog::is_gan_scenario(doc.value)) return false;
    catalog::ParsedGanScenario p = catalog::parse_gan_scenario_json(doc.value, app.catalog());
    if (p.problems.empty() && p.scenario.model_id == "custom")
        p.problems.push_back({"scenario", "/model", "the page takes the GAN presets; describe a custom GAN with gpuguide"});
    problems = p.problems;
    if (!problems.empty()) return true;
    const catalog::GanScenario& g = p.scenario;
    catalog::Scenario& s = app.scenario;
    app.gan_model_id = g.model_id;
    s.batch_size = g.batch_size;
    if (!g.gpu_id.empty()) select_gpu(s, g.gpu_id);
    s.gpu_count = g.gpu_count;
    s.ecc = g.ecc;
    s.display = g.display;
    s.reserve_fraction = g.reserve_fraction;
    s.dataset_samples = g.dataset_samples;
    s.dataset_epochs = g.dataset_epochs;
    app.gan_kimg = g.kimg;
    app.gan_report = nullptr;
    app.invalid_inputs.clear();
    app.scenario_dirty = true;
    return true;
}

bool draw_gan_choices(AppState& app) {
    bool chosen = false;
    ImGui::TextDisabled("%s", tr(Str::FamilyGan, app.lang));
    for (const engine::GanSpec& g : catalog::gan_presets()) {
        const bool selected = app.gan_model_id == g.id;
        ImGui::Indent();
        if (ImGui::Selectable((g.name + "##" + g.id).c_str(), selected) && !selected) {
            app.gan_model_id = g.id;
            app.gan_report = nullptr;
            app.model_defaults_note = false;
            chosen = true;
        }
        test_anchor(app, "model-" + g.id);
        ImGui::Unindent();
        if (selected) ImGui::SetItemDefaultFocus();
    }
    return chosen;
}

bool draw_gan_inputs(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    hint_text(tr(Str::GanInputsNote, L));
    test_anchor(app, "gan-inputs");
    section_heading(app, tr(Str::StepData, L));
    field_label(tr(Str::GanKimg, L), tr(Str::GanKimgTip, L));
    changed |= double_field(app, "##gan_kimg", app.gan_kimg, 0, 1e7, 0, tr(Str::UnitKimg, L), "%.6g");
    if (!(app.gan_kimg > 0)) {
        field_label(tr(Str::Samples, L), tr(Str::SamplesTip, L));
        changed |= double_field(app, "##samples", s.dataset_samples, 0, 1e12, 0, tr(Str::UnitSamples, L), "%.0f");
        field_label(tr(Str::Epochs, L), tr(Str::EpochsTip, L));
        changed |= double_field(app, "##epochs", s.dataset_epochs, 0, 1e4, 1, "", "%.4g");
    }
    section_heading(app, tr(Str::StepTraining, L));
    field_label(tr(Str::BatchSize, L), tr(Str::GanBatchTip, L));
    changed |= int_field(app, "##batch", s.batch_size, 1, 1 << 20, "");
    test_anchor(app, "gan-batch");
    section_heading(app, tr(Str::StepHardware, L));
    field_label(tr(Str::Gpu, L), tr(Str::GpuTip, L));
    changed |= draw_gpu_choice(app);
    if (const engine::GpuSpec* card = app.catalog().find_gpu(s.gpu_id); card != nullptr && engine::ecc_in_band(*card)) {
        field_label(tr(Str::Ecc, L), tr(Str::EccTip, L));
        bool on = engine::ecc_on(*card, s.ecc);
        if (ImGui::Checkbox("##gan_ecc", &on)) {
            s.ecc = on == card->ecc_on_by_default ? engine::EccSetting::kDefault
                                                  : on ? engine::EccSetting::kOn : engine::EccSetting::kOff;
            changed = true;
        }
    }
    field_label(tr(Str::GpuCount, L), tr(Str::GanGpuCountTip, L));
    changed |= int_field(app, "##gpu_count", s.gpu_count, 1, 1024, tr(Str::UnitCards, L));
    field_label(tr(Str::Reserve, L), tr(Str::ReserveTip, L));
    double reserve_percent = s.reserve_fraction * 100.0;
    if (double_field(app, "##reserve", reserve_percent, 0, 90, 5, tr(Str::UnitPercent, L), "%.0f")) {
        s.reserve_fraction = reserve_percent / 100.0;
        changed = true;
    }
    return changed;
}

namespace {

std::string ms_text(double seconds, Lang L) {
    char buf[64];
    std::snprintf(buf, sizeof buf, tr(Str::GanMs, L), format_significant(seconds * 1000, 3).c_str());
    return buf;
}

// A table with a first column of names and fixed number columns, each as wide as its header or `ems`, whichever is
// wider (headers differ between languages). Where the pane is narrower than that (a phone), the names keep their
// width and the table scrolls sideways, as the page's other tables do, instead of squeezing the names to nothing.
bool begin_gan_table(const char* id, int rows, const char* first, float first_ems,
                     std::initializer_list<std::pair<const char*, float>> cols) {
    const float em = ImGui::GetFontSize();
    float needed = first_ems * em;
    for (const auto& c : cols) needed += std::max(c.second * em, ImGui::CalcTextSize(c.first).x + 0.5f * em);
    const bool narrow = ImGui::GetContentRegionAvail().x < needed;
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (narrow) flags |= ImGuiTableFlags_ScrollX;
    // With ScrollX the table is a child window: as tall as its rows, the header and the scrollbar.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float row = ImGui::GetTextLineHeight() + 2.0f * style.CellPadding.y;
    const float height = narrow ? (float(rows) + 1.0f) * row + style.ScrollbarSize + 2.0f * style.CellPadding.y : 0.0f;
    if (!ImGui::BeginTable(id, int(cols.size()) + 1, flags, ImVec2(0, height))) return false;
    ImGui::TableSetupColumn(first, narrow ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch,
                            first_ems * em);
    for (const auto& c : cols)
        ImGui::TableSetupColumn(c.first, ImGuiTableColumnFlags_WidthFixed,
                                std::max(c.second * em, ImGui::CalcTextSize(c.first).x + 0.5f * em));
    ImGui::TableHeadersRow();
    return true;
}

const json& field(const json& j, const char* key) {
    static const json kNull = nullptr;
    return j.is_object() && j.contains(key) ? j[key] : kNull;
}

void verdict_lines(AppState& app, const json& r) {
    const Lang L = app.lang;
    const engine::GpuSpec* gpu = app.catalog().find_gpu(app.scenario.gpu_id);
    section_heading(app, tr(Str::ResultTitle, L));
    if (gpu == nullptr || !field(r, "verdict").is_string()) {
        wrapped_text(tr(Str::NoGpuChosen, L));
        return;
    }
    const std::string v = r["verdict"].get<std::string>();
    const Str head = v == "fits" ? Str::VerdictFits : v == "tight" ? Str::VerdictTight : Str::VerdictNoFit;
    const Str line = v == "fits" ? Str::SummaryFits : v == "tight" ? Str::SummaryTight : Str::SummaryNoFit;
    const std::string cards = cards_label(app.scenario.gpu_count, gpu->name, L);
    ImGui::PushFont(app.fonts.heading);
    ImGui::PushStyleColor(ImGuiCol_Text, v == "tight" ? kTightColor : verdict_color(v == "fits"));
    wrapped_textf(tr(head, L), cards.c_str());
    test_anchor(app, "gan-verdict");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    wrapped_textf(tr(line, L), cards.c_str(), format_gib(json_number(field(r, "memory_bytes"), "nvidia_smi", 0), L).c_str(),
                  format_gib(json_number(field(r, "gpu"), "usable_bytes", 0), L).c_str());
    const int max_batch = int(json_number(r, "max_batch_size", 0));
    if (v != "fits") {
        if (max_batch > 0) wrapped_textf(tr(Str::GanSmallerBatch, L), max_batch);
        else wrapped_text(tr(Str::GanNoFitAtOne, L));
    } else {
        hint_textf(tr(Str::GanMaxBatch, L), max_batch);
    }
}

void networks_table(AppState& app, const json& r) {
    const Lang L = app.lang;
    section_heading(app, tr(Str::GanNetworksTitle, L));
    if (!begin_gan_table("##gan_networks", 2, tr(Str::GanColNetwork, L), 9.0f,
                         {{tr(Str::GanColParams, L), 5.5f}, {tr(Str::GanColWeights, L), 5.5f},
                          {tr(Str::GanColStates, L), 5.5f}, {tr(Str::GanColEma, L), 5.5f}}))
        return;
    for (const char* key : {"generator", "discriminator"}) {
        const json& n = field(field(r, "networks"), key);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(tr(key[0] == 'g' ? Str::GanGenerator : Str::GanDiscriminator, L));
        ImGui::TableNextColumn();
        text_right(format_count(json_number(n, "params", 0), L));
        ImGui::TableNextColumn();
        text_right(format_gib(json_number(n, "weight_bytes", 0), L));
        ImGui::TableNextColumn();
        text_right(format_gib(json_number(n, "gradient_bytes", 0) + json_number(n, "optimizer_bytes", 0), L));
        ImGui::TableNextColumn();
        const double ema = json_number(n, "ema_bytes", 0);
        text_right(ema > 0 ? format_gib(ema, L) : std::string("-"));
    }
    ImGui::EndTable();
    hint_text(tr(Str::GanStatesNote, L));
}

void phases_table(AppState& app, const json& r) {
    const Lang L = app.lang;
    section_heading(app, tr(Str::GanPhasesTitle, L));
    const json& phases = field(r, "phases");
    if (!phases.is_array()) return;
    if (!begin_gan_table("##gan_phases", int(phases.size()), tr(Str::GanColPhase, L), 7.0f,
                         {{tr(Str::GanColEvery, L), 4.5f}, {tr(Str::GanColKept, L), 5.5f},
                          {tr(Str::GanColRun, L), 5.0f}, {tr(Str::GanColPerIteration, L), 5.5f}}))
        return;
    for (const json& p : phases) {
        const bool peak = field(p, "peak").is_boolean() && p["peak"].get<bool>();
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const std::string name = json_text(p, "name");
        if (peak) ImGui::TextColored(kTightColor, "%s  (%s)", name.c_str(), tr(Str::GanPeak, L));
        else ImGui::TextUnformatted(name.c_str());
        ImGui::TableNextColumn();
        text_right(std::to_string(int(json_number(p, "every", 1))));
        ImGui::TableNextColumn();
        text_right(format_gib(json_number(p, "activation_bytes", 0), L));
        const double run_s = json_number(p, "seconds"), per_s = json_number(p, "seconds_per_iteration");
        ImGui::TableNextColumn();
        text_right(run_s >= 0 ? ms_text(run_s, L) : std::string("-"));
        ImGui::TableNextColumn();
        text_right(per_s >= 0 ? ms_text(per_s, L) : std::string("-"));
    }
    ImGui::EndTable();
    test_anchor(app, "gan-phases");
    wrapped_textf(tr(Str::GanPeakLine, L), json_text(r, "peak_phase").c_str(),
                  format_gib(json_number(field(r, "memory_bytes"), "activations", 0), L).c_str(),
                  format_gib(json_number(field(r, "memory_bytes"), "peak_allocated", 0), L).c_str());
}

void time_lines(AppState& app, const json& r) {
    const Lang L = app.lang;
    section_heading(app, tr(Str::TimeTitle, L));
    const json& t = field(r, "time");
    if (!t.is_object()) {
        wrapped_text(tr(Str::GanNoTime, L));
        return;
    }
    ImGui::PushFont(app.fonts.heading);
    wrapped_textf(tr(Str::GanSpeed, L), format_significant(json_number(t, "sec_per_kimg", 0), 3).c_str(),
                  format_significant(json_number(t, "samples_per_s", 0), 3).c_str());
    test_anchor(app, "gan-speed");
    ImGui::PopFont();
    const double total_s = json_number(t, "total_s");
    if (total_s < 0) {
        hint_text(tr(Str::GanNoLength, L));
        return;
    }
    if (json_text(r, "verdict") == "does_not_fit") return;  // no time for a run that would not start
    wrapped_textf(tr(Str::GanTotal, L), format_significant(json_number(t, "kimg", 0), 4).c_str(),
                  format_duration(total_s, L).c_str());
    const json& rent = field(field(r, "cost"), "rent");
    if (rent.is_array() && !rent.empty() && field(rent[0], "cost").is_number())
        wrapped_textf(tr(Str::GanRent, L), format_money(rent[0]["cost"].get<double>(), json_text(r["cost"], "currency", "CNY"), L).c_str(),
                      json_text(rent[0], "provider").c_str());
}

}  // namespace

void draw_gan_results(AppState& app) {
    const json& r = app.gan_report;
    if (!r.is_object()) return;
    verdict_lines(app, r);
    time_lines(app, r);
    phases_table(app, r);
    networks_table(app, r);
}

void draw_gan_summary(AppState& app) {
    const json& r = app.gan_report;
    const engine::GpuSpec* gpu = app.catalog().find_gpu(app.scenario.gpu_id);
    if (!r.is_object() || gpu == nullptr || !field(r, "verdict").is_string()) return;
    const std::string v = r["verdict"].get<std::string>();
    ImGui::PushStyleColor(ImGuiCol_Text, v == "tight" ? kTightColor : verdict_color(v == "fits"));
    wrapped_textf(tr(v == "fits" ? Str::SummaryFits : v == "tight" ? Str::SummaryTight : Str::SummaryNoFit, app.lang),
                  cards_label(app.scenario.gpu_count, gpu->name, app.lang).c_str(),
                  format_gib(json_number(field(r, "memory_bytes"), "nvidia_smi", 0), app.lang).c_str(),
                  format_gib(json_number(field(r, "gpu"), "usable_bytes", 0), app.lang).c_str());
    test_anchor(app, "narrow-verdict");
    ImGui::PopStyleColor();
}

}  // namespace gg::ui
