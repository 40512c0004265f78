// Recording, as the Qt shell shows it: the File menu's Record action (its save
// dialog, greyed with the reason where recording cannot work), the red
// indicator in the status bar with the time, frames and file, and once a
// recording is finished, what was written. The frame loop's
// RecordingControls does the recording itself.
#pragma once

#include <QObject>
#include <cstdint>

class QAction;
class QLabel;
class QMainWindow;
class QMenu;
class QSettings;

namespace liveconv::ui {

class Alerts;
class FrameLoop;

class ShellRecorder : public QObject {
  Q_OBJECT
 public:
  ShellRecorder(QMainWindow& window, FrameLoop& loop, Alerts& alerts, QSettings& settings);

  void addTo(QMenu* file);  // the Record action: "Record Output…" while idle, "Stop Recording" while recording
  // Records the filtered output to `path` (.mkv FFV1 lossless, .mp4 H.264, as
  // `liveconv run -o`); false with a message when it cannot start.
  bool start(const QString& path);
  void stop();    // finishes the file
  void update();  // the indicator and the action; what a recording that finished wrote
  QLabel* label() const { return label_; }
  QAction* action() const { return action_; }

 private:
  void toggle();

  QMainWindow& window_;
  FrameLoop& loop_;
  Alerts& alerts_;
  QSettings& settings_;
  QAction* action_ = nullptr;
  QLabel* label_ = nullptr;
  std::uint64_t reported_ = 0;  // recordings finished and said
};

}  // namespace liveconv::ui
