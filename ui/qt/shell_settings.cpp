#include "qt/shell_settings.hpp"

#include <exception>

#include "liveconv/mask_file.hpp"
#include "liveconv/variants.hpp"

namespace liveconv::ui {

void saveShellSettings(QSettings& s, const ViewerModel& model, const ShellSettings& shell) {
  s.setValue("source", shell.source);
  s.setValue("filter/mask", QString::fromStdString(maskToJson(model.mask())));
  s.setValue("filter/variant", variantInfo(model.variant()).name);
  s.setValue("filter/border", toString(model.border()));
  s.setValue("filter/format", toString(model.format()));
  s.setValue("filter/alpha", model.alpha() == AlphaMode::Filter ? "filter" : "copy");
  s.setValue("filter/workgroup", QString("%1x%2").arg(model.workgroup().x).arg(model.workgroup().y));
  s.setValue("device", shell.device);
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
  const QString alpha = s.value("filter/alpha").toString();
  if (alpha == "filter" || alpha == "copy")
    model.setAlpha(alpha == "filter" ? AlphaMode::Filter : AlphaMode::PassThrough);
  // "0x0" is the variant's default; anything else must be two positive numbers.
  const QStringList wg = s.value("filter/workgroup").toString().split('x');
  bool okX = false, okY = false;
  const int wgX = wg.size() == 2 ? wg[0].toInt(&okX) : 0, wgY = wg.size() == 2 ? wg[1].toInt(&okY) : 0;
  if (okX && okY && wgX >= 0 && wgY >= 0 && (wgX == 0) == (wgY == 0)) model.setWorkgroup({wgX, wgY});
  if (s.contains("device")) model.setDevice(s.value("device").toInt());
  ShellSettings shell;
  shell.source = s.value("source").toString();
  shell.device = model.deviceIndex();
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
