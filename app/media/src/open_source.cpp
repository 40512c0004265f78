#include "liveconv/media/open_source.hpp"

#include "liveconv/errors.hpp"
#include "liveconv/media/default_clip.hpp"
#include "liveconv/media/generated_sources.hpp"
#include "liveconv/media/media_errors.hpp"

namespace liveconv::media {
namespace {

// The opener of every row that is not generated: FFmpeg opens what the row's
// parser says (parseSourceSpec), so an FFmpeg kind needs no opener of its own.
OpenedSource openDecoded(const OpenRequest& r) {
  SourceSpec spec = parseSourceSpec(r.text, defaultClipPath());
  spec.stop = r.stop;
  spec.openTimeoutSeconds = r.openTimeoutSeconds;
  spec.hwaccel = r.hwaccel;
  OpenedSource o;
  auto ff = std::make_unique<FfmpegSource>(spec, r.format, r.convert);
  o.decoder = ff.get();
  if (r.planes)
    if (const std::string why = ff->setPlanes(); !why.empty()) throw InputError(why);
  ff->frameRate(&o.rateNum, &o.rateDen);
  o.source = std::move(ff);
  return o;
}

// One open by the row's opener, without waiting for a live source that is not there.
OpenedSource openOnce(const OpenRequest& r, const SourceKind& kind) {
  OpenedSource o;
  if (kind.generated) {
    GeneratedSource g = openGeneratedSource(kind, r.text, r.format, r.device);
    o.source = std::move(g.source);
    o.rateNum = g.rateNum;
    o.rateDen = g.rateDen;
  } else {
    o = openDecoded(r);
  }
  o.kind = &kind;
  return o;
}

}  // namespace

OpenedSource openSource(const OpenRequest& request, const ReconnectPolicy* reconnect,
                        ReconnectingSource::Reporter report) {
  const SourceKind& kind = sourceKindOf(request.text);
  if (!kind.live || !reconnect) return openOnce(request, kind);
  OpenedSource o;
  o.kind = &kind;
  o.source = openReconnecting([request, &kind] { return openOnce(request, kind).source; }, true, *reconnect,
                              std::move(report), request.stop);
  if (auto* rs = dynamic_cast<ReconnectingSource*>(o.source.get()))
    o.decoder = dynamic_cast<FfmpegSource*>(&rs->current());
  if (o.decoder) o.decoder->frameRate(&o.rateNum, &o.rateDen);
  return o;
}

}  // namespace liveconv::media
