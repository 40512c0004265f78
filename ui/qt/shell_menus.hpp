// The menu bar of the Qt shell and its actions. An action runs a command of
// the key table (commandAsked), a ViewerModel command, or asks the part that
// owns what it does (opening, recording, the window's own requests); the
// checkable ones follow the model through syncFrom().
#pragma once

#include <QObject>

#include "model/commands.hpp"

class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;

namespace liveconv::ui {

class Alerts;
class DockLayout;
class FrameLoop;
class ShellRecorder;
class ShellRequests;
class SourceOpener;
class ViewerModel;
class Viewport;
struct ShellSettings;
struct ViewState;

class ShellMenus : public QObject {
  Q_OBJECT
 public:
  // The parts whose actions sit in the menus.
  struct Parts {
    SourceOpener& opener;
    ShellRecorder& recorder;
    ShellRequests& requests;
    DockLayout& docks;
    Alerts& alerts;
    Viewport* viewport;
  };
  ShellMenus(QMainWindow& window, FrameLoop& loop, ViewerModel& model, ShellSettings& shell, Parts parts);

  void syncFrom(const ViewState& view);  // the checkable actions, after the model changed
  void setChecking(bool on);             // Filter > Check, as check mode is
  // The tick follows the device that plays: the one picked while its feed opens
  // and once it plays, the previous one again when the switch failed.
  void updateDeviceMenu();
  // The Device menu's ticked entry: -1 for the default, else the device index; -2 when none is.
  int checkedDeviceEntry() const;
  QAction* fullscreenAction() const { return fullscreenAct_; }
  // Filter > Open Kernel…: `path` as the user's kernel, run as `user` and
  // followed from here (kernel_file_watch.hpp); a file that cannot be read is an alert.
  void openKernel(const QString& path);

 signals:
  void commandAsked(Command command);  // as its key does
  void modelEdited();                  // a preset applied
  void panelsToggled();

 private:
  void buildFileMenu();
  void buildViewMenu();
  void addOverlayActions(QMenu* view);
  void buildFilterMenu();
  void buildDeviceMenu();
  void buildHelpMenu();

  QMainWindow& window_;
  FrameLoop& loop_;
  ViewerModel& model_;
  ShellSettings& shell_;
  Parts parts_;
  QActionGroup* deviceGroup_ = nullptr;
  QAction *pauseAct_ = nullptr, *compareAct_ = nullptr, *overlayAct_ = nullptr, *panelsAct_ = nullptr,
          *fullscreenAct_ = nullptr, *checkAct_ = nullptr, *planesAct_ = nullptr;
};

}  // namespace liveconv::ui
