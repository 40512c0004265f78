// The one decode loop (liveconv/media/decode_loop.hpp) that `run`, `bench
// --pipeline` and both windows play through: its commands, pacing, looping
// and ends, with fake sources and a channel that records what it is given.
// No device, no FFmpeg.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "liveconv/media/decode_loop.hpp"

namespace liveconv::media {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Frames `interval` seconds apart, each filled with its number; seeks to any
// place and switches between RGBA8 and GRAY8, as a file decoder does.
class FakeClip : public FrameSource {
 public:
  FakeClip(int frames, double interval, PixelFormat format = PixelFormat::RGBA8, bool live = false)
      : frames_(frames), interval_(interval), format_(format), live_(live) {}
  // Hands out decoded planes for the engine to convert (as a file decoder
  // does for `run` and the windows), filled with the frame's number.
  bool planes = false;
  bool next(Frame& f) override {
    if (next_ >= frames_) return false;
    f = Frame();
    if (planes) {
      f.yuv.layout = YuvLayout::I420;
      f.yuv.matrix = YuvMatrix::Bt709;
      f.yuv.range = YuvRange::Limited;
      f.yuv.convertTo = format_;
      f.yuv.allocate(8, 4);
      std::fill(f.yuv.bytes.begin(), f.yuv.bytes.end(), std::uint8_t(next_));
    } else {
      f.image = Image(8, 4, format_);
      for (std::size_t k = 0; k < f.image.sizeBytes(); ++k) f.image.data()[k] = std::uint8_t(next_);
    }
    f.ptsSeconds = next_ * interval_;
    f.hasPts = true;
    ++next_;
    if (next_ % 4 == 0) ++corrupt_;  // one refused packet every fourth frame
    return true;
  }
  std::string describe() const override { return "fake clip"; }
  bool isLive() const override { return live_; }
  bool seek(double seconds) override {
    if (live_) return false;
    next_ = static_cast<int>(seconds / interval_ + 0.5);
    return true;
  }
  double durationSeconds() const override { return frames_ * interval_; }
  bool setFormat(PixelFormat format) override {
    format_ = format;
    return true;
  }
  long long corruptPackets() const override { return corrupt_; }

 private:
  int frames_;
  double interval_;
  PixelFormat format_;
  bool live_;
  int next_ = 0;
  long long corrupt_ = 0;
};

// Keeps every frame pushed; waits for a count.
class RecordingChannel : public FrameChannel {
 public:
  explicit RecordingChannel(QueuePolicy policy = QueuePolicy::Lossless) : policy_(policy) {}
  bool push(Frame frame) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cancelled_) return false;
    frames_.push_back(std::move(frame));
    changed_.notify_all();
    return true;
  }
  void endOfInput() override {
    std::lock_guard<std::mutex> lock(mutex_);
    ended_ = true;
    changed_.notify_all();
  }
  std::optional<Frame> pop() override { return std::nullopt; }
  void cancel() override {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = true;
  }
  PipelineStats& stats() override { return stats_; }
  QueuePolicy policy() const override { return policy_; }

  // True once `n` frames came (within `timeout`, which only catches a hang).
  bool waitFor(std::size_t n, std::chrono::milliseconds timeout = 60000ms) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return frames_.size() >= n; });
  }
  // True once a frame at `pts` came.
  bool waitForPts(double pts, std::chrono::milliseconds timeout = 60000ms) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] {
      return std::any_of(frames_.begin(), frames_.end(), [&](const Frame& f) { return f.ptsSeconds == pts; });
    });
  }
  std::vector<Frame> frames() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Frame> copy;
    for (const Frame& f : frames_) {
      Frame c;
      c.index = f.index;
      c.ptsSeconds = f.ptsSeconds;
      c.timeline = f.timeline;
      c.external = f.external;
      c.externalOwner = f.externalOwner;
      c.yuv = f.yuv;
      if (!f.yuv.empty()) {
        copy.push_back(std::move(c));
        continue;
      }
      const ImageView from = f.pixels();
      c.image = Image(from.width, from.height, from.format);
      for (int y = 0; y < from.height; ++y) std::copy_n(from.row(y), from.rowBytes(), c.image.view().row(y));
      copy.push_back(std::move(c));
    }
    return copy;
  }
  std::size_t count() {
    std::lock_guard<std::mutex> lock(mutex_);
    return frames_.size();
  }
  bool ended() {
    std::lock_guard<std::mutex> lock(mutex_);
    return ended_;
  }

 private:
  QueuePolicy policy_;
  PipelineStats stats_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Frame> frames_;
  bool ended_ = false, cancelled_ = false;
};

