#include "png/png_io.hpp"

#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>

#include "liveconv/media/staged_output.hpp"

namespace liveconv::ui {

namespace {

// A 16-bit frame (RGBA16, GRAY16) as a 16-bit PNG through libpng's full API
// (the simplified one takes 16 bits as linear light only, and would tag a
// video frame's gamma-coded samples so): big-endian samples, as PNG stores them.
std::string writePng16(const std::string& path, const ImageView& image) {
  return media::writeStaged(path, [&](const std::string& to) -> std::string {
    std::FILE* file = std::fopen(to.c_str(), "wb");
    if (!file) return "Cannot write " + path + ": " + std::strerror(errno) + ".";
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    std::string error;
    if (!info) {
      error = "Cannot write " + path + ": libpng could not start.";
    } else if (setjmp(png_jmpbuf(png))) {
      error = "Cannot write " + path + ": libpng failed (a full disk?).";
    } else {
      png_init_io(png, file);
      png_set_compression_level(png, 1);  // fast, as the 8-bit screenshots
      const int type = channelCount(image.format) == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGBA;
      png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), 16, type,
                   PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
      png_write_info(png, info);
      const std::uint16_t probe = 1;
      if (*reinterpret_cast<const std::uint8_t*>(&probe) == 1) png_set_swap(png);  // the host's order is little-endian
      for (int y = 0; y < image.height; ++y) png_write_row(png, image.row(y));
      png_write_end(png, nullptr);
    }
    png_destroy_write_struct(&png, &info);
    if (std::fclose(file) != 0 && error.empty()) error = "Cannot write " + path + ": " + std::strerror(errno) + ".";
    return error;
  });
}

}  // namespace

std::string writePng(const std::string& path, const ImageView& rgba) {
  if (bytesPerSample(rgba.format) == 2) return writePng16(path, rgba);
  if (rgba.format != PixelFormat::RGBA8 && rgba.format != PixelFormat::GRAY8)
    return "Screenshots are written from RGBA or gray pixels.";
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
