// The feed's seam with FFmpeg (feed_sources.hpp): every source kind, every container.
#include "feed/feed_sources.hpp"
#include "feed/feeds.hpp"
#include "liveconv/media/cameras.hpp"
#include "liveconv/media/ffmpeg_sink.hpp"
#include "liveconv/media/hw_decode.hpp"
#include "liveconv/media/open_source.hpp"
#include "liveconv/media/staged_output.hpp"
#include "liveconv/media/stream_copy.hpp"

namespace liveconv::ui {

FeedSource openFeedSource(const FeedSourceRequest& request) {
  media::OpenRequest r;
  r.text = request.text;
  r.format = request.format;
  r.device = request.device;
  r.stop = request.stop;
  r.openTimeoutSeconds = request.openTimeoutSeconds;
  r.hwaccel = request.hwaccel;
  r.convert = request.convertOnDevice ? media::ConvertMode::Auto : media::ConvertMode::Cpu;
  media::OpenedSource opened = media::openSource(r);
  FeedSource out;
  if (opened.decoder) out.note = opened.decoder->decoderNote();
  if (opened.decoder) {
    out.sampleBits = opened.decoder->sampleBits();
    out.description = std::make_shared<media::StreamCopy>();
    opened.decoder->copyStreamsInto(out.description, false, false, false);
  }
  out.source = std::move(opened.source);
  out.rateNum = opened.rateNum;
  out.rateDen = opened.rateDen;
  return out;
}

std::string whyNotHwAccel(const std::string& name) {
  return media::checkHwAccel(name);
}

std::string whyNoRecordingInThisBuild() {
  return {};
}

std::unique_ptr<FrameSink> openRecordingSink(const std::string& path, int rateNum, int rateDen, std::string* leftovers,
                                             std::shared_ptr<media::StreamCopy> source) {
  // The recorder gives each frame its time from the first (media::RecordingClock),
  // in a time base fine enough for any source's (MPEG's 90 kHz); a container
  // that needs a constant rate (AVI) puts them on the grid of the nominal rate,
  // where a gap is a frame repeated.
  media::SinkOptions timing;
  timing.rateNum = rateNum;
  timing.rateDen = rateDen;
  timing.sourceTimestamps = true;
  timing.timeBaseNum = 1;
  timing.timeBaseDen = 90000;
  std::unique_ptr<FrameSink> sink = media::openSink(path, "", timing);
  if (auto* encoder = dynamic_cast<media::EncoderSink*>(sink.get()); encoder && source)
    encoder->carry(std::move(source));
  *leftovers = media::sweepLeftoverParts(path, false, "delete such files, or let liveconv run -y remove them");
  return sink;
}

// The enumeration of `liveconv cameras` and of the Qt shell's camera dialog.
std::vector<std::string> listCameraDevices() {
  return media::cameraSourceSpecs(media::listCameras());
}

}  // namespace liveconv::ui