// The loop run over `clip` on its thread until it ends; why it ended.
DecodeEnd decodeToTheEnd(FrameSource& clip, FrameChannel& channel, const DecodeOptions& o) {
  DecodeLoop loop(clip, channel, o);
  loop.start();
  return loop.join();
}

DecodeOptions windowLike() {
  DecodeOptions o;
  o.format = PixelFormat::RGBA8;
  o.paceToClock = true;
  o.keepLastFrame = true;
  return o;
}

// Every frame a held loop pushed, once the frames the test waits for came: a
// seek to `marker` is posted after them and the loop takes commands in
// order, so once the marker's frame came, no further frame of the commands
// before it is still to come (an event, not a sleep, proves that nothing
// more happened). The marker's own frame is left out. (A seek replaces a
// seek still queued: post the marker once the commands before it were seen.)
std::vector<Frame> framesBeforeMarker(DecodeLoop& loop, RecordingChannel& channel, double marker) {
  EXPECT_TRUE(loop.post(DecoderCommand::seek(marker)));
  EXPECT_TRUE(channel.waitForPts(marker)) << "the marker's frame never came";
  std::vector<Frame> frames = channel.frames();
  const auto at = std::find_if(frames.begin(), frames.end(), [&](const Frame& f) { return f.ptsSeconds == marker; });
  EXPECT_EQ(std::distance(at, frames.end()), 1) << "frames came after the marker";
  frames.erase(at, frames.end());
  return frames;
}

TEST(DecodeLoop, AFileIsReadToItsEndInOrderAndTheChannelHearsOfTheEnd) {
  FakeClip clip(20, 1.0);  // unpaced: a second between frames costs nothing
  RecordingChannel channel;
  DecodeEnd told = DecodeEnd::Invalid;
  DecodeOptions o;
  o.finished = [&](DecodeEnd end, const std::exception_ptr&) { told = end; };
  EXPECT_EQ(decodeToTheEnd(clip, channel, o), DecodeEnd::SourceEnded);
  EXPECT_EQ(told, DecodeEnd::SourceEnded);
  EXPECT_TRUE(channel.ended());
  const std::vector<Frame> frames = channel.frames();
  ASSERT_EQ(frames.size(), 20u);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    EXPECT_EQ(frames[k].index, static_cast<std::int64_t>(k));
    EXPECT_EQ(frames[k].image.data()[0], k);
  }
  // Every fourth frame had a refused packet: counted once each, as `run` and the windows show them.
  EXPECT_EQ(channel.stats().snapshot().corruptPackets, 5);
}

TEST(DecodeLoop, MaxFramesEndsTheLoopAfterThatManyFrames) {
  FakeClip clip(20, 1.0);
  RecordingChannel channel;
  DecodeOptions o;
  o.maxFrames = 7;
  EXPECT_EQ(decodeToTheEnd(clip, channel, o), DecodeEnd::FrameLimit);
  EXPECT_EQ(channel.count(), 7u);
}

