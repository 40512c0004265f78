// The double-buffered stream core: frames in from a producer thread, filtered
// frames out to a consumer, the device working on several frames at once.
//
//   push() -> [input queue] -> engine thread "lc-engine" -> [output queue] -> pop()
//
// On the device there are `deviceSlots` sets of buffers, each with pinned host
// staging (CL_MEM_ALLOC_HOST_PTR, mapped once). Upload, kernel and readback go
// to three in-order queues and are ordered with events, so the upload of frame
// N+1 overlaps the kernel of N and the readback of N-1; the engine waits only
// for the readback of the frame whose slot it is about to reuse.
//
// Parameter changes are messages: setParams() validates, the KernelBuilder's
// thread "lc-build" prepares a new Convolver sharing the program cache, and
// the engine swaps it in between two frames. The stream never waits for a
// compile and no frame is filtered half with one set, half with another.
// `auto` races on the builder too, on its own command queue: until the race
// for the frame size has answered, the engine runs what it ran (at first
// AutoTuner::provisional()).
//
// A consumer that shows frames on the same device (the viewer's CL/GL interop)
// asks for keepOnDevice: each output frame then lends the slot's output buffer
// (Frame::onDevice) and nothing is read back unless host pixels are asked for
// too (setDeliverPixels, e.g. while recording). The engine reuses a lent slot
// once the consumer has let it go, its kernel ordered after the consumer's
// last use of that buffer by an event.
//
// A frame may arrive as decoded YUV planes (Frame::yuv): they go up as they
// are and kernels/convert.cl turns them into the engine format on the device,
// on the kernel queue just before the convolution.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "liveconv/autotune.hpp"
#include "liveconv/convolver.hpp"
#include "liveconv/frame.hpp"
#include "liveconv/frame_queue.hpp"
#include "liveconv/kernel_builder.hpp"
#include "liveconv/parallel_copy.hpp"
#include "liveconv/pipeline_stats.hpp"
#include "liveconv/thread_name.hpp"

