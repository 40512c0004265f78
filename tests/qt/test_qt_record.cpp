// File > Record output in the Qt shell: the feed's recorder (the sink of
// `liveconv run -o`) writes the filtered frames; the file is decoded again
// with the media library's source and compared, frame by frame, with what the
// window showed. FFV1 in Matroska is lossless, so the comparison is exact.
#include <gtest/gtest.h>
#include <QAction>

#include <QFileInfo>
#include <QLabel>
#include <QStatusBar>
#include <vector>

#include "feed/frame_feed.hpp"
#include "qt_shell_fixture.hpp"

#ifdef LIVECONV_WITH_MEDIA
#include "liveconv/media/ffmpeg_source.hpp"
#endif

using namespace liveconv;
using namespace liveconv::ui;
using namespace liveconv::ui::qttest;

namespace {

// Deterministic frames of a size llvmpipe and PoCL filter quickly.
constexpr const char* kLavfiSource = "lavfi:testsrc2=size=160x120:rate=30";

#ifdef LIVECONV_WITH_MEDIA
std::vector<Image> decodeAll(const QString& path) {
  media::FfmpegSource source(media::parseSourceSpec(path.toStdString(), ""), PixelFormat::RGBA8);
  std::vector<Image> frames;
  Frame f;
  while (source.next(f)) frames.push_back(copyOf(f.pixels()));
  return frames;
}
#endif

class QtRecording : public QtShell {
 protected:
  void SetUp() override {
    QtShell::SetUp();
    if (IsSkipped()) return;
    if (!decodedSourcesAvailable()) GTEST_SKIP() << "this build has no FFmpeg: nothing can be recorded";
  }
  // A decoded test source, paused once its first frames are in, nothing left in flight.
  std::unique_ptr<MainWindow> pausedOnLavfi() {
    auto w = openWindow();
    EXPECT_TRUE(openAndPlay(*w, kLavfiSource)) << "no first frame: " << w->lastError().toStdString();
    w->model().view().paused = true;
    tickUntilQuiet(*w);
    return w;
  }
  // Steps one source frame and returns a copy of the filtered picture the window then shows.
  Image stepAndCopy(MainWindow& w) {
    const std::uint64_t before = w.loop().frame().index;
    w.stepOneFrame();
    EXPECT_TRUE(tickUntil(w, [&] { return w.loop().frame().index != before; })) << "the step brought no frame";
    return copyOf(w.loop().frame().filtered);
  }
};

TEST_F(QtRecording, RecordsExactlyTheFramesItShows) {
#ifdef LIVECONV_WITH_MEDIA
  auto w = pausedOnLavfi();
  w->model().applySpec("sobel-x", nullptr);  // an edit, so the recording is not the source itself
  w->syncFromModel();
  ASSERT_TRUE(tickUntilShown(*w));
  tickUntilQuiet(*w);
  const QString path = dir_.filePath("recording.mkv");
  ASSERT_TRUE(w->startRecording(path)) << w->lastError().toStdString();
  EXPECT_TRUE(w->loop().recordings().active());
  EXPECT_FALSE(w->recordingLabel()->isHidden());
  constexpr int kFrames = 8;
  std::vector<Image> shown;
  for (int i = 0; i < kFrames; ++i) shown.push_back(stepAndCopy(*w));
  EXPECT_NE(firstDifference(shown[0].view(), shown[1].view()), "") << "the source moves, so a shifted frame would show";
  w->tick();
  saveForReview(*w, "liveconv-qt-recording.png");
  EXPECT_TRUE(w->recordingLabel()->text().contains("REC")) << w->recordingLabel()->text().toStdString();
  EXPECT_TRUE(w->recordingLabel()->text().contains(QString("%1 frames").arg(kFrames)))
      << w->recordingLabel()->text().toStdString();
  w->stopRecording();
  EXPECT_FALSE(w->loop().recordings().active());
  w->loop().recordings().waitForAll();  // the file is finished on lc-record
  w->tick();
  EXPECT_TRUE(w->recordingLabel()->isHidden());
  EXPECT_EQ(w->loop().recordings().last().frames, kFrames);
  EXPECT_TRUE(w->statusBar()->currentMessage().startsWith("Recorded 8 frames"))
      << w->statusBar()->currentMessage().toStdString();

  const std::vector<Image> recorded = decodeAll(path);
  ASSERT_EQ(recorded.size(), shown.size()) << "every frame shown while recording, and only those";
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const std::string diff = firstDifference(recorded[i].view(), shown[i].view());
    EXPECT_EQ(diff, "") << "recorded frame " << i << " (tolerance 0, FFV1 is lossless)";
  }
#endif
}

