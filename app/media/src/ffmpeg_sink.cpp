#include "liveconv/media/ffmpeg_sink.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "audio_transcoder.hpp"
#include "av_error.hpp"
#include "liveconv/media/colour_scaler.hpp"
#include "liveconv/media/ffmpeg_compat.hpp"
#include "liveconv/media/ffmpeg_source.hpp"
#include "liveconv/media/media_errors.hpp"
#include "liveconv/media/planes.hpp"
#include "subtitle_transcoder.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

namespace liveconv::media {
namespace {

// The output as a message names it: "standard output" for `-o -`.
std::string outputName(const std::string& path) {
  return path == "-" || path == "pipe:" || path == "pipe:1" ? "standard output" : path;
}

// Said after a write error that is a pipe's reader gone (EPIPE).
std::string readerGone(int averror) {
  return averror == AVERROR(EPIPE) ? " (its reader stopped reading)" : "";
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The MOV family (mp4, mov, 3gp, ...): any timestamps are held exactly,
// though the muxers do not say AVFMT_VARIABLE_FPS.
bool movFamily(const AVOutputFormat* f) {
  static const char* const names[] = {"mov", "mp4", "ipod", "3gp", "3g2", "psp", "ismv", "f4v"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return std::strcmp(f->name, n) == 0; });
}

// The video codec an output gets unless --codec names one: H.264 in the MOV
// family (what players there expect); FFV1, lossless, where the container
// holds it; else the container's own, as ffmpeg picks it (VP9 for WebM, GIF
// for .gif, FLV1 for .flv).
std::string defaultVideoCodec(const AVOutputFormat* f) {
  if (movFamily(f)) return "h264";
  if (avformat_query_codec(f, AV_CODEC_ID_FFV1, FF_COMPLIANCE_NORMAL) == 1) return "ffv1";
  const AVCodec* own = f->video_codec != AV_CODEC_ID_NONE ? avcodec_find_encoder(f->video_codec) : nullptr;
  return own ? own->name : "ffv1";
}

// Whether a muxer takes a stream with these parameters: it is asked, and a
// header with that stream alone tried on a scratch file in memory (FFmpeg's codec lists let Opus into
// MOV and audio into GIF, whose muxers then refuse the header).
bool muxerTakes(const AVOutputFormat* format, const AVCodecParameters* parameters, AVRational timeBase) {
  if (avformat_query_codec(format, parameters->codec_id, FF_COMPLIANCE_NORMAL) == 0) return false;
  if (format->flags & AVFMT_NOFILE) return true;  // it opens files of its own: nothing to try on
  AVFormatContext* scratch = nullptr;
  if (avformat_alloc_output_context2(&scratch, format, nullptr, nullptr) < 0 || !scratch) return false;
  bool takes = false;
  if (AVStream* st = avformat_new_stream(scratch, nullptr); st && avio_open_dyn_buf(&scratch->pb) >= 0) {
    avcodec_parameters_copy(st->codecpar, parameters);
    st->codecpar->codec_tag = 0;
    st->time_base = timeBase;
    takes = avformat_write_header(scratch, nullptr) >= 0 && av_write_trailer(scratch) >= 0;
    std::uint8_t* bytes = nullptr;
    avio_close_dyn_buf(scratch->pb, &bytes);
    av_free(bytes);
    scratch->pb = nullptr;
  }
  avformat_free_context(scratch);
  return takes;
}

// The colour an output is encoded and tagged with: the input's matrix and
// range, or for an untagged input what players assume (BT.709 for HD, else
// BT.601, limited range); primaries and transfer from the input, or BT.709's
// for untagged HD.
struct OutputColour {
  AVColorSpace space = AVCOL_SPC_UNSPECIFIED;
  AVColorRange range = AVCOL_RANGE_MPEG;
  AVColorPrimaries primaries = AVCOL_PRI_UNSPECIFIED;
  AVColorTransferCharacteristic transfer = AVCOL_TRC_UNSPECIFIED;
  int swsTable = SWS_CS_ITU601;
};

OutputColour outputColour(const StreamCopy* input, int width, int height) {
  OutputColour c;
  const bool hd = untaggedMatrixIsBt709(width, height);
  const auto space = input ? static_cast<AVColorSpace>(input->colorSpace) : AVCOL_SPC_UNSPECIFIED;
  switch (space) {
    case AVCOL_SPC_BT709:
      c.space = space;
      c.swsTable = SWS_CS_ITU709;
      break;
    case AVCOL_SPC_BT470BG:
    case AVCOL_SPC_SMPTE170M:
      c.space = space;
      c.swsTable = SWS_CS_ITU601;
      break;
    case AVCOL_SPC_FCC:
      c.space = space;
      c.swsTable = SWS_CS_FCC;
      break;
    case AVCOL_SPC_SMPTE240M:
      c.space = space;
      c.swsTable = SWS_CS_SMPTE240M;
      break;
    case AVCOL_SPC_BT2020_NCL:
      c.space = space;
      c.swsTable = SWS_CS_BT2020;
      break;
    default:
      c.space = hd ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M;
      c.swsTable = hd ? SWS_CS_ITU709 : SWS_CS_ITU601;
  }
  if (input && input->colorRange == AVCOL_RANGE_JPEG) c.range = AVCOL_RANGE_JPEG;
  const auto primaries = input ? static_cast<AVColorPrimaries>(input->colorPrimaries) : AVCOL_PRI_UNSPECIFIED;
  const auto transfer =
      input ? static_cast<AVColorTransferCharacteristic>(input->colorTransfer) : AVCOL_TRC_UNSPECIFIED;
  c.primaries = primaries != AVCOL_PRI_UNSPECIFIED ? primaries : hd ? AVCOL_PRI_BT709 : AVCOL_PRI_UNSPECIFIED;
  c.transfer = transfer != AVCOL_TRC_UNSPECIFIED ? transfer : hd ? AVCOL_TRC_BT709 : AVCOL_TRC_UNSPECIFIED;
  return c;
}

// Whether a full-range picture stays full range when written: the container
// tags the range (Matroska's Colour element, MP4 and MOV's colr box) or the
// codec's own bitstream does (H.264's and HEVC's VUI, VP9, AV1; JPEG is full
// range by definition). Elsewhere (NUT or AVI with FFV1 or MPEG-4) nothing
// says so, players read limited range, and the frames are written in limited
// range, as ffmpeg writes them there.
bool holdsFullRange(const AVOutputFormat* f, AVCodecID codec) {
  static const char* const containers[] = {"matroska", "webm"};
  if (movFamily(f) || std::any_of(std::begin(containers), std::end(containers),
                                  [&](const char* n) { return std::strcmp(f->name, n) == 0; }))
    return true;
  static const AVCodecID tagged[] = {AV_CODEC_ID_H264, AV_CODEC_ID_HEVC, AV_CODEC_ID_VP9, AV_CODEC_ID_AV1,
                                     AV_CODEC_ID_MJPEG};
  return std::find(std::begin(tagged), std::end(tagged), codec) != std::end(tagged);
}

// The ranges FFmpeg's option table leaves open (x264's crf is any float there):
// a number outside what the encoder takes is a mistake on the command line.
void checkRange(const AVCodec* codec, const std::string& key, const std::string& value) {
  struct Range {
    const char* encoderPrefix;
    const char* option;
    double min, max;
  };
  static const Range ranges[] = {{"libx264", "crf", 0, 51},
                                 {"libx265", "crf", 0, 51},
                                 {"libvpx", "crf", 0, 63},
                                 {"libaom", "crf", 0, 63},
                                 {"libsvtav1", "crf", 0, 63}};
  for (const Range& r : ranges) {
    if (key != r.option || std::string(codec->name).rfind(r.encoderPrefix, 0) != 0) continue;
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || v < r.min || v > r.max) {
      std::ostringstream text;
      text << "--" << key << " " << value << " is outside what the " << codec->name << " encoder takes: " << r.min
           << " to " << r.max << ".";
      throw EncoderChoiceError(text.str());
    }
  }
}

// Every option must be one the encoder (or its private options) knows, with a
// value it takes.
void checkEncoderOptions(const AVCodec* codec, const std::vector<std::pair<std::string, std::string>>& options) {
  AVCodecContext* probe = avcodec_alloc_context3(codec);
  for (const auto& [key, value] : options) {
    if (!av_opt_find(probe, key.c_str(), nullptr, 0, AV_OPT_SEARCH_CHILDREN)) {
      avcodec_free_context(&probe);
      throw EncoderChoiceError("The " + std::string(codec->name) + " encoder has no option '" + key +
                               "'; 'ffmpeg -h encoder=" + codec->name + "' lists its options.");
    }
    if (av_opt_set(probe, key.c_str(), value.c_str(), AV_OPT_SEARCH_CHILDREN) < 0) {
      avcodec_free_context(&probe);
      throw EncoderChoiceError("The " + std::string(codec->name) + " encoder does not take " + key + "=" + value + ".");
    }
    // x264's and x265's presets are a plain string to FFmpeg; a name they do
    // not know fails only when the encoder opens, with their own log lines.
    if (key == "preset" && (std::strcmp(codec->name, "libx264") == 0 || std::strcmp(codec->name, "libx265") == 0)) {
      static const char* const presets[] = {"ultrafast", "superfast", "veryfast", "faster",   "fast",
                                            "medium",    "slow",      "slower",   "veryslow", "placebo"};
      std::string list;
      bool known = false;
      for (const char* p : presets) {
        known = known || value == p;
        list += (list.empty() ? "" : ", ") + std::string(p);
      }
      if (!known) {
        avcodec_free_context(&probe);
        throw EncoderChoiceError("The " + std::string(codec->name) + " encoder has no preset '" + value +
                                 "'; its presets are " + list + ".");
      }
    }
    try {
      checkRange(codec, key, value);
    } catch (...) {
      avcodec_free_context(&probe);
      throw;
    }
  }
  avcodec_free_context(&probe);
}

bool isYuv(AVPixelFormat f) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(f);
  return d && !(d->flags & AV_PIX_FMT_FLAG_RGB) && d->nb_components >= 3;
}

