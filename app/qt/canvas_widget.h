// app/qt/canvas_widget.h — the shared OpenGL canvas in a QOpenGLWidget; draws through app/render's public headers only.
#pragma once
#include <QOpenGLWidget>
#include <memory>
#include "app/qt/classroom.h"

namespace rl::render {
class Renderer;
}

namespace rl::qt {

class CanvasWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit CanvasWidget(Classroom& c, QWidget* parent = nullptr);
    ~CanvasWidget() override;
    void refit() { c_.lab.view_fitted = false; update(); }
    const render::Scene& last_scene() const { return c_.lab.last_scene; }
    std::string gl_error() const { return error_; }
    void finish_gl();  // waits for the GPU to finish the last frame (honest --bench-frames timings)

signals:
    void selectionChanged();

protected:
    void initializeGL() override;
    void paintGL() override;
    void resizeGL(int w, int h) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;

private:
    void cleanup();
    Classroom& c_;
    std::unique_ptr<render::Renderer> renderer_;
    std::string error_;
    QPointF press_, last_;
    bool dragged_ = false;
};

}  // namespace rl::qt
