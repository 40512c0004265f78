#include "liveconv/media/ffmpeg_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <thread>
#include <vector>

#include "av_error.hpp"
#include "liveconv/media/colour_scaler.hpp"
#include "liveconv/media/device_inputs.hpp"
#include "liveconv/media/ffmpeg_compat.hpp"
#include "liveconv/media/generated_sources.hpp"
#include "liveconv/media/hw_decode.hpp"
#include "liveconv/media/media_errors.hpp"
#include "liveconv/media/planes.hpp"
#include "liveconv/media/source_kinds.hpp"
#include "liveconv/parallel_copy.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

namespace liveconv::media {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

}  // namespace

bool deviceConverts(ConvertMode mode, PixelFormat format) {
  return mode == ConvertMode::Gpu || (mode == ConvertMode::Auto && bytesPerSample(format) == 1);
}

namespace {

// The decoded formats the device converts (kernels/convert.cl); the others go
// through swscale. `bits`: where given, the depth of the I4xxP16 layouts (9..16), else 0.
YuvLayout layoutOf(int format, int* bits = nullptr) {
  if (bits) *bits = 0;
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(format));
  // 9- to 16-bit planar YUV, little-endian, no alpha: yuv4xxp9le .. yuv4xxp16le.
  if (d && d->nb_components == 3 && !(d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_ALPHA)) &&
      (d->flags & AV_PIX_FMT_FLAG_PLANAR) && d->comp[0].plane == 0 && d->comp[1].plane == 1 && d->comp[2].plane == 2 &&
      d->comp[0].step == 2 && d->comp[0].depth > 8 && d->comp[0].depth != 10 && d->comp[0].shift == 0 &&
      d->log2_chroma_w <= 1 && d->log2_chroma_h <= d->log2_chroma_w && !(d->flags & AV_PIX_FMT_FLAG_HWACCEL)) {
    if (bits) *bits = d->comp[0].depth;
    return d->log2_chroma_h ? YuvLayout::I420P16 : d->log2_chroma_w ? YuvLayout::I422P16 : YuvLayout::I444P16;
  }
  switch (format) {
    case AV_PIX_FMT_YUV420P:
    case AV_PIX_FMT_YUVJ420P:
      return YuvLayout::I420;
    case AV_PIX_FMT_NV12:
      return YuvLayout::Nv12;
    case AV_PIX_FMT_YUV422P:
    case AV_PIX_FMT_YUVJ422P:
      return YuvLayout::I422;
    case AV_PIX_FMT_YUV444P:
    case AV_PIX_FMT_YUVJ444P:
      return YuvLayout::I444;
    case AV_PIX_FMT_YUYV422:
      return YuvLayout::Yuyv422;
    case AV_PIX_FMT_UYVY422:
      return YuvLayout::Uyvy422;
    case AV_PIX_FMT_YUV420P10LE:
      return YuvLayout::I420P10;
    case AV_PIX_FMT_P010LE:
      return YuvLayout::P010;
    case AV_PIX_FMT_YUV422P10LE:
      return YuvLayout::I422P10;
    case AV_PIX_FMT_YUV444P10LE:
      return YuvLayout::I444P10;
    case AV_PIX_FMT_RGB24:
      return YuvLayout::Rgb24;
    case AV_PIX_FMT_BGR24:
      return YuvLayout::Bgr24;
    case AV_PIX_FMT_P016LE:
      return YuvLayout::P016;
    case AV_PIX_FMT_RGB48LE:
      return YuvLayout::Rgb48;
    case AV_PIX_FMT_RGB48BE:
      return YuvLayout::Rgb48Be;
    case AV_PIX_FMT_GRAY16LE:
      return YuvLayout::Gray16;
    case AV_PIX_FMT_GRAY16BE:
      return YuvLayout::Gray16Be;
    default:
      return YuvLayout::Invalid;
  }
}

// The matrix both conversion paths use; Invalid for one the device path lacks.
// An untagged frame is read as players read it: BT.709 when HD, else BT.601.
YuvMatrix matrixOf(const AVFrame* f) {
  switch (f->colorspace) {
    case AVCOL_SPC_BT709:
      return YuvMatrix::Bt709;
    case AVCOL_SPC_UNSPECIFIED:
      return untaggedMatrixIsBt709(f->width, f->height) ? YuvMatrix::Bt709 : YuvMatrix::Bt601;
    case AVCOL_SPC_BT470BG:
    case AVCOL_SPC_SMPTE170M:
    case AVCOL_SPC_FCC:
      return YuvMatrix::Bt601;
    default:
      return YuvMatrix::Invalid;
  }
}

YuvRange rangeOf(const AVFrame* f) {
  if (f->color_range == AVCOL_RANGE_JPEG || f->format == AV_PIX_FMT_YUVJ420P || f->format == AV_PIX_FMT_YUVJ422P ||
      f->format == AV_PIX_FMT_YUVJ444P)
    return YuvRange::Full;
  return YuvRange::Limited;
}

int swsColorspace(const AVFrame* f) {
  switch (f->colorspace) {
    case AVCOL_SPC_BT709:
      return SWS_CS_ITU709;
    case AVCOL_SPC_UNSPECIFIED:
      return untaggedMatrixIsBt709(f->width, f->height) ? SWS_CS_ITU709 : SWS_CS_ITU601;
    case AVCOL_SPC_FCC:
      return SWS_CS_FCC;
    case AVCOL_SPC_SMPTE240M:
      return SWS_CS_SMPTE240M;
    case AVCOL_SPC_BT2020_NCL:
    case AVCOL_SPC_BT2020_CL:
      return SWS_CS_BT2020;
    default:
      return SWS_CS_ITU601;
  }
}

// Large planes (a 4K frame's Y plane) on the copier's threads as well.
void copyPlane(ParallelCopy& copier, std::uint8_t* to, const std::uint8_t* from, int fromStride, int rowBytes,
               int rows) {
  if (fromStride > 0) {
    copier.copyRows(to, std::size_t(rowBytes), from, std::size_t(fromStride), std::size_t(rowBytes), std::size_t(rows));
    return;
  }
  for (int y = 0; y < rows; ++y)  // rows stored bottom-up
    std::memcpy(to + std::size_t(y) * rowBytes, from + std::ptrdiff_t(y) * fromStride, rowBytes);
}

}  // namespace

