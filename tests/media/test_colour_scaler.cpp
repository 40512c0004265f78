// The CPU conversion on swscale's slice threads (ColourScaler::convert) gives
// the pixels of the one-thread conversion the source and the sinks used
// before, for every matrix and range they set, at sizes that do not split
// evenly into slices: the decoders' formats to RGBA (the source), RGBA and
// gray to the encoders' formats (the file sinks), and resizes (a stream that
// changes size mid-way).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "liveconv/media/colour_scaler.hpp"

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
}

using namespace liveconv::media;

namespace {

// A frame with its own buffers, as a decoder hands it out, of noise (the
// worst case for any seam between slices).
AVFrame* noiseFrame(int w, int h, AVPixelFormat format, unsigned seed) {
  AVFrame* f = av_frame_alloc();
  f->width = w;
  f->height = h;
  f->format = format;
  if (av_frame_get_buffer(f, 0) < 0) return nullptr;
  std::mt19937 rng(seed);
  for (int b = 0; b < AV_NUM_DATA_POINTERS && f->buf[b]; ++b)
    for (std::size_t i = 0; i < f->buf[b]->size; ++i) f->buf[b]->data[i] = static_cast<std::uint8_t>(rng());
  return f;
}

// The visible bytes of a frame's planes, one after the other (no row padding).
std::vector<std::uint8_t> visible(const std::uint8_t* const data[4], const int linesize[4], AVPixelFormat format, int w,
                                  int h) {
  std::vector<std::uint8_t> out(static_cast<std::size_t>(av_image_get_buffer_size(format, w, h, 1)));
  av_image_copy_to_buffer(out.data(), static_cast<int>(out.size()), data, linesize, format, w, h, 1);
  return out;
}

// The conversion as the source and the sinks made it before: sws_getContext,
// sws_scale on the calling thread.
std::vector<std::uint8_t> oneThread(const AVFrame* f, AVPixelFormat to, int w, int h, const ScalerColour* colour) {
  const bool sameSize = w == f->width && h == f->height;
  SwsContext* c = sws_getContext(f->width, f->height, static_cast<AVPixelFormat>(f->format), w, h, to,
                                 (sameSize ? SWS_POINT : SWS_BICUBIC) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nullptr,
                                 nullptr, nullptr);
  if (colour) {
    const int* table = sws_getCoefficients(colour->matrix);
    sws_setColorspaceDetails(c, table, colour->srcFullRange, table, colour->dstFullRange, 0, 1 << 16, 1 << 16);
  }
  AVFrame* out = av_frame_alloc();
  out->width = w;
  out->height = h;
  out->format = to;
  EXPECT_GE(av_frame_get_buffer(out, 0), 0);
  sws_scale(c, f->data, f->linesize, 0, f->height, out->data, out->linesize);
  sws_freeContext(c);
  std::vector<std::uint8_t> bytes = visible(out->data, out->linesize, to, w, h);
  av_frame_free(&out);
  return bytes;
}

void expectSame(const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& want) {
  ASSERT_EQ(got.size(), want.size());
  std::size_t differ = 0, first = want.size();
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i] && ++differ == 1) first = i;
  EXPECT_EQ(differ, 0u) << "first at byte " << first << " of " << want.size();
}

TEST(ColourScaler, SliceThreadsGiveThePixelsOfOneThread) {
  struct Case {
    AVPixelFormat from, to;
    int bytes;
    ScalerColour colour;
  };
  const Case cases[] = {
      {AV_PIX_FMT_YUV420P, AV_PIX_FMT_RGBA, 4, {SWS_CS_ITU709, false, true}},
      {AV_PIX_FMT_YUV420P, AV_PIX_FMT_RGBA, 4, {SWS_CS_ITU601, true, true}},
      {AV_PIX_FMT_YUYV422, AV_PIX_FMT_RGBA, 4, {SWS_CS_ITU601, false, true}},
      {AV_PIX_FMT_YUV444P, AV_PIX_FMT_RGBA, 4, {SWS_CS_BT2020, false, true}},
      {AV_PIX_FMT_YUV420P, AV_PIX_FMT_GRAY8, 1, {SWS_CS_ITU709, false, true}},
      {AV_PIX_FMT_RGB24, AV_PIX_FMT_RGBA, 4, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(av_get_pix_fmt_name(c.from)) + " -> " + av_get_pix_fmt_name(c.to));
    AVFrame* f = noiseFrame(1282, 723, c.from, 7);
    ASSERT_NE(f, nullptr);
    const bool rgb = c.from == AV_PIX_FMT_RGB24;
    const std::vector<std::uint8_t> want = oneThread(f, c.to, f->width, f->height, rgb ? nullptr : &c.colour);
    ColourScaler scaler(4);  // four slices, whatever the machine's cores
    ASSERT_NE(scaler.get({f->width, f->height, c.from, f->width, f->height, c.to}, rgb ? nullptr : &c.colour), nullptr);
    std::vector<std::uint8_t> got(want.size());
    ASSERT_TRUE(scaler.convert(f, got.data(), f->width * c.bytes));
    expectSame(got, want);
    av_frame_free(&f);
  }
}

