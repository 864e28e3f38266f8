// app/qt/canvas_widget.h — the shared canvas: app/render's GL renderer draws the scene offscreen, only when it
// changed, and the widget paints the kept image (app/render's public headers only; no GL in the window).
#pragma once
#include <QImage>
#include <QWidget>
#include <memory>
#include "app/qt/classroom.h"
#include "app/render/damage.h"

class QOpenGLContext;
class QOffscreenSurface;

namespace rl::render {
class Renderer;
class RetainedFrame;
}

namespace rl::qt {

// Why not a QOpenGLWidget: one GL widget makes Qt compose the whole window through GL on every repaint, which on a
// software renderer costs ~20 ms at 1600x900 whatever the canvas shows (docs/renderer.md). Here the scene is drawn
// into an offscreen framebuffer (multisampled as --msaa asks) when its build, size or theme changed, read back once,
// and every paint draws that image: a frame costs a copy of the canvas's pixels.
class CanvasWidget : public QWidget {
    Q_OBJECT
public:
    explicit CanvasWidget(Classroom& c, QWidget* parent = nullptr);
    ~CanvasWidget() override;
    void refit() { c_.lab.view_fitted = false; update(); }
    const render::Scene& last_scene() const { return c_.lab.last_scene; }
    std::string gl_error() const { return error_; }
    void finish_gl();      // waits for the GL work of the last frame (honest --bench-frames timings)
    QImage image();        // the canvas as drawn now, at device pixels (the PNG export)
    uint64_t redraws() const;  // how many times the scene was drawn (the other paints showed the kept image)
    // Canvas pictures drawn in part, and (RLAB_CHECK_PARTIAL=1: each also drawn whole and compared) how many were
    // checked and how many of their pixels differed.
    uint64_t partial_redraws() const { return partial_redraws_; }
    uint64_t partial_checked() const { return partial_checked_; }
    uint64_t partial_differing() const { return partial_differing_; }

signals:
    void selectionChanged();

protected:
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;

private:
    bool ensure_gl();      // the offscreen context and renderer, made at the first paint
    void update_image();   // draws the scene again when what it shows changed
    Classroom& c_;
    std::unique_ptr<QOpenGLContext> context_;
    std::unique_ptr<QOffscreenSurface> surface_;
    std::unique_ptr<render::Renderer> renderer_;
    std::unique_ptr<render::RetainedFrame> kept_;
    std::vector<render::DrawnInstance> kept_plan_;
    uint64_t partial_redraws_ = 0, partial_checked_ = 0, partial_differing_ = 0;  // the kept picture's scene as drawn (Renderer::plan)
    QImage image_;
    std::string error_;
    bool gl_tried_ = false;
    QPointF press_, last_;
    bool dragged_ = false;
};

}  // namespace rl::qt
