// "Your own GPUs, offers and prices" on the GPUs & prices tab: the user's price for a catalog card, a card that is
// not in the catalog, and a cloud offer, kept in app.user_data (catalog::merge_user_data's format), saved with the
// page's settings, exported and imported as a JSON file. The draft forms live in a static Draft (one page, one set
// of forms): what is being typed is not data until "Add" / "Save" is pressed.
#include <algorithm>
#include <cctype>
#include <string>

#include "catalog/catalog.h"
#include "ui/app.h"
#include "ui/calculator_panels.h"  // json_text, json_number
#include "ui/format.h"
#include "ui/strings.h"
#include "ui/widgets.h"

namespace gg::ui {

namespace {

struct Draft {
    // My price for a catalog card.
    std::string price_gpu;
    double price_cny = 0;
    // A card that is not in the catalog: no figure until the user gives one or copies a catalog card's.
    char gpu_name[64] = "";
    std::string gpu_like;          // the catalog card whose figures were copied ("" = none)
    double memory_gib = 0;
    double bandwidth_gb_per_s = 0;
    double fp32_tflops = 0;
    double tensor16_tflops = 0;    // dense FP16 tensor with FP32 accumulate (what PyTorch AMP uses); 0 = none
    double tdp_w = 0;              // 0 = unknown (no electricity cost)
    double gpu_price_cny = 0;
    // A cloud offer.
    char provider[64] = "";
    std::string offer_gpu;
    int offer_count = 1;
    double per_hour = 2;
    std::string offer_currency = "CNY";
};
Draft g_draft;

nlohmann::json& list(AppState& app, const char* key) {
    if (!app.user_data.is_object()) app.user_data = {{"schema_version", 1}};
    if (!app.user_data.contains(key) || !app.user_data[key].is_array()) app.user_data[key] = nlohmann::json::array();
    return app.user_data[key];
}

// Ids the user never types: "my-" + the name in lowercase letters, digits and dashes, unique in the catalog.
std::string make_id(const AppState& app, const std::string& name, const char* prefix) {
    std::string slug;
    for (unsigned char c : name) {
        if (std::isalnum(c)) slug += static_cast<char>(std::tolower(c));
        else if (!slug.empty() && slug.back() != '-') slug += '-';
    }
    while (!slug.empty() && slug.back() == '-') slug.pop_back();
    if (slug.empty()) slug = "item";
    const std::string base = std::string(prefix) + slug;
    std::string id = base;
    const catalog::Catalog& cat = app.catalog();
    for (int n = 2; cat.find_gpu(id) != nullptr || std::any_of(cat.offers.begin(), cat.offers.end(),
                                                               [&](const auto& o) { return o.id == id; });
         ++n)
        id = base + "-" + std::to_string(n);
    return id;
}

// Replaces the record with this id in user_data[key], or appends it.
void upsert(AppState& app, const char* key, nlohmann::json record) {
    nlohmann::json& l = list(app, key);
    for (auto& r : l)
        if (json_text(r, "id", "\x01") == json_text(record, "id")) {  // (a saved id that is not text matches nothing)
            r = std::move(record);
            app_set_user_data(app, app.user_data);
            return;
        }
    l.push_back(std::move(record));
    app_set_user_data(app, app.user_data);
}

bool gpu_picker(const AppState& app, const char* id, std::string& gpu_id) {
    const catalog::Catalog& cat = app.catalog();
    const engine::GpuSpec* current = cat.find_gpu(gpu_id);
    bool changed = false;
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo(id, current ? current->name.c_str() : tr(Str::GpuNone, app.lang), ImGuiComboFlags_HeightLarge)) {
        for (const engine::GpuSpec& g : cat.gpus)
            if (ImGui::Selectable((g.name + "##" + g.id).c_str(), g.id == gpu_id)) {
                gpu_id = g.id;
                changed = true;
            }
        ImGui::EndCombo();
    }
    return changed;
}

void draw_price_form(AppState& app) {
    const Lang L = app.lang;
    Draft& d = g_draft;
    if (d.price_gpu.empty()) d.price_gpu = app.scenario.gpu_id;
    field_label(tr(Str::MyPriceGpu, L), tr(Str::MyPriceTip, L));
    gpu_picker(app, "##my_price_gpu", d.price_gpu);
    field_label(tr(Str::MyPriceAmount, L), tr(Str::MyPriceTip, L));
    double_field(app, "##my_price_cny", d.price_cny, 0, 5e6, 500, "CNY", "%.0f");
    const engine::GpuSpec* g = app.catalog().find_gpu(d.price_gpu);
    ImGui::BeginDisabled(g == nullptr || d.price_cny < 100);
    if (ImGui::Button(tr(Str::MyPriceSave, L)) && g != nullptr) {
        nlohmann::json record = catalog::gpu_to_data_json(*g);
        record["street_price_cny"] = {{"new", d.price_cny}, {"used", nullptr}, {"as_of", app.today_iso},
                                      {"source", AppState::kUserPriceSource}};
        upsert(app, "gpus", std::move(record));
    }
    ImGui::EndDisabled();
}

void draw_gpu_form(AppState& app) {
    const Lang L = app.lang;
    Draft& d = g_draft;
    field_label(tr(Str::MyGpuName, L), tr(Str::MyGpuNameTip, L));
    ImGui::SetNextItemWidth(-1);
    ImGui::InputText("##my_gpu_name", d.gpu_name, sizeof d.gpu_name);
    test_anchor(app, "my_gpu_name");
    // A modded or unlisted card is often a catalog card with other memory: start from that card's figures.
    field_label(tr(Str::MyGpuCopyFrom, L), tr(Str::MyGpuCopyFromTip, L));
    if (gpu_picker(app, "##my_gpu_like", d.gpu_like))
        if (const engine::GpuSpec* g = app.catalog().find_gpu(d.gpu_like)) {
            d.memory_gib = g->memory_bytes / engine::kBytesPerGiB;
            d.bandwidth_gb_per_s = g->memory_bandwidth_bytes_per_s / 1e9;
            d.fp32_tflops = g->dense_flop_per_s.fp32 / 1e12;
            d.tensor16_tflops = g->dense_flop_per_s.fp16 / 1e12;
            d.tdp_w = g->tdp_w;
        }
    field_label(tr(Str::ColMemory, L), tr(Str::MyGpuMemoryTip, L));
    double_field(app, "##my_gpu_mem", d.memory_gib, 1, 512, 1, "GiB", "%.0f");
    field_label(tr(Str::ColBandwidth, L), tr(Str::MyGpuBandwidthTip, L));
    double_field(app, "##my_gpu_bw", d.bandwidth_gb_per_s, 50, 20000, 50, "GB/s", "%.0f");
    field_label(tr(Str::ColFp32, L), tr(Str::MyGpuFp32Tip, L));
    double_field(app, "##my_gpu_fp32", d.fp32_tflops, 0.5, 200, 1, "TFLOPS", "%.1f");
    field_label(tr(Str::ColTensor16, L), tr(Str::MyGpuTensorTip, L));
    double_field(app, "##my_gpu_fp16", d.tensor16_tflops, 0, 20000, 10, "TFLOPS", "%.1f");
    field_label(tr(Str::ColTdp, L), tr(Str::MyGpuTdpTip, L));
    double_field(app, "##my_gpu_tdp", d.tdp_w, 0, 2000, 10, "W", "%.0f");
    field_label(tr(Str::MyPriceAmount, L), tr(Str::MyGpuPriceTip, L));
    double_field(app, "##my_gpu_price", d.gpu_price_cny, 0, 5e6, 500, "CNY", "%.0f");
    // The figures an estimate cannot do without (the others may stay 0: unknown).
    const bool complete = d.gpu_name[0] != '\0' && d.memory_gib >= 1 && d.bandwidth_gb_per_s >= 50 && d.fp32_tflops >= 0.5;
    const std::string new_id = complete ? make_id(app, d.gpu_name, "my-") : std::string();
    if (complete) hint_textf(tr(Str::MyGpuReady, L), new_id.c_str());  // one line either way: the button stays put
    else hint_text(tr(Str::MyGpuMissing, L));
    ImGui::BeginDisabled(!complete);
    const bool add = ImGui::Button(tr(Str::MyGpuAdd, L));
    test_anchor(app, "my-gpu-add");
    if (add) {
        nlohmann::json dense = {{"fp32", d.fp32_tflops}};
        if (d.tensor16_tflops > 0) dense["fp16"] = d.tensor16_tflops;
        nlohmann::json record = {
            {"id", new_id},
            {"name", std::string(d.gpu_name)},
            {"memory_gib", d.memory_gib},
            {"memory_bandwidth_gb_per_s", d.bandwidth_gb_per_s},
            {"dense_tflops", dense},
            {"tdp_w", d.tdp_w > 0 ? nlohmann::json(d.tdp_w) : nlohmann::json(nullptr)},
            {"street_price_cny", d.gpu_price_cny >= 100
                                     ? nlohmann::json{{"new", d.gpu_price_cny}, {"used", nullptr},
                                                      {"as_of", app.today_iso}, {"source", AppState::kUserPriceSource}}
                                     : nlohmann::json(nullptr)}};
        upsert(app, "gpus", std::move(record));
        d.gpu_name[0] = '\0';
    }
    ImGui::EndDisabled();
}

void draw_offer_form(AppState& app) {
    const Lang L = app.lang;
    Draft& d = g_draft;
    if (d.offer_gpu.empty()) d.offer_gpu = app.scenario.gpu_id;
    field_label(tr(Str::MyOfferProvider, L), tr(Str::MyOfferProviderTip, L));
    ImGui::SetNextItemWidth(-1);
    ImGui::InputText("##my_offer_provider", d.provider, sizeof d.provider);
    field_label(tr(Str::Gpu, L), tr(Str::GpuTip, L));
    gpu_picker(app, "##my_offer_gpu", d.offer_gpu);
    field_label(tr(Str::ColCount, L), tr(Str::GpuCountTip, L));
    int_field(app, "##my_offer_count", d.offer_count, 1, 16, tr(Str::UnitCards, L));
    field_label(tr(Str::ColPerHour, L), tr(Str::MyOfferPriceTip, L));
    double_field(app, "##my_offer_price", d.per_hour, 0.01, 10000, 0.5, d.offer_currency.c_str(), "%.2f");
    field_label(tr(Str::Currency, L), tr(Str::MyOfferPriceTip, L));
    choice_combo("##my_offer_currency", d.offer_currency, {{"CNY", Str::CurCny}, {"USD", Str::CurUsd}}, L);
    ImGui::BeginDisabled(d.provider[0] == '\0' || app.catalog().find_gpu(d.offer_gpu) == nullptr);
    if (ImGui::Button(tr(Str::MyOfferAdd, L))) {
        nlohmann::json record = {{"id", make_id(app, std::string(d.provider) + " " + d.offer_gpu, "my-offer-")},
                                 {"provider", std::string(d.provider)},
                                 {"gpu", d.offer_gpu},
                                 {"gpu_count", d.offer_count},
                                 {"price_per_hour", d.per_hour},
                                 {"currency", d.offer_currency},
                                 {"billing", "on-demand"}};
        upsert(app, "offers", std::move(record));
    }
    ImGui::EndDisabled();
}

// What the user has entered, one line each, with a button that removes it.
void draw_entries(AppState& app) {
    const Lang L = app.lang;
    for (const char* key : {"gpus", "offers"}) {
        if (!app.user_data.is_object() || !app.user_data.contains(key) || !app.user_data[key].is_array()) continue;
        nlohmann::json& l = app.user_data[key];
        for (std::size_t i = 0; i < l.size(); ++i) {
            const nlohmann::json& r = l[i];
            std::string line;
            if (!r.is_object()) line = r.dump();
            else if (std::string(key) == "gpus") {
                // Saved records are shown as they are, whatever their types: json::value() throws on a name that is
                // not text, and a throw while drawing stops the page (issue 39).
                line = json_text(r, "name", json_text(r, "id", "?"));
                if (r.contains("street_price_cny") && r["street_price_cny"].is_object() &&
                    r["street_price_cny"].contains("new") && r["street_price_cny"]["new"].is_number())
                    line += "  ·  " + format_money(r["street_price_cny"]["new"].get<double>(), "CNY", L);
            } else {
                const engine::GpuSpec* g = app.catalog().find_gpu(json_text(r, "gpu"));
                line = json_text(r, "provider", "?") + "  ·  " + (g ? g->name : json_text(r, "gpu", "?")) + " x" +
                       format_grouped(json_number(r, "gpu_count", 1)) + "  ·  " +
                       (r.contains("price_per_hour") && r["price_per_hour"].is_number()
                            ? format_money(r["price_per_hour"].get<double>(), json_text(r, "currency", "CNY"), L)
                            : std::string("?")) +
                       tr(Str::PerHourSuffix, L);
            }
            ImGui::PushID(key);
            ImGui::PushID(static_cast<int>(i));
            if (ImGui::SmallButton(tr(Str::Remove, L))) {
                l.erase(l.begin() + static_cast<std::ptrdiff_t>(i));
                app_set_user_data(app, app.user_data);
                ImGui::PopID();
                ImGui::PopID();
                return;  // the list changed under the loop
            }
            ImGui::PopID();
            ImGui::PopID();
            ImGui::SameLine();
            ImGui::TextUnformatted(line.c_str());
        }
    }
    if (!app.user_data_problems.empty()) problem_list(tr(Str::UserDataProblems, L), app.user_data_problems);
}

// A picked file waits here for "Import" or "Cancel": what it adds, replaces and keeps, by name.
void draw_import_plan(AppState& app) {
    const ImportPlan& plan = app.import_plan;
    if (!plan.pending) return;
    const Lang L = app.lang;
    ImGui::Separator();
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.62f, 0.36f, 0.02f, 1.0f));
    wrapped_text(tr(Str::ImportAskTitle, L));
    ImGui::PopStyleColor();
    wrapped_textf(tr(Str::ImportAskSummary, L), static_cast<int>(plan.added.size()), static_cast<int>(plan.replaced.size()),
                  static_cast<int>(plan.kept.size()));
    auto names = [&](Str heading, const std::vector<std::string>& list) {
        if (list.empty()) return;
        wrapped_text(tr(heading, L));
        constexpr std::size_t kShown = 12;
        for (std::size_t i = 0; i < list.size() && i < kShown; ++i) {
            ImGui::Bullet();
            wrapped_text(list[i].c_str());
        }
        if (list.size() > kShown) {
            ImGui::Bullet();
            wrapped_text(("... +" + std::to_string(list.size() - kShown)).c_str());
        }
    };
    names(Str::ImportAdds, plan.added);
    names(Str::ImportReplaces, plan.replaced);
    names(Str::ImportKeeps, plan.kept);
    names(Str::ImportOverBundled, plan.over_bundled);
    if (plan.pins.is_array())
        wrapped_textf(tr(Str::ImportPinsReplace, L), plan.current_pin_count, static_cast<int>(plan.pins.size()));
    if (plan.unchanged_count > 0) hint_textf(tr(Str::ImportUnchanged, L), plan.unchanged_count);
    if (plan.skipped_count > 0) hint_textf(tr(Str::ImportSkipped, L), plan.skipped_count);
    if (!plan.problems.empty()) problem_list(tr(Str::ImportHasProblems, L), plan.problems);
    if (ImGui::Button(tr(Str::ImportConfirm, L))) app_confirm_import(app);
    test_anchor(app, "import-confirm");
    ImGui::SameLine();
    if (ImGui::Button(tr(Str::ImportCancel, L))) app_cancel_import(app);
    test_anchor(app, "import-cancel");
    ImGui::Separator();
}

}  // namespace

