#include "qt/frame_loop.hpp"

#include <cstdlib>
#include <exception>

#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"

namespace liveconv::ui {

std::string FrameLoop::deviceSelector() const {
  if (model_.deviceIndex() >= 0) return std::to_string(model_.deviceIndex());
  const char* env = std::getenv(kDeviceEnvVar);
  return env ? env : "";
}

std::string FrameLoop::open(const std::string& source) {
  const std::string device = deviceSelector();
  std::unique_ptr<FrameFeed> next;
  try {
    next = makeFrameFeed(source, device, model_.snapshot());
  } catch (const BuildError& e) {
    return std::string(e.what()) + "\n" + e.buildLog();
  } catch (const std::exception& e) {
    return e.what();
  }
  adopt(std::move(next), source);
  return {};
}

void FrameLoop::adopt(std::unique_ptr<FrameFeed> feed, const std::string& source) {
  // Only now is the old feed (and the frame it owns) let go; its recording is finished first.
  stopRecording();
  frame_ = FeedFrame{};
  feed_ = std::move(feed);
  model_.setSource(source);
  handedVersion_ = model_.version();
  notedRejection_ = 0;
  failure_.clear();
  firstFrameWanted_ = true;
}

const FeedFrame& FrameLoop::tick(bool step) {
  if (!feed_) return frame_;
  if (!failure_.empty()) {
    if (model_.deviceIndex() == failedDevice_) return frame_;
    // Another device was picked after the failure: the same source again, on it.
    const std::string error = open(model_.source());
    if (!error.empty()) {
      failure_ = error;
      failedDevice_ = model_.deviceIndex();
      return frame_;
    }
  }
  try {
    if (model_.version() != handedVersion_) {
      if (auto snapshot = model_.snapshot())
        feed_->setParams(snapshot);  // nullptr: invalid mask, keep the last good one
      handedVersion_ = model_.version();
    }
    // A source opened while paused shows its first frame: one step, then hold.
    const bool stepNow = step || (firstFrameWanted_ && model_.view().paused);
    firstFrameWanted_ = false;
    frame_ = feed_->advance(stepNow ? Advance::Step : model_.view().paused ? Advance::Hold : Advance::Play);
    stats_ = feed_->stats();
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
  failedDevice_ = model_.deviceIndex();
  frame_ = FeedFrame{};  // its pixels belong to the failed feed; the viewport keeps the last upload
  if (recording()) {
    try {
      feed_->stopRecording();  // the frames written so far stay a playable file
    } catch (const std::exception&) {
    }
    finishRecording(why);
  }
}

std::string FrameLoop::startRecording(const std::string& path) {
  if (!feed_) return "No source is open, so there is nothing to record.";
  if (recording()) return "Already recording to " + recordingPath_ + "; stop that recording first.";
  const std::string error = feed_->startRecording(path);
  if (!error.empty()) return error;
  recordingPath_ = path;
  recordingStart_ = std::chrono::steady_clock::now();
  stats_.recordedFrames = 0;  // until the next tick brings the feed's count
  return {};
}

void FrameLoop::stopRecording() {
  if (!recording()) return;
  feed_->stopRecording();
  finishRecording({});
}

double FrameLoop::recordingSeconds() const {
  if (!recording()) return 0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - recordingStart_).count();
}

void FrameLoop::finishRecording(const std::string& stoppedBy) {
  lastRecording_ = {recordingPath_, feed_->stats().recordedFrames, recordingSeconds(), stoppedBy};
  ++recordingsFinished_;
  recordingPath_.clear();
}

}  // namespace liveconv::ui
