#include "liveconv/pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "liveconv/errors.hpp"

namespace liveconv {
namespace {

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

PassThrough::PassThrough(QueuePolicy policy, int queueCapacity) : queue_(std::clamp(queueCapacity, 2, 4), policy) {
  if (policy == QueuePolicy::Invalid) throw InvalidArgument("No queue policy chosen.");
}

bool PassThrough::push(Frame frame) {
  stats_.frameIn();
  const PushResult r = queue_.push(std::move(frame));
  if (r == PushResult::QueuedDroppedOldest) stats_.dropped(DropCause::EngineLate);
  return r != PushResult::Closed;
}

std::optional<Frame> PassThrough::pop() {
  std::optional<Frame> frame = queue_.pop();
  if (frame) {
    stats_.addStageMs(Stage::Decode, frame->decodeMs);
    stats_.addStageMs(Stage::Convert, frame->convertMs);
    stats_.frameOut(frame->width(), frame->height(), 0);
  }
  return frame;
}

// One set of device buffers with its pinned host staging, and the frame in it.
struct Pipeline::Slot {
  std::size_t index = 0;           // in slots_
  std::size_t bytes = 0;           // one frame in the engine format
  std::size_t stagingBytes = 0;    // pinnedIn: the engine frame or the YUV planes, whichever is larger
  cl::Buffer pinnedIn, pinnedOut;  // CL_MEM_ALLOC_HOST_PTR, mapped for the slot's lifetime (copying devices)
  std::uint8_t* hostIn = nullptr;
  std::uint8_t* hostOut = nullptr;
  // A device that shares host memory: deviceOut mapped for reading from the
  // kernel's end until deliver() has copied the pixels out, and the unmap that
  // the slot's next kernel waits for.
  void* mappedOut = nullptr;
  cl::Event unmappedOut;
  // ... and deviceIn / deviceYuv mapped for writing ahead of their next frame,
  // queued behind the kernel that last read them, so that the frame's copy
  // never waits for a device that is busy with the frame before.
  struct Premapped {
    void* ptr = nullptr;
    cl::Event ready;
  } in, yuv;
  DeviceImage deviceIn, deviceOut;
  cl::Buffer deviceYuv;  // the planes of a YUV frame, before conversion into deviceIn
  bool busy = false;
  bool converted = false;  // the frame came as YUV planes and `convert` timed their conversion
  bool readBackQueued = false;  // the result is copied into pinnedOut (`readBack`)
  bool hostCopy = false;        // ... and from there into the output frame
  Frame frame;
  std::shared_ptr<Image> source;  // returnSource: the picture the planes became, being read back (sourceRead)
  cl::Event sourceRead;
  std::uint64_t generation = 0, tag = 0;
  VariantId variantAsked = VariantId::Invalid, variantRan = VariantId::Invalid;
  cl::Event uploaded, convert, filtered, readBack;
  cl::Event filterStart;  // the first pass (separable has two): the kernel time spans all passes
};

// The output buffers lent out as DeviceFrames. Shared with the frames, which
// may outlive the pipeline or the slots they came from (a new frame size
// reallocates the slots and starts a new epoch; older frames return to nothing).
struct Pipeline::Lending {
  std::mutex mutex;
  std::condition_variable returned;
  std::uint64_t epoch = 0;
  std::vector<bool> lent;            // per slot
  std::vector<cl::Event> lastUse;    // per slot: what the slot's next kernel waits for
  bool cancelled = false;

  class Lease final : public DeviceFrame {
   public:
    Lease(std::shared_ptr<Lending> lending, std::uint64_t epoch, std::size_t slot, DeviceImage image, cl::Event ready)
        : lending_(std::move(lending)), epoch_(epoch), slot_(slot), image_(std::move(image)), ready_(std::move(ready)) {}
    ~Lease() override {
      std::lock_guard<std::mutex> lock(lending_->mutex);
      if (lending_->epoch == epoch_) {
        lending_->lent[slot_] = false;
        lending_->lastUse[slot_] = lastUse_;
      }
      lending_->returned.notify_all();
    }
    const DeviceImage& image() const override { return image_; }
    const cl::Event& ready() const override { return ready_; }
    void doneWith(const cl::Event& lastUse) override { lastUse_ = lastUse; }

