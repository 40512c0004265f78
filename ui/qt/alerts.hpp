// How the Qt shell tells the user what went wrong or what happened: the
// status line, a message box in Dialog style, and the session log; and what
// the frame side reports while the window runs (a kernel that failed to build,
// a notice of the model, a picture that stopped, the decoder's messages), each
// said once.
#pragma once

#include <QObject>
#include <QString>
#include <cstdint>

class QMainWindow;

namespace liveconv::ui {

class FrameLoop;
class ViewerModel;

enum class ErrorStyle {
  Invalid = 0,
  Dialog,     // a message box (the application)
  StatusBar,  // status line only (tests, scripted runs)
};

class Alerts : public QObject {
  Q_OBJECT
 public:
  Alerts(QMainWindow& window, FrameLoop& loop, const ViewerModel& model, ErrorStyle style);

  ErrorStyle style() const { return style_; }
  // A refusal of what the user asked: the status line, the log and, in Dialog style, a modal box.
  void showError(const QString& title, const QString& message);
  // For what the frame side reports while the window runs (a failed kernel
  // build, a recording the feed had to stop): a status line and, in Dialog
  // style, a message box that does not block the frame loop, with the build
  // log or other detail under "Show Details".
  void notify(const QString& title, const QString& message, const QString& detail = {});
  // For what the picture's card already shows and the frame loop logs (a
  // source that did not open, a picture that stopped): the status line, no dialog.
  void report(const QString& message, const QString& detail = {});
  void say(const QString& message, int timeoutMs = 0);  // the status line alone
  const QString& lastError() const { return lastError_; }
  // Says what the frame side reported since the last tick, each thing once.
  void update();

 signals:
  void feedErrorChanged();  // a kernel failed to build or a variant refused the mask: the engine dock greys it
  void modelDecided();      // the model changed something by itself (a variant gave way to auto)

 private:
  void updateFeedError();

  QMainWindow& window_;
  FrameLoop& loop_;
  const ViewerModel& model_;
  ErrorStyle style_;
  QString lastError_, shownFeedError_, shownSourceMessage_, shownFailure_;
  std::uint64_t shownNotices_ = 0, shownSeekRefusals_ = 0;
};

}  // namespace liveconv::ui
