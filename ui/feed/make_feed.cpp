// Source spec -> feed: one feed for every kind (pipeline_feed.cpp). The
// generated kinds need nothing but the engine; every other needs FFmpeg, so a
// build without it says so in one sentence (feed_sources_none.cpp).
#include "feed/feeds.hpp"

namespace liveconv::ui {

std::string defaultSourceSpec() {
#ifdef LIVECONV_WITH_MEDIA
  return "";  // the bundled clip; PipelineFeed resolves it
#else
  return "testpattern";
#endif
}

bool decodedSourcesAvailable() {
#ifdef LIVECONV_WITH_MEDIA
  return true;
#else
  return false;
#endif
}

std::vector<std::string> listCameraSources() {
#ifdef LIVECONV_WITH_MEDIA
  return listCameraDevices();
#else
  return {};
#endif
}

std::unique_ptr<FrameFeed> makeFrameFeed(const std::string& source, const std::string& deviceSelector,
                                         std::shared_ptr<const ParamsSnapshot> initial, const DisplayLink* display,
                                         OpenControl control) {
  return makePipelineFeed(source, deviceSelector, std::move(initial), display, std::move(control));
}

}  // namespace liveconv::ui