// The R samples of RGBA16 frames as a GRAY16 image.
void redAsGray(const ImageView& rgba, Image* gray) {
  if (gray->width() != rgba.width || gray->height() != rgba.height)
    *gray = Image(rgba.width, rgba.height, PixelFormat::GRAY16);
  const ImageView out = gray->view();
  for (int y = 0; y < rgba.height; ++y) {
    const auto* in = reinterpret_cast<const std::uint16_t*>(rgba.row(y));
    auto* g = reinterpret_cast<std::uint16_t*>(out.row(y));
    for (int x = 0; x < rgba.width; ++x) g[x] = in[4 * x];
  }
}

bool isGray(AVPixelFormat f) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(f);
  return d && d->nb_components == 1;
}

bool takesPixelFormat(const AVCodec* codec, AVPixelFormat f) {
  const AVPixelFormat* formats = ffmpeg_compat::pixelFormats(codec);
  for (const AVPixelFormat* p = formats; p && *p != AV_PIX_FMT_NONE; ++p)
    if (*p == f) return true;
  return false;
}

// FFmpeg's picture muxer (image2) writing `path`: one picture, or a sequence
// where the name holds a frame number (out%03d.png).
bool picturesOf(const AVOutputFormat* format) {
  return format && std::strcmp(format->name, "image2") == 0;
}
bool onePictureIn(const AVOutputFormat* format, const std::string& path) {
  return picturesOf(format) && !av_filename_number_test(path.c_str());
}

// "out%03d.png" for "out.png": what a sequence of pictures is named.
std::string pictureSequenceExample(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  const auto dot = name.rfind('.');
  return dot == std::string::npos ? name + "%03d" : name.substr(0, dot) + "%03d" + name.substr(dot);
}

// The muxer for `path` (or --container), refused before anything is written
// where FFmpeg cannot write video into it (EncoderChoiceError: a name or a
// flag to change, exit 2).
AVFormatContext* allocOutput(const std::string& path, const SinkOptions& options) {
  setUpFfmpeg();
  const char* container = options.container.empty() ? nullptr : options.container.c_str();
  AVFormatContext* output = nullptr;
  const int err = avformat_alloc_output_context2(&output, nullptr, container, path.c_str());
  if ((err < 0 || !output) && container)
    throw EncoderChoiceError("Unknown container '" + options.container +
                             "'; 'ffmpeg -muxers' lists them (try matroska or nut).");
  if (err < 0 || !output)
    throw EncoderChoiceError("Cannot tell the container of " + path +
                             " from its name; end it in .mkv, .mp4, .mov, .nut or .avi, or name one with --container.");
  std::string refusal;
  if (output->oformat->video_codec == AV_CODEC_ID_NONE)
    refusal = path + " (" + output->oformat->name + ") cannot hold video; name a video file (.mkv, .mp4, .mov).";
  else if (onePictureIn(output->oformat, path) && options.maxFrames != 1)
    refusal = path +
              " is a single picture, not a video: write one frame into it with --frames 1, name a picture "
              "a frame with a number in the name (" +
              pictureSequenceExample(path) + "), or name a video file (.mkv, .mp4, .mov).";
  if (!refusal.empty()) {
    avformat_free_context(output);
    throw EncoderChoiceError(refusal);
  }
  return output;
}

bool isRawName(const std::string& output, const std::string& codecName) {
  return codecName == "raw" || endsWith(output, ".raw") || endsWith(output, ".rgba") || endsWith(output, ".gray") ||
         endsWith(output, ".rgba16") || endsWith(output, ".gray16");
}

}  // namespace

bool isRawOutput(const std::string& output, const std::string& codecName) {
  return output.rfind("raw:", 0) == 0 || isRawName(output, codecName);
}

struct EncoderSink::State {
  std::string path;  // the target, as the user wrote it
  std::unique_ptr<StagedOutput> staged;
  AVFormatContext* output = nullptr;
  const AVCodec* codec = nullptr;
  AVCodecContext* encoder = nullptr;
  AVStream* stream = nullptr;
  ColourScaler scaler;  // the filtered RGBA or gray frames to the encoder's format
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;
  AVRational rate{25, 1};
  AVRational sourceTimeBase{0, 1};
  bool sourceTimestamps = false;
  int width = 0, height = 0;
  long long frames = 0;
  // Timestamps in the encoder's time base: the first source time, the last pts
  // given, and each pending frame's duration (known once the next frame comes).
  bool haveFirst = false;
  double firstSeconds = 0;
  int64_t lastPts = -1;
  std::map<int64_t, int64_t> durations;
  // The input's other streams: input index -> output stream, and the input time base.
  std::shared_ptr<StreamCopy> copy;
  std::map<int, std::pair<AVStream*, AVRational>> copied;
  std::map<int, std::unique_ptr<StreamTranscoder>> transcoders;  // copied streams encoded again
  std::map<int, int64_t> lastCopiedDts;                          // output stream -> the dts written last
  std::map<int, int64_t> soundLead;  // input stream -> how far it started before the video (grid containers)
  bool gridTimestamps = false;       // the video is on a 1/rate grid (the container takes no variable rate)
  bool quiet = false;
  std::ostream& notice() {                   // a line for the user, unless --quiet
    static std::ostream discarded(nullptr);  // no buffer: what is written goes nowhere
    return quiet ? discarded : std::cerr;
  }
  double videoEndSeconds = 0;  // source time just after the last frame written
  OutputColour colour;
  bool rangeLimited = false;  // a full-range input written in limited range (the output cannot say full)
  bool planesRangeUnsaid = false;  // planes mode: full-range samples kept in an output that cannot say so
  std::vector<std::pair<std::string, std::string>> encoderOptions;
  AVPixelFormat pixelFormat = AV_PIX_FMT_NONE;  // --pix-fmt
  Orientation orientation;                      // the input's
  OrientationPlan orientationPlan;              // kept as metadata, or the pixels turned (turned: this frame's)
  Image turned;
  Image gray;  // a gray input's RGBA16 frames as GRAY16 (redAsGray)
  // Planes mode: the planes' format (liveconv/media/planes.hpp), and a frame
  // of it they are written into before they go to the encoder (or, where it
  // takes another format or range, through swscale into `frame`).
  AVPixelFormat planes = AV_PIX_FMT_NONE;
  AVFrame* planesFrame = nullptr;
  bool headerWritten = false, finished = false, warnedResize = false;

