// The browser platform: GLFW window on the page's canvas (Emscripten's GLFW), WebGL2, the main loop, the
// canvas size at the device's pixel density, and the JavaScript test hook (window.gpuguide). The only place
// that knows about Emscripten, GLFW and GL.
//
// Pixels: the canvas backing store is CSS size x devicePixelRatio, and ImGui works in those device pixels
// (DisplayFramebufferScale 1) with fonts rasterised at the same density, so text is crisp on HiDPI screens.
#include <emscripten.h>
#include <emscripten/html5.h>

#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "catalog/json_text.h"
#include "ui/app.h"

#include <nlohmann/json.hpp>

namespace {

struct Platform {
    GLFWwindow* window = nullptr;
    gg::ui::AppState app;
    int framebuffer_w = 0;
    int framebuffer_h = 0;
    double last_input_s = 0;  // when the user last touched the page; drives idle throttling
    bool first_frame_done = false;
    bool loop_paused = false;  // idle: the main loop is paused until the next input (no frame callbacks at all)
    int synced_generation = -1;  // the results generation the URL fragment was last written for
    std::string report;       // keeps the string returned to JavaScript alive until the next call
};

Platform* g_platform = nullptr;  // the one instance: the main-loop callback and exports reach it here

// After the last input, keep drawing this long (tooltips open after a hover delay, widgets animate); then the
// main loop is paused until something happens (input, resize, a link, the test hook), so an idle page costs no CPU.
constexpr double kActiveAfterInputS = 2.5;  // covers the 2 s "link copied" confirmation

double now_s() { return emscripten_get_now() / 1000.0; }
void mark_input() {
    g_platform->last_input_s = now_s();
    if (g_platform->loop_paused) {
        g_platform->loop_paused = false;
        emscripten_resume_main_loop();
    }
}

// A User Timing mark ("gg:..."): the page-budget test and docs/performance.md read where start-up time goes.
void mark(const char* name) {
    EM_ASM({ if (self.performance && performance.mark) performance.mark(UTF8ToString($0)); }, name);
}

// Installed before ImGui's callbacks; ImGui's GLFW backend chains to them, so both run.
void on_cursor_pos(GLFWwindow*, double, double) { mark_input(); }
void on_mouse_button(GLFWwindow*, int, int, int) { mark_input(); }
void on_scroll(GLFWwindow*, double, double) { mark_input(); }
void on_key(GLFWwindow*, int, int, int, int) { mark_input(); }
void on_char(GLFWwindow*, unsigned int) { mark_input(); }

// Emscripten 3.1.6's GLFW hands the scroll callback the browser's raw event deltas (src/library_glfw.js,
// onMouseWheel under USE_GLFW == 3: sx = event.deltaX, sy = event.deltaY), so one notch down in Chrome arrives as
// y = +100, where GLFW's convention (and ImGui's) is +1 for one notch *up*: ImGui scrolled a hundred notches the
// wrong way. Converted here with the steps Emscripten's own Browser.getMouseWheelDelta uses (100 pixels, 3 lines or
// 1 page per notch for "wheel" events, flipped; 120 units per notch, already "up is positive", for the legacy
// "mousewheel" event); a trackpad's few pixels become a fraction of a notch, so it scrolls smoothly. The event's
// type and deltaMode come from a window listener (web_main's init) that runs before the canvas's.
void on_scroll_browser(GLFWwindow* window, double dx, double dy) {
    const int kind = EM_ASM_INT({ return Module["ggWheel"] | 0; });  // deltaMode 0/1/2, or 3 = legacy mousewheel
    double step = 100.0, sign = -1.0;
    if (kind == 1) step = 3.0;
    else if (kind == 2) step = 1.0;
    else if (kind == 3) step = 120.0, sign = 1.0;
    ImGui_ImplGlfw_ScrollCallback(window, sign * dx / step, sign * dy / step);  // chains to on_scroll (mark_input)
}

// Follows the canvas's CSS size (it fills the window or iframe) and the pixel ratio (HiDPI, browser zoom).
bool sync_canvas_size(Platform& p) {
    double css_w = 0, css_h = 0;
    emscripten_get_element_css_size("#canvas", &css_w, &css_h);
    const double dpr = emscripten_get_device_pixel_ratio();
    const int fb_w = static_cast<int>(std::lround(css_w * dpr));
    const int fb_h = static_cast<int>(std::lround(css_h * dpr));
    bool changed = false;
    if (fb_w > 0 && fb_h > 0 && (fb_w != p.framebuffer_w || fb_h != p.framebuffer_h)) {
        // The backing store only; CSS keeps the layout size. Not glfwSetWindowSize: Emscripten's GLFW asks
        // for fullscreen when the size equals the screen's, which a browser refuses without a user gesture.
        emscripten_set_canvas_element_size("#canvas", fb_w, fb_h);
        p.framebuffer_w = fb_w;
        p.framebuffer_h = fb_h;
        changed = true;
    }
    if (static_cast<float>(dpr) != p.app.dpi_scale) {
        p.app.dpi_scale = static_cast<float>(dpr);
        changed = true;
    }
    return changed;
}

// Keeps the URL fragment equal to the scenario (replaceState: no history entry per keystroke), and carries out
// the UI's requests that need the browser (clipboard, opening the full page).
void sync_browser(Platform& p) {
    gg::ui::AppState& app = p.app;
    if (app.results_generation != p.synced_generation) {
        p.synced_generation = app.results_generation;
        const std::string fragment = gg::ui::app_fragment(app);
        EM_ASM({ try { history.replaceState(history.state, "", "#" + UTF8ToString($0)); } catch (e) {} }, fragment.c_str());
        // The last scenario, for the next visit (private modes may refuse: ignored). Not while a damaged store that
        // could not be copied aside is still there (store_blocked: it is offered as a file first).
        if (app.store_writable && !app.store_blocked) {
            const std::string stored = gg::ui::app_store_json(app);
            EM_ASM({ try { localStorage.setItem(UTF8ToString($0), UTF8ToString($1)); } catch (e) {} },
                   gg::ui::kStoreKey, stored.c_str());
        }
    }
    if (!app.clipboard_text.empty()) {
        EM_ASM({
            var text = UTF8ToString($0);
            var fallback = function() {
                var t = document.createElement("textarea");
                t.value = text; document.body.appendChild(t); t.select();
                try { document.execCommand("copy"); } catch (e) {}
                t.remove();
            };
            window.gpuguide.lastCopied = text;
            if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).catch(fallback);
            else fallback();
        }, app.clipboard_text.c_str());
        app.clipboard_text.clear();
    }
    if (!app.download_text.empty()) {  // "Save as a file": a download of the text, made in the page
        EM_ASM({
            var a = document.createElement("a");
            a.href = URL.createObjectURL(new Blob([UTF8ToString($1)], { type: "application/json" }));
            a.download = UTF8ToString($0);
            document.body.appendChild(a); a.click(); a.remove();
            setTimeout(function() { URL.revokeObjectURL(a.href); }, 10000);
        }, app.download_name.c_str(), app.download_text.c_str());
        app.download_text.clear();
        app.download_name.clear();
    }
    if (app.import_requested) {  // "Load from a file": the browser's file picker; the text comes back to gg_import_user_data
        app.import_requested = false;
        EM_ASM({
            var input = document.createElement("input");
            input.type = "file";
            input.accept = ".json,application/json";
            input.onchange = function() {
                var file = input.files && input.files[0];
                if (!file) return;
                // A file over the limit is not read at all (a 50 MB file used to abort the page).
                if (file.size > Module["_gg_max_input_bytes"]()) { Module["_gg_import_too_large"](file.size); return; }
                file.text().then(function(text) {
                    var p = allocateUTF8(text);
                    Module["_gg_import_user_data"](p);
                    _free(p);
                });
            };
            input.click();
        });
    }
    if (app.copy_link_requested) {
        app.copy_link_requested = false;
        app.link_copied_at_s = ImGui::GetTime();
        EM_ASM({
            var url = String(location.href);
            var fallback = function() {
                var t = document.createElement("textarea");
                t.value = url; document.body.appendChild(t); t.select();
                try { document.execCommand("copy"); } catch (e) {}
                t.remove();
            };
            if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(url).catch(fallback);
            else fallback();
        });
    }
    if (app.open_full_requested) {
        app.open_full_requested = false;
        EM_ASM({
            var url = String(location.href).replace(/[?&]embed=1/, "").replace("#embed=1&", "#").replace("#embed=1", "");
            window.open(url, "_blank", "noopener");
        });
    }
}

