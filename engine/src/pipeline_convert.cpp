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
  if (in.empty() || in.layout == YuvLayout::Invalid || in.matrix == YuvMatrix::Invalid || in.range == YuvRange::Invalid)
    throw InvalidArgument("A YUV frame needs a size, a plane layout, a matrix and a range.");
  if (out != PixelFormat::RGBA8 && out != PixelFormat::GRAY8)
    throw InvalidArgument("YUV frames convert to rgba or gray only.");
}

}  // namespace

const char* toString(YuvLayout layout) {
  switch (layout) {
    case YuvLayout::I420:
      return "yuv420p";
    case YuvLayout::Nv12:
      return "nv12";
    case YuvLayout::Invalid:
      break;
  }
  return "?";
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

void convertYuvReference(const YuvImage& in, const ImageView& out) {
  checkGeometry(in, out.format);
  if (out.width != in.width || out.height != in.height)
    throw InvalidArgument("The conversion target must have the frame's size.");
  if (in.bytes.size() <
      (out.format == PixelFormat::GRAY8 ? std::size_t(in.width) * in.height : YuvImage::sizeBytes(in.width, in.height)))
    throw InvalidArgument("A YUV frame has fewer bytes than its size needs.");
  const YuvCoefficients c = yuvCoefficients(in.matrix, in.range);
  const int w = in.width, cw = in.chromaWidth(), ch = in.chromaHeight();
  const std::uint8_t* yPlane = in.bytes.data();
  const std::uint8_t* chroma = yPlane + std::size_t(w) * in.height;
  for (int y = 0; y < in.height; ++y) {
    std::uint8_t* row = out.row(y);
    for (int x = 0; x < w; ++x) {
      const int yy = (int(yPlane[std::size_t(y) * w + x]) - c.yOffset) * c.yScale;
      if (out.format == PixelFormat::GRAY8) {
        row[x] = fixedToU8(yy);
        continue;
      }
      const std::size_t k = std::size_t(y / 2) * cw + x / 2;
      int u, v;
      if (in.layout == YuvLayout::Nv12) {
        u = chroma[2 * k];
        v = chroma[2 * k + 1];
      } else {
        u = chroma[k];
        v = chroma[std::size_t(cw) * ch + k];
      }
      u -= 128;
      v -= 128;
      row[4 * x + 0] = fixedToU8(yy + c.rv * v);
      row[4 * x + 1] = fixedToU8(yy - c.gu * u - c.gv * v);
      row[4 * x + 2] = fixedToU8(yy + c.bu * u);
      row[4 * x + 3] = 255;
    }
  }
}

YuvConverter::YuvConverter(std::shared_ptr<DeviceContext> device, std::shared_ptr<ProgramCache> cache)
    : device_(std::move(device)) {
  const std::string text = kernelSource("convert.cl");
  const std::string key = "convert.cl#" + std::to_string(std::hash<std::string>{}(text));
  cl::Program program = cache->get(device_->context, device_->info.device, key, text, "");
  toRgba_ = cl::Kernel(program, "yuv420_to_rgba");
  toGray_ = cl::Kernel(program, "yuv420_to_gray");
}

void YuvConverter::enqueue(const cl::CommandQueue& queue, const cl::Buffer& src, const YuvImage& desc,
                           const DeviceImage& dst, const std::vector<cl::Event>* waitFor, cl::Event* done) {
  checkGeometry(desc, dst.format);
  if (dst.width != desc.width || dst.height != desc.height)
    throw InvalidArgument("The conversion target must have the frame's size.");
  const YuvCoefficients c = yuvCoefficients(desc.matrix, desc.range);
  // One kernel object per entry point, used by the engine thread only.
  cl::Kernel& k = dst.format == PixelFormat::GRAY8 ? toGray_ : toRgba_;
  cl_uint a = 0;
  k.setArg(a++, src);
  k.setArg(a++, cl_int(desc.width));
  k.setArg(a++, cl_int(desc.height));
  if (dst.format == PixelFormat::RGBA8) k.setArg(a++, cl_int(desc.layout == YuvLayout::Nv12 ? 1 : 0));
  k.setArg(a++, cl_int(c.yOffset));
  k.setArg(a++, cl_int(c.yScale));
  if (dst.format == PixelFormat::RGBA8) {
    k.setArg(a++, cl_int(c.rv));
    k.setArg(a++, cl_int(c.gu));
    k.setArg(a++, cl_int(c.gv));
    k.setArg(a++, cl_int(c.bu));
  }
  k.setArg(a++, dst.buffer);
  k.setArg(a++, cl_int(dst.pitchBytes));
  queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(desc.width, desc.height), cl::NullRange, waitFor, done);
}

Image convertYuvOnDevice(const std::shared_ptr<DeviceContext>& device, const YuvImage& in,
                         std::shared_ptr<ProgramCache> cache) {
  checkGeometry(in, in.convertTo);
  if (in.bytes.size() < in.payloadBytes()) throw InvalidArgument("A YUV frame has fewer bytes than its size needs.");
  YuvConverter converter(device, cache ? std::move(cache) : std::make_shared<ProgramCache>());
  const cl::Context& ctx = device->context;
  cl::Buffer src(ctx, CL_MEM_READ_ONLY, YuvImage::sizeBytes(in.width, in.height));
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