TEST(DecodeLoop, HeldNothingIsPushedAndEachStepPushesExactlyOneFrame) {
  RecordingChannel channel;
  DecodeLoop loop(std::make_unique<FakeClip>(100, 0.01), channel, windowLike());
  ASSERT_TRUE(loop.post(DecoderCommand::hold()));  // before it starts: not one frame goes
  loop.start();
  EXPECT_TRUE(framesBeforeMarker(loop, channel, 0.5).empty()) << "a frame went while held";
  ASSERT_TRUE(loop.post(DecoderCommand::seek(0.0)));
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(loop.post(DecoderCommand::step()));
  ASSERT_TRUE(channel.waitFor(5));
  const std::vector<Frame> frames = framesBeforeMarker(loop, channel, 0.6);
  ASSERT_EQ(frames.size(), 5u) << "the first marker, the seek back and one frame a step";
  EXPECT_EQ(frames[4].index, frames[1].index + 3);
  EXPECT_DOUBLE_EQ(frames[4].ptsSeconds, 0.03);
  // The seeks are where the clip's times jump (a recording goes on one frame later there); steps are not.
  EXPECT_GT(frames[1].timeline, frames[0].timeline);
  EXPECT_EQ(frames[4].timeline, frames[2].timeline);
  EXPECT_EQ(frames[2].timeline, frames[1].timeline);
  ASSERT_TRUE(loop.post(DecoderCommand::play()));
  EXPECT_TRUE(channel.waitFor(20));
  loop.stop();
  EXPECT_EQ(loop.end(), DecodeEnd::Stopped);
}

// Held, two steps (two frames pushed), then a refilter (the second again).
void holdTwoStepsThenRefilter(DecodeLoop& loop, RecordingChannel& channel) {
  loop.post(DecoderCommand::hold());
  loop.post(DecoderCommand::step());
  loop.post(DecoderCommand::step());
  loop.start();
  ASSERT_TRUE(channel.waitFor(2));
  ASSERT_TRUE(loop.post(DecoderCommand::refilter()));
  ASSERT_TRUE(channel.waitFor(3));
}

TEST(DecodeLoop, ARefilterPushesTheHeldFrameAgainWithItsPixelsAndPlace) {
  RecordingChannel channel;
  DecodeLoop loop(std::make_unique<FakeClip>(100, 0.01), channel, windowLike());
  ASSERT_NO_FATAL_FAILURE(holdTwoStepsThenRefilter(loop, channel));
  const std::vector<Frame> frames = framesBeforeMarker(loop, channel, 0.5);
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[2].index, frames[1].index);
  EXPECT_EQ(frames[2].ptsSeconds, frames[1].ptsSeconds);
  EXPECT_EQ(frames[2].timeline, frames[1].timeline);
  EXPECT_EQ(frames[2].externalOwner, frames[1].externalOwner) << "the kept pixels are lent again, not decoded";
  EXPECT_EQ(frames[2].image.data()[0], 1);
}

// Planes the device converts (the windows' decoded sources): the pipeline
// takes the frame's, so the loop keeps a copy, and a refilter pushes the
// held frame's planes again with its place; a format switch decodes it again.
TEST(DecodeLoop, ARefilterOfPlanesPushesTheHeldFramesPlanesAgain) {
  RecordingChannel channel;
  auto clip = std::make_unique<FakeClip>(100, 0.01);
  clip->planes = true;
  DecodeLoop loop(std::move(clip), channel, windowLike());
  ASSERT_NO_FATAL_FAILURE(holdTwoStepsThenRefilter(loop, channel));
  ASSERT_TRUE(loop.post(DecoderCommand::setFormat(PixelFormat::GRAY8)));
  ASSERT_TRUE(channel.waitFor(4));
  const std::vector<Frame> frames = framesBeforeMarker(loop, channel, 0.5);
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_EQ(frames[2].index, frames[1].index);
  EXPECT_EQ(frames[2].ptsSeconds, frames[1].ptsSeconds);
  ASSERT_FALSE(frames[2].yuv.empty()) << "the held frame's planes, not pixels";
  EXPECT_EQ(frames[2].yuv.layout, YuvLayout::I420);
  EXPECT_EQ(frames[2].yuv.convertTo, PixelFormat::RGBA8);
  EXPECT_EQ(frames[2].yuv.bytes, frames[1].yuv.bytes);
  EXPECT_EQ(frames[2].yuv.bytes[0], 1);
  EXPECT_EQ(frames[3].yuv.convertTo, PixelFormat::GRAY8) << "decoded again in the new format";
  EXPECT_DOUBLE_EQ(frames[3].ptsSeconds, frames[1].ptsSeconds);
}

