// The phone's on-screen keyboard for the page's text boxes. A canvas takes no text, so a phone shows no keyboard when a
// finger activates one of Dear ImGui's boxes: an invisible textarea (#gg-keyboard) is focused instead, at the tap, and
// what the keyboard types into it goes to ImGui: inserted text as characters, Backspace, Delete and Enter as key
// presses (web_input's latch), an IME's text (pinyin) when its composition ends.
//
// Browsers open the keyboard only for a focus() made inside the user's gesture (iOS Safari strictly; Chrome within its
// transient activation): the tap's touchend focuses the textarea when the last frame saw the finger over a text box.
// A tap quicker than a frame is caught by the next frame that finds a box active with a finger last (Chrome). The
// textarea is blurred, and the keyboard closes, when ImGui no longer wants text.
//
// A hardware keyboard typing into the textarea reaches GLFW's own listeners (keydown, keypress on window) as before:
// its keypress marks the input event that follows as already typed, so nothing goes in twice.
#include "platform/web_keyboard.h"

#include <GLFW/glfw3.h>  // the key codes ImGui's GLFW backend maps (GLFW_KEY_BACKSPACE ...)
#include <emscripten.h>

#include "imgui.h"
#include "platform/web_input.h"

namespace gg::platform {
namespace {

bool g_wanted_text = false;  // the last frame's io.WantTextInput

}  // namespace

void install_soft_keyboard() {
    // One function expression: the preprocessor would split EM_ASM's code at a comma outside parentheses.
    EM_ASM({ (function() {
        var canvas = Module["canvas"];
        var kb = document.createElement("textarea");
        kb.id = "gg-keyboard";
        kb.tabIndex = -1;
        kb.setAttribute("aria-hidden", "true");
        kb.setAttribute("autocapitalize", "off");
        kb.setAttribute("autocomplete", "off");
        kb.setAttribute("autocorrect", "off");
        kb.spellcheck = false;
        document.body.appendChild(kb);
        var typedByKey = false;  // a hardware key's keypress: GLFW already gave ImGui its character
        window.addEventListener("keypress", function() {
            typedByKey = true;
            setTimeout(function() { typedByKey = false; }, 0);
        }, true);
        var send = function(text) {
            if (!text) return;
            var p = allocateUTF8(text);
            Module["_gg_text_input"](p);
            _free(p);
        };
        kb.addEventListener("input", function(e) {
            if (e.isComposing) return;  // the IME's text comes whole at compositionend
            var typed = typedByKey;
            typedByKey = false;
            var type = e.inputType || "";
            if (!typed) {
                if (type === "deleteContentBackward") Module["_gg_key_tap"]($0);
                else if (type === "deleteContentForward") Module["_gg_key_tap"]($1);
                else if (type === "insertLineBreak" || type === "insertParagraph") Module["_gg_key_tap"]($2);
                else if (type.indexOf("insert") === 0 && type !== "insertFromPaste") send(e.data != null ? e.data : kb.value);
            }
            kb.value = "";
        });
        kb.addEventListener("compositionend", function(e) {
            send(e.data);
            kb.value = "";
        });
        // Device pixels (ImGui's) to the page's CSS pixels: the textarea sits where the finger was, so a browser that
        // pans to the focused element shows the box being typed into above the keyboard.
        Module["ggShowKeyboard"] = function(x, y) {
            var r = canvas.getBoundingClientRect();
            kb.style.left = (r.left + x * r.width / canvas.width) + "px";
            kb.style.top = (r.top + y * r.height / canvas.height) + "px";
            kb.value = "";
            // Focused again from a tap: a keyboard the user closed (Android's Back) opens again.
            if (document.activeElement === kb) kb.blur();
            kb.focus({preventScroll: true});
        };
        Module["ggHideKeyboard"] = function() {
            if (document.activeElement === kb) { kb.blur(); canvas.focus({preventScroll: true}); }
        };
        Module["ggKeyboardShown"] = function() { return document.activeElement === kb; };
    })(); }, GLFW_KEY_BACKSPACE, GLFW_KEY_DELETE, GLFW_KEY_ENTER);
}

void sync_soft_keyboard() {
    const bool wants = ImGui::GetIO().WantTextInput;
    if (wants && !g_wanted_text && finger_used_last()) {
        float x = 0, y = 0;
        last_touch_position(x, y);
        EM_ASM({ if (!Module["ggKeyboardShown"]()) Module["ggShowKeyboard"]($0, $1); }, x, y);  // no gesture: Chrome
    }
    else if (!wants && g_wanted_text)
        EM_ASM({ Module["ggHideKeyboard"](); });
    g_wanted_text = wants;
}

}  // namespace gg::platform
