#include "qt/shell_settings.hpp"

#include <exception>

#include "liveconv/mask_file.hpp"
#include "liveconv/variants.hpp"

namespace liveconv::ui {

void saveShellSettings(QSettings& s, const ViewerModel& model, const ShellSettings& shell) {
  s.setValue("source", QString::fromStdString(model.source()));
  s.setValue("filter/mask", QString::fromStdString(maskToJson(model.mask())));
  s.setValue("filter/variant", variantInfo(model.variant()).name);
  s.setValue("filter/border", toString(model.border()));
  s.setValue("filter/format", toString(model.format()));
  s.setValue("device", model.deviceIndex());
  s.setValue("recentFiles", shell.recentFiles);
  s.setValue("window/geometry", shell.geometry);
  s.setValue("window/state", shell.windowState);
  s.sync();
}

ShellSettings loadShellSettings(QSettings& s, ViewerModel& model) {
  if (s.contains("filter/mask")) {
    try {
      model.setMask(parseMaskJson(s.value("filter/mask").toString().toStdString()));
    } catch (const std::exception&) {
      // A mask the settings file garbled: keep the default rather than refuse to start.
    }
  }
  if (const VariantInfo* v = findVariant(s.value("filter/variant").toString().toStdString())) model.setVariant(v->id);
  const BorderMode border = parseBorderMode(s.value("filter/border").toString().toStdString());
  if (border != BorderMode::Invalid) model.setBorder(border);
  const PixelFormat format = parsePixelFormat(s.value("filter/format").toString().toStdString());
  if (format != PixelFormat::Invalid) model.setFormat(format);
  if (s.contains("device")) model.setDevice(s.value("device").toInt());
  ShellSettings shell;
  shell.source = s.value("source").toString();
  shell.recentFiles = s.value("recentFiles").toStringList();
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
