// What the window does itself when a key, a script line or a menu asks:
// save the window or the filtered frame, load or save a mask, full screen,
// quit. The model's part of a command goes through the frame loop; this is
// the rest (ShellRequest, ui/feed/script_runner.hpp).
#pragma once

#include <QObject>
#include <QString>

#include "feed/script_runner.hpp"
#include "qt/shell_part.hpp"

namespace liveconv::ui {

class ShellRequests : public ShellPart {
  Q_OBJECT
 public:
  explicit ShellRequests(const ShellContext& context) : ShellPart(context) {}

  void run(const ShellRequest& request);
  bool saveScreenshot(const QString& path);  // the whole window: menus, docks, status bar, the picture and its overlay
  bool saveFrame(const QString& path);       // the filtered frame at its own size
  bool loadMask(const QString& path);
  bool saveMask(const QString& path);  // and its frequency response, where the Filter menu asks for it
  void setFullScreen(bool on);

 signals:
  void maskLoaded();
  void fullScreenToggleAsked();  // the View menu's Fullscreen action toggles, and calls setFullScreen

 private:
  void writeLayout(const QString& path, QPoint at, QSize picture) const;
};

}  // namespace liveconv::ui
