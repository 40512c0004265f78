#include "qt/shell_menus.hpp"

#include <QActionGroup>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <cmath>

#include "feed/frame_loop.hpp"
#include "liveconv/device.hpp"
#include "liveconv/mask.hpp"
#include "liveconv/parameters.hpp"
#include "model/commands.hpp"
#include "qt/about.hpp"
#include "qt/alerts.hpp"
#include "qt/dock_layout.hpp"
#include "qt/engine_dock.hpp"
#include "qt/mask_dock.hpp"
#include "qt/race_dock.hpp"
#include "qt/session_log_dialog.hpp"
#include "qt/shell_recorder.hpp"
#include "qt/shell_requests.hpp"
#include "qt/shell_settings.hpp"
#include "qt/source_opener.hpp"
#include "qt/viewport.hpp"

namespace liveconv::ui {

namespace {
// A menu's shortcut, from the key table both windows share (model/commands.hpp).
QKeySequence shortcutOf(Command command) {
  const KeyBinding* b = bindingFor(command);
  return b ? QKeySequence(QString::fromStdString(keyText(*b))) : QKeySequence();
}

const char* kMaskFilter = "Mask files (*.json);;All files (*)";

// A preset spec with a size where the preset takes one; motion45 at the seed's 7.
std::string presetSpec(const PresetInfo& p) {
  const std::string name = p.name;
  if (std::string(p.parameters).rfind(":SIZE", 0) != 0) return name;
  return name + (name == "motion45" ? ":7" : ":5");
}

}  // namespace

namespace {

// Planes mode: the source opens again, its own planes filtered as they are (liveconv run --planes all).
QAction* addPlanesAction(QMenu* menu, ViewerModel& model, QObject* owner) {
  QAction* a = menu->addAction("Filter the Source's &Planes");
  a->setCheckable(true);
  a->setStatusTip("Y, U, V (or G, B, R, A) filtered as they are, each with the mask: no colour conversion");
  QObject::connect(a, &QAction::toggled, owner, [&model](bool on) { model.view().planes = on; });
  return a;
}

}  // namespace

ShellMenus::ShellMenus(QMainWindow& window, FrameLoop& loop, ViewerModel& model, ShellSettings& shell, Parts parts)
    : QObject(&window), window_(window), loop_(loop), model_(model), shell_(shell), parts_(parts) {
  buildFileMenu();
  buildViewMenu();
  buildFilterMenu();
  buildDeviceMenu();
  buildHelpMenu();
}

void ShellMenus::buildFileMenu() {
  QMenu* file = window_.menuBar()->addMenu("&File");
  parts_.opener.addTo(file);
  file->addSeparator();
  parts_.recorder.addTo(file);
  QAction* frameAct = file->addAction("Save &Frame…", this, [this] {
    const QString path =
        QFileDialog::getSaveFileName(&window_, "Save the filtered frame", "liveconv-frame.png", "PNG (*.png)");
    if (!path.isEmpty()) parts_.requests.saveFrame(path);
  });
  frameAct->setShortcut(QKeySequence("Ctrl+Shift+S"));
  file->addAction("Save &Screenshot of the Window…", this, [this] {
    const QString path =
        QFileDialog::getSaveFileName(&window_, "Save the picture as shown", "liveconv-window.png", "PNG (*.png)");
    if (!path.isEmpty()) parts_.requests.saveScreenshot(path);
  });
  // S (as in the viewer): the filtered frame at its own size, no dialog, a
  // time-stamped file in the working directory; Shift+S the picture as shown.
  QAction* quickFrame = new QAction("Quick Save Frame", this);
  quickFrame->setShortcut(shortcutOf(Command::SaveFrame));
  connect(quickFrame, &QAction::triggered, this, [this] { emit commandAsked(Command::SaveFrame); });
  file->addAction(quickFrame);
  QAction* quickShot = new QAction("Quick Screenshot of the Window", this);
  quickShot->setShortcut(shortcutOf(Command::SaveWindow));
  connect(quickShot, &QAction::triggered, this, [this] { emit commandAsked(Command::SaveWindow); });
  file->addAction(quickShot);
  // How long an open waits on a source that sends nothing (Esc cancels it sooner).
  file->addAction("Open &Timeout…", this, [this] {
    bool ok = false;
    const ParamDescription& d = paramDescription(ParamId::OpenTimeout);  // the range --open-timeout takes
    const int seconds = QInputDialog::getInt(
        &window_, "Open timeout",
        "Give up opening a source that sends nothing after (seconds, 0: wait):", model_.view().openTimeoutSeconds,
        static_cast<int>(d.minimum), static_cast<int>(d.maximum), static_cast<int>(d.step), &ok);
    if (ok) model_.view().openTimeoutSeconds = seconds;
  });
  planesAct_ = addPlanesAction(file, model_, this);
  file->addSeparator();
  file->addAction("&Quit", &window_, &QWidget::close)->setShortcut(QKeySequence::Quit);
}

void ShellMenus::buildViewMenu() {
  QMenu* view = window_.menuBar()->addMenu("&View");
  ViewState& v = model_.view();
  view->addAction("&Messages…", this, [this] { (new SessionLogDialog(loop_.log(), &window_))->show(); })
      ->setShortcut(QKeySequence("Ctrl+M"));
  view->addSeparator();
  pauseAct_ = view->addAction("&Pause");
  pauseAct_->setCheckable(true);
  pauseAct_->setShortcut(shortcutOf(Command::TogglePause));
  connect(pauseAct_, &QAction::toggled, this, [this](bool on) { model_.view().paused = on; });
  view->addAction("Step One Frame", this, [this] { emit commandAsked(Command::StepFrame); })
      ->setShortcut(shortcutOf(Command::StepFrame));
  view->addSeparator();
  compareAct_ = view->addAction("&Compare Split");
  compareAct_->setCheckable(true);
  compareAct_->setShortcut(shortcutOf(Command::ToggleCompare));
  connect(compareAct_, &QAction::toggled, this, [this](bool on) {
    model_.view().compare = on ? CompareMode::Split : CompareMode::Off;
    parts_.viewport->update();
  });
  QAction* horizontal = view->addAction("Split &Horizontally");
  horizontal->setCheckable(true);
  connect(horizontal, &QAction::toggled, this, [this](bool on) {
    model_.view().orientation = on ? SplitOrientation::Horizontal : SplitOrientation::Vertical;
    parts_.viewport->update();
  });
  addOverlayActions(view);
  panelsAct_ = view->addAction("&Panels");
  panelsAct_->setCheckable(true);
  panelsAct_->setShortcut(shortcutOf(Command::TogglePanels));
  connect(panelsAct_, &QAction::toggled, this, [this](bool on) {
    model_.view().panelsVisible = on;
    emit panelsToggled();
  });
  fullscreenAct_ = view->addAction("&Fullscreen");
  fullscreenAct_->setCheckable(true);
  fullscreenAct_->setShortcut(shortcutOf(Command::ToggleFullscreen));
  connect(fullscreenAct_, &QAction::toggled, &parts_.requests, &ShellRequests::setFullScreen);
  view->addAction("&Reset Counters", this, [this] { emit commandAsked(Command::ResetCounters); })
      ->setShortcut(shortcutOf(Command::ResetCounters));
  view->addSeparator();
  // Seeking in a file, as ffplay's arrows do (the seek bar is in the status bar).
  for (const auto& [text, command] :
       {std::pair{"Back 5 s", Command::SeekBack}, std::pair{"On 5 s", Command::SeekForward},
        std::pair{"To the Start", Command::SeekStart}, std::pair{"To the End", Command::SeekEnd},
        std::pair{"One Frame Back", Command::FrameBack}, std::pair{"One Frame On", Command::FrameForward}})
    view->addAction(text, this, [this, command = command] { emit commandAsked(command); })
        ->setShortcut(shortcutOf(command));
  // Esc leaves full screen, and quits otherwise (as in the viewer, and ffplay).
  QAction* leave = new QAction(this);
  leave->setShortcut(shortcutOf(Command::Quit));
  connect(leave, &QAction::triggered, this, [this] { emit commandAsked(Command::Quit); });
  window_.addAction(leave);
  view->addSeparator();
  view->addAction(parts_.docks.mask()->toggleViewAction());
  view->addAction(parts_.docks.engine()->toggleViewAction());
  view->addAction(parts_.docks.race()->toggleViewAction());
  syncFrom(v);
}

// The overlay's part of the View menu: on/off, corner, compact, opacity.
void ShellMenus::addOverlayActions(QMenu* view) {
  overlayAct_ = view->addAction("Performance &Overlay");
  overlayAct_->setCheckable(true);
  overlayAct_->setShortcut(shortcutOf(Command::ToggleOverlay));
  connect(overlayAct_, &QAction::toggled, this, [this](bool on) {
    model_.view().overlayVisible = on;
    parts_.viewport->update();
  });
  // As in the viewer: Shift+O moves the overlay a corner on (clockwise), Alt+O makes it compact.
  view->addAction("Move the Overlay to the Next Corner", this,
                  [this] { emit commandAsked(Command::NextOverlayCorner); })
      ->setShortcut(shortcutOf(Command::NextOverlayCorner));
  QAction* compact = view->addAction("&Compact Overlay");
  compact->setCheckable(true);
  compact->setShortcut(shortcutOf(Command::ToggleOverlayCompact));
  connect(compact, &QAction::toggled, this, [this](bool on) {
    model_.view().overlayCompact = on;
    parts_.viewport->update();
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
      parts_.viewport->update();
    });
  }
}

