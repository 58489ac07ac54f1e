// The page's touch and paste handling (src/platform/web_input.cpp) driven frame by frame in a headless Dear ImGui:
// where a tap presses and in which frame, a swipe's scroll and fling, the long press, the scrollbar drag, the paste.
// Plain ImGui, no browser: the browser tests (tests/browser/input.test.mjs) check the same through real input.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "imgui.h"
#include "imgui_internal.h"  // the pane's window: its scroll
#include "platform/web_input.h"
#include "../ui/imgui_scope.h"

namespace {

using gg::platform::TouchPhase;

// A 400x800 pane of 100 rows, each a full-width button 40 px high (ImGui's default font is 13 px: 40 px = 3 em), and
// a text box on the first row. What each frame saw is recorded.
struct Page {
    ImGuiContextScope scope;
    double now_s = 0;
    std::vector<int> clicked;          // rows clicked, in order
    std::vector<bool> left_down;       // io.MouseDown[0] per frame
    std::vector<ImVec2> pointer;       // io.MousePos per frame
    bool menu_open = false;            // row 10's context menu (what a right click opens)
    char text[256] = "";
    float scroll_y = 0, scroll_max_y = 0;
    ImRect scrollbar;
    ImVec2 mouse_pos{-FLT_MAX, -FLT_MAX};  // what GLFW reports: no mouse, unless a test moves it
    bool mouse_left = false;

    Page() {
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(400, 800);
        io.IniFilename = nullptr;
        io.KeyMap[ImGuiKey_V] = 86;  // GLFW_KEY_V, as ImGui's GLFW backend maps it
        io.KeyMap[ImGuiKey_A] = 65;  // GLFW_KEY_A
        io.KeyMap[ImGuiKey_Escape] = 256;  // GLFW_KEY_ESCAPE
        io.GetClipboardTextFn = [](void*) { return gg::platform::clipboard_text_for_imgui(); };  // as web_main sets it
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    }

    void frame(double dt_s = 1.0 / 60.0) {
        now_s += dt_s;
        ImGuiIO& io = ImGui::GetIO();
        io.DeltaTime = static_cast<float>(dt_s);
        io.MousePos = mouse_pos;  // what GLFW reports (ImGui_ImplGlfw_NewFrame runs before before_new_frame)
        io.MouseDown[0] = mouse_left;
        io.MouseDown[1] = false;
        gg::platform::before_new_frame(now_s);
        ImGui::NewFrame();
        left_down.push_back(io.MouseDown[0]);
        pointer.push_back(io.MousePos);
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(400, 800));
        ImGui::Begin("pane", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize);
        ImGui::InputTextMultiline("##box", text, sizeof text, ImVec2(-1, 40));
        for (int row = 1; row < 100; ++row) {
            if (ImGui::Button(("row " + std::to_string(row)).c_str(), ImVec2(-1, 40))) clicked.push_back(row);
            if (row == 10 && ImGui::BeginPopupContextItem("menu")) {
                ImGui::TextUnformatted("menu");
                ImGui::EndPopup();
            }
        }
        menu_open = ImGui::IsPopupOpen("menu");
        ImGuiWindow* w = ImGui::GetCurrentWindow();
        scroll_y = w->Scroll.y;
        scroll_max_y = w->ScrollMax.y;
        scrollbar = ImGui::GetWindowScrollbarRect(w, ImGuiAxis_Y);
        ImGui::End();
        gg::platform::after_frame();
        ImGui::Render();
    }
    void frames(int n, double dt_s = 1.0 / 60.0) {
        for (int i = 0; i < n; ++i) frame(dt_s);
    }
    void touch(TouchPhase phase, float x, float y) { gg::platform::touch_event(phase, x, y, now_s); }
    // The y of row `row`'s middle on the screen now.
    float row_y(int row) const { return 8 + 40 * row + 4 * row + 20 - scroll_y; }
    void settle() {  // the state the previous test left (a fling, queued steps) runs out
        for (int i = 0; i < 600 && gg::platform::busy(); ++i) frame();
        clicked.clear();
        left_down.clear();
        pointer.clear();
    }
};

}  // namespace

TEST_CASE("a tap hovers where it lands first, presses in the next frame and releases in the one after") {
    Page page;
    page.frames(2);
    page.settle();
    const float y = page.row_y(3);
    page.touch(TouchPhase::kStart, 200, y);
    page.touch(TouchPhase::kEnd, 200, y);  // within one frame: ImGui 1.86 alone would see neither
    page.frames(4);
    REQUIRE(page.left_down.size() == 4);
    CHECK(page.pointer[0].y == doctest::Approx(y));
    CHECK_FALSE(page.left_down[0]);  // the frame that finds the widget under the finger
    CHECK(page.left_down[1]);
    CHECK_FALSE(page.left_down[2]);
    CHECK(page.pointer[3].x == -FLT_MAX);  // then nothing stays hovered (no tooltip left under a lifted finger)
    CHECK(page.clicked == std::vector<int>{3});
}

