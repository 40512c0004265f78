// The Qt shell in a real window (Xvfb + Mesa llvmpipe + the default OpenCL
// device): the mask dock and the model stay in step both ways, the test source
// runs, the viewport shows exactly the reference filter of the source frame,
// settings round-trip, and bad input leaves the window up with a message.
// Without an OpenCL device the window tests are a visible SKIP.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDropEvent>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMimeData>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <array>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>

#include "liveconv/compare.hpp"
#include "liveconv/device.hpp"
#include "liveconv/parameters.hpp"
#include "liveconv/reference.hpp"
#include "png/png_io.hpp"
#include "qt/engine_dock.hpp"
#include "qt/main_window.hpp"
#include "qt/mask_dock.hpp"
#include "qt/viewport.hpp"
#include "qt_shell_fixture.hpp"

using namespace liveconv;
using namespace liveconv::ui;

namespace {

using namespace qttest;

// An 800x500 window holds the mask dock whole: the 7x7 grid and the fields
// beside their labels without a sideways scroll (the dock was 285 wide: the
// grid cut, Divisor and Bias scrolled out of view), and the status line keeps
// its message whole, the device's name shortened in the middle instead.
TEST_F(QtShell, An800x500WindowCutsNothing) {
  MainWindow w(*settings_, ErrorStyle::StatusBar);
  w.resize(800, 500);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  ASSERT_TRUE(openAndPlay(w, "testpattern:320x240"));
  w.model().applySpec("motion45:7", nullptr);  // the default already: false when nothing changed
  ASSERT_EQ(w.model().mask().width, 7);
  w.maskDock()->refresh();
  const std::uint64_t index = w.loop().frame().index;
  ASSERT_TRUE(tickUntil(w, [&] { return w.loop().frame().index > index + 5; }));  // laid out, the labels filled
  ASSERT_EQ(w.width(), 800);
  EXPECT_FALSE(w.maskDock()->gridArea()->horizontalScrollBar()->isVisible()) << "the 7x7 grid scrolls sideways";
  const auto* body = qobject_cast<QScrollArea*>(w.maskDock()->widget());
  ASSERT_NE(body, nullptr);
  EXPECT_FALSE(body->horizontalScrollBar()->isVisible())
      << "the dock scrolls sideways: " << w.maskDock()->width() << " wide, its body needs "
      << body->widget()->minimumSizeHint().width();
  int messageRoom = w.statusBar()->width();  // up to the first of the labels on the right
  for (const QLabel* label : w.statusBar()->findChildren<QLabel*>()) {
    if (!label->isVisible() || label->text().isEmpty()) continue;
    messageRoom = std::min(messageRoom, label->x());
    EXPECT_LE(label->fontMetrics().horizontalAdvance(label->text()), label->width() + 1)
        << "cut in the status line: " << label->text().toStdString();
  }
  // The message the window shows while it plays (the room is what is checked).
  const QString message = w.statusBar()->currentMessage().isEmpty() ? QString("Playing testpattern:320x240")
                                                                     : w.statusBar()->currentMessage();
  EXPECT_LE(w.statusBar()->fontMetrics().horizontalAdvance(message), messageRoom)
      << "the message is cut: " << message.toStdString();
}

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
  ASSERT_TRUE(activate(*w));
  w->setFocus();  // off the spec box: the keys go to the window's shortcuts
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

// The grid is typed into as in a matrix dialog: a cell takes digits, Tab goes
// to the next cell along the row (and on to the next row), Down to the cell
// below, Up to the one above, each with its text selected to be typed over.
// The docks' spin boxes and combo boxes are the parameter table's: each
// range, step and choice as the row has it, so the window offers what
// --mask, --workgroup, --border, --format and --alpha take.
TEST_F(QtShell, TheDocksTakeTheirRangesAndChoicesFromTheParameterTable) {
  auto w = openWindow();
  auto sameRange = [](const QSpinBox* box, ParamId id) {
    const ParamDescription& d = paramDescription(id);
    EXPECT_EQ(box->minimum(), d.minimum) << d.flag;
    EXPECT_EQ(box->maximum(), d.maximum) << d.flag;
    EXPECT_EQ(box->singleStep(), d.step) << d.flag;
  };
  sameRange(w->maskDock()->widthBox(), ParamId::Mask);
  sameRange(w->maskDock()->heightBox(), ParamId::Mask);
  sameRange(w->engineDock()->workgroupXBox(), ParamId::Workgroup);
  sameRange(w->engineDock()->workgroupYBox(), ParamId::Workgroup);
  for (auto [box, id] : {std::pair{w->engineDock()->borderBox(), ParamId::Border},
                         {w->engineDock()->formatBox(), ParamId::Format},
                         {w->engineDock()->alphaBox(), ParamId::Alpha}}) {
    std::vector<std::string> words;
    for (int i = 0; i < box->count(); ++i) words.push_back(box->itemData(i).toString().toStdString());
    EXPECT_EQ(words, paramDescription(id).choices) << paramDescription(id).flag;
  }
}

TEST_F(QtShell, MaskGridTakesTabAndArrowKeys) {
  auto w = openWindow();
  MaskDock* dock = w->maskDock();
  ViewerModel& model = w->model();
  ASSERT_TRUE(model.applySpec("3x3:0,0,0,0,1,0,0,0,0", nullptr));
  w->syncFromModel();
  ASSERT_TRUE(activate(*w));
  dock->cell(0, 0)->setFocus();
  dock->cell(0, 0)->selectAll();
  QTest::keyClicks(dock->cell(0, 0), "2");
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
  ASSERT_EQ(QApplication::focusWidget(), dock->cell(1, 0)) << "Tab: the next cell";
  QTest::keyClicks(QApplication::focusWidget(), "3");
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
  ASSERT_EQ(QApplication::focusWidget(), dock->cell(0, 1)) << "Tab at a row's end: the next row";
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Down);
  ASSERT_EQ(QApplication::focusWidget(), dock->cell(0, 2)) << "Down: the cell below";
  QTest::keyClicks(QApplication::focusWidget(), "4");
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Up);
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Up);
  ASSERT_EQ(QApplication::focusWidget(), dock->cell(0, 0)) << "Up twice: the top row";
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Up);  // the top row: stays, the value untouched
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
  const std::vector<float> typed{2, 3, 0, 0, 1, 0, 4, 0, 0};
  EXPECT_EQ(model.mask().coefficients, typed);
}

