#include "liveconv/pipeline_convert.hpp"

#include <algorithm>
#include <cmath>

#include "liveconv/errors.hpp"
#include "liveconv/kernel_sources.hpp"

namespace liveconv {
namespace {

int fixed(double v) {
  return static_cast<int>(std::lround(v * 65536.0));
}

std::uint8_t fixedToU8(int acc) {
  return static_cast<std::uint8_t>(std::min(std::max(acc + 32768, 0) >> 16, 255));
}

void checkGeometry(const YuvImage& in, PixelFormat out) {
  if (in.empty() || in.layout == YuvLayout::Invalid ||
      (!isRgbLayout(in.layout) && (in.matrix == YuvMatrix::Invalid || in.range == YuvRange::Invalid)))
    throw InvalidArgument("A YUV frame needs a size, a plane layout, a matrix and a range.");
  if (channelCount(out) == 0) throw InvalidArgument("YUV frames convert to rgba or gray (8 or 16 bits) only.");
  const bool deep =
      in.layout == YuvLayout::I420P16 || in.layout == YuvLayout::I422P16 || in.layout == YuvLayout::I444P16;
  if (in.bits != 0 && (!deep || in.bits < 9 || in.bits > 16))
    throw InvalidArgument("Only the 16-bit planar YUV layouts take a depth, of 9 to 16 bits.");
}

// A sample of `bits` (9..16) rounded to 8 bits.
int to8(int v, int bits) {
  return std::min((v + (1 << (bits - 9))) >> (bits - 8), 255);
}

// The sum at depth `bits` (16 fractional bits) as a 16-bit sample: the header's formula.
std::uint16_t fixedToU16(std::int64_t acc, int bits) {
  const std::int64_t v = (acc * 257 + (std::int64_t{1} << (bits + 7))) >> (bits + 8);
  return static_cast<std::uint16_t>(std::min<std::int64_t>(std::max<std::int64_t>(v, 0), 65535));
}

int sample16(const std::uint8_t* p, std::size_t index) { return p[2 * index] | (p[2 * index + 1] << 8); }
int sample16be(const std::uint8_t* p, std::size_t index) {
  return (p[2 * index] << 8) | p[2 * index + 1];
}

// The R, G and B of the pixel at `luma` (its index in the frame) of a packed
// 16-bit RGB or gray layout: loadPixel()'s, for those layouts.
void loadPacked16(const YuvImage& in, std::size_t luma, int* a, int* b, int* c) {
  const std::uint8_t* p = in.bytes.data();
  switch (in.layout) {
    case YuvLayout::Rgb48:
      *a = sample16(p, 3 * luma), *b = sample16(p, 3 * luma + 1), *c = sample16(p, 3 * luma + 2);
      return;
    case YuvLayout::Rgb48Be:
      *a = sample16be(p, 3 * luma), *b = sample16be(p, 3 * luma + 1), *c = sample16be(p, 3 * luma + 2);
      return;
    case YuvLayout::Gray16:
      *a = *b = *c = sample16(p, luma);
      return;
    case YuvLayout::Gray16Be:
      *a = *b = *c = sample16be(p, luma);
      return;
    default:
      *a = *b = *c = 0;
  }
}

// The Y, U and V (or R, G and B) of pixel (x, y) at the layout's depth
// (YuvImage::depth()): the definition the kernel's load_raw() follows. `lumaOnly`: Y alone (b and c untouched), for
// a frame that carries its Y plane and nothing after it (payloadBytes() of GRAY8).
void loadPixel(const YuvImage& in, int x, int y, bool lumaOnly, int* a, int* b, int* c) {
  const std::uint8_t* p = in.bytes.data();
  const std::size_t w = std::size_t(in.width), h = std::size_t(in.height);
  const std::size_t cw = std::size_t(in.chromaWidth()), ch = std::size_t(in.chromaHeight());
  const std::size_t luma = std::size_t(y) * w + x;
  const std::size_t k =
      std::size_t(YuvImage::subsampledRows(in.layout) ? y / 2 : y) * cw + (YuvImage::fullChroma(in.layout) ? x : x / 2);
  switch (in.layout) {
    case YuvLayout::I420:
    case YuvLayout::I422:
    case YuvLayout::I444:
      *a = p[luma];
      if (lumaOnly) return;
      *b = p[w * h + k];
      *c = p[w * h + cw * ch + k];
      return;
    case YuvLayout::Nv12:
      *a = p[luma];
      if (lumaOnly) return;
      *b = p[w * h + 2 * k];
      *c = p[w * h + 2 * k + 1];
      return;
    case YuvLayout::Yuyv422:
    case YuvLayout::Uyvy422: {
      const std::uint8_t* m = p + std::size_t(y) * 4 * cw + 4 * std::size_t(x / 2);  // one macropixel: two pixels
      const bool yuyv = in.layout == YuvLayout::Yuyv422;
      *a = yuyv ? m[2 * (x & 1)] : m[1 + 2 * (x & 1)];
      *b = yuyv ? m[1] : m[0];
      *c = yuyv ? m[3] : m[2];
      return;
    }
    case YuvLayout::I420P10:
    case YuvLayout::I422P10:
    case YuvLayout::I444P10:
      *a = sample16(p, luma) & 0x3ff;
      if (lumaOnly) return;
      *b = sample16(p, w * h + k) & 0x3ff;
      *c = sample16(p, w * h + cw * ch + k) & 0x3ff;
      return;
    case YuvLayout::P010:
      *a = sample16(p, luma) >> 6;
      if (lumaOnly) return;
      *b = sample16(p, w * h + 2 * k) >> 6;
      *c = sample16(p, w * h + 2 * k + 1) >> 6;
      return;
    case YuvLayout::I420P16:
    case YuvLayout::I422P16:
    case YuvLayout::I444P16: {
      const int mask = (1 << in.depth()) - 1;
      *a = sample16(p, luma) & mask;
      if (lumaOnly) return;
      *b = sample16(p, w * h + k) & mask;
      *c = sample16(p, w * h + cw * ch + k) & mask;
      return;
    }
    case YuvLayout::P016:
      *a = sample16(p, luma);
      if (lumaOnly) return;
      *b = sample16(p, w * h + 2 * k);
      *c = sample16(p, w * h + 2 * k + 1);
      return;
    case YuvLayout::Rgb24:
    case YuvLayout::Bgr24: {
      const std::uint8_t* q = p + 3 * luma;
      *a = in.layout == YuvLayout::Rgb24 ? q[0] : q[2];
      *b = q[1];
      *c = in.layout == YuvLayout::Rgb24 ? q[2] : q[0];
      return;
    }
    case YuvLayout::Rgb48:
    case YuvLayout::Rgb48Be:
    case YuvLayout::Gray16:
    case YuvLayout::Gray16Be:
      return loadPacked16(in, luma, a, b, c);
    case YuvLayout::Invalid:
      break;
  }
  *a = *b = *c = 0;
}

// kernels/convert.cl numbers the layouts as the enum does, and names its entry points as toString() does.
static_assert(static_cast<int>(YuvLayout::I420) == 1 && static_cast<int>(YuvLayout::Nv12) == 2 &&
              static_cast<int>(YuvLayout::I422) == 3 && static_cast<int>(YuvLayout::I444) == 4 &&
              static_cast<int>(YuvLayout::Yuyv422) == 5 && static_cast<int>(YuvLayout::Uyvy422) == 6 &&
              static_cast<int>(YuvLayout::I420P10) == 7 && static_cast<int>(YuvLayout::P010) == 8 &&
              static_cast<int>(YuvLayout::Rgb24) == 9 && static_cast<int>(YuvLayout::Bgr24) == 10 &&
              static_cast<int>(YuvLayout::I422P10) == 11 && static_cast<int>(YuvLayout::I444P10) == 12 &&
              static_cast<int>(YuvLayout::I420P16) == 13 && static_cast<int>(YuvLayout::I422P16) == 14 &&
              static_cast<int>(YuvLayout::I444P16) == 15 && static_cast<int>(YuvLayout::P016) == 16 &&
              static_cast<int>(YuvLayout::Rgb48) == 17 && static_cast<int>(YuvLayout::Rgb48Be) == 18 &&
              static_cast<int>(YuvLayout::Gray16) == 19 && static_cast<int>(YuvLayout::Gray16Be) == 20);

}  // namespace

bool isRgbLayout(YuvLayout layout) {
  return layout == YuvLayout::Rgb24 || layout == YuvLayout::Bgr24 || layout == YuvLayout::Rgb48 ||
         layout == YuvLayout::Rgb48Be || layout == YuvLayout::Gray16 || layout == YuvLayout::Gray16Be;
}

const char* toString(YuvLayout layout) {
  switch (layout) {
    case YuvLayout::I420: return "yuv420p";
    case YuvLayout::Nv12: return "nv12";
    case YuvLayout::I422: return "yuv422p";
    case YuvLayout::I444: return "yuv444p";
    case YuvLayout::Yuyv422: return "yuyv422";
    case YuvLayout::Uyvy422: return "uyvy422";
    case YuvLayout::I420P10: return "yuv420p10le";
    case YuvLayout::P010: return "p010le";
    case YuvLayout::Rgb24: return "rgb24";
    case YuvLayout::Bgr24: return "bgr24";
    case YuvLayout::I422P10:
      return "yuv422p10le";
    case YuvLayout::I444P10:
      return "yuv444p10le";
    case YuvLayout::I420P16:
      return "yuv420p16le";
    case YuvLayout::I422P16:
      return "yuv422p16le";
    case YuvLayout::I444P16:
      return "yuv444p16le";
    case YuvLayout::P016:
      return "p016le";
    case YuvLayout::Rgb48:
      return "rgb48le";
    case YuvLayout::Rgb48Be:
      return "rgb48be";
    case YuvLayout::Gray16:
      return "gray16le";
    case YuvLayout::Gray16Be:
      return "gray16be";
    case YuvLayout::Invalid: break;
  }
  return "?";
}

std::size_t YuvImage::sizeBytes(YuvLayout layout, int width, int height) {
  const std::size_t w = std::size_t(std::max(width, 0)), h = std::size_t(std::max(height, 0));
  const std::size_t cw = (w + 1) / 2, ch = (h + 1) / 2;
  switch (layout) {
    case YuvLayout::I420:
    case YuvLayout::Nv12: return w * h + 2 * cw * ch;
    case YuvLayout::I422: return w * h + 2 * cw * h;
    case YuvLayout::I444:
    case YuvLayout::Rgb24:
    case YuvLayout::Bgr24: return 3 * w * h;
    case YuvLayout::Yuyv422:
    case YuvLayout::Uyvy422: return 4 * cw * h;
    case YuvLayout::I420P10:
    case YuvLayout::P010:
    case YuvLayout::I420P16:
    case YuvLayout::P016:
      return 2 * (w * h + 2 * cw * ch);
    case YuvLayout::I422P10:
    case YuvLayout::I422P16:
      return 2 * (w * h + 2 * cw * h);
    case YuvLayout::I444P10:
    case YuvLayout::I444P16:
    case YuvLayout::Rgb48:
    case YuvLayout::Rgb48Be:
      return 6 * w * h;
    case YuvLayout::Gray16:
    case YuvLayout::Gray16Be:
      return 2 * w * h;
    case YuvLayout::Invalid: break;
  }
  return 0;
}

std::size_t YuvImage::largestBytes(int width, int height) {
  std::size_t most = 0;
  for (int l = 1; l <= static_cast<int>(YuvLayout::Gray16Be); ++l)
    most = std::max(most, sizeBytes(static_cast<YuvLayout>(l), width, height));
  return most;
}

const char* toString(YuvMatrix matrix) {
  switch (matrix) {
    case YuvMatrix::Bt601:
      return "bt601";
    case YuvMatrix::Bt709:
      return "bt709";
    case YuvMatrix::Invalid:
      break;
  }
  return "?";
}

const char* toString(YuvRange range) {
  switch (range) {
    case YuvRange::Limited:
      return "limited";
    case YuvRange::Full:
      return "full";
    case YuvRange::Invalid:
      break;
  }
  return "?";
}

void YuvImage::allocate(int w, int h) {
  width = w;
  height = h;
  bytes.resize(payloadBytes());
}

YuvCoefficients yuvCoefficients(YuvMatrix matrix, YuvRange range) {
  const double kr = matrix == YuvMatrix::Bt709 ? 0.2126 : 0.299;
  const double kb = matrix == YuvMatrix::Bt709 ? 0.0722 : 0.114;
  const double kg = 1.0 - kr - kb;
  const bool limited = range == YuvRange::Limited;
  const double yScale = limited ? 255.0 / 219.0 : 1.0;
  const double cScale = limited ? 255.0 / 224.0 : 1.0;
  YuvCoefficients c;
  c.yOffset = limited ? 16 : 0;
  c.yScale = fixed(yScale);
  c.rv = fixed(2 * (1 - kr) * cScale);
  c.bu = fixed(2 * (1 - kb) * cScale);
  c.gu = fixed(2 * (1 - kb) * kb / kg * cScale);
  c.gv = fixed(2 * (1 - kr) * kr / kg * cScale);
  return c;
}

namespace {

// One pixel's samples (at the layout's depth) into an 8-bit pixel.
void toEight(const YuvImage& in, const YuvCoefficients& c, int a, int b, int d, std::uint8_t* px, bool gray) {
  if (const int bits = in.depth(); bits > 8) a = to8(a, bits), b = to8(b, bits), d = to8(d, bits);
  if (isRgbLayout(in.layout)) {
    if (gray) {
      px[0] = static_cast<std::uint8_t>((19595 * a + 38470 * b + 7471 * d + 32768) >> 16);
    } else {
      px[0] = static_cast<std::uint8_t>(a), px[1] = static_cast<std::uint8_t>(b), px[2] = static_cast<std::uint8_t>(d);
      px[3] = 255;
    }
    return;
  }
  const int yy = (a - c.yOffset) * c.yScale;
  if (gray) {
    px[0] = fixedToU8(yy);
    return;
  }
  const int u = b - 128, v = d - 128;
  px[0] = fixedToU8(yy + c.rv * v);
  px[1] = fixedToU8(yy - c.gu * u - c.gv * v);
  px[2] = fixedToU8(yy + c.bu * u);
  px[3] = 255;
}

// ... into a 16-bit pixel, every bit of the samples kept (the header's formula).
void toSixteen(const YuvImage& in, const YuvCoefficients& c, int a, int b, int d, std::uint16_t* px, bool gray) {
  const int bits = in.depth();
  if (isRgbLayout(in.layout)) {  // 8 or 16 bits
    const int scale = bits == 16 ? 1 : 257;
    if (gray) {
      px[0] = static_cast<std::uint16_t>(((19595LL * a + 38470LL * b + 7471LL * d) * scale + 32768) >> 16);
    } else {
      px[0] = static_cast<std::uint16_t>(a * scale), px[1] = static_cast<std::uint16_t>(b * scale);
      px[2] = static_cast<std::uint16_t>(d * scale), px[3] = 65535;
    }
    return;
  }
  const int centre = 128 << (bits - 8);
  const std::int64_t yy = std::int64_t{a - (c.yOffset << (bits - 8))} * c.yScale;
  if (gray) {
    px[0] = fixedToU16(yy, bits);
    return;
  }
  const int u = b - centre, v = d - centre;
  px[0] = fixedToU16(yy + std::int64_t{c.rv} * v, bits);
  px[1] = fixedToU16(yy - std::int64_t{c.gu} * u - std::int64_t{c.gv} * v, bits);
  px[2] = fixedToU16(yy + std::int64_t{c.bu} * u, bits);
  px[3] = 65535;
}

}  // namespace

void convertYuvReference(const YuvImage& in, const ImageView& out) {
  checkGeometry(in, out.format);
  if (out.width != in.width || out.height != in.height)
    throw InvalidArgument("The conversion target must have the frame's size.");
  const bool gray = channelCount(out.format) == 1, wide = bytesPerSample(out.format) == 2;
  if (in.bytes.size() < in.payloadBytes() ||
      (!gray && in.bytes.size() < YuvImage::sizeBytes(in.layout, in.width, in.height)))
    throw InvalidArgument("A YUV frame has fewer bytes than its size needs.");
  const bool rgb = isRgbLayout(in.layout);
  const YuvCoefficients c = yuvCoefficients(rgb ? YuvMatrix::Bt601 : in.matrix, rgb ? YuvRange::Full : in.range);
  // Gray from a layout whose Y plane comes first needs that plane alone, and may carry no more.
  const bool lumaOnly = gray && YuvImage::lumaPlaneFirst(in.layout);
  const int channels = channelCount(out.format);
  for (int y = 0; y < in.height; ++y) {
    std::uint8_t* row = out.row(y);
    for (int x = 0; x < in.width; ++x) {
      int a = 0, b = 0, d = 0;
      loadPixel(in, x, y, lumaOnly, &a, &b, &d);
      if (wide)
        toSixteen(in, c, a, b, d, reinterpret_cast<std::uint16_t*>(row) + channels * x, gray);
      else
        toEight(in, c, a, b, d, row + channels * x, gray);
    }
  }
}

YuvConverter::YuvConverter(std::shared_ptr<DeviceContext> device, std::shared_ptr<ProgramCache> cache,
                           int pixelsPerItem)
    : device_(std::move(device)),
      pixelsPerItem_(pixelsPerItem ? pixelsPerItem : device_->info.kind == DeviceKind::CPU ? 8 : 1) {
  if (pixelsPerItem_ != 1 && pixelsPerItem_ != 8)
    throw InvalidArgument("The device conversion takes 1 or 8 pixels a work-item.");
  const std::string text = kernelSource("convert.cl");
  const std::string options = "-DPIXELS_PER_ITEM=" + std::to_string(pixelsPerItem_);
  const std::string key = "convert.cl#" + std::to_string(std::hash<std::string>{}(text)) + options;
  cl::Program program = cache->get(device_->context, device_->info.device, key, text, options);
  for (int i = 1; i < kLayouts; ++i) {
    const std::string name = std::string("convert_") + toString(static_cast<YuvLayout>(i));
    toRgba_[i] = cl::Kernel(program, (name + "_to_rgba").c_str());
    toGray_[i] = cl::Kernel(program, (name + "_to_gray").c_str());
    toRgba16_[i] = cl::Kernel(program, (name + "_to_rgba16").c_str());
    toGray16_[i] = cl::Kernel(program, (name + "_to_gray16").c_str());
  }
}

void YuvConverter::enqueue(const cl::CommandQueue& queue, const cl::Buffer& src, const YuvImage& desc,
                           const DeviceImage& dst, const std::vector<cl::Event>* waitFor, cl::Event* done) {
  checkGeometry(desc, dst.format);
  if (dst.width != desc.width || dst.height != desc.height)
    throw InvalidArgument("The conversion target must have the frame's size.");
  const bool rgb = isRgbLayout(desc.layout);
  const YuvCoefficients c = yuvCoefficients(rgb ? YuvMatrix::Bt601 : desc.matrix, rgb ? YuvRange::Full : desc.range);
  // One kernel object per entry point, used by the engine thread only.
  const int layout = static_cast<int>(desc.layout);  // checkGeometry refused YuvLayout::Invalid
  const bool gray = channelCount(dst.format) == 1, wide = bytesPerSample(dst.format) == 2;
  cl::Kernel& k = wide ? (gray ? toGray16_[layout] : toRgba16_[layout]) : (gray ? toGray_[layout] : toRgba_[layout]);
  cl_uint a = 0;
  k.setArg(a++, src);
  k.setArg(a++, cl_int(desc.width));
  k.setArg(a++, cl_int(desc.height));
  k.setArg(a++, cl_int(c.yOffset));
  k.setArg(a++, cl_int(c.yScale));
  if (!gray) {
    k.setArg(a++, cl_int(c.rv));
    k.setArg(a++, cl_int(c.gu));
    k.setArg(a++, cl_int(c.gv));
    k.setArg(a++, cl_int(c.bu));
  }
  k.setArg(a++, dst.buffer);
  k.setArg(a++, cl_int(dst.pitchBytes));
  k.setArg(a++, cl_int(desc.depth()));
  const std::size_t items = (std::size_t(desc.width) + pixelsPerItem_ - 1) / pixelsPerItem_;
  if (device_->info.kind != DeviceKind::CPU) {
    queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(items, desc.height), cl::NullRange, waitFor, done);
    return;
  }
  // On a CPU device one work-group shape at every frame size, the range
  // rounded up to it (the kernel leaves out items past the frame): PoCL
  // generates a kernel's code per shape, and left to choose it picked one per
  // size, so a stream that changed size generated code on the engine thread.
  // 64 items of a row (512 pixels) converted a 1080p frame as fast as PoCL's
  // own choice on the 2-core machine (1.3-1.5 ms to RGBA, 0.95-1.05 to gray);
  // squarer groups (16x8, 8x8, 64x4) were slower.
  constexpr std::size_t kCpuGroup = 64;
  const std::size_t rounded = (items + kCpuGroup - 1) / kCpuGroup * kCpuGroup;
  queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(rounded, desc.height), cl::NDRange(kCpuGroup, 1), waitFor,
                             done);
}

