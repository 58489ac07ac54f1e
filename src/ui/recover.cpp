// The page's last line of defence (issue 39): a throw that escaped a frame, the saved settings or a link must not
// leave the page at "Loading..." for good, as an uncaught exception in the main loop did. What the page held is kept
// whole for the user, then set aside a layer at a time until a frame draws.
#include <string>

#include "catalog/json_text.h"
#include "imgui.h"
#include "imgui_internal.h"  // ErrorCheckEndFrameRecover: ImGui's own clean-up of a frame cut short
#include "ui/app.h"

namespace gg::ui {

void app_end_failed_frame() {
    ImGuiContext* context = ImGui::GetCurrentContext();
    if (context == nullptr || !context->WithinFrameScope) return;  // the throw came before NewFrame
    ImGui::ErrorCheckEndFrameRecover(nullptr);  // closes the windows, tables and stacks the frame left open
    ImGui::EndFrame();
}

bool app_recover(AppState& app, const std::string& what) {
    if (++app.recoveries > 2) return false;
    // Everything the user had, as the page saves it (the scenario and pins before a link, the user's data): kept
    // before anything is dropped, so nothing is lost (the first throw's copy holds the most).
    if (app.recoveries == 1) app.kept_store_text = app_store_json(app);
    app.link_view = AppState::LinkView();
    app.link_user_data = nullptr;
    app.link_records.clear();
    app.link_over_bundled.clear();
    app.import_plan = ImportPlan();
    app.pins.clear();
    if (app.recoveries == 2) {  // the first step did not help: the user's own records go aside too (they are kept)
        app.user_data = nullptr;
        app.undo_import_available = false;
        app.user_data_before_import = nullptr;
        app.pins_before_import = nullptr;
        app.calibration_undo_available = false;
    }
    app_set_user_data(app, app.user_data);  // the catalog again, from what is left
    app.results = Results();
    app.invalid_inputs.clear();
    app.custom_model_draft = nullptr;
    app_load_default_scenario(app);
    app.tab = Tab::Calculator;
    app.tab_requested = true;
    app.notice = Str::PageRecovered;
    app.notice_details = {catalog::printable(what, 300)};
    ++app.results_generation;  // the platform saves the settings that now work
    return true;
}

}  // namespace gg::ui