// A number typed into a cell applies when the cell is left, whatever refreshes
// the dock meanwhile: the frame side saying which variant now runs (after the
// first edit of motion45:7, which is no longer rank 1) put the old number back
// into the cell being typed in, and the typed one was lost. Twenty times, each
// with a refresh between the keys and the Tab or Down that leaves the cell;
// and every digit typed is kept (the spin box's range cut 123456.5 to 1234.5).
TEST_F(QtShell, ANumberTypedIsKeptWhateverRefreshesTheGridBeforeTheCellIsLeft) {
  auto w = openWindow();
  MaskDock* dock = w->maskDock();
  ViewerModel& model = w->model();
  model.applySpec("motion45:7", nullptr);  // false when the window started with it
  ASSERT_EQ(model.mask().width, 7);
  w->syncFromModel();
  ASSERT_TRUE(activate(*w));
  for (int i = 0; i < 20; ++i) {
    const int x = i % 6, y = i / 6;
    QDoubleSpinBox* first = dock->cell(x, y);
    first->setFocus(Qt::TabFocusReason);
    first->selectAll();
    const QString a = QString::number(i + 10), b = QString::number(-i - 2);
    QTest::keyClicks(first, a);
    dock->setRunningVariant(VariantId::Auto, i % 2 ? VariantId::Rows : VariantId::Naive);  // a refresh
    QTest::keyClick(first, Qt::Key_Tab);
    ASSERT_EQ(QApplication::focusWidget(), dock->cell(x + 1, y)) << "Tab: the next cell";
    EXPECT_EQ(model.mask().at(x, y), a.toFloat()) << "try " << i << ": the number typed before a refresh was lost";
    QTest::keyClicks(QApplication::focusWidget(), b);
    w->syncFromModel();  // a refresh from outside the dock
    QTest::keyClick(QApplication::focusWidget(), i % 2 ? Qt::Key_Down : Qt::Key_Tab);
    EXPECT_EQ(model.mask().at(x + 1, y), b.toFloat()) << "try " << i << ": the number typed before a refresh was lost";
  }
  QDoubleSpinBox* cell = dock->cell(6, 6);
  cell->setFocus(Qt::TabFocusReason);
  cell->selectAll();
  QTest::keyClicks(cell, "123456.5");
  QTest::keyClick(cell, Qt::Key_Return);
  EXPECT_EQ(model.mask().at(6, 6), 123456.5f) << "digits typed were cut";
  // Esc puts the cell's number back, as in the viewer.
  QTest::keyClicks(cell, "7");
  QTest::keyClick(cell, Qt::Key_Escape);
  QTest::keyClick(cell, Qt::Key_Tab);
  EXPECT_EQ(model.mask().at(6, 6), 123456.5f) << "Esc kept the typed 7";
  EXPECT_EQ(cell->text(), "123456.5");
}