// The file sinks: the filtered RGBA or gray frame (the caller's memory) into
// the encoder's frame, with the output's matrix and range; and a frame of
// another size scaled to the first one's.
TEST(ColourScaler, SinksConvertOnSliceThreadsAsOneThreadDid) {
  struct Case {
    AVPixelFormat from, to;
    int width, height;  // the output's; the input is 1282x723
    ScalerColour colour;
  };
  const Case cases[] = {
      {AV_PIX_FMT_RGBA, AV_PIX_FMT_YUV420P, 1282, 723, {SWS_CS_ITU709, true, false}},
      {AV_PIX_FMT_RGBA, AV_PIX_FMT_YUV420P, 1282, 723, {SWS_CS_ITU601, true, true}},
      {AV_PIX_FMT_RGBA, AV_PIX_FMT_YUV422P, 1282, 723, {SWS_CS_ITU709, true, false}},
      {AV_PIX_FMT_RGBA, AV_PIX_FMT_YUV444P, 1282, 723, {SWS_CS_BT2020, true, false}},
      {AV_PIX_FMT_RGBA, AV_PIX_FMT_NV12, 1282, 723, {SWS_CS_ITU709, true, false}},
      {AV_PIX_FMT_RGBA, AV_PIX_FMT_YUV420P10LE, 1282, 723, {SWS_CS_BT2020, true, false}},
      {AV_PIX_FMT_RGBA, AV_PIX_FMT_P010LE, 1282, 723, {SWS_CS_ITU709, true, false}},
      {AV_PIX_FMT_GRAY8, AV_PIX_FMT_YUV420P, 1282, 723, {SWS_CS_ITU709, true, false}},
      {AV_PIX_FMT_RGBA, AV_PIX_FMT_BGRA, 1282, 723, {}},
      {AV_PIX_FMT_RGBA, AV_PIX_FMT_GBRP, 1282, 723, {}},
      {AV_PIX_FMT_RGBA, AV_PIX_FMT_YUV420P, 1920, 1080, {SWS_CS_ITU709, true, false}},
      {AV_PIX_FMT_RGBA, AV_PIX_FMT_RGBA, 1920, 1080, {}},
      {AV_PIX_FMT_RGBA, AV_PIX_FMT_RGBA, 641, 361, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(av_get_pix_fmt_name(c.from)) + " -> " + av_get_pix_fmt_name(c.to) + " " +
                 std::to_string(c.width) + "x" + std::to_string(c.height));
    AVFrame* f = noiseFrame(1282, 723, c.from, 11);
    ASSERT_NE(f, nullptr);
    const bool yuv = c.to != AV_PIX_FMT_BGRA && c.to != AV_PIX_FMT_GBRP && c.to != AV_PIX_FMT_RGBA;
    const std::vector<std::uint8_t> want = oneThread(f, c.to, c.width, c.height, yuv ? &c.colour : nullptr);
    ColourScaler scaler(4);
    ASSERT_NE(scaler.get({f->width, f->height, c.from, c.width, c.height, c.to}, yuv ? &c.colour : nullptr), nullptr);
    if (c.to == AV_PIX_FMT_RGBA) {  // the raw sink: packed pixels on both sides
      std::vector<std::uint8_t> got(static_cast<std::size_t>(c.width) * 4 * c.height);
      ASSERT_TRUE(scaler.convert(f->data[0], f->linesize[0], got.data(), c.width * 4));
      expectSame(got, want);
    } else {  // the encoder sink: packed pixels into the encoder's frame
      AVFrame* out = av_frame_alloc();
      out->width = c.width;
      out->height = c.height;
      out->format = c.to;
      ASSERT_GE(av_frame_get_buffer(out, 0), 0);
      ASSERT_TRUE(scaler.convert(f->data[0], f->linesize[0], out));
      expectSame(visible(out->data, out->linesize, c.to, c.width, c.height), want);
      av_frame_free(&out);
    }
    av_frame_free(&f);
  }
}

}  // namespace
