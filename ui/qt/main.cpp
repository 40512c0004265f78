// liveconv-qt: the Qt 6 desktop shell. Usage: liveconv-qt [SOURCE]
// SOURCE is a video file or "testpattern[:WxH]"; without it, the last one.
#include <QApplication>
#include <QSettings>

#include "qt/main_window.hpp"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("liveconv");
  QApplication::setApplicationName("liveconv-qt");
  QApplication::setApplicationVersion(LIVECONV_VERSION);
  QSettings settings;
  liveconv::ui::MainWindow window(settings);
  const QStringList args = QApplication::arguments();
  if (args.size() > 1) window.openSource(args.at(1));
  window.show();
  window.setRunning(true);
  return app.exec();
}
