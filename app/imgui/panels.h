// app/imgui/panels.h — the lab bench's panels, one file each; each draws into the rectangle it is given.
#pragma once
#include <imgui.h>

#include "app/lab/close_guard.h"
#include "app/lab/lab_state.h"

struct ImFont;

namespace rl::lab {

// The colour of compile errors and notices in the kernel panels.
inline const ImVec4 kWarn(0.96f, 0.45f, 0.2f, 1.0f);
// The colour of notes (cost findings: correct code, never a failure): a calm blue, unlike a hazard's orange.
inline const ImVec4 kNote(0.45f, 0.70f, 0.95f, 1.0f);

// The canvas window is transparent: the renderer draws the scene under it; this handles zoom, pan and clicks.
void canvas_panel(LabState& s, const Rect& r);
void config_panel(LabState& s, const Rect& r);
void details_panel(LabState& s, const Rect& r);
void depth_panel(LabState& s, const Rect& r);
void timings_panel(LabState& s, const Rect& r);
// The numerics comparison of the shown schedule (N toggles it; drawn in the canvas's place).
void numerics_panel(LabState& s, const Rect& r);
void transport_panel(LabState& s, const Rect& r);
// The open lesson's step: narrative, knowledge check and the expectations checked (shown instead of timings).
void lesson_panel(LabState& s, const Rect& r);
// The CUDA source of the shown schedule (S shows/hides it, D the bug diff): step lines lit, click a line for its
// events. panel_source.cpp.
void source_panel(LabState& s, const Rect& r);
// The source panel's monospaced font: added to the atlas by restyle (window.cpp), nullptr before.
ImFont*& source_font();
ImFont* add_source_font(float font_scale);
// The characters both fonts are built with (app/imgui/window.cpp).
const ImWchar* text_glyph_ranges();
// A student's kernel (panel_kernel.cpp): the panel in the config panel's place while one is open; the path field
// alone (kernel_opener) at the end of the config panel otherwise; Ctrl+O focuses the field.
void kernel_panel(LabState& s, const Rect& r);
void kernel_opener(LabState& s);
void focus_kernel_path();
// Editing the student's kernel in the source panel (panel_kernel_edit.cpp): the Edit toggle and, in edit mode, Save
// and run and Revert (true: in edit mode, the field follows); the field itself fills the rest of the panel.
bool kernel_edit_bar(LabState& s);
void kernel_editor_field(LabState& s);
void toggle_kernel_editor(LabState& s);  // Ctrl+E: in and out of edit mode (shows the source panel)
// Keys that work everywhere unless a text field has focus: space, arrows, Home/End, H, F, T, N, S, D, Ctrl +/-, and
// Page Down / Page Up between a lesson's steps.
void handle_shortcuts(LabState& s);

// Fixed window placement shared by the panels (no docking in ImGui 1.86).
bool begin_fixed(const char* name, const Rect& r, int extra_flags = 0);

// Closing the window while the kernel editor holds unsaved edits: a modal asks (opened when `ask`); what the
// student chose, or kNone while it is still open (app/lab/close_guard decides what it does).
CloseChoice unsaved_edits_dialog(LabState& s, bool ask);

}  // namespace rl::lab
