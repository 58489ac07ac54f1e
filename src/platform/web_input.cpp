// Touch as a finger means it and the browser's paste as Dear ImGui's own Ctrl+V. Why not GLFW's: Emscripten 3.1.6's
// GLFW presses a touch where the previous pointer was (src/library_glfw.js only moves the cursor on touchmove), and a
// press shorter than a frame is lost (ImGui 1.86 reads the button state once a frame); it has no clipboard at all.
// A tap here moves the pointer, presses in the next frame and releases in the one after; a swipe scrolls the panel
// under the finger and flings on with momentum; a finger held still is a right click; a drag that starts on a
// scrollbar drags it. A key pressed and released between two frames is pressed in the next one, and the browser's
// pastes and these keys reach ImGui one per frame, in order, never in the frame that activates a text box.
#include "platform/web_input.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <deque>
#include <utility>

#define IMGUI_DEFINE_MATH_OPERATORS  // ImVec2 arithmetic (imgui_internal.h), for positions and speeds
#include "imgui.h"
#include "imgui_internal.h"  // a window's scroll, scroll range and scrollbar rectangles: scrolling what is under the finger

namespace gg::platform {
namespace {

// Android's ViewConfiguration: DEFAULT_LONG_PRESS_TIMEOUT 500 ms; touch slop 8 dp, half the page's 16 px body font.
constexpr double kLongPressS = 0.5;
constexpr float kTouchSlopEm = 0.5f;
// UIScrollView's normal deceleration rate, 0.998 per millisecond: speed falls as e^(-t / 0.5 s), so a fling travels
// its release speed times 0.5 s.
constexpr double kFlingDecayS = 0.5;
// Slower than this on release is a finger put down, not a fling (Android's minimum fling speed, 50 dp/s, is ~3 em/s).
constexpr float kMinFlingEmPerS = 3.0f;
constexpr float kStopFlingEmPerS = 0.5f;  // a fling slower than this has stopped (a thirtieth of an em per frame)
constexpr double kVelocityWindowS = 0.1;  // the release speed is the finger's over its last 100 ms
// Fingers are wider than ImGui's scrollbar (ScrollbarSize): a drag starting this close to its left edge takes it.
constexpr float kScrollbarGrabEm = 0.5f;

const ImVec2 kOff(-FLT_MAX, -FLT_MAX);  // ImGui's "no pointer": nothing hovered after a tap ends

enum class Gesture { kNone, kPending, kScroll, kDrag, kLongPressed };

struct Step {  // the pointer for one frame
    ImVec2 pos;
    bool left;
    bool right;
};

// A key pressed and released between two frames, with the modifiers held when it went down, or a paste (ImGui's own
// Ctrl+V with `text` as the clipboard). ImGui 1.86 reads the keys' state once a frame and has no event queue.
struct Keyed {
    int key = -1;
    bool ctrl = false, shift = false, alt = false, super = false;
    bool paste = false;
    std::string text;
};

struct Sample {
    double t_s;
    ImVec2 pos;
};

struct State {
    bool owns_pointer = false;  // a touch drives ImGui's pointer (until the mouse is used)
    bool finger_last = false;   // the last pointer input was a finger (a right click's made-up left click is not)
    Step pointer{kOff, false, false};
    std::deque<Step> steps;  // one per frame, so every move, press and release is seen by ImGui

    Gesture gesture = Gesture::kNone;
    ImVec2 start, finger;
    ImVec2 scrolled_to;       // the finger position the panel has been scrolled for
    ImVec2 drag_offset;       // kDrag: from the finger to the point pressed on the scrollbar
    bool lock_x = false;      // kScroll: the swipe is sideways (one axis at a time, as native lists do)
    double start_s = 0;
    bool target_known = false;  // the frame after the touch began has found the window under it
    ImGuiID target = 0;
    bool stopped_fling = false;  // this touch stopped a fling: its tap only stops, it presses nothing
    // The finger went past the slop and lifted before a frame found the window under it (a flick on a slow device):
    // the swipe is scrolled and flung, at `lifted_v`, once that window is known.
    bool lifted = false;
    ImVec2 lifted_v;
    std::deque<Sample> samples;

    ImVec2 fling_v;  // finger speed, device pixels per second
    ImGuiID fling_target = 0;
    double last_frame_s = -1;
    float em = 16.0f;  // the last frame's font size
    bool over_text_box = false;  // the last frame's pointer was over a text box (ImGui showed the text cursor)

