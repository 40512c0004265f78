#include "liveconv/media/hw_decode.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "av_error.hpp"
#include "liveconv/image.hpp"
#include "liveconv/media/media_errors.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/pixdesc.h>
}

namespace liveconv::media {

std::string checkHwAccel(const std::string& name) {
  if (name == "none" || name == "auto") return {};
  if (!name.empty() && av_hwdevice_find_type_by_name(name.c_str()) != AV_HWDEVICE_TYPE_NONE) return {};
  std::string known;
  for (AVHWDeviceType t = av_hwdevice_iterate_types(AV_HWDEVICE_TYPE_NONE); t != AV_HWDEVICE_TYPE_NONE;
       t = av_hwdevice_iterate_types(t))
    known += std::string(", ") + av_hwdevice_get_type_name(t);
  return "--hwaccel '" + name + "' is not a hardware decoder this FFmpeg knows; use none, auto" + known + ".";
}

std::vector<AVHWDeviceType> autoHwTypes() {
  return {AV_HWDEVICE_TYPE_CUDA, AV_HWDEVICE_TYPE_VAAPI};
}

namespace {

// Page-locks pixel blocks with CUDA's driver API (cuMemHostRegister), in the
// context FFmpeg's cuda device made, so that av_hwframe_transfer_data's copy
// from NVDEC's frames is a DMA into them: into pageable memory the driver
// copies through its own bounce buffers, at a third of the speed or less.
// The driver is FFmpeg's already (dlopen'ed by its cuda device); its header
// is not needed for these five calls.
class CudaHostLocker final : public PixelMemoryLocker {
 public:
  // nullptr where the driver does not give these calls.
  static std::unique_ptr<CudaHostLocker> open(AVBufferRef* device) {
    // FFmpeg's AVCUDADeviceContext (libavutil/hwcontext_cuda.h, which needs
    // CUDA's cuda.h) starts with the CUcontext it made.
    struct CudaDeviceHead {
      void* context;
    };
    const auto* head = static_cast<const CudaDeviceHead*>(reinterpret_cast<AVHWDeviceContext*>(device->data)->hwctx);
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib || !head || !head->context) {
      if (lib) dlclose(lib);
      return nullptr;
    }
    auto locker = std::unique_ptr<CudaHostLocker>(new CudaHostLocker(lib, head->context));
    if (!locker->push_ || !locker->pop_ || !locker->register_ || !locker->unregister_) return nullptr;
    return locker;
  }
  ~CudaHostLocker() override { dlclose(lib_); }

  bool lock(void* p, std::size_t bytes) override {
    if (push_(context_) != 0) return false;
    const int result = register_(p, bytes, kPortable);
    void* popped = nullptr;
    pop_(&popped);
    return result == 0;
  }
  void unlock(void* p, std::size_t) override {
    if (push_(context_) != 0) return;
    unregister_(p);
    void* popped = nullptr;
    pop_(&popped);
  }

 private:
  static constexpr unsigned kPortable = 0x01;  // CU_MEMHOSTREGISTER_PORTABLE: locked for every context
  using PushFn = int (*)(void*);
  using PopFn = int (*)(void**);
  using RegisterFn = int (*)(void*, std::size_t, unsigned);
  using UnregisterFn = int (*)(void*);

  CudaHostLocker(void* lib, void* context)
      : lib_(lib),
        context_(context),
        push_(reinterpret_cast<PushFn>(dlsym(lib, "cuCtxPushCurrent_v2"))),
        pop_(reinterpret_cast<PopFn>(dlsym(lib, "cuCtxPopCurrent_v2"))),
        register_(reinterpret_cast<RegisterFn>(dlsym(lib, "cuMemHostRegister_v2"))),
        unregister_(reinterpret_cast<UnregisterFn>(dlsym(lib, "cuMemHostUnregister"))) {}

  void* lib_;
  void* context_;
  PushFn push_;
  PopFn pop_;
  RegisterFn register_;
  UnregisterFn unregister_;
};

}  // namespace

HwDecode::~HwDecode() {
  av_frame_free(&host_);
  if (locker_) removePixelMemoryLocker(locker_.get());  // while the device's context lives
  locker_.reset();
  av_buffer_unref(&device_);
}

const char* HwDecode::typeName() const {
  const char* name = av_hwdevice_get_type_name(type_);
  return name ? name : "none";
}

std::string HwDecode::attach(AVCodecContext* decoder, const AVCodec* codec, AVHWDeviceType type) {
  const char* name = av_hwdevice_get_type_name(type);
  if (!name) return "no such hardware decoder";
  AVPixelFormat format = AV_PIX_FMT_NONE;
  for (int i = 0;; ++i) {
    const AVCodecHWConfig* config = avcodec_get_hw_config(codec, i);
    if (!config) return std::string("the ") + codec->name + " decoder has no " + name + " path in this FFmpeg";
    if ((config->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX) && config->device_type == type) {
      format = config->pix_fmt;
      break;
    }
  }
  clearLastFfmpegError();
  if (const int err = av_hwdevice_ctx_create(&device_, type, nullptr, nullptr, 0); err < 0) {
    const std::string why = firstFfmpegError().empty() ? avError(err) : firstFfmpegError();
    return std::string("no ") + name + " device opens here (" + why + ")";
  }
  if (type == AV_HWDEVICE_TYPE_CUDA) {
    locker_ = CudaHostLocker::open(device_);
    if (locker_ && !installPixelMemoryLocker(locker_.get())) locker_.reset();  // another decoder's locker is in
  }
  decoder->hw_device_ctx = av_buffer_ref(device_);
  decoder->opaque = this;
  decoder->get_format = &HwDecode::pickFormat;
  type_ = type;
  hwFormat_ = format;
  return {};
}