TEST_CASE("two taps made between two frames both land, each where it was made") {
    Page page;
    page.frames(2);
    page.settle();
    const float first = page.row_y(2), second = page.row_y(7);
    page.touch(TouchPhase::kStart, 100, first);
    page.touch(TouchPhase::kEnd, 100, first);
    page.touch(TouchPhase::kStart, 300, second);
    page.touch(TouchPhase::kEnd, 300, second);
    page.frames(10);
    CHECK(page.clicked == std::vector<int>{2, 7});
}

TEST_CASE("a swipe made whole between two frames (a slow device) scrolls all the same, and presses nothing") {
    Page page;
    page.frames(2);
    page.settle();
    const float y = page.row_y(3);
    page.touch(TouchPhase::kStart, 200, y);
    page.now_s += 0.05;
    page.touch(TouchPhase::kMove, 200, y - 100);
    page.now_s += 0.3;  // and rested: no fling
    page.touch(TouchPhase::kEnd, 200, y - 100);
    page.frames(10);
    CHECK(page.clicked.empty());
    CHECK(page.scroll_y == doctest::Approx(100));
    CHECK_FALSE(gg::platform::busy());
}

TEST_CASE("a slow 400-pixel swipe scrolls the pane under the finger by 400 pixels, presses nothing, flings nowhere") {
    Page page;
    page.frames(2);
    page.settle();
    REQUIRE(page.scroll_max_y > 1000);
    page.touch(TouchPhase::kStart, 200, 600);
    page.frame();
    for (int step = 1; step <= 40; ++step) {
        page.touch(TouchPhase::kMove, 200, 600 - 10.0f * step);
        page.frame(0.02);
    }
    page.frame(0.2);  // the finger rests before it lifts
    page.touch(TouchPhase::kEnd, 200, 200);
    page.frames(30);
    CHECK(page.scroll_y == doctest::Approx(400));
    CHECK(page.clicked.empty());
    CHECK_FALSE(gg::platform::busy());
    for (bool down : page.left_down) CHECK_FALSE(down);
}

TEST_CASE("a flick flings the pane on after the finger lifts, slowing down until it stops") {
    Page page;
    page.frames(2);
    page.settle();
    page.touch(TouchPhase::kStart, 200, 600);
    page.frame();
    for (int step = 1; step <= 5; ++step) {  // 200 px in 80 ms: 2500 px/s
        page.touch(TouchPhase::kMove, 200, 600 - 40.0f * step);
        page.frame(0.016);
    }
    const float at_release = page.scroll_y;
    CHECK(at_release == doctest::Approx(200));
    page.touch(TouchPhase::kEnd, 200, 400);
    page.frames(6);
    const float soon = page.scroll_y;
    CHECK(soon > at_release + 100);  // still moving fast
    int frames = 0;
    while (gg::platform::busy() && frames < 600) {
        page.frame();
        ++frames;
    }
    CHECK_FALSE(gg::platform::busy());
    // About the release speed times 0.5 s (UIScrollView's deceleration), capped by the pane's end.
    const float flung = page.scroll_y - at_release;
    CHECK(flung > 900);
    CHECK(flung < 1400);
    CHECK(page.clicked.empty());
}

TEST_CASE("a touch during a fling stops it and presses nothing") {
    Page page;
    page.frames(2);
    page.settle();
    page.touch(TouchPhase::kStart, 200, 600);
    page.frame();
    for (int step = 1; step <= 5; ++step) {
        page.touch(TouchPhase::kMove, 200, 600 - 40.0f * step);
        page.frame(0.016);
    }
    page.touch(TouchPhase::kEnd, 200, 400);
    page.frames(3);
    page.touch(TouchPhase::kStart, 200, 300);
    page.touch(TouchPhase::kEnd, 200, 300);
    page.frame();
    const float stopped = page.scroll_y;
    page.frames(10);
    CHECK(page.scroll_y == doctest::Approx(stopped));
    CHECK(page.clicked.empty());
}

TEST_CASE("a finger held still for half a second opens what a right click opens, and presses nothing") {
    Page page;
    page.frames(2);
    page.settle();
    const float row = page.row_y(10);
    page.touch(TouchPhase::kStart, 200, row);
    page.frames(20, 0.02);  // 0.4 s
    CHECK_FALSE(page.menu_open);
    page.frames(10, 0.02);  // 0.6 s
    CHECK(page.menu_open);
    page.touch(TouchPhase::kEnd, 200, row);
    page.frames(5);
    CHECK(page.menu_open);
    CHECK(page.clicked.empty());
}

