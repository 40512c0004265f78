// The status bar's permanent widgets that follow the frames: the seek bar and
// position of a file, the video's rate, the throughput, the drops and the
// device. Other parts put their own widgets (Cancel, the recording) before
// the rates.
#pragma once

#include <QObject>

class QLabel;
class QSlider;
class QStatusBar;
class QWidget;

namespace liveconv::ui {

class FrameLoop;
class ViewerModel;

class StatusLine : public QObject {
  Q_OBJECT
 public:
  StatusLine(QStatusBar* bar, FrameLoop& loop, const ViewerModel& model);

  void addBeforeRates(QWidget* widget);
  // The numbers, with the picture: each new text repaints the status bar, so
  // they change when the loop redraws (FrameLoop::redrawDue), not on every tick.
  void update();
  // The device's name gives way first in a narrow window, so that the status
  // line's message ("Playing ...") keeps room of its own.
  void fitTo(int windowWidth);
  QSlider* seekSlider() const { return seekSlider_; }

 private:
  QStatusBar* bar_;
  FrameLoop& loop_;
  const ViewerModel& model_;
  int before_ = 0;  // widgets put before the rates
  QSlider* seekSlider_ = nullptr;
  QLabel* positionLabel_ = nullptr;
  QLabel *fpsLabel_ = nullptr, *throughputLabel_ = nullptr, *droppedLabel_ = nullptr, *deviceLabel_ = nullptr;
};

}  // namespace liveconv::ui
