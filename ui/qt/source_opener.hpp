// Opening sources: the File menu's open actions and their dialogs (a video, a
// camera, a stream or device, a recent file, the test source), "opening ..."
// with Cancel while the loop opens in the background, the window's title once
// the new source plays, and why an open failed, with the test source in its
// place when nothing played yet.
#pragma once

#include <QObject>
#include <QString>
#include <cstdint>
#include <string>

#include "qt/shell_part.hpp"
#include "qt/shell_settings.hpp"

class QMenu;
class QPushButton;

namespace liveconv::ui {

class SourceOpener : public ShellPart {
  Q_OBJECT
 public:
  explicit SourceOpener(const ShellContext& context);

  // Any source spec or a file path. A local file that is not there is refused
  // at once (false, with the message); anything else opens in the background
  // (the status line says "opening ..."), and a failure is reported by a later
  // update() while the playing source plays on.
  bool open(const QString& spec);
  void openCamera();                                     // the camera dialog, then open()
  void addTo(QMenu* file);                               // Open Video, Camera, Stream or Device, Recent, Test Source
  QPushButton* cancelButton() const { return cancel_; }  // beside "Opening ..." in the status bar
  // A scripted run, where nobody picks another variant, device or source:
  // when nothing plays and nothing can (no device, a set that cannot run here,
  // a first source that does not open), the application exits with `liveconv
  // run`'s code for it, the sentence on stderr.
  void setQuitWhenNothingCanPlay(bool on) { quitWhenNothingCanPlay_ = on; }
  void update();              // what the background open is doing, once a tick
  void showPictureMessage();  // the picture's card: what went wrong and what to do about it

 signals:
  void playingDeviceChanged();  // a source installed, or a switch that failed: the Device menu's tick follows

 private:
  void openFailed(const QString& openError);
  void rebuildRecentMenu();
  std::string pictureHint() const;

  QPushButton* cancel_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  bool quitWhenNothingCanPlay_ = false;
  QString shownOpening_, shownOpenError_;
  std::string fallbackReason_;  // why the test source plays instead of the one asked (on the picture for a few seconds)
  std::uint64_t shownInstalls_ = 0;
};

}  // namespace liveconv::ui