namespace liveconv {

struct PipelineOptions {
  QueuePolicy policy = QueuePolicy::Lossless;
  int queueCapacity = 3;                    // each of the two queues, 2..4 (see showNewest)
  int deviceSlots = 2;                      // sets of device buffers, 2..4
  PixelFormat format = PixelFormat::RGBA8;  // built up front, so errors show before the stream starts
  // Copy each result out of pinned staging into the output frame. Off for
  // `-o null` and throughput runs: output frames then carry only their metadata.
  // With keepOnDevice and without deliverPixels nothing is read back at all.
  bool deliverPixels = true;
  // Output frames carry the filtered frame in device memory (Frame::onDevice).
  bool keepOnDevice = false;
  // Build the YUV conversion kernel up front (a source that hands out planes);
  // otherwise it is built when the first YUV frame arrives.
  bool prepareYuvConversion = false;
  // The layout of the planes the source announces (YuvLayout::Invalid:
  // unknown). With prepareYuvConversion and the expected size, the
  // constructor converts one frame of it: a CPU device (PoCL) compiles a
  // kernel for its launch on the first one, 0.5 s on the 2-core machine,
  // which would otherwise stall the first frames.
  YuvLayout expectedLayout = YuvLayout::Invalid;
  // Frames that come as planes (Frame::yuv) come out with the picture they
  // were converted into as their source pixels (Frame::sourcePixels and
  // sourceOwner, as lent frames do), read back from the device: what a window
  // shows beside the result (compare split) and checks it against.
  bool returnSource = false;
  // Where `auto` keeps its answers; null: AutoTuner::shared().
  std::shared_ptr<AutoTuner> tuner;
  // The frame size the source announces (0: unknown). `auto` races for it in
  // the constructor, before the stream starts, so a file is filtered by one
  // kernel from its first frame to its last; without it the first frames run
  // the provisional kernel while the builder races. With liveEdits the
  // constructor races nothing: its first kernel comes from the builder (a
  // stopgap where this size affords it), and the race for it follows there.
  int expectedWidth = 0, expectedHeight = 0;
  // On a device that shares host memory (a CPU device, or one reporting
  // CL_DEVICE_HOST_UNIFIED_MEMORY), frames of mapMinFrameBytes and more (in the
  // engine format) are written into and read out of the device buffers through
  // maps: no upload and no readback copy. Smaller frames, and all frames when
  // off, go through staging and copies as on a discrete GPU: their copies stay
  // in the core's caches and cost less than the map commands (docs/benchmarks.md).
  bool mapHostMemory = true;
  std::size_t mapMinFrameBytes = std::size_t{2} << 20;
  // Live edits (a window): the first kernel comes from the builder
  // (KernelBuilder::first), and the builder compiles the set in force for the
  // other pixel format when it has time (KernelBuilder::setIdleWork), so a
  // format switch finds its kernel built. Off for runs, where nothing switches.
  bool liveEdits = false;
  // With liveEdits on a CPU device: where the builder makes its first
  // launches (KernelBuilder::setFirstLaunchElsewhere); empty: here.
  FirstLaunchElsewhere firstLaunchElsewhere;
  // A picture on screen (a window; needs QueuePolicy::Live): one frame on the
  // device at a time and one waiting, the newest (an older one waiting is
  // dropped as engine late). Where the device is slower than the source, a
  // frame then reaches the screen about one kernel time after it was decoded,
  // not after the queues' worth of frames ahead of it, and so does an edit.
  // Costs the overlap of one frame's upload with another's kernel: for
  // pictures, not for files.
  bool showNewest = false;
  // Finished frames handed out as soon as the input is idle, as the live
  // policy does, without its drops: a lossless pipeline that a live channel
  // feeds (PlanesChannel's planes in a window, where a paused picture's
  // refilter is the only frame to come).
  bool handOutWhenIdle = false;
  // The caller's own number for the initial set (Frame::paramsTag), as setParams' tag.
  std::uint64_t paramsTag = 0;
};

// What the stream loop drives: frames pushed by a decode thread, popped in
// order by the output thread, with one stats structure. The Pipeline filters
// them on the device; PassThrough hands them on untouched (decode-only runs).
class FrameChannel {
 public:
  virtual ~FrameChannel() = default;
  virtual bool push(Frame frame) = 0;
  virtual void endOfInput() = 0;
  virtual std::optional<Frame> pop() = 0;
  virtual void cancel() = 0;
  virtual PipelineStats& stats() = 0;
  virtual QueuePolicy policy() const = 0;
};

// A channel whose filter changes while frames flow, as a window's feed steers
// it between frames: Pipeline is one, PlanesChannel (a pipeline per plane of
// the source) another. The members are Pipeline's, documented there.
class LiveChannel : public FrameChannel {
 public:
  struct ParamsState {
    bool known = false;  // a tag handed in (one of the newest 64)
    bool built = false;  // its kernel is ready (or the stopgap that stands in for it while it builds)
    bool failed =
        false;  // its build failed: `error` is the sentence, `buildLog` the compiler's (empty when no compile failed)
    bool current = false;  // the frames the engine filters now carry this tag
    std::string error, buildLog;
  };
  virtual void setParams(const FilterParams& params, std::uint64_t tag = 0,
                         PixelFormat format = PixelFormat::Invalid) = 0;
  virtual ParamsState paramsState(std::uint64_t tag) const = 0;
  virtual bool kernelWaiting() const = 0;
  virtual FilterParams currentParams() const = 0;
  virtual VariantId lastVariant() const = 0;
  virtual bool compareVariants() = 0;
  virtual bool comparing() const = 0;
  virtual std::shared_ptr<const RaceReport> lastRace() const = 0;
  virtual void setDeliverPixels(bool on) = 0;
};

// No device: frames go from push() to pop() through one bounded queue with the
// given policy, counted like the Pipeline counts them (decode and convert
// stages, frames in and out, drops). The reference that `run --decode-only`
// measures the filter against.
class PassThrough : public FrameChannel {
 public:
  PassThrough(QueuePolicy policy, int queueCapacity);
  bool push(Frame frame) override;
  void endOfInput() override { queue_.close(); }
  std::optional<Frame> pop() override;
  void cancel() override { queue_.cancel(); }
  PipelineStats& stats() override { return stats_; }
  QueuePolicy policy() const override { return queue_.policy(); }

