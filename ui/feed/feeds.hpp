// The concrete feeds behind makeFrameFeed(); only make_feed.cpp picks between them.
#pragma once

#include <memory>
#include <string>

#include "feed/display_link.hpp"
#include "feed/frame_feed.hpp"

namespace liveconv::ui {

std::unique_ptr<FrameFeed> makeTestPatternFeed(int width, int height, const std::string& deviceSelector,
                                               std::shared_ptr<const ParamsSnapshot> initial,
                                               const DisplayLink* display);

#ifdef LIVECONV_WITH_MEDIA
// Decodes `source` (parseSourceSpec syntax; "" = the bundled clip) on its own
// thread through the engine's Pipeline with the live policy.
std::unique_ptr<FrameFeed> makePipelineFeed(const std::string& source, const std::string& deviceSelector,
                                            std::shared_ptr<const ParamsSnapshot> initial, const DisplayLink* display);
std::vector<std::string> listCameraDevices();
#endif

}  // namespace liveconv::ui
