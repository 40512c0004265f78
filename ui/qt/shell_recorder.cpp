#include "qt/shell_recorder.hpp"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>

#include "feed/frame_loop.hpp"
#include "qt/alerts.hpp"

namespace liveconv::ui {

namespace {
// The extension picks the container and encoder, as for `liveconv run -o`.
const char* kRecordFilter =
    "FFV1 in Matroska, lossless (*.mkv);;H.264 in MP4 (*.mp4);;Raw frames back to back (*.rgba *.gray);;All files (*)";
}  // namespace

ShellRecorder::ShellRecorder(QMainWindow& window, FrameLoop& loop, Alerts& alerts, QSettings& settings)
    : QObject(&window), window_(window), loop_(loop), alerts_(alerts), settings_(settings) {
  label_ = new QLabel;
  label_->setStyleSheet("QLabel { color: #d03a2f; font-weight: bold; }");
  label_->hide();
}

void ShellRecorder::addTo(QMenu* file) {
  action_ = file->addAction("&Record Output…", this, &ShellRecorder::toggle);
  action_->setShortcut(QKeySequence("Ctrl+R"));
}

void ShellRecorder::toggle() {
  if (loop_.recordings().active()) {
    stop();
    return;
  }
  if (const std::string why = loop_.recordings().whyNot(); !why.empty()) {  // say so before asking for a name
    alerts_.showError("Cannot record", QString::fromStdString(why));
    return;
  }
  // The folder of the last recording, else the working directory.
  const QString folder = settings_.value("recordFolder", QDir::currentPath()).toString();
  QFileDialog dialog(&window_, "Record the filtered output", folder + "/liveconv-recording.mkv", kRecordFilter);
  dialog.setAcceptMode(QFileDialog::AcceptSave);
  dialog.setDefaultSuffix("mkv");
  if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty()) {
    settings_.setValue("recordFolder", QFileInfo(dialog.selectedFiles().front()).absolutePath());
    start(dialog.selectedFiles().front());
  }
}

bool ShellRecorder::start(const QString& path) {
  // The save dialog asked before it gave a name that is there (QFileDialog's confirm overwrite).
  const std::string error = loop_.recordings().start(path.toStdString(), true);
  if (!error.empty()) {
    alerts_.showError("Cannot record", QString::fromStdString(error));
    return false;
  }
  update();
  alerts_.say("Recording to " + path, 4000);
  return true;
}

void ShellRecorder::stop() {
  loop_.recordings().stop();
  update();
}

// The indicator while recording; once a recording is finished (by the user, a
// source change, or the feed on a write error), one line saying what was written.
void ShellRecorder::update() {
  if (loop_.recordings().active()) {
    const int seconds = static_cast<int>(loop_.recordings().seconds());
    label_->setText(QString("● REC %1:%2  ·  %3 frames  ·  %4")
                        .arg(seconds / 60)
                        .arg(seconds % 60, 2, 10, QChar('0'))
                        .arg(loop_.stats().recordedFrames)
                        .arg(QFileInfo(QString::fromStdString(loop_.recordings().path())).fileName()));
    label_->setToolTip(QString::fromStdString(loop_.recordings().path()));
    label_->show();
  } else if (const std::string finishing = loop_.recordings().finishingPath(); !finishing.empty()) {
    label_->setText("Finishing " + QFileInfo(QString::fromStdString(finishing)).fileName() + " …");
    label_->setToolTip(QString::fromStdString(finishing));
    label_->show();
  } else {
    label_->hide();
  }
  if (action_) {
    action_->setText(loop_.recordings().active() ? "Stop &Recording" : "&Record Output…");
    const std::string why = loop_.recordings().active() ? std::string() : loop_.recordings().whyNot();
    action_->setEnabled(why.empty());  // greyed, with the reason, where recording cannot work
    action_->setStatusTip(QString::fromStdString(why));
    action_->setToolTip(why.empty() ? action_->text() : QString::fromStdString(why));
  }
  if (loop_.recordings().finished() == reported_) return;
  reported_ = loop_.recordings().finished();
  const FrameLoop::Recording& r = loop_.recordings().last();
  const QString what =
      QString("%1 frames (%2 s) to %3").arg(r.frames).arg(r.seconds, 0, 'f', 1).arg(QString::fromStdString(r.path));
  if (!r.complete)
    alerts_.notify("Recording failed", QString::fromStdString(r.stoppedBy),
                   "Nothing was kept under " + QString::fromStdString(r.path) +
                       ": what had been written was discarded, and a file that was there before keeps its old "
                       "contents.");
  else if (r.stoppedBy.empty() || r.stoppedBy == loop_.failure())  // a failure has a box of its own
    alerts_.say("Recorded " + what, 10000);
  else
    alerts_.notify("Recording stopped", QString::fromStdString(r.stoppedBy), "What was written so far: " + what + ".");
}

}  // namespace liveconv::ui
