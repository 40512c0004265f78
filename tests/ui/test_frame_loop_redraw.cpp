// FrameLoop::redrawDue: the loop turns every pass, but a window draws only
// when something it shows changed (a new frame, an edit, a view setting, a
// message, input), and otherwise every kRedrawInterval for the overlay's
// numbers. The feed here hands out the same picture until the test says a
// new one came.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <thread>

#include "feed/frame_loop.hpp"
#include "feed/stats_file.hpp"

using namespace liveconv;
using namespace liveconv::ui;

namespace {

class StillFeed final : public FrameFeed {
 public:
  void setParams(std::shared_ptr<const ParamsSnapshot>) override {}
  FeedFrame advance(Advance) override {
    FeedFrame f;
    f.filtered = ImageView{pixels_, 1, 1, 4, PixelFormat::RGBA8};
    f.fresh = newFrame;
    newFrame = false;
    return f;
  }
  FrameStats stats() const override {
    FrameStats s;
    s.sourceMessage = message;
    return s;
  }
  bool newFrame = false;
  std::string message;  // what the source says (the end of a clip, a stream that stopped)

 private:
  std::uint8_t pixels_[4] = {1, 2, 3, 4};
};

struct Loop {
  ViewerModel model;
  FrameLoop loop{model};
  StillFeed* feed = nullptr;

  Loop() {
    auto f = std::make_unique<StillFeed>();
    feed = f.get();
    loop.adopt(std::move(f), "testpattern");
    model.setSource("testpattern");
    loop.tick();
    loop.redraw().drew();
  }
  // One pass: true when it draws (and then it does).
  bool pass() {
    loop.tick();
    if (!loop.redraw().due()) return false;
    loop.redraw().drew();
    return true;
  }
};

TEST(FrameLoopRedraw, AnUnchangedWindowIsDrawnOnlyEveryInterval) {
  Loop l;
  ASSERT_TRUE(l.loop.frame().hasPicture());
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(l.pass()) << "pass " << i << " drew a window where nothing changed";
  std::this_thread::sleep_for(RedrawPolicy::kRedrawInterval + std::chrono::milliseconds(20));
  EXPECT_TRUE(l.pass()) << "the overlay's numbers were not drawn again after the interval";
  EXPECT_FALSE(l.pass());
}

TEST(FrameLoopRedraw, ANewFrameAnEditAViewSettingAndAMessageAreDrawnAtOnce) {
  Loop l;
  EXPECT_FALSE(l.pass());
  l.feed->newFrame = true;
  EXPECT_TRUE(l.pass()) << "a new frame";
  EXPECT_FALSE(l.pass());
  ASSERT_TRUE(l.model.setCell(0, 0, 7.0f));
  EXPECT_TRUE(l.pass()) << "a mask edit";
  EXPECT_FALSE(l.pass());
  l.model.view().paused = true;
  EXPECT_TRUE(l.pass()) << "pausing";
  EXPECT_FALSE(l.pass());
  l.model.view().splitPosition = 0.25f;
  EXPECT_TRUE(l.pass()) << "the compare divider";
  EXPECT_FALSE(l.pass());
  l.feed->message = "The stream stopped sending.";
  EXPECT_TRUE(l.pass()) << "a message on the picture";
  EXPECT_FALSE(l.pass());
}

TEST(FrameLoopRedraw, AfterInputEveryPassDrawsForAWhile) {
  Loop l;
  EXPECT_FALSE(l.pass());
  l.loop.redraw().inputCame();
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(l.pass()) << "pass " << i << " after input";
  std::this_thread::sleep_for(RedrawPolicy::kInputRedraw + std::chrono::milliseconds(20));
  EXPECT_TRUE(l.pass()) << "the interval passed meanwhile";
  EXPECT_FALSE(l.pass()) << "input long gone";
}

TEST(FrameLoopRedraw, AnExposedWindowDrawsOnce) {
  Loop l;
  EXPECT_FALSE(l.pass());
  l.loop.redraw().exposed();
  EXPECT_TRUE(l.pass());
  EXPECT_FALSE(l.pass());
}

TEST(FrameLoopRedraw, TheUiRateIsTheLoopsWhetherItDrawsOrNot) {
  Loop l;
  for (int i = 0; i < 12; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    l.pass();
  }
  const std::vector<float> times = l.loop.redraw().uiFrameTimes().values();
  ASSERT_GE(times.size(), 8u);
  for (float ms : times) EXPECT_GE(ms, 9.0f);
  EXPECT_GT(l.loop.redraw().uiFps(), 10.0);
  EXPECT_LT(l.loop.redraw().uiFps(), 110.0);
  EXPECT_LE(l.loop.redraw().redraws(), 3u) << "passes drew that had nothing new to show";
}

// New frames come every other pass, and each is filtered with the parameters
// the feed had when the frame before it came: one frame in flight, as in a
// pipeline whose device is busy while an edit arrives.
class SlowFeed final : public FrameFeed {
 public:
  void setParams(std::shared_ptr<const ParamsSnapshot> snapshot) override { asked_ = snapshot->version; }
  FeedFrame advance(Advance) override {
    FeedFrame f;
    f.filtered = ImageView{pixels_, 1, 1, 4, PixelFormat::RGBA8};
    f.paramsVersion = shownVersion_;
    if (++calls_ % 2 == 0) {
      f.fresh = true;
      f.paramsVersion = shownVersion_ = inFlight_;
      inFlight_ = asked_;
    }
    return f;
  }
  FrameStats stats() const override { return {}; }