bool untaggedMatrixIsBt709(int width, int height) {
  return width >= 1280 || height > 576;
}

ConvertMode parseConvertMode(const std::string& text) {
  if (text == "cpu") return ConvertMode::Cpu;
  if (text == "gpu") return ConvertMode::Gpu;
  if (text == "auto") return ConvertMode::Auto;
  return ConvertMode::Invalid;
}

const char* toString(ConvertMode mode) {
  switch (mode) {
    case ConvertMode::Cpu:
      return "cpu";
    case ConvertMode::Gpu:
      return "gpu";
    case ConvertMode::Auto:
      return "auto";
    case ConvertMode::Invalid:
      break;
  }
  return "?";
}

namespace {

// The last error FFmpeg logged on this thread: an input that fails to open
// is named with FFmpeg's reason ("Picture size 0x64 is invalid") where its
// error code says little or the wrong thing (EBUSY, for that y4m header).
thread_local std::string lastLoggedError;
thread_local std::string firstLoggedError;  // since clearLastFfmpegError(): the cause, where FFmpeg says it first

void logLine(void* context, int level, const char* format, va_list args) {
  if (level <= AV_LOG_ERROR) {
    char line[512];
    int printPrefix = 0;  // the message alone, without "[context @ address]"
    va_list copy;
    va_copy(copy, args);
    av_log_format_line2(context, level, format, copy, line, sizeof line, &printPrefix);
    va_end(copy);
    std::string text = line;
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    if (!text.empty()) lastLoggedError = text;
    if (!text.empty() && firstLoggedError.empty()) firstLoggedError = text;
  }
  av_log_default_callback(context, level, format, args);  // shown at the level set below
}

// FFmpeg's reason for the failure just seen, else the error code's text.
std::string openFailure(int err) {
  return lastLoggedError.empty() ? avError(err) : lastLoggedError;
}

}  // namespace

std::string lastFfmpegError() {
  return lastLoggedError;
}

std::string firstFfmpegError() {
  return firstLoggedError;
}

void clearLastFfmpegError() {
  lastLoggedError.clear();
  firstLoggedError.clear();
}

void setUpFfmpeg() {
  static const bool done = [] {
    // FFmpeg's own lines would repeat what our sentences say; LIVECONV_FFMPEG_LOG=1 shows them.
    av_log_set_level(std::getenv("LIVECONV_FFMPEG_LOG") ? AV_LOG_INFO : AV_LOG_FATAL);
    av_log_set_callback(logLine);
    return true;
  }();
  (void)done;
}

bool hasCameraSupport() {
  return deviceInputsFailure().empty();
}

// By the row of the source table the text is of (source_kinds.hpp): the
// row's parser says what FFmpeg opens.
SourceSpec parseSourceSpec(const std::string& text, const std::string& defaultClip) {
  const SourceKind& kind = sourceKindOf(text);
  ParsedSource parsed = parseOrThrow(kind, text);
  SourceSpec spec;
  spec.text = text.empty() ? defaultClip : parsed.name.empty() ? text : parsed.name;
  spec.url = text.empty() ? defaultClip : parsed.url;
  spec.inputFormat = parsed.inputFormat;
  spec.options = std::move(parsed.options);
  spec.live = kind.live;
  return spec;
}

namespace {

// Asked by FFmpeg's AVIOInterruptCB while it waits on the input: the source's
// stop (SourceSpec::stop), and the open's deadline (SourceSpec::openTimeoutSeconds).
struct Interrupt {
  std::function<bool()> stop;
  std::chrono::steady_clock::time_point deadline{};  // {}: none
  bool timedOut = false;

  static int ask(void* self) {
    auto* i = static_cast<Interrupt*>(self);
    if (i->deadline != std::chrono::steady_clock::time_point{} && std::chrono::steady_clock::now() > i->deadline)
      i->timedOut = true;
    return i->timedOut || (i->stop && i->stop()) ? 1 : 0;
  }
};

// A pipe, a FIFO or standard input, read through poll(). FFmpeg's own read
// blocks in the kernel, where no stop request reaches it: a writer that
// stalls held the run (Ctrl-C ignored) until it sent again or closed. Here
// the stop is asked every 100 ms of silence, and a FIFO opens at once even
// before its writer comes (the wait for it is a poll too).
class PolledInput {
 public:
  // The descriptor to poll for `spec`, or nullptr when FFmpeg reads it itself
  // (files, devices, URLs, lavfi, cameras). Throws InputError when a FIFO
  // cannot be opened.
  static std::unique_ptr<PolledInput> open(const SourceSpec& spec) {
    if (!spec.inputFormat.empty()) return nullptr;
    const std::string& url = spec.url;
    if (url == "-" || url == "pipe:" || url == "pipe:0")
      return std::make_unique<PolledInput>(STDIN_FILENO, false, spec.stop);
    if (url.rfind("pipe:", 0) == 0) {
      char* end = nullptr;
      const long fd = std::strtol(url.c_str() + 5, &end, 10);
      if (*end == '\0' && fd >= 0) return std::make_unique<PolledInput>(static_cast<int>(fd), false, spec.stop);
      return nullptr;
    }
    const std::string path = url.rfind("file:", 0) == 0 ? url.substr(5) : url;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISFIFO(st.st_mode)) return nullptr;
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);  // no wait for a writer here
    if (fd < 0) throw InputError("Input " + spec.text + " cannot be opened: " + std::strerror(errno) + ".");
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // poll() guards every read
    return std::make_unique<PolledInput>(fd, true, spec.stop);
  }

  PolledInput(int fd, bool owned, std::function<bool()> stop) : fd_(fd), owned_(owned), stop_(std::move(stop)) {
    constexpr int kBufferBytes = 64 * 1024;
    auto* buffer = static_cast<unsigned char*>(av_malloc(kBufferBytes));
    io_ = buffer ? avio_alloc_context(buffer, kBufferBytes, 0, this, &PolledInput::read, nullptr, nullptr) : nullptr;
    if (!io_) {
      av_free(buffer);
      throw std::bad_alloc();
    }
    io_->seekable = 0;
  }
  ~PolledInput() {
    if (io_) av_freep(&io_->buffer);
    avio_context_free(&io_);
    if (owned_) ::close(fd_);
  }
  PolledInput(const PolledInput&) = delete;
  PolledInput& operator=(const PolledInput&) = delete;

  AVIOContext* io() const { return io_; }

 private:
  static int read(void* opaque, uint8_t* buffer, int size) {
    auto* self = static_cast<PolledInput*>(opaque);
    for (;;) {
      if (self->stop_ && self->stop_()) return AVERROR_EXIT;
      pollfd p{self->fd_, POLLIN, 0};
      const int ready = ::poll(&p, 1, 100);
      if (ready < 0 && errno != EINTR) return AVERROR(errno);
      if (ready <= 0) continue;
      const ssize_t got = ::read(self->fd_, buffer, static_cast<std::size_t>(size));
      if (got > 0) return static_cast<int>(got);
      if (got == 0) return AVERROR_EOF;  // the writer closed
      if (errno != EINTR && errno != EAGAIN) return AVERROR(errno);
    }
  }

  int fd_;
  bool owned_;
  std::function<bool()> stop_;
  AVIOContext* io_ = nullptr;
};

}  // namespace

