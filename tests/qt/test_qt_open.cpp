// The Qt shell opens sources and switches devices as the GLFW viewer does:
// through the shared FeedSwitcher on its "lc-open" thread, and through the
// viewport's GL context (a display link), so the overlay names the display
// path that runs. The opener here stands for makeFrameFeed and blocks until
// the test lets it go, as a slow camera or stream would.
#include <gtest/gtest.h>

#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QSlider>
#include <QStatusBar>
#include <QTimer>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include "feed/frame_feed.hpp"
#include "liveconv/device.hpp"
#include "liveconv/parameters.hpp"
#include "liveconv/reference.hpp"
#include "qt/viewport.hpp"
#include "qt_shell_fixture.hpp"

using namespace liveconv;
using namespace liveconv::ui;
using namespace liveconv::ui::qttest;

namespace {

#ifdef LIVECONV_WITH_MEDIA
// A stream that cannot be reached fails its open within seconds with FFmpeg's
// reason, in a notice and on the picture, which goes on: the source playing stays.
TEST_F(QtShell, AnUnreachableStreamIsReportedAndThePlayingSourceStays) {
  auto w = openWindow();
  ASSERT_TRUE(tickUntil(*w, [&] { return w->loop().frame().hasPicture(); }));
  ASSERT_TRUE(w->openSource("rtsp://127.0.0.1:9/nothing"));
  ASSERT_TRUE(tickUntil(*w, [&] { return !w->loop().openError().empty(); })) << "the open never failed";
  EXPECT_NE(w->loop().openError().find("Connection refused"), std::string::npos) << w->loop().openError();
  EXPECT_TRUE(w->lastError().contains("Connection refused")) << w->lastError().toStdString();
  w->tick();
  EXPECT_NE(w->viewport()->message().find("Connection refused"), std::string::npos)
      << "on the picture too, as in the viewer: " << w->viewport()->message();
  const std::uint64_t index = w->loop().frame().index;
  EXPECT_TRUE(tickUntil(*w, [&] { return w->loop().frame().index > index + 2; })) << "the previous source stopped";
}

// The source of the last run cannot open now: the test source plays instead,
// and why stays on the picture (as in the viewer) until another source opens.
TEST_F(QtShell, ALastSourceThatCannotOpenIsSaidOnThePictureOverTheTestSource) {
  settings_->setValue("source", "rtsp://127.0.0.1:9/nothing");
  auto w = openWindow();
  ASSERT_TRUE(tickUntil(*w, [&] { return w->model().source() == "testpattern"; })) << "no fallback";
  ASSERT_TRUE(tickUntil(*w, [&] { return w->loop().frame().hasPicture(); }));
  w->tick();
  EXPECT_NE(w->viewport()->message().find("Connection refused"), std::string::npos) << w->viewport()->message();
  ASSERT_TRUE(openAndPlay(*w, "testpattern:320x240"));
  w->tick();
  EXPECT_EQ(w->viewport()->message(), "") << "the next open clears it";
}

// Used by hand (the dialog style), a file that is not there is said as every
// open that fails is: a card on the picture and the status line, no dialog (a
// modal one at start-up held the window, and signals, until it was clicked).
TEST_F(QtShell, AMissingFileByHandIsACardNotADialog) {
  MainWindow w(*settings_, ErrorStyle::Dialog);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  ASSERT_TRUE(openAndPlay(w, "testpattern:320x240"));
  QString dialogs;  // any window that came up modal, closed so that a broken build fails here rather than waits
  QTimer closer;
  QObject::connect(&closer, &QTimer::timeout, [&] {
    if (QWidget* modal = QApplication::activeModalWidget()) {
      dialogs += modal->windowTitle() + " ";
      modal->close();
    }
  });
  closer.start(50);
  const QString missing = QString::fromStdString(::testing::TempDir()) + "/not-there.mp4";
  w.openSource(missing);
  ASSERT_TRUE(tickUntil(w, [&] { return !w.loop().openError().empty(); })) << "the open never failed";
  w.tick();
  EXPECT_EQ(dialogs, "") << "a dialog came up";
  EXPECT_NE(w.loop().openError().find("does not exist"), std::string::npos) << w.loop().openError();
  EXPECT_NE(w.viewport()->message().find("does not exist"), std::string::npos) << w.viewport()->message();
  EXPECT_TRUE(w.statusBar()->currentMessage().contains("does not exist"))
      << w.statusBar()->currentMessage().toStdString();
  const std::uint64_t index = w.loop().frame().index;
  EXPECT_TRUE(tickUntil(w, [&] { return w.loop().frame().index > index + 2; })) << "the playing source stopped";
}

// A set the device cannot run (a workgroup larger than any device allows)
// means nothing can play: said once, in `liveconv run`'s words and with its
// exit code, without a fallback to the test source that would fail alike;
// the next set opens the source again.
TEST_F(QtShell, ASetThatCannotRunIsSaidAndTheNextSetOpensTheSourceAgain) {
  settings_->setValue(paramDescription(ParamId::Variant).settingsKey, "local");
  settings_->setValue(paramDescription(ParamId::Workgroup).settingsKey, "128x128");
  MainWindow w(*settings_, ErrorStyle::StatusBar);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  ASSERT_TRUE(tickUntil(w, [&] { return !w.loop().openError().empty(); })) << "the open never failed";
  EXPECT_NE(w.loop().openError().find("does not fit"), std::string::npos) << w.loop().openError();
  EXPECT_EQ(w.loop().switcher().errorExitCode(), media::kExitUnsupported);
  EXPECT_TRUE(w.lastError().contains("Pick another variant")) << w.lastError().toStdString();
  for (int i = 0; i < 20; ++i) w.tick();
  EXPECT_FALSE(w.loop().running());
  EXPECT_NE(w.viewport()->message().find("does not fit"), std::string::npos) << "on the picture too";
  EXPECT_EQ(w.viewport()->messageHint().rfind("Pick another variant", 0), 0u) << w.viewport()->messageHint();
  EXPECT_EQ(w.model().source(), "testpattern:320x240") << "no fallback";
  ASSERT_TRUE(w.model().setWorkgroup({0, 0}));
  w.syncFromModel();
  EXPECT_TRUE(waitForFirstFrame(w)) << "the next set did not open the source again: " << w.lastError().toStdString();
}

// A file shows its seek bar and position in the status bar; a message there
// (here: a saved window) shows beside them, left of them, and hides neither
// (they are the status bar's permanent widgets: its message is drawn in the
// room they leave).
TEST_F(QtShell, AStatusBarMessageLeavesTheSeekBarInView) {
  const QString clip = dir_.filePath("clip.mp4");
  ASSERT_EQ(std::system(("ffmpeg -v error -y -f lavfi -i testsrc2=size=320x240:rate=25 -t 4 -pix_fmt yuv420p " +
                         clip.toStdString()).c_str()), 0);
  auto w = openWindow();
  ASSERT_TRUE(openAndPlay(*w, clip));
  ASSERT_TRUE(tickUntil(*w, [&] { return w->seekSlider()->isVisible(); })) << "a file has a seek bar";
  ASSERT_TRUE(w->saveScreenshot(dir_.filePath("shot.png")));
  for (int i = 0; i < 10; ++i) {
    w->tick();
    QApplication::processEvents();
  }
  const QString message = w->statusBar()->currentMessage();
  EXPECT_FALSE(message.isEmpty());
  EXPECT_TRUE(w->seekSlider()->isVisible()) << "the message hid the seek bar";
  const int messageWidth = w->statusBar()->fontMetrics().horizontalAdvance(message);
  EXPECT_GE(w->seekSlider()->geometry().left(), std::min(messageWidth, 200))
      << "the message has less than 200 pixels left of the seek bar";
}
#endif

// Under Xvfb the GL context is Mesa's, which no OpenCL driver shares: the
// readback path is what runs here; where zero-copy runs, the line says so.
TEST_F(QtShell, TheOverlayNamesTheLiveDisplayPath) {
  auto w = openWindow();
  ASSERT_TRUE(tickUntil(*w, [&] { return !w->viewport()->paintedStats().displayPathText.empty(); }));
  const std::string path = w->viewport()->paintedStats().displayPathText;
  EXPECT_EQ(path, w->loop().stats().displayPathText) << "the overlay shows the feed's line";
  ASSERT_EQ(path.rfind("interop: ", 0), 0u) << path;
  EXPECT_EQ(path.find("no GL context"), std::string::npos) << "the feed was given the viewport's context: " << path;
  const DeviceInfo device = selectDevice(w->loop().deviceSelector(), enumerateDevices());
  if (!deviceHasExtension(device, "cl_khr_gl_sharing")) {
    EXPECT_EQ(path, "interop: readback + PBO (device has no cl_khr_gl_sharing)");
    EXPECT_GE(w->viewport()->pixelBufferUploads(), 1u) << "readback frames go through the renderer's pixel buffer";
  } else if (path.rfind("interop: zero-copy", 0) == 0) {
    EXPECT_NE(w->loop().frame().glPixelBuffer, 0u) << "zero-copy frames arrive in a GL pixel buffer";
  }
  // The picture drawn through that path is still the reference filter of its source frame.
  w->viewport()->setNativeZoom(true);
  w->model().applySpec("sharpen", nullptr);
  ASSERT_TRUE(tickUntil(
      *w, [&] { return w->loop().frame().fresh && w->loop().frame().paramsVersion == w->model().version(); }));
  QApplication::processEvents();
  ASSERT_NO_FATAL_FAILURE(expectThePictureIsTheReferenceFilter(*w));
}

// liveconv-qt --display-path readback: the readback path runs even where sharing would, and the overlay says why.
TEST_F(QtShell, ReadbackAskedForIsUsedAndNamed) {
  auto w = openWindow({}, DisplayPathRequest::Readback);
  ASSERT_TRUE(tickUntil(*w, [&] { return !w->viewport()->paintedStats().displayPathText.empty(); }));
  EXPECT_EQ(w->viewport()->paintedStats().displayPathText, "interop: readback + PBO (--display-path readback)");
  EXPECT_EQ(w->loop().frame().glPixelBuffer, 0u) << "a readback frame arrives in host memory";
  ASSERT_TRUE(tickUntil(*w, [&] { return w->viewport()->pixelBufferUploads() >= 1; }));
  EXPECT_TRUE(w->displayNotice().isEmpty()) << w->displayNotice().toStdString();
}

// liveconv-qt --display-path interop where the device cannot share: the
// viewer's one sentence (in the status line too), then the readback path.
TEST_F(QtShell, InteropAskedForWithoutSharingSaysSoAndFallsBack) {
  const DeviceInfo device = selectDevice("", enumerateDevices());
  if (deviceHasExtension(device, "cl_khr_gl_sharing"))
    GTEST_SKIP() << device.name << " has cl_khr_gl_sharing: the fallback cannot be forced on it";
  auto w = openWindow({}, DisplayPathRequest::Interop);
  ASSERT_TRUE(tickUntil(*w, [&] { return !w->displayNotice().isEmpty(); })) << "no sentence";
  const QString sentence = "--display-path interop cannot run on " + QString::fromStdString(device.name) +
                           " (device has no cl_khr_gl_sharing), so frames are shown through readback + PBO.";
  EXPECT_EQ(w->displayNotice(), sentence);
  ASSERT_TRUE(tickUntil(*w, [&] { return !w->viewport()->paintedStats().displayPathText.empty(); }));
  EXPECT_EQ(w->viewport()->paintedStats().displayPathText, "interop: readback + PBO (device has no cl_khr_gl_sharing)");
  ASSERT_TRUE(tickUntil(*w, [&] { return w->viewport()->pixelBufferUploads() >= 1; }));
}

// Opens that block until release(); "broken:..." fails as a busy camera does,
// and so does any open on the device failSelector() names.
class SlowOpener {
 public:
  std::unique_ptr<FrameFeed> open(const std::string& source, const std::string& selector,
                                  std::shared_ptr<const ParamsSnapshot> initial, const DisplayLink* display) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (gated_) {
        ++waiting_;
        changed_.wait(lock, [&] { return released_ > 0; });
        --released_;
        --waiting_;
      }
    }
    if (source.rfind("broken:", 0) == 0) throw std::runtime_error("the camera is busy.");
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!failSelector_.empty() && selector == failSelector_) throw std::runtime_error("the device is busy.");
    }
    return makeFrameFeed(source, selector, std::move(initial), display);
  }
  void gate() {
    std::lock_guard<std::mutex> lock(mutex_);
    gated_ = true;
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    ++released_;
    changed_.notify_all();
  }
  int waiting() {
    std::lock_guard<std::mutex> lock(mutex_);
    return waiting_;
  }
  void failSelector(const std::string& selector) {
    std::lock_guard<std::mutex> lock(mutex_);
    failSelector_ = selector;
  }
  ~SlowOpener() {  // an open still blocked must end, or the window's switcher would wait for it forever
    std::lock_guard<std::mutex> lock(mutex_);
    released_ += 100;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool gated_ = false;
  int released_ = 0, waiting_ = 0;
  std::string failSelector_;
};

