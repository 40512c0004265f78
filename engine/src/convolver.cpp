#include "liveconv/convolver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <sstream>

#include "liveconv/autotune.hpp"
#include "liveconv/compare.hpp"
#include "liveconv/kernel_sources.hpp"
#include "liveconv/reference.hpp"

namespace liveconv {
namespace {

std::size_t roundUp(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

std::string kib(std::uint64_t bytes) { return std::to_string((bytes + 1023) / 1024) + " KiB"; }

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

// The 16-bit integer lanes a whole-rows kernel can sum an integer mask in: 1
// unsigned (no negative coefficient, every sum of samples up to maxSample
// below 2^16), 2 signed (below 2^15 either way), 0 none (float sums).
int integerAccumulator(const Mask& m, int maxSample) {
  double sumAbs = 0;
  bool negative = false;
  for (float c : m.coefficients) {
    if (c != std::nearbyint(c)) return 0;
    sumAbs += std::fabs(c);
    negative = negative || c < 0;
  }
  if (!negative && sumAbs * maxSample <= 65535) return 1;
  if (sumAbs * maxSample <= 32767) return 2;
  return 0;
}

// The coefficients as exact C99 hex-float literals, for baked programs; for the
// whole-rows kernels also as integers where the sums fit 16 bits (rows.cl, INT_ACC).
std::string bakedMaskSource(const Mask& m, const VariantInfo& v, PixelFormat format) {
  std::string text = "#define BAKED 1\n__constant float baked_mask[] = {";
  char literal[64];
  for (std::size_t k = 0; k < m.coefficients.size(); ++k) {
    std::snprintf(literal, sizeof literal, "%s%af", k ? ", " : "", static_cast<double>(m.coefficients[k]));
    text += literal;
  }
  text += "};\n";
  const int lanes = v.wholeRows ? integerAccumulator(m, maxSampleValue(format)) : 0;
  if (lanes == 0) return text;
  text += "#define INT_ACC " + std::to_string(lanes) + "\n__constant " + (lanes == 1 ? "ushort" : "short") +
          " baked_mask_int[] = {";
  for (std::size_t k = 0; k < m.coefficients.size(); ++k)
    text += (k ? ", " : "") + std::to_string(std::lround(m.coefficients[k]));
  return text + "};\n";
}

// Integer-preserving rank-1 factors: for an integer mask the row is its pivot
// row divided by the row's gcd, so both factors stay integers and the two
// passes stay exact.
SeparableFactors separableFactors(const Mask& m) {
  SeparableFactors f;
  if (!factorSeparable(m, &f)) throw UnsupportedError("Variant separable needs a rank-1 (separable) mask; this one is not.");
  const bool integer = std::all_of(m.coefficients.begin(), m.coefficients.end(), [](float c) { return c == std::nearbyint(c); });
  if (!integer) return f;
  int pi = 0, pj = 0;
  for (int j = 0; j < m.height; ++j)
    for (int i = 0; i < m.width; ++i)
      if (std::fabs(m.at(i, j)) > std::fabs(m.at(pi, pj))) pi = i, pj = j;
  long g = 0;
  for (int i = 0; i < m.width; ++i) g = std::gcd(g, std::labs(std::lround(m.at(i, pj))));
  if (g == 0) return f;
  for (int i = 0; i < m.width; ++i) f.row[i] = static_cast<float>(std::lround(m.at(i, pj)) / g);
  for (int j = 0; j < m.height; ++j) f.column[j] = m.at(pi, j) / f.row[pi];
  return f;
}

// The work-group shapes of one build: the user's, checked, or the variant's
// defaults shrunk until they fit the device (fitDevice) and then what the
// compiled kernels allow (fitKernels); a pass with a shape of its own
// (`separable`'s column pass) is shrunk the same way. Its errors are the
// sentences a user reads.
class WorkgroupFit {
 public:
  WorkgroupFit(const VariantInfo& v, const std::vector<KernelPass>& passes, const FilterParams& params,
               PixelFormat format, const DeviceInfo& dev)
      : ownShape(std::any_of(passes.begin(), passes.end(), [](const KernelPass& p) { return p.ownShape; })),
        v_(v),
        onePass_(passes.size() == 1),
        m_(params.mask),
        params_(params),
        dev_(dev),
        format_(format),
        channels_(channelCount(format)),
        filterAlpha_(params.alpha == AlphaMode::Filter),
        userShape_(params.workgroup.x > 0),
        packet_(v.defaultPacket ? (params.packet ? params.packet : v.defaultPacket) : 1),
        wx_(userShape_ ? params.workgroup.x : v.defaultWorkgroupX),
        wy_(userShape_ ? params.workgroup.y : v.defaultWorkgroupY),
        cwx_(ownShape ? kColumnPassWorkgroupX : 0),
        cwy_(ownShape ? kColumnPassWorkgroupY : 0),
        cpacket_(ownShape ? kColumnPassPacket : 1) {}

  const bool ownShape;  // a pass has work-groups of its own

  // Before compiling: the device's work-item and local-memory limits.
  void fitDevice() {
    while (ownShape && !colFits(cwx_, cwy_) && (cwx_ > 1 || cwy_ > 1)) shrink(cwx_, cwy_);
    if (userShape_ && !fits(wx_, wy_)) {
      std::ostringstream out;
      out << "Workgroup " << wx_ << "x" << wy_ << " does not fit " << dev_.name << ": it allows "
          << dev_.maxWorkGroupSize << " work-items and " << kib(dev_.localMemBytes) << " of local memory, and variant "
          << v_.name << " needs " << wx_ * wy_ << " work-items and " << kib(localBytes(wx_, wy_)) << " for a "
          << maskText() << " mask.";
      throw UnsupportedError(out.str());
    }
    while (!fits(wx_, wy_) && (wx_ > 1 || wy_ > 1)) shrink(wx_, wy_);
    if (!fits(wx_, wy_)) {
      std::ostringstream out;
      out << "Variant " << v_.name << " cannot run a " << maskText() << " mask on " << dev_.name
          << ": even a 1x1 workgroup needs " << kib(localBytes(1, 1)) << " of local memory and the device has "
          << kib(dev_.localMemBytes) << ".";
      throw UnsupportedError(out.str());
    }
  }

  // The build options of one pass's program.
  std::string programOptions(const KernelPass& pass) const {
    std::ostringstream options;
    options << "-D CHANNELS=" << channels_ << " -D SAMPLE_BITS=" << sampleBits(format_)
            << " -D BORDER=" << borderDefine(params_.border) << " -D FILTER_ALPHA=" << (filterAlpha_ ? 1 : 0)
            << " -D LX=" << (pass.ownShape ? cwx_ : wx_) << " -D LY=" << (pass.ownShape ? cwy_ : wy_)
            << " -D PX=" << (pass.ownShape ? cpacket_ : packet_);
    // Packet kernels unroll masks up to this many rows completely; a CPU compiler
    // (PoCL) takes long over the larger unrolled bodies, a GPU's wins from them.
    if (pass.unrollsRows) options << " -D UNROLL_ROWS=" << (dev_.kind == DeviceKind::GPU ? 15 : 7);
    if (!pass.defines.empty()) options << " " << pass.defines;
    // The mask's size where it is compiled in: a pass of several sums only its own taps.
    const bool tapsShape = !onePass_ && pass.taps != PassTaps::Mask;
    if (tapsShape || v_.binding != MaskBinding::Runtime) {
      options << " -D MASK_W=" << (tapsShape && pass.taps == PassTaps::Column ? 1 : m_.width)
              << " -D MASK_H=" << (tapsShape && pass.taps == PassTaps::Row ? 1 : m_.height);
    } else {
      options << " -D MAX_MASK_SIDE=" << kMaxMaskSide;  // what a kernel sizing its arrays for any mask allows
    }
    return options.str();
  }

  // After compiling: what the kernels allow (their registers bound the
  // work-items, the implementation may keep local memory of its own). False
  // when a shape shrank: the programs are compiled again for it.
  bool fitKernels(const std::vector<KernelPass>& passes, const std::vector<cl::Kernel>& kernels) {
    std::size_t maxItems = dev_.maxWorkGroupSize;
    std::uint64_t ownLocal = 0;
    for (std::size_t i = 0; i < passes.size(); ++i) {
      if (passes[i].ownShape) {
        if (!columnFitsKernel(kernels[i])) return false;
        continue;
      }
      maxItems = std::min<std::size_t>(maxItems, kernels[i].getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev_.device));
      ownLocal = std::max<std::uint64_t>(ownLocal, kernels[i].getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(dev_.device));
    }
    const std::size_t items = static_cast<std::size_t>(wx_) * wy_;
    if (items <= maxItems && localBytes(wx_, wy_) + ownLocal <= dev_.localMemBytes) return true;
    if (userShape_ || items == 1) {
      std::ostringstream out;
      out << "Workgroup " << wx_ << "x" << wy_ << " does not fit variant " << v_.name << " for a " << maskText()
          << " mask on " << dev_.name << ": the compiled kernel allows " << maxItems << " work-items and needs "
          << kib(localBytes(wx_, wy_) + ownLocal) << " of local memory of the " << kib(dev_.localMemBytes)
          << " there.";
      throw UnsupportedError(out.str());
    }
    shrink(wx_, wy_);
    return false;
  }

  // The shapes the build ended with, into what the frame path enqueues by.
  template <typename Prepared>
  void describe(Prepared& p) const {
    p.wx = wx_;
    p.wy = wy_;
    p.packet = packet_;
    const PacketShape shape = packetShape(v_, packet_);
    p.blockX = shape.x;
    p.blockY = shape.y;
    p.localBytes = localBytes(wx_, wy_);
    if (ownShape) {
      const PacketShape colShape = packetShape(v_, cpacket_);
      p.colWx = cwx_, p.colWy = cwy_, p.colPacket = cpacket_;
      p.colBlockX = colShape.x, p.colBlockY = colShape.y;
      p.colLocalBytes = colBytes(cwx_, cwy_);
    }
    p.scale = m_.scale();
    p.offset = m_.offsetFor(maxSampleValue(format_));
  }

 private:
  // A pass of its own shape (`separable`'s column pass), checked against its compiled kernel; shrinks it (false) when it does not fit.
  bool columnFitsKernel(const cl::Kernel& column) {
    const std::size_t colMax = column.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev_.device);
    const std::uint64_t colOwn = column.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(dev_.device);
    if (static_cast<std::size_t>(cwx_) * cwy_ <= colMax && colBytes(cwx_, cwy_) + colOwn <= dev_.localMemBytes)
      return true;
    if (cwx_ * cwy_ == 1) {
      std::ostringstream out;
      out << "Variant " << v_.name << " cannot run the column pass of a " << maskText() << " mask on " << dev_.name
          << ": even one work-item needs " << kib(colBytes(1, 1) + colOwn) << " of local memory of the "
          << kib(dev_.localMemBytes) << " there.";
      throw UnsupportedError(out.str());
    }
    shrink(cwx_, cwy_);
    return false;
  }

