// What the Qt shell tests share: a window on a temporary settings file with
// small test frames, and helpers to tick it until something happened.
#pragma once

#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPainter>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <cstring>
#include <functional>
#include <memory>

#include "liveconv/device.hpp"
#include "liveconv/image.hpp"
#include "liveconv/reference.hpp"
#include "qt/main_window.hpp"
#include "qt/viewport.hpp"

namespace liveconv::ui::qttest {

// How long a wait for something the window must do may last: long enough for
// any machine, however loaded (a kernel's compile on PoCL beside other
// tests), so that it ends only a hang. No wait here is a measure of speed.
constexpr int kHangMs = 120000;

class QtShell : public ::testing::Test {
 protected:
  void SetUp() override {
    if (enumerateDevices().empty()) GTEST_SKIP() << "no OpenCL device";
    ASSERT_TRUE(dir_.isValid());
    settings_ = std::make_unique<QSettings>(dir_.filePath("settings.ini"), QSettings::IniFormat);
    settings_->setValue("source", "testpattern:320x240");  // small frames keep llvmpipe and PoCL quick
  }
  // The window, shown, once its first source plays (it opens in the background).
  // `path` is what liveconv-qt --display-path hands the window.
  std::unique_ptr<MainWindow> openWindow(FrameLoop::Opener opener = {},
                                         DisplayPathRequest path = DisplayPathRequest::Auto) {
    auto w = std::make_unique<MainWindow>(*settings_, ErrorStyle::StatusBar, nullptr, std::move(opener));
    w->setDisplayPath(path);
    w->resize(1400, 860);
    w->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(w.get()));
    EXPECT_TRUE(waitForFirstFrame(*w)) << "the first source never showed a frame: " << w->lastError().toStdString();
    return w;
  }
  static bool waitForFirstFrame(MainWindow& w);
  QTemporaryDir dir_;
  std::unique_ptr<QSettings> settings_;
};

// Ticks the window (and lets Qt paint) until `done` says so; false after `timeoutMs`.
inline bool tickUntil(MainWindow& w, const std::function<bool()>& done, int timeoutMs = kHangMs) {
  QElapsedTimer clock;
  clock.start();
  while (!done()) {
    if (clock.elapsed() > timeoutMs) return false;
    w.tick();
    QApplication::processEvents();
    QTest::qWait(2);
  }
  return true;
}

inline bool QtShell::waitForFirstFrame(MainWindow& w) {
  return tickUntil(w, [&] { return w.loop().running() && w.loop().frame().hasPicture(); });
}

// Ticks until the frame on screen was filtered with the model's newest
// parameters (edits are built off the UI thread, so they land a few ticks later).
inline bool tickUntilShown(MainWindow& w, int timeoutMs = kHangMs) {
  const std::uint64_t version = w.model().version();
  return tickUntil(
      w, [&] { return w.loop().frame().paramsVersion >= version; }, timeoutMs);
}

// Makes the window the active one and waits until its picture's own window
// has the keyboard, as at every start, before a test moves the focus. The picture is a
// native window in a container: the container asks the X server to give its
// window the focus, and a reply that comes after the test has put the focus in
// a dock's cell takes it away again (Qt's container then clears the focus
// widget, and the cell never has it: "focus NULL after the click" on a busy
// machine, reproduced by moving the focus before that reply).
inline bool activate(MainWindow& w) {
  w.activateWindow();
  return QTest::qWaitForWindowActive(&w) &&
         QTest::qWaitFor([&] { return QGuiApplication::focusWindow() == w.viewport(); }, kHangMs);
}

// Opens `spec` and ticks until its feed has taken over and shows a frame.
// False when it did not (the open failed: lastError() says why, or it timed out).
inline bool openAndPlay(MainWindow& w, const QString& spec, int timeoutMs = kHangMs) {
  const std::uint64_t before = w.loop().feedsInstalled();
  if (!w.openSource(spec)) return false;
  w.tick();  // the request goes to "lc-open" here
  tickUntil(
      w, [&] { return w.loop().openingMessage().empty(); }, timeoutMs);
  if (w.loop().feedsInstalled() == before) return false;
  return tickUntil(
      w, [&] { return w.loop().frame().hasPicture(); }, timeoutMs);
}

