// The page's UI: one AppState that owns everything the user sees and enters, and the functions that draw it
// with Dear ImGui each frame. No platform code here (no GLFW, GL or Emscripten): src/platform drives it.
// Sections: fonts | results (derived, recomputed when inputs change) | AppState | entry points.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/decision_json.h"
#include "catalog/report.h"
#include "catalog/scenario.h"
#include "catalog/time_json.h"
#include "catalog/training_config.h"
#include "engine/calibration.h"
#include "imgui.h"
#include "ui/strings.h"

namespace gg::ui {

// ---- fonts ---------------------------------------------------------------------------------------------
// Fonts are rasterised at the device's pixel density, so text stays crisp on HiDPI screens.
struct FontSet {
    ImFont* body = nullptr;
    ImFont* heading = nullptr;
    ImVector<ImWchar> glyph_ranges;  // must outlive the atlas
    float built_for_scale = 0;       // the dpi_scale the atlas was built for; 0 = never built
};

// ---- results: derived from the scenario, never edited -------------------------------------------------------
struct CardFit {
    int gpu_index = -1;       // into catalog::embedded_catalog().gpus
    int max_batch_size = 0;   // 0 = batch 1 does not fit (with the headroom)
    engine::Verdict verdict = engine::Verdict::kDoesNotFit;  // the scenario's batch on this card (engine::judge_job)
};

struct Results {
    bool valid = false;                   // false until a valid scenario was computed
    catalog::DecisionScenario scenario;   // the scenario these results are for
    catalog::Estimate estimate;
    nlohmann::json report;                // the CLI's `gpuguide estimate` report for `scenario`
    nlohmann::json ranking;               // `gpuguide rank --json`
    nlohmann::json advice;                // the `gpuguide advise --json` entry of the scenario's GPU (null: none)
    std::vector<CardFit> cards;           // every catalog GPU, catalog order
    std::string stack_config;             // catalog::stack_config(scenario).text: the config to paste ("" = none)
    std::vector<double> curve_batch;      // memory vs batch (nvidia-smi bytes) at these batch sizes
    std::vector<double> curve_bytes;
    // "A cost past any budget" (issue 30): the cheapest option the job fits, when it costs more than
    // kAnyBudgetCny; 0 otherwise. In the ranking's currency.
    double over_budget_cost = 0;
    std::string over_budget_currency;
};
// More than any training budget: the largest published training runs cost on the order of 100 million USD
// (Sam Altman on GPT-4: "more than $100 million", Wired, 2023-04-17); 1 billion CNY is about 140 million USD.
inline constexpr double kAnyBudgetCny = 1e9;

// ---- pins: scenarios kept beside the current one for comparison (issue 33) ------------------------------------
// A pin holds its scenario document and what the page showed for it: the report and the two costs of the cost
// panel, taken from the results when pinned (no recompute), computed once when it comes from a link or the saved
// settings, or when the catalog changes (the user's own data).
struct Pin {
    nlohmann::json scenario;   // as app_scenario_json: what the link, the saved settings and the CLI read
    // The same scenario as the CLI writes it back (every key, defaults filled in): what the comparison sets apart, so a
    // pin from a link that leaves a default out does not differ from a current scenario that spells it (null: invalid).
    nlohmann::json normalized = nullptr;
    bool computed = false;     // false: report, rent and buy are to be computed (compute_pins)
    std::vector<catalog::Problem> problems;  // of the scenario against the page's catalog (empty = valid)
    nlohmann::json report;     // the CLI's `gpuguide estimate` report (null when the scenario has problems)
    nlohmann::json rent;       // the ranking's cheapest fitting rent offer for its card (null: none)
    nlohmann::json buy;        // the ranking's buy option for its card and count (null: none)
};
inline constexpr int kMaxPins = catalog::kMaxPins;

enum class Tab { Calculator, Guide, Validation, Data };

// "Load from a file" in two steps (issue 30): the file is read and checked whole, then what it would change is shown
// and nothing happens until the user confirms. The file's records go over the user's by id; the user's other records
// stay. What the user had before the last import is kept for "Undo import".
struct ImportPlan {
    bool pending = false;
    nlohmann::json merged = nullptr;      // app.user_data after the import
    std::vector<std::string> added;       // "name (id)" of records the user does not have
    std::vector<std::string> replaced;    // of the user's records the file changes
    std::vector<std::string> kept;        // of the user's records the file does not name (they stay as they are)
    std::vector<std::string> over_bundled;  // of file records with the id of a bundled card or offer (they replace it)
    int unchanged_count = 0;              // file records identical to the user's
    int skipped_count = 0;                // entries of the file that are not records with an "id" (left out)
    std::vector<catalog::Problem> problems;  // of the merged records (kept and listed, not used, like anything entered)
    // The file's pinned scenarios (issue 33), checked with the records: they replace the user's pins on "Import"
    // ("Undo import" brings those back). null: the file has none, and the user's pins stay.
    nlohmann::json pins = nullptr;
    int current_pin_count = 0;                // the user's pins the file's replace
};

// ---- AppState: the single source of truth of the page --------------------------------------------------------
// One line under the training-config box: a setting the file does not give (assumed) or a key it gives that the
// estimate does not use, with why (catalog::TrainingConfigRead).
struct TrainingConfigNote {
    bool assumed = false;
    std::string key;
    std::string note;  // English, as the reader wrote it
    catalog::ConfigNoteKind kind = catalog::ConfigNoteKind::kOther;  // the common reasons are shown translated
};

struct AppState {
    Lang lang = Lang::En;
    float dpi_scale = 1.0f;          // device pixels per CSS pixel, set by the platform each frame
    float body_font_css_px = 16.0f;  // body text size in CSS pixels
    FontSet fonts;
    int frame_count = 0;
    int open_popups = 0;             // dropdowns, combos and menus open at the end of the last frame (tests read it)
    bool escape_pressed = false;     // the platform saw Escape go down since the last frame (it closes what is open)