   private:
    std::shared_ptr<Lending> lending_;
    std::uint64_t epoch_;
    std::size_t slot_;
    DeviceImage image_;
    cl::Event ready_, lastUse_;
  };
};

Pipeline::Pipeline(std::shared_ptr<DeviceContext> device, const FilterParams& params, const PipelineOptions& options,
                   std::shared_ptr<ProgramCache> cache)
    : device_(std::move(device)),
      cache_(std::move(cache)),
      options_(options),
      input_(options.showNewest ? 1 : std::clamp(options.queueCapacity, 2, 4), options.policy),
      output_(std::clamp(options.queueCapacity, 2, 4), options.policy),
      deliverPixels_(options.deliverPixels),
      lending_(std::make_shared<Lending>()) {
  if (options.policy == QueuePolicy::Invalid) throw InvalidArgument("No queue policy chosen.");
  if (options.showNewest && options.policy != QueuePolicy::Live)
    throw InvalidArgument("Showing the newest frame drops frames: it needs the live queue policy.");
  options_.queueCapacity = std::clamp(options.queueCapacity, 2, 4);
  options_.deviceSlots = std::clamp(options.deviceSlots, 2, 4);
  builder_ = std::make_unique<KernelBuilder>(device_, cache_, options_.tuner);
  // Errors surface here, before any thread of the pipeline starts.
  if (options_.liveEdits) {
    // Live edits (a window's feed, opened on its own thread): the first
    // kernel comes from the builder like every later one (for `auto`, its
    // stopgap or provisional kernel; the rest follows at frame boundaries).
    Convolver(device_, cache_).setParams(params);  // a bad set throws its own error, not a build's
    builder_->setIdleWork(true);
    builder_->setSettleTime(kLiveEditSettle);
    builder_->setFirstLaunchElsewhere(options_.firstLaunchElsewhere);
    builder_->setBackgroundAfterFirst(KernelBuilder::kBackgroundNice);
    convolver_ = builder_->first(activeGeneration_, params, options_.format, options_.expectedWidth,
                                 options_.expectedHeight, options_.paramsTag);
  } else {
    // A run: `auto` races here for the announced size, so a file is filtered
    // by one kernel from its first frame to its last.
    convolver_ = std::make_unique<Convolver>(device_, cache_, options_.tuner);
    convolver_->setParams(params);
    convolver_->prepare(options_.format, options_.expectedWidth, options_.expectedHeight);
    convolver_->setBuildPolicy(BuildPolicy::FramePath);  // the engine thread never races nor compiles
  }
  prepared_ = convolver_->lastRun();
  if (options_.prepareYuvConversion) {
    yuvConverter_ = std::make_unique<YuvConverter>(device_, cache_);
    launchYuvConversionOnce();
  }
  current_ = params;
  activeTag_ = options_.paramsTag;
  generations_[options_.paramsTag] = kFirstGeneration;
  currentFormat_ = static_cast<int>(options_.format);
  frameWidth_ = options_.expectedWidth;
  frameHeight_ = options_.expectedHeight;
  const DeviceInfo& info = device_->info;
  sharesHost_ = info.kind == DeviceKind::CPU || info.device.getInfo<CL_DEVICE_HOST_UNIFIED_MEMORY>() == CL_TRUE;
  const cl_command_queue_properties profiling = CL_QUEUE_PROFILING_ENABLE;
  uploadQueue_ = cl::CommandQueue(device_->context, device_->info.device, profiling);
  readbackQueue_ = cl::CommandQueue(device_->context, device_->info.device, profiling);
  engine_ = std::thread([this] { engineLoop(); });
}

void Pipeline::launchYuvConversionOnce() {
  const int w = options_.expectedWidth, h = options_.expectedHeight;
  if (options_.expectedLayout == YuvLayout::Invalid || w <= 0 || h <= 0) return;
  YuvImage desc;  // the geometry and colour description; the planes' bytes are not read from it
  desc.layout = options_.expectedLayout;
  const bool rgb = isRgbLayout(desc.layout);
  desc.matrix = rgb ? YuvMatrix::Invalid : YuvMatrix::Bt709;
  desc.range = rgb ? YuvRange::Invalid : YuvRange::Limited;
  desc.convertTo = options_.format;
  desc.width = w;
  desc.height = h;
  const cl::Buffer planes(device_->context, CL_MEM_READ_ONLY, YuvImage::largestBytes(w, h));
  const DeviceImage to = allocateDeviceImage(device_->context, w, h, options_.format, CL_MEM_READ_WRITE, 0);
  cl::Event done;
  yuvConverter_->enqueue(device_->queue, planes, desc, to, nullptr, &done);
  done.wait();
}

Pipeline::~Pipeline() {
  stopCompare_ = true;
  if (compare_.joinable()) compare_.join();
  cancel();
  if (engine_.joinable()) engine_.join();
  builder_.reset();  // joins lc-build
}

bool Pipeline::push(Frame frame) {
  stats_.frameIn();
  const PushResult r = input_.push(std::move(frame));
  if (r == PushResult::QueuedDroppedOldest) stats_.dropped(DropCause::EngineLate);
  return r != PushResult::Closed;
}

void Pipeline::endOfInput() {
  input_.close();
}

std::optional<Frame> Pipeline::pop() {
  std::optional<Frame> frame = output_.pop();
  if (frame) return frame;
  std::exception_ptr error;
  {
    std::lock_guard<std::mutex> lock(paramsMutex_);  // the engine thread may be writing it while cancel() ended pop()
    error = engineError_;
  }
  if (error) std::rethrow_exception(error);
  return frame;
}

void Pipeline::cancel() {
  input_.cancel();
  output_.cancel();
  {
    std::lock_guard<std::mutex> lock(lending_->mutex);
    lending_->cancelled = true;
    lending_->returned.notify_all();
  }
  builder_->stop();
}

void Pipeline::setParams(const FilterParams& params, std::uint64_t tag, PixelFormat format) {
  Convolver(device_, cache_).setParams(params);  // validates now, in the caller's thread
  // Built for the format and size that stream (or the format the source
  // switches to): `auto` races there, off the frame path.
  if (format == PixelFormat::Invalid) format = static_cast<PixelFormat>(currentFormat_.load());
  std::uint64_t generation = 0;
  {
    std::lock_guard<std::mutex> lock(paramsMutex_);
    generation = nextGeneration_++;
    asked_ = {generation, format};
    generations_[tag] = generation;
    while (generations_.size() > 64) generations_.erase(generations_.begin());
  }
  builder_->request(generation, params, format, frameWidth_.load(), frameHeight_.load(), false, tag);
}

std::uint64_t Pipeline::generationOf(std::uint64_t tag) const {
  std::lock_guard<std::mutex> lock(paramsMutex_);
  const auto it = generations_.find(tag);
  return it == generations_.end() ? 0 : it->second;
}

bool Pipeline::waitParamsBuilt(std::uint64_t tag, int timeoutMs) {
  const std::uint64_t generation = generationOf(tag);
  return generation != 0 && builder_->wait(generation, timeoutMs);
}

Pipeline::ParamsState Pipeline::paramsState(std::uint64_t tag) const {
  ParamsState state;
  const std::uint64_t generation = generationOf(tag);
  if (generation == 0) return state;
  state.known = true;
  state.current = activeTag_.load() == tag;
  state.failed = builder_->failed(generation);
  // The first set's kernel is built by the constructor (which throws otherwise).
  state.built = !state.failed && (generation == kFirstGeneration || builder_->finished() >= generation);
  if (state.failed) {
    state.error = builder_->error();
    state.buildLog = builder_->buildLog();
  }
  return state;
}

bool Pipeline::compareVariants() {
  const int width = frameWidth_.load(), height = frameHeight_.load();
  const auto format = static_cast<PixelFormat>(currentFormat_.load());
  if (width <= 0 || height <= 0 || format == PixelFormat::Invalid || comparing_.exchange(true)) return false;
  if (compare_.joinable()) compare_.join();  // the last one, done
  FilterParams params = currentParams();
  params.variant = VariantId::Auto;
  params.workgroup = {};
  params.packet = 0;
  std::shared_ptr<AutoTuner> tuner = options_.tuner ? options_.tuner : AutoTuner::shared();
  compare_ = std::thread([this, tuner, params, format, width, height] {
    setThreadName("lc-compare");
    try {
      tuner->race(device_, cache_, params, format, width, height, [this] { return stopCompare_.load(); }, "compare");
    } catch (const std::exception&) {
      // Interrupted (the pipeline goes), or the device failed: the report stays the last one.
    }
    comparing_ = false;
  });
  return true;
}

std::shared_ptr<const RaceReport> Pipeline::lastRace() const {
  return (options_.tuner ? options_.tuner : AutoTuner::shared())->lastReport();
}

FilterParams Pipeline::currentParams() const {
  std::lock_guard<std::mutex> lock(paramsMutex_);
  return current_;
}

void Pipeline::applyBuiltParams(PixelFormat frameFormat) {
  std::uint64_t generation = 0;
  std::uint64_t tag = 0;
  PixelFormat askedFor = PixelFormat::Invalid;
  std::unique_ptr<Convolver> next = builder_->take(&generation, &tag, &askedFor);
  // A set asked for the format the source switches to waits for the first
  // frame in it, though the builder may have built the old format too: a frame
  // of the old format still in flight keeps the set (and the tag) it came with.
  const bool forAnotherFormat = askedFor != PixelFormat::Invalid && askedFor != frameFormat;
  if (next && (!next->hasFormat(frameFormat) || forAnotherFormat) && convolver_->hasFormat(frameFormat)) {
    parked_ = std::move(next);  // the newest; an older one parked is done with
    parkedGeneration_ = generation;
    parkedTag_ = tag;
    parkedFormat_ = askedFor;
    return;
  }
  if (next) {
    parked_.reset();  // newer than anything parked
    adopt(std::move(next), generation, tag);
  } else if (parked_ && parked_->hasFormat(frameFormat) &&
             (parkedFormat_ == PixelFormat::Invalid || parkedFormat_ == frameFormat)) {
    adopt(std::move(parked_), parkedGeneration_, parkedTag_);
  }
}

void Pipeline::adopt(std::unique_ptr<Convolver> next, std::uint64_t generation, std::uint64_t tag) {
  // Kernels already queued keep their own kernel and mask objects alive, so
  // the old Convolver can go now.
  convolver_ = std::move(next);
  activeGeneration_ = generation;
  activeTag_ = tag;
  std::lock_guard<std::mutex> lock(paramsMutex_);
  current_ = convolver_->params();
}

// A frame in a format no kernel was built for (the source changed format):
// nothing can filter it until the builder has, so this one frame waits for
// the builder (the engine thread itself still compiles nothing). False when
// the pipeline was cancelled meanwhile; throws the build's sentence.
bool Pipeline::awaitFormat(PixelFormat format, int width, int height) {
  while (!convolver_->hasFormat(format)) {
    applyBuiltParams(format);  // a set parked for this format, or just built for it
    if (convolver_->hasFormat(format)) break;
    std::uint64_t generation = 0;
    bool asked = false;
    {
      std::lock_guard<std::mutex> lock(paramsMutex_);
      // The caller's own newest set, asked for this format (a switch the
      // source has now reached), is waited for; else the set that runs is built for it.
      asked = asked_.format == format && asked_.generation > activeGeneration_ && !builder_->failed(asked_.generation);
      generation = asked ? asked_.generation : nextGeneration_++;
    }
    if (!asked) builder_->request(generation, convolver_->params(), format, width, height, false, activeTag_);
    while (!builder_->wait(generation, 100)) {
      if (builder_->failed(generation)) {
        if (asked) break;  // refused (the caller hears of it): the set that runs, built for the format, next
        throw BuildError(builder_->error(), builder_->buildLog());
      }
      if (builder_->stopped()) return false;
    }
    applyBuiltParams(format);
  }
  return true;
}

// A frame size the kernel that runs was not chosen for, under
// `auto`: the builder races for it (once per set and size) while the engine
// goes on with what it runs.
void Pipeline::askForRace(PixelFormat format, int width, int height) {
  // A stopgap serves the set: the builder's own later steps for it (the
  // provisional kernel, the race) follow once the edits pause.
  if (convolver_->lastRun().stopgap) return;
  // Looked at once per set, format and size, not per frame.
  const RaceKey key{activeGeneration_, static_cast<int>(format), width, height};
  if (key == raceChecked_) return;
  raceChecked_ = key;
  if (!convolver_->readyFor(format, width, height))
    builder_->request(activeGeneration_, convolver_->params(), format, width, height, true, activeTag_);
}

void Pipeline::ensureSlots(int width, int height, PixelFormat format) {
  if (width <= 0 || height <= 0 || bytesPerPixel(format) == 0)
    throw InvalidArgument("A frame without pixels reached the pipeline.");
  // Rows as the kernel that runs wants them (padded for a variant with a row alignment, such as local_aligned).
  const std::size_t pitch = convolver_->devicePitchBytes(format, width, height);
  if (!slots_.empty() && slots_[0]->deviceIn.width == width && slots_[0]->deviceIn.height == height &&
      slots_[0]->deviceIn.format == format && slots_[0]->deviceIn.pitchBytes == pitch)
    return;
  // A new size, format or row pitch: finish the frames in flight, then reallocate.
  drainInFlight();
  releaseSlots();
  currentFormat_ = static_cast<int>(format);
  frameWidth_ = width;
  frameHeight_ = height;
  const std::size_t frameBytes = static_cast<std::size_t>(width) * height * bytesPerPixel(format);
  mapsHost_ = sharesHost_ && options_.mapHostMemory && frameBytes >= options_.mapMinFrameBytes;
  const cl::Context& ctx = device_->context;
  for (int i = 0; i < options_.deviceSlots; ++i) {
    auto s = std::make_unique<Slot>();
    s->index = slots_.size();
    // Read-write: the YUV conversion writes the input the convolution reads.
    // Where the device shares host memory, the device buffers are host memory
    // the frames are mapped into; elsewhere they are fed from pinned staging.
    const cl_mem_flags hostAccess = mapsHost_ ? CL_MEM_ALLOC_HOST_PTR : 0;
    s->deviceIn = allocateDeviceImage(ctx, width, height, format, CL_MEM_READ_WRITE | hostAccess, pitch);
    s->deviceOut = allocateDeviceImage(ctx, width, height, format,
                                       (mapsHost_ ? CL_MEM_READ_WRITE : CL_MEM_WRITE_ONLY) | hostAccess, pitch);
    s->bytes = s->deviceIn.pitchBytes * height;
    s->stagingBytes = std::max(s->bytes, YuvImage::largestBytes(width, height));
    if (mapsHost_) premap(&s->in.ptr, &s->in.ready, s->deviceIn.buffer, s->bytes, nullptr);
    if (!mapsHost_) {
      s->pinnedIn = cl::Buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, s->stagingBytes);
      s->pinnedOut = cl::Buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, s->bytes);
      s->hostIn = static_cast<std::uint8_t*>(
          uploadQueue_.enqueueMapBuffer(s->pinnedIn, CL_TRUE, CL_MAP_WRITE, 0, s->stagingBytes));
      s->hostOut = static_cast<std::uint8_t*>(
          readbackQueue_.enqueueMapBuffer(s->pinnedOut, CL_TRUE, CL_MAP_READ, 0, s->bytes));
    }
    slots_.push_back(std::move(s));
  }
  nextSlot_ = 0;
  std::lock_guard<std::mutex> lock(lending_->mutex);
  ++lending_->epoch;  // frames lent from the old slots keep their buffers and return to nothing
  lending_->lent.assign(slots_.size(), false);
  lending_->lastUse.assign(slots_.size(), cl::Event());
}

