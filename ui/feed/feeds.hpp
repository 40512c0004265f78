// The feed behind makeFrameFeed(), and the same feed around a source the caller makes (the tests).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "feed/display_link.hpp"
#include "feed/frame_feed.hpp"
#include "liveconv/frame.hpp"
#include "liveconv/live_clock.hpp"

namespace liveconv::ui {

// Plays `source` (a spec of the source table; "" = the bundled clip) on its
// own thread through the engine's Pipeline with the live policy.
std::unique_ptr<FrameFeed> makePipelineFeed(const std::string& source, const std::string& deviceSelector,
                                            std::shared_ptr<const ParamsSnapshot> initial, const DisplayLink* display,
                                            OpenControl control = {});
// The same feed around a source the caller makes (a fake decoder in the tests),
// held to its timestamps by `clock`. `opener` runs on the decode thread, again
// each time a clip that is not live loops.
using SourceOpener = std::function<std::unique_ptr<FrameSource>(PixelFormat format)>;
std::unique_ptr<FrameFeed> makePipelineFeed(SourceOpener opener, const LiveClockOptions& clock,
                                            const std::string& deviceSelector,
                                            std::shared_ptr<const ParamsSnapshot> initial, const DisplayLink* display);
#ifdef LIVECONV_WITH_MEDIA
std::vector<std::string> listCameraDevices();
#endif

}  // namespace liveconv::ui