  std::uint64_t localBytes(int x, int y) const {
    return localMemoryBytes(v_, x, y, packet_, m_.width, m_.height, channels_, filterAlpha_);
  }
  std::uint64_t colBytes(int x, int y) const {
    return columnPassLocalBytes(x, y, cpacket_, m_.height, channels_, filterAlpha_);
  }
  bool fits(int x, int y) const {
    return static_cast<std::size_t>(x) * y <= dev_.maxWorkGroupSize && localBytes(x, y) <= dev_.localMemBytes;
  }
  bool colFits(int x, int y) const {
    return static_cast<std::size_t>(x) * y <= dev_.maxWorkGroupSize && colBytes(x, y) <= dev_.localMemBytes;
  }
  static void shrink(int& x, int& y) {
    int& larger = x >= y ? x : y;
    larger = std::max(1, larger / 2);
  }
  std::string maskText() const {
    return std::to_string(m_.width) + "x" + std::to_string(m_.height) + " " + toString(format_);
  }

  const VariantInfo& v_;
  const bool onePass_;
  const Mask& m_;
  const FilterParams& params_;
  const DeviceInfo& dev_;
  const PixelFormat format_;
  const int channels_;
  const bool filterAlpha_, userShape_;
  int packet_, wx_, wy_, cwx_, cwy_, cpacket_;
};

}  // namespace