void Pipeline::releaseSlots() {
  for (auto& s : slots_) {
    if (s->hostIn) uploadQueue_.enqueueUnmapMemObject(s->pinnedIn, s->hostIn);
    if (s->hostOut) readbackQueue_.enqueueUnmapMemObject(s->pinnedOut, s->hostOut);
    if (s->mappedOut) readbackQueue_.enqueueUnmapMemObject(s->deviceOut.buffer, s->mappedOut);
    if (s->in.ptr) uploadQueue_.enqueueUnmapMemObject(s->deviceIn.buffer, s->in.ptr);
    if (s->yuv.ptr) uploadQueue_.enqueueUnmapMemObject(s->deviceYuv, s->yuv.ptr);
  }
  if (!slots_.empty()) {
    uploadQueue_.finish();
    readbackQueue_.finish();
  }
  slots_.clear();
}

// A slot whose output buffer is lent out is reused once the DeviceFrame is
// gone; its next kernel waits for the consumer's last use (*lastUse). While
// waiting, the newer frames in flight go out first: a consumer that keeps
// only the newest frame lets the older one go when it gets them. False when
// the pipeline was cancelled meanwhile.
bool Pipeline::waitUntilReturned(const Slot& s, cl::Event* lastUse) {
  if (!options_.keepOnDevice) return true;
  bool lent = false;
  {
    std::lock_guard<std::mutex> lock(lending_->mutex);
    lent = lending_->lent[s.index];
  }
  if (lent) drainInFlight();
  std::unique_lock<std::mutex> lock(lending_->mutex);
  lending_->returned.wait(lock, [&] { return !lending_->lent[s.index] || lending_->cancelled; });
  if (lending_->cancelled) return false;
  *lastUse = std::move(lending_->lastUse[s.index]);
  lending_->lastUse[s.index] = cl::Event();
  return true;
}