// The grid as GIMP's matrix: numbers as written (1, 0.0145; no 1.000), a
// click selects the cell's text so typing -1 replaces it (a caret put in the
// middle made the spin box refuse "-"), the divisor shown under the grid, and
// a sum of almost nothing under normalize auto said, with Normalize Off.
TEST_F(QtShell, TheGridTakesTypingAsGimpsMatrixAndSaysANearZeroSum) {
  auto w = openWindow();
  MaskDock* dock = w->maskDock();
  ViewerModel& model = w->model();
  ASSERT_TRUE(model.applySpec("box:3", nullptr));
  w->syncFromModel();
  EXPECT_EQ(dock->cell(1, 1)->text(), "1");
  EXPECT_EQ(dock->normalizationLabel()->text().toStdString(), "\xc3\xb7 9 (the sum; normalize auto)");
  ASSERT_TRUE(model.applySpec("motion45:7", nullptr));
  w->syncFromModel();
  EXPECT_EQ(dock->cell(5, 0)->text(), "0.0145") << "the seed's 0.0145, not 0.014 or 0.0144999996";
  EXPECT_TRUE(dock->nearZeroLabel()->isHidden());
  ASSERT_TRUE(activate(*w));
  QApplication::processEvents();  // the new 7x7 grid's cells are laid out by the event loop
  // And shown by it: a hidden cell takes no focus (on a busy machine one pass was not always enough).
  QDoubleSpinBox* corner = dock->cell(0, 0);
  ASSERT_TRUE(QTest::qWaitFor([&] { return corner->isVisible(); }, kHangMs)) << "the grid's cells were never shown";
  // A click: the focus comes by the mouse, then the press puts the caret in the text.
  corner->setFocus(Qt::MouseFocusReason);
  QTest::mouseClick(corner->findChild<QLineEdit*>(), Qt::LeftButton, {}, QPoint(corner->width() - 4, corner->height() / 2));
  QApplication::processEvents();  // what the click queued (the text selected)
  ASSERT_TRUE(QTest::qWaitFor([&] { return QApplication::focusWidget() == corner; }, kHangMs))
      << "the clicked cell never had the focus";
  EXPECT_EQ(corner->findChild<QLineEdit*>()->selectedText(), "0") << "a click leaves the caret in the number";
  QTest::keyClicks(corner, "-1");
  QTest::keyClick(corner, Qt::Key_Return);
  EXPECT_EQ(model.mask().at(0, 0), -1.0f) << "typing -1 after a click did not replace the cell";
  QApplication::processEvents();
  EXPECT_FALSE(dock->nearZeroLabel()->isHidden()) << "the sum of 0.0003 was not said";
  EXPECT_EQ(dock->nearZeroLabel()->text().left(30).toStdString(), "The coefficients sum to 0.0003");
  ASSERT_FALSE(dock->normalizeOffButton()->isHidden());
  dock->normalizeOffButton()->click();
  EXPECT_EQ(model.mask().normalize, Normalize::None);
  EXPECT_TRUE(dock->nearZeroLabel()->isHidden());
}

// The mask's frequency response beside the grid follows every edit, and
// Filter > Save the Frequency Response with the Mask writes it beside the file.
TEST_F(QtShell, TheMaskDockShowsTheFrequencyResponseAndSavesItWithTheMask) {
  auto w = openWindow();
  MaskDock* dock = w->maskDock();
  ResponseView* response = dock->responseView();
  ASSERT_NE(response, nullptr);
  ASSERT_TRUE(w->model().applySpec("sharpen", nullptr));
  w->syncFromModel();
  EXPECT_TRUE(response->captionLabel()->text().startsWith("boosts detail: gain 1 at DC, up to 9"))
      << response->captionLabel()->text().toStdString();
  EXPECT_TRUE(response->scaleLabel()->text().startsWith("gain 0 .. 9 (DC 1)"));
  dock->cell(1, 1)->setValue(4);  // the sum becomes 0: an edge filter
  QApplication::processEvents();
  EXPECT_TRUE(response->captionLabel()->text().startsWith("a high-pass: gain 0 at DC"))
      << response->captionLabel()->text().toStdString();

  QAction* withResponse = nullptr;
  for (QAction* a : w->menuBar()->findChildren<QAction*>())
    if (a->text() == "Save the Frequency Response with the Mask") withResponse = a;
  ASSERT_NE(withResponse, nullptr);
  const QString plain = dir_.filePath("plain.json");
  ASSERT_TRUE(w->saveMask(plain));
  EXPECT_FALSE(QFile::exists(dir_.filePath("plain.response.png"))) << "written without being asked";
  withResponse->setChecked(true);
  ASSERT_TRUE(w->model().applySpec("sharpen", nullptr));
  const QString path = dir_.filePath("sharp 1:2.json");
  ASSERT_TRUE(w->saveMask(path)) << w->lastError().toStdString();
  Image png;
  ASSERT_EQ(readPng(dir_.filePath("sharp 1:2.response.png").toStdString(), &png), "");
  const ResponseFigure& figure = w->model().responseFigure();
  const int n = figure.response.size, cell = png.width() / n;
  ASSERT_EQ(png.width(), n * cell);
  const std::uint8_t* dc = png.data() + (static_cast<size_t>(n / 2 * cell) * png.width() + n / 2 * cell) * 4;
  const Rgb want = responseColour(1.0f / 9);
  EXPECT_EQ((std::array<std::uint8_t, 3>{dc[0], dc[1], dc[2]}), want) << "the gain at DC is 1 of the peak's 9";
}