struct Convolver::Prepared {
  FilterParams params;  // concrete: never VariantId::Auto
  FilterParams autoParams;  // the Auto set it was chosen for (variant Invalid when not auto)
  bool stopgap = false;  // serves its set (auto, or a variant that compiles each mask) until its own kernel is prepared
  PixelFormat format = PixelFormat::Invalid;
  const VariantInfo* variant = nullptr;
  std::vector<KernelPass> passes;  // kernelPasses(*variant)
  std::vector<cl::Kernel> kernels;  // one per pass
  int wx = 0, wy = 0, packet = 1;
  int blockX = 1, blockY = 1;  // outputs per work-item across and down
  std::uint64_t localBytes = 0;
  // A pass of its own shape (`separable`'s column pass): that shape, block and local memory.
  int colWx = 0, colWy = 0, colPacket = 1, colBlockX = 1, colBlockY = 1;
  std::uint64_t colLocalBytes = 0;
  cl::Buffer maskBuffer, maskBuffer2;  // the mask (or row taps) and the column taps
  float scale = 1, offset = 0;
};

DeviceImage allocateDeviceImage(const cl::Context& context, int width, int height, PixelFormat format,
                                cl_mem_flags flags, std::size_t pitchBytes) {
  DeviceImage img;
  img.width = width;
  img.height = height;
  img.format = format;
  img.pitchBytes = pitchBytes ? pitchBytes : static_cast<std::size_t>(width) * bytesPerPixel(format);
  img.buffer = cl::Buffer(context, flags, std::max<std::size_t>(1, img.pitchBytes * height));
  return img;
}

Convolver::Convolver(std::shared_ptr<DeviceContext> device, std::shared_ptr<ProgramCache> cache,
                     std::shared_ptr<AutoTuner> tuner)
    : device_(std::move(device)), cache_(std::move(cache)), tuner_(tuner ? std::move(tuner) : AutoTuner::shared()) {}

Convolver::~Convolver() = default;

void Convolver::setParams(const FilterParams& params) {
  params.mask.validate();
  if (params.border == BorderMode::Invalid) throw InvalidArgument("No border mode chosen.");
  if (params.alpha == AlphaMode::Invalid) throw InvalidArgument("No alpha mode chosen.");
  const VariantInfo& v = variantInfo(params.variant);
  if (params.workgroup.x < 0 || params.workgroup.y < 0 || (params.workgroup.x == 0) != (params.workgroup.y == 0))
    throw InvalidArgument("A workgroup shape needs both sides, each at least 1 (or neither, for the default).");
  if (params.packet != 0 && params.packet != 1 && params.packet != 2 && params.packet != 4 && params.packet != 8 &&
      params.packet != 16 && params.packet != 32)
    throw InvalidArgument("A packet is 1, 2, 4, 8, 16 or 32 outputs per work-item.");
  if (params.mask.width > v.maxMaskSide || params.mask.height > v.maxMaskSide)
    throw UnsupportedError(std::string("Variant ") + v.name + " takes masks up to " + std::to_string(v.maxMaskSide) +
                           " wide and high.");
  if (v.needsSeparableMask && !factorSeparable(params.mask, nullptr))
    throw UnsupportedError(std::string("Variant ") + v.name + " needs a rank-1 (separable) mask; this one is not.");
  params_ = params;
}

