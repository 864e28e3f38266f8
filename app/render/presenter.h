// app/render/presenter.h — the presenter's canvas: large enough to read from the back of a room, following the step.
#pragma once
#include "app/render/scene.h"

namespace rl::render {

// No text on a presenter canvas is smaller than this (pixels, at 1920x1080 and above).
inline constexpr float kPresenterMinTextPx = 18.0f;
// The font scale a presenter canvas uses at least: the smallest label the scene draws is 12 px at scale 1.
inline constexpr float kPresenterFontScale = 1.6f;

// A view that follows step `step`: columns wide and rows tall enough for their labels at presenter size, the
// step's row low in the picture with the rows before it above, and the columns active at that step centred
// (all of them when they fit).
View presenter_view(const Layout& l, float width, float height, float font_scale, int step);

// Removes every text smaller than min_px (a value in a box too small to hold it at that size); the boxes stay.
void drop_small_texts(Scene& s, float min_px);

}  // namespace rl::render