  ~State() {
    av_frame_free(&planesFrame);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&encoder);
    if (output) {
      if (output->pb) avio_closep(&output->pb);
      avformat_free_context(output);
    }
  }

  // The input's sample aspect ratio (0/1: none), its sides swapped where the pixels are turned on their side.
  AVRational sampleAspect() const {
    if (!copy || copy->sampleAspectNum <= 0) return AVRational{0, 1};
    return orientationPlan.turnPixels % 2 ? AVRational{copy->sampleAspectDen, copy->sampleAspectNum}
                                          : AVRational{copy->sampleAspectNum, copy->sampleAspectDen};
  }

  // One frame interval in the encoder's time base (at least 1).
  int64_t nominalDuration() const { return std::max<int64_t>(1, av_rescale_q(1, av_inv_q(rate), encoder->time_base)); }

  // The pts of the next frame: its source time when kept, else the next 1/rate
  // step; never at or before the last one (the muxers need them increasing).
  int64_t nextPts(const Frame& f) {
    int64_t pts = lastPts < 0 ? 0 : lastPts + nominalDuration();
    if (sourceTimestamps && f.hasPts) {
      if (!haveFirst) {
        haveFirst = true;
        firstSeconds = f.ptsSeconds;
      }
      pts = llround((f.ptsSeconds - firstSeconds) / av_q2d(encoder->time_base));
    }
    if (pts <= lastPts) pts = lastPts + 1;
    // The frame before, if its packet is still in the encoder: its duration is now known.
    if (const auto before = durations.find(lastPts); before != durations.end()) before->second = pts - lastPts;
    // Until the next frame comes: the source's own duration for it where it
    // says one (an encoder without delay, FFV1, hands the packet out at once),
    // else the interval before it.
    const int64_t own =
        sourceTimestamps && f.durationSeconds > 0 ? llround(f.durationSeconds / av_q2d(encoder->time_base)) : 0;
    durations[pts] = own > 0 ? own : lastPts >= 0 ? std::max<int64_t>(1, pts - lastPts) : nominalDuration();
    lastPts = pts;
    return pts;
  }

  // Encodes `out` as frame `f` (its time) and writes what is ready.
  void send(const Frame& f, AVFrame* out) {
    const int64_t pts = nextPts(f);
    const int64_t duration = durations[pts];  // read now: encode() may hand the packet out at once
    out->pts = pts;
    ++frames;
    encode(out);
    videoEndSeconds = (haveFirst ? firstSeconds : 0) + (pts + duration) * av_q2d(encoder->time_base);
    writeCopied(false);
  }

  // The input's pixel format, when an RGBA run goes to an encoder that takes
  // it (yuv420p in, yuv420p out: an .mkv of a typical clip is not 8 times its
  // size; yuv420p10le in, yuv420p10le out); --pix-fmt bgra keeps the filtered
  // pixels exactly. None otherwise.
  AVPixelFormat inputPixelFormat(PixelFormat frames) const {
    if (!copy || copy->pixelFormat < 0 || channelCount(frames) != 4 || !ffmpeg_compat::pixelFormats(codec))
      return AV_PIX_FMT_NONE;
    auto in = static_cast<AVPixelFormat>(copy->pixelFormat);
    const AVPixelFormat* formats = ffmpeg_compat::pixelFormats(codec);
    auto takes = [this](AVPixelFormat f) { return takesPixelFormat(codec, f); };
    // A gray input stays gray: the mask filters R, G and B alike, so its
    // filtered frames are gray too (FFV1 codes them as the input was).
    // A big-endian input (16-bit PNG) as the same samples in the encoder's order.
    // (Only where the encoder takes it: p010le is not p010be's.)
    if (const AVPixelFormat swapped = av_pix_fmt_swap_endianness(in);
        !takes(in) && swapped != AV_PIX_FMT_NONE && takes(swapped))
      in = swapped;
    if (isGray(in)) return takes(in) ? in : AV_PIX_FMT_NONE;
    if (!isYuv(in)) return AV_PIX_FMT_NONE;  // an RGB input keeps the encoder's RGB choice
    // FFmpeg's old full-range names: the same planes, the range is in the tags.
    static const std::pair<AVPixelFormat, AVPixelFormat> fullRange[] = {{AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUV420P},
                                                                        {AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUV422P},
                                                                        {AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUV444P},
                                                                        {AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUV440P}};
    for (const auto& [j, plain] : fullRange)
      if (in == j) in = plain;
    // Packed or semi-planar samples (a webcam's yuyv422, a decoder's nv12) as
    // the planar format of the same sampling, which more encoders take (FFV1).
    static const std::pair<AVPixelFormat, AVPixelFormat> planar[] = {
        {AV_PIX_FMT_YUYV422, AV_PIX_FMT_YUV422P},   {AV_PIX_FMT_UYVY422, AV_PIX_FMT_YUV422P},
        {AV_PIX_FMT_YVYU422, AV_PIX_FMT_YUV422P},   {AV_PIX_FMT_NV16, AV_PIX_FMT_YUV422P},
        {AV_PIX_FMT_NV12, AV_PIX_FMT_YUV420P},      {AV_PIX_FMT_NV21, AV_PIX_FMT_YUV420P},
        {AV_PIX_FMT_P010LE, AV_PIX_FMT_YUV420P10LE}};
    if (takes(in)) return in;
    for (const auto& [packed, plane] : planar)
      if (in == packed && takes(plane)) return plane;
    // Else the encoder's format nearest the input's, the sampling kept where
    // it can be (yuv444p12le into H.264: yuv444p10le), or a finer one, as
    // FFmpeg picks it (yuv420p10le into ProRes: yuv422p10le), with no alpha plane added.
    const AVPixelFormat nearest = avcodec_find_best_pix_fmt_of_list(formats, in, 0, nullptr);
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(in), *n = av_pix_fmt_desc_get(nearest);
    if (d && n && isYuv(nearest) && n->log2_chroma_w <= d->log2_chroma_w && n->log2_chroma_h <= d->log2_chroma_h &&
        !(n->flags & AV_PIX_FMT_FLAG_ALPHA))
      return nearest;
    return AV_PIX_FMT_NONE;
  }

  // The copied streams the container takes, and the input's metadata, before the header.
  void addCopiedStreams() {
    if (!copy) return;
    av_dict_copy(&output->metadata, copy->containerMetadata, 0);
    av_dict_copy(&stream->metadata, copy->videoMetadata, 0);
    stream->sample_aspect_ratio = sampleAspect();
    for (const StreamCopy::Stream& in : copy->streams) {
      if (!holds(in)) {
        if (!reencode(in))
          notice() << "liveconv: the " << in.kind << " stream " << in.inputIndex << " (" << in.codec << ") cannot be "
                   << "copied into " << output->oformat->name << ", so " << path << " is without it.\n";
        continue;
      }
      AVStream* out = avformat_new_stream(output, nullptr);
      avcodec_parameters_copy(out->codecpar, in.parameters);
      out->codecpar->codec_tag = 0;  // the container picks its own tag
      out->time_base = AVRational{in.timeBaseNum, in.timeBaseDen};
      av_dict_copy(&out->metadata, in.metadata, 0);
      out->disposition = in.disposition;
      copied[in.inputIndex] = {out, out->time_base};
      notice() << "liveconv: the " << in.kind << " stream " << in.inputIndex << " (" << in.codec << ") is copied into "
               << path << ".\n";
    }
    startWithTheEarliestSound();
    addChapters();
  }

  // As ffmpeg starts an output at its input's start: sound that begins before
  // the first frame (a transport stream's AC3, an Opus stream's pre-skip) is
  // kept, and the picture starts that much later, in sync (shifting by the
  // first frame alone put the sound's start at a negative time, which MP4's
  // edit list then cut: 256 samples of AC3). Not on a frame grid (AVI): a
  // first frame a fraction of a slot late would move every frame's rounding;
  // there the sound that leads starts with the first frame (writeCopied).
  void startWithTheEarliestSound() {
    if (!haveFirst || gridTimestamps) return;
    for (const StreamCopy::Stream& in : copy->streams)
      if (in.kind == "audio" && in.hasStart && copied.count(in.inputIndex))
        firstSeconds = std::min(firstSeconds, in.startSeconds);
  }

  // Whether the container holds a copied stream as it is. PCM in MP4
  // (ISO/IEC 23003-5, which FFmpeg 6.1 and later write) is taken as not held:
  // few players read it, and FFmpeg 5.1 refuses it, so the same run makes the
  // same file (AAC) on both.
  bool holds(const StreamCopy::Stream& in) const {
    const AVCodecID codec = in.parameters->codec_id;
    const bool pcm = codec >= AV_CODEC_ID_PCM_S16LE && codec < AV_CODEC_ID_ADPCM_IMA_QT;
    if (pcm && std::strcmp(output->oformat->name, "mp4") == 0) return false;
    return muxerTakes(output->oformat, in.parameters, AVRational{in.timeBaseNum, in.timeBaseDen});
  }

  // A stream the container cannot hold as it is, encoded again with the
  // container's own codec: audio with its usual audio codec (AAC for MP4/MOV),
  // text subtitles with its subtitle codec (mov_text for the MOV family, ASS
  // for Matroska, WebVTT for WebM, ASS where it names none but holds it: NUT).
  // False when there is none to encode with, or the subtitles are pictures.
  bool reencode(const StreamCopy::Stream& in) {
    const bool audio = in.kind == "audio", subtitle = in.kind == "subtitle";
    AVCodecID target = audio ? output->oformat->audio_codec : AV_CODEC_ID_NONE;
    if (subtitle) {
      target = movFamily(output->oformat) ? AV_CODEC_ID_MOV_TEXT : output->oformat->subtitle_codec;
      if (target == AV_CODEC_ID_NONE &&
          avformat_query_codec(output->oformat, AV_CODEC_ID_ASS, FF_COMPLIANCE_NORMAL) == 1)
        target = AV_CODEC_ID_ASS;
    }
    const bool encodable = audio ? avcodec_find_encoder(target) != nullptr
                                 : subtitle && SubtitleTranscoder::converts(in.parameters, target);
    if (target == AV_CODEC_ID_NONE || !encodable ||
        avformat_query_codec(output->oformat, target, FF_COMPLIANCE_NORMAL) != 1)
      return false;
    AVStream* out = avformat_new_stream(output, nullptr);
    try {
      std::unique_ptr<StreamTranscoder> transcoder;
      if (audio)
        transcoder =
            std::make_unique<AudioTranscoder>(in.parameters, in.timeBaseNum, in.timeBaseDen, target, output, out, path);
      else
        transcoder = std::make_unique<SubtitleTranscoder>(in.parameters, in.timeBaseNum, in.timeBaseDen, target, output,
                                                          out, path, notice());
      av_dict_copy(&out->metadata, in.metadata, 0);
      out->disposition = in.disposition;
      notice() << "liveconv: the " << in.kind << " stream " << in.inputIndex << " (" << in.codec << ") is "
               << (audio ? "re-encoded as " : "converted to ") << transcoder->encoderName() << " for " << path
               << ", which cannot hold " << in.codec << ".\n";
      copied[in.inputIndex] = {out, AVRational{in.timeBaseNum, in.timeBaseDen}};
      transcoders[in.inputIndex] = std::move(transcoder);
      return true;
    } catch (const OutputError& e) {
      std::cerr << "liveconv: " << e.what() << "\n";
      return false;  // the stream stays in the container without packets: harmless, but said
    }
  }

  // The input's chapters, shifted by the video's start time (those that end before it are left out).
  void addChapters() {
    for (const StreamCopy::Chapter& in : copy->chapters) {
      const AVRational tb{in.timeBaseNum, in.timeBaseDen};
      const int64_t shift = llround(firstSeconds / av_q2d(tb));
      if (in.end <= shift) continue;
      auto* chapter = static_cast<AVChapter*>(av_mallocz(sizeof(AVChapter)));
      if (!chapter) continue;
      chapter->id = in.id;
      chapter->time_base = tb;
      chapter->start = std::max<int64_t>(0, in.start - shift);
      chapter->end = in.end - shift;
      av_dict_copy(&chapter->metadata, in.metadata, 0);
      auto** grown =
          static_cast<AVChapter**>(av_realloc_array(output->chapters, output->nb_chapters + 1, sizeof(AVChapter*)));
      if (!grown) {
        av_dict_free(&chapter->metadata);
        av_free(chapter);
        continue;
      }
      output->chapters = grown;
      output->chapters[output->nb_chapters++] = chapter;  // freed with the context
    }
  }

  // Writes the copied packets queued so far, shifted by the video's start time.
  // `final`: the run is over; when it stopped before the input's end, packets
  // after the last video frame are left out.
  void writeCopied(bool final) {
    if (!copy || !headerWritten) return;
    const bool cut = final && !copy->inputEnded();
    // Owned from here: a push or a write that throws frees what is left too.
    struct PacketFree {
      void operator()(AVPacket* p) const { av_packet_free(&p); }
    };
    std::vector<std::unique_ptr<AVPacket, PacketFree>> taken;
    for (AVPacket* p : copy->take()) taken.emplace_back(p);
    for (const auto& owned : taken) {
      AVPacket* p = owned.get();
      const auto it = copied.find(p->stream_index);
      const int64_t ts = p->pts != AV_NOPTS_VALUE ? p->pts : p->dts;
      if (it != copied.end() && ts != AV_NOPTS_VALUE) {
        const AVRational tb = it->second.second;
        int64_t shift = llround(firstSeconds / av_q2d(tb));
        // Packets before the video's first frame stay (AAC's priming samples
        // among them); the container keeps or shifts negative times its own
        // way. One on a frame grid that holds no negative time (AVI) starts
        // every stream at 0: there the sound that leads the first frame (by
        // less than a frame) starts with it, where the muxer would move the
        // picture a whole frame later and show the first frame twice.
        if (gridTimestamps && !(output->oformat->flags & AVFMT_TS_NEGATIVE)) {
          const auto lead = soundLead.try_emplace(p->stream_index, std::max<int64_t>(0, shift - ts)).first->second;
          shift -= lead;
        }
        const bool afterEnd = cut && ts * av_q2d(tb) >= videoEndSeconds;
        if (!afterEnd) {
          if (p->pts != AV_NOPTS_VALUE) p->pts -= shift;
          if (p->dts != AV_NOPTS_VALUE) p->dts -= shift;
          if (auto t = transcoders.find(it->first); t != transcoders.end()) {
            t->second->push(p);  // in the input's time base; the transcoder writes what it encodes
            continue;
          }
          av_packet_rescale_ts(p, tb, it->second.first->time_base);
          p->stream_index = it->second.first->index;
          p->pos = -1;
          // As ffmpeg does: a packet at or before the one written last (a
          // stream whose clock jumped, corrected to within a few ms) goes just after it.
          int64_t& last = lastCopiedDts.try_emplace(p->stream_index, AV_NOPTS_VALUE).first->second;
          if (p->dts != AV_NOPTS_VALUE && last != AV_NOPTS_VALUE && p->dts <= last) {
            const AVStream* to = it->second.first;
            if (to->codecpar->codec_type == AVMEDIA_TYPE_SUBTITLE &&
                p->dts < last)  // a cue out of order, said as converted ones are
              notice() << cueOutOfOrder(p->dts * av_q2d(to->time_base), last * av_q2d(to->time_base), path);
            if (p->pts != AV_NOPTS_VALUE && p->pts >= p->dts) p->pts = std::max(p->pts, last + 1);
            p->dts = last + 1;
          }
          if (p->dts != AV_NOPTS_VALUE) last = p->dts;
          const int err = av_interleaved_write_frame(output, p);
          if (err < 0)
            throw OutputError("Writing " + outputName(path) + " failed: " + avError(err) + readerGone(err) + ".");
        }
      }
    }
  }

  // Sends one frame (or nullptr to flush) and writes what comes out.
  void encode(AVFrame* f) {
    int err = avcodec_send_frame(encoder, f);
    if (err < 0) throw OutputError("Encoding " + path + " failed: " + avError(err) + ".");
    while ((err = avcodec_receive_packet(encoder, packet)) == 0) {
      if (auto d = durations.find(packet->pts); d != durations.end()) {
        if (packet->duration <= 0) packet->duration = d->second;
        durations.erase(d);
      }
      av_packet_rescale_ts(packet, encoder->time_base, stream->time_base);
      packet->stream_index = stream->index;
      if ((err = av_interleaved_write_frame(output, packet)) < 0)
        throw OutputError("Writing " + outputName(path) + " failed: " + avError(err) + readerGone(err) + ".");
    }
    if (err != AVERROR(EAGAIN) && err != AVERROR_EOF)
      throw OutputError("Encoding " + path + " failed: " + avError(err) + ".");
  }

  // The encoder's pixel format (--pix-fmt, else the one that loses least of
  // the frames: their own, the input's, what players expect) and our defaults
  // for H.264 and VP9.
  void chooseFormatAndDefaults(const ImageView& px) {
    const AVPixelFormat src = planes != AV_PIX_FMT_NONE ? planes : avPixelFormatOf(px.format);
    // 16-bit frames (a 10-bit or deeper source): H.264 High 10 and VP9
    // profile 2 where the encoder takes 10 bits, the 4:2:0 players play.
    const AVPixelFormat yuv420 = bytesPerSample(px.format) == 2 && takesPixelFormat(codec, AV_PIX_FMT_YUV420P10LE)
                                     ? AV_PIX_FMT_YUV420P10LE
                                     : AV_PIX_FMT_YUV420P;
    if (std::string(codec->name).find("264") != std::string::npos) {
      encoder->pix_fmt = yuv420;  // what players expect, also for gray input
      av_opt_set(encoder->priv_data, "preset", "veryfast", 0);
      av_opt_set(encoder->priv_data, "crf", "18", 0);  // near-transparent: a filter should not add visible loss
    } else if (std::strcmp(codec->name, "libvpx-vp9") == 0) {
      encoder->pix_fmt = yuv420;
      encoder->bit_rate = 0;  // constant quality (libvpx's default is 256 kbit/s, whatever the picture)
      av_opt_set(encoder->priv_data, "crf", "24", 0);
      av_opt_set(encoder->priv_data, "deadline", "good", 0);
      av_opt_set(encoder->priv_data, "cpu-used", "4", 0);  // about as fast as x264's veryfast here
      av_opt_set(encoder->priv_data, "row-mt", "1", 0);
    } else {
      // The least lossy format the encoder takes: for FFV1, bgra or gray, both exact.
      const AVPixelFormat* formats = ffmpeg_compat::pixelFormats(codec);
      encoder->pix_fmt = formats ? avcodec_find_best_pix_fmt_of_list(formats, src, 1, nullptr) : src;
    }
    if (pixelFormat != AV_PIX_FMT_NONE)
      encoder->pix_fmt = pixelFormat;
    else if (planes != AV_PIX_FMT_NONE)
      encoder->pix_fmt = nearestTaken(planes);
    else if (const AVPixelFormat in = inputPixelFormat(px.format);
             in != AV_PIX_FMT_NONE && (!isGray(in) || !isYuv(encoder->pix_fmt)))
      encoder->pix_fmt = in;  // gray only in place of an RGB choice (FFV1, PNG): H.264 and VP9 stay 4:2:0 for players
  }

  // Planes mode: the planes' format where the encoder takes it, else the
  // nearest it takes, as FFmpeg's own transcode picks it (yuv444p12le into
  // H.264: yuv444p10le; gbrap into FFV1: bgra), never an old full-range
  // yuvj name (the range is in the tags).
  AVPixelFormat nearestTaken(AVPixelFormat from) const {
    const AVPixelFormat* formats = ffmpeg_compat::pixelFormats(codec);
    if (!formats) return from;
    std::vector<AVPixelFormat> list;
    for (const AVPixelFormat* f = formats; *f != AV_PIX_FMT_NONE; ++f)
      if (std::string(av_get_pix_fmt_name(*f)).rfind("yuvj", 0) != 0) list.push_back(*f);
    list.push_back(AV_PIX_FMT_NONE);
    const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(from);
    const int alpha = d && (d->flags & AV_PIX_FMT_FLAG_ALPHA) ? 1 : 0;
    return avcodec_find_best_pix_fmt_of_list(list.data(), from, alpha, nullptr);
  }

  // Planes mode's colour: RGB planes that the encoder takes as YUV (an RGB
  // source into H.264) become limited-range YUV, as FFmpeg's own transcode
  // makes them; YUV planes keep their samples and range as they are, also
  // where the container cannot say the range (said in a line at the open).
  void planesColour() {
    const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(planes);
    if (d && (d->flags & AV_PIX_FMT_FLAG_RGB) && isYuv(encoder->pix_fmt)) {
      colour.range = AVCOL_RANGE_MPEG;
      rangeLimited = false;
    } else if (rangeLimited) {
      planesRangeUnsaid = true;
      rangeLimited = false;
      colour.range = AVCOL_RANGE_JPEG;
    }
  }

  // Opens the encoder in the source's time base where the container takes
  // variable frame rates (MP4 and MOV do, though they do not say so: a frame
  // after a gap stays at its time, not on a grid of a guessed rate), else (or
  // if the encoder refuses it) in 1/rate.
  void openEncoder(const ImageView& px) {
    const bool variable = !(output->oformat->flags & AVFMT_NOTIMESTAMPS) &&
                          ((output->oformat->flags & AVFMT_VARIABLE_FPS) || movFamily(output->oformat));
    const bool sourceBase = sourceTimestamps && variable && sourceTimeBase.num > 0 && sourceTimeBase.den > 0;
    gridTimestamps = !variable;
    for (const AVRational tb : {sourceBase ? sourceTimeBase : av_inv_q(rate), av_inv_q(rate)}) {
      avcodec_free_context(&encoder);
      encoder = avcodec_alloc_context3(codec);
      encoder->width = width;
      encoder->height = height;
      encoder->time_base = tb;
      encoder->framerate = rate;
      encoder->sample_aspect_ratio = sampleAspect();  // in the bitstream too (H.264's VUI), not only the container
      chooseFormatAndDefaults(px);
      if (output->oformat->flags & AVFMT_GLOBALHEADER) encoder->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
      colour = outputColour(copy.get(), width, height);
      if (codec->id == AV_CODEC_ID_MJPEG) colour.range = AVCOL_RANGE_JPEG;  // JPEG is full range (JFIF)
      rangeLimited =
          colour.range == AVCOL_RANGE_JPEG && isYuv(encoder->pix_fmt) && !holdsFullRange(output->oformat, codec->id);
      if (rangeLimited) colour.range = AVCOL_RANGE_MPEG;
      if (planes != AV_PIX_FMT_NONE) planesColour();
      encoder->color_primaries = colour.primaries;
      encoder->color_trc = colour.transfer;
      encoder->colorspace = isYuv(encoder->pix_fmt) ? colour.space : AVCOL_SPC_RGB;
      encoder->color_range = isYuv(encoder->pix_fmt) ? colour.range : AVCOL_RANGE_JPEG;
      if (isGray(encoder->pix_fmt)) encoder->colorspace = AVCOL_SPC_UNSPECIFIED;
      for (const auto& [key, value] : encoderOptions)
        av_opt_set(encoder, key.c_str(), value.c_str(), AV_OPT_SEARCH_CHILDREN);
      clearLastFfmpegError();
      const int err = avcodec_open2(encoder, codec, nullptr);
      if (err >= 0) return;
      // FFmpeg's own reason where it logged one ("No capable devices found": an NVENC encoder on a GPU without NVENC).
      const std::string why = firstFfmpegError().empty() ? avError(err) : firstFfmpegError();
      if (tb.num == rate.den && tb.den == rate.num) {
        const std::string what = "The " + std::string(codec->name) + " encoder does not open for " +
                                 std::to_string(width) + "x" + std::to_string(height) + " frames";
        const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(encoder->pix_fmt);
        if (d && ((width % (1 << d->log2_chroma_w)) || (height % (1 << d->log2_chroma_h))))
          throw OutputError(what + ": its pixel format " + d->name + " needs a width divisible by " +
                            std::to_string(1 << d->log2_chroma_w) + " and a height by " +
                            std::to_string(1 << d->log2_chroma_h) +
                            " (--pix-fmt yuv444p, or an .mkv output, takes any size).");
        if (encoderOptions.empty() && pixelFormat == AV_PIX_FMT_NONE) throw OutputError(what + ": " + why + ".");
        std::string given;
        for (const auto& [key, value] : encoderOptions) given += (given.empty() ? "" : ", ") + key + "=" + value;
        if (pixelFormat != AV_PIX_FMT_NONE)
          given += (given.empty() ? "" : ", ") + std::string("pix_fmt=") + av_get_pix_fmt_name(pixelFormat);
        throw EncoderChoiceError(what + " with " + given + ": " + why + ".");
      }
    }
  }

  void open(const Frame& first, const ImageView& px) {
    width = px.width;
    height = px.height;
    if (sourceTimestamps && first.hasPts) {  // the time everything copied is shifted by
      haveFirst = true;
      firstSeconds = first.ptsSeconds;
    }
    openEncoder(px);
    int err = 0;
    stream = avformat_new_stream(output, nullptr);
    avcodec_parameters_from_context(stream->codecpar, encoder);
    stream->time_base = encoder->time_base;
    stream->avg_frame_rate = rate;
    addCopiedStreams();
    if (orientationPlan.writeMatrix)
      if (uint8_t* m = ffmpeg_compat::newStreamSideData(stream, AV_PKT_DATA_DISPLAYMATRIX, 36))
        std::memcpy(m, orientation.matrix.data(), 36);
    // HDR10's mastering display and light levels, as the input had them (the
    // container writes them: Matroska's MasteringMetadata, MP4's mdcv and clli).
    if (copy) {
      for (const auto& [type, bytes] : {std::pair{AV_PKT_DATA_MASTERING_DISPLAY_METADATA, &copy->masteringDisplay},
                                        std::pair{AV_PKT_DATA_CONTENT_LIGHT_LEVEL, &copy->contentLight}})
        if (!bytes->empty())
          if (uint8_t* d = ffmpeg_compat::newStreamSideData(stream, type, bytes->size()))
            std::memcpy(d, bytes->data(), bytes->size());
    }
    if (!orientationPlan.notice.empty()) notice() << "liveconv: " << orientationPlan.notice << "\n";
    if (planesRangeUnsaid)
      notice() << "liveconv: " << output->oformat->name << " with " << codec->name
               << " keeps no colour range: the input's full-range samples are written as they are, and players "
                  "will read them as limited range (.mkv and .mp4 keep the range).\n";
    if (planes != AV_PIX_FMT_NONE && encoder->pix_fmt != planes)
      notice() << "liveconv: " << codec->name << " takes no " << av_get_pix_fmt_name(planes)
               << ": the planes are written as " << av_get_pix_fmt_name(encoder->pix_fmt) << ".\n";
    if (rangeLimited)
      notice() << "liveconv: " << output->oformat->name << " with " << codec->name
               << " keeps no colour range, so the full-range frames of the input are written in limited range, "
                  "as players read them there (.mkv and .mp4 keep full range).\n";
    // The video is encoded here: its tags name this encoder and muxer, not
    // the input's (an FFV1 stream said ENCODER=... libx264).
    av_dict_set(&stream->metadata, "encoder", (std::string(LIBAVCODEC_IDENT) + " " + codec->name).c_str(), 0);
    av_dict_set(&output->metadata, "encoder", LIBAVFORMAT_IDENT, 0);
    AVDictionary* muxerOptions = nullptr;
    const std::string muxer = output->oformat->name;
    if (path.rfind("pipe:", 0) == 0 && (muxer == "mp4" || muxer == "mov"))  // a pipe cannot seek back to the index
      av_dict_set(&muxerOptions, "movflags", "frag_keyframe+empty_moov", 0);
    // One named picture (no %d pattern) rewritten in place, staged as a whole;
    // a sequence, one picture a frame (out001.png, out002.png ...), each written
    // whole under a temporary name first (the muxer's atomic writing).
    if (picturesOf(output->oformat))
      av_dict_set(&muxerOptions, onePictureIn(output->oformat, path) ? "update" : "atomic_writing", "1", 0);
    err = avformat_write_header(output, &muxerOptions);
    av_dict_free(&muxerOptions);
    if (err < 0)
      throw OutputError("Writing the header of " + outputName(path) + " failed: " + avError(err) + readerGone(err) +
                        ".");
    headerWritten = true;
    frame = av_frame_alloc();
    frame->format = encoder->pix_fmt;
    frame->width = width;
    frame->height = height;
    av_frame_get_buffer(frame, 0);
    packet = av_packet_alloc();
  }
};

