// Colour conversion of decoded frames on the device: the planes go up as the
// decoder left them (1.5 bytes a pixel for 4:2:0 instead of 4 for RGBA) and
// kernels/convert.cl turns them into the engine's format (RGBA8, GRAY8, or at
// 16 bits RGBA16, GRAY16) before the convolution runs. The layouts are those
// files and cameras send: 4:2:0 (yuv420p, nv12, and deeper yuv420p10le,
// p010le, yuv420p9le..yuv420p16le, p016le), 4:2:2 planar and packed (yuv422p,
// yuyv422, uyvy422, yuv422p10le, yuv422p9le..16le), 4:4:4 (yuv444p,
// yuv444p10le, yuv444p9le..16le), packed RGB (rgb24, bgr24, rgb48le,
// rgb48be) and 16-bit gray (gray16le, gray16be).
//
// The formula is integer fixed point (16 fractional bits), so the device and
// the CPU reference below agree exactly:
//   y' = (Y - yOffset) * yScale,  u = U - 128,  v = V - 128
//   R = y' + rv*v,  G = y' - gu*u - gv*v,  B = y' + bu*u,  A = 255
//   out = min(max(acc + 2^15, 0) >> 16, 255);  GRAY = (y' + 2^15) >> 16 clamped
// Chroma is taken from the block the pixel lies in (2x2 for 4:2:0, 2x1 for
// 4:2:2; no interpolation). Into 8-bit formats a sample of depth d > 8 is
// first rounded to 8 bits ((v + 2^(d - 9)) >> (d - 8), at most 255). Packed
// RGB is copied (A = 255); its GRAY is the BT.601 luma, (19595 R + 38470 G +
// 7471 B + 2^15) >> 16. Gray is RGB with R = G = B (its GRAY is itself).
//
// Into 16-bit formats the samples keep their depth d (8 to 16): the same
// coefficients on Y, U, V with the offsets at that depth (16 << (d - 8),
// 128 << (d - 8)), and the sum acc (16 fractional bits, at depth d) becomes
//   out16 = min(max((acc * 257 + 2^(d + 7)) >> (d + 8), 0), 65535)
// (64-bit arithmetic): the 8-bit result's scale (x257) with every bit of
// the source. A sample v << k at depth d + k gives exactly what v gives at
// depth d, so no depth is favoured (p010le is read as p016le: its low bits
// are zero). Packed RGB and gray at 8 bits: v * 257, A = 65535; at 16: v;
// the gray of RGB as above (x257 from 8 bits).
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
  I420,     // yuv420p: Y plane, then U plane, then V plane (chroma ceil(w/2) x ceil(h/2))
  Nv12,     // Y plane, then one plane of interleaved U, V pairs
  I422,     // yuv422p: Y, U, V planes, chroma ceil(w/2) x h
  I444,     // yuv444p: Y, U, V planes, all w x h
  Yuyv422,  // packed 4:2:2, Y0 U Y1 V per two pixels (4 * ceil(w/2) bytes a row): most webcams
  Uyvy422,  // packed 4:2:2, U Y0 V Y1
  I420P10,  // yuv420p10le: I420 with 16-bit little-endian samples, 10 bits in the low bits
  P010,     // p010le: nv12 with 16-bit little-endian samples, 10 bits in the high bits
  Rgb24,    // packed R, G, B bytes (no matrix, no range)
  Bgr24,    // packed B, G, R bytes
  I422P10,  // yuv422p10le: I422 with 16-bit little-endian samples, 10 bits in the low bits
  I444P10,  // yuv444p10le: I444 likewise
  // 16-bit little-endian samples whose low YuvImage::bits bits (9..16) are the
  // value: yuv420p12le is I420P16 at 12 bits, yuv420p16le at 16.
  I420P16,
  I422P16,
  I444P16,
  P016,      // p016le (and p012le, p010le): nv12 with 16-bit little-endian samples, all 16 bits read
  Rgb48,     // rgb48le: packed R, G, B, 16-bit little-endian (TIFF)
  Rgb48Be,   // rgb48be: the same, big-endian (16-bit PNG)
  Gray16,    // gray16le: one 16-bit little-endian sample a pixel
  Gray16Be,  // gray16be (16-bit gray PNG)
};
// True for the packed RGB and gray layouts, which carry no matrix or range.
bool isRgbLayout(YuvLayout layout);

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

// A decoded frame, planes packed back to back without row padding.
struct YuvImage {
  YuvLayout layout = YuvLayout::Invalid;
  YuvMatrix matrix = YuvMatrix::Invalid;
  YuvRange range = YuvRange::Invalid;
  PixelFormat convertTo = PixelFormat::Invalid;  // the engine format the device turns it into
  int width = 0, height = 0;
  // payloadBytes(): the planes the conversion reads. Left uninitialised and
  // taken from the frame block cache, as Image's pixels (a 4K frame's 12 MB
  // cost a memset and its page faults on every frame: 6-9 ms of lc-decode's
  // "convert" stage on the GPU machine).
  std::vector<std::uint8_t, PageAlignedAllocator<std::uint8_t>> bytes;

