// The zero-copy display path of a feed (UI thread). Where the display link
// opened the device for it (cl_khr_gl_sharing), the pipeline keeps each
// filtered frame on the device and reads nothing back; this copies the newest
// one into the display's GL pixel buffer, device to device, between the
// target's acquire and release, and hands the pipeline that copy's event as the
// buffer's last use. Without a target the frames come back through the
// pipeline's pinned staging and this holds only the path's description.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "feed/display_link.hpp"
#include "liveconv/pipeline.hpp"

namespace liveconv::ui {

class DisplayCopy {
 public:
  // The target the display link opened on `device` (null: readback) and the overlay's line for the path.
  void open(const DeviceContext& device, std::unique_ptr<DisplayTarget> target, std::string path);
  bool zeroCopy() const { return target_ != nullptr; }
  const std::string& path() const { return path_; }
  // Copies `frame` into the display's buffer; "" or why it could not (the picture then stays as it was).
  std::string show(std::shared_ptr<DeviceFrame> frame);
  // The GL pixel buffer holding the newest frame shown (0: none).
  std::uint32_t pixelBuffer() const { return pixelBuffer_; }
  // The copy's device time, smoothed (the display stage of the zero-copy path).
  double copyMs() const { return copyMs_; }
  // Waits for the last copy, then lets go of the GL buffer (before its context goes).
  void drop();

 private:
  std::unique_ptr<DisplayTarget> target_;
  cl::CommandQueue queue_;
  std::uint32_t pixelBuffer_ = 0;
  cl::Event lastCopy_;  // a copy whose device time is still to be read
  double copyMs_ = 0;
  std::string path_;
};

}  // namespace liveconv::ui
