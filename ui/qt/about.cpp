#include "qt/about.hpp"

#include <QOpenGLContext>
#include <QtGlobal>
#include <exception>

#include "liveconv/device.hpp"

#ifndef LIVECONV_AVFORMAT_VERSION
#define LIVECONV_AVFORMAT_VERSION ""  // the build has no FFmpeg (LIVECONV_WITH_MEDIA=OFF)
#endif

namespace liveconv::ui {

QString aboutText(const FrameStats& stats, const std::string& deviceSelector) {
  QString platform = "none found", device = "none";
  const std::vector<DeviceInfo> devices = enumerateDevices();
  try {
    const DeviceInfo d = selectDevice(deviceSelector, devices);
    platform = QString::fromStdString(d.platformName);
    device = QString::fromStdString(d.name) +
             QString(" (%1, driver %2)")
                 .arg(QString::fromStdString(d.deviceVersion), QString::fromStdString(d.driverVersion));
  } catch (const std::exception& e) {
    platform = QString::fromStdString(e.what());
  }
  const QString ffmpeg =
      *LIVECONV_AVFORMAT_VERSION ? QString("libavformat ") + LIVECONV_AVFORMAT_VERSION : QString("not in this build");
  return QString(
             "<h3>liveconv %1</h3><p>Real-time 2-D convolution of video with OpenCL.</p>"
             "<table><tr><td>OpenCL platform&nbsp;</td><td>%2</td></tr>"
             "<tr><td>OpenCL device</td><td>%3</td></tr>"
             "<tr><td>Display</td><td>%4</td></tr>"
             "<tr><td>FFmpeg</td><td>%5</td></tr>"
             "<tr><td>Qt</td><td>%6 (built with %7)</td></tr></table>")
      .arg(LIVECONV_VERSION, platform, device,
           stats.displayPathText.empty() ? QString("-") : QString::fromStdString(stats.displayPathText), ffmpeg, qVersion(),
           QT_VERSION_STR);
}

}  // namespace liveconv::ui