// A first run (no settings) and File > Open Test Source: the plain "testpattern", no error.
TEST_F(QtShell, FirstRunOpensTheTestSourceWithoutAMessage) {
  settings_->clear();
  auto w = openWindow();
  EXPECT_TRUE(w->lastError().isEmpty()) << w->lastError().toStdString();
  EXPECT_EQ(w->model().source(), "testpattern");
  ASSERT_TRUE(openAndPlay(*w, "testpattern:64x48")) << w->lastError().toStdString();
  QAction* testSource = nullptr;
  for (QAction* a : w->menuBar()->findChildren<QAction*>())
    if (a->text() == "Open &Test Source") testSource = a;
  ASSERT_NE(testSource, nullptr);
  testSource->trigger();
  EXPECT_TRUE(w->lastError().isEmpty()) << w->lastError().toStdString();
  EXPECT_EQ(w->model().source(), "testpattern");
  ASSERT_TRUE(
      tickUntil(*w, [&] { return w->loop().playingSource() == "testpattern" && w->loop().frame().hasPicture(); }));
  EXPECT_EQ(w->loop().stats().frameWidth, 1280) << "the plain test source plays";
  EXPECT_TRUE(w->lastError().isEmpty()) << w->lastError().toStdString();
}

// The picture has the keyboard when the window opens and again when it is
// clicked, so Space, H and the other keys act at once (as in a video player),
// not a spin box or list in the docks that would take them for itself.
TEST_F(QtShell, ThePictureHasTheKeyboardAtTheStartAndOnAClick) {
  auto w = openWindow();
  ASSERT_TRUE(activate(*w)) << "the keyboard starts elsewhere";
  QWidget* picture = w->centralWidget();
  QTest::keyClick(picture, Qt::Key_Space);
  EXPECT_TRUE(w->model().view().paused) << "Space on the picture";
  // The keyboard in the mask dock's spec box: a key there is the box's.
  w->maskDock()->specBox()->setFocus();
  // The X server hands the keyboard back from the picture's window to the window's own.
  ASSERT_TRUE(QTest::qWaitFor([&] { return QGuiApplication::focusWindow() == w->windowHandle(); }, kHangMs));
  QTest::keyClick(QGuiApplication::focusWindow(), Qt::Key_H);
  EXPECT_TRUE(w->model().view().panelsVisible) << "H typed into the spec box hid the panels";
  // A click on the picture, and the keys are the window's again (the click
  // goes to the picture's own window, which then asks for the keyboard). A
  // real click, through the X server: a click made inside Qt does not pass the
  // window system's focus rules.
  const QStringList click = {"mousemove",
                             "--window",
                             QString::number(w->viewport()->winId()),
                             QString::number(w->viewport()->width() / 2),
                             QString::number(w->viewport()->height() / 2),
                             "click",
                             "1"};
  ASSERT_EQ(QProcess::execute("xdotool", click), 0) << "xdotool (scripts/install-deps.sh installs it) could not click";
  // The focus moves through the X server (the picture is a native window in a
  // container): on a loaded machine it takes more than one pass of events.
  const auto pictureHasKeyboard = [&] {
    return QGuiApplication::focusWindow() == w->viewport() || QApplication::focusWidget() == picture;
  };
  EXPECT_TRUE(QTest::qWaitFor(pictureHasKeyboard, kHangMs)) << "a click on the picture did not give it the keyboard";
  QTest::keyClick(QGuiApplication::focusWindow(), Qt::Key_H);
  EXPECT_FALSE(w->model().view().panelsVisible) << "H after a click on the picture";
}

// The mask dock's line and the status bar say what `auto` runs.
TEST_F(QtShell, AutoSaysWhichVariantRuns) {
  auto w = openWindow();
  ASSERT_TRUE(waitForFirstFrame(*w));
  w->model().setVariant(VariantId::Auto);
  ASSERT_TRUE(tickUntil(*w, [&] { return w->loop().stats().variantText().rfind("auto -> ", 0) == 0; }))
      << w->loop().stats().variantText();
  w->tick();
  const QString line = w->maskDock()->separabilityLabel()->text();
  EXPECT_TRUE(line.contains("runs on variant auto -> ")) << line.toStdString();
}

// Each tick is counted, and the pattern moves on one frame at a time: every
// new frame shown is the one after the last (the UI never waits for the
// device, so a tick that comes before the next frame is done shows the last one again).
TEST_F(QtShell, RunsTheTestSourceForFrames) {
  auto w = openWindow();
  constexpr int kFrames = 12;
  const std::uint64_t ticksBefore = w->loop().framesTicked();
  std::uint64_t ticks = 0, lastIndex = w->loop().frame().index;
  int fresh = 0;
  QElapsedTimer clock;
  clock.start();
  while (fresh < kFrames && clock.elapsed() < kHangMs) {
    w->tick();
    ++ticks;
    if (w->loop().frame().fresh) {
      // Paced at 60 a second: a pass that comes late finds a later frame (counted as display late).
      EXPECT_TRUE(fresh == 0 || w->loop().frame().index > lastIndex) << "after " << fresh << " new frames";
      lastIndex = w->loop().frame().index;
      ++fresh;
    }
    QApplication::processEvents();
    QTest::qWait(2);
  }
  EXPECT_EQ(fresh, kFrames) << "the pattern stopped moving on";
  EXPECT_EQ(w->loop().framesTicked() - ticksBefore, ticks);
  EXPECT_EQ(w->loop().stats().frameWidth, 320);
  EXPECT_TRUE(w->loop().stats().error.empty()) << w->loop().stats().error;
  EXPECT_TRUE(w->viewport()->glError().isEmpty()) << w->viewport()->glError().toStdString();
}

