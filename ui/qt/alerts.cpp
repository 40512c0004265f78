#include "qt/alerts.hpp"

#include <QMainWindow>
#include <QMessageBox>
#include <QStatusBar>

#include "feed/frame_loop.hpp"
#include "model/viewer_model.hpp"

namespace liveconv::ui {

Alerts::Alerts(QMainWindow& window, FrameLoop& loop, const ViewerModel& model, ErrorStyle style)
    : QObject(&window), window_(window), loop_(loop), model_(model), style_(style) {}

void Alerts::say(const QString& message, int timeoutMs) {
  window_.statusBar()->showMessage(message, timeoutMs);
}

void Alerts::showError(const QString& title, const QString& message) {
  lastError_ = message;
  loop_.log().message("error", (title + ": " + message.section('\n', 0, 0)).toStdString(), loop_.framesShown());
  say(title + ": " + message.section('\n', 0, 0), 15000);
  if (style_ == ErrorStyle::Dialog) QMessageBox::warning(&window_, title, message);
}

void Alerts::report(const QString& message, const QString& detail) {
  lastError_ = detail.isEmpty() ? message : message + "\n" + detail;
  say(message.section('\n', 0, 0), 20000);  // the frame loop has logged it
}

void Alerts::notify(const QString& title, const QString& message, const QString& detail) {
  lastError_ = detail.isEmpty() ? message : message + "\n" + detail;
  loop_.log().message("error", (title + ": " + message.section('\n', 0, 0)).toStdString(), loop_.framesShown());
  say(title + ": " + message.section('\n', 0, 0), 20000);
  if (style_ != ErrorStyle::Dialog) return;
  auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, &window_);
  box->setAttribute(Qt::WA_DeleteOnClose);
  if (!detail.isEmpty()) box->setDetailedText(detail);
  box->open();  // not exec(): the frame loop keeps running, the previous parameters keep filtering
}

void Alerts::update() {
  const FrameStats& s = loop_.stats();
  if (loop_.seekRefusals() != shownSeekRefusals_) {
    shownSeekRefusals_ = loop_.seekRefusals();
    say("This source cannot seek (a live or generated source).", 4000);
  }
  updateFeedError();
  // The model decided something by itself (a variant gave way to auto): the status line says it.
  if (model_.notices() != shownNotices_) {
    shownNotices_ = model_.notices();
    say(QString::fromStdString(model_.notice()), 10000);
    emit modelDecided();
  }
  // The feed itself failed (a device lost): once, on the picture and in the log; the window keeps the last picture.
  const QString failure = QString::fromStdString(loop_.failure());
  if (failure != shownFailure_) {
    shownFailure_ = failure;
    QString detail =
        "The mask and the settings are kept. Open a source again, or pick another device in the Device menu.";
    const FrameLoop::Recording& r = loop_.recordings().last();
    if (!r.path.empty() && r.complete && r.stoppedBy == loop_.failure())
      detail +=
          QString("\nThe recording was finished: %1 frames in %2.").arg(r.frames).arg(QString::fromStdString(r.path));
    if (!failure.isEmpty()) report("The picture stopped: " + failure, detail);
  }
  // What the decoder or the pipeline said: the end of a clip, a file that
  // turned out not to decode, a device that stopped answering.
  const QString sourceMessage = QString::fromStdString(s.sourceMessage);
  if (sourceMessage != shownSourceMessage_) {
    shownSourceMessage_ = sourceMessage;
    if (!sourceMessage.isEmpty()) say(sourceMessage, 30000);
  }
}

// A kernel that failed to build or a variant that refused the mask: the
// previous parameters keep running; say so once, in the status line with the
// whole text in its tooltip, grey the variant in the dock, and for a build
// failure show the build log in a message box that does not stop the video.
void Alerts::updateFeedError() {
  const FrameStats& s = loop_.stats();
  const QString feedError = QString::fromStdString(s.error), log = QString::fromStdString(s.buildLog).trimmed();
  if (feedError + log == shownFeedError_) return;
  shownFeedError_ = feedError + log;
  if (feedError.isEmpty()) {
    window_.statusBar()->setToolTip({});
    return;
  }
  if (log.isEmpty()) {
    lastError_ = feedError;
    say(feedError, 20000);
  } else {
    notify("Kernel build failed", feedError + "\nThe previous parameters keep filtering.", "Build log:\n" + log);
  }
  window_.statusBar()->setToolTip(log.isEmpty() ? feedError : feedError + "\n" + log);
  emit feedErrorChanged();
}

}  // namespace liveconv::ui
