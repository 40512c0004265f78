#include "qt/frame_loop.hpp"

#include <cstdlib>
#include <exception>

#include "feed/display_link.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"

namespace liveconv::ui {

namespace {
std::string defaultSelector() {
  const char* env = std::getenv(kDeviceEnvVar);
  return env ? env : "";
}
}  // namespace

FrameLoop::FrameLoop(ViewerModel& model, Opener opener)
    : model_(model),
      opener_(opener ? std::move(opener) : Opener(makeFrameFeed)),
      switcher_(
          [this](const std::string& source, const std::string& selector,
                 std::shared_ptr<const ParamsSnapshot> initial) {
            return opener_(source, selector, std::move(initial), link_.load());
          },
          defaultSelector()) {}

std::string FrameLoop::deviceSelector() const {
  if (model_.deviceIndex() >= 0) return std::to_string(model_.deviceIndex());
  return defaultSelector();
}

void FrameLoop::open(const std::string& source) {
  stopRecording();  // the recording of the playing source ends with the request
  // A device switch that failed is not asked for again with the next source.
  if (deviceSwitchFailed()) model_.setDevice(playingDevice_);
  // The same source again (the playing one, or one whose feed failed) opens again.
  if (!model_.setSource(source) || source == playingSource_) switcher_.reopen();
  askedAny_ = false;  // tick() finishes the recording of the playing source
}

bool FrameLoop::deviceSwitchFailed() const {
  return running() && openingMessage().empty() && !openError().empty() && model_.deviceIndex() != playingDevice_;
}

int FrameLoop::deviceToKeep() const {
  return deviceSwitchFailed() ? playingDevice_ : model_.deviceIndex();
}

void FrameLoop::adopt(std::unique_ptr<FrameFeed> feed, const std::string& source) {
  stopRecording();
  model_.setSource(source);
  switcher_.adopt(std::move(feed), source, model_.deviceIndex());
  askedSource_ = source;
  askedDevice_ = model_.deviceIndex();
  askedAny_ = true;
  installed(source);
}

void FrameLoop::shutdown() {
  stopRecording();
  switcher_.reset();
  frame_ = FeedFrame{};
}

// A new feed took over: only now is the old one (and the frame it owns) gone.
void FrameLoop::installed(const std::string& source) {
  frame_ = FeedFrame{};
  playingSource_ = source;
  playingDevice_ = askedDevice_;  // what the switcher opened the installed feed on
  handedVersion_ = 0;
  notedRejection_ = 0;
  failure_.clear();
  firstFrameWanted_ = true;
  ++installs_;
}

const FeedFrame& FrameLoop::tick(bool step) {
  // A request for another source or device (or the same one again): the
  // recording of what plays now ends here, before its feed is replaced.
  if (!askedAny_ || model_.source() != askedSource_ || model_.deviceIndex() != askedDevice_) {
    if (askedAny_ || running()) stopRecording();
    askedSource_ = model_.source();
    askedDevice_ = model_.deviceIndex();
    askedAny_ = true;
  }
  if (switcher_.sync(model_)) installed(askedSource_);
  FrameFeed* feed = switcher_.feed();
  if (!feed || !failure_.empty()) return frame_;
  try {
    if (model_.version() != handedVersion_) {
      // nullptr: an invalid mask, keep the last good one. The feed keeps its
      // own device; a device change makes a new feed through the switcher.
      if (auto snapshot = model_.snapshot()) feed->setParams(switcher_.forFeed(snapshot));
      handedVersion_ = model_.version();
    }
    // A source opened while paused shows its first frame: one step, then hold.
    const bool stepNow = step || (firstFrameWanted_ && model_.view().paused);
    firstFrameWanted_ = false;
    frame_ = feed->advance(stepNow ? Advance::Step : model_.view().paused ? Advance::Hold : Advance::Play);
    stats_ = feed->stats();
  } catch (const cl::Error& e) {
    fail(std::string("The OpenCL device stopped working: ") + e.what() + " failed with " + clErrorName(e.err()) + ".");
    return frame_;
  } catch (const std::exception& e) {
    fail(std::string("Filtering stopped: ") + e.what());
    return frame_;
  }
  stats_.stages.displayMs = displayMs_;
  // The feed drops its recorder on a write error (a full disk) and says why in sourceMessage.
  if (recording() && stats_.recordingPath.empty())
    finishRecording(stats_.sourceMessage.empty() ? "The recorder stopped." : stats_.sourceMessage);
  if (stats_.rejectedVersion > notedRejection_) {
    notedRejection_ = stats_.rejectedVersion;
    model_.noteVariantFailure(stats_.rejectedVariant, stats_.error.substr(0, stats_.error.find('\n')));
  }
  ++ticks_;
  return frame_;
}

void FrameLoop::fail(const std::string& why) {
  failure_ = why;
  frame_ = FeedFrame{};  // its pixels belong to the failed feed; the viewport keeps the last upload
  if (recording()) {
    try {
      switcher_.feed()->stopRecording();  // the frames written so far stay a playable file
    } catch (const std::exception&) {
    }
    finishRecording(why);
  }
}

std::string FrameLoop::whyNoRecording() const {
  if (!running()) return "No source is open, so there is nothing to record.";
  return switcher_.feed()->whyNoRecording();
}

std::string FrameLoop::startRecording(const std::string& path) {
  if (!running()) return "No source is open, so there is nothing to record.";
  if (recording()) return "Already recording to " + recordingPath_ + "; stop that recording first.";
  const std::string error = switcher_.feed()->startRecording(path);
  if (!error.empty()) return error;
  recordingPath_ = path;
  recordingStart_ = std::chrono::steady_clock::now();
  stats_.recordedFrames = 0;  // until the next tick brings the feed's count
  return {};
}

void FrameLoop::stopRecording() {
  if (!recording()) return;
  switcher_.feed()->stopRecording();
  finishRecording({});
}

double FrameLoop::recordingSeconds() const {
  if (!recording()) return 0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - recordingStart_).count();
}

void FrameLoop::finishRecording(const std::string& stoppedBy) {
  lastRecording_ = {recordingPath_, switcher_.feed()->stats().recordedFrames, recordingSeconds(), stoppedBy};
  ++recordingsFinished_;
  recordingPath_.clear();
}

}  // namespace liveconv::ui
