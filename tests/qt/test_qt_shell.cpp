// The Qt shell in a real window (Xvfb + Mesa llvmpipe + the default OpenCL
// device): the mask dock and the model stay in step both ways, the test source
// runs, the viewport shows exactly the reference filter of the source frame,
// settings round-trip, and bad input leaves the window up with a message.
// Without an OpenCL device the window tests are a visible SKIP.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <cstdlib>
#include <memory>

#include "liveconv/device.hpp"
#include "liveconv/reference.hpp"
#include "qt/engine_dock.hpp"
#include "qt/main_window.hpp"
#include "qt/mask_dock.hpp"
#include "qt/viewport.hpp"

using namespace liveconv;
using namespace liveconv::ui;

namespace {

class QtShell : public ::testing::Test {
 protected:
  void SetUp() override {
    if (enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
    ASSERT_TRUE(dir_.isValid());
    settings_ = std::make_unique<QSettings>(dir_.filePath("settings.ini"), QSettings::IniFormat);
    settings_->setValue("source", "testpattern:320x240");  // small frames keep llvmpipe and PoCL quick
  }
  std::unique_ptr<MainWindow> openWindow() {
    auto w = std::make_unique<MainWindow>(*settings_, ErrorStyle::StatusBar);
    w->resize(1400, 860);
    w->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(w.get()));
    return w;
  }
  QTemporaryDir dir_;
  std::unique_ptr<QSettings> settings_;
};

TEST_F(QtShell, MaskDockAndModelStayInStep) {
  auto w = openWindow();
  MaskDock* dock = w->maskDock();
  ViewerModel& model = w->model();
  // Dock -> model, with 4-way symmetric editing mirrored back into the grid.
  ASSERT_TRUE(model.applySpec("box:5", nullptr));
  w->syncFromModel();
  dock->symmetryBox()->setCurrentIndex(dock->symmetryBox()->findData(static_cast<int>(Symmetry::Mirror4)));
  EXPECT_EQ(model.symmetry(), Symmetry::Mirror4);
  ASSERT_NE(dock->cell(0, 1), nullptr);
  dock->cell(0, 1)->setValue(3.5);
  EXPECT_FLOAT_EQ(model.mask().at(0, 1), 3.5f);
  EXPECT_FLOAT_EQ(model.mask().at(4, 3), 3.5f);  // the mirror cell
  EXPECT_DOUBLE_EQ(dock->cell(4, 3)->value(), 3.5);
  EXPECT_TRUE(dock->separabilityLabel()->text().contains("not separable"));
  dock->widthBox()->setValue(7);
  EXPECT_EQ(model.mask().width, 7);
  EXPECT_NE(dock->cell(6, 0), nullptr);
  dock->divisorBox()->setValue(4);
  EXPECT_FLOAT_EQ(model.mask().divisor, 4.0f);
  // Model -> dock.
  ASSERT_TRUE(model.applySpec("gaussian:3", nullptr));
  w->syncFromModel();
  EXPECT_EQ(dock->widthBox()->value(), 3);
  EXPECT_EQ(dock->cell(3, 0), nullptr);
  EXPECT_NEAR(dock->cell(1, 1)->value(), model.mask().at(1, 1), 1e-3);
  EXPECT_TRUE(dock->separabilityLabel()->text().startsWith("separable"));
  // A spec typed into the preset box goes through the model's parser.
  dock->specBox()->clearEditText();
  QTest::keyClicks(dock->specBox(), "box:9");
  QTest::keyClick(dock->specBox(), Qt::Key_Return);
  EXPECT_EQ(model.mask(), parseMaskSpec("box:9"));
  EXPECT_EQ(dock->heightBox()->value(), 9);
  // The variant list follows V (next variant) and selects through the model.
  model.setVariant(VariantId::Naive);
  w->syncFromModel();
  w->activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(w.get()));
  w->viewport()->setFocus();
  QTest::keyClick(w.get(), Qt::Key_V);
  EXPECT_NE(model.variant(), VariantId::Naive) << "V moves on to the next usable variant";
  QTest::keyClick(w.get(), Qt::Key_C);
  EXPECT_EQ(model.view().compare, CompareMode::Split);
  QTest::keyClick(w.get(), Qt::Key_Space);
  EXPECT_TRUE(model.view().paused);
  model.setVariant(VariantId::Naive);
  w->syncFromModel();
  QListWidgetItem* current = w->engineDock()->variantList()->currentItem();
  ASSERT_NE(current, nullptr);
  EXPECT_TRUE(current->text().startsWith("naive"));
}