// The device's format where FFmpeg offers it; else (its hwaccel could not
// start for this stream, and FFmpeg asks again without it) the first
// software format, as FFmpeg's own choice would be.
AVPixelFormat HwDecode::pickFormat(AVCodecContext* decoder, const AVPixelFormat* offered) {
  const auto* self = static_cast<const HwDecode*>(decoder->opaque);
  for (const AVPixelFormat* p = offered; *p != AV_PIX_FMT_NONE; ++p)
    if (*p == self->hwFormat_) return *p;
  for (const AVPixelFormat* p = offered; *p != AV_PIX_FMT_NONE; ++p) {
    const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(*p);
    if (d && !(d->flags & AV_PIX_FMT_FLAG_HWACCEL)) return *p;
  }
  return AV_PIX_FMT_NONE;
}

AVFrame* HwDecode::toHost(AVFrame* frame, const std::string& what) {
  if (frame->format != hwFormat_) {
    if (attached()) fellBack_ = true;
    return frame;
  }
  if (!host_ && !(host_ = av_frame_alloc())) throw std::bad_alloc();
  av_frame_unref(host_);
  if (const int err = av_hwframe_transfer_data(host_, frame, 0); err < 0)
    throw InputError("A frame of " + what + " decoded by " + typeName() +
                     " cannot be copied to memory: " + avError(err) + ".");
  av_frame_copy_props(host_, frame);  // timestamps, duration, colour details, side data
  return host_;
}

AVPixelFormat HwDecode::planesFormat(const AVFrame* frame) {
  if (frame->hw_frames_ctx) return reinterpret_cast<const AVHWFramesContext*>(frame->hw_frames_ctx->data)->sw_format;
  return static_cast<AVPixelFormat>(frame->format);
}

namespace {
void keepPlanes(void*, std::uint8_t*) {}  // the planes are the caller's
}  // namespace

bool HwDecode::copyTo(AVFrame* frame, std::uint8_t* const data[4], const int linesize[4], std::size_t bytes,
                      const std::string& what) {
  if (frame->format != hwFormat_ || !frame->hw_frames_ctx) {
    if (attached()) fellBack_ = true;
    return false;
  }
  if (locker_ && !lockPixelMemory(locker_.get(), data[0], bytes)) {
    removePixelMemoryLocker(locker_.get());  // refused: no more tries, the copies go on into pageable memory
    locker_.reset();
  }
  AVFrame* dst = av_frame_alloc();
  if (!dst) throw std::bad_alloc();
  dst->format = planesFormat(frame);
  dst->width = frame->width;
  dst->height = frame->height;
  for (int i = 0; i < 4; ++i) {
    dst->data[i] = data[i];
    dst->linesize[i] = linesize[i];
  }
  // A buffer that is not FFmpeg's: av_hwframe_transfer_data copies into these
  // planes rather than allocating (and page-faulting) new ones each frame.
  dst->buf[0] = av_buffer_create(data[0], bytes, keepPlanes, nullptr, 0);
  const int err = dst->buf[0] ? av_hwframe_transfer_data(dst, frame, 0) : AVERROR(ENOMEM);
  av_frame_free(&dst);
  if (err < 0)
    throw InputError("A frame of " + what + " decoded by " + typeName() +
                     " cannot be copied to memory: " + avError(err) + ".");
  return true;
}

namespace {

std::string decoderCachePath() {
  if (const char* p = std::getenv("LIVECONV_DECODER_CACHE"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/liveconv/decoders.tsv";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/liveconv/decoders.tsv";
  return {};
}

}  // namespace

std::string cachedDecoderChoice(const std::string& key) {
  const std::string path = decoderCachePath();
  if (path.empty()) return {};
  std::ifstream in(path);
  std::string line, found;
  while (std::getline(in, line)) {  // key \t choice \t what was measured; the last line of a key counts
    std::istringstream f(line);
    std::string k, choice;
    if (std::getline(f, k, '\t') && std::getline(f, choice, '\t') && k == key) found = choice;
  }
  return found;
}

void rememberDecoderChoice(const std::string& key, const std::string& choice, const std::string& measured) {
  const std::string path = decoderCachePath();
  if (path.empty()) return;
  // A cache that cannot be written only means measuring again.
  std::error_code ignored;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ignored);
  std::ofstream out(path, std::ios::app);
  if (out) out << key << '\t' << choice << '\t' << measured << '\n';
}

}  // namespace liveconv::media
