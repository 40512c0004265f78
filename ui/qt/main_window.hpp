// The Qt 6 desktop shell around the shared viewer model: the viewport in the
// centre, the mask and engine docks, menus, status bar, drag and drop and
// QSettings. The window owns the model and the frame loop; the docks and the
// viewport render the model and edit it through its commands.
#pragma once

#include <QMainWindow>
#include <QTimer>
#include <memory>

#include "gl/interop_policy.hpp"
#include "model/viewer_model.hpp"
#include "feed/frame_loop.hpp"
#include "qt/shell_settings.hpp"

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QSettings;
class QPushButton;
class QSlider;

namespace liveconv::ui {

class EngineDock;
class RaceDock;
class MaskDock;
class Viewport;

enum class ErrorStyle {
  Invalid = 0,
  Dialog,     // a message box (the application)
  StatusBar,  // status line only (tests, scripted runs)
};

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // `settings` is read now and written on close; the tests hand in a
  // temporary file, and an `opener` that stands for makeFrameFeed (a slow one).
  MainWindow(QSettings& settings, ErrorStyle errors = ErrorStyle::Dialog, QWidget* parent = nullptr,
             FrameLoop::Opener opener = {});
  ~MainWindow() override;

  // ---- commands (menus, drops, keys and tests all come through these)
  // Any source spec or a file path. A local file that is not there is refused
  // at once (false, with the message); anything else opens in the background
  // (the status line says "opening ..."), and a failure is reported by a later
  // tick() while the playing source plays on.
  bool openSource(const QString& spec);
  void openCamera();  // the camera dialog, then openSource()
  // Records the filtered output to `path` (.mkv FFV1 lossless, .mp4 H.264, as
  // `liveconv run -o`); false with a message when it cannot start.
  bool startRecording(const QString& path);
  void stopRecording();  // finishes the file; also on close and on a source change
  void stepOneFrame();   // while paused: the next source frame, then hold
  bool loadMask(const QString& path);
  bool saveMask(const QString& path);
  bool saveScreenshot(const QString& path);  // the whole window: menus, docks, status bar, the picture and its overlay
  bool saveFrame(const QString& path);       // the filtered frame at its own size
  void tick();           // one frame: model -> feed -> viewport -> status bar
  // A scripted run, where nobody picks another variant, device or source:
  // when nothing plays and nothing can (no device, a set that cannot run here,
  // a first source that does not open), the application exits with `liveconv
  // run`'s code for it, the sentence on stderr.
  void setQuitWhenNothingCanPlay(bool on) { quitWhenNothingCanPlay_ = on; }
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
  MaskDock* maskDock() const { return maskDock_; }
  EngineDock* engineDock() const { return engineDock_; }
  RaceDock* raceDock() const { return raceDock_; }
  const QString& lastError() const { return lastError_; }
  QLabel* recordingLabel() const { return recordLabel_; }
  QSlider* seekSlider() const { return seekSlider_; }
  QAction* recordAction() const { return recordAct_; }
  bool restoredGeometry() const { return !shell_.geometry.isEmpty(); }  // a saved window placement was applied
  const QStringList& recentFiles() const { return shell_.recentFiles; }
  // The Device menu's ticked entry: -1 for the default, else the device index; -2 when none is.
  int checkedDeviceEntry() const;

 protected:
  void closeEvent(QCloseEvent* event) override;
  // Under 1100 pixels wide the two docks share one column as tabs, so the
  // picture keeps most of a small window; wider, they go back to both sides.
  void resizeEvent(QResizeEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void buildMenus();  // main_window_menus.cpp
  void buildDocks();
  void buildStatusBar();
  void buildFileMenu();
  void buildViewMenu();
  void addOverlayActions(QMenu* view);
  void buildFilterMenu();
  void buildDeviceMenu();
  void buildHelpMenu();
  void rebuildRecentMenu();
  void showError(const QString& title, const QString& message);
  // For what the frame side reports while the window runs (a failed kernel
  // build, a recording the feed had to stop): a status line and, in Dialog
  // style, a message box that does not block the frame loop, with the build
  // log or other detail under "Show Details".
  void notify(const QString& title, const QString& message, const QString& detail = {});
  // For what the picture's card already shows and the frame loop logs (a
  // source that did not open, a picture that stopped): the status line, no dialog.
  void report(const QString& message, const QString& detail = {});
  void showMessages();
  void updateStatus();
  void updateNumbers();
  void updateRecording();
  void applyPanelsVisible();
  bool ensureDisplayLink();
  void updateOpening();
  std::string pictureHint() const;
  void updateDeviceMenu();
  void runShellRequest(const ShellRequest& request);

 public:
  // Runs a command of the key table, as its key does (the menus' shortcuts come from the same table).
  void runCommand(Command command);
 private:

  QSettings& settings_;
  ErrorStyle errors_;
  bool quitWhenNothingCanPlay_ = false;
  ViewerModel model_;
  DisplayPathRequest displayPath_ = DisplayPathRequest::Auto;
  QString displayNotice_;
  std::unique_ptr<DisplayLink> link_;  // the viewport's GL context; outlives the loop's feeds
  bool linkMade_ = false;
  FrameLoop loop_;
  ShellSettings shell_;
  QTimer timer_;
  Viewport* viewport_ = nullptr;
  MaskDock* maskDock_ = nullptr;
  EngineDock* engineDock_ = nullptr;
  RaceDock* raceDock_ = nullptr;
  std::uint64_t shownRace_ = 0;  // the race the dock was raised for
  bool checkingShown_ = false;   // check mode was on at the last update (the dock is raised as it turns on)
  QMenu* recentMenu_ = nullptr;
  QActionGroup* deviceGroup_ = nullptr;
  QAction* recordAct_ = nullptr;
  QAction *pauseAct_ = nullptr, *compareAct_ = nullptr, *overlayAct_ = nullptr, *panelsAct_ = nullptr,
          *fullscreenAct_ = nullptr, *checkAct_ = nullptr;
  QLabel* recordLabel_ = nullptr;
  QSlider* seekSlider_ = nullptr;
  QLabel* positionLabel_ = nullptr;
  QPushButton* cancelOpen_ = nullptr;  // beside "Opening ..." in the status bar
  QLabel *fpsLabel_ = nullptr, *throughputLabel_ = nullptr, *droppedLabel_ = nullptr, *deviceLabel_ = nullptr;
  QString lastError_, shownFeedError_, shownSourceMessage_, shownFailure_, shownOpening_, shownOpenError_;
  std::string fallbackReason_;  // why the test source plays instead of the one asked (on the picture for a few seconds)
  std::uint64_t shownInstalls_ = 0;
  std::uint64_t reportedRecordings_ = 0;
  std::uint64_t shownNotices_ = 0, shownSeekRefusals_ = 0;
  std::uint64_t scriptLines_ = 0;
  bool step_ = false;
};

}  // namespace liveconv::ui
