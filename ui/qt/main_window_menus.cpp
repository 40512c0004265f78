// The menus of the Qt shell. Every action calls a MainWindow command or a
// ViewerModel command; none holds state of its own.
#include <QActionGroup>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <cmath>

#include "gl/frame_capture.hpp"
#include "liveconv/device.hpp"
#include "liveconv/mask.hpp"
#include "liveconv/parameters.hpp"
#include "model/commands.hpp"
#include "qt/about.hpp"
#include "qt/engine_dock.hpp"
#include "qt/main_window.hpp"
#include "qt/mask_dock.hpp"
#include "qt/race_dock.hpp"
#include "qt/viewport.hpp"

namespace liveconv::ui {

namespace {
// A menu's shortcut, from the key table both windows share (model/commands.hpp).
QKeySequence shortcutOf(Command command) {
  const KeyBinding* b = bindingFor(command);
  return b ? QKeySequence(QString::fromStdString(keyText(*b))) : QKeySequence();
}
}  // namespace


namespace {

const char* kVideoFilter = "Video (*.mp4 *.mkv *.mov *.avi *.webm *.y4m *.ts);;All files (*)";
const char* kMaskFilter = "Mask files (*.json);;All files (*)";
// The extension picks the container and encoder, as for `liveconv run -o`.
const char* kRecordFilter =
    "FFV1 in Matroska, lossless (*.mkv);;H.264 in MP4 (*.mp4);;Raw frames back to back (*.rgba *.gray);;All files (*)";

// A preset spec with a size where the preset takes one; motion45 at the seed's 7.
std::string presetSpec(const PresetInfo& p) {
  const std::string name = p.name;
  if (std::string(p.parameters).rfind(":SIZE", 0) != 0) return name;
  return name + (name == "motion45" ? ":7" : ":5");
}

}  // namespace

void MainWindow::buildMenus() {
  buildFileMenu();
  buildViewMenu();
  buildFilterMenu();
  buildDeviceMenu();
  buildHelpMenu();
}

void MainWindow::buildFileMenu() {
  QMenu* file = menuBar()->addMenu("&File");
  QAction* open = file->addAction("&Open Video…", this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Open video", QDir::homePath(), kVideoFilter);
    if (!path.isEmpty()) openSource(path);
  });
  open->setShortcut(QKeySequence::Open);
  // The cameras `liveconv cameras` lists, with their formats and sizes.
  file->addAction("Open &Camera…", this, [this] { openCamera(); })->setShortcut(QKeySequence("Ctrl+Shift+C"));
  // Streams, devices and FFmpeg filter graphs as the CLI names them; the feed decides what it can play.
  file->addAction("Open S&tream or Device…", this,
                  [this] {
                    bool ok = false;
                    const QString spec = QInputDialog::getText(
                        this, "Open stream or device",
                        "Source (rtsp://…, lavfi:testsrc2, camera:0:640x480@30, /dev/video0):", QLineEdit::Normal,
                        "lavfi:testsrc2=size=1280x720:rate=30", &ok);
                    if (ok && !spec.trimmed().isEmpty()) openSource(spec.trimmed());
                  })
      ->setShortcut(QKeySequence("Ctrl+Shift+O"));
  recentMenu_ = file->addMenu("Open &Recent");
  rebuildRecentMenu();
  file->addAction("Open &Test Source", this, [this] { openSource("testpattern"); })
      ->setShortcut(QKeySequence("Ctrl+T"));
  file->addSeparator();
  // One action: "Record Output…" while idle, "Stop Recording" while recording.
  recordAct_ = file->addAction("&Record Output…", this, [this] {
    if (loop_.recordings().active()) {
      stopRecording();
      return;
    }
    if (const std::string why = loop_.recordings().whyNot(); !why.empty()) {  // say so before asking for a name
      showError("Cannot record", QString::fromStdString(why));
      return;
    }
    // The folder of the last recording, else the working directory.
    const QString folder = settings_.value("recordFolder", QDir::currentPath()).toString();
    QFileDialog dialog(this, "Record the filtered output", folder + "/liveconv-recording.mkv", kRecordFilter);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix("mkv");
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty()) {
      settings_.setValue("recordFolder", QFileInfo(dialog.selectedFiles().front()).absolutePath());
      startRecording(dialog.selectedFiles().front());
    }
  });
  recordAct_->setShortcut(QKeySequence("Ctrl+R"));
  QAction* frameAct = file->addAction("Save &Frame…", this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, "Save the filtered frame", "liveconv-frame.png", "PNG (*.png)");
    if (!path.isEmpty()) saveFrame(path);
  });
  frameAct->setShortcut(QKeySequence("Ctrl+Shift+S"));
  file->addAction("Save &Screenshot of the Window…", this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, "Save the picture as shown", "liveconv-window.png", "PNG (*.png)");
    if (!path.isEmpty()) saveScreenshot(path);
  });
  // S (as in the viewer): the filtered frame at its own size, no dialog, a
  // time-stamped file in the working directory; Shift+S the picture as shown.
  QAction* quickFrame = new QAction("Quick Save Frame", this);
  quickFrame->setShortcut(shortcutOf(Command::SaveFrame));
  connect(quickFrame, &QAction::triggered, this, [this] { runCommand(Command::SaveFrame); });
  file->addAction(quickFrame);
  QAction* quickShot = new QAction("Quick Screenshot of the Window", this);
  quickShot->setShortcut(shortcutOf(Command::SaveWindow));
  connect(quickShot, &QAction::triggered, this, [this] { runCommand(Command::SaveWindow); });
  file->addAction(quickShot);
  // How long an open waits on a source that sends nothing (Esc cancels it sooner).
  file->addAction("Open &Timeout…", this, [this] {
    bool ok = false;
    const ParamDescription& d = paramDescription(ParamId::OpenTimeout);  // the range --open-timeout takes
    const int seconds = QInputDialog::getInt(
        this, "Open timeout",
        "Give up opening a source that sends nothing after (seconds, 0: wait):", model_.view().openTimeoutSeconds,
        static_cast<int>(d.minimum), static_cast<int>(d.maximum), static_cast<int>(d.step), &ok);
    if (ok) model_.view().openTimeoutSeconds = seconds;
  });
  file->addSeparator();
  file->addAction("&Quit", this, &QWidget::close)->setShortcut(QKeySequence::Quit);
}