// A transport stream (any format FFmpeg marks AVFMT_TS_DISCONT) may restart
// its clock mid-file: a splice, a resolution change. As ffmpeg does, a packet
// whose dts falls more than 0.1 s behind its stream's latest, or jumps either way by
// more than 10 s from where the stream was heading, moves the file's offset
// so that it continues where its stream left off; every later packet of
// every stream moves by the same amount, so sound and picture stay together.
class Discontinuities {
 public:
  explicit Discontinuities(const AVFormatContext* input)
      : enabled_(input->iformat->flags & AVFMT_TS_DISCONT), streams_(input->nb_streams) {}

  void apply(const AVFormatContext* input, AVPacket* p) {
    if (!enabled_ || p->stream_index < 0 || p->stream_index >= static_cast<int>(streams_.size())) return;
    const AVStream* st = input->streams[p->stream_index];
    const AVMediaType type = st->codecpar->codec_type;
    shift(p, st->time_base, offset_);
    if (p->dts == AV_NOPTS_VALUE || (type != AVMEDIA_TYPE_VIDEO && type != AVMEDIA_TYPE_AUDIO)) return;
    Stream& s = streams_[p->stream_index];
    const int64_t dts = av_rescale_q(p->dts, st->time_base, AV_TIME_BASE_Q);
    if (s.next != AV_NOPTS_VALUE) {
      const int64_t delta = dts - s.next;
      if (delta < -kJump || delta > kJump || dts < s.last - AV_TIME_BASE / 10) {
        offset_ -= delta;
        shift(p, st->time_base, -delta);
      }
    }
    const int64_t at = av_rescale_q(p->dts, st->time_base, AV_TIME_BASE_Q);
    int64_t step = p->duration > 0 ? av_rescale_q(p->duration, st->time_base, AV_TIME_BASE_Q) : 0;
    if (step <= 0 && type == AVMEDIA_TYPE_VIDEO && st->avg_frame_rate.num > 0)
      step = av_rescale_q(1, av_inv_q(st->avg_frame_rate), AV_TIME_BASE_Q);
    s.next = at + step;
    s.last = std::max(s.last, at);
  }

  // After a seek the streams are where the seek put them.
  void reset() {
    offset_ = 0;
    for (Stream& s : streams_) s = Stream();
  }

 private:
  static constexpr int64_t kJump = 10LL * AV_TIME_BASE;
  struct Stream {
    int64_t next = AV_NOPTS_VALUE;  // the dts expected next (AV_TIME_BASE)
    int64_t last = INT64_MIN;       // the largest dts so far (AV_TIME_BASE)
  };
  static void shift(AVPacket* p, AVRational tb, int64_t by) {
    if (by == 0) return;
    const int64_t inTb = av_rescale_q(by, AV_TIME_BASE_Q, tb);
    if (p->dts != AV_NOPTS_VALUE) p->dts += inTb;
    if (p->pts != AV_NOPTS_VALUE) p->pts += inTb;
  }
  bool enabled_;
  int64_t offset_ = 0;  // AV_TIME_BASE, added to every packet
  std::vector<Stream> streams_;
};

struct FfmpegSource::State {
  SourceSpec spec;
  ParallelCopy copier{-1, "lc-dcopy"};  // lc-decode's copies of decoded planes into the packed ones
  PixelFormat format = PixelFormat::Invalid;
  AVFormatContext* input = nullptr;
  AVCodecContext* decoder = nullptr;
  ConvertMode convert = ConvertMode::Cpu;
  ColourScaler scaler;     // the CPU conversion (--convert cpu, and formats the device does not take)
  std::string conversion;  // conversionUsed()
  AVPacket* packet = nullptr;
  AVFrame* frame = nullptr;
  int stream = -1;
  bool flushed = false;                 // end of input reached, decoder told so
  int64_t seekTarget = AV_NOPTS_VALUE;  // after seek(): frames before it are decoded and dropped
  std::shared_ptr<StreamCopy> copy;     // the other streams' packets go here
  // Planes mode (setPlanes): the planes' format, and a frame of it for decoded
  // frames of another format to be rearranged into.
  AVPixelFormat planar = AV_PIX_FMT_NONE;
  AVFrame* planarFrame = nullptr;
  ColourScaler rearrange{1};

