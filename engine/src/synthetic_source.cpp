#include <cstring>

#include "liveconv/errors.hpp"
#include "liveconv/frame.hpp"

namespace liveconv {

// One generated frame; in pinned host memory when a device was given.
struct SyntheticSource::Buffers {
  Image owned;
  std::shared_ptr<DeviceContext> device;
  cl::CommandQueue queue;
  cl::Buffer pinned;
  ImageView view;

  ~Buffers() {
    if (!pinned()) return;
    try {
      queue.enqueueUnmapMemObject(pinned, view.data);
      queue.finish();
    } catch (...) {
    }
  }
};

SyntheticSource::SyntheticSource(int width, int height, PixelFormat format, long long frameCount,
                                 std::shared_ptr<DeviceContext> pinnedOn)
    : width_(width), height_(height), format_(format), frameCount_(frameCount) {
  if (width <= 0 || height <= 0 || bytesPerPixel(format) == 0)
    throw InvalidArgument("A synthetic source needs a size such as 3840x2160 and a pixel format.");
  const int bpp = bytesPerPixel(format);
  const std::size_t rowBytes = static_cast<std::size_t>(width) * bpp;
  for (int k = 0; k < 3; ++k) {
    auto b = std::make_shared<Buffers>();
    if (pinnedOn) {
      b->device = pinnedOn;
      b->queue = cl::CommandQueue(pinnedOn->context, pinnedOn->info.device);
      b->pinned = cl::Buffer(pinnedOn->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, rowBytes * height);
      auto* p =
          static_cast<std::uint8_t*>(b->queue.enqueueMapBuffer(b->pinned, CL_TRUE, CL_MAP_WRITE, 0, rowBytes * height));
      b->view = ImageView{p, width, height, rowBytes, format};
    } else {
      b->owned = Image(width, height, format);
      b->view = b->owned.view();
    }
    // Diagonal bands moving with k, plus a fine checker so the filter has edges to work on.
    // At 16 bits, the same picture with each level times 257 (255 -> 65535).
    const int channels = channelCount(format);
    const bool wide = bytesPerSample(format) == 2;
    for (int y = 0; y < height; ++y) {
      std::uint8_t* row = b->view.row(y);
      for (int x = 0; x < width; ++x)
        for (int c = 0; c < channels; ++c) {
          const std::uint8_t level =
              c == 3 ? 255 : static_cast<std::uint8_t>((x + y + 40 * k + 60 * c) * 2 + (((x ^ y) & 4) ? 64 : 0));
          const std::size_t at = static_cast<std::size_t>(x) * channels + c;
          if (wide) {
            const std::uint16_t v = static_cast<std::uint16_t>(level * 257);
            std::memcpy(row + 2 * at, &v, 2);
          } else {
            row[at] = level;
          }
        }
    }
    frames_.push_back(std::move(b));
  }
}

bool SyntheticSource::next(Frame& frame) {
  if (frameCount_ >= 0 && produced_ >= frameCount_) return false;
  const auto& b = frames_[static_cast<std::size_t>(produced_ % frames_.size())];
  frame = Frame();
  frame.external = b->view;
  frame.externalOwner = b;
  frame.index = produced_;
  frame.ptsSeconds = produced_ / 60.0;
  ++produced_;
  return true;
}

std::string SyntheticSource::describe() const {
  return "synthetic " + std::to_string(width_) + "x" + std::to_string(height_) + " " + toString(format_) +
         " frames in memory" + (frames_.front()->pinned() ? " (pinned)" : "");
}

}  // namespace liveconv
