// What the Qt shell remembers between runs, through QSettings: the last
// source, the mask (as the same JSON as mask files), variant, device, border,
// pixel format, alpha, workgroup shape, recent files and the window layout. Reading applies each
// value through the model's commands, so a stale or broken entry is dropped
// the same way a bad edit would be, never half-applied.
#pragma once

#include <QByteArray>
#include <QSettings>
#include <QStringList>

#include "model/viewer_model.hpp"

namespace liveconv::ui {

struct ShellSettings {
  QString source;                    // empty: the test source
  int device = -1;                   // the device index that played; -1: the default
  QStringList recentFiles;           // newest first
  bool saveResponseWithMask = false;  // Save Mask writes NAME.response.png beside it
  QByteArray geometry, windowState;  // QMainWindow::saveGeometry()/saveState()
};

void saveShellSettings(QSettings& settings, const ViewerModel& model, const ShellSettings& shell);
// Applies the filter parameters to `model` and returns the rest.
ShellSettings loadShellSettings(QSettings& settings, ViewerModel& model);

constexpr int kMaxRecentFiles = 8;
void addRecentFile(QStringList& recent, const QString& path);

}  // namespace liveconv::ui
