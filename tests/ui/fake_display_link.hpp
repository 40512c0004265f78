// A display link whose "GL pixel buffer" is a plain OpenCL buffer, so the
// feeds' zero-copy path (acquire, write or copy into the display's buffer,
// release, hand back the buffer name) runs where no driver shares with GL
// (PoCL, Mesa). The test reads what the display would have shown from the
// shared state. It checks the protocol as it goes: no acquire while one is
// held, no release without an acquire, a shape that matches the frame.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "feed/display_link.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/image.hpp"

namespace liveconv::ui::test {

constexpr std::uint32_t kFakePixelBuffer = 7;  // the "GL name" release() returns

struct FakeDisplay {
  std::shared_ptr<DeviceContext> device;
  DeviceImage buffer;      // what the display shows
  cl::Event lastWrite;     // the event release() was given
  int acquires = 0, releases = 0;
  bool held = false;
  std::string protocolError;  // the first misuse, if any

  // The picture the display holds now, once its last write has landed.
  Image read() const {
    Image out(buffer.width, buffer.height, buffer.format);
    cl::CommandQueue queue(device->context, device->info.device);
    std::vector<cl::Event> after;
    if (lastWrite()) after.push_back(lastWrite);
    queue.enqueueReadBuffer(buffer.buffer, CL_TRUE, 0, out.sizeBytes(), out.data(), &after);
    return out;
  }
};

class FakeDisplayTarget final : public DisplayTarget {
 public:
  explicit FakeDisplayTarget(std::shared_ptr<FakeDisplay> display) : display_(std::move(display)) {}
  DeviceImage acquire(cl::CommandQueue&, int width, int height, PixelFormat format,
                      std::vector<cl::Event>*) override {
    FakeDisplay& d = *display_;
    if (d.held && d.protocolError.empty()) d.protocolError = "acquire() while the buffer was already acquired";
    if (d.buffer.width != width || d.buffer.height != height || d.buffer.format != format)
      d.buffer = allocateDeviceImage(d.device->context, width, height, format, CL_MEM_READ_WRITE);
    d.held = true;
    ++d.acquires;
    return d.buffer;
  }
  std::uint32_t release(cl::CommandQueue& queue, const cl::Event& done) override {
    FakeDisplay& d = *display_;
    if (!d.held && d.protocolError.empty()) d.protocolError = "release() without acquire()";
    d.held = false;
    ++d.releases;
    d.lastWrite = done;
    queue.flush();  // as the cl_khr_gl_event path does: no wait
    return kFakePixelBuffer;
  }

 private:
  std::shared_ptr<FakeDisplay> display_;
};

class FakeDisplayLink final : public DisplayLink {
 public:
  FakeDisplayLink() : display_(std::make_shared<FakeDisplay>()) {}
  OpenedDevice open(const std::string& selector) const override {
    OpenedDevice opened;
    opened.device = DeviceContext::create(selectDevice(selector));
    display_->device = opened.device;
    opened.target = std::make_unique<FakeDisplayTarget>(display_);
    opened.displayPath = "interop: zero-copy (test display)";
    return opened;
  }
  FakeDisplay& display() const { return *display_; }

 private:
  std::shared_ptr<FakeDisplay> display_;
};

}  // namespace liveconv::ui::test
