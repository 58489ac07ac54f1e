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
#include "platform/web_input.h"
#include "platform/web_keyboard.h"
#include "ui/app.h"
#include "ui/strings.h"

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
// GLFW sees the mouse only: web_input takes touches before GLFW's listeners (install_touch_and_clipboard).
void on_cursor_pos(GLFWwindow*, double, double) {
    gg::platform::mouse_used();
    mark_input();
}
void on_mouse_button(GLFWwindow*, int, int, int) {
    gg::platform::mouse_used();
    mark_input();
}
void on_scroll(GLFWwindow*, double, double) { mark_input(); }
// Escape is latched for the next frame (ui::AppState::escape_pressed): a press and release quicker than a frame never
// shows in Dear ImGui 1.86's key state, which has no event queue.
// Other keys a text box reads (Ctrl+A before a paste, Backspace) are latched by web_input the same way.
void on_key(GLFWwindow*, int key, int, int action, int mods) {
    if (key == GLFW_KEY_ESCAPE && action == GLFW_PRESS && g_platform != nullptr) g_platform->app.escape_pressed = true;
    if (action == GLFW_PRESS)
        gg::platform::key_pressed(key, (mods & GLFW_MOD_CONTROL) != 0, (mods & GLFW_MOD_SHIFT) != 0,
                                  (mods & GLFW_MOD_ALT) != 0, (mods & GLFW_MOD_SUPER) != 0);
    mark_input();
}
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