void draw_user_data(AppState& app) {
    const Lang L = app.lang;
    section_heading(app, tr(Str::MyDataTitle, L));
    hint_text(tr(Str::MyDataIntro, L));
    if (ImGui::Button(tr(Str::MyDataExport, L))) {
        app.download_name = "gpuguide-my-data.json";
        app.download_text = app_user_data_file(app);
    }
    test_anchor(app, "save-file");
    ImGui::SameLine();
    if (ImGui::Button(tr(Str::MyDataImport, L))) app.import_requested = true;
    test_anchor(app, "load-file");
    if (app.undo_import_available) {
        ImGui::SameLine();
        if (ImGui::Button(tr(Str::UndoImport, L))) app_undo_import(app);
        test_anchor(app, "undo-import");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Str::UndoImportTip, L));
    }
    draw_import_plan(app);
    draw_entries(app);
    if (ImGui::TreeNode(stable_label(tr(Str::MyPriceTitle, L), "my-price").c_str())) {
        draw_price_form(app);
        ImGui::TreePop();
    }
    const bool gpu_open = ImGui::TreeNode(stable_label(tr(Str::MyGpuTitle, L), "my-gpu").c_str());
    test_anchor(app, "my-gpu");
    if (gpu_open) {
        draw_gpu_form(app);
        ImGui::TreePop();
    }
    if (ImGui::TreeNode(stable_label(tr(Str::MyOfferTitle, L), "my-offer").c_str())) {
        draw_offer_form(app);
        ImGui::TreePop();
    }
}

}  // namespace gg::ui
