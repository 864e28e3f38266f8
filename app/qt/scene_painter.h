// app/qt/scene_painter.h — draws app/render's Scene with QPainter: the vector twin of the GL canvas (SVG, PDF).
#pragma once
#include <QPainter>
#include "app/render/scene.h"

namespace rl::qt {

// Paints the scene's boxes, arrows and labels into the rectangle (0, 0, scene.width, scene.height).
void paint_scene(QPainter& p, const render::Scene& s);

}  // namespace rl::qt