void MainWindow::rebuildRecentMenu() {
  if (!recentMenu_) return;
  recentMenu_->clear();
  for (const QString& path : shell_.recentFiles)
    recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { openSource(path); })->setToolTip(path);
  recentMenu_->setEnabled(!shell_.recentFiles.isEmpty());
}

void MainWindow::buildViewMenu() {
  QMenu* view = menuBar()->addMenu("&View");
  ViewState& v = model_.view();
  view->addAction("&Messages…", this, &MainWindow::showMessages)->setShortcut(QKeySequence("Ctrl+M"));
  view->addSeparator();
  pauseAct_ = view->addAction("&Pause");
  pauseAct_->setCheckable(true);
  pauseAct_->setShortcut(shortcutOf(Command::TogglePause));
  connect(pauseAct_, &QAction::toggled, this, [this](bool on) { model_.view().paused = on; });
  view->addAction("Step One Frame", this, [this] { runCommand(Command::StepFrame); })
      ->setShortcut(shortcutOf(Command::StepFrame));
  view->addSeparator();
  compareAct_ = view->addAction("&Compare Split");
  compareAct_->setCheckable(true);
  compareAct_->setShortcut(shortcutOf(Command::ToggleCompare));
  connect(compareAct_, &QAction::toggled, this, [this](bool on) {
    model_.view().compare = on ? CompareMode::Split : CompareMode::Off;
    viewport_->update();
  });
  QAction* horizontal = view->addAction("Split &Horizontally");
  horizontal->setCheckable(true);
  connect(horizontal, &QAction::toggled, this, [this](bool on) {
    model_.view().orientation = on ? SplitOrientation::Horizontal : SplitOrientation::Vertical;
    viewport_->update();
  });
  addOverlayActions(view);
  panelsAct_ = view->addAction("&Panels");
  panelsAct_->setCheckable(true);
  panelsAct_->setShortcut(shortcutOf(Command::TogglePanels));
  connect(panelsAct_, &QAction::toggled, this, [this](bool on) {
    model_.view().panelsVisible = on;
    applyPanelsVisible();
  });
  fullscreenAct_ = view->addAction("&Fullscreen");
  fullscreenAct_->setCheckable(true);
  fullscreenAct_->setShortcut(shortcutOf(Command::ToggleFullscreen));
  connect(fullscreenAct_, &QAction::toggled, this, [this](bool on) {
    model_.view().fullscreen = on;
    if (on)
      showFullScreen();
    else
      showNormal();
  });
  view->addAction("&Reset Counters", this, [this] { runCommand(Command::ResetCounters); })
      ->setShortcut(shortcutOf(Command::ResetCounters));
  view->addSeparator();
  // Seeking in a file, as ffplay's arrows do (the seek bar is in the status bar).
  for (const auto& [text, command] : {std::pair{"Back 5 s", Command::SeekBack}, std::pair{"On 5 s", Command::SeekForward},
                                      std::pair{"To the Start", Command::SeekStart}, std::pair{"To the End", Command::SeekEnd},
                                      std::pair{"One Frame Back", Command::FrameBack},
                                      std::pair{"One Frame On", Command::FrameForward}})
    view->addAction(text, this, [this, command = command] { runCommand(command); })->setShortcut(shortcutOf(command));
  // Esc leaves full screen, and quits otherwise (as in the viewer, and ffplay).
  QAction* leave = new QAction(this);
  leave->setShortcut(shortcutOf(Command::Quit));
  connect(leave, &QAction::triggered, this, [this] { runCommand(Command::Quit); });
  addAction(leave);
  view->addSeparator();
  view->addAction(maskDock_->toggleViewAction());
  view->addAction(engineDock_->toggleViewAction());
  view->addAction(raceDock_->toggleViewAction());
  pauseAct_->setChecked(v.paused);
  compareAct_->setChecked(v.compare == CompareMode::Split);
  overlayAct_->setChecked(v.overlayVisible);
  panelsAct_->setChecked(v.panelsVisible);
}