void draw_frame(Platform& p);
void recover(Platform& p, const std::string& what, const char* original = nullptr);

void frame() {
    Platform& p = *g_platform;
    const bool resized = sync_canvas_size(p);
    const ImGuiIO& io = ImGui::GetIO();
    const bool active = !p.first_frame_done || resized || io.WantTextInput || p.app.decisions_pending ||
                        now_s() - p.last_input_s < kActiveAfterInputS;
    if (!active) {
        p.loop_paused = true;
        emscripten_pause_main_loop();
        return;
    }

    try {
        draw_frame(p);
    } catch (const std::exception& e) {
        recover(p, e.what());
    } catch (...) {
        recover(p, "an exception that is not a std::exception");
    }
}

// One frame: results, fonts, the UI, GL; frame() catches what it throws.
void draw_frame(Platform& p) {
    if (!p.first_frame_done) {
        // (app_frame would do it; done here to time it apart). The ranking and the advice come on the next frame.
        p.app.defer_first_decisions = true;
        gg::ui::app_update_results(p.app);
        mark("gg:results");
    }
    if (gg::ui::app_update_fonts(p.app)) {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
        if (!p.first_frame_done) mark("gg:fonts");
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& frame_io = ImGui::GetIO();  // GLFW's idea of the window size is stale: we size the canvas ourselves
    frame_io.DisplaySize = ImVec2(static_cast<float>(p.framebuffer_w), static_cast<float>(p.framebuffer_h));
    frame_io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    ImGui::NewFrame();
    gg::ui::app_frame(p.app);
    ImGui::Render();
    if (!p.first_frame_done) mark("gg:ui");

    glViewport(0, 0, p.framebuffer_w, p.framebuffer_h);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    sync_browser(p);
    if (!p.first_frame_done) {
        p.first_frame_done = true;
        mark("gg:first-frame");
        EM_ASM({
            if (window.gpuguide && window.gpuguide._onFirstFrame) window.gpuguide._onFirstFrame();
        });
    }
}

// The browser's preferred language picks the first language (the toggle changes it afterwards).
bool browser_prefers_chinese() {
    return EM_ASM_INT({
        var langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
        return String(langs[0] || "").toLowerCase().indexOf("zh") === 0 ? 1 : 0;
    }) != 0;
}

void show_fatal(const char* reason) {
    EM_ASM({ if (window.gpuguide && window.gpuguide._fail) window.gpuguide._fail(UTF8ToString($0)); }, reason);
}

// Saved text the page cannot use, kept under a key of its own with the date and time, so an earlier copy is never
// overwritten. When storage is full the copy fails: the platform then writes nothing (store_blocked) until the user
// saved the text as a file.
void keep_aside(Platform& p, const std::string& text) {
    char* key = reinterpret_cast<char*>(EM_ASM_INT({
        var key = UTF8ToString($0) + "." + new Date().toISOString();
        try { localStorage.setItem(key, UTF8ToString($1)); } catch (e) { return 0; }
        return allocateUTF8(key);
    }, gg::ui::kStoreUnreadableKey, text.c_str()));
    gg::ui::app_store_copy_result(p.app, key != nullptr ? key : "", key != nullptr);
    free(key);
}

// A throw escaped the UI (issue 39: one in the first frame left the page at "Loading..." on every visit, with no
// error shown): what the page held is kept aside and offered as a file, the rest goes on from the example
// (gg::ui::app_recover). `original`: the saved text being read when it happened (kept instead). A third time, the
// page shows its error rather than loop.
void recover(Platform& p, const std::string& what, const char* original) {
    gg::ui::app_end_failed_frame();
    if (!gg::ui::app_recover(p.app, what)) {
        show_fatal(("exception: " + what).c_str());
        emscripten_cancel_main_loop();
        return;
    }
    if (original != nullptr) p.app.kept_store_text = original;
    keep_aside(p, p.app.kept_store_text);
    mark_input();
}

}  // namespace

