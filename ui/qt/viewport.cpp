#include "qt/viewport.hpp"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QSurfaceFormat>
#include <algorithm>

namespace liveconv::ui {

Viewport::Viewport(const FrameLoop& loop, ViewState& view)
    : QOpenGLWindow(QOpenGLWindow::NoPartialUpdate), loop_(loop), view_(view) {
  QSurfaceFormat format;
  format.setVersion(3, 3);  // the shared shaders are GLSL 330 core
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setSwapInterval(view.vsync ? 1 : 0);
  setFormat(format);
  setMinimumSize(QSize(320, 200));
  clock_.start();
  connect(this, &QOpenGLWindow::frameSwapped, this, [this] {
    if (paintStartNs_ < 0) return;
    display_.push(uploadMs_ + (clock_.nsecsElapsed() - paintStartNs_) / 1e6);
    paintStartNs_ = -1;
    uploadMs_ = 0;  // a paint without a new frame uploads nothing
  });
}

Viewport::~Viewport() {
  // GL objects die with the context that made them.
  makeCurrent();
  gl_.reset();
  doneCurrent();
}

void Viewport::initializeGL() {
  const auto* ctx = context();
  contextReady_ = ctx != nullptr;
  const QSurfaceFormat f = ctx ? ctx->format() : QSurfaceFormat();
  if (f.majorVersion() * 10 + f.minorVersion() < 33) {
    glError_ = QString("The viewport needs OpenGL 3.3 core; this driver offers %1.%2.")
                   .arg(f.majorVersion())
                   .arg(f.minorVersion());
    emit glFailed(glError_);
    return;
  }
  try {
    gl_ = std::make_unique<GlView>();
  } catch (const std::exception& e) {
    glError_ = QString::fromStdString(e.what());
    emit glFailed(glError_);
  }
}

void Viewport::present(const FeedFrame& frame, const FrameStats& stats) {
  stats_ = stats;
  const bool comparing = view_.compare == CompareMode::Split;
  if (frame.hasPicture() && (frame.fresh || (comparing && !sourceShown_) || !gl_)) {
    makeCurrent();  // also runs initializeGL() the first time
    if (gl_) {
      const qint64 start = clock_.nsecsElapsed();
      gl_->upload(frame, comparing);
      uploadMs_ = (clock_.nsecsElapsed() - start) / 1e6;
      sourceShown_ = comparing;
    }
    doneCurrent();
  }
  if (loop_.redraw().due()) update();
}

void Viewport::paintGL() {
  if (!gl_) return;
  const qint64 start = clock_.nsecsElapsed();
  const double dt = lastPaintNs_ ? (start - lastPaintNs_) / 1e9 : 1.0 / 60;
  lastPaintNs_ = start;
  paintStartNs_ = start;
  stats_.stages.displayMs = display_.ms();
  GlPaint p;
  const qreal dpr = devicePixelRatio();
  p.framebufferWidth = static_cast<int>(width() * dpr + 0.5);
  p.framebufferHeight = static_cast<int>(height() * dpr + 0.5);
  p.devicePixelRatio = static_cast<float>(dpr);
  p.nativeZoom = nativeZoom_;
  p.fps = loop_.redraw().uiFps();
  p.deltaSeconds = dt;
  p.videoFps = loop_.videoFps();
  p.paused = view_.paused;
  p.pending = pending_;
  p.message = message_;
  p.messageHint = messageHint_;
  painted_ = gl_->paint(p, view_, stats_, loop_.redraw().uiFrameTimes());
}

QImage Viewport::grabPicture() {
  if (!gl_ || !isExposed()) return {};
  makeCurrent();
  paintGL();  // into the back buffer, which is not swapped: the next paint draws over it
  QImage image = grabFramebuffer();
  doneCurrent();
  return image;
}

void Viewport::setMessage(const std::string& text, const std::string& hint) {
  if (text == message_ && hint == messageHint_) return;
  message_ = text;
  messageHint_ = hint;
  update();
}

void Viewport::setPending(const std::string& text) {
  if (text == pending_) return;
  pending_ = text;
  update();
}

// The compare divider follows the mouse while the left button is down on the picture.
void Viewport::dragDivider(const QPointF& at) {
  const FbRect& pic = painted_.picture;
  const qreal dpr = devicePixelRatio();
  if (pic.width <= 0 || pic.height <= 0) return;
  const double x = at.x() * dpr, y = at.y() * dpr;
  const double t =
      view_.orientation == SplitOrientation::Horizontal ? (y - pic.y) / pic.height : (x - pic.x) / pic.width;
  view_.splitPosition = static_cast<float>(std::clamp(t, 0.0, 1.0));
  update();
}

void Viewport::mousePressEvent(QMouseEvent* event) {
  dragging_ = event->button() == Qt::LeftButton && view_.compare == CompareMode::Split;
  if (dragging_) dragDivider(event->position());
}

void Viewport::mouseMoveEvent(QMouseEvent* event) {
  if (dragging_) dragDivider(event->position());
}

void Viewport::mouseReleaseEvent(QMouseEvent*) {
  dragging_ = false;
}

}  // namespace liveconv::ui