  // The first frame's HDR10 metadata, where the stream had none (HEVC's SEI).
  void keepHdrMetadata() {
    auto frameBytes = [this](AVFrameSideDataType type) {
      const AVFrameSideData* sd = av_frame_get_side_data(frame, type);
      return sd ? std::vector<std::uint8_t>(sd->data, sd->data + sd->size) : std::vector<std::uint8_t>{};
    };
    if (copy->masteringDisplay.empty()) copy->masteringDisplay = frameBytes(AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
    if (copy->contentLight.empty()) copy->contentLight = frameBytes(AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
  }
  long long delivered = 0;
  int consecutiveErrors = 0;
  std::unique_ptr<PolledInput> polled;  // pipes and FIFOs: read where a stop reaches (freed after `input`)
  std::unique_ptr<Discontinuities> discontinuities;
  Interrupt interrupt;  // on the heap with the State: FFmpeg keeps its address
  HwDecode hw;          // --hwaccel: on the heap with the State, which the decoder's get_format reaches (its opaque)
  std::string decoderNote;

  ~State() {
    av_frame_free(&planarFrame);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&decoder);
    avformat_close_input(&input);
  }

  // A frame decoded between the key frame a seek landed on and the seek's
  // target: not shown. The first one at the target ends the seek.
  bool beforeSeekTarget() {
    if (seekTarget == AV_NOPTS_VALUE) return false;
    const int64_t at = frame->best_effort_timestamp;
    if (at != AV_NOPTS_VALUE && at < seekTarget) return true;
    seekTarget = AV_NOPTS_VALUE;
    return false;
  }

  // A read that failed (not the input's end): a live source that stopped is
  // unavailable; anything else is counted in *corrupt and skipped, until 1000
  // in a row say the input cannot be read.
  void readFailed(int err, long long* corrupt) {
    if (spec.live)
      throw SourceUnavailable((spec.inputFormat == "v4l2" ? "Camera " : "Input ") + spec.text +
                              " stopped: " + avError(err) + ".");
    ++*corrupt;
    if (++consecutiveErrors <= 1000) return;
    // An MP4 written in one go has its index (moov) after the frames: a pipe
    // gives the index only once the frames it locates have gone by.
    const bool movOnAPipe =
        std::strncmp(input->iformat->name, "mov", 3) == 0 && input->pb && !(input->pb->seekable & AVIO_SEEKABLE_NORMAL);
    if (movOnAPipe)
      throw InputError("Input " + spec.text + " is an MP4 or MOV whose index comes after its frames, which " +
                       "cannot be read from a pipe: give its file name instead, or write it with ffmpeg's " +
                       "-movflags +faststart.");
    throw InputError("Input " + spec.text + " cannot be read: " + avError(err) + ".");
  }
};

FfmpegSource::FfmpegSource(const SourceSpec& spec, PixelFormat format, ConvertMode convert)
    : s_(std::make_unique<State>()) {
  setUpFfmpeg();
  s_->spec = spec;
  s_->format = format;
  s_->convert = convert == ConvertMode::Invalid ? ConvertMode::Cpu : convert;
  const AVInputFormat* inputFormat = nullptr;
  if (!spec.inputFormat.empty()) {
    // lavfi and v4l2 are libavdevice's, loaded on first use (device_inputs.hpp).
    if (const std::string& why = deviceInputsFailure(); !why.empty())
      throw InputError(why + ", so " + spec.text + " cannot be opened.");
    inputFormat = av_find_input_format(spec.inputFormat.c_str());
    if (!inputFormat)
      throw InputError("This FFmpeg has no '" + spec.inputFormat + "' input, so " + spec.text + " cannot be opened.");
  }
  AVDictionary* options = nullptr;
  for (const auto& [k, v] : spec.options) av_dict_set(&options, k.c_str(), v.c_str(), 0);
  s_->polled = PolledInput::open(s_->spec);
  const bool timed = spec.openTimeoutSeconds > 0 && !s_->polled;
  if (s_->spec.stop || s_->polled || timed) {
    if (!(s_->input = avformat_alloc_context())) throw std::bad_alloc();
    s_->interrupt.stop = s_->spec.stop;
    s_->input->interrupt_callback = {&Interrupt::ask, &s_->interrupt};
    if (s_->polled) s_->input->pb = s_->polled->io();
  }
  if (timed)
    s_->interrupt.deadline =
        std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                               std::chrono::duration<double>(spec.openTimeoutSeconds));
  // The input sent nothing in time: one sentence, whatever FFmpeg made of the interruption.
  const auto timedOut = [&] {
    if (s_->interrupt.timedOut) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", spec.openTimeoutSeconds);
      throw InputError("Input " + spec.text + " sent nothing to open in " + seconds +
                       " s; gave up (the open timeout, --open-timeout).");
    }
  };
  lastLoggedError.clear();
  int err = avformat_open_input(&s_->input, spec.url.c_str(), inputFormat, &options);
  av_dict_free(&options);
  if (err < 0) {
    timedOut();
    if (spec.inputFormat == "v4l2" && (err == AVERROR(EBUSY) || err == AVERROR(EAGAIN)))
      throw SourceUnavailable("Camera " + spec.text + " (" + spec.url + ") is busy: " + avError(err) + ".");
    if (spec.inputFormat == "v4l2")
      throw InputError("Camera " + spec.text + " (" + spec.url + ") cannot be opened: " + avError(err) +
                       ". Run 'liveconv cameras' to see the cameras there are.");
    if (err == AVERROR(ENOENT)) throw InputError("Input " + spec.text + " does not exist.");
    if (err == AVERROR_INVALIDDATA)
      throw InputError("Input " + spec.text + " is not a video file FFmpeg can read (" + openFailure(err) + ").");
    throw InputError("Input " + spec.text + " cannot be opened: " + openFailure(err) + ".");
  }
  if ((err = avformat_find_stream_info(s_->input, nullptr)) < 0) {
    timedOut();
    throw InputError("Input " + spec.text + " cannot be read: " + avError(err) + ".");
  }
  timedOut();                   // the probe may end early, without an error, on an input that sent nothing
  s_->interrupt.deadline = {};  // opened: reading waits as long as the stream takes
  const AVCodec* codec = nullptr;
  s_->stream = av_find_best_stream(s_->input, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
  if (s_->stream == AVERROR_STREAM_NOT_FOUND) throw InputError("Input " + spec.text + " has no video stream.");
  if (s_->stream < 0 || !codec)
    throw InputError("Input " + spec.text + " has a video stream this FFmpeg cannot decode.");
  s_->decoder = avcodec_alloc_context3(codec);
  avcodec_parameters_to_context(s_->decoder, s_->input->streams[s_->stream]->codecpar);
  s_->decoder->thread_count = 0;  // as many as FFmpeg finds useful
  setUpHardware(codec);
  if ((err = avcodec_open2(s_->decoder, codec, nullptr)) < 0)
    throw InputError("The " + std::string(codec->name) + " decoder for " + spec.text +
                     " failed to open: " + avError(err) + ".");
  s_->packet = av_packet_alloc();
  s_->frame = av_frame_alloc();
  s_->discontinuities = std::make_unique<Discontinuities>(s_->input);
}

