// Touch and clipboard input for the page, fed to Dear ImGui around each frame (web_main.cpp calls these). Holds no
// Emscripten calls: the browser's events reach it through web_main's exports, so the state machine stays readable.
#pragma once

#include <string>

namespace gg::platform {

// A finger on the canvas, in device pixels (ImGui's pixels), at `now_s` seconds (emscripten_get_now / 1000).
enum class TouchPhase { kStart = 0, kMove = 1, kEnd = 2, kCancel = 3 };
void touch_event(TouchPhase phase, float x, float y, double now_s);

// A left click at (x, y) in three frames (hover, press, release): a right click on a text box first puts the caret
// there, so that the browser's context menu pastes into that box.
void click_at(float x, float y);
// The pointer was over a text box in the last frame.
bool pointer_over_text_box();

// A mouse moved or pressed: the mouse owns the pointer again (a laptop with a touch screen uses both).
void mouse_used();
// The last pointer input was a finger (a tap or a swipe), not the mouse: a text box it activates needs the
// phone's on-screen keyboard (web_keyboard.cpp).
bool finger_used_last();
// Where the last touch began, in device pixels.
void last_touch_position(float& x, float& y);

// Text from the browser's paste event: pasted into the active text box in the next frame.
void paste_text(std::string text);
// GLFW's key callback saw `key` (a GLFW key code) go down with these modifiers. If it is up again before the next frame
// (a press quicker than a frame: a test's keyboard, a slow phone), that frame still sees it pressed, in order with the
// pastes around it; a key still held is left to ImGui. Keys ImGui does not map, and Escape, are ignored.
void key_pressed(int key, bool ctrl, bool shift, bool alt, bool super);
// What io.GetClipboardTextFn returns: the pasted text during the frame that pastes it, else nothing (ImGui's own
// Ctrl+V would otherwise paste a stale text as well as the browser's).
const char* clipboard_text_for_imgui();

// Around each frame: after ImGui_ImplGlfw_NewFrame (which set the mouse from GLFW) and before ImGui::NewFrame,
// then after the UI was drawn (before ImGui::Render), with the frame's time.
void before_new_frame(double now_s);
void after_frame();

// Something is still moving (a fling, queued pointer steps, a held finger): keep drawing frames.
bool busy();

}  // namespace gg::platform
