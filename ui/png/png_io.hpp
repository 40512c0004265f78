// PNG files through libpng: the viewer's screenshots and the test that reads them back.
#pragma once

#include <string>

#include "liveconv/image.hpp"
#include "model/response_figure.hpp"

namespace liveconv::ui {

// Writes an RGBA or gray image, 8 or 16 bits a sample (a 16-bit PNG; rows top
// first). Returns an empty string, or why it failed.
std::string writePng(const std::string& path, const ImageView& rgba);

// Reads any 8-bit PNG as RGBA8. Returns an empty string, or why it failed.
std::string readPng(const std::string& path, Image* rgba);

// The mask's frequency response as a picture (responseImage) at `path`, the
// file both windows write beside a mask file when asked. Returns "" or why not.
std::string writeResponsePng(const std::string& path, const ResponseFigure& figure);

}  // namespace liveconv::ui
