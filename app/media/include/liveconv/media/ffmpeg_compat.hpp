// The FFmpeg calls whose API differs between the releases liveconv builds on:
// Debian 12's FFmpeg 5.1 (libavcodec 59) and Debian 13's FFmpeg 7.1
// (libavcodec 61). Each function uses the newer API where the headers have it
// and the older one where they do not, so neither build calls anything its
// FFmpeg has deprecated. Nothing else in the project tests FFmpeg versions.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
}

namespace liveconv::media::ffmpeg_compat {

// What an encoder takes, as lists ending in AV_PIX_FMT_NONE, AV_SAMPLE_FMT_NONE
// or 0; null when it takes any value. (FFmpeg 7.1: avcodec_get_supported_config;
// before: AVCodec's pix_fmts, sample_fmts and supported_samplerates.)
const AVPixelFormat* pixelFormats(const AVCodec* codec);
const AVSampleFormat* sampleFormats(const AVCodec* codec);
const int* sampleRates(const AVCodec* codec);

// A stream's side data of one type (the display matrix): its bytes and size,
// or null. (FFmpeg 6.1: the codec parameters' coded_side_data; before:
// av_stream_get_side_data and av_stream_new_side_data.)
const std::uint8_t* streamSideData(const AVStream* stream, AVPacketSideDataType type, std::size_t* size);
std::uint8_t* newStreamSideData(AVStream* stream, AVPacketSideDataType type, std::size_t size);

// How long a decoded frame is shown, in its stream's time base (its packet's
// duration; 0: unknown). (FFmpeg 6.0, lavu 57.30: AVFrame::duration; before:
// pkt_duration.)
int64_t frameDuration(const AVFrame* frame);

// Whether the muxer writes a stream's display matrix into its file: the MOV
// family always (its track matrix); Matroska and WebM from FFmpeg 7 (libavformat
// 61) on, as ProjectionPoseRoll (FFmpeg 5.1 drops it; 6.x is taken as not).
bool muxerWritesDisplayMatrix(const AVOutputFormat* format);

}  // namespace liveconv::media::ffmpeg_compat