void Pipeline::submit(Slot& s, Frame frame, const cl::Event& lastUse) {
  std::vector<cl::Event> beforeKernel;
  if (lastUse()) beforeKernel.push_back(lastUse);
  if (s.unmappedOut()) beforeKernel.push_back(s.unmappedOut);  // the last frame's pixels were copied out
  s.converted = !frame.yuv.empty();
  beforeKernel.push_back(s.converted ? uploadPlanes(s, frame) : uploadPixels(s, frame));
  convolver_->enqueue(s.deviceIn, s.deviceOut, &beforeKernel, &s.filtered, &s.filterStart);
  if (s.converted && options_.returnSource) queueSourceRead(s);
  if (mapsHost_ && !s.converted) {  // ready for the slot's next frame once this kernel has read it
    const std::vector<cl::Event> afterKernel{s.filtered};
    premap(&s.in.ptr, &s.in.ready, s.deviceIn.buffer, s.bytes, &afterKernel);
  }
  s.variantAsked = convolver_->params().variant;
  s.variantRan = convolver_->lastRun().variant;
  lastVariant_ = static_cast<int>(s.variantRan);
  s.hostCopy = deliverPixels_;
  // Throughput runs (no pixels wanted, nothing kept on the device) still read
  // back: that is the cost a real output would pay.
  s.readBackQueued = s.hostCopy || !options_.keepOnDevice;
  if (s.readBackQueued) {
    const std::vector<cl::Event> afterKernel{s.filtered};
    if (mapsHost_)
      s.mappedOut = readbackQueue_.enqueueMapBuffer(s.deviceOut.buffer, CL_FALSE, CL_MAP_READ, 0, s.bytes, &afterKernel,
                                                    &s.readBack);
    else
      readbackQueue_.enqueueReadBuffer(s.deviceOut.buffer, CL_FALSE, 0, s.bytes, s.hostOut, &afterKernel, &s.readBack);
  }
  uploadQueue_.flush();
  device_->queue.flush();
  if (s.readBackQueued || s.source) readbackQueue_.flush();
  s.generation = activeGeneration_;
  s.tag = activeTag_;
  s.frame = std::move(frame);
  s.busy = true;
}