Image convertYuvOnDevice(const std::shared_ptr<DeviceContext>& device, const YuvImage& in,
                         std::shared_ptr<ProgramCache> cache, int pixelsPerItem) {
  checkGeometry(in, in.convertTo);
  if (in.bytes.size() < in.payloadBytes()) throw InvalidArgument("A YUV frame has fewer bytes than its size needs.");
  YuvConverter converter(device, cache ? std::move(cache) : std::make_shared<ProgramCache>(), pixelsPerItem);
  const cl::Context& ctx = device->context;
  cl::Buffer src(ctx, CL_MEM_READ_ONLY, YuvImage::sizeBytes(in.layout, in.width, in.height));
  device->queue.enqueueWriteBuffer(src, CL_FALSE, 0, in.payloadBytes(), in.bytes.data());
  const DeviceImage dst = allocateDeviceImage(ctx, in.width, in.height, in.convertTo, CL_MEM_READ_WRITE);
  converter.enqueue(device->queue, src, in, dst, nullptr, nullptr);
  Image out(in.width, in.height, in.convertTo);
  const ImageView v = out.view();
  for (int y = 0; y < in.height; ++y)
    device->queue.enqueueReadBuffer(dst.buffer, CL_FALSE, std::size_t(y) * dst.pitchBytes, v.rowBytes(), v.row(y));
  device->queue.finish();
  return out;
}

}  // namespace liveconv