    Tab tab = Tab::Calculator;
    bool tab_requested = false;      // select `tab` programmatically on the next frame

    // The user's own GPUs, cloud offers and prices (catalog::merge_user_data's format), kept as entered: records
    // with problems stay here (and are listed) but are left out of `user_catalog`, so nothing entered is lost.
    nlohmann::json user_data = nullptr;  // null = none
    catalog::Catalog user_catalog;       // the bundled catalog merged with the valid records of `user_data`
    bool user_catalog_active = false;    // false: catalog() is the bundled one
    std::vector<catalog::Problem> user_data_problems;
    ImportPlan import_plan;                            // a file waiting for the user's "Import" or "Cancel"
    bool undo_import_available = false;                // "Undo import" restores user_data_before_import
    nlohmann::json user_data_before_import = nullptr;  // saved with the settings, so an undo survives a reload
    nlohmann::json pins_before_import = nullptr;       // the pins the last import replaced (null: it brought none)
    // Records a shared link brought (only those its scenario uses): part of the catalog for this view, never saved
    // unless the user presses "Save to my data" (and confirms when one replaces a bundled card or offer).
    nlohmann::json link_user_data = nullptr;           // null = none
    std::vector<catalog::Problem> link_data_problems;
    std::vector<std::string> link_records;             // "name (id)" of each, for the notice
    std::vector<std::string> link_over_bundled;        // "name (id): link's figures vs the catalog's"
    int link_ignored_count = 0;                        // records of the link its scenario does not use (not read)
    bool link_save_confirming = false;                 // "Save to my data" pressed with link_over_bundled not empty
    bool link_records_seen = false;                    // "OK" pressed: the list is hidden, the records stay in use
    // A link's scenario and pins are shown, never saved, until the user keeps them (issue 39: a link replaced the
    // saved pins silently). While `pending`, the saved settings keep `saved_scenario` and `saved_pins`; "Keep" saves
    // what is shown ("Undo" brings back what was saved), "Back to my settings" shows the saved ones again.
    struct LinkView {
        bool pending = false;
        bool brought_pins = false;                 // the pins shown are the link's (else the user's own, saved as edited)
        nlohmann::json saved_scenario = nullptr;   // app_scenario_json when the link came
        nlohmann::json saved_pins = nullptr;       // app_pins_json when the link came
        bool undo_available = false;               // "Undo" after "Keep"
        nlohmann::json undo_scenario = nullptr;
        nlohmann::json undo_pins = nullptr;
        nlohmann::json undo_user_data = nullptr;   // the link's own records are saved with a kept scenario on its card
    } link_view;
    // The `source` the page writes on prices the user enters; the cost formula names such a price "your price".
    static constexpr const char* kUserPriceSource = engine::kUserPriceSource;
    std::string today_iso = "2026-12-02";  // the date own prices are stamped with (the platform sets it at start)
    const catalog::Catalog& catalog() const;

