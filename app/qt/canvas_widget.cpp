// app/qt/canvas_widget.cpp — GL objects made in initializeGL, released on aboutToBeDestroyed (Qt's hellogl2 habit).
#include "app/qt/canvas_widget.h"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QWheelEvent>
#include "app/render/renderer.h"

namespace rl::qt {

CanvasWidget::CanvasWidget(Classroom& c, QWidget* parent) : QOpenGLWidget(parent), c_(c) {
    setMinimumSize(320, 200);
    setFocusPolicy(Qt::StrongFocus);
}

CanvasWidget::~CanvasWidget() { cleanup(); }

void CanvasWidget::cleanup() {
    if (!renderer_) return;
    makeCurrent();
    renderer_->shutdown();
    renderer_.reset();
    doneCurrent();
}

void CanvasWidget::initializeGL() {
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &CanvasWidget::cleanup, Qt::UniqueConnection);
    renderer_ = std::make_unique<render::Renderer>();
    if (!renderer_->init(&error_)) renderer_.reset();
}

void CanvasWidget::finish_gl() {
    if (!renderer_) return;
    makeCurrent();
    renderer_->finish();
    doneCurrent();
}

void CanvasWidget::resizeGL(int, int) { c_.lab.view_fitted = false; }

void CanvasWidget::paintGL() {
    const float dpr = float(devicePixelRatioF());
    const float w = float(width()) * dpr, h = float(height()) * dpr;
    lab::LabState& s = c_.lab;
    if (!s.view_fitted) {
        s.view = render::fit_view(s.layout, w, h, s.font_scale);
        s.view_fitted = true;
    }
    s.view.width = w;
    s.view.height = h;
    s.view.font_scale = s.font_scale;
    s.view.dark = s.dark;
    s.view.selected = s.selected;
    s.view.cone = s.cone.empty() ? nullptr : &s.cone;
    scene_ = render::build_scene(s.trace, s.layout, s.cursor, s.view);
    s.last_scene = scene_;
    if (!renderer_) return;
    renderer_->begin_frame(int(w), int(h), render::palette(s.dark).background);
    renderer_->draw(scene_, 0, 0, int(w), int(h));
}

void CanvasWidget::wheelEvent(QWheelEvent* e) {
    const float dpr = float(devicePixelRatioF());
    render::zoom_view(c_.lab.view, c_.lab.layout, e->angleDelta().y() > 0 ? 1.25f : 0.8f, float(e->position().x()) * dpr,
                      float(e->position().y()) * dpr);
    update();
}

void CanvasWidget::mousePressEvent(QMouseEvent* e) {
    press_ = last_ = e->position();
    dragged_ = false;
}

void CanvasWidget::mouseMoveEvent(QMouseEvent* e) {
    const QPointF d = e->position() - last_;
    last_ = e->position();
    if ((e->position() - press_).manhattanLength() > 3) dragged_ = true;
    if (!dragged_) return;
    const float dpr = float(devicePixelRatioF());
    c_.lab.view.x0 -= d.x() * dpr / c_.lab.view.px_per_col;
    c_.lab.view.y0 = std::max(0.0f, c_.lab.view.y0 - float(d.y()) * dpr);
    update();
}

void CanvasWidget::mouseReleaseEvent(QMouseEvent* e) {
    if (dragged_) return;
    const float dpr = float(devicePixelRatioF());
    c_.lab.select(render::pick(scene_, float(e->position().x()) * dpr, float(e->position().y()) * dpr));
    emit selectionChanged();
    update();
}

}  // namespace rl::qt
