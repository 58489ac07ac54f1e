// The page's one theme (colours, spacing in font units) and its fonts. Dear ImGui only.
#pragma once

#include "ui/app.h"

namespace gg::ui {

// Sets ImGui's style for a body font of `body_px` device pixels: every size is a multiple of it.
void apply_theme(float body_px);

// (Re)builds the font atlas from the embedded, subset UI font: body text and headings.
void build_fonts(FontSet& fonts, float body_px);

}  // namespace gg::ui