// S / File > Save Frame: the filtered frame at its own size, exactly the
// reference filter of the frame shown (no overlay, no letterbox).
TEST_F(QtShell, SaveFrameWritesTheFilteredFrameAtItsOwnSize) {
  auto w = openWindow();
  w->model().applySpec("sharpen", nullptr);
  ASSERT_TRUE(tickUntilShown(*w)) << "the edit never reached the picture";
  const FeedFrame& frame = w->loop().frame();
  ASSERT_NE(frame.source.data, nullptr);
  const QString path = dir_.filePath("saved-frame.png");
  ASSERT_TRUE(w->saveFrame(path));
  Image saved;
  ASSERT_EQ(readPng(path.toStdString(), &saved), "");
  ASSERT_EQ(saved.width(), frame.source.width);
  ASSERT_EQ(saved.height(), frame.source.height);
  Image want(frame.source.width, frame.source.height, frame.source.format);
  convolveReference(frame.source, want.view(), w->model().mask(), w->model().border(), w->model().alpha());
  const auto mismatch = compareImages(saved.view(), want.view(), 0);
  EXPECT_FALSE(mismatch.has_value()) << (mismatch ? mismatch->toString() : "");
  EXPECT_TRUE(w->statusBar()->currentMessage().startsWith("Saved the frame")) << w->statusBar()->currentMessage().toStdString();
}

// Ctrl+Shift+S / the script's `screenshot` / --screenshot: the whole window,
// as the viewer saves its own (menus, docks, status bar), with the picture
// where it sits; before, the picture alone, while it said "Saved the window".
TEST_F(QtShell, TheScreenshotIsTheWholeWindowWithThePictureInIt) {
  auto w = openWindow();
  ASSERT_TRUE(tickUntilShown(*w));
  // The picture holds still between the two grabs below (the overlay's
  // numbers would not: it is left out).
  w->model().view().paused = true;
  w->model().view().overlayVisible = false;
  for (int i = 0; i < 3; ++i) {
    w->tick();
    QApplication::processEvents();
  }
  const QString path = dir_.filePath("window.png");
  ASSERT_TRUE(w->saveScreenshot(path));
  EXPECT_TRUE(w->statusBar()->currentMessage().startsWith("Saved the window as")) << w->statusBar()->currentMessage().toStdString();
  Image shot;
  ASSERT_EQ(readPng(path.toStdString(), &shot), "");
  const qreal dpr = w->devicePixelRatioF();
  EXPECT_EQ(shot.width(), qRound(w->width() * dpr));
  EXPECT_EQ(shot.height(), qRound(w->height() * dpr));
  const QImage picture = w->viewport()->grabPicture().convertToFormat(QImage::Format_RGBA8888);
  ASSERT_LT(picture.width() * picture.height(), shot.width() * shot.height()) << "no room for the docks and bars";
  // The picture, pixel for pixel, where the central widget is.
  const QPoint at = w->centralWidget()->mapTo(w.get(), QPoint(0, 0)) * dpr;
  int differ = 0;
  for (int y = 0; y < picture.height(); y += 7)
    for (int x = 0; x < picture.width(); x += 7) {
      const std::uint8_t* a = shot.view().row(at.y() + y) + (at.x() + x) * 4;  // RGBA, as the grab
      const uchar* b = picture.constScanLine(y) + x * 4;
      differ += std::abs(a[0] - b[0]) > 2 || std::abs(a[1] - b[1]) > 2 || std::abs(a[2] - b[2]) > 2;
    }
  EXPECT_EQ(differ, 0) << "the picture is not where the window shows it";
}

// With vsync on (the default) the frame timer keeps to the fastest screen's
// refresh rate (60 Hz where none says, as on Xvfb), as the viewer's swaps: a
// display that does not pace the paints gets no frame per pass of the event loop.
TEST_F(QtShell, WithVsyncOnTheFrameTimerKeepsToTheRefreshRate) {
  auto w = openWindow();
  ASSERT_TRUE(w->model().view().vsync);
  const int hz = MainWindow::fastestRefreshHz() > 0 ? MainWindow::fastestRefreshHz() : 60;
  EXPECT_GE(w->frameIntervalMs(), 900 / hz);
  EXPECT_LE(w->frameIntervalMs(), 1000 / hz) << "slower than the display refreshes";
}

