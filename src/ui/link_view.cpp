// A shared link's view (issue 39): what a link brought is shown, and the saved settings keep the user's scenario and
// pins until the user presses "Keep the link's settings" (with an undo) or goes "Back to my settings". Reading the
// link is app_apply_fragment's (app_link.cpp); this file holds the user's three answers and their strip under the header.
#include <string>
#include <utility>

#include "ui/app.h"
#include "ui/strings.h"
#include "ui/widgets.h"

namespace gg::ui {

namespace {
// The link's own records leave the view (the catalog is rebuilt without them).
void drop_link_records(AppState& app) {
    app_clear_link_records(app);
    app_set_user_data(app, app.user_data);  // rebuilds the catalog from the bundled one and the user's own records
}

bool is_link_notice(Str notice) {
    switch (notice) {
        case Str::LinkBroken: case Str::LinkNewer: case Str::LinkOwnRecordKept: case Str::LinkInvalid:
        case Str::LinkInvalidKept: case Str::LinkPartlyApplied: case Str::LinkBrokenKept: case Str::LinkNewerKept:
        case Str::LinkTooLarge: case Str::LinkRecordsSaved: case Str::LinkKept: case Str::LinkKeepUndone: return true;
        default: return false;
    }
}
}  // namespace

void app_keep_link(AppState& app) {
    AppState::LinkView& v = app.link_view;
    if (!v.pending) return;
    v.undo_scenario = v.saved_scenario;
    v.undo_pins = v.saved_pins;
    v.undo_user_data = app.user_data;
    v.undo_available = true;
    v.pending = false;
    v.brought_pins = false;
    std::vector<std::string> saved_records;
    // A kept scenario on the link's own card needs that card on the next visit; a record over a bundled card is not
    // needed for that (the bundled id exists) and keeps its own question ("Save to my data").
    if (app.link_user_data.is_object() && app.link_over_bundled.empty() && app_save_link_records(app, true))
        saved_records = app.notice_details;
    app.notice = Str::LinkKept;
    app.notice_details = std::move(saved_records);
    ++app.results_generation;  // the platform saves the settings now shown
}

void app_undo_keep_link(AppState& app) {
    AppState::LinkView& v = app.link_view;
    if (!v.undo_available) return;
    if (v.undo_user_data != app.user_data) app_set_user_data(app, v.undo_user_data);
    // It was the loaded scenario before the link; should it be refused now, the kept one stays and the notice says so.
    const std::vector<catalog::Problem> problems = app_load_scenario(app, v.undo_scenario.dump());
    app_set_pins(app, v.undo_pins);
    v = AppState::LinkView();
    app.notice = Str::LinkKeepUndone;
    app.notice_details.clear();
    for (const catalog::Problem& p : problems) app.notice_details.push_back(p.pointer + ": " + p.message);
    ++app.results_generation;
}

void app_discard_link(AppState& app) {
    AppState::LinkView& v = app.link_view;
    if (!v.pending) return;
    if (app.link_user_data.is_object()) drop_link_records(app);
    const std::vector<catalog::Problem> problems = app_load_scenario(app, v.saved_scenario.dump());
    if (v.brought_pins) app_set_pins(app, v.saved_pins);
    v = AppState::LinkView();
    if (is_link_notice(app.notice)) {  // the link's own notice (a reset setting) is about what is no longer shown
        app.notice = Str::Dismiss;
        app.notice_details.clear();
    }
    for (const catalog::Problem& p : problems) app.notice_details.push_back(p.pointer + ": " + p.message);
    ++app.results_generation;  // the fragment follows what is shown again
}

void draw_link_view(AppState& app) {
    const AppState::LinkView& v = app.link_view;
    if (!v.pending) return;
    const Lang L = app.lang;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.10f, 0.34f, 0.62f, 1.0f));
    wrapped_text(tr(Str::LinkViewing, L));
    if (v.brought_pins && v.saved_pins.is_array() && !v.saved_pins.empty())
        wrapped_textf(tr(Str::LinkViewPins, L), static_cast<int>(app.pins.size()), static_cast<int>(v.saved_pins.size()));
    ImGui::PopStyleColor();
    test_anchor(app, "link-view");
    if (ImGui::SmallButton(stable_label(tr(Str::LinkKeep, L), "link-keep").c_str())) app_keep_link(app);
    test_anchor(app, "link-keep");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Str::LinkKeepTip, L));
    // Beside "Keep" when both fit the line (a 390 px phone in Chinese or English may not), else under it.
    const std::string discard = stable_label(tr(Str::LinkDiscard, L), "link-discard");
    const float discard_w = ImGui::CalcTextSize(tr(Str::LinkDiscard, L)).x + 2.0f * ImGui::GetStyle().FramePadding.x;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < discard_w) ImGui::NewLine();
    if (ImGui::SmallButton(discard.c_str())) app_discard_link(app);
    test_anchor(app, "link-discard");
}

}  // namespace gg::ui
