#include "liveconv/media/ffmpeg_compat.hpp"

#include <cstring>

namespace liveconv::media::ffmpeg_compat {
namespace {

#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(61, 13, 100)
#define LIVECONV_HAVE_SUPPORTED_CONFIG 1
template <typename T>
const T* supported(const AVCodec* codec, AVCodecConfig config) {
  const void* values = nullptr;
  if (avcodec_get_supported_config(nullptr, codec, config, 0, &values, nullptr) < 0) return nullptr;
  return static_cast<const T*>(values);
}
#endif

#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 31, 102)
#define LIVECONV_HAVE_CODED_SIDE_DATA 1
#endif

}  // namespace

const AVPixelFormat* pixelFormats(const AVCodec* codec) {
#ifdef LIVECONV_HAVE_SUPPORTED_CONFIG
  return supported<AVPixelFormat>(codec, AV_CODEC_CONFIG_PIX_FORMAT);
#else
  return codec->pix_fmts;
#endif
}

const AVSampleFormat* sampleFormats(const AVCodec* codec) {
#ifdef LIVECONV_HAVE_SUPPORTED_CONFIG
  return supported<AVSampleFormat>(codec, AV_CODEC_CONFIG_SAMPLE_FORMAT);
#else
  return codec->sample_fmts;
#endif
}

const int* sampleRates(const AVCodec* codec) {
#ifdef LIVECONV_HAVE_SUPPORTED_CONFIG
  return supported<int>(codec, AV_CODEC_CONFIG_SAMPLE_RATE);
#else
  return codec->supported_samplerates;
#endif
}

const std::uint8_t* streamSideData(const AVStream* stream, AVPacketSideDataType type, std::size_t* size) {
#ifdef LIVECONV_HAVE_CODED_SIDE_DATA
  const AVPacketSideData* sd =
      av_packet_side_data_get(stream->codecpar->coded_side_data, stream->codecpar->nb_coded_side_data, type);
  if (!sd) return nullptr;
  *size = sd->size;
  return sd->data;
#else
  return av_stream_get_side_data(stream, type, size);
#endif
}

std::uint8_t* newStreamSideData(AVStream* stream, AVPacketSideDataType type, std::size_t size) {
#ifdef LIVECONV_HAVE_CODED_SIDE_DATA
  AVPacketSideData* sd =
      av_packet_side_data_new(&stream->codecpar->coded_side_data, &stream->codecpar->nb_coded_side_data, type, size, 0);
  return sd ? sd->data : nullptr;
#else
  return av_stream_new_side_data(stream, type, size);
#endif
}

int64_t frameDuration(const AVFrame* frame) {
#if LIBAVUTIL_VERSION_INT >= AV_VERSION_INT(57, 30, 100)
  return frame->duration;
#else
  return frame->pkt_duration;
#endif
}

bool muxerWritesDisplayMatrix(const AVOutputFormat* format) {
  static const char* const movFamily[] = {"mov", "mp4", "ipod", "3gp", "3g2", "psp", "ismv", "f4v"};
  for (const char* name : movFamily)
    if (std::strcmp(format->name, name) == 0) return true;
#if LIBAVFORMAT_VERSION_MAJOR >= 61
  return std::strcmp(format->name, "matroska") == 0 || std::strcmp(format->name, "webm") == 0;
#else
  return false;
#endif
}

}  // namespace liveconv::media::ffmpeg_compat