 private:
  PipelineStats stats_;
  BoundedQueue<Frame> queue_;
};

class Pipeline : public LiveChannel {
 public:
  // Builds the kernel for `options.format` now (throws BuildError,
  // UnsupportedError, InvalidArgument) and starts the engine and builder threads.
  Pipeline(std::shared_ptr<DeviceContext> device, const FilterParams& params, const PipelineOptions& options,
           std::shared_ptr<ProgramCache> cache = std::make_shared<ProgramCache>());
  ~Pipeline();  // cancels what is queued and joins the threads
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // Producer side. Lossless: waits for room. Live: drops the oldest waiting
  // frame (counted as EngineLate). False once the pipeline is closed.
  bool push(Frame frame) override;
  // No more input; frames in flight still come out of pop().
  void endOfInput() override;

  // Consumer side: the next filtered frame in order; nullopt at the end.
  // Rethrows an error the engine thread met (after the frames before it).
  std::optional<Frame> pop() override;

  // Takes a parameter snapshot; validates it now (throws InvalidArgument),
  // builds it off the frame path and applies it at the next frame boundary
  // after the build. `tag`: the caller's own number for the set (a window's
  // model version; PipelineOptions::paramsTag names the first set), the only
  // name it is known by: every frame it filters carries it as
  // Frame::paramsTag, and waitParamsBuilt() and paramsFailed() take it. A tag
  // handed in again names the newest set given with it. `format`: the pixel
  // format the source is about to switch to (Invalid: the one that streams);
  // frames of the old format in flight keep their kernel, and the set takes
  // over with the first frame of the new one.
  void setParams(const FilterParams& params, std::uint64_t tag = 0, PixelFormat format = PixelFormat::Invalid) override;
  // Where the set tagged `tag` stands, in one answer (a UI polls it without
  // waiting; the pipeline is the one place that knows): built, failed (the
  // stream goes on with the set before it) or the one the engine filters with now.
  ParamsState paramsState(std::uint64_t tag) const override;
  // Waits until the set tagged `tag` is built (true) or has failed (false,
  // see paramsState()), at most timeoutMs; false for a tag never handed in.
  bool waitParamsBuilt(std::uint64_t tag, int timeoutMs);
  // True while the builder has a kernel ready that the next frame boundary
  // takes: a later step of the set that runs (the kernel its stopgap stood
  // in for, `auto`'s provisional kernel or race winner) or a newer set. A
  // paused window filters its frame again to show it.
  bool kernelWaiting() const override { return builder_->hasBuilt(); }
  FilterParams currentParams() const override;
  // The concrete variant that filtered the last frame (what `auto` chose);
  // Invalid before the first frame.
  VariantId lastVariant() const override { return static_cast<VariantId>(lastVariant_.load()); }
  // The kernel the constructor prepared for the announced size: for `auto`, what its race chose.
  const ActiveKernel& prepared() const { return prepared_; }
  // True when the frames of the current size reach the device buffers through
  // maps (PipelineOptions::mapHostMemory, mapMinFrameBytes).
  bool mapsHostMemory() const { return mapsHost_.load(); }

  // "Compare variants on this frame": races auto's candidates for the set
  // that runs (its mask, border, alpha; the format and size of the frames
  // that stream) on a thread of its own, "lc-compare", and changes nothing
  // that runs; the report is the tuner's (lastRace()). False, and nothing
  // starts, while a comparison runs or before the first frame.
  bool compareVariants() override;
  bool comparing() const override { return comparing_.load(); }
  // The tuner's last race (auto's own, or a comparison); null before any.
  std::shared_ptr<const RaceReport> lastRace() const override;

  // Stops at once: queued frames are discarded, threads end.
  void cancel() override;

  // Host pixels in the output frames from the next frame submitted on
  // (PipelineOptions::deliverPixels); frames already on the device keep what
  // they were submitted with.
  void setDeliverPixels(bool on) override { deliverPixels_ = on; }

  PipelineStats& stats() override { return stats_; }
  QueuePolicy policy() const override { return options_.policy; }
  const PipelineOptions& options() const { return options_; }