// Decoded planes: they go up as decoded and are converted on the kernel
// queue into deviceIn, so the upload of the next frame still overlaps this
// one's kernels. Returns the conversion's event, which the kernel waits for.
cl::Event Pipeline::uploadPlanes(Slot& s, Frame& frame) {
  const auto copyStart = std::chrono::steady_clock::now();
  const YuvImage& yuv = frame.yuv;
  const std::size_t yuvBytes = yuv.payloadBytes();
  if (yuv.bytes.size() < yuvBytes) throw InvalidArgument("A YUV frame has fewer bytes than its size needs.");
  if (!yuvConverter_) yuvConverter_ = std::make_unique<YuvConverter>(device_, cache_);
  if (!s.deviceYuv())
    s.deviceYuv = cl::Buffer(device_->context, CL_MEM_READ_ONLY | (mapsHost_ ? CL_MEM_ALLOC_HOST_PTR : 0),
                             YuvImage::largestBytes(yuv.width, yuv.height));
  std::vector<cl::Event> afterUpload;
  if (mapsHost_) {
    if (!s.yuv.ptr) premap(&s.yuv.ptr, &s.yuv.ready, s.deviceYuv, YuvImage::largestBytes(yuv.width, yuv.height), nullptr);
    s.yuv.ready.wait();
    copier_.copy(s.yuv.ptr, yuv.bytes.data(), yuvBytes);
    frame.convertMs += msSince(copyStart);
    uploadQueue_.enqueueUnmapMemObject(s.deviceYuv, s.yuv.ptr, nullptr, &s.uploaded);
    s.yuv.ptr = nullptr;
    if (s.in.ptr) {  // the conversion writes deviceIn: not while it is mapped
      cl::Event unmapped;
      uploadQueue_.enqueueUnmapMemObject(s.deviceIn.buffer, s.in.ptr, nullptr, &unmapped);
      s.in.ptr = nullptr;
      afterUpload.push_back(unmapped);
    }
  } else {
    copier_.copy(s.hostIn, yuv.bytes.data(), yuvBytes);
    frame.convertMs += msSince(copyStart);
    uploadQueue_.enqueueWriteBuffer(s.deviceYuv, CL_FALSE, 0, yuvBytes, s.hostIn, nullptr, &s.uploaded);
  }
  afterUpload.push_back(s.uploaded);
  yuvConverter_->enqueue(device_->queue, s.deviceYuv, yuv, s.deviceIn, &afterUpload, &s.convert);
  if (mapsHost_) {
    const std::vector<cl::Event> afterConvert{s.convert};
    premap(&s.yuv.ptr, &s.yuv.ready, s.deviceYuv, YuvImage::largestBytes(yuv.width, yuv.height), &afterConvert);
  }
  frame.yuv = YuvImage();  // the planes are in staging now
  return s.convert;
}

