#include "feed/feed_recording.hpp"

namespace liveconv::ui {
namespace {
// A recorder finishing its file on lc-record.
class Ending final : public FinishingRecording {
 public:
  explicit Ending(std::shared_ptr<media::Recorder> recorder) : recorder_(std::move(recorder)) {}
  ~Ending() override { recorder_->finish(); }
  bool done() const override { return recorder_->done(); }
  void wait() override { recorder_->finish(); }
  long long frames() const override { return recorder_->written(); }
  std::string error() const override { return recorder_->error(); }

 private:
  std::shared_ptr<media::Recorder> recorder_;
};
}  // namespace

void FeedRecording::begin(std::shared_ptr<media::Recorder> recorder) {
  std::lock_guard<std::mutex> lock(mutex_);
  recorder_ = std::move(recorder);
  lastIndex_ = -1;
}

bool FeedRecording::active() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return recorder_ != nullptr;
}

std::shared_ptr<FinishingRecording> FeedRecording::end() {
  std::shared_ptr<media::Recorder> recorder;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    recorder = std::move(recorder_);
  }
  if (!recorder) return nullptr;
  recorder->close();
  return std::make_shared<Ending>(std::move(recorder));
}

void FeedRecording::record(const Frame& frame) {
  std::shared_ptr<media::Recorder> recorder;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // Zero-copy: frames submitted before recording started carry no host pixels.
    if (!recorder_ || (frame.image.sizeBytes() == 0 && frame.planes.empty())) return;  // planes mode: its planes
    if (frame.index == lastIndex_ && frame.paramsTag == lastTag_) return;
    lastIndex_ = frame.index;
    lastTag_ = frame.paramsTag;
    recorder = recorder_;
  }
  recorder->push(frame);  // waits only while the recorder's queue is full; false once it failed or finished
}

FeedRecording::Status FeedRecording::status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Status s;
  if (!recorder_) return s;
  if (recorder_->failed())
    s.failure = "Recording stopped: " + recorder_->error();
  else
    s.path = recorder_->path();
  s.frames = recorder_->failed() ? recorder_->written() : recorder_->frames();
  return s;
}

}  // namespace liveconv::ui