 private:
  struct Slot;
  struct Lending;  // which slots' output buffers are lent out as DeviceFrames
  void engineLoop();
  // At a frame boundary: takes a Convolver the builder finished, for a frame
  // of `frameFormat`; one built for another format (a switch the source has
  // not reached yet) waits in parked_ for the first frame of its format.
  void applyBuiltParams(PixelFormat frameFormat);
  void adopt(std::unique_ptr<Convolver> next, std::uint64_t generation, std::uint64_t tag);
  void askForRace(PixelFormat format, int width, int height);
  bool awaitFormat(PixelFormat format, int width, int height);
  void ensureSlots(int width, int height, PixelFormat format);
  void releaseSlots();
  bool waitUntilReturned(const Slot& slot, cl::Event* lastUse);
  void submit(Slot& slot, Frame frame, const cl::Event& lastUse);
  cl::Event uploadPlanes(Slot& slot, Frame& frame);
  cl::Event uploadPixels(Slot& slot, Frame& frame);
  // Maps `buffer` for writing once `after` is done (non-blocking): *ptr now, *ready when it may be written.
  void premap(void** ptr, cl::Event* ready, const cl::Buffer& buffer, std::size_t bytes,
              const std::vector<cl::Event>* after);
  void deliver(Slot& slot);
  void queueSourceRead(Slot& slot);
  void launchYuvConversionOnce();
  void drainInFlight();

  std::shared_ptr<DeviceContext> device_;
  std::shared_ptr<ProgramCache> cache_;
  PipelineOptions options_;
  PipelineStats stats_;
  BoundedQueue<Frame> input_, output_;
  std::atomic<bool> deliverPixels_;
  std::shared_ptr<Lending> lending_;

  // The builder's own numbers for the sets (the caller knows them by their tags).
  static constexpr std::uint64_t kFirstGeneration = 1;
  std::uint64_t generationOf(std::uint64_t tag) const;  // 0: a tag never handed in

  // Owned by the engine thread.
  std::unique_ptr<Convolver> convolver_;
  std::unique_ptr<YuvConverter> yuvConverter_;
  std::uint64_t activeGeneration_ = kFirstGeneration;
  std::atomic<std::uint64_t> activeTag_{0};  // the caller's number for the set that runs
  std::unique_ptr<Convolver> parked_;  // built for a format the frames have not switched to yet
  std::uint64_t parkedGeneration_ = 0, parkedTag_ = 0;
  PixelFormat parkedFormat_ = PixelFormat::Invalid;  // the format the parked set was asked for
  cl::CommandQueue uploadQueue_, readbackQueue_;  // the kernel runs on device_->queue
  bool sharesHost_ = false;             // the device shares host memory
  std::atomic<bool> mapsHost_{false};  // see mapsHostMemory(); set with the slots
  std::vector<std::unique_ptr<Slot>> slots_;
  std::size_t nextSlot_ = 0;

  // Parameter messages: setParams() -> builder_ -> the engine (applyBuiltParams).
  std::unique_ptr<KernelBuilder> builder_;
  mutable std::mutex paramsMutex_;  // current_, nextGeneration_, generations_, asked_, engineError_
  std::uint64_t nextGeneration_ = kFirstGeneration + 1;
  std::map<std::uint64_t, std::uint64_t> generations_;  // tag -> the builder's number, the newest 64 tags
  struct Asked {
    std::uint64_t generation = 0;
    PixelFormat format = PixelFormat::Invalid;
  } asked_;  // the newest setParams(), and the format it was built for
  FilterParams current_;
  std::atomic<int> currentFormat_{0};
  std::atomic<int> lastVariant_{0};
  ActiveKernel prepared_;
  std::atomic<int> frameWidth_{0}, frameHeight_{0};  // of the slots: what the builder prepares (and `auto` races) for
  struct RaceKey {
    std::uint64_t generation = 0;
    int format = 0, width = 0, height = 0;
    bool operator==(const RaceKey& o) const {
      return generation == o.generation && format == o.format && width == o.width && height == o.height;
    }
  };
  RaceKey raceChecked_;  // engine thread: the last set, format and size looked at for `auto`

  std::exception_ptr engineError_;
  ParallelCopy copier_{-1, "lc-copy"};  // lc-engine's copies of whole frames into and out of pinned staging
  std::thread engine_;
  std::thread compare_;  // lc-compare, while a comparison runs; joined by the next one and the destructor
  std::atomic<bool> comparing_{false}, stopCompare_{false};
};

}  // namespace liveconv
