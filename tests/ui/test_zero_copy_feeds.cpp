// The zero-copy display path of the windows' feed, through a display whose
// buffer is a plain OpenCL buffer (fake_display_link.hpp): the test pattern
// and a decoded source take the same way, their frames kept on the device by
// the pipeline and copied into the display's buffer by the UI thread. Each picture
// the display holds must be the reference filter of the source frame handed
// out with it; nothing comes back to the host (filtered.data is null); edits
// arrive; recording still gets host pixels. The GL half of the path (the PBO
// shared through cl_khr_gl_sharing) needs a driver that shares; this is the
// half that runs here.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "fake_display_link.hpp"
#include "feed/frame_feed.hpp"
#include "liveconv/compare.hpp"
#include "liveconv/reference.hpp"
#include "model/viewer_model.hpp"

using namespace liveconv;
using namespace liveconv::ui;

namespace {

template <typename Done>
FeedFrame advanceUntil(FrameFeed& feed, Done done) {
  for (int i = 0; i < 2000; ++i) {
    FeedFrame f = feed.advance(Advance::Play);
    if (f.fresh && done(f)) return f;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "no matching frame within 10 s; feed says: " << feed.stats().sourceMessage << feed.stats().error;
  return {};
}

// The frame went to the display's buffer, not to the host, and the display
// holds the reference filter of its source.
void expectShownOnDevice(const FeedFrame& f, const test::FakeDisplay& display, const FilterParams& p) {
  EXPECT_EQ(f.glPixelBuffer, test::kFakePixelBuffer);
  EXPECT_EQ(f.filtered.data, nullptr) << "a zero-copy frame came with host pixels";
  ASSERT_NE(f.source.data, nullptr);
  EXPECT_EQ(f.filtered.width, f.source.width);
  EXPECT_EQ(f.filtered.height, f.source.height);
  EXPECT_EQ(f.filtered.format, f.source.format);
  EXPECT_EQ(display.protocolError, "");
  EXPECT_FALSE(display.held) << "the display's buffer was left acquired";
  Image want(f.source.width, f.source.height, f.source.format);
  convolveReference(f.source, want.view(), p.mask, p.border, p.alpha);
  const Image shown = display.read();
  const auto mismatch = compareImages(shown.view(), want.view(), 1);
  EXPECT_FALSE(mismatch) << mismatch->toString() << " (tolerance 1)";
}

class ZeroCopyFeedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (enumerateDevices().empty()) GTEST_SKIP() << "SKIP: no OpenCL device on this machine";
    std::string error;
    ASSERT_TRUE(model_.applySpec("box:3", &error)) << error;
  }
  void open(const std::string& source) {
    model_.setSource(source);
    feed_ = makeFrameFeed(source, "", model_.snapshot(), &link_);
  }
  // Two frames with the first set, then an edit and two frames with it.
  void playAndEdit() {
    const auto first = model_.version();
    for (int n = 0; n < 2; ++n) {
      const FeedFrame f = advanceUntil(*feed_, [&](const FeedFrame& x) { return x.paramsVersion == first; });
      expectShownOnDevice(f, link_.display(), model_.filter());
    }
    std::string error;
    ASSERT_TRUE(model_.applySpec("sobel-x", &error)) << error;
    feed_->setParams(model_.snapshot());
    for (int n = 0; n < 2; ++n) {
      const FeedFrame f =
          advanceUntil(*feed_, [&](const FeedFrame& x) { return x.paramsVersion == model_.version(); });
      expectShownOnDevice(f, link_.display(), model_.filter());
    }
    const FrameStats s = feed_->stats();
    EXPECT_TRUE(s.zeroCopy()) << s.displayPathText << ": the overlay's stage would say readback";
    EXPECT_GE(link_.display().releases, 4);
    EXPECT_EQ(link_.display().acquires, link_.display().releases);
  }

  ViewerModel model_;
  test::FakeDisplayLink link_;
  std::unique_ptr<FrameFeed> feed_;
};

}  // namespace

TEST_F(ZeroCopyFeedTest, TheTestPatternIsFilteredIntoTheDisplaysBuffer) {
  open("testpattern:96x64");
  playAndEdit();
}

// local_aligned filters rows padded to its alignment in the pipeline's
// buffers: exact into the display's buffer (whose rows are its own) and on
// the readback path.
TEST_F(ZeroCopyFeedTest, LocalAlignedFiltersPaddedRowsOnBothDisplayPaths) {
  ASSERT_TRUE(model_.setVariant(VariantId::LocalAligned));
  open("testpattern:97x61");
  const FeedFrame shown = advanceUntil(*feed_, [&](const FeedFrame& x) { return x.paramsVersion == model_.version(); });
  expectShownOnDevice(shown, link_.display(), model_.filter());

  auto readback = makeFrameFeed("testpattern:97x61", "", model_.snapshot());
  const FeedFrame f = advanceUntil(*readback, [&](const FeedFrame& x) { return x.paramsVersion == model_.version(); });
  ASSERT_NE(f.filtered.data, nullptr);
  Image want(f.source.width, f.source.height, f.source.format);
  const FilterParams p = model_.filter();
  convolveReference(f.source, want.view(), p.mask, p.border, p.alpha);
  const auto mismatch = compareImages(f.filtered, want.view(), 1);
  EXPECT_FALSE(mismatch) << mismatch->toString() << " (tolerance 1)";
}

#ifdef LIVECONV_WITH_MEDIA
TEST_F(ZeroCopyFeedTest, DecodedFramesAreCopiedIntoTheDisplaysBufferOnTheDevice) {
  open("lavfi:testsrc2=size=96x64:rate=200");
  playAndEdit();
}

// Recording needs host pixels: the pipeline reads back while it records and
// the display still gets every shown frame on the device.
TEST_F(ZeroCopyFeedTest, RecordingADecodedSourceStillGetsTheFilteredFrames) {
  open("lavfi:testsrc2=size=96x64:rate=200");
  const std::string path = std::string(::testing::TempDir()) + "liveconv_zero_copy_recording.mkv";
  std::remove(path.c_str());
  ASSERT_EQ(feed_->startRecording(path), "");
  for (int n = 0; n < 10; ++n) {
    const FeedFrame f = advanceUntil(*feed_, [](const FeedFrame&) { return true; });
    expectShownOnDevice(f, link_.display(), model_.filter());
  }
  const std::shared_ptr<FinishingRecording> ending = feed_->stopRecording();
  ASSERT_NE(ending, nullptr);
  ending->wait();
  EXPECT_GT(ending->frames(), 5);
  EXPECT_GT(std::filesystem::file_size(path), 1000u);
  std::remove(path.c_str());
}
#endif