 private:
  std::uint8_t pixels_[4] = {1, 2, 3, 4};
  std::uint64_t asked_ = 0, inFlight_ = 0, shownVersion_ = 0;
  int calls_ = 0;
};

long long field(const std::string& json, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + key + "\": (-?\\d+)"))) return -100;
  return std::stoll(m[1]);
}

// The stats file counts an edit's wait in passes (what a script's FRAME
// counts) and in new frames on screen: a pass without a new frame shows the
// picture already there.
TEST(FrameLoopEdits, AnEditsWaitIsCountedInPassesAndInNewFramesShown) {
  ViewerModel model;
  FrameLoop loop(model);
  loop.adopt(std::make_unique<SlowFeed>(), "testpattern");
  model.setSource("testpattern");
  for (int i = 0; i < 6; ++i) loop.tick();
  ASSERT_TRUE(model.setCell(0, 0, 7.0f));
  for (int i = 0; i < 12; ++i) loop.tick();
  const std::string path = ::testing::TempDir() + "frame_loop_edits.json";
  ASSERT_EQ(writeStatsJson(loop, path), "");
  std::stringstream json;
  json << std::ifstream(path).rdbuf();
  const std::string text = json.str();
  const std::string edit = text.substr(text.find("\"edits\""));
  std::printf("%s", edit.c_str());
  // The edit is handed over in a pass without a new frame. The frame in flight
  // then shows first (old parameters, the next pass), and the next new frame
  // shows the edit two passes after that: 3 passes, 2 new frames.
  EXPECT_EQ(field(edit, "visible_after_new_frames"), 2);
  EXPECT_EQ(field(edit, "visible_after_frames"), 3);
}

}  // namespace

namespace {

// A card on the picture (what the source said, a source that did not open)
// goes after FrameLoop::kCardSeconds while a picture plays, and the window
// draws once more to take it off; the session log keeps it.
TEST(FrameLoopCards, ACardGoesAfterAFewSecondsAndStaysInTheLog) {
  Loop l;
  l.feed->message = "Connection refused; waiting up to 10 s for the stream.";
  l.pass();
  EXPECT_EQ(l.loop.pictureMessage(), l.feed->message);
  const auto shownAt = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - shownAt < FrameLoop::kCardSeconds - std::chrono::milliseconds(300)) {
    l.pass();
    ASSERT_EQ(l.loop.pictureMessage(), l.feed->message) << "the card went too soon";
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  EXPECT_TRUE(l.pass()) << "the window was not drawn again without the card";
  EXPECT_EQ(l.loop.pictureMessage(), "") << "the card is still on the picture after " << FrameLoop::kCardSeconds.count() << " s";
  bool logged = false;
  for (const SessionLog::Message& m : l.loop.log().messages()) logged = logged || m.text == l.feed->message;
  EXPECT_TRUE(logged) << "the message is not in the log the windows show";
  l.feed->message = "The stream came back.";
  l.pass();
  EXPECT_EQ(l.loop.pictureMessage(), "The stream came back.") << "a new message gets a card of its own";
}

}  // namespace

