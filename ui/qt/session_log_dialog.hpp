// View > Messages: every message the window showed (the session log), newest
// first, since the cards on the picture and the status line go after a few
// seconds. Not modal: the picture goes on.
#pragma once

#include <QDialog>

namespace liveconv::ui {

class SessionLog;

class SessionLogDialog : public QDialog {
  Q_OBJECT
 public:
  SessionLogDialog(const SessionLog& log, QWidget* parent);
};

}  // namespace liveconv::ui