FfmpegSource::~FfmpegSource() = default;

// --hwaccel: the device attached to the decoder, or the CPU decoder with the line that says why.
void FfmpegSource::setUpHardware(const AVCodec* codec) {
  State& s = *s_;
  const std::string asked = s.spec.hwaccel;
  if (asked.empty() || asked == "none") return;
  const std::string chosen = asked == "auto" ? chooseAutomatically(codec) : asked;
  if (chosen == "none") return;  // auto chose the CPU and said why
  const std::string why = s.hw.attach(s.decoder, codec, av_hwdevice_find_type_by_name(chosen.c_str()));
  if (!why.empty()) s.decoderNote = "--hwaccel " + asked + ": " + why + "; decoding on the CPU.";
}

namespace {

// Frames per second of the decoder `hwaccel` names on this input, from the
// second frame (the first carries the decoder's set-up) to the 60th or 2 s;
// 0 where the hardware left the stream to the CPU decoder.
double decodeRate(const SourceSpec& spec, const std::string& hwaccel, PixelFormat format) {
  SourceSpec probe = spec;
  probe.hwaccel = hwaccel;
  FfmpegSource source(probe, format, ConvertMode::Gpu);  // planes as the device takes them: the copy `run` makes
  Frame frame;
  if (!source.next(frame)) return 0;
  const auto start = Clock::now();
  int frames = 0;
  while (frames < 60 && msSince(start) < 2000 && source.next(frame)) ++frames;
  const double seconds = msSince(start) / 1000;
  if (frames == 0 || seconds <= 0 || (hwaccel != "none" && source.decoderUsed() != hwaccel)) return 0;
  return frames / seconds;
}

std::string machineName() {
  char host[256] = {};
  return ::gethostname(host, sizeof host - 1) == 0 ? host : "this machine";
}

}  // namespace

// --hwaccel auto: the hardware decoders that open here for this codec, each
// timed against the CPU decoder on the file's first frames; the faster is
// kept per machine, codec, profile, size and pixel format. A live source or a
// pipe cannot be read twice: it takes the first hardware decoder that opens.
std::string FfmpegSource::chooseAutomatically(const AVCodec* codec) {
  State& s = *s_;
  const AVCodecParameters* par = s.input->streams[s.stream]->codecpar;
  const char* profile = avcodec_profile_name(par->codec_id, par->profile);
  const char* pixels = av_get_pix_fmt_name(static_cast<AVPixelFormat>(par->format));
  std::ostringstream k;
  k << machineName() << "|" << codec->name << "|" << (profile ? profile : "-") << "|" << par->width << "x"
    << par->height << "|" << (pixels ? pixels : "-");
  const std::string key = k.str(), what = std::string(codec->name) + " " + std::to_string(par->width) + "x" +
                                          std::to_string(par->height);
  if (const std::string cached = cachedDecoderChoice(key); !cached.empty()) {
    s.decoderNote = "--hwaccel auto: " + std::string(cached == "none" ? "the CPU" : cached) + " (measured before for " +
                    what + " on this machine).";
    return cached;
  }
  std::vector<std::string> usable, refused;
  for (AVHWDeviceType type : autoHwTypes()) {
    AVCodecContext* scratch = avcodec_alloc_context3(codec);
    HwDecode hw;
    const std::string why = scratch ? hw.attach(scratch, codec, type) : "out of memory";
    avcodec_free_context(&scratch);
    (why.empty() ? usable : refused).push_back(why.empty() ? av_hwdevice_get_type_name(type) : why);
  }
  if (usable.empty()) {
    std::string reasons;
    for (const std::string& r : refused) reasons += (reasons.empty() ? "" : "; ") + r;
    s.decoderNote = "--hwaccel auto: no hardware decoder for " + what + " here (" + reasons + "); decoding on the CPU.";
    return "none";
  }
  const bool seekable = !s.spec.live && !s.polled && s.input->pb && (s.input->pb->seekable & AVIO_SEEKABLE_NORMAL);
  if (!seekable) {
    s.decoderNote =
        "--hwaccel auto: " + usable.front() + " (the first that opens: a live source or a pipe is not measured).";
    return usable.front();
  }
  // A hardware decoder is kept only where it decodes at least this much faster
  // than the CPU: its frames come back over the bus, and where the same GPU
  // filters they compete with the filter for it, so decoding alone overstates
  // what it brings to a whole run (on an H200 with 16 cores, the frames copied
  // back into pageable memory: 4K HEVC 10-bit decoded alone 1.1x faster on
  // NVDEC, the whole run with the 7x7 filter 3.2x slower; 4K H.264 0.8x and
  // 2.0x slower). The rates with page-locked copies: docs/benchmarks.md.
  constexpr double kHardwareMargin = 1.25;
  std::string best = "none", measured;
  double bestRate = 0, cpuRate = 0;
  usable.insert(usable.begin(), "none");
  for (const std::string& name : usable) {
    double rate = 0;
    try {
      rate = decodeRate(s.spec, name, s.format);
    } catch (const std::exception&) {
      rate = 0;  // this decoder cannot read the file through: not a candidate
    }
    char line[96];
    std::snprintf(line, sizeof line, "%s%s %.0f fps", measured.empty() ? "" : ", ",
                  name == "none" ? "CPU" : name.c_str(), rate);
    measured += line;
    if (name == "none") cpuRate = rate;
    const double needed = name == "none" ? bestRate : std::max(bestRate, cpuRate * kHardwareMargin);
    if (rate > needed) bestRate = rate, best = name;
  }
  rememberDecoderChoice(key, best, measured);
  s.decoderNote = "--hwaccel auto: " + std::string(best == "none" ? "the CPU" : best) + " for " + what +
                  " (measured on its first frames: " + measured +
                  "; hardware must be 1.25x faster; kept for this machine).";
  return best;
}

bool FfmpegSource::isLive() const {
  return s_->spec.live;
}

bool FfmpegSource::frameSize(int* width, int* height) const {
  if (!s_->decoder || s_->decoder->width <= 0 || s_->decoder->height <= 0) return false;
  *width = s_->decoder->width;
  *height = s_->decoder->height;
  return true;
}

