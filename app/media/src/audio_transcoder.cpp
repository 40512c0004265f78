#include "audio_transcoder.hpp"

#include <algorithm>
#include <cstdlib>

#include "liveconv/media/ffmpeg_compat.hpp"
#include "liveconv/media/media_errors.hpp"
#include "transcoder_codecs.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libswresample/swresample.h>
}

namespace liveconv::media {

struct AudioTranscoder::State : TranscoderCodecs {
  using TranscoderCodecs::TranscoderCodecs;
  SwrContext* resampler = nullptr;
  AVAudioFifo* fifo = nullptr;
  AVFrame* decoded = nullptr;
  AVFrame* chunk = nullptr;
  AVPacket* packet = nullptr;
  int64_t nextPts = AV_NOPTS_VALUE;  // in 1/sample_rate

  ~State() {
    av_packet_free(&packet);
    av_frame_free(&chunk);
    av_frame_free(&decoded);
    if (fifo) av_audio_fifo_free(fifo);
    swr_free(&resampler);
  }

  // Encodes one frame (nullptr: flush) and writes its packets.
  void encode(AVFrame* frame) {
    int err = avcodec_send_frame(encoder, frame);
    if (err < 0 && err != AVERROR_EOF) fail("encoding", err);
    while ((err = avcodec_receive_packet(encoder, packet)) == 0) {
      av_packet_rescale_ts(packet, encoder->time_base, output->time_base);
      packet->stream_index = output->index;
      if ((err = av_interleaved_write_frame(muxer, packet)) < 0) fail("writing", err);
    }
    if (err != AVERROR(EAGAIN) && err != AVERROR_EOF) fail("encoding", err);
  }

  // Sends what the FIFO holds in the encoder's frame size (all of it when `final`).
  void drainFifo(bool final) {
    const int size = encoder->frame_size > 0 ? encoder->frame_size : 1024;
    while (av_audio_fifo_size(fifo) >= size || (final && av_audio_fifo_size(fifo) > 0)) {
      const int n = std::min(size, av_audio_fifo_size(fifo));
      av_frame_unref(chunk);
      chunk->nb_samples = n;
      chunk->format = encoder->sample_fmt;
      chunk->sample_rate = encoder->sample_rate;
      av_channel_layout_copy(&chunk->ch_layout, &encoder->ch_layout);
      if (int err = av_frame_get_buffer(chunk, 0); err < 0) fail("allocating", err);
      av_audio_fifo_read(fifo, reinterpret_cast<void**>(chunk->data), n);
      chunk->pts = nextPts;
      nextPts += n;
      encode(chunk);
    }
  }

  // Resamples a decoded frame (nullptr: what the resampler still holds) into the FIFO.
  void resample(const AVFrame* frame) {
    if (frame && nextPts == AV_NOPTS_VALUE)
      nextPts = frame->pts == AV_NOPTS_VALUE ? 0 : av_rescale_q(frame->pts, inputTimeBase, encoder->time_base);
    const int room = swr_get_out_samples(resampler, frame ? frame->nb_samples : 0);
    if (room <= 0) return;
    uint8_t** buffers = nullptr;
    if (int err = av_samples_alloc_array_and_samples(&buffers, nullptr, encoder->ch_layout.nb_channels, room,
                                                     encoder->sample_fmt, 0);
        err < 0)
      fail("allocating", err);
    const int got =
        swr_convert(resampler, buffers, room, frame ? const_cast<const uint8_t**>(frame->extended_data) : nullptr,
                    frame ? frame->nb_samples : 0);
    if (got > 0) av_audio_fifo_write(fifo, reinterpret_cast<void**>(buffers), got);
    av_freep(&buffers[0]);
    av_freep(&buffers);
    if (got < 0) fail("resampling", got);
  }

  void decode(const AVPacket* in) {
    int err = avcodec_send_packet(decoder, in);
    if (err < 0 && err != AVERROR_EOF) return;  // a damaged packet: skipped, as the video does
    while ((err = avcodec_receive_frame(decoder, decoded)) == 0) {
      resample(decoded);
      av_frame_unref(decoded);
      drainFifo(false);
    }
  }
};

AudioTranscoder::AudioTranscoder(const AVCodecParameters* input, int timeBaseNum, int timeBaseDen, int encoderId,
                                 AVFormatContext* muxer, AVStream* output, std::string path)
    : s_(std::make_unique<State>("Re-encoding the audio", std::move(path), muxer, output,
                                 AVRational{timeBaseNum, timeBaseDen})) {
  State& s = *s_;
  s.openDecoderAllocateEncoder(input, encoderId, "This FFmpeg cannot re-encode the audio of");
  {
    const AVCodec* encoder = s.encoder->codec;
    s.encoder->sample_rate = s.decoder->sample_rate;
    if (const int* rates = ffmpeg_compat::sampleRates(encoder)) {  // the encoder's rate nearest the input's
      int best = rates[0];
      for (const int* r = rates; *r; ++r)
        if (std::abs(*r - s.decoder->sample_rate) < std::abs(best - s.decoder->sample_rate)) best = *r;
      s.encoder->sample_rate = best;
    }
    av_channel_layout_copy(&s.encoder->ch_layout, &s.decoder->ch_layout);
    if (s.encoder->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC)
      av_channel_layout_default(&s.encoder->ch_layout, s.decoder->ch_layout.nb_channels);
    const AVSampleFormat* sampleFormats = ffmpeg_compat::sampleFormats(encoder);
    s.encoder->sample_fmt = sampleFormats ? sampleFormats[0] : s.decoder->sample_fmt;
    s.encoder->time_base = AVRational{1, s.encoder->sample_rate};
    s.openEncoder();
    output->time_base = s.encoder->time_base;
    if (int err =
            swr_alloc_set_opts2(&s.resampler, &s.encoder->ch_layout, s.encoder->sample_fmt, s.encoder->sample_rate,
                                &s.decoder->ch_layout, s.decoder->sample_fmt, s.decoder->sample_rate, 0, nullptr);
        err < 0 || swr_init(s.resampler) < 0)
      s.fail("setting up the resampler", err < 0 ? err : AVERROR(EINVAL));
    s.fifo = av_audio_fifo_alloc(s.encoder->sample_fmt, s.encoder->ch_layout.nb_channels, 1);
    s.decoded = av_frame_alloc();
    s.chunk = av_frame_alloc();
    s.packet = av_packet_alloc();
  }
}

AudioTranscoder::~AudioTranscoder() = default;

void AudioTranscoder::push(const AVPacket* packet) {
  s_->decode(packet);
}

void AudioTranscoder::finish() {
  State& s = *s_;
  s.decode(nullptr);
  if (s.nextPts != AV_NOPTS_VALUE) s.resample(nullptr);
  s.drainFifo(true);
  s.encode(nullptr);
}

std::string AudioTranscoder::encoderName() const {
  return s_->encoder->codec->name;
}

}  // namespace liveconv::media