// Pixels: copied once into the buffer the kernel reads where the device
// shares host memory (mapped), else written from pinned staging, or straight
// from the frame where it lends tightly packed pixels at the device's pitch.
// Returns the upload's event.
cl::Event Pipeline::uploadPixels(Slot& s, Frame& frame) {
  const auto copyStart = std::chrono::steady_clock::now();
  const ImageView src = frame.pixels();
  if (mapsHost_) {
    if (!s.in.ptr) premap(&s.in.ptr, &s.in.ready, s.deviceIn.buffer, s.bytes, nullptr);
    s.in.ready.wait();
    auto* to = static_cast<std::uint8_t*>(s.in.ptr);
    copier_.copyRows(to, s.deviceIn.pitchBytes, src.data, src.strideBytes, src.rowBytes(), src.height);
    frame.convertMs += msSince(copyStart);
    uploadQueue_.enqueueUnmapMemObject(s.deviceIn.buffer, s.in.ptr, nullptr, &s.uploaded);
    s.in.ptr = nullptr;
    return s.uploaded;
  }
  const std::uint8_t* from = src.data;
  if (!frame.external.data || src.strideBytes != s.deviceIn.pitchBytes) {
    copier_.copyRows(s.hostIn, s.deviceIn.pitchBytes, src.data, src.strideBytes, src.rowBytes(), src.height);
    from = s.hostIn;
  }
  frame.convertMs += msSince(copyStart);
  uploadQueue_.enqueueWriteBuffer(s.deviceIn.buffer, CL_FALSE, 0, s.bytes, from, nullptr, &s.uploaded);
  return s.uploaded;
}

