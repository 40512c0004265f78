// The seam between a frame feed and the display that shows its frames, in
// OpenCL terms only (no GL header): the display layer (ui/gl's interop glue)
// implements it, the feeds use it, and no shell or panel sees a CL object.
//
// Opening a device through a DisplayLink decides the display path for it:
// zero-copy, where the CL context shares the window's GL context and the
// filtered frame is written by the kernel straight into a GL pixel buffer
// (cl_khr_gl_sharing), or readback, where the feed maps the filtered frame
// into host memory and the renderer uploads it through its own pixel buffer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "liveconv/convolver.hpp"
#include "liveconv/device.hpp"

namespace liveconv::ui {

// Display memory the kernel writes into. Used on the display thread only
// (the thread whose GL context is current), around one kernel:
//   acquire() -> enqueue the kernel into the image it returns -> release().
class DisplayTarget {
 public:
  virtual ~DisplayTarget() = default;
  // A device image aliasing the display's buffer for a frame of this shape,
  // acquired for OpenCL on `queue`; appends to *waitFor what the kernel must
  // wait for (GL's last use of that buffer). Throws liveconv::Error.
  virtual DeviceImage acquire(cl::CommandQueue& queue, int width, int height, PixelFormat format,
                              std::vector<cl::Event>* waitFor) = 0;
  // Hands the buffer back to GL once `kernelDone` has completed; returns the
  // GL pixel buffer name that now holds the frame (FeedFrame::glPixelBuffer).
  virtual std::uint32_t release(cl::CommandQueue& queue, const cl::Event& kernelDone) = 0;
};

struct OpenedDevice {
  std::shared_ptr<DeviceContext> device;
  std::unique_ptr<DisplayTarget> target;  // null: the readback path
  std::string displayPath;                // the overlay's line, e.g. "interop: zero-copy (cl_khr_gl_sharing)"
};

class DisplayLink {
 public:
  virtual ~DisplayLink() = default;
  // Selects the device (`selector` as in selectDevice(); "" prefers the device
  // that drives the display's GL context) and makes its context, sharing with
  // GL where the display path for it is zero-copy. Safe to call from any
  // thread; GL objects are made later, by the target, on the display thread.
  // Throws NoDeviceError and cl::Error like DeviceContext::create.
  virtual OpenedDevice open(const std::string& selector) const = 0;
  // Copies the frame a kernel wrote into the GL pixel buffer `buffer`
  // (FeedFrame::glPixelBuffer) into `dst`, which has its shape; on the display
  // thread. False where the link has no such buffers.
  virtual bool readPixelBuffer(std::uint32_t buffer, const ImageView& dst) const {
    (void)buffer;
    (void)dst;
    return false;
  }
  // A filtered frame waits for the display: called on the feed's thread each
  // time one is ready, so a display that sleeps between its passes can wake
  // and draw it at once (the viewer). Nothing by default.
  virtual void frameReady() const {}
};

// Without a display link: selectDevice() + a plain context, readback path.
OpenedDevice openWithoutDisplay(const std::string& selector);
// link ? link->open(selector) : openWithoutDisplay(selector).
OpenedDevice openDevice(const DisplayLink* link, const std::string& selector);

}  // namespace liveconv::ui
