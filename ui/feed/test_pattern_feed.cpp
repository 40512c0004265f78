// The built-in feed: the test pattern filtered by the engine's Convolver,
// enqueued from the UI thread. Parameter edits are built by a KernelBuilder
// ("lc-build"); the UI thread only takes a finished Convolver at a frame
// boundary and never waits for a compile.
//
// Nor does it wait for the device. On the readback path a frame is filtered
// into one of two sets of buffers while the other, mapped, is on screen:
// advance() shows the frame in flight if the device is done with it, then
// enqueues the next one (the upload, the kernel and a non-blocking map), which
// runs while the window draws and is shown by a later advance(); the screen
// keeps the previous frame meanwhile. So a slow kernel, or a device that is
// busy (PoCL generates a new kernel's work-group function on its first launch,
// 200-250 ms on two cores, and runs nothing else meanwhile), slows the pattern,
// not the window. The buffers are host-pinned (CL_MEM_ALLOC_HOST_PTR): mapping
// them is a pointer hand-out on CPU devices.
//
// Where the display link opened the device for zero-copy (cl_khr_gl_sharing,
// see ui/gl/gl_interop.hpp) the kernel's output is the display's one GL pixel
// buffer, acquired and released around it, and advance() waits for the kernel
// before GL reads it (GPU kernels, built up front by their drivers).
#include <algorithm>
#include <chrono>
#include <exception>
#include <map>

#include "feed/feeds.hpp"
#include "feed/first_launch_helper.hpp"
#include "feed/test_pattern.hpp"
#include "liveconv/convolver.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/kernel_builder.hpp"

namespace liveconv::ui {
namespace {

using Clock = std::chrono::steady_clock;

// Whether the device is done with `e`; throws when the command failed.
bool complete(const cl::Event& e) {
  if (e() == nullptr) return true;
  const cl_int status = e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
  if (status < 0) throw Error("The device failed to filter the test pattern: " + clErrorName(status) + ".");
  return status == CL_COMPLETE;
}

// One frame on its way through the device, or on screen.
struct Slot {
  DeviceImage src, dst;
  Image source;                    // the pattern frame, read by the upload until `written` completes
  std::uint8_t* mapped = nullptr;  // dst mapped for reading (readback path), once done
  std::uint8_t* mapping = nullptr;  // the pointer the map will hand out, while in flight
  cl::Event written, first, filtered, read;  // read: the map (readback) or the release to GL (zero-copy)
  std::uint64_t index = 0, version = 0;
  VariantId asked = VariantId::Invalid, variant = VariantId::Invalid;  // the set's variant, and the one that ran
  Clock::time_point sourceAt{}, generatedFrom{};
  double interopMs = 0;  // zero-copy: acquire + release, host clock, less the kernel
};

class TestPatternFeed final : public FrameFeed {
 public:
  TestPatternFeed(int width, int height, std::string deviceSelector, std::shared_ptr<const ParamsSnapshot> initial,
                  const DisplayLink* display)
      : width_(width), height_(height), selector_(std::move(deviceSelector)), display_(display) {
    if (!initial) throw InvalidArgument("The viewer started without valid filter parameters.");
    open(initial->deviceIndex < 0 ? selector_ : std::to_string(initial->deviceIndex));
    applied_ = initial;
    Convolver(device_).setParams(initial->filter);  // a bad set throws its own error, not a build's
    // The first kernel too comes from the builder, waited for here on the
    // opening thread (for `auto`: its stopgap or provisional kernel; the race
    // for the pattern's size follows on the builder, and its winner at a frame boundary).
    builder_ = std::make_unique<KernelBuilder>(device_, std::make_shared<ProgramCache>());
    builder_->setIdleWork(true);  // the other format's kernels, whenever it has time
    builder_->setSettleTime(kLiveEditSettle);  // auto's race once the edits pause
    builder_->setFirstLaunchElsewhere(offeredFirstLaunchHelper());  // PoCL's first launches: off this process
    convolver_ = builder_->first(initial->version, initial->filter, initial->format, width_, height_);
    requested_ = initial->version;
    waiting_[requested_] = initial;
    pending_ = initial;
  }

