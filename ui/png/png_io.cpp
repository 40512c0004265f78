#include "png/png_io.hpp"

#include <png.h>

#include <cstdio>
#include <cstring>
#include <memory>

#include "liveconv/media/staged_output.hpp"

namespace liveconv::ui {

std::string writePng(const std::string& path, const ImageView& rgba) {
  if (rgba.format != PixelFormat::RGBA8 && rgba.format != PixelFormat::GRAY8)
    return "Screenshots are written from RGBA8 or GRAY8 pixels.";
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(rgba.width);
  png.height = static_cast<png_uint_32>(rgba.height);
  png.format = rgba.format == PixelFormat::GRAY8 ? PNG_FORMAT_GRAY : PNG_FORMAT_RGBA;
  // Fast settings (less compression): a screenshot is written on the UI
  // thread, and the default ones took 70-100 ms for a 1600x1000 window.
  png.flags = PNG_IMAGE_FLAG_FAST;
  // Whole or not at all (staged): a full disk keeps an older picture as it was.
  return media::writeStaged(path, [&](const std::string& to) -> std::string {
    if (!png_image_write_to_file(&png, to.c_str(), 0, rgba.data, static_cast<png_int_32>(rgba.strideBytes), nullptr))
      return "Cannot write " + path + ": " + png.message;
    return {};
  });
}

std::string writeResponsePng(const std::string& path, const ResponseFigure& figure) {
  if (figure.response.size == 0) return "The mask is not valid: there is no frequency response to save.";
  return writePng(path, responseImage(figure).view());
}

std::string readPng(const std::string& path, Image* rgba) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str())) return "Cannot read " + path + ": " + png.message;
  png.format = PNG_FORMAT_RGBA;
  Image out(static_cast<int>(png.width), static_cast<int>(png.height), PixelFormat::RGBA8);
  if (!png_image_finish_read(&png, nullptr, out.data(), 0, nullptr)) {
    std::string why = "Cannot decode " + path + ": " + png.message;
    png_image_free(&png);
    return why;
  }
  *rgba = std::move(out);
  return {};
}

}  // namespace liveconv::ui