YuvLayout FfmpegSource::planesLayout() const {
  // A hardware decoder's planes (NV12, P010, ...) are known from its first frame.
  if (!s_->decoder || !deviceConverts(s_->convert, s_->format) || s_->hw.attached()) return YuvLayout::Invalid;
  return layoutOf(s_->decoder->pix_fmt);
}

long long FfmpegSource::expectedFrames() const {
  const AVStream* st = s_->input->streams[s_->stream];
  if (st->nb_frames > 0) return st->nb_frames;
  // A picture file (FFmpeg's image demuxers: png_pipe, jpeg_pipe ...) is one
  // frame; the same demuxers on a pipe may read several, one after another.
  const std::string demuxer = s_->input->iformat->name;
  std::error_code ec;
  if (demuxer.size() > 5 && demuxer.compare(demuxer.size() - 5, 5, "_pipe") == 0 && s_->input->url &&
      std::filesystem::is_regular_file(s_->input->url, ec))
    return 1;
  if (s_->input->duration > 0) {
    const AVRational rate = av_guess_frame_rate(s_->input, const_cast<AVStream*>(st), nullptr);
    if (rate.num > 0) return static_cast<long long>(s_->input->duration / double(AV_TIME_BASE) * av_q2d(rate) + 0.5);
  }
  return -1;
}

void FfmpegSource::frameRate(int* numerator, int* denominator) const {
  AVRational rate = av_guess_frame_rate(s_->input, s_->input->streams[s_->stream], nullptr);
  if (rate.num <= 0 || rate.den <= 0) rate = AVRational{25, 1};
  *numerator = rate.num;
  *denominator = rate.den;
}

void FfmpegSource::timeBase(int* numerator, int* denominator) const {
  const AVRational tb = s_->input->streams[s_->stream]->time_base;
  *numerator = tb.num;
  *denominator = tb.den;
}

void FfmpegSource::copyStreamsInto(std::shared_ptr<StreamCopy> copy, bool audio, bool subtitles, bool chapters) {
  const AVFormatContext* in = s_->input;
  for (unsigned i = 0; i < in->nb_streams; ++i) {
    const AVStream* st = in->streams[i];
    const AVMediaType type = st->codecpar->codec_type;
    const bool wanted = (audio && type == AVMEDIA_TYPE_AUDIO) || (subtitles && type == AVMEDIA_TYPE_SUBTITLE);
    if (static_cast<int>(i) == s_->stream || !wanted || (st->disposition & AV_DISPOSITION_ATTACHED_PIC)) continue;
    StreamCopy::Stream out;
    out.inputIndex = static_cast<int>(i);
    out.parameters = avcodec_parameters_alloc();
    avcodec_parameters_copy(out.parameters, st->codecpar);
    out.timeBaseNum = st->time_base.num;
    out.timeBaseDen = st->time_base.den;
    av_dict_copy(&out.metadata, st->metadata, 0);
    out.disposition = st->disposition;
    out.kind = av_get_media_type_string(type);
    out.codec = avcodec_get_name(st->codecpar->codec_id);
    out.hasStart = st->start_time != AV_NOPTS_VALUE;
    if (out.hasStart) out.startSeconds = st->start_time * av_q2d(st->time_base);
    copy->streams.push_back(out);
  }
  av_dict_copy(&copy->containerMetadata, in->metadata, 0);
  for (unsigned i = 0; chapters && i < in->nb_chapters; ++i) {
    const AVChapter* c = in->chapters[i];
    StreamCopy::Chapter out;
    out.id = c->id;
    out.start = c->start;
    out.end = c->end;
    out.timeBaseNum = c->time_base.num;
    out.timeBaseDen = c->time_base.den;
    av_dict_copy(&out.metadata, c->metadata, 0);
    copy->chapters.push_back(out);
  }
  const AVStream* video = in->streams[s_->stream];
  av_dict_copy(&copy->videoMetadata, video->metadata, 0);
  const AVRational sar = av_guess_sample_aspect_ratio(s_->input, const_cast<AVStream*>(video), nullptr);
  copy->sampleAspectNum = sar.num;
  copy->sampleAspectDen = sar.den > 0 ? sar.den : 1;
  copy->pixelFormat = video->codecpar->format;
  copy->colorSpace = video->codecpar->color_space;
  copy->colorRange = video->codecpar->color_range;
  copy->colorPrimaries = video->codecpar->color_primaries;
  copy->colorTransfer = video->codecpar->color_trc;
  auto streamBytes = [video](AVPacketSideDataType type) {
    std::size_t size = 0;
    const std::uint8_t* data = ffmpeg_compat::streamSideData(video, type, &size);
    return data ? std::vector<std::uint8_t>(data, data + size) : std::vector<std::uint8_t>{};
  };
  copy->masteringDisplay = streamBytes(AV_PKT_DATA_MASTERING_DISPLAY_METADATA);
  copy->contentLight = streamBytes(AV_PKT_DATA_CONTENT_LIGHT_LEVEL);
  s_->copy = std::move(copy);
}

std::vector<std::uint8_t> FfmpegSource::displayMatrix() const {
  size_t size = 0;
  const uint8_t* matrix =
      ffmpeg_compat::streamSideData(s_->input->streams[s_->stream], AV_PKT_DATA_DISPLAYMATRIX, &size);
  return matrix && size >= 36 ? std::vector<std::uint8_t>(matrix, matrix + 36) : std::vector<std::uint8_t>{};
}

std::string FfmpegSource::conversionUsed() const {
  return s_->conversion;
}