TEST_F(QtShell, RunsTheTestSourceForFrames) {
  auto w = openWindow();
  constexpr int kFrames = 12;
  std::uint64_t firstIndex = 0;
  for (int i = 0; i < kFrames; ++i) {
    w->tick();
    if (i == 0) firstIndex = w->loop().frame().index;
    QApplication::processEvents();
  }
  EXPECT_EQ(w->loop().framesTicked(), static_cast<std::uint64_t>(kFrames));
  EXPECT_EQ(w->loop().frame().index, firstIndex + kFrames - 1);
  EXPECT_EQ(w->loop().stats().frameWidth, 320);
  EXPECT_TRUE(w->loop().stats().error.empty()) << w->loop().stats().error;
  EXPECT_TRUE(w->viewport()->glError().isEmpty()) << w->viewport()->glError().toStdString();
}

// The frame shown pixel for pixel (native zoom) against the CPU reference of the source frame.
TEST_F(QtShell, ViewportMatchesTheReferenceFilter) {
  auto w = openWindow();
  w->viewport()->setNativeZoom(true);
  w->model().applySpec("motion45:7", nullptr);  // the seed mask (also the default)
  for (int i = 0; i < 5; ++i) w->tick();
  const FeedFrame& frame = w->loop().frame();
  ASSERT_NE(frame.source.data, nullptr);
  Image want(frame.source.width, frame.source.height, frame.source.format);
  convolveReference(frame.source, want.view(), w->model().mask(), w->model().border(), w->model().alpha());
  const QImage shot = w->viewport()->grabFramebuffer().convertToFormat(QImage::Format_RGBA8888);
  const FbRect pic = w->viewport()->lastPainted().picture, overlay = w->viewport()->lastPainted().overlay;
  ASSERT_EQ(pic.width, frame.source.width);
  ASSERT_EQ(pic.height, frame.source.height);
  EXPECT_GT(overlay.width, 100) << "the overlay is drawn";
  int compared = 0;
  for (int y = 0; y < pic.height; ++y)
    for (int x = 0; x < pic.width; ++x) {
      const int sx = pic.x + x, sy = pic.y + y;
      if (sx >= overlay.x && sx < overlay.x + overlay.width && sy >= overlay.y && sy < overlay.y + overlay.height)
        continue;  // under the overlay
      const uchar* got = shot.constScanLine(sy) + sx * 4;
      const std::uint8_t* ref = want.view().row(y) + x * 4;
      for (int c = 0; c < 3; ++c)
        ASSERT_LE(std::abs(got[c] - ref[c]), 1)
            << "first mismatch at x=" << x << " y=" << y << " channel " << c << ": got " << int(got[c]) << ", want "
            << int(ref[c]) << " (tolerance 1)";
      ++compared;
    }
  EXPECT_GT(compared, pic.width * pic.height / 3);
  // Compare view switched on later: left of the divider the source frame, right of it the filtered one.
  w->model().view().compare = CompareMode::Split;
  w->model().view().splitPosition = 0.4f;
  w->syncFromModel();
  w->tick();
  const FeedFrame& next = w->loop().frame();
  const QImage split = w->viewport()->grabFramebuffer().convertToFormat(QImage::Format_RGBA8888);
  const FbRect p2 = w->viewport()->lastPainted().picture;
  const int y = p2.height - 10;  // the bottom rows: away from the overlay
  const uchar* left = split.constScanLine(p2.y + y) + (p2.x + 10) * 4;
  const std::uint8_t* srcPixel = next.source.row(y) + 10 * 4;
  const uchar* right = split.constScanLine(p2.y + y) + (p2.x + p2.width - 10) * 4;
  const std::uint8_t* filteredPixel = next.filtered.row(y) + (p2.width - 10) * 4;
  for (int c = 0; c < 3; ++c) {
    EXPECT_LE(std::abs(left[c] - srcPixel[c]), 1) << "source side, channel " << c;
    EXPECT_LE(std::abs(right[c] - filteredPixel[c]), 1) << "filtered side, channel " << c;
  }
  // The whole window, for a person to look at.
  const char* out = std::getenv("LIVECONV_QT_WINDOW_PNG");
  w->viewport()->setNativeZoom(false);
  w->tick();
  QApplication::processEvents();
  w->grab().save(out ? out : "liveconv-qt-window.png");
}

