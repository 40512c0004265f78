#include "gl/frame_capture.hpp"

#include <ctime>

#include "gl/gl.hpp"
#include "png/png_io.hpp"

namespace liveconv::ui {

std::string saveFilteredFrame(const FeedFrame& frame, const std::string& path) {
  if (!frame.hasPicture()) return "There is no filtered frame to save yet.";
  const ImageView& shape = frame.filtered;
  std::string error;
  if (shape.data) {
    error = writePng(path, shape);
  } else {  // zero-copy: the pixels are only in the GL pixel buffer
    Image pixels(shape.width, shape.height, shape.format);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, frame.glPixelBuffer);
    glGetBufferSubData(GL_PIXEL_UNPACK_BUFFER, 0, static_cast<GLsizeiptr>(pixels.sizeBytes()), pixels.data());
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    error = writePng(path, pixels.view());
  }
  return error;
}

std::string timestampedPngName(const char* prefix) {
  char name[80];
  const std::time_t now = std::time(nullptr);
  std::strftime(name, sizeof name, "-%Y%m%d-%H%M%S.png", std::localtime(&now));
  return std::string(prefix) + name;
}

}  // namespace liveconv::ui
