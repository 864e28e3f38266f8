// app/qt/canvas_widget.cpp — an offscreen GL context (QOffscreenSurface) draws the scene into a kept framebuffer
// when it changed; paintEvent copies the image read back from it. GL objects go with the widget, context current.
#include "app/qt/canvas_widget.h"

#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QPainter>
#include <QSurfaceFormat>
#include <QWheelEvent>
#include <cstdlib>
#include <string>
#include "app/lab/frame.h"
#include "app/render/renderer.h"
#include "app/render/retained_frame.h"

namespace rl::qt {

CanvasWidget::CanvasWidget(Classroom& c, QWidget* parent) : QWidget(parent), c_(c) {
    setMinimumSize(320, 200);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);  // the image covers the widget: Qt need not clear under it
}

CanvasWidget::~CanvasWidget() {
    if (context_ && surface_ && context_->makeCurrent(surface_.get())) {
        if (kept_) kept_->release();
        if (renderer_) renderer_->shutdown();
        context_->doneCurrent();
    }
}

bool CanvasWidget::ensure_gl() {
    if (gl_tried_) return renderer_ != nullptr;
    gl_tried_ = true;
    QSurfaceFormat fmt = QSurfaceFormat::defaultFormat();  // 3.3 core (main.cpp); samples are the framebuffer's
    fmt.setSamples(0);
    context_ = std::make_unique<QOpenGLContext>();
    context_->setFormat(fmt);
    surface_ = std::make_unique<QOffscreenSurface>();
    surface_->setFormat(fmt);
    surface_->create();
    if (!context_->create() || !surface_->isValid() || !context_->makeCurrent(surface_.get())) {
        error_ = "no OpenGL 3.3 core context for the canvas";
        return false;
    }
    renderer_ = std::make_unique<render::Renderer>();
    kept_ = std::make_unique<render::RetainedFrame>();
    if (!renderer_->init(&error_)) renderer_.reset();
    context_->doneCurrent();
    return renderer_ != nullptr;
}

void CanvasWidget::update_image() {
    const qreal dpr = devicePixelRatioF();
    const int w = std::max(1, int(width() * dpr)), h = std::max(1, int(height() * dpr));
    const render::Scene& scene = lab::frame_scene(c_.lab, float(w), float(h));
    if (!ensure_gl()) return;
    const std::string content = lab::shown_scene_bytes(c_.lab);  // which scene, on which background
    if (!kept_->stale(w, h, content) && image_.size() == QSize(w, h)) return;
    if (!context_->makeCurrent(surface_.get())) return;
    // --msaa where it pays: multisampling changes only edges the shaders do not smooth (render::has_hard_edges).
    const int samples = render::has_hard_edges(scene) ? QSurfaceFormat::defaultFormat().samples() : 0;
    // Where the scene changed (render::scene_damage, as the lab bench finds it): only those rectangles of the kept
    // picture are drawn again, resolved and read back into the image; the rest of it is still this scene's.
    std::vector<render::DrawnInstance> plan = renderer_->plan(scene, 0, 0, h);
    if (image_.size() == QSize(w, h) && !kept_plan_.empty() && kept_->begin_partial(w, h, samples, content)) {
        const std::vector<render::DamageRect> rects =
            render::merge_rects(render::scene_damage(kept_plan_, plan), {0, 0, w, h}, 6);
        for (const render::DamageRect& r : rects) {
            renderer_->begin_frame(w, h, render::palette(c_.lab.dark).background, &r);
            renderer_->draw(scene, 0, 0, w, h, &r);
        }
        kept_->end_redraw(rects);
        for (const render::DamageRect& r : rects) kept_->read_argb32(image_.bits(), size_t(image_.bytesPerLine()), r);
        kept_plan_ = std::move(plan);
        ++partial_redraws_;
        if (const char* e = std::getenv("RLAB_CHECK_PARTIAL"); e && std::string(e) == "1") {
            // The whole picture drawn again over the kept one and read: the image drawn in part must equal it.
            kept_->begin_redraw(w, h, samples, content, &error_);
            renderer_->begin_frame(w, h, render::palette(c_.lab.dark).background);
            renderer_->draw(scene, 0, 0, w, h);
            kept_->end_redraw();
            QImage whole(w, h, QImage::Format_RGB32);
            kept_->read_argb32(whole.bits(), size_t(whole.bytesPerLine()));
            for (int y = 0; y < h; ++y) {
                const auto* a = reinterpret_cast<const uint32_t*>(image_.constScanLine(y));
                const auto* b = reinterpret_cast<const uint32_t*>(whole.constScanLine(y));
                for (int x = 0; x < w; ++x) partial_differing_ += (a[x] & 0xffffffu) != (b[x] & 0xffffffu);
            }
            ++partial_checked_;
        }
    } else if (kept_->begin_redraw(w, h, samples, content, &error_)) {
        renderer_->begin_frame(w, h, render::palette(c_.lab.dark).background);
        renderer_->draw(scene, 0, 0, w, h);
        kept_->end_redraw();
        if (image_.size() != QSize(w, h)) image_ = QImage(w, h, QImage::Format_RGB32);
        kept_->read_argb32(image_.bits(), size_t(image_.bytesPerLine()));  // no conversion: the image's own layout
        image_.setDevicePixelRatio(dpr);
        kept_plan_ = std::move(plan);
    } else {
        kept_plan_.clear();
    }
    context_->doneCurrent();
}

void CanvasWidget::paintEvent(QPaintEvent*) {
    update_image();
    QPainter p(this);
    if (image_.isNull()) {  // no GL: say so where the canvas would be
        p.fillRect(rect(), Qt::black);
        p.setPen(Qt::white);
        p.drawText(rect(), Qt::AlignCenter, QString::fromStdString(error_.empty() ? "no canvas" : error_));
        return;
    }
    p.drawImage(QPointF(0, 0), image_);
}

QImage CanvasWidget::image() {
    update_image();
    return image_;
}

uint64_t CanvasWidget::redraws() const { return kept_ ? kept_->redraws() : 0; }

void CanvasWidget::finish_gl() {
    if (!renderer_ || !context_->makeCurrent(surface_.get())) return;
    renderer_->finish();
    context_->doneCurrent();
}

void CanvasWidget::resizeEvent(QResizeEvent* e) {
    c_.lab.view_fitted = false;
    QWidget::resizeEvent(e);
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