FilterParams Convolver::concreteParams(PixelFormat format, int width, int height) {
  if (params_.variant != VariantId::Auto) return params_;
  const bool sizeKnown = width > 0 && height > 0;
  if (sizeKnown && policy_ == BuildPolicy::Blocking)
    return tuner_->resolve(device_, cache_, params_, format, width, height, interrupt_);
  // No race here: the size is not known yet, or this is a frame path.
  if (sizeKnown)
    if (std::optional<FilterParams> known = tuner_->lookup(device_->info, params_, format, width, height)) return *known;
  // What runs keeps running (any concrete kernel is right at any size), until a
  // race on a KernelBuilder has answered for this size.
  if (current_ && current_->format == format && current_->autoParams == params_) return current_->params;
  return AutoTuner::provisional(params_, device_->info.kind);
}

bool Convolver::hasFormat(PixelFormat format) const {
  for (const auto& p : prepared_)
    if (p->format == format) return true;
  return false;
}

bool Convolver::awaitsRace(PixelFormat format, int width, int height) {
  return params_.variant == VariantId::Auto && width > 0 && height > 0 &&
         !tuner_->lookup(device_->info, params_, format, width, height);
}

bool Convolver::readyFor(PixelFormat format, int width, int height) {
  if (awaitsRace(format, width, height)) return false;
  const FilterParams concrete = concreteParams(format, width, height);
  for (const auto& p : prepared_)
    if (p->format == format && p->params == concrete) return true;
  return false;
}

std::unique_ptr<Convolver::Prepared> Convolver::build(const FilterParams& params, PixelFormat format, bool cachedOnly) {
  const VariantInfo& v = variantInfo(params.variant);
  auto p = std::make_unique<Prepared>();
  p->passes = kernelPasses(v);
  WorkgroupFit fit(v, p->passes, params, format, device_->info);
  fit.fitDevice();
  const bool user = v.id == VariantId::User;
  const UserKernel own = user ? userKernel(params.userKernel) : UserKernel();
  if (user && own.path.empty())
    throw InvalidArgument("The variant user runs a kernel of your own: give its file with --kernel-file FILE.cl.");
  std::string text = kernelSource("common.cl") + "\n" + (user ? own.text : kernelSource(v.sourceFile));
  if (v.binding == MaskBinding::Baked) text = bakedMaskSource(params.mask, v, format) + text;
  const std::string key = user ? own.path + "#" + own.digest
                               : std::string(v.sourceFile) + "#" + std::to_string(std::hash<std::string>{}(text));
  // Compiled for the shapes, then checked against what the compiled kernels
  // allow; a shape that shrank is compiled again (LX and LY are build options).
  do {
    if (cachedOnly)
      for (const KernelPass& pass : p->passes)
        if (!cache_->contains(device_->info.device, key, fit.programOptions(pass))) return nullptr;
    p->kernels.clear();
    for (const KernelPass& pass : p->passes)
      p->kernels.emplace_back(passProgram(key, text, fit.programOptions(pass), own), pass.entry);
  } while (!fit.fitKernels(p->passes, p->kernels));
  fit.describe(*p);
  p->params = params;
  p->format = format;
  p->variant = &v;
  // Buffers are created with their contents (COPY_HOST_PTR): nothing is queued,
  // so this is safe on a worker thread and kernels already queued keep theirs.
  auto constants = [&](const std::vector<float>& values) {
    return cl::Buffer(device_->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(float),
                      const_cast<float*>(values.data()));
  };
  if (v.needsSeparableMask) {
    const SeparableFactors f = separableFactors(params.mask);
    p->maskBuffer = constants(f.row);
    p->maskBuffer2 = constants(f.column);
  } else {
    p->maskBuffer = constants(params.mask.coefficients);
  }
  if (user) checkUserKernel(*p, own);
  return p;
}

cl::Program Convolver::passProgram(const std::string& key, const std::string& text, const std::string& options,
                                   const UserKernel& own) const {
  if (own.path.empty()) return cache_->get(device_->context, device_->info.device, key, text, options);
  try {
    return cache_->get(device_->context, device_->info.device, key, text, options);
  } catch (const BuildError& e) {
    throw BuildError("The kernel file " + own.path + " does not build; the compiler's log follows.", e.buildLog());
  }
}