// Ticks until no fresh frame came for `quietMs`: what was in flight has arrived.
inline void tickUntilQuiet(MainWindow& w, int quietMs = 400) {
  QElapsedTimer quiet;
  quiet.start();
  QElapsedTimer total;
  total.start();
  while (quiet.elapsed() < quietMs && total.elapsed() < kHangMs) {
    w.tick();
    if (w.loop().frame().fresh) quiet.restart();
    QApplication::processEvents();
    QTest::qWait(5);
  }
}

// Runs `answer` on the modal window (a dialog, a message box) once it shows:
// it runs inside the modal window's own event loop, however long the window
// takes to come up. Asks until then; the timer goes with the returned object.
inline std::unique_ptr<QTimer> whenModalShows(std::function<void(QWidget*)> answer) {
  auto timer = std::make_unique<QTimer>();
  QTimer* t = timer.get();
  QObject::connect(t, &QTimer::timeout, [t, answer = std::move(answer)] {
    if (QWidget* modal = QApplication::activeModalWidget()) {
      t->stop();
      answer(modal);
    }
  });
  t->start(10);
  return timer;
}

// The whole window as a person sees it: the widgets, and the picture (a
// window of its own, which a widget grab leaves out) where it sits.
inline QImage windowShot(MainWindow& w) {
  QApplication::processEvents();
  QImage shot = w.grab().toImage();
  QPainter(&shot).drawImage(w.centralWidget()->geometry().topLeft(), w.viewport()->grabPicture());
  return shot;
}

// Saves a picture of `widget` for a person to look at, next to the window
// screenshot that $LIVECONV_QT_WINDOW_PNG names (ctest sets it); not checked.
inline void saveForReview(QWidget& widget, const QString& fileName) {
  const QByteArray window = qgetenv("LIVECONV_QT_WINDOW_PNG");
  if (window.isEmpty()) return;
  QApplication::processEvents();
  auto* main = qobject_cast<MainWindow*>(&widget);
  const QImage shot = main ? windowShot(*main) : widget.grab().toImage();
  shot.save(QFileInfo(QString::fromLocal8Bit(window)).dir().filePath(fileName));
}

// The picture the window shows is the reference filter of the frame it shows
// (the window's mask, border and alpha), within 1 per channel, everywhere
// outside the overlay; a third of the picture at least is compared.
inline void expectThePictureIsTheReferenceFilter(MainWindow& w) {
  const FeedFrame& frame = w.loop().frame();
  ASSERT_NE(frame.source.data, nullptr);
  Image want(frame.source.width, frame.source.height, frame.source.format);
  convolveReference(frame.source, want.view(), w.model().mask(), w.model().border(), w.model().alpha());
  const QImage shot = w.viewport()->grabPicture().convertToFormat(QImage::Format_RGBA8888);
  const FbRect pic = w.viewport()->lastPainted().picture, overlay = w.viewport()->lastPainted().overlay;
  ASSERT_EQ(pic.width, frame.source.width);
  ASSERT_EQ(pic.height, frame.source.height);
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
}

inline Image copyOf(const ImageView& v) {
  Image out(v.width, v.height, v.format);
  for (int y = 0; y < v.height; ++y) std::memcpy(out.view().row(y), v.row(y), v.rowBytes());
  return out;
}

// The first differing byte of two images as a sentence, or "" when they are equal.
inline std::string firstDifference(const ImageView& got, const ImageView& want) {
  if (got.width != want.width || got.height != want.height || got.format != want.format)
    return "size or format differs: " + std::to_string(got.width) + "x" + std::to_string(got.height) + " vs " +
           std::to_string(want.width) + "x" + std::to_string(want.height);
  const int channels = static_cast<int>(bytesPerPixel(got.format));
  for (int y = 0; y < got.height; ++y)
    for (int x = 0; x < got.width; ++x)
      for (int c = 0; c < channels; ++c) {
        const int g = got.row(y)[x * channels + c], w = want.row(y)[x * channels + c];
        if (g != w)
          return "first mismatch at x=" + std::to_string(x) + " y=" + std::to_string(y) + " channel " +
                 std::to_string(c) + ": got " + std::to_string(g) + ", want " + std::to_string(w);
      }
  return "";
}

}  // namespace liveconv::ui::qttest
