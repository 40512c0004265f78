// liveconv-qt: the Qt 6 desktop shell (also `liveconv --ui qt`).
// --help and --version answer before Qt starts, so they work without a display.
#include <QApplication>
#include <QSettings>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

#include "gl/interop_policy.hpp"
#include "qt/main_window.hpp"

namespace {

const char* kUsage =
    "usage: liveconv-qt [--display-path auto|interop|readback] [--source] [SOURCE]\n"
    "                   [Qt options such as -platform NAME]\n"
    "\n"
    "  SOURCE              a video file or URL, lavfi:GRAPH, camera:N[:WxH][@FPS], /dev/videoN,\n"
    "                      synthetic:WxH, testpattern[:WxH]; without it, the source of the last run\n";

const char* kUsageSettings =
    "\n"
    "Settings (mask, variant, device, border, format, window layout) are kept in\n"
    "~/.config/liveconv/liveconv-qt.conf. The device: Device menu, or $LIVECONV_DEVICE.\n";

bool hasDisplay() {
  for (const char* var : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
    if (const char* v = std::getenv(var); v && *v) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  using liveconv::ui::DisplayPathRequest;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      std::cout << kUsage << liveconv::ui::displayPathOptionHelp() << kUsageSettings;
      return 0;
    }
    if (!std::strcmp(argv[i], "--version")) {
      std::cout << "liveconv-qt " LIVECONV_VERSION " (Qt " QT_VERSION_STR ")\n";
      return 0;
    }
  }
  // --display-path is taken out here, as the viewer parses it, so Qt never sees it.
  DisplayPathRequest displayPath = DisplayPathRequest::Auto;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--display-path")) {
      rest.push_back(argv[i]);
      continue;
    }
    const std::string why = liveconv::ui::parseDisplayPathOption(i + 1 < argc ? argv[++i] : nullptr, &displayPath);
    if (!why.empty()) {
      std::cerr << "liveconv-qt: " << why << "\n";
      return 2;
    }
  }
  argc = static_cast<int>(rest.size());
  rest.push_back(nullptr);
  argv = rest.data();
  // Qt would abort with its own message; say it in one sentence instead, before QApplication.
  bool platformArg = false;
  for (int i = 1; i < argc; ++i) platformArg = platformArg || !std::strcmp(argv[i], "-platform");
  if (!platformArg && !hasDisplay()) {
    std::cerr << "liveconv-qt: no display ($DISPLAY and $WAYLAND_DISPLAY are empty); run it in a desktop session, "
                 "or use `liveconv run` for filtering without a window.\n";
    return 1;
  }

  QApplication app(argc, argv);
  QApplication::setOrganizationName("liveconv");
  QApplication::setApplicationName("liveconv-qt");
  QApplication::setApplicationVersion(LIVECONV_VERSION);
  // Qt has taken its own options out of arguments() by now.
  QStringList args = QApplication::arguments().mid(1);
  if (!args.isEmpty() && args.front() == "--source") args.removeFirst();
  if (args.size() > 1 || (!args.isEmpty() && args.front().startsWith("--"))) {
    std::cerr << "liveconv-qt: unexpected argument " << args.back().toStdString() << " (see --help).\n";
    return 2;
  }
  QSettings settings;
  liveconv::ui::MainWindow window(settings);
  window.setDisplayPath(displayPath);
  if (!args.isEmpty()) window.openSource(args.front());
  window.show();
  window.setRunning(true);
  return app.exec();
}