EncoderSink::EncoderSink(const std::string& path, const std::string& codecName, const SinkOptions& options)
    : s_(std::make_unique<State>()) {
  const SinkOptions& timing = options;
  s_->path = path;
  if (timing.rateNum > 0 && timing.rateDen > 0) s_->rate = AVRational{timing.rateNum, timing.rateDen};
  s_->sourceTimeBase = AVRational{timing.timeBaseNum, timing.timeBaseDen > 0 ? timing.timeBaseDen : 1};
  s_->sourceTimestamps = timing.sourceTimestamps;
  s_->quiet = options.quiet;
  s_->output = allocOutput(path, options);
  s_->orientation = options.orientation;
  s_->orientationPlan = planOrientation(options.orientation, options.autorotate, s_->output->oformat, path);
  int err = 0;
  std::string name = codecName;
  const std::string muxer = s_->output->oformat->name;
  if (name.empty() && muxer == "image2") {  // one picture: the format its extension names (png, mjpeg, bmp ...)
    const AVCodecID id = av_guess_codec(s_->output->oformat, nullptr, path.c_str(), nullptr, AVMEDIA_TYPE_VIDEO);
    const AVCodec* picture = avcodec_find_encoder(id);
    if (!picture) throw EncoderChoiceError("This FFmpeg has no encoder for " + path + "'s picture format.");
    name = picture->name;
  }
  if (name.empty()) name = defaultVideoCodec(s_->output->oformat);
  if (name == "h264" || name == "x264") {
    s_->codec = avcodec_find_encoder_by_name("libx264");
    if (!s_->codec)
      throw EncoderChoiceError("This FFmpeg has no H.264 encoder (libx264); use --codec ffv1 or mpeg4 instead.");
  } else {
    s_->codec = avcodec_find_encoder_by_name(name.c_str());
    if (!s_->codec || s_->codec->type != AVMEDIA_TYPE_VIDEO)
      throw EncoderChoiceError("Unknown video encoder '" + name +
                               "'; 'ffmpeg -encoders' lists them (try ffv1 or h264).");
  }
  checkEncoderOptions(s_->codec, options.encoderOptions);
  s_->encoderOptions = options.encoderOptions;
  if (!options.pixelFormat.empty()) {
    s_->pixelFormat = av_get_pix_fmt(options.pixelFormat.c_str());
    const AVPixelFormat* formats = ffmpeg_compat::pixelFormats(s_->codec);
    bool supported = s_->pixelFormat != AV_PIX_FMT_NONE && !formats;
    for (const AVPixelFormat* f = formats; f && *f != AV_PIX_FMT_NONE; ++f) supported |= *f == s_->pixelFormat;
    if (!supported)
      throw EncoderChoiceError("The " + std::string(s_->codec->name) + " encoder does not take the pixel format '" +
                               options.pixelFormat + "'; 'ffmpeg -h encoder=" + s_->codec->name +
                               "' lists those it takes.");
  }
  // A muxer that opens its files itself (AVFMT_NOFILE) is staged only for one picture, whose one file it names.
  const bool opensItsOwnFiles = s_->output->oformat->flags & AVFMT_NOFILE;
  const bool onePicture = onePictureIn(s_->output->oformat, path);
  s_->staged = std::make_unique<StagedOutput>(path, (!opensItsOwnFiles || onePicture) && !plainFilePath(path).empty());
  if (!opensItsOwnFiles) {
    if ((err = avio_open(&s_->output->pb, s_->staged->url().c_str(), AVIO_FLAG_WRITE)) < 0)
      throw OutputError("Cannot write " + path + ": " + avError(err) + ".");
  } else if (s_->staged->staged()) {  // one picture: the muxer writes the temporary
    av_free(s_->output->url);
    s_->output->url = av_strdup(s_->staged->url().c_str());
  }
}

