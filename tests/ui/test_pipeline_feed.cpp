// PipelineFeed without a window: a lavfi source through the Pipeline, as the
// viewer drives it. Each filtered frame must be the reference filter of the
// source frame handed out with it; an edit shows up without the UI waiting;
// a set that cannot run is reported while the previous one keeps running;
// pause, step and recording behave. Around a fake decoder: a source slower
// than its frame rate shows rising "decoder late" drops, one at its pace none.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <future>
#include <map>
#include <thread>

#include "feed/display_link.hpp"
#include "feed/feed_switcher.hpp"
#include "feed/feeds.hpp"
#include "feed/frame_feed.hpp"
#include "liveconv/compare.hpp"
#include "liveconv/device.hpp"
#include "liveconv/reference.hpp"
#include "media/fake_live_source.hpp"
#include "model/viewer_model.hpp"

using namespace liveconv;
using namespace liveconv::ui;

namespace {

constexpr const char* kSource = "lavfi:testsrc2=size=96x64:rate=200";

// How long a wait for a frame may take before it counts as a hang: far
// longer than any frame takes, however loaded the machine.
constexpr auto kHang = std::chrono::seconds(60);

// Advances until `done` accepts a fresh frame (at most kHang).
template <typename Done>
FeedFrame advanceUntil(FrameFeed& feed, Advance mode, Done done) {
  const auto deadline = std::chrono::steady_clock::now() + kHang;
  while (std::chrono::steady_clock::now() < deadline) {
    FeedFrame f = feed.advance(mode);
    if (f.fresh && done(f)) return f;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "no matching frame within 60 s; feed says: " << feed.stats().sourceMessage << feed.stats().error;
  return {};
}

// Holds until the frames that were in flight when the hold began have landed:
// no fresh frame for 400 ms (at most 10 s, on a loaded machine). Returns the
// index of the picture the hold rests on.
std::uint64_t settleHeld(FrameFeed& feed) {
  std::uint64_t index = feed.advance(Advance::Hold).index;
  auto quietSince = std::chrono::steady_clock::now();
  const auto deadline = quietSince + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() - quietSince < std::chrono::milliseconds(400)) {
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "held, yet frames kept coming for 10 s";
      break;
    }
    const FeedFrame f = feed.advance(Advance::Hold);
    if (f.fresh) quietSince = std::chrono::steady_clock::now();
    index = f.index;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return index;
}

void expectReference(const FeedFrame& f, const FilterParams& p) {
  ASSERT_NE(f.filtered.data, nullptr);
  ASSERT_NE(f.source.data, nullptr);
  Image want(f.source.width, f.source.height, f.source.format);
  convolveReference(f.source, want.view(), p.mask, p.border, p.alpha);
  const auto mismatch = compareImages(f.filtered, want.view(), 1);
  EXPECT_FALSE(mismatch) << mismatch->toString() << " (tolerance 1)";
}

// The overlay's "decoder late" count.
std::uint64_t decodeLate(const FrameFeed& feed) {
  for (const DropCause& d : feed.stats().drops)
    if (d.cause == "decoder late") return d.count;
  ADD_FAILURE() << "the feed's stats have no decoder-late count";
  return 0;
}

// Plays `feed` until `done` holds (at most kHang); false if it never did.
template <typename Done>
bool playUntil(FrameFeed& feed, Done done) {
  const auto deadline = std::chrono::steady_clock::now() + kHang;
  while (std::chrono::steady_clock::now() < deadline) {
    feed.advance(Advance::Play);
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

class FakeSourceFeedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
    std::string error;
    ASSERT_TRUE(model_.applySpec("box:3", &error)) << error;
  }
  template <typename Source>
  std::unique_ptr<FrameFeed> feedOf(int frames, double intervalS, double costS, const LiveClockOptions& clock) {
    return makePipelineFeed([=](PixelFormat) { return std::make_unique<Source>(frames, intervalS, costS); }, clock, "",
                            model_.snapshot(), nullptr);
  }
  ViewerModel model_;
};

class PipelineFeedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
    std::string error;
    ASSERT_TRUE(model_.applySpec("box:3", &error)) << error;
    model_.setSource(kSource);
    feed_ = makeFrameFeed(kSource, "", model_.snapshot());
  }
  ViewerModel model_;
  std::unique_ptr<FrameFeed> feed_;
};

