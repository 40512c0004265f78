#include "liveconv/planes_channel.hpp"

#include <algorithm>

#include "liveconv/errors.hpp"
#include "liveconv/thread_name.hpp"

namespace liveconv {
namespace {

// The same context with a command queue of its own: each plane's engine
// thread orders its commands on its own queue, as one engine alone does.
std::shared_ptr<DeviceContext> withOwnQueue(const std::shared_ptr<DeviceContext>& device) {
  auto own = std::make_shared<DeviceContext>(*device);
  own->queue = cl::CommandQueue(own->context, own->info.device, CL_QUEUE_PROFILING_ENABLE);
  return own;
}

}  // namespace

PlanesChannel::PlanesChannel(std::shared_ptr<DeviceContext> device,
                             const std::vector<std::optional<FilterParams>>& filters, const PlanesOptions& options)
    : options_(options),
      input_(static_cast<std::size_t>(std::clamp(options.queueCapacity, 2, 4)), options.policy),
      // Never the bottleneck: the pipelines hold at most their queues and slots of frames each.
      waiting_(static_cast<std::size_t>(4 * std::clamp(options.queueCapacity, 2, 4) + 8), QueuePolicy::Lossless) {
  if (options.policy == QueuePolicy::Invalid) throw InvalidArgument("No queue policy chosen.");
  if (options.planes.empty()) throw InvalidArgument("Planes mode needs the planes the source hands out.");
  if (std::none_of(filters.begin(), filters.end(), [](const auto& f) { return f.has_value(); }))
    throw InvalidArgument("Planes mode needs a plane to filter.");
  auto cache = std::make_shared<ProgramCache>();
  pipelines_.resize(options.planes.size());
  for (std::size_t i = 0; i < options.planes.size() && i < filters.size(); ++i) {
    if (!filters[i]) continue;
    const PlanesOptions::Plane& p = options.planes[i];
    if (channelCount(p.format) != 1) throw InvalidArgument("A plane is filtered as gray8 or gray16 frames.");
    PipelineOptions po;
    po.policy = QueuePolicy::Lossless;  // the input queue drops whole frames
    po.handOutWhenIdle = options.policy == QueuePolicy::Live;  // a live picture (a paused one too) at once
    po.queueCapacity = options.queueCapacity;
    po.deviceSlots = options.deviceSlots;
    po.format = p.format;
    po.deliverPixels = options.deliverPixels;
    po.expectedWidth = p.width;
    po.expectedHeight = p.height;
    po.tuner = options.tuner;
    po.liveEdits = options.liveEdits;
    po.paramsTag = options.paramsTag;
    pipelines_[i] = std::make_unique<Pipeline>(withOwnQueue(device), *filters[i], po, cache);
  }
  feeder_ = std::thread([this] { feed(); });
}

PlanesChannel::~PlanesChannel() {
  cancel();
  if (feeder_.joinable()) feeder_.join();
}

const Pipeline* PlanesChannel::plane(int i) const {
  return i >= 0 && static_cast<std::size_t>(i) < pipelines_.size() ? pipelines_[static_cast<std::size_t>(i)].get()
                                                                   : nullptr;
}

bool PlanesChannel::push(Frame frame) {
  stats_.frameIn();
  const PushResult r = input_.push(std::move(frame));
  if (r == PushResult::QueuedDroppedOldest) stats_.dropped(DropCause::EngineLate);
  return r != PushResult::Closed;
}

void PlanesChannel::endOfInput() {
  input_.close();
}

void PlanesChannel::feed() {
  setThreadName("lc-planes");
  while (std::optional<Frame> frame = input_.pop()) {
    if (frame->planes.size() < pipelines_.size()) {
      // Not a frame of planes, or fewer than announced: left for pop() to refuse,
      // its planes' pipelines given nothing so they stay in step.
      frame->planes.clear();
      if (waiting_.push({std::move(*frame), 0, 0}) == PushResult::Closed) break;
      continue;
    }
    const int width = frame->width(), height = frame->height();
    std::shared_ptr<const std::vector<Image>> source;
    if (options_.returnSource) {
      auto copy = std::make_shared<std::vector<Image>>();
      for (const Image& p : frame->planes) {
        Image c(p.width(), p.height(), p.format());
        const ImageView from = p.view(), to = c.view();
        for (int y = 0; y < from.height; ++y) std::copy_n(from.row(y), from.rowBytes(), to.row(y));
        copy->push_back(std::move(c));
      }
      source = std::move(copy);
    }
    bool open = true;
    for (std::size_t i = 0; i < pipelines_.size() && open; ++i) {
      if (!pipelines_[i]) continue;
      Frame plane;
      plane.image = std::move(frame->planes[i]);
      plane.index = frame->index;
      plane.ptsSeconds = frame->ptsSeconds;
      plane.hasPts = frame->hasPts;
      open = pipelines_[i]->push(std::move(plane));
    }
    if (!open || waiting_.push({std::move(*frame), width, height, std::move(source)}) == PushResult::Closed) break;
  }
  for (auto& p : pipelines_)
    if (p) p->endOfInput();
  waiting_.close();
}

std::optional<Frame> PlanesChannel::pop() {
  for (;;) {
    std::optional<Waiting> waiting = waiting_.pop();
    if (!waiting) {
      // The end, or a plane's engine failed and the feeder stopped: its error, if any.
      for (auto& p : pipelines_)
        while (p && p->pop()) {
        }
      return std::nullopt;
    }
    Frame* frame = &waiting->frame;
    if (frame->planes.empty())
      throw InvalidArgument("Frame " + std::to_string(frame->index) +
                            " did not come as planes, or with fewer planes than the first; planes mode filters one "
                            "layout from the first frame to the last.");
    FrameTimings sum;
    bool first = true, oneSet = true;
    for (std::size_t i = 0; i < pipelines_.size(); ++i) {
      if (!pipelines_[i]) continue;
      std::optional<Frame> plane = pipelines_[i]->pop();
      if (!plane) return std::nullopt;  // cancelled
      frame->planes[i] = std::move(plane->image);
      sum.uploadMs += plane->timings.uploadMs;
      sum.kernelMs += plane->timings.kernelMs;
      sum.readbackMs += plane->timings.readbackMs;
      sum.wallMs = std::max(sum.wallMs, plane->timings.wallMs);
      if (first) {
        frame->variantAsked = plane->variantAsked;
        frame->variantRan = plane->variantRan;
        frame->paramsTag = plane->paramsTag;
        first = false;
      } else {
        oneSet = oneSet && plane->paramsTag == frame->paramsTag;
      }
    }
    if (!oneSet && options_.policy == QueuePolicy::Live) {  // a set took over between its planes
      stats_.dropped(DropCause::EngineLate);
      continue;
    }
    frame->timings = sum;
    frame->sourcePlanes = std::move(waiting->source);
    stats_.addStageMs(Stage::Decode, frame->decodeMs);
    stats_.addStageMs(Stage::Convert, frame->convertMs);
    stats_.addStageMs(Stage::Upload, sum.uploadMs);
    stats_.addStageMs(Stage::Kernel, sum.kernelMs);
    stats_.addStageMs(Stage::Readback, sum.readbackMs);
    stats_.frameOut(waiting->width, waiting->height, 0);
    return std::move(*frame);
  }
}

Pipeline& PlanesChannel::primary() const {
  for (const auto& p : pipelines_)
    if (p) return *p;
  throw InvalidArgument("Planes mode needs a plane to filter.");  // the constructor refused it already
}

void PlanesChannel::setParams(const FilterParams& params, std::uint64_t tag, PixelFormat) {
  // The first plane validates it (throws before any plane takes it); the planes differ only in size.
  for (auto& p : pipelines_)
    if (p) p->setParams(params, tag);
}

LiveChannel::ParamsState PlanesChannel::paramsState(std::uint64_t tag) const {
  ParamsState all;
  all.known = all.built = all.current = true;
  for (const auto& p : pipelines_) {
    if (!p) continue;
    const ParamsState one = p->paramsState(tag);
    all.known = all.known && one.known;
    all.built = all.built && one.built;
    all.current = all.current && one.current;
    if (one.failed && !all.failed) {
      all.failed = true;
      all.error = one.error;
      all.buildLog = one.buildLog;
    }
  }
  return all;
}

bool PlanesChannel::kernelWaiting() const {
  return std::any_of(pipelines_.begin(), pipelines_.end(), [](const auto& p) { return p && p->kernelWaiting(); });
}

void PlanesChannel::setDeliverPixels(bool on) {
  for (auto& p : pipelines_)
    if (p) p->setDeliverPixels(on);
}

void PlanesChannel::cancel() {
  input_.cancel();
  waiting_.cancel();
  for (auto& p : pipelines_)
    if (p) p->cancel();
}

}  // namespace liveconv