  ~TestPatternFeed() override {
    builder_.reset();  // joins lc-build before the device goes
    try {
      device_->queue.finish();  // an upload in flight still reads its slot's pattern
      for (Slot& slot : slots_) unmap(slot);
    } catch (const cl::Error&) {
    }
  }

  bool changesFormatInPlace() const override { return true; }

  void setParams(std::shared_ptr<const ParamsSnapshot> snapshot) override {
    if (snapshot) pending_ = std::move(snapshot);
  }

  FeedFrame advance(Advance mode) override {
    applyPending();
    if (mode != Advance::Hold) moveOn_ = true;
    // Readback: the frame in flight had the window's last frame to finish in;
    // shown if it is done, never waited for, and the next one goes on its way.
    // Zero-copy: the one GL buffer is filtered into by submit() itself, which waits.
    bool fresh = !target_ && showIfDone();
    if (inFlight_ < 0 && (moveOn_ || outdated())) submit();
    if (target_) fresh = showIfDone();
    return frame(fresh);
  }

  FrameStats stats() const override {
    FrameStats s;
    s.stages = stages_;
    s.frameWidth = width_;
    s.frameHeight = height_;
    s.megapixelsPerSecond = megapixelsPerSecond(width_, height_, stages_.kernelMs);
    s.gigabytesPerSecond = gigabytesPerSecond(width_, height_, bytesPerPixel(applied_->format), stages_.kernelMs);
    s.framesShown = framesShown_;
    s.framesTotal = framesShown_;  // the test source is pulled, never pushed: nothing can be dropped
    s.device = device_->info.name;
    // The variant that filtered the frame on screen (until the first one is, the one that will).
    s.variantAsked = shown_ >= 0 ? slots_[shown_].asked : applied_->filter.variant;
    s.variantRan = shown_ >= 0 ? slots_[shown_].variant : convolver_->lastRun().variant;
    s.displayPath = target_ ? DisplayPath::ZeroCopy : DisplayPath::Readback;
    s.displayPathText = displayPath_;
    s.error = error_;
    s.buildLog = buildLog_;
    s.rejectedVersion = rejectedVersion_;
    s.rejectedVariant = rejectedVariant_;
    return s;
  }

 private:
  void open(const std::string& selector) {
    OpenedDevice opened = openDevice(display_, selector);
    target_.reset();  // its GL buffer goes before the context it was shared with
    device_ = std::move(opened.device);
    target_ = std::move(opened.target);
    pixelBuffer_ = 0;
    displayPath_ = std::move(opened.displayPath);
  }

  // At this frame boundary: the newest snapshot goes to the builder, and a
  // Convolver the builder finished takes over. A set that failed to build
  // leaves the previous one in force, with the reason kept for the overlay.
  void applyPending() {
    if (pending_ && pending_->version > applied_->version && pending_->version != requested_) {
      requested_ = pending_->version;
      waiting_[requested_] = pending_;
      builder_->request(requested_, pending_->filter, pending_->format, width_, height_);
    }
    std::uint64_t generation = 0;
    if (std::unique_ptr<Convolver> next = builder_->take(&generation)) {
      auto built = waiting_.find(generation);
      if (built != waiting_.end()) {
        convolver_ = std::move(next);  // a frame in flight keeps the kernel it was enqueued with
        applied_ = built->second;
        error_.clear();
        buildLog_.clear();
        waiting_.erase(waiting_.begin(), built);  // the set itself stays: its race winner may follow
        ++kernelsTaken_;
      }
    }
    if (requested_ != rejectedVersion_ && builder_->failed(requested_)) {
      const auto failed = waiting_.find(requested_);
      if (failed != waiting_.end()) reject(*failed->second, builder_->error(), builder_->buildLog());
    }
  }

  void reject(const ParamsSnapshot& next, std::string why, std::string log) {
    error_ = std::move(why);
    buildLog_ = std::move(log);
    rejectedVersion_ = next.version;
    rejectedVariant_ = next.filter.variant;
  }