extern "C" {

// window.gpuguide.report(): the current report as JSON text.
EMSCRIPTEN_KEEPALIVE const char* gg_report_json() {
    if (g_platform == nullptr) return "null";
    g_platform->report = gg::ui::app_report_json(g_platform->app);
    return g_platform->report.c_str();
}

// window.gpuguide.load(json): sets the inputs from a scenario; returns the problems as a JSON array ([] = accepted).
EMSCRIPTEN_KEEPALIVE const char* gg_load_scenario(const char* scenario_json) {
    if (g_platform == nullptr || scenario_json == nullptr) return "[]";
    nlohmann::json problems = nlohmann::json::array();
    for (const auto& p : gg::ui::app_load_scenario(g_platform->app, scenario_json))
        problems.push_back({{"pointer", p.pointer}, {"message", p.message}});
    g_platform->report = problems.dump();
    mark_input();  // redraw with the new inputs
    return g_platform->report.c_str();
}

// A data file the user picked ("Load from a file"): checked, then the user is asked (app.import_plan).
EMSCRIPTEN_KEEPALIVE void gg_import_user_data(const char* text) {
    if (g_platform == nullptr || text == nullptr) return;
    gg::ui::app_import_user_data(g_platform->app, text);
    mark_input();
}

// The most text the page reads from outside (a file, window.gpuguide.load): larger input is refused unread.
EMSCRIPTEN_KEEPALIVE double gg_max_input_bytes() { return static_cast<double>(gg::catalog::kMaxJsonTextBytes); }

// A picked file over gg_max_input_bytes, not read.
EMSCRIPTEN_KEEPALIVE void gg_import_too_large(double size_bytes) {
    if (g_platform == nullptr) return;
    gg::ui::app_import_too_large(g_platform->app, size_bytes);
    mark_input();
}

// window.gpuguide.load() of a text over gg_max_input_bytes: the problem it returns, as JSON.
EMSCRIPTEN_KEEPALIVE const char* gg_too_large_json(double size) {
    if (g_platform == nullptr) return "[]";
    g_platform->report = nlohmann::json::array({{{"pointer", ""},
                                                 {"message", "the scenario is " + std::to_string(static_cast<long long>(size)) +
                                                                 " characters, larger than " + gg::catalog::json_text_limit_words() +
                                                                 ", the most gpuguide reads; nothing was changed"}}})
                                 .dump();
    return g_platform->report.c_str();
}

// window.gpuguide.notice(): what the page tells the user now (ui::app_notice_json).
EMSCRIPTEN_KEEPALIVE const char* gg_notice_json() {
    if (g_platform == nullptr) return "null";
    g_platform->report = gg::ui::app_notice_json(g_platform->app).dump();
    return g_platform->report.c_str();
}

// window.gpuguide.compare(): the pins and the current scenario as the comparison shows them (ui::app_compare_json).
EMSCRIPTEN_KEEPALIVE const char* gg_compare_json() {
    if (g_platform == nullptr) return "null";
    g_platform->report = gg::ui::app_compare_json(g_platform->app).dump();
    return g_platform->report.c_str();
}

// Called on start and on hashchange with location.hash (a link pasted into the address bar).
EMSCRIPTEN_KEEPALIVE void gg_apply_fragment(const char* fragment) {
    if (g_platform == nullptr || fragment == nullptr) return;
    try {
        gg::ui::app_apply_fragment(g_platform->app, fragment);
    } catch (const std::exception& e) {
        recover(*g_platform, e.what());
    }
    mark_input();
}

// window.gpuguide.anchor(name): {x, y, w, h, visible, content_w, clipped_columns} in CSS pixels of a named widget
// drawn in the last frame (ui::test_anchor, ui::table_anchor), or null: the browser tests click what they mean, not
// fixed points.
EMSCRIPTEN_KEEPALIVE const char* gg_anchor(const char* name) {
    if (g_platform == nullptr || name == nullptr) return "null";
    const gg::ui::AppState& app = g_platform->app;
    const auto it = app.anchors.find(name);
    if (it == app.anchors.end() || it->second.frame != app.frame_count - 1) return "null";
    const gg::ui::AppState::Anchor& a = it->second;
    g_platform->report = nlohmann::json{{"x", a.x}, {"y", a.y}, {"w", a.w}, {"h", a.h}, {"visible", a.visible},
                                        {"content_w", a.content_w}, {"clipped_columns", a.clipped_columns}}.dump();
    return g_platform->report.c_str();
}

// window.gpuguide.tab(i): 0 calculator, 1 guide, 2 accuracy, 3 GPUs and prices (tests and deep links).
EMSCRIPTEN_KEEPALIVE void gg_select_tab(int index) {
    if (g_platform == nullptr || index < 0 || index > 3) return;
    g_platform->app.tab = static_cast<gg::ui::Tab>(index);
    g_platform->app.tab_requested = true;
    mark_input();
}

}  // extern "C"

