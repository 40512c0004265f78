// The picture area: a QOpenGLWindow, set in the main window through a window
// container, whose paintGL() hands over to GlView (the shared PictureRenderer
// and ImGui overlay). Frames are uploaded as soon as they arrive, because a
// FeedFrame's pixels are only valid until the feed's next advance(), and Qt
// may paint later than that.
//
// A window of its own, not a QOpenGLWidget: Qt draws a QOpenGLWidget into a
// framebuffer object and then composes it with the rest of the window on
// every paint, which on a software GL (Mesa llvmpipe) cost more than the
// decoding and the filter together (a 640x360 stream at 30 fps, 600 frames
// from a cold start: 1.6 of two cores for the window against 0.7 with a
// window of its own; docs/benchmarks.md, "Why the Qt shell's picture is a
// window of its own"). It has the
// keyboard when the main window opens and when it is clicked, and the main
// window's shortcuts (Space, V, H, ...) reach it there, as in a video player.
#pragma once

#include <QElapsedTimer>
#include <QOpenGLWindow>
#include <memory>

#include "feed/frame_feed.hpp"
#include "feed/frame_loop.hpp"
#include "model/frame_stats.hpp"
#include "model/view_state.hpp"
#include "qt/gl_view.hpp"

namespace liveconv::ui {

class Viewport : public QOpenGLWindow {
  Q_OBJECT
 public:
  // The overlay's rates and frame times come from `loop` (the loop's, as in the viewer).
  Viewport(const FrameLoop& loop, ViewState& view);
  ~Viewport() override;

  // Uploads the frame (when fresh or when the compare view needs the source)
  // and, where the loop found something it shows changed (FrameLoop::redrawDue), schedules a paint.
  void present(const FeedFrame& frame, const FrameStats& stats);
  void setNativeZoom(bool native) { nativeZoom_ = native; }
  const GlPainted& lastPainted() const { return painted_; }
  // Paints now and reads the picture back (what a screenshot saves; null before GL).
  QImage grabPicture();
  // The stats the overlay was last drawn with (its display path line among them).
  const FrameStats& paintedStats() const { return stats_; }
  // Host frames uploaded through the renderer's pixel buffers (the readback path); 0 before GL.
  std::uint64_t pixelBufferUploads() const { return gl_ ? gl_->pixelBufferUploads() : 0; }
  // Upload to swap (a software GL rasterises in the swap), the median of the
  // last paints, host clock: the overlay's display stage and the latency's last part.
  double displayMs() const { return display_.ms(); }
  // Empty while the GL side works; else why it could not start (shown in the status bar).
  const QString& glError() const { return glError_; }
  // True once Qt has made the widget's GL context (the window was shown):
  // from then on makeCurrent() makes it current and a display link can name it.
  bool glContextReady() const { return contextReady_; }
  // The banner at the top left of the picture ("opening ..."); "" hides it.
  void setPending(const std::string& text);
  // Why nothing plays, on the picture (as the viewer shows it), and what to do about it.
  void setMessage(const std::string& text, const std::string& hint);
  const std::string& message() const { return message_; }
  const std::string& messageHint() const { return messageHint_; }

 signals:
  void glFailed(const QString& message);

 protected:
  void initializeGL() override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  void dragDivider(const QPointF& at);

  const FrameLoop& loop_;
  ViewState& view_;
  std::unique_ptr<GlView> gl_;
  FrameStats stats_;
  GlPainted painted_;
  QString glError_;
  QElapsedTimer clock_;
  DisplayTime display_;
  double uploadMs_ = 0;
  qint64 lastPaintNs_ = 0;
  qint64 paintStartNs_ = -1;  // the paint whose swap has not come yet
  std::string pending_;
  std::string message_, messageHint_;
  bool nativeZoom_ = false, sourceShown_ = false, dragging_ = false, contextReady_ = false;
};

}  // namespace liveconv::ui
