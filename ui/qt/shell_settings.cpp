#include "qt/shell_settings.hpp"

#include <exception>

#include "liveconv/parameters.hpp"
#include "model/start_params.hpp"

namespace liveconv::ui {

namespace {
// The filter's parameters as the settings keep them: the table's Filter rows
// (liveconv/parameters.hpp), each under its key, spelled as its flag takes it
// (the mask as JSON, nothing lost); the device is the model's index, which is
// also a selector (`--device N`).
bool keptAsText(const ParamDescription& d) {
  return d.group == ParamGroup::Filter && *d.settingsKey;  // --kernel-file is given each time, not kept
}
}  // namespace

void saveShellSettings(QSettings& s, const ViewerModel& model, const ShellSettings& shell) {
  s.setValue("source", shell.source);
  ParamValues values;
  values.filter = model.filter();
  values.format = model.format();
  for (const ParamDescription& d : paramDescriptions())
    if (keptAsText(d)) s.setValue(d.settingsKey, QString::fromStdString(paramText(values, d.id)));
  s.setValue(paramDescription(ParamId::Device).settingsKey, shell.device);
  s.setValue("recentFiles", shell.recentFiles);
  s.setValue("saveResponseWithMask", shell.saveResponseWithMask);
  s.setValue("window/geometry", shell.geometry);
  s.setValue("window/state", shell.windowState);
  s.sync();
}

ShellSettings loadShellSettings(QSettings& s, ViewerModel& model) {
  StartParams kept;
  for (const ParamDescription& d : paramDescriptions()) {
    if (!keptAsText(d) || !s.contains(d.settingsKey)) continue;
    try {
      setParam(kept.values, d.id, s.value(d.settingsKey).toString().toStdString());
      kept.given.push_back(d.id);
    } catch (const std::exception&) {
      // A value the settings file garbled: keep the default rather than refuse to start.
    }
  }
  applyStartParams(kept, model);
  if (const char* key = paramDescription(ParamId::Device).settingsKey; s.contains(key))
    model.setDevice(s.value(key).toInt());
  ShellSettings shell;
  shell.source = s.value("source").toString();
  shell.device = model.deviceIndex();
  shell.recentFiles = s.value("recentFiles").toStringList();
  shell.saveResponseWithMask = s.value("saveResponseWithMask", false).toBool();
  shell.geometry = s.value("window/geometry").toByteArray();
  shell.windowState = s.value("window/state").toByteArray();
  return shell;
}

void addRecentFile(QStringList& recent, const QString& path) {
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > kMaxRecentFiles) recent.removeLast();
}

}  // namespace liveconv::ui
