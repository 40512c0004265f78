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
  // Only now is the old feed (and the frame it owns) let go; its recording is finished first.
  stopRecording();
  frame_ = FeedFrame{};
  feed_ = std::move(next);
  model_.setSource(source);
  handedVersion_ = model_.version();
  notedRejection_ = 0;
  return {};
}

const FeedFrame& FrameLoop::tick(bool step) {
  if (!feed_) return frame_;
  if (model_.version() != handedVersion_) {
    if (auto snapshot = model_.snapshot()) feed_->setParams(snapshot);  // nullptr: invalid mask, keep the last good one
    handedVersion_ = model_.version();
  }
  frame_ = feed_->advance(step ? Advance::Step : model_.view().paused ? Advance::Hold : Advance::Play);
  stats_ = feed_->stats();
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

std::string FrameLoop::startRecording(const std::string& path) {
  if (!feed_) return "No source is open, so there is nothing to record.";
  if (recording()) return "Already recording to " + recordingPath_ + "; stop that recording first.";
  const std::string error = feed_->startRecording(path);
  if (!error.empty()) return error;
  recordingPath_ = path;
  recordingStart_ = std::chrono::steady_clock::now();
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
