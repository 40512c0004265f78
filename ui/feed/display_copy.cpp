#include "feed/display_copy.hpp"

#include <vector>

#include "liveconv/device.hpp"

namespace liveconv::ui {
namespace {
// Copies a frame the pipeline kept on the device into the display's buffer.
cl::Event copyToDisplay(cl::CommandQueue& queue, const DeviceImage& from, const DeviceImage& to,
                        const std::vector<cl::Event>& waitFor) {
  cl::Event copied;
  const std::size_t rowBytes = static_cast<std::size_t>(from.width) * bytesPerPixel(from.format);
  if (from.pitchBytes == to.pitchBytes) {
    queue.enqueueCopyBuffer(from.buffer, to.buffer, 0, 0, from.pitchBytes * from.height, &waitFor, &copied);
  } else {
    const cl::array<cl::size_type, 3> origin{0, 0, 0};
    const cl::array<cl::size_type, 3> region{rowBytes, static_cast<cl::size_type>(from.height), 1};
    queue.enqueueCopyBufferRect(from.buffer, to.buffer, origin, origin, region, from.pitchBytes, 0, to.pitchBytes, 0,
                                &waitFor, &copied);
  }
  return copied;
}
}  // namespace

void DisplayCopy::open(const DeviceContext& device, std::unique_ptr<DisplayTarget> target, std::string path) {
  drop();
  if (target) queue_ = cl::CommandQueue(device.context, device.info.device, CL_QUEUE_PROFILING_ENABLE);
  target_ = std::move(target);
  path_ = std::move(path);
}

std::string DisplayCopy::show(std::shared_ptr<DeviceFrame> frame) {
  if (!target_ || !frame) return {};
  if (lastCopy_() && lastCopy_.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE) {
    copyMs_ = copyMs_ == 0 ? eventMs(lastCopy_) : copyMs_ + (eventMs(lastCopy_) - copyMs_) / 30;
    lastCopy_ = cl::Event();
  }
  try {
    const DeviceImage& from = frame->image();
    std::vector<cl::Event> waitFor{frame->ready()};
    const DeviceImage to = target_->acquire(queue_, from.width, from.height, from.format, &waitFor);
    const cl::Event copied = copyToDisplay(queue_, from, to, waitFor);
    pixelBuffer_ = target_->release(queue_, copied);
    frame->doneWith(copied);
    if (!lastCopy_()) lastCopy_ = copied;
    return {};
  } catch (const std::exception& e) {
    pixelBuffer_ = 0;
    return std::string("The frame could not be handed to the display: ") + e.what();
  }
}

void DisplayCopy::drop() {
  if (queue_()) queue_.finish();  // the last copy into the display's buffer has landed
  lastCopy_ = cl::Event();
  target_.reset();
  pixelBuffer_ = 0;
}

}  // namespace liveconv::ui
