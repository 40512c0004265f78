// The GL half of the Qt viewport, kept free of Qt headers (and Qt free of
// glcorearb.h): the shared PictureRenderer draws the frame and the shared ImGui
// overlay is drawn on top, with ImGui fed its size and time by the caller
// because Qt, not an ImGui platform backend, owns the window.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "feed/frame_feed.hpp"
#include "gl/interop_policy.hpp"
#include "model/frame_stats.hpp"
#include "model/view_state.hpp"

namespace liveconv::ui {

class DisplayLink;

// The display link for the GL context current on the calling thread (the
// viewport's): the feeds open their device through it, so the display path
// (zero-copy or readback + PBO) is chosen for that context and the overlay
// names it, as in the GLFW viewer. `request` is --display-path's; `onNotice`
// hears the sentence said when zero-copy was asked for and cannot run (on the
// thread that opens the device).
std::unique_ptr<DisplayLink> makeCurrentContextLink(DisplayPathRequest request,
                                                    std::function<void(const std::string&)> onNotice = {});

struct FbRect {
  int x = 0, y = 0, width = 0, height = 0;  // framebuffer pixels, top-left origin
};

struct GlPaint {
  int framebufferWidth = 0, framebufferHeight = 0;
  float devicePixelRatio = 1;  // framebuffer pixels per logical pixel
  bool nativeZoom = false;     // one frame pixel per framebuffer pixel (tests)
  double fps = 0;              // the UI loop's rate (FrameLoop::uiFps)
  double videoFps = 0;   // new source frames shown per second
  bool paused = false;
  double deltaSeconds = 1.0 / 60;
  std::string pending;  // "opening ..." while a source or device opens in the background; "" otherwise
  std::string message;  // why nothing plays (the source failed or ended), centred on the picture; "" otherwise
  std::string messageHint;  // under it: what to do about it
};

struct GlPainted {
  FbRect picture;  // where the frame landed
  FbRect overlay;  // where the overlay landed; empty when hidden
};

class GlView {
 public:
  // Needs the widget's GL 3.3 core context current; throws std::runtime_error with the shader log.
  GlView();
  ~GlView();
  GlView(const GlView&) = delete;
  GlView& operator=(const GlView&) = delete;

  void upload(const FeedFrame& frame, bool withSource);
  // Clears, draws the picture, (when view.overlayVisible) the overlay and
  // (while paint.pending names one) the opening banner into the framebuffer
  // that is bound now.
  GlPainted paint(const GlPaint& paint, const ViewState& view, const FrameStats& stats,
                  const FrameTimeHistory& history);
  bool hasFrame() const;
  // Host frames that went through the renderer's pixel buffers (the readback path).
  std::uint64_t pixelBufferUploads() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace liveconv::ui