  // Whether the newest frame on its way to the screen (or on it) was filtered
  // with other parameters or another kernel than those in force now.
  bool outdated() const {
    if (shown_ < 0) return true;
    const Slot& last = slots_[shown_];
    return last.version != applied_->version || last.source.format() != applied_->format ||
           shownKernels_ != kernelsTaken_;
  }

  // Enqueues the next frame into the slot not on screen: the pattern (the
  // next one when moving on), its upload, the kernel, and the way back.
  void submit() {
    const int next = shown_ == 0 ? 1 : 0;
    Slot& slot = slots_[next];
    unmap(slot);
    const auto t0 = Clock::now();
    if (moveOn_ && everSubmitted_) ++index_;
    moveOn_ = false;
    everSubmitted_ = true;
    slot.source = makeTestPattern(width_, height_, applied_->format, index_);
    slot.index = index_;
    slot.version = applied_->version;
    slot.generatedFrom = t0;
    slot.sourceAt = Clock::now();  // handed to the filter
    upload(slot);
    if (target_)
      filterIntoDisplay(slot);
    else
      filterAndMap(slot);
    slot.asked = applied_->filter.variant;
    slot.variant = convolver_->lastRun().variant;
    slotKernels_[next] = kernelsTaken_;
    inFlight_ = next;
  }

  void upload(Slot& slot) {
    const PixelFormat fmt = slot.source.format();
    // Rows as the kernel asks for them (padded for local_aligned), as in the Pipeline.
    const std::size_t pitch = convolver_->devicePitchBytes(fmt, width_, height_);
    if (slot.src.width != width_ || slot.src.format != fmt || slot.src.pitchBytes != pitch) {
      slot.src = allocateDeviceImage(device_->context, width_, height_, fmt, CL_MEM_READ_ONLY, pitch);
      // Host-pinned so mapping it is a pointer hand-out on CPU devices and a DMA-able buffer on GPUs.
      if (!target_)
        slot.dst = allocateDeviceImage(device_->context, width_, height_, fmt,
                                       CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR, pitch);
    }
    cl::CommandQueue& q = device_->queue;
    const ImageView src = slot.source.view();
    if (pitch == src.strideBytes) {
      q.enqueueWriteBuffer(slot.src.buffer, CL_FALSE, 0, pitch * height_, slot.source.data(), nullptr, &slot.written);
    } else {
      const cl::array<cl::size_type, 3> origin{0, 0, 0};
      const cl::array<cl::size_type, 3> region{src.rowBytes(), static_cast<cl::size_type>(height_), 1};
      q.enqueueWriteBufferRect(slot.src.buffer, CL_FALSE, origin, origin, region, pitch, 0, src.strideBytes, 0,
                               slot.source.data(), nullptr, &slot.written);
    }
  }

  void filterAndMap(Slot& slot) {
    cl::CommandQueue& q = device_->queue;
    convolver_->enqueue(slot.src, slot.dst, nullptr, &slot.filtered, &slot.first);
    cl_int err = CL_SUCCESS;
    slot.mapping = static_cast<std::uint8_t*>(q.enqueueMapBuffer(
        slot.dst.buffer, CL_FALSE, CL_MAP_READ, 0, slot.dst.pitchBytes * height_, nullptr, &slot.read, &err));
    if (err != CL_SUCCESS || !slot.mapping) throw Error("Mapping the filtered frame failed: " + clErrorName(err) + ".");
    q.flush();  // on its way while the UI thread draws
  }

  // Zero-copy: acquire the display's buffer, filter into it, hand it back to
  // GL. The one buffer is GL's again only once the kernel ran, so this waits.
  void filterIntoDisplay(Slot& slot) {
    cl::CommandQueue& q = device_->queue;
    std::vector<cl::Event> acquired{slot.written};
    const auto t0 = Clock::now();
    const DeviceImage out = target_->acquire(q, width_, height_, slot.source.format(), &acquired);
    convolver_->enqueue(slot.src, out, &acquired, &slot.filtered, &slot.first);
    pixelBuffer_ = target_->release(q, slot.filtered);
    // With cl_khr_gl_event the release only flushes; the kernel's time is read once it has run.
    slot.filtered.wait();
    slot.read = slot.filtered;
    slot.interopMs = std::max(0.0, std::chrono::duration<double, std::milli>(Clock::now() - t0).count() -
                                       eventSpanMs(slot.first, slot.filtered));
  }