TEST(DecodeLoop, ASeekShowsTheFrameAtTheNewPlaceAlsoWhileHeld) {
  RecordingChannel channel;
  DecodeLoop loop(std::make_unique<FakeClip>(100, 0.1), channel, windowLike());
  loop.post(DecoderCommand::hold());
  loop.start();
  ASSERT_TRUE(loop.post(DecoderCommand::seek(5.0)));
  ASSERT_TRUE(channel.waitFor(1));
  const std::vector<Frame> frames = framesBeforeMarker(loop, channel, 7.0);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_DOUBLE_EQ(frames[0].ptsSeconds, 5.0);
  EXPECT_EQ(frames[0].image.data()[0], 50);
}

TEST(DecodeLoop, AFormatSwitchWhileHeldDecodesTheFrameShownAgainInTheNewFormat) {
  RecordingChannel channel;
  DecodeLoop loop(std::make_unique<FakeClip>(100, 0.1), channel, windowLike());
  loop.post(DecoderCommand::hold());
  for (int k = 0; k < 4; ++k) loop.post(DecoderCommand::step());
  loop.start();
  ASSERT_TRUE(channel.waitFor(4));
  ASSERT_TRUE(loop.post(DecoderCommand::setFormat(PixelFormat::GRAY8)));
  ASSERT_TRUE(channel.waitFor(5));
  // A refilter asked for the old format's frame is a decode in the new one, not a second frame.
  ASSERT_TRUE(loop.post(DecoderCommand::refilter()));
  ASSERT_TRUE(channel.waitFor(6));
  const std::vector<Frame> frames = framesBeforeMarker(loop, channel, 7.0);
  ASSERT_GE(frames.size(), 5u);
  EXPECT_EQ(frames[4].image.format(), PixelFormat::GRAY8);
  EXPECT_DOUBLE_EQ(frames[4].ptsSeconds, frames[3].ptsSeconds) << "the frame on screen, in gray";
  EXPECT_EQ(frames[4].image.data()[0], 3);
  EXPECT_EQ(frames.size(), 6u) << "the refilter after it filters the gray frame again";
  if (frames.size() == 6u) {
    EXPECT_EQ(frames[5].image.format(), PixelFormat::GRAY8);
  }
}

TEST(DecodeLoop, AFilePacedToItsClockPlaysInRealTimeAndAStopEndsItsWaitAtOnce) {
  RecordingChannel channel(QueuePolicy::Live);
  DecodeLoop loop(std::make_unique<FakeClip>(100, 0.05), channel, windowLike());
  const auto t0 = Clock::now();
  loop.start();
  ASSERT_TRUE(channel.waitFor(11));
  const double took = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_GT(took, 0.45) << "10 intervals of 50 ms";
  EXPECT_LT(took, 2.0);

  RecordingChannel slow(QueuePolicy::Live);
  // 0.9 s between frames (a gap over a second is a jump the clock restarts at, not a wait).
  DecodeLoop waiting(std::make_unique<FakeClip>(10, 0.9), slow, windowLike());
  waiting.start();
  ASSERT_TRUE(slow.waitFor(1));
  std::this_thread::sleep_for(50ms);
  const auto t1 = Clock::now();
  waiting.stop();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t1).count(), 0.5) << "the stop waited for the next frame";
  EXPECT_EQ(waiting.end(), DecodeEnd::Stopped);
  EXPECT_EQ(slow.count(), 1u);
}

TEST(DecodeLoop, ASpeedFromThePlaybackCommandPacesTheFile) {
  RecordingChannel channel(QueuePolicy::Live);
  DecodeLoop loop(std::make_unique<FakeClip>(100, 0.1), channel, windowLike());
  loop.post(DecoderCommand::setPlayback(false, 4.0));  // 25 ms a frame
  const auto t0 = Clock::now();
  loop.start();
  ASSERT_TRUE(channel.waitFor(61));
  const double took = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_GT(took, 1.2) << "60 frames of 100 ms at 4x: 1.5 s";
  EXPECT_LT(took, 4.5) << "60 frames of 100 ms at 4x: 1.5 s (6 s at 1x)";
}