class QtSlowOpen : public QtShell {
 protected:
  std::unique_ptr<MainWindow> openSlowWindow() {
    auto w = openWindow([this](const std::string& s, const std::string& sel, std::shared_ptr<const ParamsSnapshot> p,
                               const DisplayLink* d,
                               const OpenControl&) { return opener_.open(s, sel, std::move(p), d); });
    opener_.gate();  // the first source opened freely; every later open waits for release()
    return w;
  }
  // Ticks while an open is blocked until a new frame comes: the old source must keep delivering.
  void expectPlaysOn(MainWindow& w, std::uint64_t* lastIndex) {
    EXPECT_TRUE(tickUntil(w, [&] { return w.loop().frame().index > *lastIndex; }))
        << "the playing source stopped while another opened";
    EXPECT_EQ(w.loop().stats().frameWidth, 320) << "still the old source";
    *lastIndex = w.loop().frame().index;
  }
  SlowOpener opener_;  // declared before the windows: it outlives their switchers
};

TEST_F(QtSlowOpen, ASlowOpenDoesNotStopThePictureAndSaysOpening) {
  auto w = openSlowWindow();
  std::uint64_t index = w->loop().frame().index;
  ASSERT_TRUE(w->openSource("testpattern:200x100"));
  w->tick();
  EXPECT_EQ(w->statusBar()->currentMessage(), "Opening testpattern:200x100 ...");
  expectPlaysOn(*w, &index);
  EXPECT_EQ(w->loop().openingMessage(), "opening testpattern:200x100 ...");
  EXPECT_EQ(w->statusBar()->currentMessage(), "Opening testpattern:200x100 ...");
  // The open reaches the opener on the switcher's thread in its own time (a busy machine may hold it).
  EXPECT_TRUE(tickUntil(*w, [&] { return opener_.waiting() == 1; })) << "the open runs, blocked, on the switcher's thread";
  EXPECT_EQ(w->loop().playingSource(), "testpattern:320x240");

  opener_.release();
  ASSERT_TRUE(tickUntil(*w, [&] { return w->loop().stats().frameWidth == 200; })) << "the new source never took over";
  EXPECT_EQ(w->loop().playingSource(), "testpattern:200x100");
  EXPECT_TRUE(w->loop().openingMessage().empty());
  EXPECT_EQ(w->statusBar()->currentMessage(), "Playing testpattern:200x100");
  EXPECT_TRUE(w->windowTitle().endsWith("testpattern:200x100")) << w->windowTitle().toStdString();
  EXPECT_TRUE(w->lastError().isEmpty()) << w->lastError().toStdString();
}