    // Key chords and pastes, in the order they came, fed to ImGui one per frame (`pressing` is this frame's).
    std::deque<Keyed> keyed;
    Keyed pressing;
    bool applying = false;  // this frame presses `pressing`
    bool saved_ctrl = false, saved_shift = false, saved_alt = false, saved_super = false, saved_key = false;
};

State g_state;

float length(ImVec2 v) { return std::sqrt(v.x * v.x + v.y * v.y); }

// Scrolls `target` by `delta` device pixels; what it cannot take goes to the windows around it (a table at its end
// scrolls the pane holding it), never past a popup. Returns how much moved.
ImVec2 scroll_by(ImGuiID target, ImVec2 delta) {
    ImVec2 moved(0, 0);
    for (int axis = 0; axis < 2; ++axis) {
        float d = axis == 0 ? delta.x : delta.y;
        for (ImGuiWindow* w = ImGui::FindWindowByID(target); w != nullptr && d != 0.0f; w = w->ParentWindow) {
            const float target_now = axis == 0 ? w->ScrollTarget.x : w->ScrollTarget.y;
            const float cur = target_now < FLT_MAX ? target_now : (axis == 0 ? w->Scroll.x : w->Scroll.y);
            const float next = ImClamp(cur + d, 0.0f, axis == 0 ? w->ScrollMax.x : w->ScrollMax.y);
            if (next != cur) {
                if (axis == 0) ImGui::SetScrollX(w, next);
                else ImGui::SetScrollY(w, next);
                d -= next - cur;
                (axis == 0 ? moved.x : moved.y) += next - cur;
            }
            if (w->Flags & ImGuiWindowFlags_Popup) break;
        }
    }
    return moved;
}

void begin_scroll(State& s) {
    s.gesture = Gesture::kScroll;
    s.lock_x = std::fabs(s.finger.x - s.start.x) > std::fabs(s.finger.y - s.start.y);
    s.scrolled_to = s.start;  // the content follows the finger from where it touched, not from the slop's edge
    s.steps.push_back({kOff, false, false});  // no hover highlight under a scrolling finger
}

// A touch that moved past the slop is a swipe, once the window under it is known (a scrollbar is dragged instead).
void maybe_begin_scroll(State& s) {
    if (s.gesture == Gesture::kPending && s.target_known && length(s.finger - s.start) > kTouchSlopEm * s.em)
        begin_scroll(s);
}

// The swipe is over: it flings on at the finger's speed `v` along its axis when that is fast enough.
void end_scroll(State& s, ImVec2 v) {
    if (s.lock_x) v.y = 0;
    else v.x = 0;
    if (length(v) > kMinFlingEmPerS * s.em) {
        s.fling_v = v;
        s.fling_target = s.target;
    }
    s.steps.push_back({kOff, false, false});
    s.gesture = Gesture::kNone;
}

ImVec2 release_velocity(const State& s, double end_s) {
    if (s.samples.empty() || end_s - s.samples.back().t_s > kVelocityWindowS) return ImVec2(0, 0);  // it rested
    const Sample* oldest = &s.samples.back();
    for (const Sample& sample : s.samples)
        if (end_s - sample.t_s <= kVelocityWindowS) {
            oldest = &sample;
            break;
        }
    const double dt = s.samples.back().t_s - oldest->t_s;
    if (dt < 0.01) return ImVec2(0, 0);
    const ImVec2 d = s.samples.back().pos - oldest->pos;
    return ImVec2(static_cast<float>(d.x / dt), static_cast<float>(d.y / dt));
}

}  // namespace

void touch_event(TouchPhase phase, float x, float y, double now_s) {
    State& s = g_state;
    const ImVec2 pos(x, y);
    switch (phase) {
    case TouchPhase::kStart:
        s.finger_last = true;
        s.stopped_fling = s.fling_v.x != 0.0f || s.fling_v.y != 0.0f;
        s.fling_v = ImVec2(0, 0);
        s.owns_pointer = true;
        s.gesture = Gesture::kPending;
        s.start = s.finger = pos;
        s.start_s = now_s;
        s.target_known = false;
        s.lifted = false;
        s.samples.clear();
        s.samples.push_back({now_s, pos});
        s.steps.push_back({pos, false, false});  // hover first: ImGui 1.86 finds the widget in the frame before the press
        break;
    case TouchPhase::kMove:
        s.finger = pos;
        if (s.gesture == Gesture::kScroll || s.gesture == Gesture::kPending) {
            s.samples.push_back({now_s, pos});
            while (s.samples.size() > 2 && now_s - s.samples.front().t_s > 2 * kVelocityWindowS) s.samples.pop_front();
        }
        maybe_begin_scroll(s);
        break;
    case TouchPhase::kEnd:
    case TouchPhase::kCancel: {
        s.finger = pos;
        const bool ended = phase == TouchPhase::kEnd;
        const bool moved = length(s.finger - s.start) > kTouchSlopEm * s.em;
        if (s.gesture == Gesture::kPending && ended && moved && !s.target_known) {
            s.lifted = true;  // a swipe all the same: after_frame scrolls it once the window under it is known
            s.lifted_v = release_velocity(s, now_s);
            break;
        }
        if (s.gesture == Gesture::kScroll && ended) {
            end_scroll(s, release_velocity(s, now_s));
            break;
        }
        if (s.gesture == Gesture::kPending && ended && !moved && !s.stopped_fling) {
            s.steps.push_back({s.start, true, false});  // a tap: press and release where it landed
            s.steps.push_back({s.start, false, false});
        } else if (s.gesture == Gesture::kDrag) {
            s.steps.push_back({s.finger + s.drag_offset, false, false});
        }
        if (s.gesture != Gesture::kLongPressed) s.steps.push_back({kOff, false, false});  // a long press keeps its menu's spot
        s.gesture = Gesture::kNone;
        break;
    }
    }
}

void click_at(float x, float y) {
    State& s = g_state;
    const ImVec2 pos(x, y);
    s.owns_pointer = true;
    s.steps.push_back({pos, false, false});
    s.steps.push_back({pos, true, false});
    s.steps.push_back({pos, false, false});
}

bool pointer_over_text_box() { return g_state.over_text_box; }

bool finger_used_last() { return g_state.finger_last; }

void last_touch_position(float& x, float& y) {
    x = g_state.start.x;
    y = g_state.start.y;
}

void mouse_used() {
    State& s = g_state;
    s.finger_last = false;
    if (s.gesture == Gesture::kNone && s.steps.empty()) s.owns_pointer = false;
}

void paste_text(std::string text) {
    Keyed paste;
    paste.paste = true;
    paste.text = std::move(text);
    g_state.keyed.push_back(std::move(paste));
}

void key_pressed(int key, bool ctrl, bool shift, bool alt, bool super) {
    const ImGuiIO& io = ImGui::GetIO();
    bool mapped = false;  // a key ImGui's text boxes and navigation read (Escape is latched by the app itself)
    for (int k = 0; k < ImGuiKey_COUNT; ++k) mapped |= k != ImGuiKey_Escape && io.KeyMap[k] == key;
    if (!mapped || key < 0 || key >= IM_ARRAYSIZE(io.KeysDown)) return;
    g_state.keyed.push_back({key, ctrl, shift, alt, super, false, {}});
}

const char* clipboard_text_for_imgui() {
    const State& s = g_state;
    return s.applying && s.pressing.paste ? s.pressing.text.c_str() : nullptr;
}

void before_new_frame(double now_s) {
    State& s = g_state;
    ImGuiIO& io = ImGui::GetIO();
    // A stalled tab does not jump; a clock that went back (a new test page) moves nothing.
    const double dt = s.last_frame_s < 0 ? 0.0 : std::clamp(now_s - s.last_frame_s, 0.0, 0.1);
    s.last_frame_s = now_s;

    if (s.gesture == Gesture::kPending && s.target_known && !s.lifted && now_s - s.start_s >= kLongPressS) {
        s.steps.push_back({s.start, false, true});  // what a right click opens (ImGui opens context popups on release)
        s.steps.push_back({s.start, false, false});
        s.gesture = Gesture::kLongPressed;
    }

    if (!s.steps.empty()) {
        s.pointer = s.steps.front();
        s.steps.pop_front();
    } else if (s.gesture == Gesture::kDrag) {
        s.pointer.pos = s.finger + s.drag_offset;
    }

    if (s.gesture == Gesture::kScroll) {
        ImVec2 d = s.scrolled_to - s.finger;  // the finger goes up: the content goes up with it
        if (s.lock_x) d.y = 0;
        else d.x = 0;
        scroll_by(s.target, d);
        s.scrolled_to = s.finger;
        if (s.lifted) end_scroll(s, s.lifted_v);
    } else if (s.fling_v.x != 0.0f || s.fling_v.y != 0.0f) {
        const ImVec2 moved = scroll_by(s.fling_target, s.fling_v * static_cast<float>(-dt));
        const float decay = static_cast<float>(std::exp(-dt / kFlingDecayS));
        s.fling_v = s.fling_v * decay;
        // Stops when slow, or at the end of what it scrolls (nothing moved on a frame that had time to move).
        if (length(s.fling_v) < kStopFlingEmPerS * s.em || (dt > 0 && moved.x == 0.0f && moved.y == 0.0f))
            s.fling_v = ImVec2(0, 0);
    }

    if (s.owns_pointer) {
        io.MousePos = s.pointer.pos;
        io.MouseDown[0] = s.pointer.left;
        io.MouseDown[1] = s.pointer.right;
    }

    // Chords and pastes wait while a press begins in this frame (a mouse click through GLFW or a tap's press): a text
    // box that the press activates takes no keys in its first frame (InputTextEx: `!g.ActiveIdIsJustActivated`), so
    // Ctrl+A or Ctrl+V would be dropped. A click and the keys after it can reach the page between the same two frames
    // (a slow frame, a paused loop woken by the click). io.MouseDownDuration still holds the last frame's: < 0 is up.
    const bool press_begins = (io.MouseDown[0] && io.MouseDownDuration[0] < 0.0f) ||
                              (io.MouseDown[1] && io.MouseDownDuration[1] < 0.0f);
    while (!press_begins && !s.keyed.empty()) {
        Keyed next = std::move(s.keyed.front());
        s.keyed.pop_front();
        if (next.paste) {
            // ImGui's own paste (InputTextEx: the shortcut with ImGuiKey_V "just pressed"): multiline, UTF-8, replacing
            // the selection and one undo step, as a typed Ctrl+V. Pressed fresh even when V is still held from the
            // real Ctrl+V; the real state comes back after the frame.
            next.key = io.KeyMap[ImGuiKey_V];
            IM_ASSERT(next.key >= 0 && "io.KeyMap[ImGuiKey_V] must be set: call ImGui_ImplGlfw_InitForOpenGL first");
            next.ctrl = !io.ConfigMacOSXBehaviors;
            next.super = io.ConfigMacOSXBehaviors;
            next.shift = next.alt = false;
        } else if (io.KeysDown[next.key]) {
            continue;  // still held: ImGui sees this press itself
        }
        s.saved_ctrl = io.KeyCtrl, s.saved_shift = io.KeyShift, s.saved_alt = io.KeyAlt, s.saved_super = io.KeySuper;
        s.saved_key = io.KeysDown[next.key];
        io.KeyCtrl = next.ctrl, io.KeyShift = next.shift, io.KeyAlt = next.alt, io.KeySuper = next.super;
        io.KeysDown[next.key] = true;
        io.KeysDownDuration[next.key] = -1.0f;  // NewFrame makes it 0: "just pressed"
        s.pressing = std::move(next);
        s.applying = true;
        break;
    }
}

void after_frame() {
    State& s = g_state;
    ImGuiIO& io = ImGui::GetIO();
    s.em = ImGui::GetFontSize();
    s.over_text_box = ImGui::GetMouseCursor() == ImGuiMouseCursor_TextInput;
    if (s.applying) {
        io.KeyCtrl = s.saved_ctrl, io.KeyShift = s.saved_shift, io.KeyAlt = s.saved_alt, io.KeySuper = s.saved_super;
        io.KeysDown[s.pressing.key] = s.saved_key;
        s.applying = false;
        s.pressing = Keyed();
    }
    // The frame that hovered the touch's start (its queued steps are done) names the window under the finger.
    if (s.gesture == Gesture::kPending && !s.target_known && s.steps.empty()) {
        s.target_known = true;
        ImGuiWindow* w = GImGui->HoveredWindow;
        s.target = w != nullptr ? w->ID : 0;
        if (w != nullptr) {
            const float grab = kScrollbarGrabEm * s.em;
            ImRect bar_y = w->ScrollbarY ? ImGui::GetWindowScrollbarRect(w, ImGuiAxis_Y) : ImRect();
            ImRect bar_x = w->ScrollbarX ? ImGui::GetWindowScrollbarRect(w, ImGuiAxis_X) : ImRect();
            bar_y.Min.x -= grab;
            bar_x.Min.y -= grab;
            const bool on_y = w->ScrollbarY && bar_y.Contains(s.start);
            const bool on_bar = on_y || (w->ScrollbarX && bar_x.Contains(s.start));
            if (on_bar && s.lifted) {  // a drag on a scrollbar already over: too late to press it
                s.gesture = Gesture::kNone;
                s.lifted = false;
                s.steps.push_back({kOff, false, false});
            } else if (on_bar) {
                // Pressed across the middle of the bar (the grab margin lies outside it, and ImGui does not take the
                // window's outermost pixel as the bar); the drag keeps that offset.
                const ImRect bar = on_y ? ImGui::GetWindowScrollbarRect(w, ImGuiAxis_Y)
                                        : ImGui::GetWindowScrollbarRect(w, ImGuiAxis_X);
                const ImVec2 at(on_y ? bar.GetCenter().x : ImClamp(s.start.x, bar.Min.x + 1, bar.Max.x - 1),
                                on_y ? ImClamp(s.start.y, bar.Min.y + 1, bar.Max.y - 1) : bar.GetCenter().y);
                s.drag_offset = at - s.start;
                s.gesture = Gesture::kDrag;
                s.steps.push_back({at, false, false});
                s.steps.push_back({at, true, false});
            }
        }
        maybe_begin_scroll(s);
    }
}

bool busy() {
    const State& s = g_state;
    return !s.steps.empty() || s.gesture != Gesture::kNone || s.fling_v.x != 0.0f || s.fling_v.y != 0.0f ||
           !s.keyed.empty();
}

}  // namespace gg::platform
