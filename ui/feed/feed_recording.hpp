// The feed's side of a recording (the sink of `liveconv run -o`, on its own
// thread "lc-record"): the recorder in progress, handed each filtered frame on
// "lc-present" once, ended by the UI thread. Its lock is its own and is taken
// alone, so the feed's other state never waits behind an encoder.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "feed/frame_feed.hpp"
#include "liveconv/media/recorder.hpp"

namespace liveconv::ui {

class FeedRecording {
 public:
  void begin(std::shared_ptr<media::Recorder> recorder);
  bool active() const;
  // Ends the recording (null when none): the recorder writes what it still
  // holds and finishes the file on lc-record; the caller does not wait for it.
  std::shared_ptr<FinishingRecording> end();
  // Ends one the feed ended alone (a format switch; the UI thread): its file
  // is finished at the latest when the feed goes.
  void endUnclaimed() {
    if (auto ending = end()) unclaimed_.push_back(std::move(ending));
  }
  // On lc-present: a copy of the frame to the recorder. Paused, a frame is
  // filtered again when a later kernel of its set is ready: the same source
  // frame and set, the same pixels (every variant is exact), so the file keeps
  // the one it has.
  void record(const Frame& frame);

  struct Status {
    std::string path;  // "" when none records, or it failed
    long long frames = 0;
    std::string failure;  // a write error on lc-record (a full disk): the recording is over
  };
  // The recorder's counters are atomics: nothing here waits for an encoder.
  Status status() const;

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<media::Recorder> recorder_;  // the recording in progress, or null
  std::int64_t lastIndex_ = -1;                // the source frame and set written last
  std::uint64_t lastTag_ = 0;
  std::vector<std::shared_ptr<FinishingRecording>> unclaimed_;  // UI thread
};

}  // namespace liveconv::ui
