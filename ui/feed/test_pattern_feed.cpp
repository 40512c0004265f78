// The built-in feed: the test pattern filtered by the engine's Convolver on
// the UI thread, so it can write straight into display memory. Parameter
// edits are built by a KernelBuilder ("lc-build"); the UI thread only takes a
// finished Convolver at a frame boundary and never waits for a compile. Where the
// display link opened the device for zero-copy (cl_khr_gl_sharing, see
// ui/gl/gl_interop.hpp) the kernel's output is the display's GL pixel buffer,
// acquired and released around it; otherwise the result is read back
// through a mapped, host-pinned buffer (CL_MEM_ALLOC_HOST_PTR).
#include <algorithm>
#include <chrono>
#include <exception>
#include <map>

#include "feed/feeds.hpp"
#include "feed/test_pattern.hpp"
#include "liveconv/convolver.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/kernel_builder.hpp"

namespace liveconv::ui {
namespace {

class TestPatternFeed final : public FrameFeed {
 public:
  TestPatternFeed(int width, int height, std::string deviceSelector, std::shared_ptr<const ParamsSnapshot> initial,
                  const DisplayLink* display)
      : width_(width), height_(height), selector_(std::move(deviceSelector)), display_(display) {
    if (!initial) throw InvalidArgument("The viewer started without valid filter parameters.");
    open(initial->deviceIndex < 0 ? selector_ : std::to_string(initial->deviceIndex));
    applied_ = initial;
    convolver_->setParams(initial->filter);
    // `auto` races here, on the opening thread, for the pattern's size; later
    // sets are built and raced on the builder, never on the UI thread.
    convolver_->prepare(initial->format, width_, height_);
    convolver_->setBuildPolicy(BuildPolicy::FramePath);
    builder_ = std::make_unique<KernelBuilder>(device_, convolver_->programCache());
    pending_ = initial;
  }

  ~TestPatternFeed() override {
    builder_.reset();  // joins lc-build before the device goes
    unmap();
  }

  bool changesFormatInPlace() const override { return true; }

  void setParams(std::shared_ptr<const ParamsSnapshot> snapshot) override {
    if (snapshot) pending_ = std::move(snapshot);
  }

  FeedFrame advance(Advance mode) override {
    const bool paramsChanged = applyPending();
    const bool formatChanged = source_.format() != applied_->format;
    const bool newSource = mode != Advance::Hold || formatChanged || source_.width() == 0;
    if (!newSource && !paramsChanged && (mapped_ || pixelBuffer_)) return frame(false);

    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    if (newSource) {
      if (source_.width() != 0 && mode != Advance::Hold) ++index_;
      source_ = makeTestPattern(width_, height_, applied_->format, index_);
    }
    StageTimes t;
    sourceAt_ = Clock::now();  // handed to the filter
    t.decodeMs = std::chrono::duration<double, std::milli>(sourceAt_ - t0).count();
    filterSource(&t);
    stages_ = smooth(stages_, t);
    ++framesShown_;
    return frame(true);
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
    s.variantAsked = applied_->filter.variant;
    s.variantRan = convolver_->lastRun().variant;
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
    auto convolver = std::make_unique<Convolver>(opened.device);
    unmap();
    target_.reset();  // its GL buffer goes before the context it was shared with
    device_ = std::move(opened.device);
    target_ = std::move(opened.target);
    convolver_ = std::move(convolver);
    srcDev_ = {};
    dstDev_ = {};
    pixelBuffer_ = 0;
    displayPath_ = std::move(opened.displayPath);
  }

  // At this frame boundary: the newest snapshot goes to the builder, and a
  // Convolver the builder finished takes over. A set that failed to build
  // leaves the previous one in force, with the reason kept for the overlay.
  bool applyPending() {
    if (pending_ && pending_->version > applied_->version && pending_->version != requested_) {
      requested_ = pending_->version;
      waiting_[requested_] = pending_;
      builder_->request(requested_, pending_->filter, pending_->format, width_, height_);
    }
    std::uint64_t generation = 0;
    if (std::unique_ptr<Convolver> next = builder_->take(&generation)) {
      auto built = waiting_.find(generation);
      if (built != waiting_.end()) {
        convolver_ = std::move(next);
        applied_ = built->second;
        error_.clear();
        buildLog_.clear();
        waiting_.erase(waiting_.begin(), built);  // the set itself stays: its race winner may follow
        return true;
      }
    }
    if (requested_ != rejectedVersion_ && builder_->failed(requested_)) {
      const auto failed = waiting_.find(requested_);
      if (failed != waiting_.end()) reject(*failed->second, builder_->error(), builder_->buildLog());
    }
    return false;
  }

