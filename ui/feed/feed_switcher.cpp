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
  feedDevice_ = deviceIndex;
  feedFormat_ = askedFormat_ = format;
  askedSource_ = source;
  askedDevice_ = deviceIndex;
  askedAny_ = true;
}

void FeedSwitcher::reset() {
  feed_.reset();
}

std::string FeedSwitcher::selectorFor(int deviceIndex) const {
  return deviceIndex < 0 ? defaultSelector_ : std::to_string(deviceIndex);
}

std::shared_ptr<const ParamsSnapshot> FeedSwitcher::forFeed(std::shared_ptr<const ParamsSnapshot> snapshot) const {
  const bool ownFormat = feed_ && !feed_->changesFormatInPlace();
  if (!snapshot || (snapshot->deviceIndex == feedDevice_ && (!ownFormat || snapshot->format == feedFormat_)))
    return snapshot;
  auto own = std::make_shared<ParamsSnapshot>(*snapshot);
  own->deviceIndex = feedDevice_;
  if (ownFormat) own->format = feedFormat_;
  return own;
}

bool FeedSwitcher::sync(const ViewerModel& model) {
  if (auto snapshot = model.snapshot()) lastGood_ = snapshot;
  // A new request: the model names another source or device than the last one asked for.
  const std::string& source = model.source();
  const int device = model.deviceIndex();
  // A source that hands out one format: another format is a new feed, opened while this one
  // plays on (the test pattern and FFmpeg's decoders change format in place).
  const PixelFormat format = model.format();
  const bool formatSwitch = format != askedFormat_ && feed_ && !feed_->changesFormatInPlace();
  // Nothing plays because the set it opened with cannot run here (a variant
  // refused, a kernel that failed to build): the next set opens it again.
  const bool setRefused = errorExitCode_ == media::kExitUnsupported || errorExitCode_ == media::kExitBuildFailed;
  if (!feed_ && pendingMessage_.empty() && setRefused && lastGood_ && lastGood_->version != refusedVersion_)
    askedAny_ = false;
  if (lastGood_ && (!askedAny_ || source != askedSource_ || device != askedDevice_ || formatSwitch)) {
    const bool newSource = !askedAny_ || source != askedSource_;
    const bool deviceSwitch = device != askedDevice_;
    askedSource_ = source;
    askedDevice_ = device;
    askedFormat_ = format;
    askedAny_ = true;
    Job job;
    job.ticket = ++lastTicket_;
    job.source = source;
    job.deviceIndex = device;
    job.selector = selectorFor(device);
    job.snapshot = lastGood_;
    job.openTimeoutSeconds = model.view().openTimeoutSeconds;
    job.hwaccel = model.view().hwaccel;
    pendingVersion_ = lastGood_->version;
    pendingSource_ = source;
    pendingDevice_ = device;
    pendingFormat_ = format;
    pendingIsDeviceSwitch_ = !newSource;
    pendingMessage_ = newSource      ? "opening " + (source.empty() ? std::string("the bundled clip") : source) + " ..."
                      : deviceSwitch ? "switching device ..."
                                     : std::string("switching to ") + toString(format) + " ...";
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
  pendingMessage_.clear();
  if (!done->feed) {
    // A set that cannot run is said as `liveconv run` says it: the source is not what failed.
    const std::string what = pendingSource_.empty() ? std::string("the bundled clip") : pendingSource_;
    if (done->exitCode == media::kExitUnsupported || done->exitCode == media::kExitBuildFailed)
      error_ = done->error;
    else if (pendingIsDeviceSwitch_)
      error_ = "Cannot switch the device: " + done->error;
    else
      error_ = "Cannot open " + what + ": " + done->error;
    errorExitCode_ = done->exitCode;
    errorBuildLog_ = std::move(done->buildLog);
    refusedVersion_ = pendingVersion_;
    return false;
  }
  error_.clear();
  errorExitCode_ = media::kExitOk;
  errorBuildLog_.clear();
  feed_ = std::move(done->feed);  // the old feed (and the frame it owns) goes only now
  feedDevice_ = pendingDevice_;
  feedFormat_ = pendingFormat_;
  return true;
}

bool FeedSwitcher::cancel() {
  if (pendingMessage_.empty()) return false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = lastTicket_;
    job_.reset();  // not started yet: never starts
  }
  ++lastTicket_;  // whatever the open in flight makes is dropped when it arrives
  pendingMessage_.clear();
  const std::string what = pendingSource_.empty() ? std::string("the bundled clip") : pendingSource_;
  error_ = pendingIsDeviceSwitch_ ? "Cancelled the device switch." : "Cancelled opening " + what + ".";
  errorExitCode_ = media::kExitInputFailed;
  errorBuildLog_.clear();
  refusedVersion_ = pendingVersion_;
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