    catalog::Scenario scenario;      // what the user entered (invalid field values stay in `invalid_inputs`)
    nlohmann::json decision = nlohmann::json::object();  // budget, ownership, ... (decision_json.h keys)
    // Where the reader is (issue 40): "" = not asked yet, "mainland_china" or "elsewhere" (decision_json.h user_region).
    // The reader's own: saved with the settings, never put in a link (a link's reader may be elsewhere).
    std::string user_region;
    bool scenario_dirty = true;      // results must be recomputed
    bool model_defaults_note = false;  // the last change was a model switch that set its defaults (shown until the next)
    std::vector<catalog::Problem> scenario_problems;  // of `scenario` as a whole (combinations)
    nlohmann::json custom_model_draft = nullptr;        // a custom model being edited that is not valid yet
    std::vector<catalog::Problem> custom_model_problems;  // why the draft is not applied
    // The pasted config.json: its text box's buffer, kHfConfigTextBytes once the box is first drawn (empty until then:
    // every AppState, the fuzz targets' included, would otherwise clear 256 KiB).
    std::vector<char> hf_config_text;
    // The pasted training config (training_config_paste.cpp): its box's buffer (sized when first drawn, as above), the
    // problems of its last "Use this config", the Hub name it could not find, and what was assumed and not used.
    std::vector<char> training_config_text;
    std::vector<catalog::Problem> training_config_problems;
    std::string training_config_unknown_model;
    std::vector<TrainingConfigNote> training_config_notes;
    std::unordered_map<ImGuiID, double> invalid_inputs;  // a field's out-of-range value, shown until fixed
    Results results;
    // A GAN preset chosen in the model box (issue 42, gan_panel.h): the scenario's batch, card, count, dataset, ECC,
    // display and reserve then describe the GAN job, and only gan_report is shown. "" = a one-network scenario.
    std::string gan_model_id;
    double gan_kimg = 0;                  // the length in kimg (StyleGAN's unit); 0 = dataset samples x epochs
    nlohmann::json gan_report = nullptr;  // catalog::gan_report_json of gan_scenario_doc (null until computed)
    bool decisions_pending = false;      // results.ranking / results.advice are not computed yet
    bool defer_first_decisions = false;  // the platform: compute the ranking after the first frame, not before it
    // "Start over" (issue 40): the inputs as they were before it (app_scenario_json), for its Undo; null: none.
    nlohmann::json start_over_undo = nullptr;
    // An advisor's fix that changes the card count is asked before it is applied: its count while the question is
    // shown (0 = not asked). Cleared whenever the results are recomputed.
    int fix_confirm_cards = 0;
    int explained_part = -1;         // memory breakdown row opened into its formula (-1 = none)
    bool show_not_fitting = false;   // ranking: also list options the job does not fit
    bool narrow_show_answer = false; // one-column layout (phones): the answer view instead of the inputs view
    int results_generation = 0;      // bumped whenever the results are recomputed (the platform syncs the link)
    std::vector<Pin> pins;           // at most kMaxPins, oldest first
    int pin_computations = 0;        // how many times a pin's results were computed (tests and the benchmark count)
    int recoveries = 0;              // times app_recover set things aside after a throw (the third gives up)