EncoderSink::~EncoderSink() {
  try {
    finish();
  } catch (...) {
  }
}

bool EncoderSink::turnsPixels() const {
  return s_->orientationPlan.turnPixels != 0;
}

std::string EncoderSink::containerName() const {
  return s_->output->oformat->name;
}

void EncoderSink::write(const Frame& f) {
  try {
    writeFrame(f);
  } catch (...) {
    s_->staged->fail();  // the file is incomplete: finish() leaves nothing under the user's name
    throw;
  }
}

void EncoderSink::writeFrame(const Frame& f) {
  if (!f.planes.empty()) return writePlanes(f);
  State& s = *s_;
  ImageView px = f.pixels();
  if (s.orientationPlan.turnPixels) {
    turnClockwise(px, s.orientationPlan.turnPixels, &s.turned);
    px = s.turned.view();
  }
  if (!s.encoder) s.open(f, px);
  // A gray input's RGBA16 frames (R, G and B alike) into a gray encoder: its
  // samples as they are (swscale's RGB -> gray at 16 bits is up to 6 off).
  if (px.format == PixelFormat::RGBA16 && isGray(s.encoder->pix_fmt)) {
    redAsGray(px, &s.gray);
    px = s.gray.view();
  }
  if ((px.width != s.width || px.height != s.height) && !s.warnedResize) {
    s.notice() << "liveconv: the stream changed from " << s.width << "x" << s.height << " to " << px.width << "x"
               << px.height << "; frames are scaled to " << s.width << "x" << s.height << " in " << s.path << ".\n";
    s.warnedResize = true;
  }
  // RGB -> the encoder's format; to YUV with the output's matrix and range.
  const ScalerColour toYuv{s.colour.swsTable, /*srcFullRange=*/true,
                           /*dstFullRange=*/s.colour.range == AVCOL_RANGE_JPEG};
  SwsContext* sws =
      s.scaler.get({px.width, px.height, avPixelFormatOf(px.format), s.width, s.height, s.encoder->pix_fmt},
                   isYuv(s.encoder->pix_fmt) ? &toYuv : nullptr);
  if (!sws)
    throw OutputError("Frames cannot be converted to " + std::string(av_get_pix_fmt_name(s.encoder->pix_fmt)) +
                      " for " + s.path + ".");
  // The encoder may still hold the last frame's buffers: new ones if so.
  if (av_frame_make_writable(s.frame) < 0 || !s.scaler.convert(px.data, static_cast<int>(px.strideBytes), s.frame))
    throw OutputError("Converting a frame to " + std::string(av_get_pix_fmt_name(s.encoder->pix_fmt)) + " for " +
                      s.path + " failed.");
  s.send(f, s.frame);
}

