#include "qt/source_opener.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QPushButton>
#include <QTimer>
#include <chrono>
#include <iostream>

#include "feed/frame_loop.hpp"
#include "liveconv/media/generated_sources.hpp"
#include "qt/alerts.hpp"
#include "qt/camera_dialog.hpp"
#include "qt/viewport.hpp"

namespace liveconv::ui {

namespace {
constexpr const char* kTestSource = "testpattern";
const char* kVideoFilter = "Video (*.mp4 *.mkv *.mov *.avi *.webm *.y4m *.ts);;All files (*)";
}  // namespace

SourceOpener::SourceOpener(const ShellContext& context) : ShellPart(context) {
  cancel_ = new QPushButton("Cancel");
  cancel_->setToolTip("Stop opening this source (Esc); the one playing stays");
  connect(cancel_, &QPushButton::clicked, this, [this] { loop_.cancelOpen(); });
  cancel_->hide();
}

void SourceOpener::addTo(QMenu* file) {
  QAction* open = file->addAction("&Open Video…", this, [this] {
    const QString path = QFileDialog::getOpenFileName(&window_, "Open video", QDir::homePath(), kVideoFilter);
    if (!path.isEmpty()) this->open(path);
  });
  open->setShortcut(QKeySequence::Open);
  // The cameras `liveconv cameras` lists, with their formats and sizes.
  file->addAction("Open &Camera…", this, [this] { openCamera(); })->setShortcut(QKeySequence("Ctrl+Shift+C"));
  // Streams, devices and FFmpeg filter graphs as the CLI names them; the feed decides what it can play.
  file->addAction("Open S&tream or Device…", this,
                  [this] {
                    bool ok = false;
                    const QString spec = QInputDialog::getText(
                        &window_, "Open stream or device",
                        "Source (rtsp://…, lavfi:testsrc2, camera:0:640x480@30, /dev/video0):", QLineEdit::Normal,
                        "lavfi:testsrc2=size=1280x720:rate=30", &ok);
                    if (ok && !spec.trimmed().isEmpty()) this->open(spec.trimmed());
                  })
      ->setShortcut(QKeySequence("Ctrl+Shift+O"));
  recentMenu_ = file->addMenu("Open &Recent");
  rebuildRecentMenu();
  file->addAction("Open &Test Source", this, [this] { this->open("testpattern"); })
      ->setShortcut(QKeySequence("Ctrl+T"));
}

void SourceOpener::rebuildRecentMenu() {
  if (!recentMenu_) return;
  recentMenu_->clear();
  for (const QString& path : shell_.recentFiles)
    recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { open(path); })->setToolTip(path);
  recentMenu_->setEnabled(!shell_.recentFiles.isEmpty());
}

void SourceOpener::openCamera() {
  CameraDialog dialog(enumerateCameras(), &window_);
  if (dialog.exec() == QDialog::Accepted && dialog.canOpen()) open(dialog.selectedSpec());
}

bool SourceOpener::open(const QString& spec) {
  fallbackReason_.clear();
  // A path that looks like a local file but is not there fails here, before the
  // playing source is replaced (the decoder would only find out on its thread).
  // Used by hand, the open itself says it (a card on the picture, the status
  // line, as every failed open; no dialog), and what played plays on.
  int patternWidth = 0, patternHeight = 0;
  const bool special = spec.isEmpty() || spec == "-" || spec.contains(':') || spec.startsWith("/dev/") ||
                       media::parseTestPatternSpec(spec.toStdString(), &patternWidth, &patternHeight);
  if (alerts_.style() != ErrorStyle::Dialog && !special && !QFileInfo::exists(spec)) {
    alerts_.showError("Cannot open source", "Input " + spec + " does not exist.");
    return false;
  }
  loop_.open(spec.toStdString());  // on "lc-open"; the tick installs it, update() reports
  if (QFileInfo(spec).isFile()) {
    addRecentFile(shell_.recentFiles, QFileInfo(spec).absoluteFilePath());
    rebuildRecentMenu();
  }
  return true;
}