// The overlay's part of the View menu: on/off, corner, compact, opacity.
void MainWindow::addOverlayActions(QMenu* view) {
  overlayAct_ = view->addAction("Performance &Overlay");
  overlayAct_->setCheckable(true);
  overlayAct_->setShortcut(shortcutOf(Command::ToggleOverlay));
  connect(overlayAct_, &QAction::toggled, this, [this](bool on) {
    model_.view().overlayVisible = on;
    viewport_->update();
  });
  // As in the viewer: Shift+O moves the overlay a corner on (clockwise), Alt+O makes it compact.
  view->addAction("Move the Overlay to the Next Corner", this, [this] { runCommand(Command::NextOverlayCorner); })
      ->setShortcut(shortcutOf(Command::NextOverlayCorner));
  QAction* compact = view->addAction("&Compact Overlay");
  compact->setCheckable(true);
  compact->setShortcut(shortcutOf(Command::ToggleOverlayCompact));
  connect(compact, &QAction::toggled, this, [this](bool on) {
    model_.view().overlayCompact = on;
    viewport_->update();
  });
  // How much of the picture shows through the overlay.
  QMenu* opacity = view->addMenu("Overlay &Opacity");
  auto* opacities = new QActionGroup(this);
  for (const int percent : {25, 50, 75, 92, 100}) {
    QAction* a = opacity->addAction(QString("%1%").arg(percent));
    a->setCheckable(true);
    a->setChecked(std::abs(model_.view().overlayOpacity * 100 - percent) < 0.5f);
    opacities->addAction(a);
    connect(a, &QAction::triggered, this, [this, percent] {
      model_.view().overlayOpacity = percent / 100.0f;
      viewport_->update();
    });
  }
}

