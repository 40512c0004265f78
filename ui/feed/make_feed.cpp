// Source spec -> feed. The test pattern needs nothing but the engine; every
// other spec needs FFmpeg, so a build without it says so in one sentence.
#include "feed/feeds.hpp"
#include "feed/test_pattern.hpp"
#include "liveconv/errors.hpp"

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
                                         OpenAbandoned abandoned) {
  int w = 0, h = 0;
  if (parseTestPatternSpec(source, &w, &h))
    return makeTestPatternFeed(w, h, deviceSelector, std::move(initial), display);
#ifdef LIVECONV_WITH_MEDIA
  return makePipelineFeed(source, deviceSelector, std::move(initial), display, std::move(abandoned));
#else
  throw InvalidArgument("Unknown source \"" + source +
                        "\": this build of the viewer has no FFmpeg and plays only \"testpattern\" or "
                        "\"testpattern:WxH\".");
#endif
}

}  // namespace liveconv::ui