TEST_F(QtShell, SettingsRoundTrip) {
  {
    auto w = openWindow();
    ASSERT_TRUE(w->model().applySpec("box:3", nullptr));
    w->model().setVariant(VariantId::Naive);
    w->model().setBorder(BorderMode::Mirror);
    w->model().setFormat(PixelFormat::GRAY8);
    w->saveSettings();
  }
  auto w = openWindow();
  EXPECT_EQ(w->model().mask(), parseMaskSpec("box:3"));
  EXPECT_EQ(w->model().variant(), VariantId::Naive);
  EXPECT_EQ(w->model().border(), BorderMode::Mirror);
  EXPECT_EQ(w->model().format(), PixelFormat::GRAY8);
  EXPECT_EQ(w->model().source(), "testpattern:320x240");
  EXPECT_EQ(w->maskDock()->widthBox()->value(), 3);
}

TEST_F(QtShell, BadInputLeavesTheWindowUp) {
  auto w = openWindow();
  w->tick();
  EXPECT_FALSE(w->openSource(dir_.filePath("missing.mp4")));
  EXPECT_FALSE(w->lastError().isEmpty());
  EXPECT_EQ(w->model().source(), "testpattern:320x240");  // the old source keeps playing
  w->tick();
  EXPECT_NE(w->loop().frame().filtered.data, nullptr);

  QFile bad(dir_.filePath("bad.json"));
  ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
  bad.write("{\"width\": 3,\n \"height\": 3,\n \"coefficients\": [1, 2, x]}\n");
  bad.close();
  const Mask before = w->model().mask();
  EXPECT_FALSE(w->loadMask(bad.fileName()));
  EXPECT_TRUE(w->lastError().contains("line 3")) << w->lastError().toStdString();
  EXPECT_EQ(w->model().mask(), before);  // the user's mask is kept
}

// Save a mask, change it, drop the file on the window: the saved mask is back.
TEST_F(QtShell, DroppedMaskFileLoads) {
  auto w = openWindow();
  ASSERT_TRUE(w->model().applySpec("sharpen", nullptr));
  const QString path = dir_.filePath("sharpen.json");
  ASSERT_TRUE(w->saveMask(path));
  ASSERT_TRUE(w->model().applySpec("box:5", nullptr));
  w->syncFromModel();
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(path)});
  // Enter first: Qt delivers a drop only to a widget that accepted the drag.
  QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(w.get(), &enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(w.get(), &drop);
  EXPECT_EQ(w->model().mask(), parseMaskSpec("sharpen")) << w->lastError().toStdString();
  EXPECT_EQ(w->maskDock()->widthBox()->value(), 3);
}

// A parameter set the engine refuses (here a workgroup no device runs) is
// reported in the status line; the last good parameters keep filtering.
TEST_F(QtShell, RefusedParametersKeepTheLastGoodOnes) {
  auto w = openWindow();
  w->tick();
  const VariantId variant = w->model().variant();
  w->model().setWorkgroup({1024, 1024});
  for (int i = 0; i < 3; ++i) w->tick();
  EXPECT_FALSE(w->loop().stats().error.empty());
  EXPECT_FALSE(w->lastError().isEmpty());
  EXPECT_NE(w->loop().frame().filtered.data, nullptr);
  EXPECT_FALSE(w->model().variantUnusableReason(variant).empty()) << "the refused variant is greyed";
  QListWidgetItem* item = w->engineDock()->variantList()->currentItem();
  ASSERT_NE(item, nullptr);
  EXPECT_FALSE(item->flags() & Qt::ItemIsEnabled);
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
