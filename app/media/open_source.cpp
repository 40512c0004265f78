#include "media/open_source.hpp"

#include <cstdio>

#include "liveconv/errors.hpp"
#include "media/default_clip.hpp"
#include "media/media_errors.hpp"

namespace liveconv::app {
namespace {

constexpr int kSyntheticFps = 60;  // SyntheticSource's timestamps

// "WxH" after the prefix, both positive.
void syntheticSize(const std::string& text, int* width, int* height) {
  char extra = 0;
  if (std::sscanf(text.c_str() + 10, "%dx%d%c", width, height, &extra) != 2 || *width <= 0 || *height <= 0 ||
      *width > 16384 || *height > 16384)
    throw InvalidArgument("synthetic:WxH needs a frame size such as synthetic:1280x720, not '" + text + "'.");
}

// One open, without waiting for a live source that is not there.
OpenedSource openOnce(const OpenRequest& r, const SourceKind& kind) {
  OpenedSource o;
  o.kind = &kind;
  switch (kind.id) {
    case SourceKindId::TestPattern:
      throw InvalidArgument(r.text + " is the windows' test pattern; here use synthetic:WxH or "
                            "lavfi:testsrc2=size=1280x720:rate=30.");
    case SourceKindId::Synthetic: {
      int w = 0, h = 0;
      syntheticSize(r.text, &w, &h);
      o.source = std::make_unique<SyntheticSource>(w, h, r.format, -1, r.device);
      o.rateNum = kSyntheticFps;
      return o;
    }
    default:
      break;
  }
  SourceSpec spec = parseSourceSpec(r.text == "-" ? "pipe:0" : r.text, defaultClipPath());
  if (r.text == "-") spec.text = "standard input";
  spec.stop = r.stop;
  auto ff = std::make_unique<FfmpegSource>(spec, r.format, r.convert);
  o.decoder = ff.get();
  ff->frameRate(&o.rateNum, &o.rateDen);
  o.source = std::move(ff);
  return o;
}

}  // namespace

OpenedSource openSource(const OpenRequest& request, const ReconnectPolicy* reconnect,
                        ReconnectingSource::Reporter report) {
  const SourceKind& kind = sourceKindOf(request.text);
  if (!kind.live || !reconnect) return openOnce(request, kind);
  auto rs = std::make_unique<ReconnectingSource>([request, &kind] { return openOnce(request, kind).source; },
                                                 *reconnect, std::move(report), request.stop);
  OpenedSource o;
  o.kind = &kind;
  o.decoder = dynamic_cast<FfmpegSource*>(&rs->current());
  if (o.decoder) o.decoder->frameRate(&o.rateNum, &o.rateDen);
  o.source = std::move(rs);
  return o;
}

}  // namespace liveconv::app
