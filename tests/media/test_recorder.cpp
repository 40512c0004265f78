// The recorder on its own thread: whoever hands it frames and whoever reads
// its counters (a window's UI thread, every tick) never waits for the encoder;
// its queue is bounded; a write error ends it with the reason.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "media/recorder.hpp"

namespace liveconv::app {
namespace {

using namespace std::chrono_literals;

// A sink whose writes wait until the test opens its gate; the `failAt`th write throws.
class GatedSink : public FrameSink {
 public:
  explicit GatedSink(int failAt = -1) : failAt_(failAt) {}
  void write(const Frame& frame) override {
    std::unique_lock<std::mutex> lock(mutex);
    open.wait(lock, [&] { return gateOpen; });
    if (static_cast<int>(written.size()) == failAt_) throw std::runtime_error("Writing x.mkv failed: No space left on device.");
    written.push_back(frame.pixels().row(0)[0]);
  }
  void finish() override {
    std::lock_guard<std::mutex> lock(mutex);
    finished = true;
  }
  std::string describe() const override { return "gated"; }

  std::mutex mutex;
  std::condition_variable open;
  bool gateOpen = false, finished = false;
  std::vector<int> written;

 private:
  int failAt_;
};

Frame frameOf(int value) {
  Frame f;
  f.image = Image(16, 8, PixelFormat::GRAY8);
  for (std::size_t k = 0; k < f.image.sizeBytes(); ++k) f.image.data()[k] = static_cast<std::uint8_t>(value);
  f.index = value;
  return f;
}

void openGate(GatedSink& sink) {
  std::lock_guard<std::mutex> lock(sink.mutex);
  sink.gateOpen = true;
  sink.open.notify_all();
}

TEST(Recorder, NeitherTheFeederNorTheReaderWaitsForTheEncoder) {
  auto owned = std::make_unique<GatedSink>();
  GatedSink& sink = *owned;
  Recorder recorder(std::move(owned), "x.mkv", 3);
  // The encoder is stuck in its first write; the queue takes three more at once.
  for (int k = 0; k < 4; ++k) {
    const auto start = std::chrono::steady_clock::now();
    ASSERT_TRUE(recorder.push(frameOf(k)));
    EXPECT_LT(std::chrono::steady_clock::now() - start, 500ms) << "push " << k << " waited for the encoder";
  }
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(recorder.frames(), 4) << "the frames taken are counted at once";
  EXPECT_EQ(recorder.written(), 0);
  EXPECT_EQ(recorder.path(), "x.mkv");
  EXPECT_FALSE(recorder.failed());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 100ms) << "reading the counters waited for the encoder";
  // A full queue holds the feeder (no frame is dropped) until the encoder takes one.
  auto fifth = std::async(std::launch::async, [&] { return recorder.push(frameOf(4)); });
  EXPECT_EQ(fifth.wait_for(300ms), std::future_status::timeout) << "a full queue did not hold the feeder";
  openGate(sink);
  EXPECT_TRUE(fifth.get());
  EXPECT_EQ(recorder.finish(), "");
  EXPECT_TRUE(sink.finished);
  EXPECT_EQ(sink.written, (std::vector<int>{0, 1, 2, 3, 4})) << "frames lost or out of order";
  EXPECT_EQ(recorder.frames(), 5);
  EXPECT_EQ(recorder.written(), 5);
  EXPECT_FALSE(recorder.push(frameOf(5))) << "a finished recording took a frame";
}

TEST(Recorder, AWriteErrorEndsTheRecordingWithItsReason) {
  auto owned = std::make_unique<GatedSink>(2);
  GatedSink& sink = *owned;
  openGate(sink);
  Recorder recorder(std::move(owned), "x.mkv", 2);
  bool refused = false;
  for (int k = 0; k < 50 && !refused; ++k) {
    refused = !recorder.push(frameOf(k));
    if (!refused) std::this_thread::sleep_for(5ms);
  }
  EXPECT_TRUE(refused) << "pushes went on after the write error";
  EXPECT_TRUE(recorder.failed());
  EXPECT_EQ(recorder.error(), "Writing x.mkv failed: No space left on device.");
  EXPECT_EQ(recorder.finish(), "Writing x.mkv failed: No space left on device.");
  EXPECT_TRUE(sink.finished) << "the sink was not told (its staged file stays behind)";
  EXPECT_EQ(recorder.written(), 2);
}

}  // namespace
}  // namespace liveconv::app
