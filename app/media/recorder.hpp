// A recording of filtered frames, on a thread of its own (lc-record): the
// thread that hands frames over copies each into a bounded queue and goes on;
// the encoder and the muxer (FrameSink, staged as every output is) run here,
// so no lock a window's UI thread takes is held while a frame is encoded. A
// full queue holds the caller (the window's present thread), never drops a
// frame. A write error ends the recording: the file is discarded (the staged
// output), error() says why and push() refuses from then on. close() ends a
// recording without waiting for the encoder's flush and the trailer.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "liveconv/frame.hpp"

namespace liveconv::app {

class Recorder {
 public:
  Recorder(std::unique_ptr<FrameSink> sink, std::string path, std::size_t capacity = 8);
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
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Frame> queue_;
  bool closing_ = false, finished_ = false;
  std::string error_;
  std::atomic<long long> taken_{0}, written_{0};
  std::atomic<bool> failed_{false}, done_{false};
  std::thread thread_;  // last: starts once the rest is there
};

}  // namespace liveconv::app