void ShellMenus::buildFilterMenu() {
  QMenu* filter = window_.menuBar()->addMenu("F&ilter");
  QMenu* presets = filter->addMenu("&Presets");
  for (const PresetInfo& p : maskPresets()) {
    const std::string spec = presetSpec(p);
    QAction* a = presets->addAction(QString::fromStdString(spec), this, [this, spec] {
      std::string error;
      if (!model_.applySpec(spec, &error) && !error.empty())
        parts_.alerts.showError("Preset", QString::fromStdString(error));
      emit modelEdited();
    });
    a->setToolTip(p.description);
    a->setStatusTip(p.description);
  }
  filter->addSeparator();
  filter
      ->addAction("&Load Mask…", this,
                  [this] {
                    const QString path =
                        QFileDialog::getOpenFileName(&window_, "Load mask", QDir::homePath(), kMaskFilter);
                    if (!path.isEmpty()) parts_.requests.loadMask(path);
                  })
      ->setShortcut(QKeySequence("Ctrl+L"));
  filter
      ->addAction("&Save Mask…", this,
                  [this] {
                    const QString path = QFileDialog::getSaveFileName(&window_, "Save mask", "mask.json", kMaskFilter);
                    if (!path.isEmpty()) parts_.requests.saveMask(path);
                  })
      ->setShortcut(QKeySequence::Save);
  QAction* withResponse = filter->addAction("Save the Frequency Response with the Mask");
  withResponse->setCheckable(true);
  withResponse->setChecked(shell_.saveResponseWithMask);
  withResponse->setStatusTip(
      "Save Mask also writes NAME.response.png: the gain picture, its colour scale and the cuts");
  connect(withResponse, &QAction::toggled, this, [this](bool on) { shell_.saveResponseWithMask = on; });
  filter->addSeparator();
  filter
      ->addAction("Open &Kernel…", this,
                  [this] {
                    const QString path = QFileDialog::getOpenFileName(&window_, "Open kernel", QDir::homePath(),
                                                                      "OpenCL kernels (*.cl);;All files (*)");
                    if (!path.isEmpty()) openKernel(path);
                  })
      ->setStatusTip(
          "A kernel of your own, run as the variant user and raced by auto; rebuilt each time the file "
          "is saved, the last good build running while a new one fails (docs/variants.md)");
  QAction* next = filter->addAction("&Next Variant", this, [this] { emit commandAsked(Command::NextVariant); });
  next->setShortcut(shortcutOf(Command::NextVariant));
  filter->addAction("Compare Variants on This &Frame", this, [this] { emit commandAsked(Command::CompareVariants); })
      ->setShortcut(shortcutOf(Command::CompareVariants));
  checkAct_ = filter->addAction("&Check Against the CPU Reference");
  checkAct_->setCheckable(true);
  checkAct_->setShortcut(shortcutOf(Command::ToggleCheck));
  checkAct_->setStatusTip("Filters the frame on screen with the CPU reference too and lays the differences over it");
  connect(checkAct_, &QAction::toggled, this, [this](bool on) {
    if (on != model_.view().checking) emit commandAsked(Command::ToggleCheck);
  });
}

