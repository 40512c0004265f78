#include "qt/shell_requests.hpp"

#include <QMainWindow>
#include <QPainter>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <stdexcept>

#include "feed/frame_loop.hpp"
#include "gl/frame_capture.hpp"
#include "liveconv/mask_file.hpp"
#include "liveconv/media/staged_output.hpp"
#include "png/png_io.hpp"
#include "qt/alerts.hpp"
#include "qt/shell_settings.hpp"
#include "qt/viewport.hpp"

namespace liveconv::ui {

// A key's or script line's command that belongs to the window itself.
void ShellRequests::run(const ShellRequest& r) {
  const QString path = QString::fromStdString(r.path);
  switch (r.command) {
    case Command::SaveFrame:
      saveFrame(path.isEmpty() ? QString::fromStdString(timestampedPngName("liveconv-frame")) : path);
      break;
    case Command::SaveWindow:
      saveScreenshot(path.isEmpty() ? QString::fromStdString(timestampedPngName("liveconv-window")) : path);
      break;
    case Command::ToggleFullscreen:
      emit fullScreenToggleAsked();
      break;
    case Command::Quit:
      window_.close();
      break;
    default:
      break;
  }
}

void ShellRequests::setFullScreen(bool on) {
  model_.view().fullscreen = on;
  if (on)
    window_.showFullScreen();
  else
    window_.showNormal();
}

bool ShellRequests::loadMask(const QString& path) {
  try {
    // A mask that parses but cannot run (even size, zero divisor) is refused by the model with its sentence.
    const Mask mask = loadMaskFile(path.toStdString());
    const std::string invalid = mask.validationError();
    if (!invalid.empty()) throw std::runtime_error(path.toStdString() + ": " + invalid);
    model_.setMask(mask);
  } catch (const std::exception& e) {
    alerts_.showError("Cannot load mask",
                      QString::fromStdString(e.what()));  // the parser's sentence names line and column
    return false;
  }
  emit maskLoaded();
  alerts_.say("Loaded mask " + path, 4000);
  return true;
}

bool ShellRequests::saveMask(const QString& path) {
  if (std::string error; !model_.saveMask(path.toStdString(), &error)) {
    alerts_.showError("Cannot save mask", QString::fromStdString(error));
    return false;
  }
  if (shell_.saveResponseWithMask) {
    const std::string png = responsePathFor(path.toStdString());
    const std::string error = writeResponsePng(png, model_.responseFigure());
    if (!error.empty()) {
      alerts_.showError("Cannot save the frequency response", QString::fromStdString(error));
      return false;
    }
    alerts_.say("Saved mask " + path + " and its frequency response " + QString::fromStdString(png), 4000);
    return true;
  }
  alerts_.say("Saved mask " + path, 4000);
  return true;
}

bool ShellRequests::saveScreenshot(const QString& path) {
  // The window as a person sees it (menus, docks, status bar), as the viewer
  // saves its own: the widgets, and the picture, a GL window of its own that
  // a widget grab leaves out, drawn where it sits.
  const QImage picture = viewport_->grabPicture();
  if (picture.isNull()) {
    alerts_.showError("Cannot save screenshot", "The picture is not on screen (the window is hidden or minimised).");
    return false;
  }
  QImage image = window_.grab().toImage();
  const QPoint at = window_.centralWidget()->mapTo(&window_, QPoint(0, 0));
  QPainter(&image).drawImage(at, picture);
  // Whole or not at all (staged, as every file liveconv writes): a full disk keeps an older picture as it was.
  const std::string error = media::writeStaged(path.toStdString(), [&](const std::string& to) -> std::string {
    errno = 0;
    if (image.save(QString::fromStdString(to), "PNG")) return "";
    return "Could not write " + path.toStdString() +
           (errno ? std::string(": ") + std::strerror(errno) : std::string()) + ".";
  });
  if (!error.empty()) {
    alerts_.showError("Cannot save screenshot", QString::fromStdString(error));
    return false;
  }
  alerts_.say("Saved the window as " + path, 4000);
  loop_.log().message("notice", ("Saved the window as " + path).toStdString(), loop_.framesShown());
  loop_.log().wrote(path.toStdString());
  if (qgetenv("LIVECONV_SCREENSHOT_LAYOUT") == "1") writeLayout(path, at, picture.size());
  return true;
}

// Where the GL view (the central widget), the picture and its overlay are
// in the file, for the window tests alone ($LIVECONV_SCREENSHOT_LAYOUT=1),
// as the viewer writes its own.
void ShellRequests::writeLayout(const QString& path, QPoint at, QSize picture) const {
  const qreal dpr = window_.devicePixelRatioF();
  const int x0 = qRound(at.x() * dpr), y0 = qRound(at.y() * dpr);
  const FbRect& p = viewport_->lastPainted().picture;
  const FbRect& o = viewport_->lastPainted().overlay;
  std::ofstream(path.toStdString() + ".layout")
      << "view " << x0 << " " << y0 << " " << picture.width() << " " << picture.height() << "\npicture " << x0 + p.x
      << " " << y0 + p.y << " " << p.width << " " << p.height << "\noverlay " << x0 + o.x << " " << y0 + o.y << " "
      << o.width << " " << o.height << "\n";
}

bool ShellRequests::saveFrame(const QString& path) {
  viewport_->makeCurrent();  // a zero-copy frame is read from the GL pixel buffer
  const std::string error = saveFilteredFrame(loop_.frame(), path.toStdString());
  viewport_->doneCurrent();
  if (!error.empty()) {
    alerts_.showError("Cannot save the frame", QString::fromStdString(error));
    return false;
  }
  const ImageView& f = loop_.frame().filtered;
  const QString said = QString("Saved the frame (%1x%2) as %3").arg(f.width).arg(f.height).arg(path);
  alerts_.say(said, 4000);
  loop_.log().message("notice", said.toStdString(), loop_.framesShown());
  loop_.log().wrote(path.toStdString());
  return true;
}

}  // namespace liveconv::ui