int main() {
    mark("gg:main");
    static Platform platform;  // lives for the page's lifetime
    g_platform = &platform;

    if (!glfwInit()) {
        show_fatal("glfw");
        return 1;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    // ImGui draws 2D triangles: no depth or stencil buffer. web/shell.html creates the context with the same
    // attributes before the wasm is ready, and GLFW gets that context back.
    glfwWindowHint(GLFW_DEPTH_BITS, 0);
    glfwWindowHint(GLFW_STENCIL_BITS, 0);
    platform.window = glfwCreateWindow(1280, 800, "gpuguide", nullptr, nullptr);
    if (platform.window == nullptr) {
        show_fatal("webgl2");
        return 1;
    }
    glfwMakeContextCurrent(platform.window);
    mark("gg:webgl");
    glfwSetCursorPosCallback(platform.window, on_cursor_pos);
    glfwSetMouseButtonCallback(platform.window, on_mouse_button);
    glfwSetScrollCallback(platform.window, on_scroll);
    glfwSetKeyCallback(platform.window, on_key);
    glfwSetCharCallback(platform.window, on_char);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    if (browser_prefers_chinese()) platform.app.lang = gg::ui::Lang::Zh;
    platform.app.embed = EM_ASM_INT({
        return /[?&]embed=1/.test(location.search) || /(^#|&)embed=1/.test(location.hash) ? 1 : 0;
    }) != 0;
    gg::ui::app_init(platform.app);
    {  // today's date stamps the prices the user enters
        char* today = reinterpret_cast<char*>(EM_ASM_INT({ return allocateUTF8(new Date().toISOString().slice(0, 10)); }));
        if (today != nullptr) {
            platform.app.today_iso = today;
            free(today);
        }
    }
    mark("gg:app-init");
    // The last scenario of this browser, unless a link brings one (below). A damaged store is moved aside, so
    // nothing the user saved is lost; a newer version's store is left untouched.
    {
        char* stored = reinterpret_cast<char*>(EM_ASM_INT({  // wasm32: a pointer fits an int
            var text = null;
            try { text = localStorage.getItem(UTF8ToString($0)); } catch (e) {}
            return text === null ? 0 : allocateUTF8(text);
        }, gg::ui::kStoreKey));
        if (stored != nullptr) {
            try {
                const gg::ui::StoreStatus status = gg::ui::app_apply_store(platform.app, stored);
                if (status == gg::ui::StoreStatus::kUnreadable || status == gg::ui::StoreStatus::kPartlyLoaded)
                    keep_aside(platform, stored);
            } catch (const std::exception& e) {
                recover(platform, e.what(), stored);
            }
            free(stored);
        }
    }
    // A shared link: the scenario lives in the fragment. Damaged or newer links leave the defaults and a notice.
    EM_ASM({
        var apply = function() {
            var p = allocateUTF8(String(location.hash));
            Module["_gg_apply_fragment"](p);
            _free(p);
        };
        apply();
        window.addEventListener("hashchange", apply);
    });
    ImGui_ImplGlfw_InitForOpenGL(platform.window, true);
    // After ImGui's backend installed its callbacks: the wheel goes through on_scroll_browser first.
    EM_ASM({
        var note = function(e) { Module["ggWheel"] = e.type === "mousewheel" ? 3 : (e.deltaMode | 0); };
        window.addEventListener("wheel", note, {capture: true, passive: true});
        window.addEventListener("mousewheel", note, {capture: true, passive: true});
    });
    glfwSetScrollCallback(platform.window, on_scroll_browser);
    ImGui_ImplOpenGL3_Init("#version 300 es");

    // Resizes and pixel-ratio changes (browser zoom, moving to another screen) wake a paused loop.
    emscripten_set_resize_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, false,
                                   [](int, const EmscriptenUiEvent*, void*) -> EM_BOOL {
                                       mark_input();
                                       return EM_FALSE;
                                   });
    emscripten_set_main_loop(frame, 0, false);
    return 0;
}
