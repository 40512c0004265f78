// The CL/GL interop glue between the engine and the shells: the one place
// where a GL object and a CL object meet. A shell names its GL context
// (GlContextHandles) and hands a GlInteropLink to the frame feed; panels and
// shells never see the CL side.
//
//   zero-copy:  GL pixel buffer --clCreateFromGLBuffer--> cl_mem
//               [GL fence -> clCreateEventFromGLsyncKHR | glFinish] -> acquire -> kernel -> release
//               [flush (cl_khr_gl_event orders later GL work) | clFinish] -> PBO -> texture (on the GPU)
//   readback:   the feed maps its pinned result; PictureRenderer uploads it through its own PBO.
#pragma once

#include <functional>
#include <string>

#include "feed/display_link.hpp"
#include "gl/interop_policy.hpp"

namespace liveconv::ui {

class GlInteropLink final : public DisplayLink {
 public:
  using NoticeFn = std::function<void(const std::string& sentence)>;
  // `gl` names the window's GL context; `onNotice` hears the one sentence said
  // when `interop` was asked for and cannot run (called from the opening thread);
  // `onFrame` is frameReady() (called from the feed's thread).
  GlInteropLink(GlContextHandles gl, DisplayPathRequest request, NoticeFn onNotice = {},
                std::function<void()> onFrame = {});

  OpenedDevice open(const std::string& selector) const override;
  bool readPixelBuffer(std::uint32_t buffer, const ImageView& dst) const override;
  void frameReady() const override {
    if (onFrame_) onFrame_();
  }

 private:
  GlContextHandles gl_;
  DisplayPathRequest request_;
  NoticeFn onNotice_;
  std::function<void()> onFrame_;
};

// The GL context current on the calling thread, through glXGetCurrentContext
// or eglGetCurrentContext: for a shell that cannot name it (Qt's widgets).
GlContextHandles currentGlContextHandles();

}  // namespace liveconv::ui