// The frame shown pixel for pixel (native zoom) against the CPU reference of the source frame.
TEST_F(QtShell, ViewportMatchesTheReferenceFilter) {
  auto w = openWindow();
  w->viewport()->setNativeZoom(true);
  w->model().applySpec("motion45:7", nullptr);  // the seed mask
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kHangMs);
  do {  // until the frame filtered with it is on screen
    w->tick();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  } while (w->loop().frame().paramsVersion != w->model().version() && std::chrono::steady_clock::now() < deadline);
  ASSERT_NO_FATAL_FAILURE(expectThePictureIsTheReferenceFilter(*w));
  EXPECT_GT(w->viewport()->lastPainted().overlay.width, 100) << "the overlay is drawn";
  // Compare view switched on later: left of the divider the source frame, right of it the filtered one.
  w->model().view().compare = CompareMode::Split;
  w->model().view().splitPosition = 0.4f;
  w->syncFromModel();
  w->tick();
  const FeedFrame& next = w->loop().frame();
  const QImage split = w->viewport()->grabPicture().convertToFormat(QImage::Format_RGBA8888);
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
  windowShot(*w).save(out ? out : "liveconv-qt-window.png");
}

// The mask dock packs the grid and its controls to the top: the grid area is
// as tall as a small grid, the tool buttons follow right under it, and a tall
// grid shows whole rows (none cut off at the top or the bottom edge, at
// either end of the scroll range).
TEST_F(QtShell, MaskDockGridShowsWholeRowsWithTheControlsUnderIt) {
  auto w = openWindow();
  MaskDock* dock = w->maskDock();
  QScrollArea* area = dock->gridArea();
  QWidget* viewport = area->viewport();
  auto* transpose = dock->findChild<QPushButton*>("maskTranspose");
  ASSERT_NE(transpose, nullptr);
  auto top = [&](int x, int y) { return dock->cell(x, y)->mapTo(viewport, QPoint(0, 0)).y(); };
  auto bottom = [&](int x, int y) { return top(x, y) + dock->cell(x, y)->height(); };
  auto settle = [&] {
    QApplication::processEvents();
    QTest::qWait(20);
    QApplication::processEvents();
  };
  const int gap = 3;  // the grid's spacing, also above the first and below the last row shown

  for (const char* spec : {"box:3", "motion45:7"}) {
    ASSERT_TRUE(w->model().applySpec(spec, nullptr)) << spec;
    w->syncFromModel();
    settle();
    const int rows = w->model().mask().height;
    EXPECT_EQ(area->verticalScrollBar()->maximum(), 0) << spec << ": a small grid does not scroll";
    EXPECT_EQ(top(0, 0), gap) << spec;
    EXPECT_EQ(bottom(0, rows - 1) + gap, viewport->height()) << spec << ": no empty space under the last row";
    const int areaBottom = area->mapTo(dock, QPoint(0, area->height())).y();
    const int buttonsTop = transpose->mapTo(dock, QPoint(0, 0)).y();
    EXPECT_GE(buttonsTop, areaBottom) << spec;
    EXPECT_LE(buttonsTop - areaBottom, 12) << spec << ": the buttons follow right under the grid";
  }
  saveForReview(*w, "liveconv-qt-window-7x7.png");

  ASSERT_TRUE(w->model().applySpec("gaussian:15", nullptr));
  w->syncFromModel();
  settle();
  const int shown = MaskDock::kRowsShown;
  EXPECT_GT(area->verticalScrollBar()->maximum(), 0) << "a 15x15 grid scrolls";
  EXPECT_EQ(top(0, 0), gap);
  EXPECT_EQ(bottom(0, shown - 1) + gap, viewport->height()) << "the last row shown ends a gap above the edge";
  EXPECT_GE(top(0, shown), viewport->height()) << "the next row does not show";
  area->verticalScrollBar()->setValue(area->verticalScrollBar()->maximum());
  settle();
  EXPECT_EQ(bottom(0, 14) + gap, viewport->height()) << "scrolled to the end: the last row, whole";
  EXPECT_EQ(top(0, 15 - shown), gap) << "scrolled to the end: the first row shown, whole";
  EXPECT_LE(bottom(0, 15 - shown - 1), 0) << "scrolled to the end: the row above does not show";
  area->verticalScrollBar()->setValue(0);
  saveForReview(*w, "liveconv-qt-window-15x15.png");
}

// The Preset box names what runs: the preset applied, then the inline spec
// once a cell is edited, never a stale preset name.
TEST_F(QtShell, ThePresetBoxNamesTheMaskThatRuns) {
  auto w = openWindow();
  MaskDock* dock = w->maskDock();
  ASSERT_TRUE(w->model().applySpec("box:5", nullptr));
  w->syncFromModel();
  EXPECT_EQ(dock->specBox()->currentText().toStdString(), "box:5");
  w->model().setCell(0, 0, 3.0f);
  w->syncFromModel();
  const std::string shown = dock->specBox()->currentText().toStdString();
  EXPECT_EQ(shown.rfind("5x5:3,1,1,", 0), 0u) << shown;
  EXPECT_EQ(parseMaskSpec(shown), w->model().mask()) << shown;
}

