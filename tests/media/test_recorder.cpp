// The recorder on its own thread: whoever hands it frames and whoever reads
// its counters (a window's UI thread, every tick) never waits for the encoder;
// its queue is bounded; a write error ends it with the reason. The frames
// keep the source's times (RecordingClock).
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

#include "liveconv/media/recorder.hpp"
#include "media/test_waits.hpp"

namespace liveconv::media {
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
  Recorder recorder(std::move(owned), "x.mkv", 1.0 / 30, 3);
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
  Recorder recorder(std::move(owned), "x.mkv", 1.0 / 30, 2);
  int pushed = 0;
  EXPECT_TRUE(test_media::waitUntil([&] { return !recorder.push(frameOf(pushed++)); }))
      << "pushes went on after the write error";
  EXPECT_TRUE(recorder.failed());
  EXPECT_EQ(recorder.error(), "Writing x.mkv failed: No space left on device.");
  EXPECT_EQ(recorder.finish(), "Writing x.mkv failed: No space left on device.");
  EXPECT_TRUE(sink.finished) << "the sink was not told (its staged file stays behind)";
  EXPECT_EQ(recorder.written(), 2);
}

// A frame at source time `seconds` on `timeline`.
Frame at(double seconds, std::uint32_t timeline = 0, double duration = 0) {
  Frame f;
  f.ptsSeconds = seconds;
  f.hasPts = true;
  f.timeline = timeline;
  f.durationSeconds = duration;
  return f;
}

// Frames the window missed are a gap of their length: the recording keeps
// the source's pace (before, every frame was one 1/rate step after the last,
// and 3.4 s of a clip played in 1.9 s).
TEST(RecordingClock, FramesMissedBetweenTwoRecordedOnesAreAGapOfTheirLength) {
  RecordingClock clock(1.0 / 30);
  EXPECT_DOUBLE_EQ(clock.next(at(0.7)), 0.0);  // the first recorded frame starts the file
  EXPECT_NEAR(clock.next(at(0.7 + 1.0 / 30)), 1.0 / 30, 1e-9);
  EXPECT_NEAR(clock.next(at(0.7 + 5.0 / 30)), 5.0 / 30, 1e-9);  // three frames missed
  EXPECT_NEAR(clock.next(at(4.1)), 3.4, 1e-9);                   // a slow filter: 2.5 s between two frames
}

// A seek or a loop to the start: the recording goes on one frame later (the
// last frame's own duration, else one at the nominal rate), then follows the
// source's times again from there.
TEST(RecordingClock, WhereTheSourcesClockJumpsTheRecordingGoesOnOneFrameLater) {
  RecordingClock clock(1.0 / 25);
  clock.next(at(10.0));
  EXPECT_NEAR(clock.next(at(10.04)), 0.04, 1e-9);
  EXPECT_NEAR(clock.next(at(50.0, 1)), 0.08, 1e-9);  // a seek forward: another timeline
  EXPECT_NEAR(clock.next(at(50.08, 1)), 0.16, 1e-9);
  EXPECT_NEAR(clock.next(at(0.0, 2, 0.1)), 0.20, 1e-9);  // looped to the start
  EXPECT_NEAR(clock.next(at(0.1, 2)), 0.30, 1e-9);         // after its own duration: 0.1 s
  EXPECT_NEAR(clock.next(at(0.05, 2)), 0.34, 1e-9);         // a time not after the last: one frame on
  Frame untimed;
  EXPECT_NEAR(clock.next(untimed), 0.38, 1e-9);
  EXPECT_NEAR(clock.next(at(7.0, 2)), 0.42, 1e-9);  // after a frame without a time: one frame on
  EXPECT_NEAR(clock.next(at(7.5, 2)), 0.92, 1e-9);
}

}  // namespace
}  // namespace liveconv::media
