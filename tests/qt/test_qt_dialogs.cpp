// The Qt shell's dialogs and error paths: the camera list (the enumeration of
// `liveconv cameras`, with a fake list for the parts this machine has no
// camera for), Help > About, and a kernel that fails to build while the
// previous variant keeps filtering.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>
#include <QTreeWidget>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <thread>

#include "feed/frame_feed.hpp"
#include "liveconv/kernel_sources.hpp"
#include "liveconv/reference.hpp"
#include "liveconv/variants.hpp"
#include "qt/about.hpp"
#include "qt/camera_dialog.hpp"
#include "qt/engine_dock.hpp"
#include "qt/race_dock.hpp"
#include "qt_shell_fixture.hpp"

using namespace liveconv;
using namespace liveconv::ui;
using namespace liveconv::ui::qttest;

namespace {

// A camera with two formats and a busy device, as media::listCameras() returns them.
media::CameraList fakeCameras() {
  media::Camera integrated;
  integrated.device = "/dev/video0";
  integrated.name = "Integrated Camera (uvcvideo)";
  integrated.formats = {{"YUYV", "YUYV 4:2:2", {"640x480", "1280x720"}}, {"MJPG", "Motion-JPEG", {"1920x1080"}}};
  media::Camera busy;
  busy.device = "/dev/video2";
  busy.problem = media::kCameraBusy;
  return {{integrated, busy}, ""};
}

QTreeWidgetItem* findItem(QTreeWidget* tree, const QString& text) {
  const auto items = tree->findItems(text, Qt::MatchStartsWith | Qt::MatchRecursive);
  return items.isEmpty() ? nullptr : items.front();
}

// The race behind a choice auto took from its cache (read back, so its number
// in this run is 0) is drawn as a new race is: the dock said "No race yet" over
// it, because it drew only a number it had not shown, and it starts at 0. The
// next race read back (another mask) replaces it.
TEST(RaceDockTest, ShowsTheRaceBehindACachedChoice) {
  RaceDock dock;
  const QString none = dock.titleLabel()->text();
  auto race = std::make_shared<RaceReport>();
  race->trigger = "auto";
  race->cached = true;
  race->racedAt = "2026-11-29T16:00:00Z";
  race->device = "a device";
  race->format = PixelFormat::RGBA8;
  race->mask = "5x5";
  race->width = race->sampleWidth = 320;
  race->height = race->sampleHeight = 240;
  RaceEntry local;
  local.params.variant = VariantId::Local;
  local.kernelMs = 2;
  local.outcome = "ok";
  race->entries = {local};
  race->chosen = 0;
  FrameStats stats;
  stats.race = race;
  EXPECT_TRUE(dock.show(stats));
  EXPECT_NE(dock.titleLabel()->text(), none) << "still: " << none.toStdString();
  EXPECT_TRUE(dock.titleLabel()->text().startsWith("local")) << dock.titleLabel()->text().toStdString();
  EXPECT_FALSE(dock.show(stats)) << "the same race again changes nothing";
  auto next = std::make_shared<RaceReport>(*race);
  next->mask = "7x7";
  next->entries[0].params.variant = VariantId::Naive;
  stats.race = next;
  EXPECT_TRUE(dock.show(stats));
  EXPECT_TRUE(dock.titleLabel()->text().startsWith("naive")) << dock.titleLabel()->text().toStdString();
}

TEST(CameraDialog, ListsCamerasFormatsAndSizes) {
  CameraDialog dialog(fakeCameras());
  QTreeWidget* tree = dialog.tree();
  ASSERT_FALSE(tree->isHidden());
  ASSERT_EQ(tree->topLevelItemCount(), 2);
  EXPECT_TRUE(tree->topLevelItem(0)->text(0).startsWith("Integrated Camera"));
  EXPECT_EQ(tree->topLevelItem(0)->childCount(), 2) << "one row per format";
  EXPECT_EQ(dialog.selectedSpec(), "camera:0") << "the first usable camera is preselected";
  EXPECT_TRUE(dialog.canOpen());

  QTreeWidgetItem* size = findItem(tree, "1280x720");
  ASSERT_NE(size, nullptr);
  tree->setCurrentItem(size);
  EXPECT_EQ(dialog.selectedSpec(), "camera:0:1280x720");
  QTreeWidgetItem* busy = tree->topLevelItem(1);
  EXPECT_TRUE(busy->text(0).contains("busy")) << "a device that cannot be used is listed with the reason";
  EXPECT_FALSE(busy->flags() & Qt::ItemIsEnabled);
  EXPECT_FALSE(busy->flags() & Qt::ItemIsSelectable);
  dialog.show();
  saveForReview(dialog, "liveconv-qt-cameras.png");
}

TEST(CameraDialog, NoCameraSaysSoAndOffersNothing) {
  CameraDialog dialog(media::CameraList{{}, media::kNoCameraFound});
  EXPECT_TRUE(dialog.messageLabel()->text().startsWith("No camera found"));
  EXPECT_TRUE(dialog.tree()->isHidden());
  EXPECT_FALSE(dialog.canOpen());
  EXPECT_TRUE(dialog.selectedSpec().isEmpty());
  dialog.show();
  saveForReview(dialog, "liveconv-qt-no-camera.png");
}

// Both shells list the cameras of one enumeration: the GLFW panel's buttons
// (listCameraSources) are the usable entries of the Qt dialog's list, on any
// machine; on one without a camera both are empty.
TEST(CameraDialog, BothShellsListTheSameCameras) {
  const media::CameraList qtList = enumerateCameras();
  EXPECT_EQ(listCameraSources(), media::cameraSourceSpecs(qtList));
  bool anyVideoNode = false;
  for (const auto& e : std::filesystem::directory_iterator("/dev"))
    anyVideoNode = anyVideoNode || e.path().filename().string().rfind("video", 0) == 0;
  if (!anyVideoNode) {
    EXPECT_TRUE(qtList.cameras.empty());
    EXPECT_TRUE(listCameraSources().empty());
  }
}

// The real enumeration: on a machine without /dev/video*, the dialog the File
// menu opens says "No camera found" and opening nothing changes nothing.
TEST_F(QtShell, OpenCameraWithNoCameraChangesNothing) {
  if (!decodedSourcesAvailable()) {
    EXPECT_EQ(enumerateCameras().message, "This build has no FFmpeg, so it opens no camera.");
    return;
  }
  bool anyVideoNode = false;
  for (const auto& e : std::filesystem::directory_iterator("/dev"))
    anyVideoNode = anyVideoNode || e.path().filename().string().rfind("video", 0) == 0;
  if (anyVideoNode) GTEST_SKIP() << "this machine has /dev/video* nodes; the no-camera path is tested with a fake list";
  EXPECT_EQ(enumerateCameras().message, "No camera found: there is no video capture device under /dev/video*.");

  auto w = openWindow();
  const std::string sourceBefore = w->model().source();
  QString shownText;
  bool openEnabled = true;
  const auto answer = whenModalShows([&](QWidget* modal) {
    auto* dialog = qobject_cast<CameraDialog*>(modal);
    if (!dialog) return;
    shownText = dialog->messageLabel()->text();
    openEnabled = dialog->canOpen();
    dialog->reject();
  });
  QAction* action = nullptr;
  for (QAction* a : w->menuBar()->findChildren<QAction*>())
    if (a->text() == "Open &Camera…") action = a;
  ASSERT_NE(action, nullptr) << "File > Open Camera";
  action->trigger();
  EXPECT_TRUE(shownText.startsWith("No camera found")) << shownText.toStdString();
  EXPECT_FALSE(openEnabled);
  EXPECT_EQ(w->model().source(), sourceBefore);
}

// Help > About names the OpenCL platform and device the feed runs on, FFmpeg and Qt.
TEST_F(QtShell, AboutNamesTheVersions) {
  auto w = openWindow();
  w->tick();
  const DeviceInfo device = selectDevice(w->loop().deviceSelector(), enumerateDevices());
  EXPECT_EQ(device.name, w->loop().stats().device) << "the about box and the feed agree on the device";
  QString shown;
  const auto answer = whenModalShows([&](QWidget* modal) {
    if (auto* box = qobject_cast<QMessageBox*>(modal)) {
      shown = box->text();
      saveForReview(*box, "liveconv-qt-about.png");
      box->accept();
    }
  });
  QAction* about = nullptr;
  for (QAction* a : w->menuBar()->findChildren<QAction*>())
    if (a->text() == "&About liveconv") about = a;
  ASSERT_NE(about, nullptr);
  about->trigger();
  ASSERT_FALSE(shown.isEmpty()) << "the about box did not open";
  EXPECT_TRUE(shown.contains(QString::fromStdString(device.platformName).toHtmlEscaped())) << shown.toStdString();
  EXPECT_TRUE(shown.contains(QString::fromStdString(device.name).toHtmlEscaped())) << shown.toStdString();
  EXPECT_TRUE(shown.contains(QString::fromStdString(device.driverVersion).toHtmlEscaped())) << shown.toStdString();
  EXPECT_TRUE(shown.contains(QString("Qt</td><td>") + qVersion())) << shown.toStdString();
  if (decodedSourcesAvailable())
    EXPECT_TRUE(shown.contains("libavformat ")) << shown.toStdString();
  else
    EXPECT_TRUE(shown.contains("not in this build")) << shown.toStdString();
}

// Kernels from a folder (LIVECONV_KERNEL_DIR) where naive.cl does not compile:
// switching to naive shows the compiler's log and the previous variant keeps
// filtering, on the generated test source and on a decoded one.
class KernelBuildFailure : public QtShell {
 protected:
  void SetUp() override {
    QtShell::SetUp();
    if (IsSkipped()) return;
    ASSERT_TRUE(kernels_.isValid());
    std::set<std::string> names = {"common.cl", "convert.cl"};
    for (const VariantInfo& v : variantRegistry())
      if (*v.sourceFile) names.insert(v.sourceFile);
    for (const std::string& name : names) {
      const std::string text = kernelSource(name);  // the embedded copy, before the variable is set
      QFile out(kernels_.filePath(QString::fromStdString(name)));
      ASSERT_TRUE(out.open(QIODevice::WriteOnly));
      out.write(text.data(), static_cast<qint64>(text.size()));
      if (name == "naive.cl") out.write("\nthis line is not OpenCL C;\n");
    }
    qputenv(kKernelDirEnvVar, kernels_.path().toLocal8Bit());
  }
  void TearDown() override { qunsetenv(kKernelDirEnvVar); }