// Planes mode: the filtered planes into a frame of their format, which the
// encoder takes as it is where it takes that format at that size and range;
// else swscale converts it (gbrp into H.264's yuv420p, a full-range input
// into a container that keeps no range).
void EncoderSink::writePlanes(const Frame& f) {
  State& s = *s_;
  const ImageView first = f.planes[0].view();
  if (!s.encoder) {
    if (s.orientationPlan.turnPixels)
      throw OutputError("Planes mode keeps the picture as stored, and " + s.path +
                        " keeps no rotation to show it turned; write an .mkv or .mp4, or leave out --planes.");
    s.planes = static_cast<AVPixelFormat>(f.planesFormat);
    s.open(f, first);
  }
  AVFrame*& pf = s.planesFrame;
  if (!pf || pf->width != first.width || pf->height != first.height || pf->format != f.planesFormat) {
    av_frame_free(&pf);
    if (!(pf = av_frame_alloc())) throw std::bad_alloc();
    pf->format = f.planesFormat;
    pf->width = first.width;
    pf->height = first.height;
    if (av_frame_get_buffer(pf, 0) < 0) throw std::bad_alloc();
  }
  if (av_frame_make_writable(pf) < 0) throw std::bad_alloc();  // the encoder may still hold the last one
  copyFromPlanes(f.planes, pf);
  if (pf->format == s.encoder->pix_fmt && first.width == s.width && first.height == s.height) {
    s.send(f, pf);
    return;
  }
  if (av_frame_make_writable(s.frame) < 0) throw std::bad_alloc();
  if (first.width == s.width && first.height == s.height && repackExactly(pf, s.frame)) {
    s.send(f, s.frame);
    return;
  }
  if ((first.width != s.width || first.height != s.height) && !s.warnedResize) {
    s.notice() << "liveconv: the stream changed from " << s.width << "x" << s.height << " to " << first.width << "x"
               << first.height << "; frames are scaled to " << s.width << "x" << s.height << " in " << s.path << ".\n";
    s.warnedResize = true;
  }
  // YUV planes into another YUV format keep their range; RGB planes into YUV take the output's.
  const bool full = s.colour.range == AVCOL_RANGE_JPEG;
  const ScalerColour colour{s.colour.swsTable, full, full};
  const auto from = static_cast<AVPixelFormat>(pf->format);
  if (!s.scaler.get({first.width, first.height, from, s.width, s.height, s.encoder->pix_fmt}, &colour) ||
      !s.scaler.convert(pf, s.frame))
    throw OutputError("Converting a frame from " + std::string(av_get_pix_fmt_name(from)) + " to " +
                      av_get_pix_fmt_name(s.encoder->pix_fmt) + " for " + s.path + " failed.");
  s.send(f, s.frame);
}