  // Shows the frame in flight if the device is done with it.
  bool showIfDone() {
    if (inFlight_ < 0 || !complete(slots_[inFlight_].read)) return false;
    show(inFlight_);
    inFlight_ = -1;
    return true;
  }

  void show(int n) {
    Slot& slot = slots_[n];
    if (shown_ >= 0 && shown_ != n) unmap(slots_[shown_]);
    slot.mapped = slot.mapping;
    slot.mapping = nullptr;
    shown_ = n;
    shownKernels_ = slotKernels_[n];
    StageTimes t;
    t.decodeMs = std::chrono::duration<double, std::milli>(slot.sourceAt - slot.generatedFrom).count();
    t.uploadMs = eventMs(slot.written);
    t.kernelMs = eventSpanMs(slot.first, slot.filtered);  // all passes
    t.readbackMs = target_ ? slot.interopMs : eventMs(slot.read);  // the map, or the interop stage
    stages_ = smooth(stages_, t);
    ++framesShown_;
  }

  void unmap(Slot& slot) {
    std::uint8_t* ptr = slot.mapped ? slot.mapped : slot.mapping;
    if (!ptr) return;
    device_->queue.enqueueUnmapMemObject(slot.dst.buffer, ptr);
    slot.mapped = slot.mapping = nullptr;
  }

  FeedFrame frame(bool fresh) const {
    FeedFrame f;
    if (shown_ < 0) return f;  // nothing filtered yet
    const Slot& slot = slots_[shown_];
    f.source = slot.source.view();
    f.filtered = slot.source.view();
    f.filtered.data = slot.mapped;  // null on the zero-copy path: the pixels are in glPixelBuffer
    if (slot.mapped) f.filtered.strideBytes = slot.dst.pitchBytes;
    f.glPixelBuffer = target_ ? pixelBuffer_ : 0;
    f.index = slot.index;
    f.paramsVersion = slot.version;
    f.sourceAt = slot.sourceAt;
    f.fresh = fresh;
    return f;
  }

  int width_, height_;
  std::string selector_;
  const DisplayLink* display_;
  std::shared_ptr<DeviceContext> device_;
  std::unique_ptr<DisplayTarget> target_;  // zero-copy path; null when reading back
  std::uint32_t pixelBuffer_ = 0;          // the GL buffer the last frame went to
  std::unique_ptr<Convolver> convolver_;  // FramePath: only enqueues
  std::unique_ptr<KernelBuilder> builder_;
  std::shared_ptr<const ParamsSnapshot> applied_, pending_;
  std::uint64_t requested_ = 0;  // the newest version handed to the builder
  std::map<std::uint64_t, std::shared_ptr<const ParamsSnapshot>> waiting_;  // handed to the builder, by version
  // Convolvers taken so far; a frame filtered before the newest was taken
  // (auto's provisional kernel, before its winner) is filtered again.
  std::uint64_t kernelsTaken_ = 0, shownKernels_ = 0, slotKernels_[2] = {0, 0};
  Slot slots_[2];
  int shown_ = -1, inFlight_ = -1;
  bool moveOn_ = false, everSubmitted_ = false;
  std::uint64_t index_ = 0;
  std::uint64_t framesShown_ = 0;
  StageTimes stages_;
  std::string displayPath_, error_, buildLog_;
  std::uint64_t rejectedVersion_ = 0;
  VariantId rejectedVariant_ = VariantId::Invalid;
};

}  // namespace

std::unique_ptr<FrameFeed> makeTestPatternFeed(int width, int height, const std::string& deviceSelector,
                                               std::shared_ptr<const ParamsSnapshot> initial,
                                               const DisplayLink* display) {
  return std::make_unique<TestPatternFeed>(width, height, deviceSelector, std::move(initial), display);
}

}  // namespace liveconv::ui
