// Colour conversion of decoded 4:2:0 frames on the device: the planes go up
// as the decoder left them (1.5 bytes a pixel instead of 4 for RGBA) and
// kernels/convert.cl turns them into the engine's RGBA8 or GRAY8 before the
// convolution runs.
//
// The formula is integer fixed point (16 fractional bits), so the device and
// the CPU reference below agree exactly:
//   y' = (Y - yOffset) * yScale,  u = U - 128,  v = V - 128
//   R = y' + rv*v,  G = y' - gu*u - gv*v,  B = y' + bu*u,  A = 255
//   out = min(max(acc + 2^15, 0) >> 16, 255);  GRAY = (y' + 2^15) >> 16 clamped
// Chroma is taken from the 2x2 block the pixel lies in (no interpolation).
// swscale (the CPU path) interpolates chroma, so the two paths differ at
// colour edges; each is tested against its own reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "liveconv/cl.hpp"
#include "liveconv/convolver.hpp"
#include "liveconv/device.hpp"
#include "liveconv/image.hpp"
#include "liveconv/program_cache.hpp"

namespace liveconv {

enum class YuvLayout {
  Invalid = 0,
  I420,  // yuv420p: Y plane, then U plane, then V plane (chroma ceil(w/2) x ceil(h/2))
  Nv12,  // Y plane, then one plane of interleaved U, V pairs
};

enum class YuvMatrix {
  Invalid = 0,
  Bt601,  // Kr 0.299, Kb 0.114 (SD video, JPEG)
  Bt709,  // Kr 0.2126, Kb 0.0722 (HD video)
};

enum class YuvRange {
  Invalid = 0,
  Limited,  // Y 16..235, chroma 16..240 ("tv", MPEG)
  Full,     // 0..255 ("pc", JPEG)
};

const char* toString(YuvLayout layout);
const char* toString(YuvMatrix matrix);
const char* toString(YuvRange range);

// A decoded 4:2:0 frame, planes packed back to back without row padding.
struct YuvImage {
  YuvLayout layout = YuvLayout::Invalid;
  YuvMatrix matrix = YuvMatrix::Invalid;
  YuvRange range = YuvRange::Invalid;
  PixelFormat convertTo = PixelFormat::Invalid;  // the engine format the device turns it into
  int width = 0, height = 0;
  std::vector<std::uint8_t> bytes;  // payloadBytes(): the planes the conversion reads

  // GRAY8 reads the Y plane alone, so only that much is handed on and uploaded.
  std::size_t payloadBytes() const {
    return convertTo == PixelFormat::GRAY8 ? std::size_t(width) * height : sizeBytes(width, height);
  }

  bool empty() const { return width <= 0 || height <= 0; }
  int chromaWidth() const { return (width + 1) / 2; }
  int chromaHeight() const { return (height + 1) / 2; }
  static std::size_t sizeBytes(int width, int height) {
    return std::size_t(width) * height + 2 * std::size_t((width + 1) / 2) * ((height + 1) / 2);
  }
  // Sets the size and allocates payloadBytes() (set convertTo first).
  void allocate(int w, int h);
};

// The fixed-point numbers of the formula above; the kernel gets the same ones.
struct YuvCoefficients {
  int yOffset = 0;
  int yScale = 0;  // 16.16
  int rv = 0, gu = 0, gv = 0, bu = 0;
};
YuvCoefficients yuvCoefficients(YuvMatrix matrix, YuvRange range);

// The definition of the device conversion, in plain C++. `out` must have the
// frame's size and be RGBA8 or GRAY8.
void convertYuvReference(const YuvImage& in, const ImageView& out);

// Runs kernels/convert.cl. The program is built on construction (throws
// BuildError), so the first frame does not wait for a compile.
class YuvConverter {
 public:
  YuvConverter(std::shared_ptr<DeviceContext> device, std::shared_ptr<ProgramCache> cache);
  // Converts packed planes in `src` (geometry and colour description from
  // `desc`; its bytes are not read) into `dst`, on `queue`.
  void enqueue(const cl::CommandQueue& queue, const cl::Buffer& src, const YuvImage& desc, const DeviceImage& dst,
               const std::vector<cl::Event>* waitFor, cl::Event* done);

 private:
  std::shared_ptr<DeviceContext> device_;
  cl::Kernel toRgba_, toGray_;
};

// Converts on the device once, blocking: for tests and one-off use. Pass a
// cache to build the program once for many calls.
Image convertYuvOnDevice(const std::shared_ptr<DeviceContext>& device, const YuvImage& in,
                         std::shared_ptr<ProgramCache> cache = nullptr);

}  // namespace liveconv