void EncoderSink::finish() {
  State& s = *s_;
  if (s.finished) return;
  s.finished = true;
  try {
    if (s.headerWritten && !s.staged->failed()) {
      s.encode(nullptr);  // drain the frames the encoder still holds
      s.writeCopied(true);
      for (auto& [index, transcoder] : s.transcoders) transcoder->finish();
      const int err = av_write_trailer(s.output);
      if (err < 0)
        throw OutputError("Finishing " + outputName(s.path) + " failed: " + avError(err) + readerGone(err) + ".");
    }
    if (s.output->pb) {
      const int err = avio_closep(&s.output->pb);
      if (err < 0)
        throw OutputError("Finishing " + outputName(s.path) + " failed: " + avError(err) + readerGone(err) + ".");
    }
  } catch (...) {
    s.staged->discard();  // an unfinished file is not left under the user's name
    throw;
  }
  if (s.frames == 0 || !s.headerWritten) {  // nothing to keep: no file under the user's name
    s.staged->discard();
    return;
  }
  s.staged->commit();  // a failed write: discarded, the old file (if any) stays
}

void EncoderSink::carry(std::shared_ptr<StreamCopy> copy) {
  s_->copy = std::move(copy);
}

std::string EncoderSink::describe() const {
  return s_->path + " (" + s_->codec->name + " in " + s_->output->oformat->name + ")";
}