// The user's kernel, run once on a small frame of an odd size (not a multiple
// of any work-group, every border reached) and compared with the CPU
// reference, as `auto` checks each candidate: a kernel that computes wrong
// never reaches a frame.
void Convolver::checkUserKernel(Prepared& p, const UserKernel& own) {
  constexpr int kWidth = 53, kHeight = 37;
  const Image in = randomImage(kWidth, kHeight, p.format, 7);
  Image want(kWidth, kHeight, p.format), got(kWidth, kHeight, p.format);
  convolveReference(in.view(), want.view(), p.params.mask, p.params.border, p.params.alpha);
  const DeviceImage src = allocateDeviceImage(device_->context, kWidth, kHeight, p.format, CL_MEM_READ_ONLY);
  const DeviceImage dst = allocateDeviceImage(device_->context, kWidth, kHeight, p.format, CL_MEM_READ_WRITE);
  const cl::CommandQueue& q = device_->queue;
  q.enqueueWriteBuffer(src.buffer, CL_TRUE, 0, in.sizeBytes(), in.data());
  std::vector<unsigned char> zero(got.sizeBytes(), 0);
  q.enqueueWriteBuffer(dst.buffer, CL_TRUE, 0, zero.size(), zero.data());
  cl::Event done;
  enqueuePrepared(p, q, src, dst, nullptr, &done, nullptr);
  done.wait();
  q.enqueueReadBuffer(dst.buffer, CL_TRUE, 0, got.sizeBytes(), got.data());
  const int tolerance = p.params.mask.toleranceLsb(maxSampleValue(p.format));
  if (const auto mismatch = compareImages(got.view(), want.view(), tolerance))
    throw BuildError("The kernel file " + own.path + " computes wrong results: " + mismatch->toString() + ".",
                     "It built, and ran on a " + std::to_string(kWidth) + "x" + std::to_string(kHeight) + " " +
                         toString(p.format) + " frame of random pixels (mask " + std::to_string(p.params.mask.width) +
                         "x" + std::to_string(p.params.mask.height) + ", border " + toString(p.params.border) +
                         "); there its result and the CPU reference's differ by more than " +
                         std::to_string(tolerance) + (tolerance == 0 ? " (an integer mask is exact)." : "."));
}

Convolver::Prepared& Convolver::preparedFor(PixelFormat format, int width, int height, bool mayServeStale) {
  if (bytesPerPixel(format) == 0) throw InvalidArgument("No pixel format given.");
  const FilterParams concrete = concreteParams(format, width, height);

  FilterParams chosenFor = params_;  // the Auto set behind `concrete`, if any
  if (chosenFor.variant != VariantId::Auto) chosenFor.variant = VariantId::Invalid;
  for (auto& p : prepared_)
    if (p->format == format && p->params == concrete) {
      p->autoParams = chosenFor;
      return *(current_ = p.get());
    }

  if (policy_ == BuildPolicy::FramePath) {
    // A frame path never compiles: what ran serves until a KernelBuilder hands over a newer Convolver.
    if (mayServeStale && current_ && current_->format == format) return *current_;
    for (auto& p : prepared_)
      if (p->format == format) return *(current_ = p.get());
    throw Error(std::string("No kernel was prepared for ") + toString(format) +
                " frames before they reached the frame path.");
  }
  if (prepared_.size() >= 32) {  // a long session of edits: keep only what is in use
    std::unique_ptr<Prepared> keep;
    for (auto& p : prepared_)
      if (p.get() == current_) keep = std::move(p);
    prepared_.clear();
    if (keep) prepared_.push_back(std::move(keep));
  }
  prepared_.push_back(build(concrete, format));
  prepared_.back()->autoParams = chosenFor;
  return *(current_ = prepared_.back().get());
}

void Convolver::prepare(PixelFormat format, int width, int height) { preparedFor(format, width, height, false); }

bool Convolver::prepareIfCached(PixelFormat format) {
  if (params_.variant == VariantId::Auto) return false;
  std::unique_ptr<Prepared> p = build(params_, format, true);
  if (!p) return false;
  p->autoParams = params_;
  p->autoParams.variant = VariantId::Invalid;  // as preparedFor() marks a set that is no `auto`
  prepared_.push_back(std::move(p));
  current_ = prepared_.back().get();
  return true;
}

void Convolver::checkDeviceFit(PixelFormat format) const {
  if (params_.variant == VariantId::Auto) return;
  const VariantInfo& v = variantInfo(params_.variant);
  WorkgroupFit(v, kernelPasses(v), params_, format, device_->info).fitDevice();
}

bool Convolver::prepareStopgap(PixelFormat format, VariantId stopgap, bool cachedOnly) {
  if (!servedByStopgap(params_.variant))
    throw InvalidArgument(std::string("Variant ") + variantInfo(params_.variant).name +
                          " takes the mask at run time: it needs no stopgap kernel.");
  checkDeviceFit(format);
  FilterParams concrete = params_;
  concrete.variant = stopgap;
  concrete.workgroup = {};
  concrete.packet = 0;
  std::unique_ptr<Prepared> p = build(concrete, format, cachedOnly);
  if (!p) return false;
  prepared_.push_back(std::move(p));
  prepared_.back()->autoParams = params_;  // serves the set until its own kernel is prepared
  prepared_.back()->stopgap = true;
  current_ = prepared_.back().get();
  return true;
}