  void reject(const ParamsSnapshot& next, std::string why, std::string log) {
    error_ = std::move(why);
    buildLog_ = std::move(log);
    rejectedVersion_ = next.version;
    rejectedVariant_ = next.filter.variant;
  }

  void filterSource(StageTimes* t) {
    unmap();
    const PixelFormat fmt = source_.format();
    // Rows as the kernel asks for them (padded for local_aligned), as in the Pipeline.
    const std::size_t pitch = convolver_->devicePitchBytes(fmt, width_, height_);
    if (srcDev_.width != width_ || srcDev_.format != fmt || srcDev_.pitchBytes != pitch) {
      srcDev_ = allocateDeviceImage(device_->context, width_, height_, fmt, CL_MEM_READ_ONLY, pitch);
      // Host-pinned so mapping it is a pointer hand-out on CPU devices and a DMA-able buffer on GPUs.
      if (!target_)
        dstDev_ = allocateDeviceImage(device_->context, width_, height_, fmt, CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR,
                                      pitch);
    }
    cl::CommandQueue& q = device_->queue;
    const std::size_t bytes = pitch * height_;
    cl::Event written, filtered, first;  // first: the first pass, so the kernel time spans all passes
    const ImageView src = source_.view();
    if (pitch == src.strideBytes) {
      q.enqueueWriteBuffer(srcDev_.buffer, CL_FALSE, 0, bytes, source_.data(), nullptr, &written);
    } else {
      const cl::array<cl::size_type, 3> origin{0, 0, 0};
      const cl::array<cl::size_type, 3> region{src.rowBytes(), static_cast<cl::size_type>(height_), 1};
      q.enqueueWriteBufferRect(srcDev_.buffer, CL_FALSE, origin, origin, region, pitch, 0, src.strideBytes, 0,
                               source_.data(), nullptr, &written);
    }
    t->uploadMs = 0;
    if (target_) {
      // Zero-copy: acquire the display's buffer, filter into it, hand it back to GL.
      std::vector<cl::Event> acquired{written};
      const auto t0 = std::chrono::steady_clock::now();
      const DeviceImage out = target_->acquire(q, width_, height_, fmt, &acquired);
      convolver_->enqueue(srcDev_, out, &acquired, &filtered, &first);
      pixelBuffer_ = target_->release(q, filtered);
      // With cl_khr_gl_event the release only flushes; the kernel's time is
      // read once it has run (the readback path below waits as long, in its map).
      filtered.wait();
      t->kernelMs = eventSpanMs(first, filtered);
      // acquire + release, host clock: the interop stage of the overlay
      t->readbackMs = std::max(
          0.0, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() - t->kernelMs);
    } else {
      cl::Event mappedEvent;
      convolver_->enqueue(srcDev_, dstDev_, nullptr, &filtered, &first);
      cl_int err = CL_SUCCESS;
      mapped_ = static_cast<std::uint8_t*>(
          q.enqueueMapBuffer(dstDev_.buffer, CL_TRUE, CL_MAP_READ, 0, bytes, nullptr, &mappedEvent, &err));
      if (err != CL_SUCCESS || !mapped_) throw Error("Mapping the filtered frame failed: " + clErrorName(err) + ".");
      t->kernelMs = eventSpanMs(first, filtered);
      t->readbackMs = eventMs(mappedEvent);
    }
    t->uploadMs = eventMs(written);
  }

  void unmap() {
    if (!mapped_) return;
    device_->queue.enqueueUnmapMemObject(dstDev_.buffer, mapped_);
    mapped_ = nullptr;
  }

  FeedFrame frame(bool fresh) {
    FeedFrame f;
    f.source = source_.view();
    f.filtered = source_.view();
    f.filtered.data = mapped_;  // null on the zero-copy path: the pixels are in glPixelBuffer
    if (mapped_) f.filtered.strideBytes = dstDev_.pitchBytes;
    f.glPixelBuffer = pixelBuffer_;
    f.index = index_;
    f.paramsVersion = applied_->version;
    f.sourceAt = sourceAt_;
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
  DeviceImage srcDev_, dstDev_;
  std::uint8_t* mapped_ = nullptr;
  Image source_;
  std::uint64_t index_ = 0;
  std::chrono::steady_clock::time_point sourceAt_{};  // the last frame handed to the filter
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
