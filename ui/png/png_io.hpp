// PNG files through libpng: the viewer's screenshots and the test that reads them back.
#pragma once

#include <string>

#include "liveconv/image.hpp"

namespace liveconv::ui {

// Writes an RGBA8 or GRAY8 image (rows top first). Returns an empty string, or why it failed.
std::string writePng(const std::string& path, const ImageView& rgba);

// Reads any 8-bit PNG as RGBA8. Returns an empty string, or why it failed.
std::string readPng(const std::string& path, Image* rgba);

}  // namespace liveconv::ui