TEST_F(QtSlowOpen, AFailedOpenIsReportedAndThePlayingSourceStays) {
  auto w = openSlowWindow();
  std::uint64_t index = w->loop().frame().index;
  ASSERT_TRUE(w->openSource("broken:camera"));
  w->tick();
  expectPlaysOn(*w, &index);
  opener_.release();
  ASSERT_TRUE(tickUntil(*w, [&] { return !w->loop().openError().empty(); }));
  EXPECT_EQ(w->loop().openError(), "Cannot open broken:camera: the camera is busy.");
  EXPECT_TRUE(w->lastError().startsWith("Cannot open broken:camera: the camera is busy."))
      << w->lastError().toStdString();
  EXPECT_TRUE(w->statusBar()->currentMessage().contains("the camera is busy"))
      << w->statusBar()->currentMessage().toStdString();
  expectPlaysOn(*w, &index);
  EXPECT_EQ(w->loop().playingSource(), "testpattern:320x240");
  w->saveSettings();
  EXPECT_EQ(settings_->value("source").toString(), "testpattern:320x240") << "the next run starts with what played";
}

TEST_F(QtSlowOpen, ADeviceSwitchOpensInTheBackground) {
  auto w = openSlowWindow();
  std::uint64_t index = w->loop().frame().index;
  w->model().setDevice(0);  // as the Device menu does
  w->tick();
  EXPECT_EQ(w->statusBar()->currentMessage(), "Switching device ...");
  expectPlaysOn(*w, &index);
  const std::uint64_t installs = w->loop().feedsInstalled();
  opener_.release();
  ASSERT_TRUE(tickUntil(*w, [&] { return w->loop().feedsInstalled() > installs && w->loop().frame().hasPicture(); }));
  EXPECT_EQ(w->loop().stats().device, enumerateDevices().at(0).name);
  EXPECT_EQ(w->checkedDeviceEntry(), 0) << "the Device menu ticks the device that plays";
  EXPECT_TRUE(w->lastError().isEmpty()) << w->lastError().toStdString();
}