ActiveKernel Convolver::activeKernel(PixelFormat format, int width, int height) {
  const Prepared& p = preparedFor(format, width, height, true);
  ActiveKernel a = describe(p);
  a.upToDate = p.params == concreteParams(format, width, height);
  return a;
}

ActiveKernel Convolver::lastRun() const {
  return current_ ? describe(*current_) : ActiveKernel();
}

ActiveKernel Convolver::describe(const Prepared& p) {
  ActiveKernel a;
  a.variant = p.params.variant;
  a.workgroup = {p.wx, p.wy};
  a.packet = p.packet;
  a.localBytes = p.localBytes;
  a.columnWorkgroup = {p.colWx, p.colWy};
  a.columnPacket = p.colPacket;
  a.stopgap = p.stopgap;
  return a;
}

std::size_t Convolver::devicePitchBytes(PixelFormat format, int width, int height) {
  const Prepared& p = preparedFor(format, width, height, true);
  const std::size_t tight = static_cast<std::size_t>(width) * bytesPerPixel(format);
  if (p.variant->rowAlignBytes == 0) return tight;
  const std::size_t groupRow = static_cast<std::size_t>(p.wx) * bytesPerPixel(format);
  return roundUp(tight, std::lcm(static_cast<std::size_t>(p.variant->rowAlignBytes), groupRow));
}

void Convolver::enqueue(const DeviceImage& src, const DeviceImage& dst, const std::vector<cl::Event>* waitFor,
                        cl::Event* done, cl::Event* first) {
  if (src.width != dst.width || src.height != dst.height || src.format != dst.format)
    throw InvalidArgument("Source and destination frames differ in size or format.");
  if (src.width <= 0 || src.height <= 0) throw InvalidArgument("A frame must be at least 1x1 pixels.");
  enqueuePrepared(preparedFor(src.format, src.width, src.height, true), device_->queue, src, dst, waitFor, done, first);
}

void Convolver::runOnce(const cl::CommandQueue& queue) {
  constexpr int kSide = 64;  // one work-group or more of every variant's default shape
  for (const auto& p : prepared_) {
    const DeviceImage src = allocateDeviceImage(device_->context, kSide, kSide, p->format, CL_MEM_READ_ONLY, 0);
    const DeviceImage dst = allocateDeviceImage(device_->context, kSide, kSide, p->format, CL_MEM_WRITE_ONLY, 0);
    cl::Event done;
    enqueuePrepared(*p, queue, src, dst, nullptr, &done, nullptr);
    done.wait();
  }
}

std::vector<Convolver::PreparedSet> Convolver::preparedSets() const {
  std::vector<PreparedSet> sets;
  for (const auto& p : prepared_) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over each pass's source and options
    auto mix = [&h](const std::string& text) {
      for (const unsigned char c : text) h = (h ^ c) * 1099511628211ull;
      h = (h ^ 0xffu) * 1099511628211ull;
    };
    for (const cl::Kernel& k : p->kernels) {
      const cl::Program program = k.getInfo<CL_KERNEL_PROGRAM>();
      mix(program.getInfo<CL_PROGRAM_SOURCE>());
      mix(program.getBuildInfo<CL_PROGRAM_BUILD_OPTIONS>(device_->info.device));
      mix(k.getInfo<CL_KERNEL_FUNCTION_NAME>());
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    sets.push_back({p->params, p->format, hex});
  }
  return sets;
}

std::string Convolver::PreparedSet::launchKey() const {
  return programKey + "\t" + variantInfo(params.variant).name + "\t" + toString(format) + "\t" +
         std::to_string(params.workgroup.x) + "x" + std::to_string(params.workgroup.y) + "\t" +
         std::to_string(params.packet);
}

void Convolver::enqueuePrepared(Prepared& p, const cl::CommandQueue& queue, const DeviceImage& src,
                                const DeviceImage& dst, const std::vector<cl::Event>* waitFor, cl::Event* done,
                                cl::Event* first) {
  const cl::CommandQueue& q = queue;
  std::vector<cl::Event> before = waitFor ? *waitFor : std::vector<cl::Event>();
  bool firstSet = false;
  for (std::size_t i = 0; i < p.passes.size(); ++i) {
    const KernelPass& pass = p.passes[i];
    if (pass.in == PassData::Image) {
      cl::Event copied = copyIntoImage(q, src, before);
      before = {copied};
      if (first && !firstSet) *first = copied, firstSet = true;
    }
    setPassArgs(p, i, src, dst);
    const int lx = pass.ownShape ? p.colWx : p.wx, ly = pass.ownShape ? p.colWy : p.wy;
    const int bx = pass.ownShape ? p.colBlockX : p.blockX, by = pass.ownShape ? p.colBlockY : p.blockY;
    const int itemsAcross = p.variant->wholeRows ? 1 : (src.width + bx - 1) / bx;
    const cl::NDRange global(roundUp(itemsAcross, lx), roundUp((src.height + by - 1) / by, ly));
    cl::Event ran;
    q.enqueueNDRangeKernel(p.kernels[i], cl::NullRange, global, cl::NDRange(lx, ly), before.empty() ? nullptr : &before,
                           &ran);
    before = {ran};
    if (first && !firstSet) *first = ran, firstSet = true;
  }
  if (done) *done = before.front();
}

