// The recorder on its own thread: whoever hands it frames and whoever reads
// its counters (a window's UI thread, every tick) never waits for the encoder;
// its queue is bounded; a write error ends it with the reason.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "media/recorder.hpp"
#include "media/test_waits.hpp"

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
  // The encoder is stuck in its first write until the gate opens; the queue
  // takes three more at once. Pushed, and the counters read, on threads of
  // their own: one that waited for the encoder would wait for ever, so the
  // test opens the gate and fails.
  auto fourPushes = std::async(std::launch::async, [&] {
    for (int k = 0; k < 4; ++k)
      if (!recorder.push(frameOf(k))) return false;
    return true;
  });
  if (fourPushes.wait_for(std::chrono::duration<double>(test_media::kHangLimitS)) != std::future_status::ready) {
    openGate(sink);
    FAIL() << "a push waited for the encoder";
  }
  EXPECT_TRUE(fourPushes.get());
  auto counters = std::async(std::launch::async, [&] {
    return std::vector<long long>{recorder.frames(), recorder.written(), recorder.failed() ? 1 : 0};
  });
  if (counters.wait_for(std::chrono::duration<double>(test_media::kHangLimitS)) != std::future_status::ready) {
    openGate(sink);
    FAIL() << "reading the counters waited for the encoder";
  }
  EXPECT_EQ(counters.get(), (std::vector<long long>{4, 0, 0})) << "the frames taken are counted at once";
  EXPECT_EQ(recorder.path(), "x.mkv");
  // A full queue holds the feeder (no frame is dropped) until the encoder
  // takes one: its thread goes to sleep in push() (seen asleep twice in a row,
  // not in a passing lock) and is taken only after the gate opened.
  std::atomic<pid_t> feeder{0};
  bool gateWasOpen = false;
  auto fifth = std::async(std::launch::async, [&] {
    feeder = ::gettid();
    const bool taken = recorder.push(frameOf(4));
    std::lock_guard<std::mutex> lock(sink.mutex);
    gateWasOpen = sink.gateOpen;
    return taken;
  });
  int asleepInARow = 0;
  EXPECT_TRUE(test_media::waitUntil([&] {
    asleepInARow = feeder && test_media::asleep(feeder) ? asleepInARow + 1 : 0;
    return fifth.wait_for(0s) == std::future_status::ready || asleepInARow == 2;
  }));
  EXPECT_NE(fifth.wait_for(0s), std::future_status::ready) << "a full queue did not hold the feeder";
  openGate(sink);
  EXPECT_TRUE(fifth.get());
  EXPECT_TRUE(gateWasOpen) << "the fifth frame was taken while the encoder held the first";
  EXPECT_EQ(recorder.finish(), "");
  EXPECT_TRUE(sink.finished);
  EXPECT_EQ(sink.written, (std::vector<int>{0, 1, 2, 3, 4})) << "frames lost or out of order";
  EXPECT_EQ(recorder.frames(), 5);
  EXPECT_EQ(recorder.written(), 5);
  EXPECT_FALSE(recorder.push(frameOf(5))) << "a finished recording took a frame";
}

// Frames are pushed until one is refused: the encoder fails at its third write.
TEST(Recorder, AWriteErrorEndsTheRecordingWithItsReason) {
  auto owned = std::make_unique<GatedSink>(2);
  GatedSink& sink = *owned;
  openGate(sink);
  Recorder recorder(std::move(owned), "x.mkv", 2);
  int pushed = 0;
  EXPECT_TRUE(test_media::waitUntil([&] { return !recorder.push(frameOf(pushed++)); }))
      << "pushes went on after the write error";
  EXPECT_TRUE(recorder.failed());
  EXPECT_EQ(recorder.error(), "Writing x.mkv failed: No space left on device.");
  EXPECT_EQ(recorder.finish(), "Writing x.mkv failed: No space left on device.");
  EXPECT_TRUE(sink.finished) << "the sink was not told (its staged file stays behind)";
  EXPECT_EQ(recorder.written(), 2);
}

}  // namespace
}  // namespace liveconv::app