// Puts `text` on the clipboard: navigator.clipboard, else the older execCommand("copy"); where the browser refuses
// both (no permission, an insecure page, an old WebView), the text is shown in a box of the page's own, selected, to
// copy by hand (Module.ggCopy, install_touch_and_clipboard). `report`: a Copy button waits for the outcome.
void copy_to_clipboard(const gg::ui::AppState& app, const char* text, bool report) {
    EM_ASM({ Module["ggCopy"](UTF8ToString($0), $1, UTF8ToString($2), UTF8ToString($3)); }, text, report ? 1 : 0,
           gg::ui::tr(gg::ui::Str::CopyByHand, app.lang), gg::ui::tr(gg::ui::Str::Close, app.lang));
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
    if (!app.clipboard_text.empty()) {  // a Copy button: the result comes back to gg_clipboard_written
        copy_to_clipboard(app, app.clipboard_text.c_str(), true);
        app.clipboard_text.clear();
    }
    if (app.paste_requested) {  // a Paste button: navigator.clipboard.readText asks the user; gg_clipboard_read gets it
        app.paste_requested = false;
        EM_ASM({
            var done = function(ok, text) {
                var p = allocateUTF8(text);
                Module["_gg_clipboard_read"](ok, p);
                _free(p);
            };
            if (navigator.clipboard && navigator.clipboard.readText)
                navigator.clipboard.readText().then(function(t) { done(1, t); }, function() { done(0, ""); });
            else done(0, "");
        });
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
                        gg::platform::busy() || now_s() - p.last_input_s < kActiveAfterInputS;
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
    gg::platform::before_new_frame(now_s());  // touches and pastes override what GLFW set
    ImGui::NewFrame();
    gg::ui::app_frame(p.app);
    gg::platform::after_frame();
    gg::platform::sync_soft_keyboard();
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

// The browser's touches, pastes and right clicks on text boxes, routed to web_input; and Module.ggCopy, the one way
// text goes onto the clipboard. Listeners on window in the capture phase run before Emscripten's GLFW, which listens
// on the canvas: stopping a touch there keeps GLFW from pressing it at the previous pointer position.
void install_touch_and_clipboard() {
    // One function expression: the preprocessor would split EM_ASM's code at a comma outside parentheses.
    EM_ASM({ (function() {
        var canvas = Module["canvas"];
        var toCanvas = function(e) {  // device pixels, ImGui's (the backing store is CSS size x devicePixelRatio)
            var r = canvas.getBoundingClientRect();
            return [(e.clientX - r.left) * canvas.width / r.width, (e.clientY - r.top) * canvas.height / r.height];
        };
        var finger = null;  // the touch followed; more fingers are ignored (no pinch zoom in the page)
        var phases = {touchstart: 0, touchmove: 1, touchend: 2, touchcancel: 3};
        var onTouch = function(e) {
            if (e.target !== canvas) return;
            e.preventDefault();   // no mouse events made up from the touch, no double-tap zoom
            e.stopPropagation();  // GLFW would press at the previous pointer position
            var phase = phases[e.type];
            for (var i = 0; i < e.changedTouches.length; ++i) {
                var t = e.changedTouches[i];
                if (phase === 0 && finger === null) finger = t.identifier;
                if (t.identifier !== finger) continue;
                var at = toCanvas(t);
                // When the finger was there, not when the page got round to it (a slow frame delays the handler, and
                // the fling's speed would come out wrong); timeStamp and emscripten_get_now share performance.now's clock.
                Module["_gg_touch"](phase, at[0], at[1], e.timeStamp);
                // A tap on a text box opens the phone's keyboard: focus() only does it inside the gesture.
                if (phase === 2 && Module["_gg_finger_on_text_box"]()) Module["ggShowKeyboard"](at[0], at[1]);
                if (phase >= 2) finger = null;
            }
        };
        ["touchstart", "touchmove", "touchend", "touchcancel"].forEach(function(type) {
            window.addEventListener(type, onTouch, {capture: true, passive: false});
        });

        // A right click on a text box: a transparent textarea goes under the pointer for the browser's context menu,
        // which then offers Paste (a canvas gets no Paste); the box gets a left click first, for the caret.
        var helper = document.createElement("textarea");
        helper.id = "gg-paste-target";
        helper.tabIndex = -1;
        helper.setAttribute("aria-hidden", "true");
        document.body.appendChild(helper);
        var hideHelper = function() { helper.className = ""; helper.value = ""; };
        window.addEventListener("mousedown", function(e) {
            if (e.target !== canvas || e.button !== 2) return;
            var at = toCanvas(e);
            if (!Module["_gg_context_click"](at[0], at[1])) return;
            e.stopPropagation();  // ImGui gets the left click, not this right one
            helper.style.left = e.clientX + "px";
            helper.style.top = e.clientY + "px";
            helper.className = "under-pointer";
        }, true);
        helper.addEventListener("contextmenu", function() {
            helper.focus();  // the menu's Paste goes to the focused element
            setTimeout(function() { helper.className = "menu-open"; }, 0);  // clicks reach the canvas again
        });
        helper.addEventListener("blur", hideHelper);
        helper.addEventListener("input", function() { helper.value = ""; });  // keys typed here went to ImGui too

        // Ctrl+V, Cmd+V and the menu's Paste: the browser gives the text only inside this event. GLFW does not cancel
        // Ctrl+V's keydown (library_glfw.js cancels only Backspace and Tab), so the event comes.
        document.addEventListener("paste", function(e) {
            var mine = e.target === canvas || e.target === helper || e.target === document.body ||
                       e.target === document.documentElement || e.target.id === "gg-keyboard";
            if (!mine) return;  // the hand-copy box's own text area
            e.preventDefault();
            var text = e.clipboardData ? e.clipboardData.getData("text/plain") : "";
            if (helper.className) { hideHelper(); canvas.focus(); }
            if (!text || text.length > Module["_gg_max_input_bytes"]()) return;
            var p = allocateUTF8(text);
            Module["_gg_paste"](p);
            _free(p);
        });

        var showCopyBox = function(text, title, close) {
            var old = document.getElementById("gg-copy-box");
            if (old) old.remove();
            var box = document.createElement("div");
            box.id = "gg-copy-box";
            box.setAttribute("role", "dialog");
            var p = document.createElement("p");
            p.textContent = title;
            var area = document.createElement("textarea");
            area.readOnly = true;
            area.value = text;
            var button = document.createElement("button");
            button.textContent = close;
            button.onclick = function() { box.remove(); canvas.focus(); };
            box.append(p, area, button);
            document.body.appendChild(box);
            area.focus();
            area.select();
        };
        Module["ggCopy"] = function(text, report, title, close) {
            window.gpuguide.lastCopied = text;
            var done = function(ok) { if (report) Module["_gg_clipboard_written"](ok ? 1 : 0); };
            var fallback = function() {
                var ok = false;
                var t = document.createElement("textarea");
                t.value = text;
                document.body.appendChild(t);
                t.select();
                try { ok = document.execCommand("copy"); } catch (e) {}
                t.remove();
                canvas.focus();
                if (!ok) showCopyBox(text, title, close);
                done(ok);
            };
            if (navigator.clipboard && navigator.clipboard.writeText)
                navigator.clipboard.writeText(text).then(function() { done(true); }, fallback);
            else fallback();
        };
    })(); });
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
                                        {"content_w", a.content_w}, {"clipped_columns", a.clipped_columns},
                                        {"clipped_mask", a.clipped_mask}}.dump();
    return g_platform->report.c_str();
}

// A finger on the canvas (phase 0 start, 1 move, 2 end, 3 cancel) at (x, y) device pixels, at the event's
// timeStamp (milliseconds on the clock of emscripten_get_now).
EMSCRIPTEN_KEEPALIVE void gg_touch(int phase, double x, double y, double time_ms) {
    if (g_platform == nullptr || phase < 0 || phase > 3) return;
    gg::platform::touch_event(static_cast<gg::platform::TouchPhase>(phase), static_cast<float>(x), static_cast<float>(y),
                              time_ms / 1000.0);
    mark_input();
}

// The last frame's pointer, where a finger is, was over a text box (a tap's touchend then opens the keyboard).
EMSCRIPTEN_KEEPALIVE int gg_finger_on_text_box() {
    return g_platform != nullptr && gg::platform::finger_used_last() && gg::platform::pointer_over_text_box() ? 1 : 0;
}

// What the on-screen keyboard typed (UTF-8): characters for the active text box, in the next frame.
EMSCRIPTEN_KEEPALIVE void gg_text_input(const char* text) {
    if (g_platform == nullptr || text == nullptr) return;
    ImGui::GetIO().AddInputCharactersUTF8(text);
    mark_input();
}

// A key the on-screen keyboard pressed with no key event GLFW could read (Backspace, Delete, Enter).
EMSCRIPTEN_KEEPALIVE void gg_key_tap(int glfw_key) {
    if (g_platform == nullptr) return;
    gg::platform::key_pressed(glfw_key, false, false, false, false);
    mark_input();
}

// Text of the browser's paste event: it goes into the active text box in the next frame.
EMSCRIPTEN_KEEPALIVE void gg_paste(const char* text) {
    if (g_platform == nullptr || text == nullptr) return;
    gg::platform::paste_text(text);
    mark_input();
}

// A right click at (x, y): over a text box it becomes a left click there (returns 1) and the browser's menu opens.
EMSCRIPTEN_KEEPALIVE int gg_context_click(double x, double y) {
    if (g_platform == nullptr || !gg::platform::pointer_over_text_box()) return 0;
    gg::platform::click_at(static_cast<float>(x), static_cast<float>(y));
    mark_input();
    return 1;
}

// What became of a Copy button's text (1: on the clipboard; 0: refused, shown to copy by hand).
EMSCRIPTEN_KEEPALIVE void gg_clipboard_written(int ok) {
    if (g_platform == nullptr) return;
    gg::ui::app_copy_result(g_platform->app, ok != 0);
    mark_input();
}

// What the Paste button read (ok 0: the browser refused).
EMSCRIPTEN_KEEPALIVE void gg_clipboard_read(int ok, const char* text) {
    if (g_platform == nullptr || text == nullptr) return;
    gg::ui::app_paste_result(g_platform->app, ok != 0, text);
    mark_input();
}

// window.gpuguide.ui(): {lang, tab}, the language shown and the open tab's index (tests that tap the page).
EMSCRIPTEN_KEEPALIVE const char* gg_ui_state() {
    if (g_platform == nullptr) return "null";
    const gg::ui::AppState& app = g_platform->app;
    g_platform->report = nlohmann::json{{"lang", app.lang == gg::ui::Lang::Zh ? "zh" : "en"},
                                        {"tab", static_cast<int>(app.tab)}}.dump();
    return g_platform->report.c_str();
}

// window.gpuguide.popups(): how many dropdowns, combos and menus were open at the end of the last frame (the
// tests of Escape).
EMSCRIPTEN_KEEPALIVE int gg_open_popups() { return g_platform == nullptr ? 0 : g_platform->app.open_popups; }

// window.gpuguide.frame(): {drawn, pending, busy, idle}: frames drawn so far, whether the ranking and advice are still
// to come (they follow the results by a frame), whether touches or a paste are still being fed to Dear ImGui a frame
// at a time or a fling runs (web_input busy), and whether the main loop is paused (nothing to draw until an input).
// The browser tests wait on these instead of sleeping: "two more frames drawn, or idle" means the page has seen an input.
EMSCRIPTEN_KEEPALIVE const char* gg_frame_json() {
    if (g_platform == nullptr) return "null";
    const gg::ui::AppState& app = g_platform->app;
    g_platform->report = nlohmann::json{{"drawn", app.frame_count}, {"pending", app.decisions_pending},
                                        {"busy", gg::platform::busy()}, {"idle", g_platform->loop_paused}}.dump();
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
    // The clipboard for ImGui's own Ctrl+C (a selection in a text box) and Ctrl+V (the browser's paste, web_input).
    ImGuiIO& io = ImGui::GetIO();
    io.GetClipboardTextFn = [](void*) { return gg::platform::clipboard_text_for_imgui(); };
    io.SetClipboardTextFn = [](void*, const char* text) { copy_to_clipboard(g_platform->app, text, false); };
    // Cmd is the shortcut key on a Mac (Cmd+C, Cmd+V, Cmd+A in text boxes), as its users expect.
    io.ConfigMacOSXBehaviors = EM_ASM_INT({ return /Mac|iPhone|iPad/.test(navigator.platform || "") ? 1 : 0; }) != 0;
    install_touch_and_clipboard();
    gg::platform::install_soft_keyboard();
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