QAction* deviceMenuEntry(MainWindow& w, int index) {
  for (QAction* top : w.menuBar()->actions())
    if (top->menu() && top->text() == "&Device")
      for (QAction* a : top->menu()->actions())
        if (a->isCheckable() && a->data().toInt() == index) return a;
  return nullptr;
}

// A device switch that fails leaves the old device playing, and the Device
// menu's tick goes back to it; the next source opens on it too.
TEST_F(QtSlowOpen, AFailedDeviceSwitchTicksTheDeviceThatPlaysOn) {
  auto w = openSlowWindow();
  ASSERT_EQ(w->loop().playingDevice(), -1) << "the test starts on the default device";
  ASSERT_EQ(w->checkedDeviceEntry(), -1);
  std::uint64_t index = w->loop().frame().index;
  opener_.failSelector("0");
  QAction* first = deviceMenuEntry(*w, 0);
  ASSERT_NE(first, nullptr) << "no Device menu entry for device 0";
  first->trigger();
  EXPECT_EQ(w->model().deviceIndex(), 0);
  EXPECT_EQ(w->checkedDeviceEntry(), 0) << "the pick is ticked while it opens";
  w->tick();
  EXPECT_EQ(w->statusBar()->currentMessage(), "Switching device ...");
  expectPlaysOn(*w, &index);
  opener_.release();
  ASSERT_TRUE(tickUntil(*w, [&] { return !w->loop().openError().empty(); }));
  EXPECT_EQ(w->loop().openError(), "Cannot switch the device: the device is busy.");
  EXPECT_EQ(w->checkedDeviceEntry(), -1) << "the tick follows the device that plays on, not the one that failed";
  EXPECT_EQ(w->loop().playingDevice(), -1);
  expectPlaysOn(*w, &index);
  EXPECT_EQ(w->checkedDeviceEntry(), -1);
  w->saveSettings();
  EXPECT_EQ(settings_->value("device").toInt(), -1) << "the next run starts on the device that played, not the failed one";

  // The next source opens on the device that plays (the one ticked), not on the one that failed.
  ASSERT_TRUE(w->openSource("testpattern:200x100"));
  EXPECT_EQ(w->model().deviceIndex(), -1);
  opener_.release();
  ASSERT_TRUE(tickUntil(*w, [&] { return w->loop().stats().frameWidth == 200; }))
      << "the new source never took over: " << w->loop().openError();
  EXPECT_EQ(w->loop().playingDevice(), -1);
  EXPECT_EQ(w->checkedDeviceEntry(), -1);
}

}  // namespace
