// One step of the shell's frame side, without Qt: hand the model's newest
// snapshot to the feed, take a frame, and tell the model which variant the
// feed refused. The Qt window calls tick() from a timer; the tests call it
// directly. Opening a source builds a new feed and keeps the old one when the
// new source fails, so a bad file never leaves the window without a picture.
//
// Recording goes to the feed's own recorder (FrameFeed::startRecording, the
// sink of `liveconv run -o`), as in the GLFW viewer; this class only keeps the
// clock and notices when the feed stopped a recording by itself.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "feed/frame_feed.hpp"
#include "model/frame_stats.hpp"
#include "model/viewer_model.hpp"

namespace liveconv::ui {

class FrameLoop {
 public:
  explicit FrameLoop(ViewerModel& model) : model_(model) {}

  // Builds the feed for `source` on the model's device. Returns an empty
  // string, or the sentence that says why the source did not open (the
  // previous feed, its recording and the model's source stay as they were).
  // A recording of the previous source is finished first (see lastRecording()).
  std::string open(const std::string& source);
  // Puts `feed` in place of the current one, as open() does once the feed is
  // built (the tests hand in feeds of their own through this).
  void adopt(std::unique_ptr<FrameFeed> feed, const std::string& source);
  bool running() const { return feed_ != nullptr; }
  // The device the feed is asked for: the model's index, else $LIVECONV_DEVICE,
  // else "" (the first GPU, else the CPU), as `liveconv devices` marks with *.
  std::string deviceSelector() const;

  // Advances (or holds, when paused and not stepping) and returns the frame.
  // Never throws: when the feed does (a device that stopped answering, a
  // driver error), failure() says so, a recording is finished, and the feed
  // is asked for nothing more until a source is opened or another device is
  // picked in the model; the last picture stays on screen.
  const FeedFrame& tick(bool step);
  const std::string& failure() const { return failure_; }
  const FeedFrame& frame() const { return frame_; }
  // The feed's stats with displayMs filled in by the caller through setDisplayMs().
  const FrameStats& stats() const { return stats_; }
  void setDisplayMs(double ms) { displayMs_ = ms; }
  std::uint64_t framesTicked() const { return ticks_; }

  // ---- recording the filtered output
  struct Recording {
    std::string path;
    long long frames = 0;
    double seconds = 0;
    std::string stoppedBy;  // why the feed ended it on its own (a write error); empty when stopped by the user
  };
  // Starts writing every filtered frame to `path` (.mkv: FFV1, lossless; .mp4:
  // H.264; as `liveconv run -o`). Returns "" or the sentence why not.
  std::string startRecording(const std::string& path);
  // Finishes the file (encoder flushed, trailer written); lastRecording() then
  // says what was recorded. Does nothing when not recording.
  void stopRecording();
  bool recording() const { return !recordingPath_.empty(); }
  const std::string& recordingPath() const { return recordingPath_; }
  double recordingSeconds() const;
  // The recording finished last (by stopRecording(), a source change, or the
  // feed itself); recordingsFinished() grows by one each time.
  const Recording& lastRecording() const { return lastRecording_; }
  std::uint64_t recordingsFinished() const { return recordingsFinished_; }

 private:
  void finishRecording(const std::string& stoppedBy);
  void fail(const std::string& why);

  ViewerModel& model_;
  std::unique_ptr<FrameFeed> feed_;
  FeedFrame frame_;
  FrameStats stats_;
  std::uint64_t handedVersion_ = 0, notedRejection_ = 0, ticks_ = 0;
  double displayMs_ = 0;
  std::string recordingPath_;
  std::chrono::steady_clock::time_point recordingStart_{};
  Recording lastRecording_;
  std::uint64_t recordingsFinished_ = 0;
  std::string failure_;
  int failedDevice_ = -1;
  bool firstFrameWanted_ = false;
};

}  // namespace liveconv::ui