RawSink::RawSink(const std::string& path, const SinkOptions& options)
    : path_(path), stdout_(path == "-"), quiet_(options.quiet) {
  file_ = stdout_ ? stdout : std::fopen(path_.writePath().c_str(), "wb");
  if (!file_) throw OutputError("Cannot write " + path + ": " + std::strerror(errno) + ".");
  const OrientationPlan plan = planOrientation(options.orientation, options.autorotate, nullptr, path_.target());
  turn_ = plan.turnPixels;
  if (!plan.notice.empty() && !quiet_) std::cerr << "liveconv: " << plan.notice << "\n";
}

RawSink::~RawSink() {
  if (file_ && !stdout_) std::fclose(file_);  // not finished: the staged output removes the temporary
}

void RawSink::write(const Frame& f) {
  ImageView px = f.pixels();
  if (turn_) {
    turnClockwise(px, turn_, &turned_);
    px = turned_.view();
  }
  if (frames_ == 0) {
    width_ = px.width;
    height_ = px.height;
    format_ = px.format;
  } else if (px.width != width_ || px.height != height_) {
    if (!scaler_) {
      scaler_ = std::make_unique<ColourScaler>();
      scaled_ = Image(width_, height_, format_);
      if (!quiet_)
        std::cerr << "liveconv: the stream changed from " << width_ << "x" << height_ << " to " << px.width << "x"
                  << px.height << "; frames are scaled to " << width_ << "x" << height_ << " in " << path_.target()
                  << ".\n";
    }
    SwsContext* sws = scaler_->get(
        {px.width, px.height, avPixelFormatOf(px.format), width_, height_, avPixelFormatOf(format_)}, nullptr);
    if (!sws)
      throw OutputError("Frames of " + std::to_string(px.width) + "x" + std::to_string(px.height) +
                        " cannot be scaled for " + path_.target() + ".");
    if (!scaler_->convert(px.data, static_cast<int>(px.strideBytes), scaled_.data(),
                          static_cast<int>(scaled_.view().strideBytes)))
      throw OutputError("Scaling a frame for " + path_.target() + " failed.");
    px = scaled_.view();
  }
  for (int y = 0; y < px.height; ++y)
    if (std::fwrite(px.row(y), 1, px.rowBytes(), file_) != px.rowBytes()) {
      const int e = errno;
      path_.fail();  // a full disk, a write error: finish() leaves nothing under the user's name
      throw OutputError("Writing " + outputName(path_.target()) + " failed: " + std::strerror(e) +
                        readerGone(AVERROR(e)) + ".");
    }
  ++frames_;
}

void RawSink::finish() {
  if (!file_) return;
  const bool ok = stdout_ ? std::fflush(file_) == 0 : std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok) {
    const int e = errno;
    path_.discard();
    throw OutputError("Finishing " + outputName(path_.target()) + " failed: " + std::strerror(e) +
                      readerGone(AVERROR(e)) + ".");
  }
  if (frames_ == 0) {
    path_.discard();
    return;
  }
  path_.commit();  // a failed write: discarded, the old file (if any) stays
}

std::string RawSink::layout() const {
  const char* name = av_get_pix_fmt_name(avPixelFormatOf(format_));
  const std::string size = std::to_string(width_) + "x" + std::to_string(height_);
  return std::string(name) + " " + size + ", " + std::to_string(frames_) +
         " frames (read back with: ffplay -f rawvideo " + "-pixel_format " + name + " -video_size " + size + " " +
         path_.target() + ")";
}

std::string RawSink::describe() const {
  return path_.target() + " (raw frames, no header)";
}

void checkOutput(const std::string& output, const std::string& codecName, const SinkOptions& options) {
  if (output.empty())
    throw EncoderChoiceError("The output name is empty; name a file (out.mkv), - for standard output, or null.");
  if (output == "null" || output.rfind("raw:", 0) == 0 || isRawName(output, codecName)) return;
  if (output == "-" && options.container.empty())
    throw EncoderChoiceError(
        "-o - writes to standard output: name the container with --container (e.g. matroska "
        "or nut), or use raw:- for frames back to back.");
  avformat_free_context(allocOutput(output == "-" ? "pipe:1" : output, options));
}

std::unique_ptr<FrameSink> openSink(const std::string& output, const std::string& codecName,
                                    const SinkOptions& options) {
  checkOutput(output, codecName, options);
  if (output == "null") return std::make_unique<NullSink>();
  if (output.rfind("raw:", 0) == 0) return std::make_unique<RawSink>(output.substr(4), options);
  if (isRawName(output, codecName)) return std::make_unique<RawSink>(output, options);
  return std::make_unique<EncoderSink>(output == "-" ? "pipe:1" : output, codecName, options);
}

bool isSinglePicture(const std::string& output, const SinkOptions& options) {
  if (output.empty() || output == "-" || output == "null" || output.rfind("raw:", 0) == 0) return false;
  setUpFfmpeg();
  AVFormatContext* context = nullptr;
  const char* container = options.container.empty() ? nullptr : options.container.c_str();
  if (avformat_alloc_output_context2(&context, nullptr, container, output.c_str()) < 0 || !context) return false;
  const bool picture = onePictureIn(context->oformat, output);
  avformat_free_context(context);
  return picture;
}

std::string firstPictureOf(const std::string& output) {
  const AVOutputFormat* format = av_guess_format(nullptr, output.c_str(), nullptr);
  if (!picturesOf(format)) return "";  // clip%d.mkv is a name like any other
  std::string name(output.size() + 32, '\0');
  if (av_get_frame_filename2(name.data(), static_cast<int>(name.size()), output.c_str(), 1, 0) < 0) return "";
  name.resize(std::strlen(name.c_str()));
  return name;
}

}  // namespace liveconv::media