namespace {

// A file the test finishes: done() only once released (an encoder flushing
// its last frames and writing the trailer).
// wait() before mayWait_ is set is a wait the test forbids: it is noted and
// returns, so a UI thread that waited is a failure, not a hang.
class GatedEnding final : public FinishingRecording {
 public:
  bool done() const override { return released_; }
  void wait() override {
    if (!mayWait_) {
      waitedUnasked_ = true;
      return;
    }
    while (!released_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  long long frames() const override { return 42; }
  std::string error() const override { return error_; }
  std::atomic<bool> released_{false}, mayWait_{false}, waitedUnasked_{false};
  std::string error_;  // set before released_: the recorder failed, its file discarded
};

class RecordingFeed final : public FrameFeed {
 public:
  void setParams(std::shared_ptr<const ParamsSnapshot>) override {}
  FeedFrame advance(Advance) override {
    FeedFrame f;
    f.filtered = ImageView{pixels_, 1, 1, 4, PixelFormat::RGBA8};
    f.fresh = true;
    return f;
  }
  FrameStats stats() const override {
    FrameStats s;
    s.recordingPath = path_;
    return s;
  }
  std::string whyNoRecording() const override { return {}; }
  std::string startRecording(const std::string& path) override {
    path_ = path;
    return {};
  }
  std::shared_ptr<FinishingRecording> stopRecording() override {
    if (path_.empty()) return nullptr;
    path_.clear();
    ending = std::make_shared<GatedEnding>();
    return ending;
  }
  std::shared_ptr<GatedEnding> ending;

 private:
  std::string path_;
  std::uint8_t pixels_[4] = {1, 2, 3, 4};
};

// A frame loop playing a RecordingFeed (the test pattern's place).
class FrameLoopRecording : public ::testing::Test {
 protected:
  void SetUp() override {
    auto owned = std::make_unique<RecordingFeed>();
    feed = owned.get();
    loop.adopt(std::move(owned), "testpattern");
    model.setSource("testpattern");
    loop.tick();
  }
  ViewerModel model;
  FrameLoop loop{model};
  RecordingFeed* feed = nullptr;
};

// Stopping a recording returns at once: the file is finished on the
// recorder's thread, the window says which file is being finished, and what
// was recorded is reported once the file is complete. Closing the window
// (waitForRecordings) waits for it.
TEST_F(FrameLoopRecording, StoppingDoesNotWaitForTheFileAndReportsItOnceComplete) {
  ASSERT_EQ(loop.recordings().start("take 1.mkv"), "");
  for (int i = 0; i < 3; ++i) loop.tick();
  EXPECT_TRUE(loop.recordings().active());
  EXPECT_EQ(loop.recordings().finishingPath(), "");

  loop.recordings().stop();
  ASSERT_TRUE(feed->ending);
  EXPECT_FALSE(feed->ending->waitedUnasked_) << "the UI thread waited for the file";
  EXPECT_FALSE(loop.recordings().active());
  EXPECT_EQ(loop.recordings().finishingPath(), "take 1.mkv");
  for (int i = 0; i < 3; ++i) loop.tick();
  EXPECT_EQ(loop.recordings().finished(), 0u) << "reported before the file was complete";
  EXPECT_FALSE(feed->ending->waitedUnasked_) << "a pass waited for the file";
  EXPECT_TRUE(loop.recordings().start("take 2.mkv").empty()) << "a new recording may start meanwhile";

  feed->ending->released_ = true;
  loop.tick();
  EXPECT_EQ(loop.recordings().finished(), 1u);
  EXPECT_EQ(loop.recordings().last().path, "take 1.mkv");
  EXPECT_EQ(loop.recordings().last().frames, 42);
  EXPECT_EQ(loop.recordings().last().stoppedBy, "");
  EXPECT_EQ(loop.recordings().finishingPath(), "");

  // Closing: the second recording ends, and the window waits for its file.
  loop.recordings().stop();
  std::shared_ptr<GatedEnding> second = feed->ending;
  second->mayWait_ = true;  // closing is where the window waits
  std::thread encoder([second] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    second->released_ = true;
  });
  loop.recordings().waitForAll();
  EXPECT_TRUE(second->done());
  EXPECT_EQ(loop.recordings().finished(), 2u);
  EXPECT_EQ(loop.recordings().last().path, "take 2.mkv");
  encoder.join();
}

// A recording to a file that is there keeps the file unless replacing it was
// said (a script's `record`, the viewer's first Record: refused with a
// sentence; the Qt save dialog that asked, the viewer's second Record: replaced).
TEST_F(FrameLoopRecording, AFileThatIsThereIsKeptUnlessReplacingItWasSaid) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("liveconv_keep_" + std::to_string(::getpid()) + ".mkv")).string();
  std::ofstream(path) << "precious";
  EXPECT_TRUE(RecordingControls::wouldReplace(path));
  const std::string refused = loop.recordings().start(path);
  EXPECT_NE(refused.find(path + " exists and was kept"), std::string::npos) << refused;
  EXPECT_FALSE(loop.recordings().active());
  EXPECT_EQ(feed->stats().recordingPath, "") << "the recorder was started";
  EXPECT_EQ(loop.recordings().start(path, true), "");
  EXPECT_TRUE(loop.recordings().active());
  EXPECT_EQ(feed->stats().recordingPath, path);
  loop.recordings().stop();
  feed->ending->released_ = true;
  loop.tick();
  std::filesystem::remove(path);
  EXPECT_FALSE(RecordingControls::wouldReplace(path));
}

