#include "gl/frame_capture.hpp"

#include <ctime>

#include "gl/gl.hpp"
#include "png/png_io.hpp"

namespace liveconv::ui {

void readGlPixelBuffer(std::uint32_t buffer, const ImageView& dst) {
  const std::size_t rowBytes = dst.rowBytes();
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
  if (dst.strideBytes == rowBytes) {
    glGetBufferSubData(GL_PIXEL_UNPACK_BUFFER, 0, static_cast<GLsizeiptr>(rowBytes * dst.height), dst.data);
  } else {
    for (int y = 0; y < dst.height; ++y)
      glGetBufferSubData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLintptr>(rowBytes * y), static_cast<GLsizeiptr>(rowBytes),
                         dst.row(y));
  }
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
}

std::string saveFilteredFrame(const FeedFrame& frame, const std::string& path) {
  if (!frame.hasPicture()) return "There is no filtered frame to save yet.";
  const ImageView& shape = frame.filtered;
  std::string error;
  if (shape.data) {
    error = writePng(path, shape);
  } else {  // zero-copy: the pixels are only in the GL pixel buffer
    Image pixels(shape.width, shape.height, shape.format);
    readGlPixelBuffer(frame.glPixelBuffer, pixels.view());
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