// Every field of the mask dock edits the model, and every model change shows in the dock.
TEST_F(QtShell, MaskDockFieldsBothWays) {
  auto w = openWindow();
  MaskDock* dock = w->maskDock();
  ViewerModel& model = w->model();
  ASSERT_TRUE(model.applySpec("3x3:1,2,3,4,5,6,7,8,9;normalize=none", nullptr));
  w->syncFromModel();
  dock->biasBox()->setValue(12.5);
  EXPECT_FLOAT_EQ(model.mask().bias, 12.5f);
  dock->normalizeBox()->setCurrentIndex(dock->normalizeBox()->findData(static_cast<int>(Normalize::Auto)));
  EXPECT_EQ(model.mask().normalize, Normalize::Auto);
  dock->heightBox()->setValue(5);
  EXPECT_EQ(model.mask().height, 5);
  EXPECT_EQ(model.mask().width, 3);
  EXPECT_FLOAT_EQ(model.mask().at(0, 1), 1.0f) << "the old rows keep the centre of the taller mask";
  ASSERT_TRUE(model.applySpec("3x3:1,2,3,4,5,6,7,8,9", nullptr));
  w->syncFromModel();
  auto click = [&](const char* name) {
    auto* b = dock->findChild<QPushButton*>(name);
    ASSERT_NE(b, nullptr) << name;
    b->click();
  };
  click("maskTranspose");
  EXPECT_FLOAT_EQ(model.mask().at(1, 0), 4.0f);
  EXPECT_DOUBLE_EQ(dock->cell(1, 0)->value(), 4.0);
  click("maskFlipH");
  EXPECT_FLOAT_EQ(model.mask().at(0, 0), 7.0f);
  click("maskFlipV");
  EXPECT_FLOAT_EQ(model.mask().at(0, 0), 9.0f);
  EXPECT_DOUBLE_EQ(dock->cell(0, 0)->value(), 9.0);
  click("maskReset");
  EXPECT_EQ(model.mask().at(1, 1), 1.0f);
  EXPECT_EQ(model.mask().at(0, 0), 0.0f);
  EXPECT_DOUBLE_EQ(dock->cell(0, 0)->value(), 0.0);

  // Model -> dock for the scalar fields, the symmetry and the error line.
  model.setDivisor(3);
  model.setBias(-7);
  model.setNormalize(Normalize::None);
  model.setSymmetry(Symmetry::Mirror8);
  w->syncFromModel();
  EXPECT_DOUBLE_EQ(dock->divisorBox()->value(), 3.0);
  EXPECT_DOUBLE_EQ(dock->biasBox()->value(), -7.0);
  EXPECT_EQ(dock->normalizeBox()->currentData().toInt(), static_cast<int>(Normalize::None));
  EXPECT_EQ(dock->symmetryBox()->currentData().toInt(), static_cast<int>(Symmetry::Mirror8));
  EXPECT_TRUE(dock->errorLabel()->isHidden());
  model.setDivisor(0);
  w->syncFromModel();
  EXPECT_FALSE(dock->errorLabel()->isHidden());
  EXPECT_EQ(dock->errorLabel()->text().toStdString(), model.maskError());
  // A bad spec typed into the box: the parser's sentence, the mask untouched.
  const Mask before = model.mask();
  dock->specBox()->clearEditText();
  QTest::keyClicks(dock->specBox(), "gaussian:4");
  QTest::keyClick(dock->specBox(), Qt::Key_Return);
  EXPECT_EQ(model.mask(), before);
  EXPECT_FALSE(dock->errorLabel()->text().isEmpty());
}

TEST_F(QtShell, EngineDockFieldsBothWays) {
  auto w = openWindow();
  EngineDock* dock = w->engineDock();
  ViewerModel& model = w->model();
  dock->borderBox()->setCurrentIndex(dock->borderBox()->findData("wrap"));
  EXPECT_EQ(model.border(), BorderMode::Wrap);
  dock->formatBox()->setCurrentIndex(dock->formatBox()->findData("gray"));
  EXPECT_EQ(model.format(), PixelFormat::GRAY8);
  w->syncFromModel();
  EXPECT_FALSE(dock->alphaBox()->isEnabled()) << "gray frames have no alpha to choose for";
  dock->alphaBox()->setCurrentIndex(dock->alphaBox()->findData("filter"));
  EXPECT_EQ(model.alpha(), AlphaMode::Filter);
  ASSERT_TRUE(dock->workgroupDefaultBox()->isChecked());
  dock->workgroupDefaultBox()->setChecked(false);
  dock->workgroupXBox()->setValue(8);
  EXPECT_EQ(model.workgroup(), (WorkgroupShape{8, 16}));
  model.setBorder(BorderMode::Zero);
  model.setFormat(PixelFormat::RGBA8);
  model.setAlpha(AlphaMode::PassThrough);
  model.setWorkgroup({});
  w->syncFromModel();
  EXPECT_EQ(dock->borderBox()->currentData().toString(), "zero");
  EXPECT_EQ(dock->formatBox()->currentData().toString(), "rgba");
  EXPECT_EQ(dock->alphaBox()->currentData().toString(), "copy");
  EXPECT_TRUE(dock->alphaBox()->isEnabled());
  EXPECT_TRUE(dock->workgroupDefaultBox()->isChecked());
  EXPECT_FALSE(dock->workgroupXBox()->isEnabled());
}