// A recording whose recorder failed (a full disk) left no file: it is not
// among the recordings the stats file lists as written, but among those that
// failed, with why; one stopped by the user is listed as written.
TEST_F(FrameLoopRecording, OnlyACompleteFileIsListedAsRecorded) {
  const std::string stats =
      (std::filesystem::temp_directory_path() / ("liveconv_failed_rec_" + std::to_string(::getpid()) + ".json")).string();
  ASSERT_EQ(loop.recordings().start("full.mkv"), "");
  loop.tick();
  loop.recordings().stop();
  feed->ending->error_ = "Writing full.mkv failed: No space left on device.";
  feed->ending->released_ = true;
  loop.tick();
  EXPECT_FALSE(loop.recordings().last().complete);
  EXPECT_EQ(loop.recordings().last().stoppedBy, "Recording stopped: Writing full.mkv failed: No space left on device.");
  ASSERT_EQ(loop.recordings().start("fine.mkv"), "");
  loop.tick();
  loop.recordings().stop();
  feed->ending->released_ = true;
  loop.tick();
  EXPECT_TRUE(loop.recordings().last().complete);
  ASSERT_EQ(writeStatsJson(loop, stats), "");
  std::ifstream in(stats);
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(stats);
  const std::size_t written = json.find("\"recordings\": ["), failed = json.find("\"recordings_failed\": [");
  ASSERT_NE(written, std::string::npos) << json;
  ASSERT_NE(failed, std::string::npos) << json;
  const std::string writtenList = json.substr(written, failed - written), failedList = json.substr(failed);
  EXPECT_NE(writtenList.find("\"path\": \"fine.mkv\""), std::string::npos) << json;
  EXPECT_EQ(writtenList.find("full.mkv"), std::string::npos) << "a discarded file listed as recorded: " << json;
  EXPECT_NE(failedList.find("{\"path\": \"full.mkv\", \"frames_lost\": 42, \"why\": \"Recording stopped: Writing full.mkv "
                            "failed: No space left on device.\"}"),
            std::string::npos)
      << json;
}

}  // namespace

// --stats-json's "drops_per_second": each drop in the second of play it was
// seen in, counted from the first frame on screen (the drops before it in [0]),
// so a run's drops at start-up can be told from those later.
TEST(SessionLogDrops, EachDropCountsInTheSecondItWasSeen) {
  SessionLog log;
  log.dropped(0);
  log.dropped(2);   // before the first frame: second 0
  log.latency(20);  // the first frame is on screen
  log.dropped(2);   // nothing new
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  log.dropped(5);  // 3 more, in second 1
  log.dropped(1);  // the counters started again (another source): 1 more
  const std::string json = log.toJson(FrameStats{}, 1, 1, 30, "box:3");
  EXPECT_NE(json.find("\"drops_per_second\": [2, 4]"), std::string::npos) << json;
}
