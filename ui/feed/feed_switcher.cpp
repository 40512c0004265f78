#include "feed/feed_switcher.hpp"

#include <exception>

#include "liveconv/pipeline.hpp"  // setThreadName

namespace liveconv::ui {

FeedSwitcher::FeedSwitcher(Factory factory, std::string defaultSelector)
    : factory_(std::move(factory)), defaultSelector_(std::move(defaultSelector)) {
  worker_ = std::thread([this] { workerLoop(); });
}

FeedSwitcher::~FeedSwitcher() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

void FeedSwitcher::adopt(std::unique_ptr<FrameFeed> feed, const std::string& source, int deviceIndex,
                         PixelFormat format) {
  feed_ = std::move(feed);
  playing_.source = source;
  playing_.device = deviceIndex;
  ++installs_;
  playing_.format = asked_.format = format;
  asked_.source = source;
  asked_.device = deviceIndex;
  asked_.planes = feed_ && feed_->filtersPlanes();
  asked_.any = true;
}

void FeedSwitcher::reset() {
  feed_.reset();
}

std::string FeedSwitcher::selectorFor(int deviceIndex) const {
  return deviceIndex < 0 ? defaultSelector_ : std::to_string(deviceIndex);
}

std::shared_ptr<const ParamsSnapshot> FeedSwitcher::forFeed(std::shared_ptr<const ParamsSnapshot> snapshot) const {
  const bool ownFormat = feed_ && !feed_->changesFormatInPlace();
  if (!snapshot || (snapshot->deviceIndex == playing_.device && (!ownFormat || snapshot->format == playing_.format)))
    return snapshot;
  auto own = std::make_shared<ParamsSnapshot>(*snapshot);
  own->deviceIndex = playing_.device;
  if (ownFormat) own->format = playing_.format;
  return own;
}

namespace {

// What a switch of the same source switches to ("the device", "the source's planes", "gray").
std::string switchTarget(bool deviceSwitch, bool planesSwitch, bool planes, PixelFormat format) {
  if (deviceSwitch) return "the device";
  if (planesSwitch) return planes ? "the source's planes" : "RGBA";
  return toString(format);
}

// What the window says while the open runs.
std::string openingMessage(bool newSource, bool deviceSwitch, bool planesSwitch, bool planes, const std::string& source,
                           PixelFormat format) {
  if (newSource) return "opening " + (source.empty() ? std::string("the bundled clip") : source) + " ...";
  if (deviceSwitch) return "switching device ...";
  if (planesSwitch) return planes ? "switching to the source's planes ..." : "switching to RGBA ...";
  return std::string("switching to ") + toString(format) + " ...";
}

}  // namespace

FeedSwitcher::Job FeedSwitcher::nextJob(const ViewerModel& model) {
  Job job;
  job.ticket = ++lastTicket_;
  job.source = model.source();
  job.deviceIndex = model.deviceIndex();
  job.selector = selectorFor(job.deviceIndex);
  job.snapshot = lastGood_;
  job.openTimeoutSeconds = model.view().openTimeoutSeconds;
  job.hwaccel = model.view().hwaccel;
  job.planes = model.view().planes;
  return job;
}

bool FeedSwitcher::sync(const ViewerModel& model) {
  if (auto snapshot = model.snapshot()) lastGood_ = snapshot;
  // A new request: the model names another source or device than the last one asked for.
  const std::string& source = model.source();
  const int device = model.deviceIndex();
  // A source that hands out one format: another format is a new feed, opened while this one
  // plays on (the test pattern and FFmpeg's decoders change format in place).
  const PixelFormat format = model.format();
  const bool formatSwitch = format != asked_.format && feed_ && !feed_->changesFormatInPlace();
  // Planes mode on or off: the source opened again, handing out its planes or pictures.
  const bool planesSwitch = model.view().planes != asked_.planes;
  // Nothing plays because the set it opened with cannot run here (a variant
  // refused, a kernel that failed to build): the next set opens it again.
  const bool setRefused = failure_.exitCode == media::kExitUnsupported || failure_.exitCode == media::kExitBuildFailed;
  if (!feed_ && pending_.message.empty() && setRefused && lastGood_ && lastGood_->version != failure_.refusedVersion)
    asked_.any = false;
  if (lastGood_ &&
      (!asked_.any || source != asked_.source || device != asked_.device || formatSwitch || planesSwitch)) {
    const bool newSource = !asked_.any || source != asked_.source;
    const bool deviceSwitch = device != asked_.device;
    asked_.source = source;
    asked_.device = device;
    asked_.format = format;
    asked_.planes = model.view().planes;
    asked_.any = true;
    Job job = nextJob(model);
    pending_.version = lastGood_->version;
    pending_.source = source;
    pending_.device = device;
    pending_.format = format;
    pending_.isDeviceSwitch = !newSource;
    pending_.switchTo = switchTarget(deviceSwitch, planesSwitch, asked_.planes, format);
    pending_.message = openingMessage(newSource, deviceSwitch, planesSwitch, asked_.planes, source, format);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = std::move(job);
    }
    wake_.notify_all();
  }

