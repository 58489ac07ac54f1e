// The phone's on-screen keyboard for Dear ImGui's text boxes (web_keyboard.cpp says how). web_main installs it once,
// calls sync_soft_keyboard after each frame, and exports gg_text_input / gg_key_tap for its JavaScript.
#pragma once

namespace gg::platform {

// Creates the invisible textarea #gg-keyboard and its listeners; Module.ggShowKeyboard(x, y) focuses it at (x, y)
// device pixels (the touchend of a tap on a text box calls it, inside the gesture).
void install_soft_keyboard();
// After a frame: a text box a finger activated shows the keyboard; none active hides it.
void sync_soft_keyboard();

}  // namespace gg::platform
