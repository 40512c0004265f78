// The feed's seam in a build without FFmpeg (feed_sources.hpp): the generated
// source kinds only, through the same feed; no recording.
#include "feed/feed_sources.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/media/generated_sources.hpp"

namespace liveconv::ui {

FeedSource openFeedSource(const FeedSourceRequest& request) {
  media::GeneratedSource g =
      media::openGeneratedSource(media::sourceKindOf(request.text), request.text, request.format, request.device);
  if (!g.source) {
    std::string generated;  // the table's rows this build opens
    for (const media::SourceKind& k : media::sourceKinds())
      if (k.generated) generated += std::string(generated.empty() ? "\"" : " or \"") + k.syntax + "\"";
    throw InvalidArgument("Unknown source \"" + request.text + "\": this build of the viewer has no FFmpeg and plays only " +
                          generated + ".");
  }
  FeedSource out;
  out.source = std::move(g.source);
  out.rateNum = g.rateNum;
  out.rateDen = g.rateDen;
  return out;
}

std::string whyNotHwAccel(const std::string& name) {
  return name == "none" ? "" : "This build of the viewer has no FFmpeg, so it decodes nothing (--hwaccel " + name + ").";
}

std::string whyNoRecordingInThisBuild() {
  return "This build of the viewer has no FFmpeg, so it cannot record.";
}

std::unique_ptr<PlanesPictures> makePlanesPictures(std::shared_ptr<media::StreamCopy>) {
  throw InvalidArgument("This build of the viewer has no FFmpeg, so it has no planes to filter.");
}

std::unique_ptr<FrameSink> openRecordingSink(const std::string&, int, int, std::string*,
                                             std::shared_ptr<media::StreamCopy>) {
  throw InvalidArgument(whyNoRecordingInThisBuild());
}

}  // namespace liveconv::ui
