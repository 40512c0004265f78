// File > Open Camera: the cameras of `liveconv cameras` (the media library's
// enumeration, media::listCameras) as a tree of device -> format -> size.
// Picking a device or a format opens camera:N at its default size; picking a
// size opens camera:N:WxH. With no camera the dialog says so in the
// enumeration's own sentence and offers nothing to open.
#pragma once

#include <QDialog>

#include "liveconv/media/cameras.hpp"

class QDialogButtonBox;
class QLabel;
class QTreeWidget;

namespace liveconv::ui {

// The cameras on this machine (media::listCameras); without the media library
// in the build, an empty list whose message says so.
media::CameraList enumerateCameras();

class CameraDialog : public QDialog {
  Q_OBJECT
 public:
  CameraDialog(const media::CameraList& cameras, QWidget* parent = nullptr);
  // The source spec of the selected row; empty when nothing that opens is selected.
  QString selectedSpec() const;
  QTreeWidget* tree() const { return tree_; }
  QLabel* messageLabel() const { return message_; }
  bool canOpen() const;

 private:
  void selectionChanged();

  QLabel* message_ = nullptr;
  QTreeWidget* tree_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace liveconv::ui