void Pipeline::premap(void** ptr, cl::Event* ready, const cl::Buffer& buffer, std::size_t bytes,
                      const std::vector<cl::Event>* after) {
  *ptr = uploadQueue_.enqueueMapBuffer(buffer, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION, 0, bytes, after, ready);
  uploadQueue_.flush();
}

// The picture the slot's planes are converted into, read back into pixels
// of its own (the frame's source pixels) once the conversion is done, while
// the kernel runs: deliver() waits for it with the kernel.
void Pipeline::queueSourceRead(Slot& s) {
  s.source = std::make_shared<Image>(s.deviceIn.width, s.deviceIn.height, s.deviceIn.format);
  const ImageView to = s.source->view();
  const std::vector<cl::Event> afterConvert{s.convert};
  if (s.deviceIn.pitchBytes == to.strideBytes) {
    readbackQueue_.enqueueReadBuffer(s.deviceIn.buffer, CL_FALSE, 0, to.strideBytes * to.height, to.data,
                                     &afterConvert, &s.sourceRead);
  } else {
    const cl::array<cl::size_type, 3> origin{0, 0, 0};
    const cl::array<cl::size_type, 3> region{to.rowBytes(), static_cast<cl::size_type>(to.height), 1};
    readbackQueue_.enqueueReadBufferRect(s.deviceIn.buffer, CL_FALSE, origin, origin, region, s.deviceIn.pitchBytes, 0,
                                         to.strideBytes, 0, to.data, &afterConvert, &s.sourceRead);
  }
}