  void checkSource(const QString& source) {
    SCOPED_TRACE(source.toStdString());
    auto w = openWindow();
    ASSERT_TRUE(openAndPlay(*w, source)) << w->lastError().toStdString();
    ASSERT_TRUE(w->model().setVariant(VariantId::Local) || w->model().variant() == VariantId::Local);
    ASSERT_TRUE(tickUntil(*w, [&] { return w->loop().frame().filtered.data && w->loop().stats().variantText() == "local"; }));
    w->model().setVariant(VariantId::Naive);
    w->syncFromModel();
    ASSERT_TRUE(tickUntil(*w, [&] { return !w->loop().stats().error.empty(); })) << "no build error was reported";
    EXPECT_TRUE(w->loop().stats().error.find("naive.cl") != std::string::npos) << w->loop().stats().error;
    EXPECT_TRUE(w->lastError().contains("Build log:")) << w->lastError().toStdString();
    EXPECT_TRUE(w->lastError().contains("this line is not OpenCL C") || w->lastError().contains("error"))
        << "the compiler's log is shown: " << w->lastError().toStdString();
    EXPECT_TRUE(w->statusBar()->currentMessage().startsWith("Kernel build failed"))
        << w->statusBar()->currentMessage().toStdString();
    // The previous variant keeps running, and its frames are still right.
    const std::uint64_t index = w->loop().frame().index;
    ASSERT_TRUE(tickUntil(*w, [&] { return w->loop().frame().index > index + 1 && w->loop().frame().fresh; }));
    EXPECT_EQ(w->loop().stats().variantText(), "local");
    const FeedFrame& f = w->loop().frame();
    Image want(f.source.width, f.source.height, f.source.format);
    convolveReference(f.source, want.view(), w->model().mask(), w->model().border(), w->model().alpha());
    int off = 0;
    for (int y = 0; y < f.source.height; ++y)
      for (std::size_t i = 0; i < f.source.rowBytes(); ++i)
        off += std::abs(f.filtered.row(y)[i] - want.view().row(y)[i]) > 1;
    EXPECT_EQ(off, 0) << "bytes more than 1 LSB from the reference";
    EXPECT_FALSE(w->model().variantUnusableReason(VariantId::Naive).empty()) << "naive is greyed with the reason";
    QListWidgetItem* naive = nullptr;
    for (int i = 0; i < w->engineDock()->variantList()->count(); ++i)
      if (w->engineDock()->variantList()->item(i)->text().startsWith("naive"))
        naive = w->engineDock()->variantList()->item(i);
    ASSERT_NE(naive, nullptr);
    EXPECT_FALSE(naive->flags() & Qt::ItemIsEnabled);
  }
  QTemporaryDir kernels_;
};

TEST_F(KernelBuildFailure, OnTheTestPattern) {
  checkSource("testpattern:160x120");
}

TEST_F(KernelBuildFailure, OnADecodedSource) {
  if (!decodedSourcesAvailable()) GTEST_SKIP() << "this build has no FFmpeg";
  checkSource("lavfi:testsrc2=size=160x120:rate=30");
}

// A feed whose device stops answering after a few frames, as a lost GPU does:
// the real test pattern until then, a cl::Error after.
class FailingFeed : public FrameFeed {
 public:
  FailingFeed(std::unique_ptr<FrameFeed> inner, int framesBeforeFailure, int* advances, bool* recordingStopped)
      : inner_(std::move(inner)), left_(framesBeforeFailure), advances_(advances), stopped_(recordingStopped) {}
  void setParams(std::shared_ptr<const ParamsSnapshot> s) override { inner_->setParams(std::move(s)); }
  int framesLeft() const { return left_; }
  FeedFrame advance(Advance mode) override {  // fails once it has shown framesBeforeFailure frames
    ++*advances_;
    if (left_ <= 0) throw cl::Error(CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel");
    FeedFrame f = inner_->advance(mode);
    if (f.fresh) --left_;
    return f;
  }
  FrameStats stats() const override {
    FrameStats s = inner_->stats();
    if (recording_) s.recordingPath = "fake.mkv";
    return s;
  }
  std::string startRecording(const std::string&) override {
    recording_ = true;
    return "";
  }
  std::shared_ptr<FinishingRecording> stopRecording() override {
    *stopped_ = recording_;
    recording_ = false;
    return nullptr;  // nothing was written
  }

 private:
  std::unique_ptr<FrameFeed> inner_;
  int left_;
  int* advances_;
  bool* stopped_;
  bool recording_ = false;
};

// A device lost mid-run: a message, the recording finished, the window up,
// the mask kept, and a new source plays again.
TEST_F(QtShell, ADeviceThatStopsAnsweringLeavesTheWindowUp) {
  auto w = openWindow();
  int advances = 0;
  bool recordingStopped = false;
  auto failing = std::make_unique<FailingFeed>(makeFrameFeed("testpattern:64x48", "", w->model().snapshot()), 3,
                                               &advances, &recordingStopped);
  const FailingFeed& feed = *failing;
  w->loop().adopt(std::move(failing), "testpattern:64x48");
  ASSERT_TRUE(w->startRecording(dir_.filePath("lost.mkv")));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kHangMs);
  while (feed.framesLeft() > 0 && std::chrono::steady_clock::now() < deadline) {  // its three frames
    w->tick();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_NE(w->loop().frame().filtered.data, nullptr);
  EXPECT_TRUE(w->loop().failure().empty());
  ASSERT_TRUE(w->model().applySpec("sharpen", nullptr));  // the user's edit, made before the failure
  w->tick();                                              // the device fails here: nothing escapes tick()
  EXPECT_NE(w->loop().failure().find("CL_OUT_OF_RESOURCES"), std::string::npos) << w->loop().failure();
  EXPECT_TRUE(w->lastError().contains("stopped working")) << w->lastError().toStdString();
  EXPECT_TRUE(w->statusBar()->currentMessage().startsWith("The picture stopped"))
      << w->statusBar()->currentMessage().toStdString();
  EXPECT_TRUE(recordingStopped) << "the recording was finished";
  EXPECT_FALSE(w->loop().recordings().active());
  const int advancesAtFailure = advances;
  for (int i = 0; i < 3; ++i) w->tick();
  EXPECT_EQ(advances, advancesAtFailure) << "the failed feed is asked for nothing more";
  EXPECT_TRUE(w->isVisible());
  EXPECT_EQ(w->model().mask(), parseMaskSpec("sharpen")) << "the mask is kept";
  // The same source again: a new feed, on the same device.
  ASSERT_TRUE(openAndPlay(*w, "testpattern:64x48")) << "a new source plays again: " << w->lastError().toStdString();
  EXPECT_TRUE(w->loop().failure().empty());
}

}  // namespace