// The arguments of pass `i` as its KernelPass lists them (kernels/*.cl).
void Convolver::setPassArgs(Prepared& p, std::size_t i, const DeviceImage& src, const DeviceImage& dst) {
  const KernelPass& pass = p.passes[i];
  cl::Kernel& k = p.kernels[i];
  const Mask& m = p.params.mask;
  const int bpp = bytesPerPixel(src.format);
  const cl_int srcPitch = static_cast<cl_int>(src.pitchBytes / bpp);
  const cl_int dstPitch = static_cast<cl_int>(dst.pitchBytes / bpp);
  const cl_int midPitch = static_cast<cl_int>(roundUp(src.width, 4));  // whole float4 words
  const bool usesIntermediate = pass.in == PassData::Intermediate || pass.out == PassData::Intermediate;
  if (usesIntermediate) ensureIntermediate(p, src, midPitch);
  const bool writesFrame = pass.out == PassData::Frame;
  for (std::size_t a = 0; a < pass.args.size(); ++a) {
    const auto n = static_cast<cl_uint>(a);
    switch (pass.args[a]) {
      case KernelArg::In:
        if (pass.in == PassData::Image) k.setArg(n, image_);
        else k.setArg(n, pass.in == PassData::Intermediate ? intermediate_ : src.buffer);
        break;
      case KernelArg::InPitch: k.setArg(n, pass.in == PassData::Intermediate ? midPitch : srcPitch); break;
      case KernelArg::Out: k.setArg(n, writesFrame ? dst.buffer : intermediate_); break;
      case KernelArg::OutPitch: k.setArg(n, writesFrame ? dstPitch : midPitch); break;
      case KernelArg::Width: k.setArg(n, static_cast<cl_int>(src.width)); break;
      case KernelArg::Height: k.setArg(n, static_cast<cl_int>(src.height)); break;
      case KernelArg::Taps: k.setArg(n, pass.taps == PassTaps::Column ? p.maskBuffer2 : p.maskBuffer); break;
      case KernelArg::TapsWidth: k.setArg(n, static_cast<cl_int>(pass.taps == PassTaps::Column ? 1 : m.width)); break;
      case KernelArg::TapsHeight: k.setArg(n, static_cast<cl_int>(pass.taps == PassTaps::Row ? 1 : m.height)); break;
      case KernelArg::Scale: k.setArg(n, writesFrame ? p.scale : 1.0f); break;
      case KernelArg::Offset: k.setArg(n, writesFrame ? p.offset : 0.0f); break;
      case KernelArg::LocalTile: k.setArg(n, cl::Local(pass.ownShape ? p.colLocalBytes : p.localBytes)); break;
      case KernelArg::ColumnTaps: k.setArg(n, p.maskBuffer2() ? p.maskBuffer2 : p.maskBuffer); break;
      case KernelArg::StreamStores: {
        // Results past the caches when the frame in and out would fill half of them anyway.
        const std::uint64_t frameBytes = static_cast<std::uint64_t>(src.pitchBytes + dst.pitchBytes) * src.height;
        k.setArg(n, static_cast<cl_int>(frameBytes > device_->info.globalCacheBytes / 2 ? 1 : 0));
        break;
      }
      case KernelArg::Frame: k.setArg(n, src.buffer); break;
      case KernelArg::FramePitch: k.setArg(n, srcPitch); break;
      case KernelArg::Invalid: throw Error("A kernel argument without a meaning.");
    }
  }
}

// Planar floats between two passes: one plane per filtered channel, rows of
// whole float4 words (kernels/packet.cl); grown, never shrunk.
void Convolver::ensureIntermediate(const Prepared& p, const DeviceImage& src, int pitchFloats) {
  const int planes = channelCount(src.format) == 4 ? (p.params.alpha == AlphaMode::Filter ? 4 : 3) : 1;
  const std::size_t bytes = static_cast<std::size_t>(planes) * pitchFloats * src.height * sizeof(float);
  if (intermediateBytes_ >= bytes) return;
  intermediate_ = cl::Buffer(device_->context, CL_MEM_READ_WRITE, bytes);
  intermediateBytes_ = bytes;
}