// Everything QSettings keeps comes back in a new window: filter, device, recent files, dock layout.
TEST_F(QtShell, SettingsRoundTrip) {
  {
    auto w = openWindow();
    ASSERT_TRUE(w->model().applySpec("box:3", nullptr));
    w->model().setVariant(VariantId::Naive);
    w->model().setBorder(BorderMode::Mirror);
    w->model().setFormat(PixelFormat::GRAY8);
    w->model().setAlpha(AlphaMode::Filter);
    w->model().setWorkgroup({8, 8});
    w->model().setDevice(0);
    w->engineDock()->hide();
    w->addDockWidget(Qt::RightDockWidgetArea, w->maskDock());
    w->saveSettings();
  }
  settings_->setValue("recentFiles", QStringList{"/videos/a.mp4", "/videos/b.mkv"});  // as the File menu left them
  auto w = openWindow();
  EXPECT_EQ(w->model().mask(), parseMaskSpec("box:3"));
  EXPECT_EQ(w->model().variant(), VariantId::Naive);
  EXPECT_EQ(w->model().border(), BorderMode::Mirror);
  EXPECT_EQ(w->model().format(), PixelFormat::GRAY8);
  EXPECT_EQ(w->model().alpha(), AlphaMode::Filter);
  EXPECT_EQ(w->model().workgroup(), (WorkgroupShape{8, 8}));
  EXPECT_EQ(w->model().deviceIndex(), 0);
  EXPECT_EQ(w->model().source(), "testpattern:320x240");
  EXPECT_EQ(w->maskDock()->widthBox()->value(), 3);
  EXPECT_EQ(w->engineDock()->borderBox()->currentData().toString(), "mirror");
  EXPECT_TRUE(w->engineDock()->isHidden()) << "the dock layout is restored";
  EXPECT_EQ(w->dockWidgetArea(w->maskDock()), Qt::RightDockWidgetArea);
  EXPECT_EQ(w->recentFiles(), (QStringList{"/videos/a.mp4", "/videos/b.mkv"}));
}

// A settings file with values that no longer make sense: each is dropped, the window starts.
TEST_F(QtShell, GarbledSettingsAreDroppedOneByOne) {
  settings_->setValue("filter/mask", "{not json");
  settings_->setValue("filter/variant", "no-such-variant");
  settings_->setValue("filter/border", "sideways");
  settings_->setValue("filter/workgroup", "0x16");
  settings_->setValue("filter/alpha", "maybe");
  settings_->setValue("window/state", QByteArray("garbage"));
  auto w = openWindow();
  const ViewerModel defaults;
  EXPECT_EQ(w->model().mask(), defaults.mask());
  EXPECT_EQ(w->model().variant(), defaults.variant());
  EXPECT_EQ(w->model().border(), defaults.border());
  EXPECT_EQ(w->model().workgroup(), defaults.workgroup());
  EXPECT_EQ(w->model().alpha(), defaults.alpha());
  w->tick();
  EXPECT_NE(w->loop().frame().filtered.data, nullptr);
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
  w->model().setVariant(VariantId::Local);  // takes the workgroup as asked (auto picks its own)
  ASSERT_TRUE(tickUntilShown(*w));
  const VariantId variant = w->model().variant();
  w->model().setWorkgroup({1024, 1024});
  const std::uint64_t refused = w->model().version();
  ASSERT_TRUE(tickUntil(*w, [&] { return w->loop().stats().rejectedVersion >= refused; }));
  w->tick();
  // Said in the status line (and logged); the overlay's red line lasts until the previous set runs again.
  EXPECT_EQ(w->loop().refusals(), 1u);
  EXPECT_NE(w->loop().lastRefusal().find("1024x1024"), std::string::npos) << w->loop().lastRefusal();
  EXPECT_FALSE(w->lastError().isEmpty());
  EXPECT_NE(w->loop().frame().filtered.data, nullptr);
  EXPECT_FALSE(w->model().variantUnusableReason(variant).empty()) << "the refused variant is greyed";
  // The list shows what runs (the variant before the refused one) and greys the refused one.
  QListWidgetItem* item = w->engineDock()->variantList()->currentItem();
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(item->text().toStdString().rfind(variantInfo(w->model().variant()).name, 0), 0u) << item->text().toStdString();
  const auto refusedItems = w->engineDock()->variantList()->findItems(variantInfo(variant).name, Qt::MatchStartsWith);
  ASSERT_FALSE(refusedItems.isEmpty());
  EXPECT_FALSE(refusedItems.front()->flags() & Qt::ItemIsEnabled);
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
