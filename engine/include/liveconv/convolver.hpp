// Runs one variant on one device: host frame in, host frame out, or device
// buffers already resident. Each call returns its timings from CL profiling
// events. The kernels for a parameter set are built on first use through the
// ProgramCache (BuildPolicy::Blocking: tests, bench, batch, and the
// KernelBuilder's thread). A Convolver handed to a frame path is switched to
// BuildPolicy::FramePath: from then on it never compiles and never races; it
// runs what it has prepared, and a change of parameters or of the frame size
// `auto` answered for is built by a KernelBuilder into a new Convolver that
// replaces it at a frame boundary. A Convolver is used from one thread at a time.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "liveconv/cl.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/image.hpp"
#include "liveconv/kernel_sources.hpp"
#include "liveconv/mask.hpp"
#include "liveconv/program_cache.hpp"
#include "liveconv/variants.hpp"

namespace liveconv {

class AutoTuner;

struct WorkgroupShape {
  int x = 0;  // 0: the variant's default, shrunk to fit the device
  int y = 0;
  bool operator==(const WorkgroupShape& o) const { return x == o.x && y == o.y; }
};

struct FilterParams {
  Mask mask;
  BorderMode border = BorderMode::Clamp;
  AlphaMode alpha = AlphaMode::PassThrough;
  VariantId variant = VariantId::Auto;
  WorkgroupShape workgroup;
  int packet = 0;  // outputs per work-item for multi-pixel variants (1..32, see packetShape); 0 = the variant's default
  // Which version of the user's kernel `user` runs (and `auto` races): its
  // digest (kernel_sources.hpp); "" for the one loaded last. A window that
  // reloads the file makes a new set of it, and keeps the old one running
  // while the new one builds or fails.
  std::string userKernel;

  bool operator==(const FilterParams& o) const {
    return mask == o.mask && border == o.border && alpha == o.alpha && variant == o.variant &&
           workgroup == o.workgroup && packet == o.packet && userKernel == o.userKernel;
  }
  bool operator!=(const FilterParams& o) const { return !(*this == o); }
};

enum class BuildPolicy {
  Invalid = 0,
  Blocking,   // a call that needs a new program builds it before returning (tests, bench, batch, KernelBuilder)
  FramePath,  // never builds nor races: runs what was prepared (live display, the Pipeline's engine)
};

struct FrameTimings {
  double uploadMs = 0;    // host -> device, from the write event
  double kernelMs = 0;    // from the first to the last command of the filter (copies into images, both passes)
  double readbackMs = 0;  // device -> host, from the read event
  double wallMs = 0;      // host steady clock around the whole call
  // The device used the caller's frames in host memory (a CPU device, aligned
  // frames): no upload, and "readback" is the map that makes the result visible.
  bool hostFramesWrapped = false;
};

// A frame resident on the device: a buffer of rows `pitchBytes` apart.
struct DeviceImage {
  cl::Buffer buffer;
  int width = 0;
  int height = 0;
  std::size_t pitchBytes = 0;
  PixelFormat format = PixelFormat::Invalid;
};

// The device buffer a frame of this size would need; rows `pitchBytes` apart
// (0 = tightly packed).
DeviceImage allocateDeviceImage(const cl::Context& context, int width, int height, PixelFormat format,
                                cl_mem_flags flags = CL_MEM_READ_WRITE, std::size_t pitchBytes = 0);

// What the variant in use can say about itself, for the UIs and the bench.
struct ActiveKernel {
  VariantId variant = VariantId::Invalid;  // the concrete variant (what `auto` chose)
  WorkgroupShape workgroup;
  int packet = 0;
  std::uint64_t localBytes = 0;
  // `separable`'s column pass (the fields above describe its row pass); 0x0 for other variants.
  WorkgroupShape columnWorkgroup;
  int columnPacket = 0;
  bool upToDate = true;  // false when `auto` has a newer answer for this size than the kernel that runs
  bool stopgap = false;  // a stopgap (prepareStopgap), until the set's own kernel is prepared
};

class Convolver {
 public:
  explicit Convolver(std::shared_ptr<DeviceContext> device,
                     std::shared_ptr<ProgramCache> cache = std::make_shared<ProgramCache>(),
                     std::shared_ptr<AutoTuner> tuner = nullptr);
  ~Convolver();
  Convolver(const Convolver&) = delete;
  Convolver& operator=(const Convolver&) = delete;