// The frame into the image2d_t a pass reads through a sampler; (re)made for a new size or format.
cl::Event Convolver::copyIntoImage(const cl::CommandQueue& q, const DeviceImage& src, const std::vector<cl::Event>& after) {
  const int bpp = bytesPerPixel(src.format);
  if (src.pitchBytes != static_cast<std::size_t>(src.width) * bpp)
    throw UnsupportedError("Variant image needs tightly packed rows.");
  if (imageW_ != src.width || imageH_ != src.height || imageFormat_ != src.format) {
    const cl::ImageFormat f(channelCount(src.format) == 4 ? CL_RGBA : CL_R,
                            bytesPerSample(src.format) == 2 ? CL_UNSIGNED_INT16 : CL_UNSIGNED_INT8);
    image_ = cl::Image2D(device_->context, CL_MEM_READ_ONLY, f, src.width, src.height);
    imageW_ = src.width, imageH_ = src.height, imageFormat_ = src.format;
  }
  cl::Event copied;
  q.enqueueCopyBufferToImage(src.buffer, image_, 0, {0, 0, 0},
                             {static_cast<cl::size_type>(src.width), static_cast<cl::size_type>(src.height), 1},
                             after.empty() ? nullptr : &after, &copied);
  return copied;
}

FrameTimings Convolver::process(const ImageView& src, const ImageView& dst) {
  const auto start = std::chrono::steady_clock::now();
  if (src.width != dst.width || src.height != dst.height || src.format != dst.format)
    throw InvalidArgument("Source and destination frames differ in size or format.");
  const std::size_t pitch = devicePitchBytes(src.format, src.width, src.height);
  if (wrapsHostFrames(src, dst, pitch)) {
    FrameTimings t = processInHostMemory(src, dst, pitch);
    t.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return t;
  }
  if (src_.width != src.width || src_.height != src.height || src_.format != src.format || src_.pitchBytes != pitch) {
    src_ = allocateDeviceImage(device_->context, src.width, src.height, src.format, CL_MEM_READ_ONLY, pitch);
    dst_ = allocateDeviceImage(device_->context, src.width, src.height, src.format, CL_MEM_WRITE_ONLY, pitch);
  }
  cl::CommandQueue& q = device_->queue;
  const std::size_t rowBytes = src.rowBytes();
  const cl::array<cl::size_type, 3> origin{0, 0, 0};
  const cl::array<cl::size_type, 3> region{rowBytes, static_cast<cl::size_type>(src.height), 1};
  cl::Event written, first, filtered, read;
  if (src.strideBytes == pitch)
    q.enqueueWriteBuffer(src_.buffer, CL_FALSE, 0, pitch * src.height, src.data, nullptr, &written);
  else
    q.enqueueWriteBufferRect(src_.buffer, CL_FALSE, origin, origin, region, pitch, 0, src.strideBytes, 0, src.data,
                             nullptr, &written);
  enqueue(src_, dst_, nullptr, &filtered, &first);
  if (dst.strideBytes == pitch)
    q.enqueueReadBuffer(dst_.buffer, CL_TRUE, 0, pitch * dst.height, dst.data, nullptr, &read);
  else
    q.enqueueReadBufferRect(dst_.buffer, CL_TRUE, origin, origin, region, pitch, 0, dst.strideBytes, 0, dst.data,
                            nullptr, &read);
  FrameTimings t;
  t.uploadMs = eventMs(written);
  t.kernelMs = eventSpanMs(first, filtered);
  t.readbackMs = eventMs(read);
  t.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return t;
}

// A CPU device (or one that shares host memory) filters the caller's frames
// where they are: no copy in, no copy out.
bool Convolver::wrapsHostFrames(const ImageView& src, const ImageView& dst, std::size_t pitch) const {
  const DeviceInfo& d = device_->info;
  if (d.kind != DeviceKind::CPU && !d.device.getInfo<CL_DEVICE_HOST_UNIFIED_MEMORY>()) return false;
  const auto alignBytes = static_cast<std::uintptr_t>(std::max<cl_uint>(8, d.device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>()) / 8);
  const auto aligned = [&](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % alignBytes == 0; };
  return src.strideBytes == pitch && dst.strideBytes == pitch && aligned(src.data) && aligned(dst.data) &&
         src.data != dst.data;
}

FrameTimings Convolver::processInHostMemory(const ImageView& src, const ImageView& dst, std::size_t pitch) {
  const std::size_t bytes = pitch * src.height;
  DeviceImage in{cl::Buffer(device_->context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, bytes, src.data), src.width,
                 src.height, pitch, src.format};
  DeviceImage out{cl::Buffer(device_->context, CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, bytes, dst.data), dst.width,
                  dst.height, pitch, dst.format};
  cl::CommandQueue& q = device_->queue;
  cl::Event first, filtered, mapped;
  enqueue(in, out, nullptr, &filtered, &first);
  // The map makes the result visible in dst (on a CPU device it is already
  // there: a pointer hand-back). Queued behind the kernel, with the unmap, and
  // waited for once: one wake-up of this thread per frame, not two.
  void* p = q.enqueueMapBuffer(out.buffer, CL_FALSE, CL_MAP_READ, 0, bytes, nullptr, &mapped);
  cl::Event unmapped;
  q.enqueueUnmapMemObject(out.buffer, p, nullptr, &unmapped);
  unmapped.wait();
  FrameTimings t;
  t.kernelMs = eventSpanMs(first, filtered);
  t.readbackMs = eventMs(mapped);
  t.hostFramesWrapped = true;
  return t;
}

}  // namespace liveconv
