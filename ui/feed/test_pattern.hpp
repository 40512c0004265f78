// A deterministic moving test picture: the viewer's built-in source, and the
// frame the screenshot test regenerates to compute the expected result.
#pragma once

#include <cstdint>
#include <string>

#include "liveconv/image.hpp"

namespace liveconv::ui {

// Colour ramps, a checkerboard, thin lines and a bar that moves with frameIndex:
// edges in every direction so any mask shows its effect.
Image makeTestPattern(int width, int height, PixelFormat format, std::uint64_t frameIndex);

// "testpattern" or "testpattern:WxH"; false when the spec is not a test source.
bool parseTestPatternSpec(const std::string& spec, int* width, int* height);

}  // namespace liveconv::ui