// Planes mode: the decoded frame's planes as they are (or rearranged
// without loss into the planar format chosen at setPlanes()).
void FfmpegSource::convertToPlanes(Frame& out) {
  State& s = *s_;
  const AVFrame* f = s.hw.toHost(s.frame, s.spec.text);
  const auto format = static_cast<AVPixelFormat>(f->format);
  if (planarFormatFor(format) != s.planar || !isFilterablePlanar(format)) {
    AVFrame*& to = s.planarFrame;
    if (!to || to->width != f->width || to->height != f->height) {
      av_frame_free(&to);
      if (!(to = av_frame_alloc())) throw std::bad_alloc();
      to->format = s.planar;
      to->width = f->width;
      to->height = f->height;
      if (av_frame_get_buffer(to, 0) < 0) throw std::bad_alloc();
    }
    if (av_frame_make_writable(to) < 0) throw std::bad_alloc();
    if (!repackExactly(f, to) &&
        (!s.rearrange.get({f->width, f->height, format, f->width, f->height, s.planar}, nullptr) ||
         !s.rearrange.convert(f, to)))
      throw InputError("Frames of " + s.spec.text + " cannot be rearranged into " + av_get_pix_fmt_name(s.planar) +
                       " planes.");
    f = to;
  }
  copyIntoPlanes(f, &out.planes);
  out.planesFormat = s.planar;
  const char* name = av_get_pix_fmt_name(format);
  s.conversion = f != s.planarFrame ? std::string("not at all (planes of ") + (name ? name : "?") + ")"
                                    : std::string("not at all (") + (name ? name : "?") + " rearranged into " +
                                          av_get_pix_fmt_name(s.planar) + " planes without loss)";
}

std::string FfmpegSource::setPlanes() {
  const AVStream* st = s_->input->streams[s_->stream];
  const auto format = static_cast<AVPixelFormat>(st->codecpar->format);
  const AVPixelFormat planar = planarFormatFor(format);
  if (planar == AV_PIX_FMT_NONE) {
    const char* name = av_get_pix_fmt_name(format);
    return s_->spec.text + " decodes to " + (name ? name : "an unknown pixel format") +
           ", which planes mode cannot take apart into planes without loss; leave out --planes.";
  }
  s_->planar = planar;
  return {};
}

int FfmpegSource::planesFormat() const {
  return s_->planar;
}

void FfmpegSource::convert(Frame& out) {
  State& s = *s_;
  if (s.planar != AV_PIX_FMT_NONE) return convertToPlanes(out);
  // A frame in a device's memory (--hwaccel) comes back in its planes (NV12, P010, ...).
  const AVFrame* f = s.frame;
  const int planesFormat = HwDecode::planesFormat(f);
  const int w = f->width, h = f->height;
  int bits = 0;
  const YuvLayout layout = layoutOf(planesFormat, &bits);
  const YuvMatrix matrix = matrixOf(f);
  const char* formatName = av_get_pix_fmt_name(static_cast<AVPixelFormat>(planesFormat));
  const bool rgb = isRgbLayout(layout);
  // The device converts to the engine's format: at 8 bits unless --convert cpu;
  // at 16 bits only with --convert gpu (auto keeps swscale there, whose
  // conversion the encoder's undoes exactly: an identity run keeps every sample).
  if (deviceConverts(s.convert, s.format) && layout != YuvLayout::Invalid && (rgb || matrix != YuvMatrix::Invalid)) {
    // The device converts: hand on the planes, packed.
    YuvImage& yuv = out.yuv;
    yuv.layout = layout;
    yuv.matrix = rgb ? YuvMatrix::Invalid : matrix;
    yuv.range = rgb ? YuvRange::Invalid : rangeOf(f);
    yuv.convertTo = s.format;
    yuv.bits = bits;
    yuv.allocate(w, h);
    const int cw = yuv.chromaWidth(), ch = yuv.chromaHeight(), bytes = YuvImage::sampleBytes(layout);
    std::uint8_t* p = yuv.bytes.data();
    s.conversion = rgb ? std::string("on the device (") + formatName + ")"
                       : std::string("on the device (") + formatName + ", " + toString(matrix) + ", " +
                             toString(yuv.range) + " range)";
    // From the device's memory straight into the packed planes: one copy, no
    // frame allocated. FFmpeg's copy takes chroma rows as height / 2 and the
    // planes of every output, so odd sizes and GRAY8 (which carries Y alone)
    // come back through a frame of FFmpeg's and are packed from it.
    const bool semiPlanar = layout == YuvLayout::Nv12 || layout == YuvLayout::P010 || layout == YuvLayout::P016;
    if (channelCount(s.format) == 4 && semiPlanar && w % 2 == 0 && h % 2 == 0) {
      std::uint8_t* const planes[4] = {p, p + std::size_t(w) * h * bytes, nullptr, nullptr};
      const int linesizes[4] = {w * bytes, 2 * cw * bytes, 0, 0};
      if (s.hw.copyTo(s.frame, planes, linesizes, yuv.bytes.size(), s.spec.text)) return;
    }
    f = s.hw.toHost(s.frame, s.spec.text);
    if (!YuvImage::lumaPlaneFirst(layout)) {  // one packed plane
      copyPlane(s.copier, p, f->data[0], f->linesize[0], static_cast<int>(yuv.bytes.size() / std::size_t(h)), h);
    } else {
      copyPlane(s.copier, p, f->data[0], f->linesize[0], w * bytes, h);
      p += std::size_t(w) * h * bytes;
      if (channelCount(s.format) == 4) {  // gray needs Y alone
        if (semiPlanar) {
          copyPlane(s.copier, p, f->data[1], f->linesize[1], 2 * cw * bytes, ch);
        } else {
          copyPlane(s.copier, p, f->data[1], f->linesize[1], cw * bytes, ch);
          copyPlane(s.copier, p + std::size_t(cw) * ch * bytes, f->data[2], f->linesize[2], cw * bytes, ch);
        }
      }
    }
    return;
  }
  f = s.hw.toHost(s.frame, s.spec.text);
  const AVPixelFormat target = avPixelFormatOf(s.format);
  // A new context only when the size or format changes mid-stream; the
  // frame's own matrix and range, as the device path reads them; output is full-range RGB.
  const AVPixFmtDescriptor* desc = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(f->format));
  const bool yuvSource = desc && !(desc->flags & AV_PIX_FMT_FLAG_RGB) && desc->nb_components >= 3;
  const ScalerColour fromYuv{swsColorspace(f), /*srcFullRange=*/rangeOf(f) == YuvRange::Full, /*dstFullRange=*/true};
  SwsContext* sws =
      s.scaler.get({w, h, static_cast<AVPixelFormat>(f->format), w, h, target}, yuvSource ? &fromYuv : nullptr);
  if (!sws) throw InputError("Frames of " + s.spec.text + " cannot be converted to " + toString(s.format) + ".");
  out.image = Image(w, h, s.format);
  if (!s.scaler.convert(f, out.image.data(), static_cast<int>(out.image.view().strideBytes)))
    throw InputError("Frames of " + s.spec.text + " cannot be converted to " + toString(s.format) + ".");
  s.conversion = std::string("by swscale (") + (formatName ? formatName : "?") + ")";
}