void Pipeline::deliver(Slot& s) {
  const auto waitStart = std::chrono::steady_clock::now();
  (s.readBackQueued ? s.readBack : s.filtered).wait();
  Frame frame = std::move(s.frame);
  s.busy = false;
  const int width = s.deviceOut.width, height = s.deviceOut.height;
  if (s.hostCopy) {
    if (frame.image.width() != width || frame.image.height() != height || frame.image.format() != s.deviceOut.format)
      frame.image = Image(width, height, s.deviceOut.format);
    const auto* from = static_cast<const std::uint8_t*>(s.mappedOut ? s.mappedOut : s.hostOut);
    const ImageView to = frame.image.view();
    copier_.copyRows(to.data, to.strideBytes, from, s.deviceOut.pitchBytes, to.rowBytes(), height);  // rows may be padded on the device
  } else {
    frame.image = Image();
  }
  if (s.mappedOut) {
    readbackQueue_.enqueueUnmapMemObject(s.deviceOut.buffer, s.mappedOut, nullptr, &s.unmappedOut);
    readbackQueue_.flush();
    s.mappedOut = nullptr;
  }
  frame.sourcePixels = frame.external;  // the lent input travels on with its result
  frame.sourceOwner = std::move(frame.externalOwner);
  if (s.source) {  // the picture the planes became, read back behind their conversion
    s.sourceRead.wait();
    frame.sourcePixels = s.source->view();
    frame.sourceOwner = std::move(s.source);
  }
  frame.external = ImageView();
  frame.externalOwner.reset();
  frame.paramsTag = s.tag;
  frame.variantAsked = s.variantAsked;
  frame.variantRan = s.variantRan;
  frame.timings.uploadMs = eventMs(s.uploaded);
  frame.timings.kernelMs = eventSpanMs(s.filterStart, s.filtered);  // first pass start to last pass end
  frame.timings.readbackMs = s.readBackQueued ? eventMs(s.readBack) : 0.0;
  if (options_.keepOnDevice) {
    std::lock_guard<std::mutex> lock(lending_->mutex);
    lending_->lent[s.index] = true;
    frame.onDevice = std::make_shared<Lending::Lease>(lending_, lending_->epoch, s.index, s.deviceOut, s.filtered);
  }
  frame.timings.wallMs = msSince(waitStart);
  if (s.converted) frame.convertMs += eventMs(s.convert);
  stats_.addStageMs(Stage::Decode, frame.decodeMs);
  stats_.addStageMs(Stage::Convert, frame.convertMs);
  stats_.addStageMs(Stage::Upload, frame.timings.uploadMs);
  stats_.addStageMs(Stage::Kernel, frame.timings.kernelMs);
  stats_.addStageMs(Stage::Readback, frame.timings.readbackMs);
  stats_.frameOut(width, height, s.tag);
  const PushResult r = output_.push(std::move(frame));
  if (r == PushResult::QueuedDroppedOldest) stats_.outputDroppedOldest();
}

void Pipeline::drainInFlight() {
  for (std::size_t k = 0; k < slots_.size(); ++k) {
    Slot& s = *slots_[(nextSlot_ + k) % slots_.size()];
    if (s.busy) deliver(s);
  }
}

void Pipeline::engineLoop() {
  setThreadName("lc-engine");
  try {
    for (;;) {
      if (options_.showNewest) drainInFlight();  // one frame on the device; the next is the newest then
      std::optional<Frame> frame = input_.tryPop();
      if (!frame && (options_.policy == QueuePolicy::Live || options_.handOutWhenIdle)) {
        // The source is slower than the device, so holding finished frames
        // until the next push overlaps nothing; it would only show a live
        // picture two frames late, and a paused one never.
        drainInFlight();
      }
      if (!frame) frame = input_.pop();
      if (!frame) break;
      applyBuiltParams(frame->engineFormat());  // the frame boundary: parameters change only here
      if (!awaitFormat(frame->engineFormat(), frame->width(), frame->height())) break;
      ensureSlots(frame->width(), frame->height(), frame->engineFormat());
      askForRace(frame->engineFormat(), frame->width(), frame->height());
      Slot& s = *slots_[nextSlot_];
      if (s.busy) deliver(s);  // the oldest frame in flight; its slot takes the new one
      cl::Event lastUse;
      if (!waitUntilReturned(s, &lastUse)) break;
      submit(s, std::move(*frame), lastUse);
      nextSlot_ = (nextSlot_ + 1) % slots_.size();
    }
    drainInFlight();
    releaseSlots();
  } catch (...) {
    {
      std::lock_guard<std::mutex> lock(paramsMutex_);
      engineError_ = std::current_exception();
    }
    input_.cancel();
    try {
      device_->queue.finish();
      releaseSlots();
    } catch (...) {
    }
  }
  output_.close();
}

}  // namespace liveconv
