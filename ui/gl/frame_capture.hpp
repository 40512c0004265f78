// The filtered frame as it is, at its own size: what both windows' "save
// frame" (S) writes, with no window, overlay or letterbox around it. The
// pixels come from host memory (readback path) or, on the zero-copy path, from
// the GL pixel buffer the kernel wrote (the caller's GL context must be current).
#pragma once

#include <cstdint>
#include <string>

#include "feed/frame_feed.hpp"

namespace liveconv::ui {

// Copies the pixels of GL pixel buffer `buffer` (a filtered frame the kernel
// wrote on the zero-copy path) into `dst`, which has the frame's shape.
void readGlPixelBuffer(std::uint32_t buffer, const ImageView& dst);

// Writes the frame's filtered pixels as PNG (RGBA, or gray for a gray run).
// Returns an empty string, or one sentence saying why it could not.
std::string saveFilteredFrame(const FeedFrame& frame, const std::string& path);

// "liveconv-frame-20261123-183012.png": a name for a quick save in the working directory.
std::string timestampedPngName(const char* prefix);

}  // namespace liveconv::ui