    // Links and embedding.
    bool embed = false;              // compact layout for an iframe (?embed=1 or #embed=1)
    bool copy_link_requested = false;  // the platform copies the link to the clipboard, then clears it
    bool open_full_requested = false;  // embed mode: the platform opens the full page, then clears it
    double link_copied_at_s = -1;    // ImGui time the link was copied (a short confirmation)
    std::string clipboard_text;      // the platform copies it to the clipboard, then clears it
    std::string download_name;       // the platform offers `download_text` as a file of this name, then clears both
    std::string download_text;
    bool import_requested = false;   // the platform opens a file picker and calls app_import_user_data with the text
    // Copy buttons (widgets.h copy_button): which one copied last (its anchor name), when, and what came of it; the
    // platform reports the outcome through app_copy_result.
    enum class CopyState { kCopying, kCopied, kRefused };
    std::string copy_source;
    CopyState copy_state = CopyState::kCopying;
    double copy_at_s = -1;
    bool paste_requested = false;  // the config.json box's Paste: the platform reads the clipboard (app_paste_result)
    bool paste_refused = false;    // the browser refused that: the box says how to paste instead
    bool paste_into_training_config = false;  // that Paste was the training-config box's
    bool store_writable = true;      // false when the saved settings are from a newer version (left untouched)
    bool store_blocked = false;      // a damaged store could not be copied aside (storage full): not overwritten
                                     // until the user saved it as a file
    std::string kept_store_text;     // saved settings this version could not use (damaged or newer): offered as a file
    Str notice = Str::Dismiss;       // a message for the user (Str::Dismiss = none)
    std::vector<std::string> notice_details;

    // Where named widgets were drawn in the last frame, in CSS pixels ({x, y, w, h}): window.gpuguide.anchor(name)
    // lets the browser tests click what they mean instead of fixed points that move with every layout change.
    struct Anchor {
        float x = 0, y = 0, w = 0, h = 0;
        bool visible = false;  // not clipped away (e.g. scrolled out of its panel)
        int frame = -1;        // the frame it was drawn in (an anchor not drawn in the last frame is not on screen)
        // Tables (table_anchor): the width of what they hold (more than w: it scrolls sideways) and how many columns
        // cut their text at the column's edge (the phone tests want none).
        float content_w = 0;
        int clipped_columns = 0;
        int clipped_mask = 0;  // which of them (bit i: column i, as drawn)
    };
    std::unordered_map<std::string, Anchor> anchors;

    std::vector<catalog::ValidationRow> validation_rows;  // the Accuracy tab, computed on first view
    catalog::ErrorTable validation_error_table;             // its time rows by card class and family, with them
    bool validation_computed = false;
    bool validation_only_failures = false;
    // The Accuracy tab's filters (chart and table): -1 = all; else an index into the family groups / kinds of figure
    // (reference_tabs.cpp); "" = every card.
    int validation_family = -1;
    int validation_kind = 0;  // peak memory first: one unit on the axes, the band readable (-1 = every kind)
    std::string validation_gpu;

