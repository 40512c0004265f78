#include "liveconv/media/recorder.hpp"

#include <algorithm>

#include "liveconv/thread_name.hpp"

namespace liveconv::media {

double RecordingClock::next(const Frame& frame) {
  double t = 0;
  if (started_) {
    const bool onTheClock =
        frame.hasPts && lastHadPts_ && frame.timeline == timeline_ && frame.ptsSeconds > lastSource_;
    t = lastRecorded_ + (onTheClock          ? frame.ptsSeconds - lastSource_
                         : lastDuration_ > 0 ? lastDuration_
                                             : frameSeconds_);
  }
  started_ = true;
  lastHadPts_ = frame.hasPts;
  timeline_ = frame.timeline;
  lastSource_ = frame.ptsSeconds;
  lastRecorded_ = t;
  lastDuration_ = frame.durationSeconds;
  return t;
}

Recorder::Recorder(std::unique_ptr<FrameSink> sink, std::string path, double frameSeconds, std::size_t capacity)
    : sink_(std::move(sink)),
      path_(std::move(path)),
      capacity_(capacity > 0 ? capacity : 1),
      clock_(frameSeconds),
      thread_([this] { run(); }) {}

Recorder::~Recorder() {
  finish();
}

bool Recorder::push(const Frame& frame) {
  Frame copy;  // the caller keeps its frame (a window shows it)
  if (!frame.planes.empty()) {  // planes mode: the sink writes them as they are
    copy.planes = frame.planes;
    copy.planesFormat = frame.planesFormat;
  } else {
    const ImageView px = frame.pixels();
    copy.image = Image(px.width, px.height, px.format);
    for (int y = 0; y < px.height; ++y) std::copy(px.row(y), px.row(y) + px.rowBytes(), copy.image.view().row(y));
  }
  copy.index = frame.index;
  copy.durationSeconds = frame.durationSeconds;
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return queue_.size() < capacity_ || closing_ || failed_; });
  if (closing_ || failed_) return false;
  copy.ptsSeconds = clock_.next(frame);  // only for a frame the file takes
  copy.hasPts = true;
  queue_.push_back(std::move(copy));
  ++taken_;
  changed_.notify_all();
  return true;
}

void Recorder::run() {
  setThreadName("lc-record");
  for (;;) {
    Frame frame;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return !queue_.empty() || closing_; });
      if (queue_.empty()) break;  // closing, all written
      frame = std::move(queue_.front());
      queue_.pop_front();
      changed_.notify_all();  // room for the next
    }
    try {
      sink_->write(frame);
      ++written_;
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = e.what();
      failed_ = true;
      queue_.clear();
      changed_.notify_all();
      break;
    }
  }
  try {
    sink_->finish();  // after a failed write: the staged output is discarded
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_.empty()) error_ = e.what();
    failed_ = true;
  }
  done_ = true;
}

void Recorder::close() {
  std::lock_guard<std::mutex> lock(mutex_);
  closing_ = true;
  changed_.notify_all();
}

std::string Recorder::finish() {
  close();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (finished_) return error_;
    finished_ = true;
  }
  if (thread_.joinable()) thread_.join();
  return error();
}

std::string Recorder::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

}  // namespace liveconv::media
