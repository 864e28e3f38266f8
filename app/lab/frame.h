// app/lab/frame.h — the canvas of either front end: one function builds a frame's scene (steps or time view),
// and the view it is seen through follows the wheel and drags the same way in both.
#pragma once
#include "app/lab/lab_state.h"

namespace rl::lab {

// The view that shows all of the trace (or one lane with zoom "lane", or the --time-window in the time view).
render::View fitted_view(const LabState& s, float w, float h, float font_scale);
// The one function that builds a frame's scene: `s`'s trace at its cursor through `v`, the time view when
// s.time_view, else the steps.
render::Scene build_frame(const LabState& s, const render::View& v);
// The scene of this frame on a canvas of w x h pixels: fits the view first when asked (view_fitted false),
// takes the theme, font scale and selection from the state, and keeps the scene in s.last_scene (clicks pick
// from it). The time view when s.time_view, else the steps. Built only when its SceneKey (lab_state.h) differs
// from the last one's; otherwise s.last_scene is returned as it is (s.scene_builds counts the builds).
const render::Scene& frame_scene(LabState& s, float w, float h);
// Bytes that name the canvas picture frame_scene() last made: the scene's build (any change of view, step, trace,
// selection or theme builds a new one) and the background. A front end that keeps its picture (the lab bench's
// window, the classroom's canvas image) draws again only when these, or what it adds (its panels, its size), change.
std::string shown_scene_bytes(const LabState& s);
// The wheel: zoom by `factor` about the canvas point (x, y), in whichever view is shown.
void zoom(LabState& s, float factor, float x, float y);
// A drag by (dx, dy) canvas pixels.
void pan(LabState& s, float dx, float dy);

}  // namespace rl::lab