TEST(DecodeLoop, ALoopingFileIsOpenedAgainAtItsEndAndItsFramesNumberedOn) {
  RecordingChannel channel;
  std::atomic<int> opens{0};
  DecodeOptions o = windowLike();
  o.paceToClock = false;
  o.loop = true;
  o.open = [&](PixelFormat format) {
    ++opens;
    return std::make_unique<FakeClip>(3, 0.01, format);
  };
  DecodeLoop loop(nullptr, channel, o);  // opened on lc-decode
  loop.start();
  ASSERT_TRUE(channel.waitFor(10));
  loop.post(DecoderCommand::setPlayback(false, 1));
  EXPECT_EQ(loop.join(), DecodeEnd::SourceEnded) << "loop off: the clip ends at its next end";
  const std::vector<Frame> frames = channel.frames();
  ASSERT_GE(frames.size(), 10u);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    EXPECT_EQ(frames[k].index, static_cast<std::int64_t>(k));
    // Each pass through the clip is a timeline of its own (its times start again).
    EXPECT_EQ(frames[k].timeline, frames[0].timeline + k / 3) << "frame " << k;
  }
  EXPECT_EQ(frames[3].image.data()[0], 0) << "the fourth frame is the clip's first again";
  EXPECT_GE(opens.load(), 4);
}

TEST(DecodeLoop, StopWhenEndsTheLoopBeforeTheNextFrame) {
  FakeClip clip(1000, 1.0);
  RecordingChannel channel;
  DecodeOptions o;
  std::atomic<bool> stopNow{false};
  o.stopWhen = [&] { return stopNow.load() || channel.count() >= 5; };
  EXPECT_EQ(decodeToTheEnd(clip, channel, o), DecodeEnd::Stopped);
  EXPECT_EQ(channel.count(), 5u);
}

TEST(DecodeLoop, ACommandPostedOnEveryPassDoesNotGrowTheQueueWhileStepsAreBounded) {
  RecordingChannel channel;
  DecodeOptions o = windowLike();
  o.capacity = 4;
  DecodeLoop loop(std::make_unique<FakeClip>(1000, 0.01), channel, o);
  for (int k = 0; k < 1000; ++k) {
    ASSERT_TRUE(loop.post(DecoderCommand::hold())) << k;
    ASSERT_TRUE(loop.post(DecoderCommand::seek(k * 0.001))) << k;
    ASSERT_TRUE(loop.post(DecoderCommand::refilter())) << k;
  }
  EXPECT_TRUE(loop.post(DecoderCommand::step()));
  EXPECT_FALSE(loop.post(DecoderCommand::step())) << "hold, seek, refilter and one step fill a queue of 4";
  loop.start();
  ASSERT_TRUE(channel.waitFor(2));
  const std::vector<Frame> frames = framesBeforeMarker(loop, channel, 3.0);
  ASSERT_EQ(frames.size(), 2u) << "the newest seek's frame, then the one step (the refilter is moot)";
  EXPECT_EQ(frames[0].index, 0);
  EXPECT_DOUBLE_EQ(frames[0].ptsSeconds, 1.0) << "the seek to 0.999 s won";
  EXPECT_DOUBLE_EQ(frames[1].ptsSeconds, 1.01);
  loop.stop();
  EXPECT_FALSE(loop.post(DecoderCommand::play())) << "an ended loop takes no command";
}

TEST(DecodeLoop, ASourceThatFailsEndsTheLoopWithItsError) {
  RecordingChannel channel;
  DecodeOptions o;
  o.open = [](PixelFormat) -> std::unique_ptr<FrameSource> { throw std::runtime_error("No such file."); };
  std::string said;
  o.finished = [&](DecodeEnd, const std::exception_ptr& e) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      said = x.what();
    }
  };
  DecodeLoop loop(nullptr, channel, o);
  loop.start();
  EXPECT_EQ(loop.join(), DecodeEnd::Failed);
  EXPECT_EQ(said, "No such file.");
  EXPECT_TRUE(channel.ended());
}

}  // namespace
}  // namespace liveconv::media