  // Validates and takes the parameters; builds nothing yet. Throws InvalidArgument / UnsupportedError.
  void setParams(const FilterParams& params);
  const FilterParams& params() const { return params_; }
  void setBuildPolicy(BuildPolicy policy) { policy_ = policy; }

  // Builds (or finds) the kernels for the current parameters, this format and
  // frame size (the size matters to `auto` only: without one, `auto` builds
  // AutoTuner::provisional(); with one it races when no answer is known).
  // Blocks. Under FramePath it only finds: a format never prepared throws.
  // Throws BuildError / UnsupportedError with a sentence, Cancelled when the
  // interrupt (below) asked a race to stop.
  void prepare(PixelFormat format, int width = 0, int height = 0);
  // For `auto`, and for a variant that compiles each mask or mask size
  // (servedByStopgap()): prepares `stopgap` (a variant that takes the mask at
  // run time, stopgapVariant()) to serve the set until a kernel of its own is
  // prepared; what a FramePath Convolver then runs and lastRun() names.
  // Throws InvalidArgument for a variant that takes the mask at run time.
  // `cachedOnly`: only where its program is already built (no compile: safe
  // on any thread); false when it is not, and nothing was prepared.
  // Throws UnsupportedError, as prepare() would, first where the set's own
  // kernel cannot fit the device at all (a workgroup too large): refused at
  // once, not after a stopgap has served it.
  bool prepareStopgap(PixelFormat format, VariantId stopgap, bool cachedOnly = false);
  // Throws UnsupportedError where the set's own variant cannot fit the
  // device's work-item and local-memory limits in this format; compiles
  // nothing. Nothing for `auto` (it picks what fits).
  void checkDeviceFit(PixelFormat format) const;
  // A set of a concrete variant: prepares it only where its program is built
  // already (no compile: safe on any thread); false when it is not, or for `auto`.
  bool prepareIfCached(PixelFormat format);
  // Asked between the candidates of a race; true stops it (KernelBuilder: a newer request came).
  void setInterrupt(std::function<bool()> interrupt) { interrupt_ = std::move(interrupt); }

  // True when the parameters are `auto` and no race has answered for this
  // format and frame size yet (not even on disk).
  bool awaitsRace(PixelFormat format, int width, int height);
  // False when the next frame of this format and size would run a kernel
  // other than the one `auto` would pick now (no race has answered for the
  // size yet, or the answer is not built): the owner asks a KernelBuilder.
  bool readyFor(PixelFormat format, int width, int height);
  // True when a kernel for this format was prepared (a FramePath Convolver runs only those formats).
  bool hasFormat(PixelFormat format) const;

  // The kernel the last frame ran (variant Invalid before the first); builds
  // nothing, races nothing.
  ActiveKernel lastRun() const;

  // The kernel the next frame of this format and size will use.
  ActiveKernel activeKernel(PixelFormat format, int width = 0, int height = 0);

  // Row pitch the variant wants for its device buffers (padded for local_aligned).
  std::size_t devicePitchBytes(PixelFormat format, int width, int height);

  // Host frame in, host frame out (same size and format). Blocks until done.
  // On a device that works in host memory the frames are wrapped, not copied
  // (when their rows are the device pitch apart and their base addresses meet
  // the device's alignment; Image's always do).
  FrameTimings process(const ImageView& src, const ImageView& dst);

