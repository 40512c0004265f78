// The stream loop's live behaviour without a camera: fake sources that are
// slower than their frame rate (decode late), busy at open, or unplugged
// mid-stream (the reconnect policy), run through runStream with the
// device-free PassThrough channel, so these tests need no OpenCL device.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "liveconv/media/ffmpeg_sink.hpp"
#include "liveconv/media/ffmpeg_source.hpp"
#include "liveconv/media/media_errors.hpp"
#include "liveconv/media/reconnecting_source.hpp"
#include "liveconv/pipeline.hpp"
#include "media/fake_live_source.hpp"
#include "media/media_test_support.hpp"
#include "media/test_waits.hpp"
#include "stream.hpp"

namespace liveconv::media {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

class CountingSink : public FrameSink {
 public:
  void write(const Frame& f) override { indices.push_back(f.index); }
  void finish() override { finished = true; }
  std::string describe() const override { return "memory"; }
  std::vector<std::int64_t> indices;
  bool finished = false;
};

// A live source whose decoder needs 2.5x the frame interval: frames leave it
// later and later, so the live policy skips some and counts them as decode
// late; the same source under the lossless policy delivers every frame.
TEST(LiveStream, SlowDecoderCountsDecodeLateWhileLosslessDropsNothing) {
  app::StreamOptions o = test_media::quietStream();
  o.liveClock.lateToleranceMs = 25;
  {
    FakeLiveSource source(24, 0.008, 0.020);
    PassThrough live(QueuePolicy::Live, 4);
    CountingSink sink;
    const app::StreamResult r = runStream(source, sink, live, o);
    const StatsSnapshot& s = r.stats;
    EXPECT_GT(s.dropped[static_cast<int>(DropCause::DecodeLate)], 3) << summaryText(s);
    EXPECT_EQ(s.framesIn, 24);
    EXPECT_EQ(s.framesIn, s.framesOut + s.droppedTotal()) << summaryText(s);
    EXPECT_EQ(static_cast<long long>(sink.indices.size()), s.framesOut);
    for (std::size_t i = 1; i < sink.indices.size(); ++i) EXPECT_LT(sink.indices[i - 1], sink.indices[i]);
    EXPECT_NE(toJson(s).find("\"decode_late\":" + std::to_string(s.dropped[0])), std::string::npos) << toJson(s);
  }
  {
    FakeLiveSource source(24, 0.008, 0.020);
    PassThrough lossless(QueuePolicy::Lossless, 4);
    CountingSink sink;
    const app::StreamResult r = runStream(source, sink, lossless, o);
    EXPECT_EQ(r.stats.droppedTotal(), 0) << summaryText(r.stats);
    EXPECT_EQ(r.stats.framesOut, 24);
    EXPECT_EQ(sink.indices.size(), 24u);
  }
  {
    // A decoder faster than the frame rate is never late (a wider tolerance,
    // so a loaded test machine's scheduling does not count as lateness: both
    // cores busy delayed the decode thread by 150 ms and more).
    o.liveClock.lateToleranceMs = 400;
    FakeLiveSource source(12, 0.010, 0.001);
    PassThrough live(QueuePolicy::Live, 4);
    CountingSink sink;
    const app::StreamResult r = runStream(source, sink, live, o);
    EXPECT_EQ(r.stats.dropped[static_cast<int>(DropCause::DecodeLate)], 0) << summaryText(r.stats);
  }
}

struct Reports {
  std::vector<std::string> lines;
  ReconnectingSource::Reporter reporter() {
    return [this](const std::string& l) { lines.push_back(l); };
  }
  bool any(const std::string& part) const {
    for (const auto& l : lines)
      if (l.find(part) != std::string::npos) return true;
    return false;
  }
};

ReconnectPolicy quickPolicy(double budgetS) {
  ReconnectPolicy p;
  p.budgetS = budgetS;
  p.firstDelayS = 0.02;
  p.maxDelayS = 0.08;
  return p;
}

TEST(Reconnect, BusyCameraAtOpenIsWaitedForWithBackoffThenStreams) {
  int attempts = 0;
  Reports reports;
  ReconnectingSource source(
      [&]() -> std::unique_ptr<FrameSource> {
        if (++attempts <= 3) throw SourceUnavailable("Camera camera:0 (/dev/video0) is busy: Device or resource busy.");
        return std::make_unique<FakeLiveSource>(5, 0.01, 0);
      },
      quickPolicy(5), reports.reporter(), nullptr);
  EXPECT_EQ(attempts, 4);
  ASSERT_EQ(reports.lines.size(), 3u);
  EXPECT_TRUE(reports.any("is busy: Device or resource busy; trying again in 0.02 s (attempt 1")) << reports.lines[0];
  EXPECT_TRUE(reports.any("trying again in 0.04 s (attempt 2")) << reports.lines[1];  // the wait doubles
  int frames = 0;
  Frame f;
  while (source.next(f)) EXPECT_EQ(f.index, frames++);
  EXPECT_EQ(frames, 5);
}

// Not there at all: no attempt again, no line saying one is coming.
TEST(Reconnect, AbsentCameraAtOpenFailsAtOnce) {
  int attempts = 0;
  Reports reports;
  EXPECT_THROW(ReconnectingSource(
                   [&]() -> std::unique_ptr<FrameSource> {
                     ++attempts;
                     throw InputError("Camera camera:9 (/dev/video9) cannot be opened: No such file or directory.");
                   },
                   quickPolicy(5), reports.reporter(), nullptr),
               InputError);
  EXPECT_EQ(attempts, 1);
  EXPECT_TRUE(reports.lines.empty()) << reports.lines.front();
}

// The one wrapping both `run` and the windows use (openReconnecting): a live
// kind's first open waits while busy (`run`); a window's first open fails at
// once and the source is wrapped only where it says it is live.
TEST(Reconnect, OneFunctionWrapsWhatIsLive) {
  int attempts = 0;
  auto busyTwice = [&]() -> std::unique_ptr<FrameSource> {
    if (++attempts <= 2) throw SourceUnavailable("Camera camera:0 (/dev/video0) is busy: Device or resource busy.");
    return std::make_unique<FakeLiveSource>(3, 0.01, 0);
  };
  std::unique_ptr<FrameSource> run = openReconnecting(busyTwice, true, quickPolicy(5), nullptr, nullptr);
  EXPECT_EQ(attempts, 3);
  EXPECT_NE(dynamic_cast<ReconnectingSource*>(run.get()), nullptr);
  attempts = 0;
  EXPECT_THROW(openReconnecting(busyTwice, false, quickPolicy(5), nullptr, nullptr), SourceUnavailable);
  EXPECT_EQ(attempts, 1) << "a window's first open was retried";
  std::unique_ptr<FrameSource> live = openReconnecting([] { return std::make_unique<FakeLiveSource>(3, 0.01, 0); },
                                                       false, quickPolicy(5), nullptr, nullptr);
  EXPECT_NE(dynamic_cast<ReconnectingSource*>(live.get()), nullptr);
  std::unique_ptr<FrameSource> file = openReconnecting([] { return std::make_unique<FakeFileSource>(3, 0.01, 0); },
                                                       false, quickPolicy(5), nullptr, nullptr);
  EXPECT_EQ(dynamic_cast<ReconnectingSource*>(file.get()), nullptr) << "a source that is not live was wrapped";
}

TEST(Reconnect, UnpluggedCameraThatComesBackResumesWithIndicesGoingOn) {
  int opens = 0;
  Reports reports;
  ReconnectingSource source(
      [&]() -> std::unique_ptr<FrameSource> {
        ++opens;
        if (opens == 1) return std::make_unique<FakeLiveSource>(10, 0.01, 0, 4);  // stops after 4 frames
        if (opens < 4) throw InputError("Camera camera:0 (/dev/video0) cannot be opened: No such file or directory.");
        return std::make_unique<FakeLiveSource>(3, 0.01, 0);  // plugged in again
      },
      quickPolicy(5), reports.reporter(), nullptr);
  std::vector<std::int64_t> indices;
  Frame f;
  while (source.next(f)) indices.push_back(f.index);
  EXPECT_EQ(indices, (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(source.reconnects(), 1);
  EXPECT_TRUE(reports.any("Camera fake stopped: No such device; trying again")) << reports.lines.front();
  EXPECT_TRUE(reports.any("is back; the stream goes on."));
}

// Ctrl-C while the source waits to open again (its 30 s budget): the stream
// ends there, with no attempt after it.
TEST(Reconnect, CtrlCDuringTheWaitEndsTheStreamAtOnce) {
  bool stop = false;
  int opens = 0;
  ReconnectingSource source(
      [&]() -> std::unique_ptr<FrameSource> {
        if (++opens == 1) return std::make_unique<FakeLiveSource>(10, 0.01, 0, 2);
        throw InputError("gone");
      },
      quickPolicy(30), [&](const std::string&) { stop = true; }, [&] { return stop; });
  Frame f;
  int frames = 0;
  while (source.next(f)) ++frames;
  EXPECT_EQ(frames, 2);
  EXPECT_TRUE(stop) << "the source did not wait";
  EXPECT_LE(opens, 2) << "the source tried again after Ctrl-C";
}

// A batch run whose camera goes away for good: the run ends with an
// InputError (exit 7 in the CLI) once the budget is spent, within bounded
// time, and the output file is finished: it decodes, with every frame written.
TEST(Reconnect, CameraThatNeverComesBackEndsTheRunAfterTheBudgetWithTheFileFinished) {
  const std::string out = ::testing::TempDir() + "/liveconv_lost_" + std::to_string(::getpid()) + ".mkv";
  Reports reports;
  std::string error;
  const auto start = Clock::now();
  {
    ReconnectingSource source(
        [opens = 0]() mutable -> std::unique_ptr<FrameSource> {
          if (++opens == 1) return std::make_unique<FakeLiveSource>(100, 0.01, 0, 6);
          throw InputError("Camera camera:0 (/dev/video0) cannot be opened: No such file or directory.");
        },
        quickPolicy(0.4), reports.reporter(), nullptr);
    EncoderSink sink(out, "ffv1", SinkOptions{});
    PassThrough channel(QueuePolicy::Lossless, 3);
    try {
      app::runStream(source, sink, channel, test_media::quietStream());
    } catch (const InputError& e) {
      error = e.what();
    }
    EXPECT_EQ(channel.stats().snapshot().framesOut, 6);
  }
  const double tookS = secondsSince(start);
  EXPECT_NE(error.find("cannot be opened: No such file or directory; gave up after waiting 0.4 s"), std::string::npos)
      << error;
  EXPECT_GE(reports.lines.size(), 3u);  // one visible line per attempt
  EXPECT_GE(tookS, 0.4);
  EXPECT_LT(tookS, test_media::kHangLimitS);
  FfmpegSource decoded(parseSourceSpec(out, ""), PixelFormat::RGBA8);
  int frames = 0;
  Frame f;
  while (decoded.next(f)) ++frames;
  EXPECT_EQ(frames, 6);
  std::filesystem::remove(out);
}

}  // namespace
}  // namespace liveconv::media
