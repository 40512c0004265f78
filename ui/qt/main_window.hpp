// The Qt 6 desktop shell around the shared viewer model: the viewport in the
// centre, the docks, menus, status bar, drag and drop and QSettings. The
// window owns the model and the frame loop and wires the parts that own the
// rest: Alerts (what the user is told), StatusLine, DockLayout, SourceOpener,
// ShellRecorder, ShellRequests (the window's own commands) and ShellMenus.
#pragma once

#include <QMainWindow>
#include <QTimer>
#include <memory>

#include "feed/frame_loop.hpp"
#include "gl/interop_policy.hpp"
#include "model/viewer_model.hpp"
#include "qt/alerts.hpp"
#include "qt/dock_layout.hpp"
#include "qt/shell_menus.hpp"
#include "qt/shell_recorder.hpp"
#include "qt/shell_requests.hpp"
#include "qt/shell_settings.hpp"
#include "qt/source_opener.hpp"
#include "qt/status_line.hpp"

class QSettings;

namespace liveconv::ui {

class Viewport;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // `settings` is read now and written on close; the tests hand in a
  // temporary file, and an `opener` that stands for makeFrameFeed (a slow one).
  MainWindow(QSettings& settings, ErrorStyle errors = ErrorStyle::Dialog, QWidget* parent = nullptr,
             FrameLoop::Opener opener = {});
  ~MainWindow() override;

  // ---- commands (menus, drops, keys and tests all come through these)
  bool openSource(const QString& spec) { return opener_->open(spec); }  // see SourceOpener::open
  void openCamera() { opener_->openCamera(); }
  bool startRecording(const QString& path) { return recorder_->start(path); }
  void stopRecording() { recorder_->stop(); }              // also on close and on a source change
  void stepOneFrame() { runCommand(Command::StepFrame); }  // while paused: the next source frame, then hold
  bool loadMask(const QString& path) { return requests_->loadMask(path); }
  bool saveMask(const QString& path) { return requests_->saveMask(path); }
  bool saveScreenshot(const QString& path) { return requests_->saveScreenshot(path); }
  bool saveFrame(const QString& path) { return requests_->saveFrame(path); }
  void tick();  // one frame: model -> feed -> viewport -> status bar
  // Runs a command of the key table, as its key does (the menus' shortcuts come from the same table).
  void runCommand(Command command);
  void setQuitWhenNothingCanPlay(bool on) { opener_->setQuitWhenNothingCanPlay(on); }
  static int fastestRefreshHz();  // of the screens, in Hz (0 where none says)
  void syncFromModel();  // after the model changed from outside the docks
  void saveSettings();
  void setRunning(bool running);  // the frame timer; the tests step with tick()
  int frameIntervalMs() const { return timer_.interval(); }  // the frame timer's: 0, or 0.9 refresh with vsync
  // --display-path, as the viewer takes it; before the window is first shown
  // (the display link is made then). Where `interop` cannot run, the sentence
  // that says why goes to stderr and the status line, and displayNotice() keeps it.
  void setDisplayPath(DisplayPathRequest request) { displayPath_ = request; }
  const QString& displayNotice() const { return displayNotice_; }

  ViewerModel& model() { return model_; }
  FrameLoop& loop() { return loop_; }
  Viewport* viewport() const { return viewport_; }
  MaskDock* maskDock() const { return docks_->mask(); }
  EngineDock* engineDock() const { return docks_->engine(); }
  RaceDock* raceDock() const { return docks_->race(); }
  const QString& lastError() const { return alerts_->lastError(); }
  QLabel* recordingLabel() const { return recorder_->label(); }
  QSlider* seekSlider() const { return statusLine_->seekSlider(); }
  QAction* recordAction() const { return recorder_->action(); }
  bool restoredGeometry() const { return !shell_.geometry.isEmpty(); }  // a saved window placement was applied
  const QStringList& recentFiles() const { return shell_.recentFiles; }
  int checkedDeviceEntry() const { return menus_->checkedDeviceEntry(); }  // see ShellMenus

 protected:
  void closeEvent(QCloseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void buildParts();
  void wireParts();
  bool ensureDisplayLink();
  void applyPanelsVisible();

  QSettings& settings_;
  ViewerModel model_;
  DisplayPathRequest displayPath_ = DisplayPathRequest::Auto;
  QString displayNotice_;
  std::unique_ptr<DisplayLink> link_;  // the viewport's GL context; outlives the loop's feeds
  bool linkMade_ = false;
  FrameLoop loop_;
  ShellSettings shell_;
  QTimer timer_;
  Viewport* viewport_ = nullptr;
  Alerts* alerts_ = nullptr;
  StatusLine* statusLine_ = nullptr;
  DockLayout* docks_ = nullptr;
  SourceOpener* opener_ = nullptr;
  ShellRecorder* recorder_ = nullptr;
  ShellRequests* requests_ = nullptr;
  ShellMenus* menus_ = nullptr;
  std::uint64_t scriptLines_ = 0;
  bool step_ = false;
};

}  // namespace liveconv::ui