  // Enqueues the filter on resident buffers; does not wait. `waitFor` orders it
  // after other commands; `first` and `done` receive the events of its first
  // and last command (eventSpanMs(first, done) is the filter's device time).
  void enqueue(const DeviceImage& src, const DeviceImage& dst, const std::vector<cl::Event>* waitFor,
               cl::Event* done, cl::Event* first = nullptr);

  // Runs the kernels prepared so far once each, on a small frame, on `queue`
  // (not the device's), and waits. A device that generates a kernel's code at
  // its first launch (PoCL: 50-300 ms on two cores, while nothing else runs
  // on it) does so here; KernelBuilder does this before it hands a Convolver
  // over, so the frame path never meets a first launch.
  void runOnce(const cl::CommandQueue& queue);

  // What was prepared so far, as concrete parameter sets: setParams(params)
  // and prepare(format) on another Convolver (in another process too) build
  // the same programs and run the same work-group shapes.
  struct PreparedSet {
    FilterParams params;  // never VariantId::Auto
    PixelFormat format = PixelFormat::Invalid;
    // A digest (hex) of its programs' sources and build options: with the
    // device, what a driver's own cache of built programs (PoCL's) keys them by.
    std::string programKey;
    // The programs and the work-group shape they run in (tab-separated: the
    // digest, variant, format, shape, packet): two sets with the same launch
    // key launch the same code.
    std::string launchKey() const;
  };
  std::vector<PreparedSet> preparedSets() const;

  const DeviceContext& device() const { return *device_; }
  const std::shared_ptr<DeviceContext>& deviceContext() const { return device_; }
  const std::shared_ptr<ProgramCache>& programCache() const { return cache_; }

 private:
  struct Prepared;
  Prepared& preparedFor(PixelFormat format, int width, int height, bool mayServeStale);
  // `cachedOnly`: null instead of compiling a program the cache does not hold.
  std::unique_ptr<Prepared> build(const FilterParams& concrete, PixelFormat format, bool cachedOnly = false);
  // The program of one pass; for the user's kernel (`own`), a failed build says its file.
  cl::Program passProgram(const std::string& key, const std::string& text, const std::string& options,
                          const UserKernel& own) const;
  void checkUserKernel(Prepared& p, const UserKernel& own);
  FilterParams concreteParams(PixelFormat format, int width, int height);
  static ActiveKernel describe(const Prepared& p);
  // The passes of `p` (kernelPasses(): the registry's layout), in order on `q`.
  void enqueuePrepared(Prepared& p, const cl::CommandQueue& q, const DeviceImage& src, const DeviceImage& dst,
                       const std::vector<cl::Event>* waitFor, cl::Event* done, cl::Event* first);
  void setPassArgs(Prepared& p, std::size_t pass, const DeviceImage& src, const DeviceImage& dst);
  void ensureIntermediate(const Prepared& p, const DeviceImage& src, int pitchFloats);
  cl::Event copyIntoImage(const cl::CommandQueue& q, const DeviceImage& src, const std::vector<cl::Event>& after);
  bool wrapsHostFrames(const ImageView& src, const ImageView& dst, std::size_t pitch) const;
  FrameTimings processInHostMemory(const ImageView& src, const ImageView& dst, std::size_t pitch);

  std::shared_ptr<DeviceContext> device_;
  std::shared_ptr<ProgramCache> cache_;
  std::shared_ptr<AutoTuner> tuner_;
  FilterParams params_;
  BuildPolicy policy_ = BuildPolicy::Blocking;
  std::vector<std::unique_ptr<Prepared>> prepared_;  // one per parameter set seen, bounded
  Prepared* current_ = nullptr;                      // what the last frame ran
  std::function<bool()> interrupt_;
  // Per-size resources, reallocated when the frame size changes.
  DeviceImage src_, dst_;  // staging for process()
  cl::Buffer intermediate_;
  std::size_t intermediateBytes_ = 0;
  cl::Image2D image_;
  int imageW_ = 0, imageH_ = 0;
  PixelFormat imageFormat_ = PixelFormat::Invalid;
};

}  // namespace liveconv
