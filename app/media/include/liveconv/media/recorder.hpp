// A recording of filtered frames, on a thread of its own (lc-record): the
// thread that hands frames over copies each into a bounded queue and goes on;
// the encoder and the muxer (FrameSink, staged as every output is) run here,
// so no lock a window's UI thread takes is held while a frame is encoded. A
// full queue holds the caller (the window's present thread), never drops a
// frame. A write error ends the recording: the file is discarded (the staged
// output), error() says why and push() refuses from then on. close() ends a
// recording without waiting for the encoder's flush and the trailer.
//
// The file keeps the source's times (RecordingClock): a frame the window did
// not filter (it was late) leaves a gap as long as the frames it missed, so the
// recording plays at the source's pace, whatever the filter's speed.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "liveconv/frame.hpp"

namespace liveconv::media {

// The time of each recorded frame, in seconds from the first: the source's
// own times (Frame::ptsSeconds), so frames missed between two recorded ones
// are a gap of their length. Where the source's clock jumps (a seek, a loop
// to the start: another Frame::timeline; a time not after the last) or a
// frame has no time, the recording goes on one frame later (the last frame's
// own duration, else `frameSeconds`) rather than jump with it.
class RecordingClock {
 public:
  explicit RecordingClock(double frameSeconds) : frameSeconds_(frameSeconds > 0 ? frameSeconds : 1.0 / 30) {}
  double next(const Frame& frame);

 private:
  double frameSeconds_;
  bool started_ = false, lastHadPts_ = false;
  std::uint32_t timeline_ = 0;
  double lastSource_ = 0, lastRecorded_ = 0, lastDuration_ = 0;
};

class Recorder {
 public:
  // `frameSeconds`: one frame of the source at its nominal rate (RecordingClock).
  Recorder(std::unique_ptr<FrameSink> sink, std::string path, double frameSeconds, std::size_t capacity = 8);
  ~Recorder();  // finish(), if not done
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Queues a copy of the frame's pixels; false once the recording failed or finished.
  bool push(const Frame& frame);
  // Asks lc-record to write what is queued and finish the file, and returns at
  // once (a window's UI thread); done() says when the file is complete.
  void close();
  bool done() const { return done_; }
  // close(), then waits for the file; the error, or "".
  std::string finish();

  const std::string& path() const { return path_; }
  long long frames() const { return taken_; }     // taken for the file (queued or written): what the user sees counted
  long long written() const { return written_; }  // through the encoder so far
  bool failed() const { return failed_; }
  std::string error() const;

 private:
  void run();

  std::unique_ptr<FrameSink> sink_;  // lc-record's alone once the thread runs
  const std::string path_;
  const std::size_t capacity_;
  RecordingClock clock_;  // the pushing thread's
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Frame> queue_;
  bool closing_ = false, finished_ = false;
  std::string error_;
  std::atomic<long long> taken_{0}, written_{0};
  std::atomic<bool> failed_{false}, done_{false};
  std::thread thread_;  // last: starts once the rest is there
};

}  // namespace liveconv::media