void MainWindow::buildFilterMenu() {
  QMenu* filter = menuBar()->addMenu("F&ilter");
  QMenu* presets = filter->addMenu("&Presets");
  for (const PresetInfo& p : maskPresets()) {
    const std::string spec = presetSpec(p);
    QAction* a = presets->addAction(QString::fromStdString(spec), this, [this, spec] {
      std::string error;
      if (!model_.applySpec(spec, &error) && !error.empty()) showError("Preset", QString::fromStdString(error));
      syncFromModel();
    });
    a->setToolTip(p.description);
    a->setStatusTip(p.description);
  }
  filter->addSeparator();
  filter
      ->addAction("&Load Mask…", this,
                  [this] {
                    const QString path = QFileDialog::getOpenFileName(this, "Load mask", QDir::homePath(), kMaskFilter);
                    if (!path.isEmpty()) loadMask(path);
                  })
      ->setShortcut(QKeySequence("Ctrl+L"));
  filter
      ->addAction("&Save Mask…", this,
                  [this] {
                    const QString path = QFileDialog::getSaveFileName(this, "Save mask", "mask.json", kMaskFilter);
                    if (!path.isEmpty()) saveMask(path);
                  })
      ->setShortcut(QKeySequence::Save);
  QAction* withResponse = filter->addAction("Save the Frequency Response with the Mask");
  withResponse->setCheckable(true);
  withResponse->setChecked(shell_.saveResponseWithMask);
  withResponse->setStatusTip("Save Mask also writes NAME.response.png: the gain picture, its colour scale and the cuts");
  connect(withResponse, &QAction::toggled, this, [this](bool on) { shell_.saveResponseWithMask = on; });
  filter->addSeparator();
  QAction* next = filter->addAction("&Next Variant", this, [this] { runCommand(Command::NextVariant); });
  next->setShortcut(shortcutOf(Command::NextVariant));
  filter->addAction("Compare Variants on This &Frame", this, [this] { runCommand(Command::CompareVariants); })
      ->setShortcut(shortcutOf(Command::CompareVariants));
  checkAct_ = filter->addAction("&Check Against the CPU Reference");
  checkAct_->setCheckable(true);
  checkAct_->setShortcut(shortcutOf(Command::ToggleCheck));
  checkAct_->setStatusTip("Filters the frame on screen with the CPU reference too and lays the differences over it");
  connect(checkAct_, &QAction::toggled, this, [this](bool on) {
    if (on != model_.view().checking) runCommand(Command::ToggleCheck);
  });
}

void MainWindow::buildDeviceMenu() {
  QMenu* menu = menuBar()->addMenu("&Device");
  deviceGroup_ = new QActionGroup(this);
  auto add = [this, menu](int index, const QString& label) {
    QAction* a = menu->addAction(label);
    a->setCheckable(true);
    a->setChecked(index == model_.deviceIndex());
    a->setData(index);
    deviceGroup_->addAction(a);
    // The feed rebuilds the engine on the new device at the next frame boundary.
    connect(a, &QAction::triggered, this, [this, index] { model_.setDevice(index); });
  };
  add(-1, "Default (LIVECONV_DEVICE or the first GPU)");
  menu->addSeparator();
  const std::vector<DeviceInfo> devices = enumerateDevices();
  for (const DeviceInfo& d : devices)
    add(d.index, QString("%1: %2 — %3")
                     .arg(d.index)
                     .arg(QString::fromStdString(d.name), QString::fromStdString(d.platformName)));
  if (devices.empty()) menu->addAction("No OpenCL device found")->setEnabled(false);
}

// The tick follows the device that plays: the one picked while its feed opens
// and once it plays, the previous one again when the switch failed.
void MainWindow::updateDeviceMenu() {
  const int playing = loop_.running() ? loop_.playingDevice() : model_.deviceIndex();
  for (QAction* a : deviceGroup_->actions())
    if (a->data().toInt() == playing) a->setChecked(true);
}

int MainWindow::checkedDeviceEntry() const {
  const QAction* a = deviceGroup_->checkedAction();
  return a ? a->data().toInt() : -2;
}

void MainWindow::buildHelpMenu() {
  QMenu* help = menuBar()->addMenu("&Help");
  help->addAction("&About liveconv", this, [this] {
    QMessageBox::about(this, "About liveconv", aboutText(loop_.stats(), loop_.deviceSelector()));
  });
  help->addAction("About &Qt", qApp, &QApplication::aboutQt);
}

}  // namespace liveconv::ui
