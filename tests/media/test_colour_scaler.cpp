// The CPU conversion on swscale's slice threads (ColourScaler::convert) gives
// the pixels of the one-thread conversion the source used before, for every
// matrix and range it sets, at sizes that do not split evenly into slices.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "media/colour_scaler.hpp"

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/pixdesc.h>
}

using namespace liveconv::app;

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

// The conversion as the source made it before: sws_getContext, sws_scale on the calling thread.
std::vector<std::uint8_t> oneThread(const AVFrame* f, AVPixelFormat to, int bytesPerPixel, const ScalerColour& colour) {
  SwsContext* c = sws_getContext(f->width, f->height, static_cast<AVPixelFormat>(f->format), f->width, f->height, to,
                                 SWS_POINT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nullptr, nullptr, nullptr);
  const int* table = sws_getCoefficients(colour.matrix);
  sws_setColorspaceDetails(c, table, colour.srcFullRange, table, colour.dstFullRange, 0, 1 << 16, 1 << 16);
  std::vector<std::uint8_t> out(static_cast<std::size_t>(f->width) * bytesPerPixel * f->height);
  std::uint8_t* dst[4] = {out.data()};
  int stride[4] = {f->width * bytesPerPixel};
  sws_scale(c, f->data, f->linesize, 0, f->height, dst, stride);
  sws_freeContext(c);
  return out;
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
    const std::vector<std::uint8_t> want = oneThread(f, c.to, c.bytes, c.colour);
    ColourScaler scaler(4);  // four slices, whatever the machine's cores
    const bool rgb = c.from == AV_PIX_FMT_RGB24;
    ASSERT_NE(scaler.get({f->width, f->height, c.from, f->width, f->height, c.to}, rgb ? nullptr : &c.colour), nullptr);
    std::vector<std::uint8_t> got(want.size());
    ASSERT_TRUE(scaler.convert(f, got.data(), f->width * c.bytes));
    std::size_t differ = 0, first = want.size();
    for (std::size_t i = 0; i < want.size(); ++i)
      if (got[i] != want[i] && ++differ == 1) first = i;
    EXPECT_EQ(differ, 0u) << "first at byte " << first << " (row " << first / (f->width * c.bytes) << ")";
    av_frame_free(&f);
  }
}

}  // namespace
