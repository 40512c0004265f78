#include "liveconv/convolver.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <sstream>

#include "liveconv/errors.hpp"
#include "liveconv/kernel_sources.hpp"

namespace liveconv {
namespace {

std::size_t roundUp(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

std::string kib(std::uint64_t bytes) {
  std::ostringstream out;
  out << (bytes + 1023) / 1024 << " KiB";
  return out.str();
}

// Local memory a tiled variant needs for a workgroup of wx x wy.
std::uint64_t tileBytes(const VariantInfo& v, int wx, int wy, const Mask& m, PixelFormat format) {
  if (v.tile != TileKind::Local) return 0;
  const std::uint64_t elem = format == PixelFormat::RGBA8 ? 16 : 4;  // float4 or float
  return static_cast<std::uint64_t>(wx + m.width - 1) * (wy + m.height - 1) * elem;
}

int borderDefine(BorderMode mode) {
  switch (mode) {
    case BorderMode::Clamp: return 1;
    case BorderMode::Mirror: return 2;
    case BorderMode::Wrap: return 3;
    case BorderMode::Zero: return 4;
    case BorderMode::Invalid: break;
  }
  throw InvalidArgument("No border mode chosen.");
}

}  // namespace

struct Convolver::Prepared {
  // What the kernel was built for.
  VariantId variant = VariantId::Invalid;
  PixelFormat format = PixelFormat::Invalid;
  BorderMode border = BorderMode::Invalid;
  AlphaMode alpha = AlphaMode::Invalid;
  WorkgroupShape requested;
  int maskW = 0, maskH = 0;
  // What it is.
  cl::Kernel kernel;
  int wx = 0, wy = 0;
  std::uint64_t localBytes = 0;
};

DeviceImage allocateDeviceImage(const cl::Context& context, int width, int height, PixelFormat format,
                                cl_mem_flags flags) {
  DeviceImage img;
  img.width = width;
  img.height = height;
  img.format = format;
  img.pitchBytes = static_cast<std::size_t>(width) * bytesPerPixel(format);
  img.buffer = cl::Buffer(context, flags, std::max<std::size_t>(1, img.pitchBytes * height));
  return img;
}

Convolver::Convolver(std::shared_ptr<DeviceContext> device, std::shared_ptr<ProgramCache> cache)
    : device_(std::move(device)), cache_(std::move(cache)) {}

Convolver::~Convolver() = default;

void Convolver::setParams(const FilterParams& params) {
  params.mask.validate();
  if (params.border == BorderMode::Invalid) throw InvalidArgument("No border mode chosen.");
  if (params.alpha == AlphaMode::Invalid) throw InvalidArgument("No alpha mode chosen.");
  const VariantInfo& v = variantInfo(params.variant);
  if (params.workgroup.x < 0 || params.workgroup.y < 0 || (params.workgroup.x == 0) != (params.workgroup.y == 0))
    throw InvalidArgument("A workgroup shape needs both sides, each at least 1 (or neither, for the default).");
  if (params.mask.width > v.maxMaskSide || params.mask.height > v.maxMaskSide)
    throw UnsupportedError(std::string("Variant ") + v.name + " takes masks up to " + std::to_string(v.maxMaskSide) +
                           " wide and high.");
  params_ = params;
}

WorkgroupShape Convolver::workgroupFor(PixelFormat format) {
  const Prepared& p = preparedFor(format);
  return {p.wx, p.wy};
}

void Convolver::prepare(PixelFormat format) { preparedFor(format); }

Convolver::Prepared& Convolver::preparedFor(PixelFormat format) {
  if (bytesPerPixel(format) == 0) throw InvalidArgument("No pixel format given.");
  const VariantInfo& v = variantInfo(params_.variant);
  const Mask& m = params_.mask;
  const bool sizeConstant = v.binding == MaskBinding::SizeConstant;
  for (auto& p : prepared_) {
    if (p->variant == v.id && p->format == format && p->border == params_.border && p->alpha == params_.alpha &&
        p->requested.x == params_.workgroup.x && p->requested.y == params_.workgroup.y &&
        (v.tile != TileKind::Local || (p->maskW == m.width && p->maskH == m.height)))
      return *p;
  }

  // Choose the workgroup: the user's, checked, or the variant's default shrunk to fit.
  const DeviceInfo& dev = device_->info;
  const bool userShape = params_.workgroup.x > 0;
  int wx = userShape ? params_.workgroup.x : v.defaultWorkgroupX;
  int wy = userShape ? params_.workgroup.y : v.defaultWorkgroupY;
  auto fits = [&](int x, int y) {
    return static_cast<std::size_t>(x) * y <= dev.maxWorkGroupSize && tileBytes(v, x, y, m, format) <= dev.localMemBytes;
  };
  if (userShape && !fits(wx, wy)) {
    std::ostringstream out;
    out << "Workgroup " << wx << "x" << wy << " does not fit " << dev.name << ": it allows " << dev.maxWorkGroupSize
        << " work-items and " << kib(dev.localMemBytes) << " of local memory, and variant " << v.name << " needs "
        << wx * wy << " work-items and " << kib(tileBytes(v, wx, wy, m, format)) << " for a " << m.width << "x"
        << m.height << " " << toString(format) << " mask.";
    throw UnsupportedError(out.str());
  }
  while (!fits(wx, wy) && (wx > 1 || wy > 1)) (wx >= wy ? wx : wy) = std::max(1, (wx >= wy ? wx : wy) / 2);
  if (!fits(wx, wy)) {
    std::ostringstream out;
    out << "Variant " << v.name << " cannot run a " << m.width << "x" << m.height << " " << toString(format)
        << " mask on " << dev.name << ": even a 1x1 workgroup needs " << kib(tileBytes(v, 1, 1, m, format))
        << " of local memory and the device has " << kib(dev.localMemBytes) << ".";
    throw UnsupportedError(out.str());
  }

  std::ostringstream options;
  options << "-D CHANNELS=" << bytesPerPixel(format) << " -D BORDER=" << borderDefine(params_.border)
          << " -D FILTER_ALPHA=" << (params_.alpha == AlphaMode::Filter ? 1 : 0) << " -D LX=" << wx << " -D LY=" << wy;
  if (sizeConstant) options << " -D MASK_W=" << m.width << " -D MASK_H=" << m.height;

  const std::string text = kernelSource("common.cl") + "\n" + kernelSource(v.sourceFile);
  const std::string key = std::string(v.sourceFile) + "#" + std::to_string(std::hash<std::string>{}(text));
  cl::Program program = cache_->get(device_->context, dev.device, key, text, options.str());

  auto p = std::make_unique<Prepared>();
  p->variant = v.id;
  p->format = format;
  p->border = params_.border;
  p->alpha = params_.alpha;
  p->requested = params_.workgroup;
  p->maskW = m.width;
  p->maskH = m.height;
  p->kernel = cl::Kernel(program, v.entry);
  p->wx = wx;
  p->wy = wy;
  p->localBytes = tileBytes(v, wx, wy, m, format);
  if (prepared_.size() >= 64) prepared_.clear();  // a long session of edits: drop the old kernels
  prepared_.push_back(std::move(p));
  return *prepared_.back();
}

void Convolver::uploadMaskIfChanged() {
  if (maskBuffer_() && maskUploaded_ == params_.mask.coefficients) return;
  maskUploaded_ = params_.mask.coefficients;
  // A new buffer per change: the driver copies at creation, so no queued write
  // races with the host vector and kernels already queued keep the old mask.
  maskBuffer_ = cl::Buffer(device_->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           maskUploaded_.size() * sizeof(float), maskUploaded_.data());
}

void Convolver::enqueue(const DeviceImage& src, const DeviceImage& dst, const std::vector<cl::Event>* waitFor,
                        cl::Event* done) {
  if (src.width != dst.width || src.height != dst.height || src.format != dst.format)
    throw InvalidArgument("Source and destination frames differ in size or format.");
  if (src.width <= 0 || src.height <= 0) throw InvalidArgument("A frame must be at least 1x1 pixels.");
  Prepared& p = preparedFor(src.format);
  uploadMaskIfChanged();
  const int bpp = bytesPerPixel(src.format);
  const Mask& m = params_.mask;
  cl::Kernel& k = p.kernel;
  k.setArg(0, src.buffer);
  k.setArg(1, static_cast<cl_int>(src.pitchBytes / bpp));
  k.setArg(2, dst.buffer);
  k.setArg(3, static_cast<cl_int>(dst.pitchBytes / bpp));
  k.setArg(4, static_cast<cl_int>(src.width));
  k.setArg(5, static_cast<cl_int>(src.height));
  k.setArg(6, maskBuffer_);
  k.setArg(7, static_cast<cl_int>(m.width));
  k.setArg(8, static_cast<cl_int>(m.height));
  k.setArg(9, m.scale());
  k.setArg(10, m.offset());
  if (p.localBytes > 0) k.setArg(11, cl::Local(p.localBytes));
  const cl::NDRange global(roundUp(src.width, p.wx), roundUp(src.height, p.wy));
  device_->queue.enqueueNDRangeKernel(k, cl::NullRange, global, cl::NDRange(p.wx, p.wy), waitFor, done);
}

FrameTimings Convolver::process(const ImageView& src, const ImageView& dst) {
  const auto start = std::chrono::steady_clock::now();
  if (src.width != dst.width || src.height != dst.height || src.format != dst.format)
    throw InvalidArgument("Source and destination frames differ in size or format.");
  if (src_.width != src.width || src_.height != src.height || src_.format != src.format) {
    src_ = allocateDeviceImage(device_->context, src.width, src.height, src.format, CL_MEM_READ_ONLY);
    dst_ = allocateDeviceImage(device_->context, src.width, src.height, src.format, CL_MEM_WRITE_ONLY);
  }
  cl::CommandQueue& q = device_->queue;
  const std::size_t rowBytes = src.rowBytes();
  const cl::array<cl::size_type, 3> origin{0, 0, 0};
  const cl::array<cl::size_type, 3> region{rowBytes, static_cast<cl::size_type>(src.height), 1};
  cl::Event written, filtered, read;
  if (src.strideBytes == rowBytes)
    q.enqueueWriteBuffer(src_.buffer, CL_FALSE, 0, rowBytes * src.height, src.data, nullptr, &written);
  else
    q.enqueueWriteBufferRect(src_.buffer, CL_FALSE, origin, origin, region, src_.pitchBytes, 0, src.strideBytes, 0,
                             src.data, nullptr, &written);
  enqueue(src_, dst_, nullptr, &filtered);
  if (dst.strideBytes == rowBytes)
    q.enqueueReadBuffer(dst_.buffer, CL_TRUE, 0, rowBytes * dst.height, dst.data, nullptr, &read);
  else
    q.enqueueReadBufferRect(dst_.buffer, CL_TRUE, origin, origin, region, dst_.pitchBytes, 0, dst.strideBytes, 0,
                            dst.data, nullptr, &read);
  FrameTimings t;
  t.uploadMs = eventMs(written);
  t.kernelMs = eventMs(filtered);
  t.readbackMs = eventMs(read);
  t.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return t;
}

}  // namespace liveconv