void ShellMenus::buildDeviceMenu() {
  QMenu* menu = window_.menuBar()->addMenu("&Device");
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

void ShellMenus::updateDeviceMenu() {
  const int playing = loop_.running() ? loop_.playingDevice() : model_.deviceIndex();
  for (QAction* a : deviceGroup_->actions())
    if (a->data().toInt() == playing) a->setChecked(true);
}

int ShellMenus::checkedDeviceEntry() const {
  const QAction* a = deviceGroup_->checkedAction();
  return a ? a->data().toInt() : -2;
}

void ShellMenus::syncFrom(const ViewState& v) {
  pauseAct_->setChecked(v.paused);
  compareAct_->setChecked(v.compare == CompareMode::Split);
  overlayAct_->setChecked(v.overlayVisible);
  panelsAct_->setChecked(v.panelsVisible);
  planesAct_->setChecked(v.planes);
}

void ShellMenus::setChecking(bool on) {
  checkAct_->setChecked(on);
}

void ShellMenus::buildHelpMenu() {
  QMenu* help = window_.menuBar()->addMenu("&Help");
  help->addAction("&About liveconv", this, [this] {
    QMessageBox::about(&window_, "About liveconv", aboutText(loop_.stats(), loop_.deviceSelector()));
  });
  help->addAction("About &Qt", qApp, &QApplication::aboutQt);
}

void ShellMenus::openKernel(const QString& path) {
  const std::string error = loop_.kernelFile().open(model_, path.toStdString());
  if (!error.empty()) return parts_.alerts.showError("Open kernel", QString::fromStdString(error));
  emit modelEdited();
}

}  // namespace liveconv::ui
