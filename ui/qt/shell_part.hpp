// What the Qt window's parts act on, handed to each by MainWindow: the window
// they belong to (their QObject parent), the frame loop and the model, where
// the user is told things (Alerts), the shell's settings and the picture.
#pragma once

#include <QMainWindow>
#include <QObject>

namespace liveconv::ui {

class Alerts;
class FrameLoop;
class Viewport;
class ViewerModel;
struct ShellSettings;

struct ShellContext {
  QMainWindow& window;
  FrameLoop& loop;
  ViewerModel& model;
  Alerts& alerts;
  ShellSettings& shell;
  Viewport* viewport;
};

class ShellPart : public QObject {
 public:
  explicit ShellPart(const ShellContext& c)
      : QObject(&c.window),
        window_(c.window),
        loop_(c.loop),
        model_(c.model),
        alerts_(c.alerts),
        shell_(c.shell),
        viewport_(c.viewport) {}

 protected:
  QMainWindow& window_;
  FrameLoop& loop_;
  ViewerModel& model_;
  Alerts& alerts_;
  ShellSettings& shell_;
  Viewport* viewport_;
};

}  // namespace liveconv::ui
