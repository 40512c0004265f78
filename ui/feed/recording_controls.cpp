#include "feed/recording_controls.hpp"

#include <filesystem>

#include "feed/feed_switcher.hpp"
#include "feed/session_log.hpp"
#include "model/frame_stats.hpp"

namespace liveconv::ui {

std::string RecordingControls::whyNot() const {
  if (!switcher_.feed()) return "No source is open, so there is nothing to record.";
  return switcher_.feed()->whyNoRecording();
}

bool RecordingControls::wouldReplace(const std::string& path) {
  std::error_code ec;
  return !path.empty() && std::filesystem::exists(path, ec);
}

std::string RecordingControls::start(const std::string& path, bool replace) {
  FrameFeed* feed = switcher_.feed();
  if (!feed) return "No source is open, so there is nothing to record.";
  if (active()) return "Already recording to " + path_ + "; stop that recording first.";
  if (!replace && wouldReplace(path)) return path + " exists and was kept; record to another name.";
  const std::string error = feed->startRecording(path);
  if (!error.empty()) return error;
  path_ = path;
  startedAt_ = std::chrono::steady_clock::now();
  stats_.recordedFrames = 0;  // until the next tick brings the feed's count
  return {};
}

// The file is finished on the recorder's thread; collect() reports it once it is complete.
void RecordingControls::end(const std::string& stoppedBy) {
  if (!active()) return;
  std::shared_ptr<FinishingRecording> ending;
  try {
    if (FrameFeed* feed = switcher_.feed()) ending = feed->stopRecording();
  } catch (const std::exception&) {
  }
  Finishing f{{path_, stats_.recordedFrames, seconds(), stoppedBy}, std::move(ending)};
  path_.clear();
  if (!f.ending) {  // no recorder is finishing a file: it failed, and its part file went with it
    f.recording.complete = false;
    report(f.recording);
    return;
  }
  finishing_.push_back(std::move(f));
}

void RecordingControls::collect() {
  for (auto it = finishing_.begin(); it != finishing_.end();) {
    if (!it->ending->done()) {
      ++it;
      continue;
    }
    Recording r = it->recording;
    r.frames = it->ending->frames();
    const std::string error = it->ending->error();
    if (r.stoppedBy.empty() && !error.empty()) r.stoppedBy = "Recording stopped: " + error;
    r.complete = error.empty();  // a write error: the staged file was discarded
    if (r.complete && r.frames == 0) {  // the sink writes no file without a frame
      r.complete = false;
      if (r.stoppedBy.empty())
        r.stoppedBy = "No frame came while recording (the picture was paused or still), so no file was written.";
    }
    it = finishing_.erase(it);
    report(r);
  }
}

void RecordingControls::waitForAll() {
  for (Finishing& f : finishing_) f.ending->wait();
  collect();
}

std::string RecordingControls::finishingPath() const {
  return finishing_.empty() ? std::string() : finishing_.back().recording.path;
}

double RecordingControls::seconds() const {
  if (!active()) return 0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - startedAt_).count();
}

void RecordingControls::report(const Recording& r) {
  last_ = r;
  ++finished_;
  if (r.complete)
    log_.recorded(r.path, r.frames, r.stoppedBy);
  else
    log_.recordingFailed(r.path, r.frames, r.stoppedBy);
}

}  // namespace liveconv::ui