TEST_CASE("a drag that starts on the scrollbar drags the scrollbar (the content goes the other way than a swipe)") {
    Page page;
    page.frames(2);
    page.settle();
    const ImRect bar = page.scrollbar;
    REQUIRE(bar.GetWidth() > 0);
    const float x = bar.Max.x - 1, y = bar.Min.y + 20;  // on the thumb, at the top
    page.touch(TouchPhase::kStart, x, y);
    page.frames(2);
    for (int step = 1; step <= 10; ++step) {
        page.touch(TouchPhase::kMove, x, y + 10.0f * step);
        page.frame();
    }
    page.touch(TouchPhase::kEnd, x, y + 100);
    page.frames(3);
    // The thumb moved 100 px down a bar of ~800 px: the content scrolled down by about 100 px x content / bar.
    CHECK(page.scroll_y > 300);
    CHECK(page.clicked.empty());
}

TEST_CASE("the browser's paste goes into the active text box as ImGui's own Ctrl+V, once, UTF-8 and lines intact") {
    Page page;
    page.frames(2);
    page.settle();
    const float y = 8 + 20;  // the text box
    page.touch(TouchPhase::kStart, 200, y);
    page.touch(TouchPhase::kEnd, 200, y);
    page.frames(4);
    REQUIRE(ImGui::GetIO().WantTextInput);
    CHECK(gg::platform::clipboard_text_for_imgui() == nullptr);  // ImGui's Ctrl+V alone pastes nothing stale
    const std::string pasted = "{\"model_type\": \"qwen2\",\r\n \"name\": \"通义千问 é\"}";
    gg::platform::paste_text(pasted);
    ImGui::GetIO().KeyCtrl = true;  // the user still holds Ctrl (typed characters would be ignored now)
    ImGui::GetIO().KeysDown[86] = true;
    page.frames(3);
    CHECK(std::string(page.text) == "{\"model_type\": \"qwen2\",\n \"name\": \"通义千问 é\"}");
    CHECK(ImGui::GetIO().KeyCtrl);  // the keys are as the user holds them again
    CHECK(ImGui::GetIO().KeysDown[86]);
    CHECK(gg::platform::clipboard_text_for_imgui() == nullptr);
}

TEST_CASE("a paste that arrives with the click on the text box, in one frame, still goes in") {
    // Under load (or from a paused loop) a mouse click on the box and the Ctrl+V after it reach the page between the
    // same two frames. The frame whose press activates the box takes no keys, so the paste waits one frame.
    Page page;
    page.frames(2);
    page.settle();
    REQUIRE_FALSE(ImGui::GetIO().WantTextInput);  // the box is not active yet
    page.mouse_pos = ImVec2(200, 8 + 20);       // over the text box
    gg::platform::mouse_used();                 // GLFW saw the mouse: it drives the pointer
    gg::platform::paste_text("{\"hidden_size\": 1536}");
    page.mouse_left = true;  // the press, with the paste already pending, in the same frame
    page.frame();
    page.mouse_left = false;
    page.frames(3);
    CHECK(ImGui::GetIO().WantTextInput);
    CHECK(std::string(page.text) == "{\"hidden_size\": 1536}");
    CHECK_FALSE(gg::platform::busy());
    page.mouse_pos = ImVec2(-FLT_MAX, -FLT_MAX);
}

TEST_CASE("Ctrl+A pressed and released between two frames still selects all, before the paste that follows it") {
    // A test's keyboard (or a slow phone's frame) puts the whole chord between two frames: ImGui 1.86 reads the keys
    // once a frame and would never see it; the paste after it would then go in beside the old text.
    Page page;
    page.frames(2);
    page.settle();
    page.touch(TouchPhase::kStart, 200, 8 + 20);
    page.touch(TouchPhase::kEnd, 200, 8 + 20);
    page.frames(4);
    REQUIRE(ImGui::GetIO().WantTextInput);
    gg::platform::paste_text("old text");
    page.frames(2);
    REQUIRE(std::string(page.text) == "old text");
    gg::platform::key_pressed(65, true, false, false, false);  // Ctrl+A, released before the frame (KeysDown stays up)
    gg::platform::key_pressed(256, false, false, false, false);  // Escape is the app's own latch: ignored here
    gg::platform::key_pressed(999, false, false, false, false);  // a key ImGui does not map: ignored
    gg::platform::paste_text("new");
    CHECK(gg::platform::busy());
    page.frames(3);
    CHECK(std::string(page.text) == "new");
    CHECK_FALSE(ImGui::GetIO().KeyCtrl);  // the keys are as the user holds them again: up
    CHECK_FALSE(ImGui::GetIO().KeysDown[65]);
    CHECK_FALSE(gg::platform::busy());
    // A key still held at the frame is ImGui's to see: the latch adds no second press.
    ImGui::GetIO().KeysDown[65] = true;
    ImGui::GetIO().KeyCtrl = true;
    gg::platform::key_pressed(65, true, false, false, false);
    page.frames(1);
    CHECK_FALSE(gg::platform::busy());
    ImGui::GetIO().KeysDown[65] = false;
    ImGui::GetIO().KeyCtrl = false;
    page.frames(1);
}