double FfmpegSource::startSeconds() const {
  const AVStream* st = s_->input->streams[s_->stream];
  return st->start_time == AV_NOPTS_VALUE ? 0 : st->start_time * av_q2d(st->time_base);
}

bool FfmpegSource::setFormat(PixelFormat format) {
  if (bytesPerPixel(format) == 0) return false;
  s_->format = format;
  return true;
}

int FfmpegSource::sampleBits() const {
  const AVStream* st = s_->input->streams[s_->stream];
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(st->codecpar->format));
  if (!d) return 8;
  int bits = 0;
  for (int c = 0; c < d->nb_components; ++c) bits = std::max(bits, d->comp[c].depth);
  return bits > 0 ? bits : 8;
}

double FfmpegSource::durationSeconds() const {
  if (s_->spec.live) return 0;
  const AVStream* st = s_->input->streams[s_->stream];
  if (st->duration > 0) return st->duration * av_q2d(st->time_base);
  return s_->input->duration > 0 ? s_->input->duration / double(AV_TIME_BASE) : 0;
}

// Back to the key frame at or before the target, then forward: next() drops
// the frames before it, so the frame delivered is the one shown at `seconds`.
bool FfmpegSource::seek(double seconds) {
  State& s = *s_;
  if (s.spec.live || !s.input->pb) return false;
  const AVStream* st = s.input->streams[s.stream];
  const int64_t start = st->start_time == AV_NOPTS_VALUE ? 0 : st->start_time;
  const int64_t target = start + static_cast<int64_t>(std::max(0.0, seconds) / av_q2d(st->time_base));
  if (av_seek_frame(s.input, s.stream, target, AVSEEK_FLAG_BACKWARD) < 0) return false;
  avcodec_flush_buffers(s.decoder);
  s.discontinuities->reset();
  s.flushed = false;
  s.seekTarget = target;
  return true;
}

std::string FfmpegSource::describe() const {
  std::ostringstream out;
  out << s_->spec.text << " (" << s_->input->iformat->name << ", " << s_->decoder->codec->name << " "
      << s_->decoder->width << "x" << s_->decoder->height;
  if (s_->spec.hwaccel != "none")
    out << (s_->hw.attached() && !s_->hw.fellBack() ? ", decoded by " : ", decoded on ") << decoderUsed();
  out << ")";
  return out.str();
}

std::string FfmpegSource::decoderUsed() const {
  return s_->hw.attached() && !s_->hw.fellBack() ? s_->hw.typeName() : "the CPU";
}

std::string FfmpegSource::decoderNote() const {
  return s_->decoderNote;
}

std::string FfmpegSource::decoderFallback() const {
  if (!s_->hw.fellBack()) return {};
  return std::string(s_->hw.typeName()) + " did not decode " + s_->spec.text +
         " (FFmpeg's hardware path refused its profile or size); the CPU decoder did.";
}

bool FfmpegSource::next(Frame& out) {
  State& s = *s_;
  const auto start = Clock::now();
  for (;;) {
    int err = avcodec_receive_frame(s.decoder, s.frame);
    if (err == 0) {
      if (s.beforeSeekTarget()) {
        av_frame_unref(s.frame);
        continue;
      }
      if (s.frame->flags & AV_FRAME_FLAG_CORRUPT) ++corrupt_;
      const double decodeMs = msSince(start);
      const auto convertStart = Clock::now();
      out = Frame();
      convert(out);
      const AVRational tb = s.input->streams[s.stream]->time_base;
      const int64_t pts = s.frame->best_effort_timestamp;
      out.ptsSeconds = pts == AV_NOPTS_VALUE ? 0 : pts * av_q2d(tb);
      out.hasPts = pts != AV_NOPTS_VALUE;
      const int64_t shown = ffmpeg_compat::frameDuration(s.frame);
      out.durationSeconds = shown > 0 ? shown * av_q2d(tb) : 0;
      if (s.delivered == 0 && s.copy) s.keepHdrMetadata();
      out.index = s.delivered++;
      out.decodeMs = decodeMs;
      out.convertMs = msSince(convertStart);
      av_frame_unref(s.frame);
      s.consecutiveErrors = 0;
      return true;
    }
    if (err == AVERROR_EOF) return false;
    if (err != AVERROR(EAGAIN)) {
      ++corrupt_;  // a frame the decoder could not rebuild: skip it, go on
      if (++s.consecutiveErrors > 1000)
        throw InputError("Input " + s.spec.text + " cannot be decoded: " + avError(err) + ".");
      continue;
    }
    if (s.flushed) return false;
    // The decoder wants more input.
    err = av_read_frame(s.input, s.packet);
    if (err == AVERROR(EAGAIN)) {  // a camera with no frame ready yet
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    if (err == AVERROR_EXIT || (s.spec.stop && s.spec.stop())) return false;  // stopped: not the input's end
    if (err == AVERROR_EOF || (err < 0 && avio_feof(s.input->pb))) {
      avcodec_send_packet(s.decoder, nullptr);
      s.flushed = true;
      if (s.copy) s.copy->markInputEnded();
      continue;
    }
    if (err < 0) {
      s.readFailed(err, &corrupt_);
      continue;
    }
    s.discontinuities->apply(s.input, s.packet);
    if (s.packet->stream_index == s.stream) {
      if (s.packet->flags & AV_PKT_FLAG_CORRUPT) ++corrupt_;
      err = avcodec_send_packet(s.decoder, s.packet);
      if (err < 0 && err != AVERROR(EAGAIN)) ++corrupt_;  // a bad packet: skipped, counted
    } else if (s.copy && s.copy->copies(s.packet->stream_index)) {
      s.copy->push(s.packet);
    }
    av_packet_unref(s.packet);
  }
}

}  // namespace liveconv::media
