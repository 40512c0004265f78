#include "liveconv/media/open_source.hpp"

#include "liveconv/errors.hpp"
#include "liveconv/media/default_clip.hpp"
#include "liveconv/media/generated_sources.hpp"
#include "liveconv/media/media_errors.hpp"

namespace liveconv::media {
namespace {

// One open, without waiting for a live source that is not there.
OpenedSource openOnce(const OpenRequest& r, const SourceKind& kind) {
  OpenedSource o;
  o.kind = &kind;
  if (GeneratedSource g = openGeneratedSource(kind, r.text, r.format, r.device); g.source) {
    o.source = std::move(g.source);
    o.rateNum = g.rateNum;
    o.rateDen = g.rateDen;
    return o;
  }
  SourceSpec spec = parseSourceSpec(r.text == "-" ? "pipe:0" : r.text, defaultClipPath());
  if (r.text == "-") spec.text = "standard input";
  spec.stop = r.stop;
  spec.openTimeoutSeconds = r.openTimeoutSeconds;
  spec.hwaccel = r.hwaccel;
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

}  // namespace liveconv::media
