#include "qt/main_window.hpp"

#include <QCloseEvent>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <QVBoxLayout>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>

#include "feed/display_link.hpp"
#include "feed/key_commands.hpp"
#include "gl/frame_capture.hpp"
#include "liveconv/mask_file.hpp"
#include "liveconv/media/generated_sources.hpp"
#include "liveconv/media/staged_output.hpp"
#include "png/png_io.hpp"
#include "qt/camera_dialog.hpp"
#include "qt/engine_dock.hpp"
#include "qt/gl_view.hpp"
#include "qt/mask_dock.hpp"
#include "qt/race_dock.hpp"
#include "qt/viewport.hpp"

namespace liveconv::ui {

namespace {
constexpr const char* kTestSource = "testpattern";
}

MainWindow::MainWindow(QSettings& settings, ErrorStyle errors, QWidget* parent, FrameLoop::Opener opener)
    : QMainWindow(parent), settings_(settings), errors_(errors), loop_(model_, std::move(opener)) {
  setWindowTitle("liveconv");
  setAcceptDrops(true);
  setDockOptions(AnimatedDocks | AllowTabbedDocks);
  shell_ = loadShellSettings(settings_, model_);

  viewport_ = new Viewport(loop_, model_.view());
  QWidget* picture = QWidget::createWindowContainer(viewport_, this);  // which owns it (see viewport.hpp)
  picture->setMinimumSize(320, 200);
  // The keys of the key table act on the picture: it has the keyboard at the
  // start (the first in the focus chain) and whenever it is clicked (its
  // window takes it), not a spin box or list in the docks that would take Space or V itself.
  picture->setFocusPolicy(Qt::StrongFocus);
  setCentralWidget(picture);
  buildDocks();
  buildStatusBar();
  buildMenus();

  resize(QSize(1500, 900).boundedTo(screen()->availableGeometry().size()));  // where no window manager maximises
  resizeDocks({maskDock_, engineDock_}, {440, 340}, Qt::Horizontal);         // room for a 7x7 grid without scrolling
  if (!shell_.geometry.isEmpty()) restoreGeometry(shell_.geometry);
  if (!shell_.windowState.isEmpty()) restoreState(shell_.windowState);

  // The last source; when it is gone (a moved file, or it fails to open:
  // see updateOpening()), the test source, so the window always shows something.
  const QString last = shell_.source.isEmpty() ? kTestSource : shell_.source;
  if (!openSource(last) && last != kTestSource) openSource(kTestSource);

  connect(&timer_, &QTimer::timeout, this, &MainWindow::tick);
  // As fast as the feed delivers (paints are coalesced by Qt); with vsync on,
  // as the viewer's swaps, no faster than the fastest screen refreshes
  // (vsyncFrameInterval): else a display that does not pace the paints would
  // get a frame per pass of the event loop.
  timer_.setTimerType(Qt::PreciseTimer);
  timer_.setInterval(
      model_.view().vsync
          ? static_cast<int>(
                std::chrono::duration_cast<std::chrono::milliseconds>(vsyncFrameInterval(fastestRefreshHz())).count())
          : 0);
}

// The mask and engine docks (left and right), the race tabbed with the
// engine, and how they follow each other's edits.
void MainWindow::buildDocks() {
  maskDock_ = new MaskDock(model_, this);
  engineDock_ = new EngineDock(model_, this);
  addDockWidget(Qt::LeftDockWidgetArea, maskDock_);
  addDockWidget(Qt::RightDockWidgetArea, engineDock_);
  raceDock_ = new RaceDock(this);
  tabifyDockWidget(engineDock_, raceDock_);
  engineDock_->raise();
  connect(raceDock_, &RaceDock::compareAsked, this, [this] { runCommand(Command::CompareVariants); });
  connect(raceDock_, &RaceDock::checkToggled, this, [this](bool on) {
    if (on != model_.view().checking) runCommand(Command::ToggleCheck);
  });
  // A mask edit can change which variants are usable, and a variant change the separability line.
  connect(maskDock_, &MaskDock::maskEdited, engineDock_, &EngineDock::refresh);
  connect(engineDock_, &EngineDock::engineEdited, maskDock_, &MaskDock::refresh);
  connect(viewport_, &Viewport::glFailed, this, [this](const QString& m) { showError("No picture", m); });
}

// The status bar's permanent widgets: the seek bar and position of a file,
// Cancel while a source opens, the recording, the frame rates and the device.
void MainWindow::buildStatusBar() {
  // The seek bar is hidden for live and generated sources.
  seekSlider_ = new QSlider(Qt::Horizontal);
  seekSlider_->setMinimumWidth(160);
  seekSlider_->setToolTip("Drag to a place in the file (Left/Right: 5 s, Home, End)");
  positionLabel_ = new QLabel;
  connect(seekSlider_, &QSlider::sliderReleased, this, [this] { loop_.seekTo(seekSlider_->value() / 10.0); });
  // Permanent: a message in the status bar (a refusal, "Saved the frame ...") leaves them in view.
  statusBar()->addPermanentWidget(seekSlider_);
  statusBar()->addPermanentWidget(positionLabel_);
  seekSlider_->hide();
  positionLabel_->hide();
  cancelOpen_ = new QPushButton("Cancel");
  cancelOpen_->setToolTip("Stop opening this source (Esc); the one playing stays");
  connect(cancelOpen_, &QPushButton::clicked, this, [this] { loop_.cancelOpen(); });
  cancelOpen_->hide();
  statusBar()->addPermanentWidget(cancelOpen_);
  recordLabel_ = new QLabel;
  recordLabel_->setStyleSheet("QLabel { color: #d03a2f; font-weight: bold; }");
  recordLabel_->hide();
  statusBar()->addPermanentWidget(recordLabel_);
  fpsLabel_ = new QLabel;
  throughputLabel_ = new QLabel;
  droppedLabel_ = new QLabel;
  deviceLabel_ = new QLabel;
  for (QLabel* l : {fpsLabel_, throughputLabel_, droppedLabel_}) {
    l->setMinimumWidth(120);
    statusBar()->addPermanentWidget(l);
  }
  // The longest, and in the overlay too: it gives way in a narrow window rather than widening it.
  deviceLabel_->setMinimumWidth(40);  // below its text's width, where the window has no more room
  statusBar()->addPermanentWidget(deviceLabel_);
}

int MainWindow::fastestRefreshHz() {
  double hz = 0;
  for (const QScreen* s : QGuiApplication::screens()) hz = std::max(hz, s->refreshRate());
  return static_cast<int>(hz + 0.5);  // 0 where none says
}

MainWindow::~MainWindow() {
  // The feeds' GL objects (zero-copy pixel buffers) go while the viewport's context is current.
  viewport_->makeCurrent();
  loop_.shutdown();
  viewport_->doneCurrent();
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  // The device's name gives way first in a narrow window, so that the status
  // line's message ("Playing ...") keeps room of its own.
  deviceLabel_->setMaximumWidth(std::max(40, width() - 650));
  const bool narrow = width() < 1100;
  const bool tabbed = tabifiedDockWidgets(maskDock_).contains(engineDock_);  // the layout restored may be either
  if (narrow && !tabbed) {
    tabifyDockWidget(maskDock_, engineDock_);
    tabifyDockWidget(maskDock_, raceDock_);
    maskDock_->raise();
    // The grid's 7 columns without scrolling where the picture keeps its 320 (an 800-wide window: 440).
    resizeDocks({maskDock_}, {std::clamp(width() - 360, 300, 440)}, Qt::Horizontal);
  } else if (!narrow && tabbed) {
    addDockWidget(Qt::RightDockWidgetArea, engineDock_);
    tabifyDockWidget(engineDock_, raceDock_);
    engineDock_->raise();
    resizeDocks({maskDock_, engineDock_}, {440, 340}, Qt::Horizontal);
  }
}

void MainWindow::setRunning(bool running) {
  if (running)
    timer_.start();
  else
    timer_.stop();
}

void MainWindow::showError(const QString& title, const QString& message) {
  lastError_ = message;
  loop_.log().message("error", (title + ": " + message.section('\n', 0, 0)).toStdString(), loop_.framesShown());
  statusBar()->showMessage(title + ": " + message.section('\n', 0, 0), 15000);
  if (errors_ == ErrorStyle::Dialog) QMessageBox::warning(this, title, message);
}

void MainWindow::report(const QString& message, const QString& detail) {
  lastError_ = detail.isEmpty() ? message : message + "\n" + detail;
  statusBar()->showMessage(message.section('\n', 0, 0), 20000);  // the frame loop has logged it
}

void MainWindow::notify(const QString& title, const QString& message, const QString& detail) {
  lastError_ = detail.isEmpty() ? message : message + "\n" + detail;
  loop_.log().message("error", (title + ": " + message.section('\n', 0, 0)).toStdString(), loop_.framesShown());
  statusBar()->showMessage(title + ": " + message.section('\n', 0, 0), 20000);
  if (errors_ != ErrorStyle::Dialog) return;
  auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  if (!detail.isEmpty()) box->setDetailedText(detail);
  box->open();  // not exec(): the frame loop keeps running, the previous parameters keep filtering
}

// Every message the window showed (the session log), newest first: the cards
// on the picture and the status line go after a few seconds.
void MainWindow::showMessages() {
  QString text;
  const auto& messages = loop_.log().messages();
  for (auto it = messages.rbegin(); it != messages.rend(); ++it)
    text += QString("%1 s  %2\n%3\n\n")
                .arg(it->ms / 1000, 6, 'f', 1)
                .arg(QString::fromStdString(it->kind), QString::fromStdString(it->text));
  auto* dialog = new QDialog(this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle("Messages");
  auto* view = new QPlainTextEdit(text.isEmpty() ? QString("No messages.") : text);
  view->setReadOnly(true);
  auto* layout = new QVBoxLayout(dialog);
  layout->addWidget(view);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
  layout->addWidget(buttons);
  dialog->resize(640, 420);
  dialog->show();  // not modal: the picture goes on
}

bool MainWindow::openSource(const QString& spec) {
  fallbackReason_.clear();
  // A path that looks like a local file but is not there fails here, before the
  // playing source is replaced (the decoder would only find out on its thread).
  // Used by hand, the open itself says it (a card on the picture, the status
  // line, as every failed open; no dialog), and what played plays on.
  int patternWidth = 0, patternHeight = 0;
  const bool special = spec.isEmpty() || spec == "-" || spec.contains(':') || spec.startsWith("/dev/") ||
                       media::parseTestPatternSpec(spec.toStdString(), &patternWidth, &patternHeight);
  if (errors_ != ErrorStyle::Dialog && !special && !QFileInfo::exists(spec)) {
    showError("Cannot open source", "Input " + spec + " does not exist.");
    return false;
  }
  loop_.open(spec.toStdString());  // on "lc-open"; tick() installs it, updateOpening() reports
  if (QFileInfo(spec).isFile()) {
    addRecentFile(shell_.recentFiles, QFileInfo(spec).absoluteFilePath());
    rebuildRecentMenu();
  }
  return true;
}

// The feeds open their device through the viewport's GL context, which Qt
// makes when the window is first shown; until then no frame is asked for.
bool MainWindow::ensureDisplayLink() {
  if (linkMade_) return true;
  if (!viewport_->glContextReady()) return false;
  viewport_->makeCurrent();
  // The notice comes from the thread that opens the device: the window hears it in its own.
  link_ = makeCurrentContextLink(displayPath_, [this](const std::string& sentence) {
    std::cerr << "liveconv-qt: " << sentence << "\n";
    QMetaObject::invokeMethod(
        this,
        [this, notice = QString::fromStdString(sentence)] {
          displayNotice_ = notice;
          statusBar()->showMessage(notice, 20000);
        },
        Qt::QueuedConnection);
  });
  viewport_->doneCurrent();
  loop_.setDisplayLink(link_.get());
  linkMade_ = true;
  return true;
}

// What to do about what the picture says: with nothing playing for want of a
// set that runs or of a device, pick another; else open another source.
std::string MainWindow::pictureHint() const {
  if (!loop_.running() && loop_.switcher().errorExitCode() == media::kExitNoDevice)
    return "Choose another device in the Device menu.";
  if (!loop_.running() && (loop_.switcher().errorExitCode() == media::kExitUnsupported ||
                           loop_.switcher().errorExitCode() == media::kExitBuildFailed))
    return "Pick another variant, mask or workgroup: the source opens again with it.";
  return "Open another source from the File menu.";
}

// What the background open is doing: "opening ..." in the status line and on
// the picture while it runs, the new source's name once it plays, and why it
// failed (once) while the previous source plays on.
void MainWindow::updateOpening() {
  const QString opening = QString::fromStdString(loop_.openingMessage());
  viewport_->setPending(loop_.openingMessage());
  if (opening != shownOpening_) {
    shownOpening_ = opening;
    if (!opening.isEmpty()) statusBar()->showMessage(opening[0].toUpper() + opening.mid(1));
    cancelOpen_->setVisible(!opening.isEmpty());
  }
  if (loop_.feedsInstalled() != shownInstalls_) {
    shownInstalls_ = loop_.feedsInstalled();
    updateDeviceMenu();
    const QString spec = QString::fromStdString(loop_.playingSource());
    const QString name = QFileInfo(spec).fileName().isEmpty() ? spec : QFileInfo(spec).fileName();
    setWindowTitle(QString("liveconv — %1").arg(name.isEmpty() ? QString("bundled clip") : name));
    statusBar()->showMessage("Playing " + (spec.isEmpty() ? QString("the bundled clip") : spec), 4000);
  }
  const QString openError = QString::fromStdString(loop_.openError());
  if (openError != shownOpenError_) {
    shownOpenError_ = openError;
    if (openError.isEmpty()) return;
    updateDeviceMenu();  // a failed switch: the tick goes back to the device that plays on
    const media::ExitCode code = loop_.switcher().errorExitCode();
    if (!loop_.running() && model_.source() != kTestSource && code == media::kExitInputFailed) {
      // Nothing played yet (the asked source, or the last run's, cannot open).
      if (quitWhenNothingCanPlay_) {  // nobody watches: the input's exit code, as `liveconv run` and the viewer
        std::cerr << "liveconv-qt: " << openError.toStdString() << "\n";
        QCoreApplication::exit(code);
        return;
      }
      // Say why (on the picture for a few seconds, and in the log), show the test source.
      report(openError, "The test source plays instead.");
      openSource(kTestSource);
      fallbackReason_ = openError.toStdString();
      QTimer::singleShot(std::chrono::milliseconds(FrameLoop::kCardSeconds), this,
                         [this, shown = fallbackReason_] {
                           if (fallbackReason_ == shown) fallbackReason_.clear();
                         });
    } else if (!loop_.running()) {
      // No device, or a set that cannot run here: the test source would fail alike.
      const std::string& log = loop_.switcher().errorBuildLog();
      report(openError, QString::fromStdString(pictureHint() + (log.empty() ? "" : "\n\n" + log)));
      // Unless a newer set is on its way (the switcher opens the source again with it).
      const bool newerSet = code != media::kExitNoDevice && loop_.switcher().refusedVersion() != model_.version();
      if (quitWhenNothingCanPlay_ && !newerSet) {
        std::cerr << "liveconv-qt: " << openError.toStdString() << "\n" << (log.empty() ? "" : log + "\n");
        QCoreApplication::exit(code);
      }
    } else {
      report(openError, "The previous source plays on.");
    }
  }
}

bool MainWindow::loadMask(const QString& path) {
  try {
    // A mask that parses but cannot run (even size, zero divisor) is refused by the model with its sentence.
    const Mask mask = loadMaskFile(path.toStdString());
    const std::string invalid = mask.validationError();
    if (!invalid.empty()) throw std::runtime_error(path.toStdString() + ": " + invalid);
    model_.setMask(mask);
  } catch (const std::exception& e) {
    showError("Cannot load mask", QString::fromStdString(e.what()));  // the parser's sentence names line and column
    return false;
  }
  syncFromModel();
  statusBar()->showMessage("Loaded mask " + path, 4000);
  return true;
}

bool MainWindow::saveMask(const QString& path) {
  if (std::string error; !model_.saveMask(path.toStdString(), &error)) {
    showError("Cannot save mask", QString::fromStdString(error));
    return false;
  }
  if (shell_.saveResponseWithMask) {
    const std::string png = responsePathFor(path.toStdString());
    const std::string error = writeResponsePng(png, model_.responseFigure());
    if (!error.empty()) {
      showError("Cannot save the frequency response", QString::fromStdString(error));
      return false;
    }
    statusBar()->showMessage("Saved mask " + path + " and its frequency response " + QString::fromStdString(png), 4000);
    return true;
  }
  statusBar()->showMessage("Saved mask " + path, 4000);
  return true;
}

bool MainWindow::saveScreenshot(const QString& path) {
  // The window as a person sees it (menus, docks, status bar), as the viewer
  // saves its own: the widgets, and the picture, a GL window of its own that
  // a widget grab leaves out, drawn where it sits.
  const QImage picture = viewport_->grabPicture();
  if (picture.isNull()) {
    showError("Cannot save screenshot", "The picture is not on screen (the window is hidden or minimised).");
    return false;
  }
  QImage image = grab().toImage();
  const QPoint at = centralWidget()->mapTo(this, QPoint(0, 0));
  QPainter(&image).drawImage(at, picture);
  // Whole or not at all (staged, as every file liveconv writes): a full disk keeps an older picture as it was.
  const std::string error = media::writeStaged(path.toStdString(), [&](const std::string& to) -> std::string {
    errno = 0;
    if (image.save(QString::fromStdString(to), "PNG")) return "";
    return "Could not write " + path.toStdString() + (errno ? std::string(": ") + std::strerror(errno) : std::string()) + ".";
  });
  if (!error.empty()) {
    showError("Cannot save screenshot", QString::fromStdString(error));
    return false;
  }
  statusBar()->showMessage("Saved the window as " + path, 4000);
  loop_.log().message("notice", ("Saved the window as " + path).toStdString(), loop_.framesShown());
  loop_.log().wrote(path.toStdString());
  // Where the GL view (the central widget), the picture and its overlay are
  // in the file, for the window tests alone ($LIVECONV_SCREENSHOT_LAYOUT=1),
  // as the viewer writes its own.
  if (qgetenv("LIVECONV_SCREENSHOT_LAYOUT") == "1") {
    const qreal dpr = devicePixelRatioF();
    const int x0 = qRound(at.x() * dpr), y0 = qRound(at.y() * dpr);
    const FbRect& p = viewport_->lastPainted().picture;
    const FbRect& o = viewport_->lastPainted().overlay;
    std::ofstream(path.toStdString() + ".layout")
        << "view " << x0 << " " << y0 << " " << picture.width() << " " << picture.height() << "\npicture " << x0 + p.x
        << " " << y0 + p.y << " " << p.width << " " << p.height << "\noverlay " << x0 + o.x << " " << y0 + o.y << " "
        << o.width << " " << o.height << "\n";
  }
  return true;
}

bool MainWindow::saveFrame(const QString& path) {
  viewport_->makeCurrent();  // a zero-copy frame is read from the GL pixel buffer
  const std::string error = saveFilteredFrame(loop_.frame(), path.toStdString());
  viewport_->doneCurrent();
  if (!error.empty()) {
    showError("Cannot save the frame", QString::fromStdString(error));
    return false;
  }
  const ImageView& f = loop_.frame().filtered;
  const QString said = QString("Saved the frame (%1x%2) as %3").arg(f.width).arg(f.height).arg(path);
  statusBar()->showMessage(said, 4000);
  loop_.log().message("notice", said.toStdString(), loop_.framesShown());
  loop_.log().wrote(path.toStdString());
  return true;
}

void MainWindow::openCamera() {
  CameraDialog dialog(enumerateCameras(), this);
  if (dialog.exec() == QDialog::Accepted && dialog.canOpen()) openSource(dialog.selectedSpec());
}

bool MainWindow::startRecording(const QString& path) {
  // The save dialog asked before it gave a name that is there (QFileDialog's confirm overwrite).
  const std::string error = loop_.recordings().start(path.toStdString(), true);
  if (!error.empty()) {
    showError("Cannot record", QString::fromStdString(error));
    return false;
  }
  updateRecording();
  statusBar()->showMessage("Recording to " + path, 4000);
  return true;
}

void MainWindow::stopRecording() {
  loop_.recordings().stop();
  updateRecording();
}

void MainWindow::stepOneFrame() {
  runCommand(Command::StepFrame);
}

void MainWindow::tick() {
  if (!ensureDisplayLink()) return;
  // `--script` lines due now: the model's part goes through the loop, the shell's is done after the frame.
  const std::vector<ShellRequest> requests = loop_.script().run();
  if (loop_.script().linesRun() != scriptLines_) {
    scriptLines_ = loop_.script().linesRun();
    syncFromModel();
    applyPanelsVisible();
  }
  loop_.setDisplayMs(viewport_->displayMs());
  // The viewport's context is current while the feed runs: a zero-copy feed
  // acquires and releases GL buffers in advance(), and a replaced feed frees them.
  viewport_->makeCurrent();
  const FeedFrame& frame = loop_.tick(step_);
  viewport_->doneCurrent();
  step_ = false;
  viewport_->present(frame, loop_.stats());
  if (loop_.redraw().due()) loop_.redraw().drew();  // the paint asked for runs before the next tick
  updateOpening();
  updateRecording();
  updateStatus();  // after updateRecording(): a failure's message box also says what was recorded
  for (const ShellRequest& r : requests) runShellRequest(r);
}

// A key's or script line's command that belongs to the window itself.
void MainWindow::runShellRequest(const ShellRequest& r) {
  const QString path = QString::fromStdString(r.path);
  switch (r.command) {
    case Command::SaveFrame: saveFrame(path.isEmpty() ? QString::fromStdString(timestampedPngName("liveconv-frame")) : path); break;
    case Command::SaveWindow:
      saveScreenshot(path.isEmpty() ? QString::fromStdString(timestampedPngName("liveconv-window")) : path);
      break;
    case Command::ToggleFullscreen: fullscreenAct_->toggle(); break;
    case Command::Quit: close(); break;
    default: break;
  }
}

// A key of the table (model/commands.hpp): the loop takes the model's part, the window the rest.
void MainWindow::runCommand(Command command) {
  if (command == Command::Quit && isFullScreen()) command = Command::ToggleFullscreen;  // Esc leaves full screen first
  if (ui::runCommand(loop_, command)) {
    syncFromModel();
    applyPanelsVisible();
    return;
  }
  runShellRequest({command, {}});
}

// The indicator while recording; once a recording is finished (by the user, a
// source change, or the feed on a write error), one line saying what was written.
void MainWindow::updateRecording() {
  if (loop_.recordings().active()) {
    const int seconds = static_cast<int>(loop_.recordings().seconds());
    recordLabel_->setText(QString("● REC %1:%2  ·  %3 frames  ·  %4")
                              .arg(seconds / 60)
                              .arg(seconds % 60, 2, 10, QChar('0'))
                              .arg(loop_.stats().recordedFrames)
                              .arg(QFileInfo(QString::fromStdString(loop_.recordings().path())).fileName()));
    recordLabel_->setToolTip(QString::fromStdString(loop_.recordings().path()));
    recordLabel_->show();
  } else if (const std::string finishing = loop_.recordings().finishingPath(); !finishing.empty()) {
    recordLabel_->setText("Finishing " + QFileInfo(QString::fromStdString(finishing)).fileName() + " …");
    recordLabel_->setToolTip(QString::fromStdString(finishing));
    recordLabel_->show();
  } else {
    recordLabel_->hide();
  }
  if (recordAct_) {
    recordAct_->setText(loop_.recordings().active() ? "Stop &Recording" : "&Record Output…");
    const std::string why = loop_.recordings().active() ? std::string() : loop_.recordings().whyNot();
    recordAct_->setEnabled(why.empty());  // greyed, with the reason, where recording cannot work
    recordAct_->setStatusTip(QString::fromStdString(why));
    recordAct_->setToolTip(why.empty() ? recordAct_->text() : QString::fromStdString(why));
  }
  if (loop_.recordings().finished() == reportedRecordings_) return;
  reportedRecordings_ = loop_.recordings().finished();
  const FrameLoop::Recording& r = loop_.recordings().last();
  const QString what =
      QString("%1 frames (%2 s) to %3").arg(r.frames).arg(r.seconds, 0, 'f', 1).arg(QString::fromStdString(r.path));
  if (!r.complete)
    notify("Recording failed", QString::fromStdString(r.stoppedBy),
           "Nothing was kept under " + QString::fromStdString(r.path) +
               ": what had been written was discarded, and a file that was there before keeps its old contents.");
  else if (r.stoppedBy.empty() || r.stoppedBy == loop_.failure())  // a failure has a box of its own
    statusBar()->showMessage("Recorded " + what, 10000);
  else
    notify("Recording stopped", QString::fromStdString(r.stoppedBy), "What was written so far: " + what + ".");
}

// The status bar's numbers, with the picture: each new text repaints the
// status bar, so they change when the loop redraws (FrameLoop::redrawDue), not on every tick.
void MainWindow::updateNumbers() {
  const FrameStats& s = loop_.stats();
  const bool seekable = s.durationSeconds > 0;
  seekSlider_->setVisible(seekable);
  positionLabel_->setVisible(s.positionSeconds >= 0);
  positionLabel_->setText(QString::fromStdString(positionText(s.positionSeconds, s.durationSeconds)));
  if (seekable && !seekSlider_->isSliderDown()) {
    seekSlider_->setRange(0, static_cast<int>(s.durationSeconds * 10));
    seekSlider_->setValue(static_cast<int>(std::max(0.0, s.positionSeconds) * 10));
  }
  // The video's rate, as the overlay leads with it (the loop's own rate is in the overlay).
  fpsLabel_->setText(model_.view().paused ? QString("paused") : QString("%1 fps").arg(loop_.videoFps(), 0, 'f', 1));
  throughputLabel_->setText(QString("%1 Mpixel/s").arg(s.megapixelsPerSecond, 0, 'f', 0));
  droppedLabel_->setText(
      QString("dropped %1/%2 (%3%)").arg(s.framesDropped()).arg(s.framesTotal).arg(s.droppedPercent(), 0, 'f', 1));
  // Shortened in the middle where the window is narrow (resizeEvent sets its room); whole in the tooltip.
  const QString device = QString::fromStdString(s.device + "  ·  " + s.variantText());
  deviceLabel_->setToolTip(device);
  deviceLabel_->setText(deviceLabel_->fontMetrics().elidedText(device, Qt::ElideMiddle, deviceLabel_->maximumWidth()));
  maskDock_->setRunningVariant(s.variantAsked, s.variantRan);
}

void MainWindow::updateStatus() {
  const FrameStats& s = loop_.stats();
  if (loop_.redraw().due()) updateNumbers();
  // A comparison the user asked for comes to the front when it is done; auto's own races only update the chart.
  // (also while paused: a comparison ends without a new frame)
  const std::uint64_t race = s.race ? s.race->number : 0;
  checkAct_->setChecked(model_.view().checking);
  // Check mode's result is in the race's dock: it comes to the front when the mode is turned on.
  if (model_.view().checking && !checkingShown_) raceDock_->raise();
  checkingShown_ = model_.view().checking;
  if (raceDock_->show(s) && s.race && s.race->trigger == "compare" && race != shownRace_) raceDock_->raise();
  shownRace_ = race;
  if (loop_.seekRefusals() != shownSeekRefusals_) {
    shownSeekRefusals_ = loop_.seekRefusals();
    statusBar()->showMessage("This source cannot seek (a live or generated source).", 4000);
  }
  // A kernel that failed to build or a variant that refused the mask: the
  // previous parameters keep running; say so once, in the status line with the
  // whole text in its tooltip, grey the variant in the dock, and for a build
  // failure show the build log in a message box that does not stop the video.
  const QString feedError = QString::fromStdString(s.error), log = QString::fromStdString(s.buildLog).trimmed();
  if (feedError + log != shownFeedError_) {
    shownFeedError_ = feedError + log;
    if (!feedError.isEmpty()) {
      if (log.isEmpty()) {
        lastError_ = feedError;
        statusBar()->showMessage(feedError, 20000);
      } else {
        notify("Kernel build failed", feedError + "\nThe previous parameters keep filtering.", "Build log:\n" + log);
      }
      statusBar()->setToolTip(log.isEmpty() ? feedError : feedError + "\n" + log);
      engineDock_->refresh();
    } else {
      statusBar()->setToolTip({});
    }
  }
  // The model decided something by itself (a variant gave way to auto): the status line says it.
  if (model_.notices() != shownNotices_) {
    shownNotices_ = model_.notices();
    statusBar()->showMessage(QString::fromStdString(model_.notice()), 10000);
    syncFromModel();
  }
  // The feed itself failed (a device lost): once, on the picture and in the log; the window keeps the last picture.
  const QString failure = QString::fromStdString(loop_.failure());
  if (failure != shownFailure_) {
    shownFailure_ = failure;
    QString detail =
        "The mask and the settings are kept. Open a source again, or pick another device in the Device menu.";
    const FrameLoop::Recording& r = loop_.recordings().last();
    if (!r.path.empty() && r.complete && r.stoppedBy == loop_.failure())
      detail +=
          QString("\nThe recording was finished: %1 frames in %2.").arg(r.frames).arg(QString::fromStdString(r.path));
    if (!failure.isEmpty()) report("The picture stopped: " + failure, detail);
  }
  // What the decoder or the pipeline said: the end of a clip, a file that
  // turned out not to decode, a device that stopped answering.
  const QString sourceMessage = QString::fromStdString(s.sourceMessage);
  // On the picture too, where the user looks, as in the viewer.
  viewport_->setMessage(!loop_.pictureMessage().empty() ? loop_.pictureMessage() : fallbackReason_, pictureHint());
  if (sourceMessage != shownSourceMessage_) {
    shownSourceMessage_ = sourceMessage;
    if (!sourceMessage.isEmpty()) statusBar()->showMessage(sourceMessage, 30000);
  }
}

void MainWindow::syncFromModel() {
  maskDock_->refresh();
  engineDock_->refresh();
  const ViewState& v = model_.view();
  pauseAct_->setChecked(v.paused);
  compareAct_->setChecked(v.compare == CompareMode::Split);
  overlayAct_->setChecked(v.overlayVisible);
  panelsAct_->setChecked(v.panelsVisible);
  viewport_->update();
}

void MainWindow::applyPanelsVisible() {
  const bool show = model_.view().panelsVisible;
  maskDock_->setVisible(show);
  engineDock_->setVisible(show);
  raceDock_->setVisible(show);
}

void MainWindow::saveSettings() {
  // The source that plays, not one that failed to open.
  shell_.source = QString::fromStdString(loop_.running() ? loop_.playingSource() : model_.source());
  shell_.device = loop_.deviceToKeep();  // nor a device that failed to open
  shell_.geometry = saveGeometry();
  shell_.windowState = saveState();
  saveShellSettings(settings_, model_, shell_);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  timer_.stop();
  stopRecording();
  loop_.recordings().waitForAll();  // every file gets its trailer before the window goes
  saveSettings();
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

// A .json file is a mask; anything else is tried as a video.
void MainWindow::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls()) {
    const QString path = url.toLocalFile();
    if (path.isEmpty()) continue;
    if (path.endsWith(".json", Qt::CaseInsensitive))
      loadMask(path);
    else
      openSource(path);
  }
  event->acceptProposedAction();
}

}  // namespace liveconv::ui