// What to do about what the picture says: with nothing playing for want of a
// set that runs or of a device, pick another; else open another source.
std::string SourceOpener::pictureHint() const {
  if (!loop_.running() && loop_.switcher().errorExitCode() == media::kExitNoDevice)
    return "Choose another device in the Device menu.";
  if (!loop_.running() && (loop_.switcher().errorExitCode() == media::kExitUnsupported ||
                           loop_.switcher().errorExitCode() == media::kExitBuildFailed))
    return "Pick another variant, mask or workgroup: the source opens again with it.";
  return "Open another source from the File menu.";
}

void SourceOpener::showPictureMessage() {
  // On the picture too, where the user looks, as in the viewer.
  viewport_->setMessage(!loop_.pictureMessage().empty() ? loop_.pictureMessage() : fallbackReason_, pictureHint());
}

// What the background open is doing: "opening ..." in the status line and on
// the picture while it runs, the new source's name once it plays, and why it
// failed (once) while the previous source plays on.
void SourceOpener::update() {
  const QString opening = QString::fromStdString(loop_.openingMessage());
  viewport_->setPending(loop_.openingMessage());
  if (opening != shownOpening_) {
    shownOpening_ = opening;
    if (!opening.isEmpty()) alerts_.say(opening[0].toUpper() + opening.mid(1));
    cancel_->setVisible(!opening.isEmpty());
  }
  if (loop_.feedsInstalled() != shownInstalls_) {
    shownInstalls_ = loop_.feedsInstalled();
    emit playingDeviceChanged();
    const QString spec = QString::fromStdString(loop_.playingSource());
    const QString name = QFileInfo(spec).fileName().isEmpty() ? spec : QFileInfo(spec).fileName();
    window_.setWindowTitle(QString("liveconv — %1").arg(name.isEmpty() ? QString("bundled clip") : name));
    alerts_.say("Playing " + (spec.isEmpty() ? QString("the bundled clip") : spec), 4000);
  }
  const QString openError = QString::fromStdString(loop_.openError());
  if (openError != shownOpenError_) {
    shownOpenError_ = openError;
    if (openError.isEmpty()) return;
    emit playingDeviceChanged();  // a failed switch: the tick goes back to the device that plays on
    openFailed(openError);
  }
}

void SourceOpener::openFailed(const QString& openError) {
  const media::ExitCode code = loop_.switcher().errorExitCode();
  if (!loop_.running() && model_.source() != kTestSource && code == media::kExitInputFailed) {
    // Nothing played yet (the asked source, or the last run's, cannot open).
    if (quitWhenNothingCanPlay_) {  // nobody watches: the input's exit code, as `liveconv run` and the viewer
      std::cerr << "liveconv-qt: " << openError.toStdString() << "\n";
      QCoreApplication::exit(code);
      return;
    }
    // Say why (on the picture for a few seconds, and in the log), show the test source.
    alerts_.report(openError, "The test source plays instead.");
    open(kTestSource);
    fallbackReason_ = openError.toStdString();
    QTimer::singleShot(std::chrono::milliseconds(FrameLoop::kCardSeconds), this, [this, shown = fallbackReason_] {
      if (fallbackReason_ == shown) fallbackReason_.clear();
    });
  } else if (!loop_.running()) {
    // No device, or a set that cannot run here: the test source would fail alike.
    const std::string& log = loop_.switcher().errorBuildLog();
    alerts_.report(openError, QString::fromStdString(pictureHint() + (log.empty() ? "" : "\n\n" + log)));
    // Unless a newer set is on its way (the switcher opens the source again with it).
    const bool newerSet = code != media::kExitNoDevice && loop_.switcher().refusedVersion() != model_.version();
    if (quitWhenNothingCanPlay_ && !newerSet) {
      std::cerr << "liveconv-qt: " << openError.toStdString() << "\n" << (log.empty() ? "" : log + "\n");
      QCoreApplication::exit(code);
    }
  } else {
    alerts_.report(openError, "The previous source plays on.");
  }
}

}  // namespace liveconv::ui
