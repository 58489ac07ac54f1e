// The page's one theme (colours, spacing in font units) and its fonts. Dear ImGui only.
#pragma once

#include "ui/app.h"

namespace gg::ui {

// The two verdict colours, used as text on the light background (both above 4.5:1 contrast): green for "fits" /
// "passes", red for "does not fit", a miss and an input error.
inline const ImVec4 kGoodColor(0.09f, 0.50f, 0.27f, 1.0f);
inline const ImVec4 kBadColor(0.70f, 0.13f, 0.13f, 1.0f);
inline const ImVec4& verdict_color(bool good) { return good ? kGoodColor : kBadColor; }
// "Tight": fits the card but not with the headroom a real run needs (dark amber, above 4.5:1 on the background).
inline const ImVec4 kTightColor(0.60f, 0.36f, 0.0f, 1.0f);

// Sets ImGui's style for a body font of `body_px` device pixels: every size is a multiple of it.
void apply_theme(float body_px);

// (Re)builds the font atlas from the embedded, subset UI font: body text and headings.
void build_fonts(FontSet& fonts, float body_px);

}  // namespace gg::ui