    // "Calibrate with my measurement" (calibration_panel.cpp): what the user typed, in GiB and per second (0 = not
    // given), the attribution of the last "Compare" for `calibration_gpu`, and what "Undo" restores.
    struct CalibrationDraft {
        double nvidia_smi_gib = 0, allocated_gib = 0, reserved_gib = 0, speed_per_s = 0;
        int speed_unit = 0;  // 0 samples/s, 1 optimizer steps/s
    } calibration_draft;
    bool calibration_checked = false;          // `calibration_result` is for the current inputs and card
    std::string calibration_gpu;               // the card it was checked on
    engine::Measurement calibration_measured;  // in base units (steps/s converted to samples/s)
    engine::CalibrationResult calibration_result;
    std::string calibration_family;            // engine::family_name of the job it was checked with
    bool calibration_undo_available = false;
    std::string calibration_undo_gpu;
    nlohmann::json calibration_undo_record = nullptr;  // the card's record before the last apply (null = none)
    Str calibration_message = Str::Dismiss;    // the last apply / undo (Str::Dismiss = none)
};

// ---- entry points ------------------------------------------------------------------------------------------
// Once, after ImGui::CreateContext(): theme, no .ini file, the default scenario.
void app_init(AppState& app);

// Rebuilds the font atlas when the pixel density changed; returns true when it did (the renderer must
// then upload the atlas texture again).
bool app_update_fonts(AppState& app);

// One frame of UI, covering the whole display (between ImGui::NewFrame() and ImGui::Render()).
void app_frame(AppState& app);

// Recomputes the results when the scenario changed (app_frame calls it; tests and the test hook too).
void app_update_results(AppState& app);

// The report as JSON text: the CLI's `gpuguide estimate` report for the current scenario, plus `scenario`.
std::string app_report_json(AppState& app);

// The whole scenario document the inputs stand for (base + decision keys), in the CLI's format.
nlohmann::json app_scenario_json(const AppState& app);
// app_scenario_json plus the reader's own user_region: what the results are computed for (not what links carry).
nlohmann::json app_decided_scenario_json(const AppState& app);

// The URL fragment for the current scenario ("s=1.xxx", with "embed=1&" in embed mode).
std::string app_fragment(const AppState& app);
// Loads a scenario from a URL fragment; a damaged, newer or invalid link leaves the defaults and sets a notice.
void app_apply_fragment(AppState& app, std::string_view fragment);

// Forgets a link's own records and what the page said about them (the caller rebuilds the catalog).
void app_clear_link_records(AppState& app);
// The user's own data: replaces app.user_data and rebuilds the merged catalog. Records with problems are kept in
// user_data and listed in user_data_problems. If the scenario's GPU disappears, the scenario keeps it and shows the
// problem until the user picks another card.
void app_set_user_data(AppState& app, nlohmann::json user_data);
// A JSON file the user picked (the export of this page, or a hand-written one), checked whole: a file that is not a
// data file (not JSON, no records, a scenario, the page's saved settings, a newer schema_version, too large) is
// refused with a notice saying what it is; otherwise app.import_plan is filled and the user is asked. Nothing
// changes before app_confirm_import. Returns true when a plan waits for the user.
bool app_import_user_data(AppState& app, std::string_view text);
// The platform did not read a picked file because it is over catalog::kMaxJsonTextBytes.
void app_import_too_large(AppState& app, double size_bytes);
void app_confirm_import(AppState& app);  // applies app.import_plan; "Undo import" becomes available
void app_cancel_import(AppState& app);
void app_undo_import(AppState& app);     // back to the user's data before the last import
// A link's view (AppState::link_view): "Keep the link's settings" saves the scenario and pins shown (and the link's own
// records its scenario uses, unless one replaces a bundled card: that still asks through "Save to my data"); "Undo"
// brings back what was saved before; "Back to my settings" shows the saved scenario and pins again and drops the
// link's records from the view.
void app_keep_link(AppState& app);
void app_undo_keep_link(AppState& app);
void app_discard_link(AppState& app);
// "Save to my data" of a link's records: false (and link_save_confirming set) when a record replaces a bundled one
// and `confirmed` is false.
bool app_save_link_records(AppState& app, bool confirmed);
// The export file: {"schema_version": 1, "gpus": [...], "offers": [...], "calibrations"?: [...], "pins"?: [...]}
// (also what `gpuguide` reads as user data; "pins" are the pinned scenarios' documents).
std::string app_user_data_file(const AppState& app);

// Saved settings (the platform keeps them in localStorage under kStoreKey):
//   {"version": 1, "scenario": {...}, "user_data": {...}, "user_data_before_import": {...}}. Returns what happened;
//   a damaged or newer store leaves the defaults and a notice. kPartlyLoaded: something in it could not be used (a
//   setting this version refuses, a user_data that is not an object or has keys it does not know); the rest is
//   applied. For kUnreadable and kPartlyLoaded the platform keeps the stored text aside, under
//   kStoreUnreadableKey + "." + the date and time (one key each, so a second damaged store does not overwrite the
//   first), and tells app_store_copy_result whether that worked.
inline constexpr const char* kStoreKey = "gpuguide.v1";
inline constexpr const char* kStoreUnreadableKey = "gpuguide.v1.unreadable";
enum class StoreStatus { kEmpty, kLoaded, kPartlyLoaded, kUnreadable, kNewer };
std::string app_store_json(const AppState& app);
StoreStatus app_apply_store(AppState& app, std::string_view stored);
// `key`: where the text was kept; copied false (storage full): the store is not overwritten (store_blocked) until
// the user saved the text as a file.
void app_store_copy_result(AppState& app, const std::string& key, bool copied);

// The clipboard (the platform, after a Copy button or the config.json box's Paste): whether the text went onto the
// clipboard; the text read (ok false: the browser refused, the box says how to paste instead).
void app_copy_result(AppState& app, bool ok);
void app_paste_result(AppState& app, bool ok, std::string_view text);
// The notice as JSON for window.gpuguide.notice(): {"text", "details": [...], "import": {...} | null, "undo",
// "link": {...} | null, "store_blocked"} (tests read what the user sees).
nlohmann::json app_notice_json(const AppState& app);

// Sets the inputs from a scenario in the CLI's format; returns the problems (empty = accepted). On problems
// nothing changes.
std::vector<catalog::Problem> app_load_scenario(AppState& app, std::string_view scenario_json);

// "Calibrate with my measurement" (issue 33) on the scenario's card: compares `measured` with the uncalibrated
// estimate and keeps the attribution (app.calibration_result); false when there is no card or nothing measured.
bool app_check_calibration(AppState& app, const engine::Measurement& measured);
// Writes the checked calibration into the user's data ("calibrations", one record per card, saved and exported with
// it); "Undo" then restores the card's record as it was. False when nothing applicable was checked.
bool app_apply_calibration(AppState& app);
void app_undo_calibration(AppState& app);
void app_remove_calibration(AppState& app, const std::string& gpu_id);
// The Accuracy tab's row `index` (app.validation_rows) opened in the calculator; false when it has no scenario the
// calculator accepts.
bool app_open_validation_case(AppState& app, std::size_t index);
// Pins (compare.cpp). Pinning copies the current results (false when kMaxPins are pinned or the results are not
// valid); app_set_pins replaces the pins by these scenario documents (at most kMaxPins are read) and returns the
// problems of those that cannot be used (they are kept and listed, like anything entered); compute_pins computes
// the pins that need it, each once.
bool app_pin_current(AppState& app);
// Pins a ranked option (the ranking's JSON): the scenario a click on its row would set, computed once.
bool app_pin_option(AppState& app, const nlohmann::json& option);
void app_unpin(AppState& app, int index);
std::vector<catalog::Problem> app_set_pins(AppState& app, const nlohmann::json& scenarios);
nlohmann::json app_pins_json(const AppState& app);  // the pins' scenario documents, as an array
void compute_pins(AppState& app);
// The comparison as the page shows it: {"pins": [{"scenario", "report", "rent", "buy", "problems"}], "current":
// {...}}; each pin also has "differences" from the current scenario (peak_bytes, total_s, rent_cost, buy_cost:
// pin minus current, null where either is unknown). Tests compare it with the CLI's reports.
nlohmann::json app_compare_json(AppState& app);
void draw_compare(AppState& app);

// The last line of defence (recover.cpp): a throw escaped a frame, the saved settings or a link (a bug no test
// reached). The page must still start: app_end_failed_frame closes the frame ImGui had open, app_recover keeps what
// the page held in kept_store_text (the platform copies it aside and offers it as a file) and sets it aside: first
// the link, the pins and the scenario, on a second throw the user's own data too. False on a third: the platform then
// shows its error.
void app_end_failed_frame();
// "Start over": the inputs go back to the page's default example (the user's own cards, offers and pins stay) and the
// notice offers Undo, which puts back the inputs from before.
void app_start_over(AppState& app);
void app_undo_start_over(AppState& app);
bool app_recover(AppState& app, const std::string& what);
void app_load_default_scenario(AppState& app);

// Drawn by app_frame; in their own files.
void draw_link_view(AppState& app);  // the strip under the header while a link is shown and not kept (link_view.cpp)
void draw_calculator(AppState& app);
void draw_guide(AppState& app);
void draw_validation(AppState& app);
void draw_data(AppState& app);
void draw_user_data(AppState& app);  // the user's own GPUs, offers and prices (on the data tab)
void draw_calibration(AppState& app);  // "Calibrate with my measurement" (on the calculator)
// "Calibrated by you on <card>: ..." when the scenario's card carries the user's calibration; false when it does not.
bool draw_calibration_badge(AppState& app);
// The values the calculator's "Network between servers" list offers ("" = the link's default), in order.
std::vector<std::string> network_choice_values();
// The custom-model starting points of the model list ({"family": ..., sizes}; tests load each one).
int custom_model_template_count();
const char* custom_model_template(int index);
// The guide's "try it" scenarios (tests load each one).
int guide_try_count();
// The guide's section headers: their count and label (the ID part is the same in every language).
int guide_section_count();
std::string guide_section_label(int index, Lang lang);
const char* guide_try_scenario(int index);

}  // namespace gg::ui