// Changing the source and closing the window both finish the file properly.
TEST_F(QtRecording, SourceChangeAndCloseFinishTheFile) {
#ifdef LIVECONV_WITH_MEDIA
  auto w = pausedOnLavfi();
  const QString first = dir_.filePath("first.mkv");
  ASSERT_TRUE(w->startRecording(first)) << w->lastError().toStdString();
  for (int i = 0; i < 3; ++i) stepAndCopy(*w);
  const std::uint64_t installs = w->loop().feedsInstalled();
  ASSERT_TRUE(w->openSource(kLavfiSource));  // a new source: the recording of the old one ends here
  EXPECT_FALSE(w->loop().recordings().active());
  w->loop().recordings().waitForAll();  // the file is finished on lc-record, not on the UI thread
  EXPECT_EQ(w->loop().recordings().last().frames, 3);
  EXPECT_EQ(decodeAll(first).size(), 3u);

  ASSERT_TRUE(tickUntil(*w, [&] {
    return w->loop().feedsInstalled() > installs && w->loop().frame().filtered.data != nullptr;
  })) << "a source opened while paused shows its first frame";
  tickUntilQuiet(*w);
  const QString second = dir_.filePath("second.mkv");
  ASSERT_TRUE(w->startRecording(second)) << w->lastError().toStdString();
  for (int i = 0; i < 2; ++i) stepAndCopy(*w);
  w->close();  // closeEvent finishes the file while the feed still exists
  EXPECT_FALSE(w->loop().recordings().active());
  EXPECT_EQ(decodeAll(second).size(), 2u);
#endif
}

// What cannot be recorded is a sentence; the window keeps playing and nothing is recording.
TEST_F(QtRecording, RefusedRecordingsLeaveTheWindowUp) {
  auto w = pausedOnLavfi();
  w->model().view().paused = false;
  EXPECT_FALSE(w->startRecording("/nonexistent-dir/out.mkv"));
  EXPECT_TRUE(w->lastError().contains("nonexistent-dir")) << w->lastError().toStdString();
  EXPECT_FALSE(w->loop().recordings().active());
  EXPECT_FALSE(w->startRecording(dir_.filePath("out.unknown-container")));
  EXPECT_FALSE(w->lastError().isEmpty());
  EXPECT_FALSE(w->loop().recordings().active());
  EXPECT_TRUE(w->recordingLabel()->isHidden());
  const std::uint64_t index = w->loop().frame().index;
  EXPECT_TRUE(tickUntil(*w, [&] { return w->loop().frame().index > index + 2; })) << "the video goes on";

  // Already recording: a second start is refused, the first recording goes on.
  const QString path = dir_.filePath("one.mkv");
  ASSERT_TRUE(w->startRecording(path));
  EXPECT_FALSE(w->startRecording(dir_.filePath("two.mkv")));
  EXPECT_TRUE(w->loop().recordings().active());
  EXPECT_EQ(w->loop().recordings().path(), path.toStdString());
  w->stopRecording();
  EXPECT_FALSE(QFileInfo::exists(dir_.filePath("two.mkv")));

  EXPECT_TRUE(w->recordAction()->isEnabled()) << "a decoded source can be recorded";

  // The test pattern is a source like any other (the same feed): it records too.
  ASSERT_TRUE(openAndPlay(*w, "testpattern:64x64")) << w->lastError().toStdString();
  // Paused with nothing in flight: a frame the engine filtered before Record,
  // shown after it, is not one of the three steps.
  w->model().view().paused = true;
  tickUntilQuiet(*w);
  EXPECT_TRUE(w->recordAction()->isEnabled()) << w->recordAction()->statusTip().toStdString();
  const QString pattern = dir_.filePath("pattern.mkv");
  ASSERT_TRUE(w->startRecording(pattern)) << w->lastError().toStdString();
  for (int i = 0; i < 3; ++i) stepAndCopy(*w);
  // The recorder has taken the three (its count reaches the window at a tick).
  EXPECT_TRUE(tickUntil(*w, [&] { return w->loop().stats().recordedFrames >= 3; }))
      << "recorded " << w->loop().stats().recordedFrames << " of three stepped frames";
  w->stopRecording();
  w->loop().recordings().waitForAll();
#ifdef LIVECONV_WITH_MEDIA
  EXPECT_GE(decodeAll(pattern).size(), 3u);
#endif
}

}  // namespace
