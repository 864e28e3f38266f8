// app/qt/canvas_widget.cpp — GL objects made in initializeGL, released on aboutToBeDestroyed (Qt's hellogl2 habit).
#include "app/qt/canvas_widget.h"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QWheelEvent>
#include "app/lab/frame.h"
#include "app/render/renderer.h"

namespace rl::qt {

CanvasWidget::CanvasWidget(Classroom& c, QWidget* parent) : QOpenGLWidget(parent), c_(c) {
    setMinimumSize(320, 200);
    setFocusPolicy(Qt::StrongFocus);
}

CanvasWidget::~CanvasWidget() {
    // QOpenGLWidget's destructor destroys the context after this one has run: its aboutToBeDestroyed must not call
    // cleanup() on what is by then no CanvasWidget (UBSan under the monkey test: a downcast of a destroyed object).
    if (QOpenGLContext* ctx = context()) disconnect(ctx, &QOpenGLContext::aboutToBeDestroyed, this, &CanvasWidget::cleanup);
    cleanup();
}

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
    const render::Scene& scene = lab::frame_scene(c_.lab, w, h);
    if (!renderer_) return;
    renderer_->begin_frame(int(w), int(h), render::palette(c_.lab.dark).background);
    renderer_->draw(scene, 0, 0, int(w), int(h));
}

void CanvasWidget::wheelEvent(QWheelEvent* e) {
    const float dpr = float(devicePixelRatioF());
    lab::zoom(c_.lab, e->angleDelta().y() > 0 ? 1.25f : 0.8f, float(e->position().x()) * dpr, float(e->position().y()) * dpr);
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
    lab::pan(c_.lab, float(d.x()) * dpr, float(d.y()) * dpr);
    update();
}

void CanvasWidget::mouseReleaseEvent(QMouseEvent* e) {
    if (dragged_) return;
    const float dpr = float(devicePixelRatioF());
    c_.lab.select(c_.lab.pending_pick(float(e->position().x()) * dpr, float(e->position().y()) * dpr));
    emit selectionChanged();
    update();
}

}  // namespace rl::qt
