// The window's Record button and its file: starts and ends a recording on the
// feed's own recorder (FrameFeed::startRecording, the sink of `liveconv run -o`),
// keeps its clock, and follows each ended recording until its file is finished
// on the recorder's thread, so the window says what was written only once it
// is there. Both windows reach it through FrameLoop::recordings().
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "feed/frame_feed.hpp"

namespace liveconv::ui {

class FeedSwitcher;
class SessionLog;
struct FrameStats;

class RecordingControls {
 public:
  struct Recording {
    std::string path;
    long long frames = 0;
    double seconds = 0;
    std::string stoppedBy;  // why the feed ended it on its own (a write error); empty when stopped by the user
    // The file is there under `path`, finished. False: the recorder failed (a
    // write error, a full disk) and what it had written was discarded; a file
    // that was there before keeps its old contents.
    bool complete = true;
  };

  // The feed comes from `switcher`; `stats` is the loop's (its recordedFrames
  // counts the recording's frames); what ended goes into `log`.
  RecordingControls(const FeedSwitcher& switcher, FrameStats& stats, SessionLog& log)
      : switcher_(switcher), stats_(stats), log_(log) {}

  // Starts writing every filtered frame to `path` (.mkv: FFV1, lossless; .mp4:
  // H.264; as `liveconv run -o`). Returns "" or the sentence why not. A file
  // already there is kept (refused) unless `replace`: the user said to
  // replace it (a save dialog that asked, the viewer's second Record).
  std::string start(const std::string& path, bool replace = false);
  // Whether a recording to `path` would replace a file that is there.
  static bool wouldReplace(const std::string& path);
  // Ends the recording; its file is finished (encoder flushed, trailer
  // written) on the recorder's thread, and once it is complete last() says
  // what was recorded (a tick later at the earliest). Does nothing when not recording.
  void stop() { end({}); }
  // Ends it for a reason of the feed's own (a write error, a failed device).
  void end(const std::string& stoppedBy);
  // Reports the recordings whose files are finished now (once per tick).
  void collect();
  // Waits until every recording ended is a complete file (closing the window, a signal).
  void waitForAll();
  // The file being finished (the last one, where there are several), or "".
  std::string finishingPath() const;
  bool active() const { return !path_.empty(); }
  // "" when the source playing can be recorded, else why not.
  std::string whyNot() const;
  const std::string& path() const { return path_; }
  double seconds() const;
  // The recording finished last (by stop(), a source change, or the feed
  // itself); finished() grows by one each time.
  const Recording& last() const { return last_; }
  std::uint64_t finished() const { return finished_; }

 private:
  void report(const Recording& r);

  const FeedSwitcher& switcher_;
  FrameStats& stats_;
  SessionLog& log_;
  std::string path_;
  std::chrono::steady_clock::time_point startedAt_{};
  Recording last_;
  struct Finishing {
    Recording recording;
    std::shared_ptr<FinishingRecording> ending;
  };
  std::vector<Finishing> finishing_;  // ended, their files still being finished
  std::uint64_t finished_ = 0;
};

}  // namespace liveconv::ui
