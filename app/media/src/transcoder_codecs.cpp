#include "transcoder_codecs.hpp"

#include <utility>

#include "av_error.hpp"
#include "liveconv/media/media_errors.hpp"

namespace liveconv::media {

TranscoderCodecs::TranscoderCodecs(std::string doing, std::string path, AVFormatContext* muxer, AVStream* output,
                                   AVRational timeBase)
    : doing(std::move(doing)), path(std::move(path)), muxer(muxer), output(output), inputTimeBase(timeBase) {}

TranscoderCodecs::~TranscoderCodecs() {
  avcodec_free_context(&encoder);
  avcodec_free_context(&decoder);
}

void TranscoderCodecs::openDecoderAllocateEncoder(const AVCodecParameters* input, int encoderId,
                                                  const std::string& cannot) {
  const AVCodec* decoderCodec = avcodec_find_decoder(input->codec_id);
  const AVCodec* encoderCodec = avcodec_find_encoder(static_cast<AVCodecID>(encoderId));
  if (!decoderCodec || !encoderCodec) throw OutputError(cannot + " " + path + ".");
  decoder = avcodec_alloc_context3(decoderCodec);
  avcodec_parameters_to_context(decoder, input);
  decoder->pkt_timebase = inputTimeBase;
  if (int err = avcodec_open2(decoder, decoderCodec, nullptr); err < 0) fail("opening the decoder", err);
  encoder = avcodec_alloc_context3(encoderCodec);
}

void TranscoderCodecs::openEncoder() {
  if (muxer->oformat->flags & AVFMT_GLOBALHEADER) encoder->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if (int err = avcodec_open2(encoder, encoder->codec, nullptr); err < 0) fail("opening the encoder", err);
  avcodec_parameters_from_context(output->codecpar, encoder);
}

void TranscoderCodecs::fail(const std::string& what, int err) const {
  throw OutputError(doing + " of " + path + " failed (" + what + "): " + avError(err) + ".");
}

}  // namespace liveconv::media
