#include "subtitle_transcoder.hpp"

#include <cstdio>
#include <cstring>
#include <ostream>
#include <vector>

#include "liveconv/media/media_errors.hpp"
#include "transcoder_codecs.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/mem.h>
}

namespace liveconv::media {
namespace {

bool isText(AVCodecID id) {
  const AVCodecDescriptor* d = avcodec_descriptor_get(id);
  return d && d->type == AVMEDIA_TYPE_SUBTITLE && (d->props & AV_CODEC_PROP_TEXT_SUB);
}

}  // namespace

std::string cueOutOfOrder(double cueSeconds, double lastSeconds, const std::string& path) {
  char line[160];
  std::snprintf(line, sizeof line,
                "a subtitle cue at %.3f s comes after one at %.3f s; it is written just after that one in ", cueSeconds,
                lastSeconds);
  return "liveconv: " + std::string(line) + path + ", as ffmpeg writes it.\n";
}

struct SubtitleTranscoder::State : TranscoderCodecs {
  using TranscoderCodecs::TranscoderCodecs;
  AVPacket* packet = nullptr;
  std::vector<std::uint8_t> buffer = std::vector<std::uint8_t>(1 << 16);  // one encoded cue
  std::ostream* notices = nullptr;
  int64_t lastPts = AV_NOPTS_VALUE;  // the start of the cue written last, in the output's time base

  ~State() { av_packet_free(&packet); }
};

bool SubtitleTranscoder::converts(const AVCodecParameters* input, int encoderId) {
  const auto target = static_cast<AVCodecID>(encoderId);
  return isText(input->codec_id) && isText(target) && avcodec_find_decoder(input->codec_id) &&
         avcodec_find_encoder(target);
}

SubtitleTranscoder::SubtitleTranscoder(const AVCodecParameters* input, int timeBaseNum, int timeBaseDen, int encoderId,
                                       AVFormatContext* muxer, AVStream* output, std::string path,
                                       std::ostream& notices)
    : s_(std::make_unique<State>("Converting the subtitles", std::move(path), muxer, output,
                                 AVRational{timeBaseNum, timeBaseDen})) {
  State& s = *s_;
  s.notices = &notices;
  s.openDecoderAllocateEncoder(input, encoderId, "This FFmpeg cannot convert the subtitles of");
  s.encoder->time_base = AV_TIME_BASE_Q;
  // The cues' style sheet (an ASS header) goes with them, as ffmpeg hands it over.
  if (s.decoder->subtitle_header && s.decoder->subtitle_header_size > 0) {
    s.encoder->subtitle_header = static_cast<std::uint8_t*>(av_mallocz(s.decoder->subtitle_header_size + 1));
    if (!s.encoder->subtitle_header) s.fail("allocating", AVERROR(ENOMEM));
    std::memcpy(s.encoder->subtitle_header, s.decoder->subtitle_header, s.decoder->subtitle_header_size);
    s.encoder->subtitle_header_size = s.decoder->subtitle_header_size;
  }
  s.openEncoder();
  output->time_base = AVRational{1, 1000};
  s.packet = av_packet_alloc();
}

SubtitleTranscoder::~SubtitleTranscoder() = default;

void SubtitleTranscoder::push(const AVPacket* in) {
  State& s = *s_;
  AVSubtitle cue{};
  int got = 0;
  if (avcodec_decode_subtitle2(s.decoder, &cue, &got, const_cast<AVPacket*>(in)) < 0 || !got)
    return;  // a damaged cue: skipped, as a damaged video packet is
  struct Free {
    AVSubtitle* cue;
    ~Free() { avsubtitle_free(cue); }
  } freeCue{&cue};
  if (cue.num_rects == 0) return;  // nothing to show (a cue that only clears)
  // As ffmpeg writes a cue: its start in the packet's time, its duration from
  // the cue or else from the packet.
  int64_t start = cue.pts != AV_NOPTS_VALUE ? cue.pts : av_rescale_q(in->pts, s.inputTimeBase, AV_TIME_BASE_Q);
  if (cue.end_display_time == 0 && in->duration > 0)
    cue.end_display_time = static_cast<uint32_t>(av_rescale_q(in->duration, s.inputTimeBase, AVRational{1, 1000}));
  start += av_rescale_q(cue.start_display_time, AVRational{1, 1000}, AV_TIME_BASE_Q);
  cue.end_display_time -= cue.start_display_time;
  cue.start_display_time = 0;
  cue.pts = start;
  const int size = avcodec_encode_subtitle(s.encoder, s.buffer.data(), static_cast<int>(s.buffer.size()), &cue);
  if (size < 0) s.fail("encoding", size);
  if (size == 0) return;
  av_packet_unref(s.packet);
  if (int err = av_new_packet(s.packet, size); err < 0) s.fail("allocating", err);
  std::memcpy(s.packet->data, s.buffer.data(), size);
  int64_t pts = av_rescale_q(start, AV_TIME_BASE_Q, s.output->time_base);
  if (s.lastPts != AV_NOPTS_VALUE && pts <= s.lastPts) {
    // The container takes cues in order only: this one goes just after the last (two at one time: a tick apart).
    if (pts < s.lastPts)
      *s.notices << cueOutOfOrder(pts * av_q2d(s.output->time_base), s.lastPts * av_q2d(s.output->time_base), s.path);
    pts = s.lastPts + 1;
  }
  s.lastPts = pts;
  s.packet->pts = s.packet->dts = pts;
  s.packet->duration = av_rescale_q(cue.end_display_time, AVRational{1, 1000}, s.output->time_base);
  s.packet->stream_index = s.output->index;
  s.packet->flags |= AV_PKT_FLAG_KEY;
  if (int err = av_interleaved_write_frame(s.muxer, s.packet); err < 0) s.fail("writing", err);
}

std::string SubtitleTranscoder::encoderName() const {
  return avcodec_get_name(s_->encoder->codec_id);  // "ass", though FFmpeg's encoder for it is named ssa
}

}  // namespace liveconv::media
