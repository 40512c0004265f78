#include "qt/main_window.hpp"

#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QGuiApplication>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <algorithm>
#include <chrono>
#include <iostream>

#include "feed/display_link.hpp"
#include "feed/key_commands.hpp"
#include "qt/engine_dock.hpp"
#include "qt/mask_dock.hpp"
#include "qt/race_dock.hpp"
#include "qt/viewport.hpp"

namespace liveconv::ui {

namespace {
constexpr const char* kTestSource = "testpattern";
}

MainWindow::MainWindow(QSettings& settings, ErrorStyle errors, QWidget* parent, FrameLoop::Opener opener)
    : QMainWindow(parent), settings_(settings), loop_(model_, std::move(opener)) {
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
  alerts_ = new Alerts(*this, loop_, model_, errors);
  buildParts();
  wireParts();

  resize(QSize(1500, 900).boundedTo(screen()->availableGeometry().size()));  // where no window manager maximises
  docks_->setDefaultWidths();
  if (!shell_.geometry.isEmpty()) restoreGeometry(shell_.geometry);
  if (!shell_.windowState.isEmpty()) restoreState(shell_.windowState);

  // The last source; when it is gone (a moved file, or it fails to open:
  // see SourceOpener::update()), the test source, so the window always shows something.
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

// The parts, in the order their widgets go in: the docks, the status bar
// (seek bar, Cancel while a source opens, the recording, the rates and the
// device), then the menus, which hold the other parts' actions.
void MainWindow::buildParts() {
  docks_ = new DockLayout(*this, model_);
  statusLine_ = new StatusLine(statusBar(), loop_, model_);
  const ShellContext parts{*this, loop_, model_, *alerts_, shell_, viewport_};
  opener_ = new SourceOpener(parts);
  recorder_ = new ShellRecorder(*this, loop_, *alerts_, settings_);
  requests_ = new ShellRequests(parts);
  statusLine_->addBeforeRates(opener_->cancelButton());
  statusLine_->addBeforeRates(recorder_->label());
  menus_ =
      new ShellMenus(*this, loop_, model_, shell_, {*opener_, *recorder_, *requests_, *docks_, *alerts_, viewport_});
}

void MainWindow::wireParts() {
  connect(docks_->race(), &RaceDock::compareAsked, this, [this] { runCommand(Command::CompareVariants); });
  connect(docks_->race(), &RaceDock::checkToggled, this, [this](bool on) {
    if (on != model_.view().checking) runCommand(Command::ToggleCheck);
  });
  connect(viewport_, &Viewport::glFailed, this, [this](const QString& m) { alerts_->showError("No picture", m); });
  connect(alerts_, &Alerts::feedErrorChanged, docks_->engine(), &EngineDock::refresh);
  connect(alerts_, &Alerts::modelDecided, this, &MainWindow::syncFromModel);
  connect(opener_, &SourceOpener::playingDeviceChanged, menus_, &ShellMenus::updateDeviceMenu);
  connect(requests_, &ShellRequests::maskLoaded, this, &MainWindow::syncFromModel);
  connect(requests_, &ShellRequests::fullScreenToggleAsked, menus_->fullscreenAction(), &QAction::toggle);
  connect(menus_, &ShellMenus::commandAsked, this, &MainWindow::runCommand);
  connect(menus_, &ShellMenus::modelEdited, this, &MainWindow::syncFromModel);
  connect(menus_, &ShellMenus::panelsToggled, this, &MainWindow::applyPanelsVisible);
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
  statusLine_->fitTo(width());
  docks_->fitTo(width());
}

void MainWindow::setRunning(bool running) {
  if (running)
    timer_.start();
  else
    timer_.stop();
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
  opener_->update();
  recorder_->update();
  if (loop_.redraw().due()) {
    statusLine_->update();
    docks_->mask()->setRunningVariant(loop_.stats().variantAsked, loop_.stats().variantRan);
  }
  menus_->setChecking(model_.view().checking);
  docks_->show(loop_.stats());
  alerts_->update();  // after the recorder's: a failure's message box also says what was recorded
  opener_->showPictureMessage();
  for (const ShellRequest& r : requests) requests_->run(r);
}

// A key of the table (model/commands.hpp): the loop takes the model's part, the window the rest.
void MainWindow::runCommand(Command command) {
  if (command == Command::Quit && isFullScreen()) command = Command::ToggleFullscreen;  // Esc leaves full screen first
  if (ui::runCommand(loop_, command)) {
    syncFromModel();
    applyPanelsVisible();
    return;
  }
  requests_->run({command, {}});
}

void MainWindow::syncFromModel() {
  docks_->refresh();
  menus_->syncFrom(model_.view());
  viewport_->update();
}

void MainWindow::applyPanelsVisible() {
  docks_->applyPanelsVisible();
}

void MainWindow::saveSettings() {
  // The source that plays, not one that failed to open.
  shell_.source = QString::fromStdString(loop_.running() ? loop_.playingSource() : model_.source());
  // The device asked for, unless switching to it failed: not a device that failed to open.
  const int asked = loop_.model().deviceIndex();
  shell_.device = loop_.switcher().deviceSwitchFailed(asked) ? loop_.playingDevice() : asked;
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