// A display on the readback path that counts the feed's frameReady() calls
// and, at each, whether the frame is there for the display to take.
class CountingLink final : public DisplayLink {
 public:
  OpenedDevice open(const std::string& selector) const override {
    OpenedDevice opened;
    opened.device = DeviceContext::create(selectDevice(selector));
    opened.displayPath = "readback (test display)";
    return opened;
  }
  void frameReady() const override {
    FrameFeed* taking = feed.load();
    if (!taking) return;
    ++calls;
    if (taking->advance(Advance::Play).fresh) ++freshAtCall;
  }
  mutable std::atomic<int> calls{0}, freshAtCall{0};
  std::atomic<FrameFeed*> feed{nullptr};
};

}  // namespace

// The viewer sleeps between its passes: the feed wakes it for each filtered
// frame it hands over, and the frame is there to take when it does.
TEST(PipelineFeedDisplay, EveryFrameHandedOverWakesTheDisplay) {
  if (enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
  ViewerModel model;
  std::string error;
  ASSERT_TRUE(model.applySpec("box:3", &error)) << error;
  CountingLink link;
  auto feed = makeFrameFeed("lavfi:testsrc2=size=96x64:rate=50", "", model.snapshot(), &link);
  link.feed = feed.get();  // taken at the call, on lc-present, as the display would on its own thread
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (link.calls < 20 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  link.feed = nullptr;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // a call under way ends
  ASSERT_GE(link.calls.load(), 20) << "the feed handed over frames without saying so";
  EXPECT_EQ(link.freshAtCall.load(), link.calls.load()) << "a call came before its frame could be taken";
}

TEST_F(PipelineFeedTest, FramesAreTheReferenceOfTheirSourceAndEditsArrive) {
  const auto initial = model_.version();
  FeedFrame f = advanceUntil(*feed_, Advance::Play, [&](const FeedFrame& x) { return x.paramsVersion == initial; });
  expectReference(f, model_.filter());
  // The frame carries the moment its source was handed to the pipeline: the start of its latency.
  ASSERT_NE(f.sourceAt, std::chrono::steady_clock::time_point{});
  EXPECT_LE(f.sourceAt, std::chrono::steady_clock::now());
  EXPECT_LT(std::chrono::steady_clock::now() - f.sourceAt, std::chrono::seconds(10));

  std::string error;
  ASSERT_TRUE(model_.applySpec("sobel-x", &error)) << error;
  const auto start = std::chrono::steady_clock::now();
  feed_->setParams(model_.snapshot());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(100))
      << "setParams must not wait for the kernel build";
  f = advanceUntil(*feed_, Advance::Play, [&](const FeedFrame& x) { return x.paramsVersion == model_.version(); });
  expectReference(f, model_.filter());
  const FrameStats s = feed_->stats();
  EXPECT_EQ(s.frameWidth, 96);
  EXPECT_GT(s.framesShown, 0u);
  EXPECT_NE(s.source.find("testsrc2"), std::string::npos) << s.source;
}

// `auto` in the viewer: the overlay says what it runs, and the frames are the
// reference whichever kernel (provisional, then the race's answer) ran them.
TEST_F(PipelineFeedTest, AutoSaysWhatItRuns) {
  model_.setVariant(VariantId::Auto);
  feed_->setParams(model_.snapshot());
  for (int n = 0; n < 5; ++n) {
    const FeedFrame f =
        advanceUntil(*feed_, Advance::Play, [&](const FeedFrame& x) { return x.paramsVersion == model_.version(); });
    expectReference(f, model_.filter());
  }
  const std::string variant = feed_->stats().variantText();
  EXPECT_EQ(variant.rfind("auto -> ", 0), 0u) << variant;
}

TEST_F(PipelineFeedTest, ASetThatCannotRunIsReportedAndThePreviousKeepsRunning) {
  model_.setVariant(VariantId::Local);  // a variant that takes the workgroup as asked (auto picks its own)
  const auto local = model_.version();
  feed_->setParams(model_.snapshot());
  advanceUntil(*feed_, Advance::Play, [local](const FeedFrame& f) { return f.paramsVersion >= local; });
  const FilterParams good = model_.filter();
  model_.setWorkgroup({128, 128});  // more work-items than any device allows: refused on the build thread
  const auto bad = model_.version();
  feed_->setParams(model_.snapshot());
  FrameStats s;
  for (int i = 0; i < 2000 && s.rejectedVersion != bad; ++i) {
    feed_->advance(Advance::Play);
    s = feed_->stats();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(s.rejectedVersion, bad);
  EXPECT_NE(s.error.find("128x128"), std::string::npos) << s.error;
  const FeedFrame f = advanceUntil(*feed_, Advance::Play, [](const FeedFrame&) { return true; });
  expectReference(f, good);
}

TEST_F(PipelineFeedTest, HoldFreezesAndStepMovesOneFrame) {
  advanceUntil(*feed_, Advance::Play, [](const FeedFrame&) { return true; });
  // Frames already in flight may still arrive; after that the picture stays put.
  const std::uint64_t held = settleHeld(*feed_);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // (The held frame may be filtered again, when a later kernel of `auto`'s set is ready.)
  const FeedFrame still = feed_->advance(Advance::Hold);
  EXPECT_TRUE(!still.fresh || still.index == held) << "held, yet the source moved on to " << still.index;
  // The stepped frame may already be back when the step's own advance() looks
  // (a loaded machine can pause the caller that long): it counts too.
  FeedFrame stepped = feed_->advance(Advance::Step);
  if (!stepped.fresh || stepped.index == held)
    stepped = advanceUntil(*feed_, Advance::Hold, [&](const FeedFrame& x) { return x.index != held; });
  EXPECT_EQ(stepped.index, held + 1);
}

TEST_F(PipelineFeedTest, RecordsTheFilteredOutput) {
  const std::string path = std::string(::testing::TempDir()) + "liveconv_feed_recording.mkv";
  std::remove(path.c_str());
  EXPECT_EQ(feed_->startRecording(path), "");
  for (int n = 0; n < 10;) n += advanceUntil(*feed_, Advance::Play, [](const FeedFrame&) { return true; }).fresh;
  EXPECT_FALSE(feed_->stats().recordingPath.empty());
  const std::shared_ptr<FinishingRecording> ending = feed_->stopRecording();
  ASSERT_NE(ending, nullptr);
  EXPECT_TRUE(feed_->stats().recordingPath.empty()) << "the recording ends at once; its file is finished on lc-record";
  ending->wait();
  EXPECT_TRUE(ending->done());
  EXPECT_EQ(ending->error(), "");
  EXPECT_GT(ending->frames(), 5);
  EXPECT_GT(std::filesystem::file_size(path), 1000u);
  EXPECT_EQ(feed_->stopRecording(), nullptr) << "nothing records now";
  EXPECT_NE(feed_->startRecording("/nonexistent/dir/out.mkv"), "") << "an unwritable path is a sentence";
  std::remove(path.c_str());
}

TEST_F(PipelineFeedTest, AnEditWhilePausedRefiltersTheHeldFrame) {
  advanceUntil(*feed_, Advance::Play, [](const FeedFrame&) { return true; });
  const std::uint64_t heldIndex = settleHeld(*feed_);  // frames in flight land; then nothing moves
  std::string error;
  ASSERT_TRUE(model_.applySpec("emboss", &error)) << error;
  feed_->setParams(model_.snapshot());
  const FeedFrame f =
      advanceUntil(*feed_, Advance::Hold, [&](const FeedFrame& x) { return x.paramsVersion == model_.version(); });
  EXPECT_EQ(f.index, heldIndex) << "the same source frame, filtered again";
  expectReference(f, model_.filter());
}

// Paused under a variant that compiles each mask, an edit shows at once on
// the stopgap (the mask taken at run time); once the variant's own kernel is
// built, the held frame is filtered again with it, so the picture and the
// overlay's variant are the kernel asked for without play or step.
TEST_F(PipelineFeedTest, APausedFrameShownOnTheStopgapIsFilteredAgainWithTheVariantsOwnKernel) {
  ASSERT_TRUE(model_.setVariant(VariantId::Baked));
  feed_->setParams(model_.snapshot());
  advanceUntil(*feed_, Advance::Play, [&](const FeedFrame& x) { return x.paramsVersion == model_.version(); });
  const std::uint64_t heldIndex = settleHeld(*feed_);
  const std::string path = ::testing::TempDir() + "liveconv-paused-refilter.mkv";
  ASSERT_EQ(feed_->startRecording(path), "");
  std::string error;
  ASSERT_TRUE(model_.applySpec("gaussian:5", &error)) << error;  // a mask no baked program was built for
  feed_->setParams(model_.snapshot());
  const FeedFrame first =
      advanceUntil(*feed_, Advance::Hold, [&](const FeedFrame& x) { return x.paramsVersion == model_.version(); });
  EXPECT_EQ(first.index, heldIndex);
  EXPECT_NE(feed_->stats().variantRan, VariantId::Baked) << "the edit shows at once, on the stopgap";
  expectReference(first, model_.filter());
  const FeedFrame own = advanceUntil(*feed_, Advance::Hold,
                                     [&](const FeedFrame&) { return feed_->stats().variantRan == VariantId::Baked; });
  EXPECT_EQ(own.index, heldIndex) << "the same source frame, filtered with baked";
  EXPECT_EQ(own.paramsVersion, model_.version());
  expectReference(own, model_.filter());
  // A recording keeps one frame per picture: the edit's; the same picture from baked is not written again.
  EXPECT_EQ(feed_->stats().recordedFrames, 1);
  feed_->stopRecording();
  std::remove(path.c_str());
}

// A decoded source switches to gray and back in place: the same feed, its
// decoder converting to the new format from its next frame. Frames still in
// flight keep the old version and format; every frame of the new version is
// in the new format and the reference of its source. Paused on a generated
// source (which cannot seek), the switch shows its next frame in the new format.
TEST_F(PipelineFeedTest, APixelFormatSwitchHappensInPlace) {
  ASSERT_TRUE(feed_->changesFormatInPlace()) << "an FFmpeg source converts to either format";
  const std::map<PixelFormat, const char*> names{{PixelFormat::RGBA8, "rgba"}, {PixelFormat::GRAY8, "gray"}};
  std::map<std::uint64_t, PixelFormat> formatOf{{model_.version(), model_.format()}};
  advanceUntil(*feed_, Advance::Play, [](const FeedFrame&) { return true; });
  for (const PixelFormat format : {PixelFormat::GRAY8, PixelFormat::RGBA8, PixelFormat::GRAY8}) {
    SCOPED_TRACE(names.at(format));
    ASSERT_TRUE(model_.setFormat(format));
    formatOf[model_.version()] = format;
    feed_->setParams(model_.snapshot());
    const FeedFrame f = advanceUntil(*feed_, Advance::Play, [&](const FeedFrame& x) {
      EXPECT_EQ(x.source.format, formatOf[x.paramsVersion]) << "a frame of version " << x.paramsVersion;
      return x.paramsVersion == model_.version();
    });
    EXPECT_EQ(f.source.format, format);
    expectReference(f, model_.filter());
  }
  const std::uint64_t held = settleHeld(*feed_);
  ASSERT_TRUE(model_.setFormat(PixelFormat::RGBA8));
  feed_->setParams(model_.snapshot());
  const FeedFrame f =
      advanceUntil(*feed_, Advance::Hold, [&](const FeedFrame& x) { return x.paramsVersion == model_.version(); });
  EXPECT_EQ(f.source.format, PixelFormat::RGBA8);
  EXPECT_EQ(f.index, held + 1) << "paused, a generated source shows its next frame in the new format";
  expectReference(f, model_.filter());
}

// A camera whose decoder needs 2.5x its frame interval: frames leave it later
// and later, so the feed skips some and the overlay counts them as decoder
// late, the count rising while it plays, as `liveconv run` counts them.
TEST_F(FakeSourceFeedTest, ASourceSlowerThanItsFrameRateCountsRisingDecodeLateDrops) {
  auto feed = feedOf<FakeLiveSource>(100000, 0.008, 0.020, LiveClockOptions());
  ASSERT_TRUE(playUntil(*feed, [&] { return decodeLate(*feed) > 0; }))
      << "no decoder-late drop in 60 s; feed says: " << feed->stats().sourceMessage;
  const std::uint64_t first = decodeLate(*feed);
  EXPECT_TRUE(playUntil(*feed, [&] { return decodeLate(*feed) > first + 2; })) << "stuck at " << decodeLate(*feed);
  EXPECT_TRUE(playUntil(*feed, [&] { return feed->stats().framesShown > 0; })) << "the frames between drops show";
}

// A file whose decoder keeps up, played at its frame rate: nothing is late.
// The tolerance is wider than the 50 ms a user gets: a two-core machine with
// both cores busy delayed the decode thread by 150 ms and more; 400 ms stays
// under the clock's 1 s resync, and a clock that drifted would pass it within
// the 50 frames (1 s) played.
TEST_F(FakeSourceFeedTest, ASourceAtItsFrameRateCountsNoDecodeLateDrop) {
  LiveClockOptions clock;
  clock.lateToleranceMs = 400;
  auto feed = feedOf<FakeFileSource>(100000, 0.020, 0.001, clock);
  ASSERT_TRUE(playUntil(*feed, [&] { return feed->stats().framesShown >= 50; }))
      << "feed says: " << feed->stats().sourceMessage;
  EXPECT_EQ(decodeLate(*feed), 0u);
}

// A camera unplugged while a window plays it is waited for and reopened, as
// `liveconv run --reconnect` does: the picture goes on with the camera's
// frames after the loss, and the overlay's source line says it is back.
TEST_F(FakeSourceFeedTest, ACameraUnpluggedMidStreamIsReopenedAndPlaysOn) {
  auto opens = std::make_shared<std::atomic<int>>(0);
  auto feed = makePipelineFeed(
      [opens](PixelFormat) -> std::unique_ptr<FrameSource> {
        // The first camera stops after 15 frames (SourceUnavailable, as FFmpeg's v4l2 read fails); the reopened one plays on.
        // Each read waits for its frame, as a camera's does: one that answered at once would run
        // out of frames before a loaded machine showed 40 of them.
        return std::make_unique<FakeLiveSource>(100000, 0.01, 0.01, ++*opens == 1 ? 15 : -1);
      },
      LiveClockOptions(), "", model_.snapshot(), nullptr);
  ASSERT_TRUE(playUntil(*feed, [&] { return opens->load() >= 2 && feed->stats().framesShown >= 40; }))
      << "opened " << opens->load() << " times, " << feed->stats().framesShown
      << " frames shown; feed says: " << feed->stats().sourceMessage;
  EXPECT_EQ(opens->load(), 2);
  EXPECT_NE(feed->stats().sourceMessage.find("is back; the stream goes on"), std::string::npos)
      << feed->stats().sourceMessage;
}

// A stream that stops sending while it plays (a network camera that hangs)
// does not hold up closing the window: the feed's stop ends the read FFmpeg
// waits in. The sender is an ffmpeg process, stopped with SIGSTOP.
TEST(PipelineFeedStream, AStreamThatStallsDoesNotHoldUpClosingTheFeed) {
  if (enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
  if (std::system("command -v ffmpeg >/dev/null 2>&1") != 0) GTEST_SKIP() << "SKIP: no ffmpeg to send a stream";
  const int portNumber = 30000 + ::getpid() % 20000;
  const std::string port = std::to_string(portNumber);
  char hexPort[8];
  std::snprintf(hexPort, sizeof hexPort, "%04X", portNumber);
  const std::string pidFile = std::string(::testing::TempDir()) + "liveconv_stalled_sender.pid";
  // Listens for the feed, then sends in real time for up to 60 s; the feed
  // connects once the port is listening (state 0A in /proc/net/tcp).
  ASSERT_EQ(
      std::system(("(exec ffmpeg -v error -re -f lavfi -i testsrc2=size=96x64:rate=25 -t 60 -c:v mpeg2video "
                   "-f mpegts 'tcp://127.0.0.1:" +
                   port + "?listen=1') >/dev/null 2>&1 & echo $! >" + pidFile + "; n=0; until grep -q ':" + hexPort +
                   " 00000000:0000 0A' /proc/net/tcp || [ $n -ge 300 ]; "
                   "do sleep 0.1; n=$((n+1)); done")
                      .c_str()),
      0);
  std::string pid;
  std::ifstream(pidFile) >> pid;
  ASSERT_FALSE(pid.empty());
  ViewerModel model;
  std::string error;
  ASSERT_TRUE(model.applySpec("box:3", &error)) << error;
  const std::string source = "tcp://127.0.0.1:" + port;
  model.setSource(source);
  std::unique_ptr<FrameFeed> feed = makeFrameFeed(source, "", model.snapshot());
  advanceUntil(*feed, Advance::Play, [](const FeedFrame&) { return true; });
  ASSERT_EQ(std::system(("kill -STOP " + pid).c_str()), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the decoder now waits on the socket
  auto closing = std::async(std::launch::async, [&] { feed.reset(); });
  const bool closed = closing.wait_for(std::chrono::seconds(5)) == std::future_status::ready;
  std::system(("kill -CONT " + pid + "; kill " + pid).c_str());  // the stream ends: a close still waiting ends too
  closing.wait();
  EXPECT_TRUE(closed) << "closing the feed waited on a stream that sends nothing";
}

// A source that never answers (a UDP stream nobody sends to, with no timeout
// of FFmpeg's or the window's: its open would wait for ever) gives way: the next source asked
// for opens while it waits, and closing the window (the switcher) does not
// wait for it. Either waiting for it would never end: the hang limit (kHang)
// fails the test, no measure of time does.
TEST(PipelineFeedStream, AStreamThatNeverAnswersGivesWayToTheNextSourceAndToClosing) {
  if (enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
  const std::string silent = "udp://127.0.0.1:" + std::to_string(30000 + ::getpid() % 20000);
  ViewerModel model;
  std::string error;
  ASSERT_TRUE(model.applySpec("box:3", &error)) << error;
  model.setSource("testpattern:64x48");
  model.view().openTimeoutSeconds = 0;  // the window's --open-timeout 0: no limit of its own either
  auto switcher = std::make_unique<FeedSwitcher>(
      [](const std::string& s, const std::string& sel, std::shared_ptr<const ParamsSnapshot> p,
         const OpenControl& abandoned) { return makeFrameFeed(s, sel, std::move(p), nullptr, abandoned); },
      "");
  // Syncs as a window's frames do until `done`; the seconds it took, or -1 after `limit`.
  auto syncUntil = [&](auto done, double limit) {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
      switcher->sync(model);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (done()) return s;
      if (s > limit) return -1.0;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  };
  ASSERT_GE(syncUntil([&] { return switcher->feed() != nullptr; }, 30), 0) << switcher->error();
  const FrameFeed* pattern = switcher->feed();
  model.setSource(silent);
  syncUntil([] { return false; }, 0.5);
  ASSERT_TRUE(switcher->pending()) << "the silent stream's open is under way";
  model.setSource("testpattern:32x24");
  const double hang = std::chrono::duration<double>(kHang).count();
  EXPECT_GE(syncUntil([&] { return switcher->feed() != pattern; }, hang), 0)
      << "the next source waited for the silent stream's open: " << switcher->error();

  model.setSource(silent);
  syncUntil([] { return false; }, 0.5);
  ASSERT_TRUE(switcher->pending());
  // Closed on a thread of its own, so that a close that waits fails at the hang limit.
  std::promise<void> closed;
  std::future<void> done = closed.get_future();
  std::thread closing([&switcher, &closed] {
    switcher.reset();
    closed.set_value();
  });
  if (done.wait_for(kHang) != std::future_status::ready) {
    ADD_FAILURE() << "closing waited for the silent stream's open (still closing after the hang limit)";
    closing.detach();
    std::_Exit(1);  // the switcher's thread waits for ever; the test's result is already written
  }
  closing.join();
}