  std::optional<Result> done;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (result_) {
      done = std::move(result_);
      result_.reset();
    }
  }
  if (!done || done->ticket != lastTicket_) return false;  // nothing yet, or superseded (dropped here)
  pending_.message.clear();
  if (!done->feed) {
    // A set that cannot run is said as `liveconv run` says it: the source is not what failed.
    const std::string what = pending_.source.empty() ? std::string("the bundled clip") : pending_.source;
    if (done->exitCode == media::kExitUnsupported || done->exitCode == media::kExitBuildFailed)
      failure_.error = done->error;
    else if (pending_.isDeviceSwitch)
      failure_.error = (pending_.switchTo == "the device" ? std::string("Cannot switch the device")
                                                          : "Cannot switch to " + pending_.switchTo) +
                       ": " + done->error;
    else
      failure_.error = "Cannot open " + what + ": " + done->error;
    failure_.exitCode = done->exitCode;
    failure_.buildLog = std::move(done->buildLog);
    failure_.refusedVersion = pending_.version;
    return false;
  }
  failure_.error.clear();
  failure_.exitCode = media::kExitOk;
  failure_.buildLog.clear();
  feed_ = std::move(done->feed);  // the old feed (and the frame it owns) goes only now
  playing_ = {pending_.source, pending_.device, pending_.format};
  ++installs_;
  return true;
}

bool FeedSwitcher::cancel() {
  if (pending_.message.empty()) return false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = lastTicket_;
    job_.reset();  // not started yet: never starts
  }
  ++lastTicket_;  // whatever the open in flight makes is dropped when it arrives
  pending_.message.clear();
  const std::string what = pending_.source.empty() ? std::string("the bundled clip") : pending_.source;
  failure_.error = pending_.isDeviceSwitch ? "Cancelled the device switch." : "Cancelled opening " + what + ".";
  failure_.exitCode = media::kExitInputFailed;
  failure_.buildLog.clear();
  failure_.refusedVersion = pending_.version;
  return true;
}

void FeedSwitcher::workerLoop() {
  setThreadName("lc-open");
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || job_; });
      if (stop_) return;
      job = std::move(*job_);
      job_.reset();
    }
    Result result;
    result.ticket = job.ticket;
    try {
      // A stream that never answers gives way to the next request, or to the window closing.
      OpenControl control;
      control.abandoned = [this, ticket = job.ticket] {
        std::lock_guard<std::mutex> lock(mutex_);
        return stop_ || job_.has_value() || cancelled_ == ticket;
      };
      control.timeoutSeconds = job.openTimeoutSeconds;
      control.hwaccel = job.hwaccel;
      control.planes = job.planes;
      result.feed = factory_(job.source, job.selector, job.snapshot, control);
      if (!result.feed) result.error = "no feed was made.";
    } catch (const std::exception& e) {
      result.error = e.what();
      result.exitCode = media::exitCodeFor(e);
      if (const auto* build = dynamic_cast<const BuildError*>(&e)) result.buildLog = build->buildLog();
    }
    std::unique_ptr<FrameFeed> dropped;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (result_) dropped = std::move(result_->feed);  // a result the UI never took: superseded
      result_ = std::move(result);
    }
  }
}

}  // namespace liveconv::ui