  // GRAY8 reads the Y plane alone (where it comes first, on its own), so only
  // that much is handed on and uploaded.
  std::size_t payloadBytes() const {
    return channelCount(convertTo) == 1 && lumaPlaneFirst(layout) ? lumaBytes(layout, width, height)
                                                                  : sizeBytes(layout, width, height);
  }

  bool empty() const { return width <= 0 || height <= 0; }
  int chromaWidth() const { return fullChroma(layout) ? width : (width + 1) / 2; }
  int chromaHeight() const { return subsampledRows(layout) ? (height + 1) / 2 : height; }
  // The I4xxP16 layouts' significant bits, 9..16 (0: 16); the others' depth is their own.
  int bits = 0;
  // The depth the samples are read at (8 to 16).
  int depth() const {
    return layout == YuvLayout::I420P16 || layout == YuvLayout::I422P16 || layout == YuvLayout::I444P16
               ? (bits ? bits : 16)
               : sampleBits(layout);
  }
  // Bits of a sample as the layout stores it: 10 for the 10-bit layouts, 16
  // for the 16-bit ones (I4xxP16 at most), 8 for the rest.
  static int sampleBits(YuvLayout layout) {
    switch (layout) {
      case YuvLayout::I420P10:
      case YuvLayout::P010:
      case YuvLayout::I422P10:
      case YuvLayout::I444P10:
        return 10;
      case YuvLayout::I420P16:
      case YuvLayout::I422P16:
      case YuvLayout::I444P16:
      case YuvLayout::P016:
      case YuvLayout::Rgb48:
      case YuvLayout::Rgb48Be:
      case YuvLayout::Gray16:
      case YuvLayout::Gray16Be:
        return 16;
      default:
        return 8;
    }
  }
  // Bytes per sample: 2 for the layouts of more than 8 bits.
  static int sampleBytes(YuvLayout layout) { return sampleBits(layout) > 8 ? 2 : 1; }
  static bool fullChroma(YuvLayout layout) {
    return layout == YuvLayout::I444 || layout == YuvLayout::I444P10 || layout == YuvLayout::I444P16;
  }
  static bool subsampledRows(YuvLayout layout) {
    return layout == YuvLayout::I420 || layout == YuvLayout::Nv12 || layout == YuvLayout::I420P10 ||
           layout == YuvLayout::P010 || layout == YuvLayout::I420P16 || layout == YuvLayout::P016;
  }
  static bool lumaPlaneFirst(YuvLayout layout) {
    return layout != YuvLayout::Yuyv422 && layout != YuvLayout::Uyvy422 && !isRgbLayout(layout);
  }
  static std::size_t lumaBytes(YuvLayout layout, int width, int height) {
    return std::size_t(width) * height * sampleBytes(layout);
  }
  // Every plane of a frame of this layout and size.
  static std::size_t sizeBytes(YuvLayout layout, int width, int height);
  // The most any layout needs at this size: the device buffers are made once for it.
  static std::size_t largestBytes(int width, int height);
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
// frame's size and be RGBA8, GRAY8, RGBA16 or GRAY16.
void convertYuvReference(const YuvImage& in, const ImageView& out);

// Runs kernels/convert.cl, an entry point per layout and output format. The
// program is built on construction (throws BuildError), so the first frame
// does not wait for a compile. `pixelsPerItem` (1 or 8; 0: 8 on a CPU device,
// 1 on any other) is the pixels of a row each work-item converts.
class YuvConverter {
 public:
  YuvConverter(std::shared_ptr<DeviceContext> device, std::shared_ptr<ProgramCache> cache, int pixelsPerItem = 0);
  // Converts packed planes in `src` (geometry and colour description from
  // `desc`; its bytes are not read) into `dst`, on `queue`.
  void enqueue(const cl::CommandQueue& queue, const cl::Buffer& src, const YuvImage& desc, const DeviceImage& dst,
               const std::vector<cl::Event>* waitFor, cl::Event* done);

 private:
  static constexpr int kLayouts = static_cast<int>(YuvLayout::Gray16Be) + 1;  // indexed by YuvLayout
  std::shared_ptr<DeviceContext> device_;
  int pixelsPerItem_;
  cl::Kernel toRgba_[kLayouts], toGray_[kLayouts], toRgba16_[kLayouts], toGray16_[kLayouts];
};

// Converts on the device once, blocking: for tests and one-off use. Pass a
// cache to build the program once for many calls.
Image convertYuvOnDevice(const std::shared_ptr<DeviceContext>& device, const YuvImage& in,
                         std::shared_ptr<ProgramCache> cache = nullptr, int pixelsPerItem = 0);

}  // namespace liveconv
