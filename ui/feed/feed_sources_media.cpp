// The feed's seam with FFmpeg (feed_sources.hpp): every source kind, every container.
#include "feed/feed_sources.hpp"

extern "C" {
#include <libavutil/pixdesc.h>
}
#include "feed/feeds.hpp"
#include "liveconv/media/cameras.hpp"
#include "liveconv/media/colour_scaler.hpp"
#include "liveconv/media/ffmpeg_sink.hpp"
#include "liveconv/media/hw_decode.hpp"
#include "liveconv/media/media_errors.hpp"
#include "liveconv/media/open_source.hpp"
#include "liveconv/media/planes.hpp"
#include "liveconv/media/source_kinds.hpp"
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
  r.planes = request.planes;
  if (request.planes && media::sourceKindOf(request.text).generated)
    throw media::InputError(
        "Planes mode filters a decoded source's own planes; " + request.text +
        " makes RGBA frames, so there are none. Turn planes off, or open a file, stream or camera.");
  media::OpenedSource opened = media::openSource(r);
  FeedSource out;
  if (opened.decoder) out.note = opened.decoder->decoderNote();
  if (opened.decoder) {
    out.sampleBits = opened.decoder->sampleBits();
    out.description = std::make_shared<media::StreamCopy>();
    opened.decoder->copyStreamsInto(out.description, false, false, false);
    // A recording keeps the picture shown: the encoder's choice for its frames
    // (FFV1 takes them exactly), not the source's pixel format as `run` picks it.
    out.description->pixelFormat = -1;
    if (request.planes) {
      const auto format = static_cast<AVPixelFormat>(opened.decoder->planesFormat());
      int w = 0, h = 0;
      if (!opened.decoder->frameSize(&w, &h))
        throw media::InputError(request.text +
                                " does not say its frame size, which planes mode needs before the first frame.");
      out.planes = media::planesOf(format, w, h);
      out.planesFormat = format;
      out.planeNames = media::planeNames(format);
    }
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

namespace {

class SwscalePlanesPictures final : public PlanesPictures {
 public:
  explicit SwscalePlanesPictures(std::shared_ptr<media::StreamCopy> description)
      : description_(std::move(description)), scaler_(1) {}
  ~SwscalePlanesPictures() override { av_frame_free(&frame_); }

  Image picture(const std::vector<Image>& planes, int planesFormat, PixelFormat to) override {
    const auto format = static_cast<AVPixelFormat>(planesFormat);
    const int w = planes.empty() ? 0 : planes[0].width(), h = planes.empty() ? 0 : planes[0].height();
    if (!frame_ || frame_->width != w || frame_->height != h || frame_->format != format) {
      av_frame_free(&frame_);
      frame_ = av_frame_alloc();
      if (!frame_) throw std::bad_alloc();
      frame_->format = format;
      frame_->width = w;
      frame_->height = h;
      if (av_frame_get_buffer(frame_, 0) < 0) throw std::bad_alloc();
    }
    media::copyFromPlanes(planes, frame_);
    const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(format);
    const bool yuv = d && !(d->flags & AV_PIX_FMT_FLAG_RGB) && d->nb_components >= 3;
    media::ScalerColour colour;
    colour.matrix = matrixOf(w, h);
    colour.srcFullRange = description_ && description_->colorRange == AVCOL_RANGE_JPEG;
    colour.dstFullRange = true;
    SwsContext* sws = scaler_.get({w, h, format, w, h, media::avPixelFormatOf(to)}, yuv ? &colour : nullptr);
    Image out(w, h, to);
    if (!sws || !scaler_.convert(frame_, out.data(), static_cast<int>(out.view().strideBytes)))
      throw InvalidArgument(std::string("The planes of ") + av_get_pix_fmt_name(format) + " cannot be shown as " +
                            toString(to) + ".");
    return out;
  }

 private:
  int matrixOf(int w, int h) const {
    switch (description_ ? description_->colorSpace : AVCOL_SPC_UNSPECIFIED) {
      case AVCOL_SPC_BT709:
        return SWS_CS_ITU709;
      case AVCOL_SPC_BT2020_NCL:
      case AVCOL_SPC_BT2020_CL:
        return SWS_CS_BT2020;
      case AVCOL_SPC_SMPTE240M:
        return SWS_CS_SMPTE240M;
      case AVCOL_SPC_FCC:
        return SWS_CS_FCC;
      case AVCOL_SPC_BT470BG:
      case AVCOL_SPC_SMPTE170M:
        return SWS_CS_ITU601;
      default:
        return w >= 1280 || h > 576 ? SWS_CS_ITU709 : SWS_CS_ITU601;  // as players read an untagged frame
    }
  }

  std::shared_ptr<media::StreamCopy> description_;
  media::ColourScaler scaler_;
  AVFrame* frame_ = nullptr;
};

}  // namespace

std::unique_ptr<PlanesPictures> makePlanesPictures(std::shared_ptr<media::StreamCopy> description) {
  return std::make_unique<SwscalePlanesPictures>(std::move(description));
}

// The enumeration of `liveconv cameras` and of the Qt shell's camera dialog.
std::vector<std::string> listCameraDevices() {
  return media::cameraSourceSpecs(media::listCameras());
}

}  // namespace liveconv::ui
