#include "gl/gl_interop.hpp"

#include <cstdlib>

#include "gl/frame_capture.hpp"
#include "gl/gl.hpp"
#include "liveconv/errors.hpp"

namespace liveconv::ui {
namespace {

// CLHPP before 2023 answers CL_DEVICE_PLATFORM with a cl_platform_id, later
// ones with a cl::Platform: wrapping either in a cl::Platform serves both.
cl_platform_id platformOf(const DeviceInfo& info) {
  return cl::Platform(info.device.getInfo<CL_DEVICE_PLATFORM>())();
}

template <typename Fn>
Fn extensionFunction(cl_platform_id platform, const char* name) {
  return reinterpret_cast<Fn>(clGetExtensionFunctionAddressForPlatform(platform, name));
}

ProbeInput probeInputFor(const DeviceInfo& info, const GlContextHandles& gl) {
  ProbeInput in;
  in.gl = gl;
  in.platform = platformOf(info);
  in.device = info.device();
  in.deviceName = info.name;
  in.extensions =
      info.device.getInfo<CL_DEVICE_EXTENSIONS>() + " " + cl::Platform(in.platform).getInfo<CL_PLATFORM_EXTENSIONS>();
  in.getGlContextInfo = extensionFunction<GetGlContextInfoFn>(in.platform, "clGetGLContextInfoKHR");
  return in;
}

// The kernel's output buffer is a GL pixel buffer object; after the release
// the renderer copies it into the picture texture on the GPU. One buffer is
// enough: with a fence over all GL work issued so far (or glFinish) before
// the acquire, CL never writes while GL still reads it.
class GlPixelBufferTarget final : public DisplayTarget {
 public:
  GlPixelBufferTarget(cl::Context context, GlSync sync, CreateEventFromGlSyncFn createEvent)
      : context_(std::move(context)), sync_(sync), createEvent_(createEvent) {}

  // On the display thread, with the GL context current (the feed is destroyed there).
  ~GlPixelBufferTarget() override {
    for (Fence& f : fences_) {
      try {
        f.event.wait();
      } catch (const cl::Error&) {
      }
      glDeleteSync(static_cast<GLsync>(f.sync));
    }
    shared_ = cl::BufferGL();  // CL lets go before GL deletes the storage
    if (pbo_) glDeleteBuffers(1, &pbo_);
  }

  DeviceImage acquire(cl::CommandQueue& queue, int width, int height, PixelFormat format,
                      std::vector<cl::Event>* waitFor) override {
    const std::size_t pitch = static_cast<std::size_t>(width) * bytesPerPixel(format);
    const std::size_t bytes = pitch * static_cast<std::size_t>(height);
    if (bytes == 0) throw InvalidArgument("A frame without pixels reached the display.");
    if (bytes != bytes_) allocate(bytes);
    retireFences(false);
    std::vector<cl::Event> glDone;
    if (sync_ == GlSync::GlEvent) {
      // Everything GL was asked to do so far (the last copy out of this buffer
      // among it) completes before the acquire; flushed so the fence reaches the GPU.
      GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
      glFlush();
      cl_int err = CL_SUCCESS;
      cl_event event = createEvent_(context_(), reinterpret_cast<cl_GLsync>(fence), &err);
      if (err == CL_SUCCESS && event) {
        glDone.emplace_back(event);  // takes the reference clCreateEventFromGLsyncKHR returned
        fences_.push_back({fence, glDone.back()});
      } else {
        glDeleteSync(fence);
        glFinish();  // the event could not be made: the portable order for this frame
      }
    } else {
      glFinish();  // no cl_khr_gl_event: GL must be idle before CL takes the buffer
    }
    objects_ = {shared_};
    cl::Event acquired;
    queue.enqueueAcquireGLObjects(&objects_, glDone.empty() ? nullptr : &glDone, &acquired);
    waitFor->push_back(acquired);
    DeviceImage image;
    image.buffer = shared_;
    image.width = width;
    image.height = height;
    image.pitchBytes = pitch;
    image.format = format;
    return image;
  }

  std::uint32_t release(cl::CommandQueue& queue, const cl::Event& kernelDone) override {
    const std::vector<cl::Event> after{kernelDone};
    cl::Event released;
    queue.enqueueReleaseGLObjects(&objects_, &after, &released);
    if (sync_ == GlSync::GlEvent)
      queue.flush();  // cl_khr_gl_event: GL commands issued after the release on this thread wait for it
    else
      queue.finish();  // without it the spec gives no other portable order: the documented exception
    return pbo_;
  }

 private:
  struct Fence {
    void* sync = nullptr;  // GLsync
    cl::Event event;
  };

  void allocate(std::size_t bytes) {
    shared_ = cl::BufferGL();  // CL lets go of the old storage before GL replaces it
    if (!pbo_) glGenBuffers(1, &pbo_);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_COPY);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glFinish();  // the storage exists before CL wraps it; once per frame size, not per frame
    shared_ = cl::BufferGL(context_, CL_MEM_WRITE_ONLY, pbo_);
    bytes_ = bytes;
  }

  // A GL sync object lives until the CL event made from it has completed.
  void retireFences(bool all) {
    for (auto it = fences_.begin(); it != fences_.end();) {
      if (all || it->event.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE) {
        glDeleteSync(static_cast<GLsync>(it->sync));
        it = fences_.erase(it);
      } else {
        ++it;
      }
    }
  }

  cl::Context context_;
  GlSync sync_;
  CreateEventFromGlSyncFn createEvent_;
  GLuint pbo_ = 0;
  std::size_t bytes_ = 0;
  cl::BufferGL shared_;
  std::vector<cl::Memory> objects_;
  std::vector<Fence> fences_;
};

}  // namespace

GlInteropLink::GlInteropLink(GlContextHandles gl, DisplayPathRequest request, NoticeFn onNotice,
                             std::function<void()> onFrame)
    : gl_(gl), request_(request), onNotice_(std::move(onNotice)), onFrame_(std::move(onFrame)) {}

bool GlInteropLink::readPixelBuffer(std::uint32_t buffer, const ImageView& dst) const {
  readGlPixelBuffer(buffer, dst);
  return true;
}

OpenedDevice GlInteropLink::open(const std::string& selector) const {
  const std::vector<DeviceInfo> devices = enumerateDevices();
  OpenedDevice opened;
  if (request_ == DisplayPathRequest::Readback) {
    opened.device = DeviceContext::create(chooseDevice(selector, devices, -1));
    opened.displayPath = decideDisplayPath(request_, {}).overlayLine;
    return opened;
  }
  // The device that drives the GL context, asked of every device that could say.
  int glDeviceIndex = -1;
  for (const DeviceInfo& d : devices) {
    const SharingFacts f = probeSharing(probeInputFor(d, gl_));
    if (f.glDeviceIsThisDevice) {
      glDeviceIndex = d.index;
      break;
    }
  }
  const DeviceInfo info = chooseDevice(selector, devices, glDeviceIndex);
  const ProbeInput input = probeInputFor(info, gl_);
  SharingFacts facts = probeSharing(input);
  if (facts.glDeviceFound && !facts.glDeviceIsThisDevice)
    for (const DeviceInfo& d : devices)
      if (d.device() == facts.glDevice) facts.glDeviceName = d.name;
  DisplayPathDecision decision = decideDisplayPath(request_, facts);

  if (decision.path == DisplayPath::ZeroCopy) {
    try {
      opened.device = DeviceContext::create(info, glSharingProperties(input.platform, gl_));
      GlSync sync = decision.sync;
      auto createEvent = extensionFunction<CreateEventFromGlSyncFn>(input.platform, "clCreateEventFromGLsyncKHR");
      if (sync == GlSync::GlEvent && !createEvent) sync = GlSync::Finish;
      opened.target = std::make_unique<GlPixelBufferTarget>(opened.device->context, sync, createEvent);
      opened.displayPath = decision.overlayLine;
      return opened;
    } catch (const cl::Error& e) {
      const std::string reason = "the driver refused a GL-sharing context: " + clErrorName(e.err());
      decision.overlayLine = readbackLine(reason);
      if (request_ == DisplayPathRequest::Interop)
        decision.notice = "--display-path interop cannot run on " + info.name + " (" + reason +
                          "), so frames are shown through readback + PBO.";
    }
  }
  if (!decision.notice.empty() && onNotice_) onNotice_(decision.notice);
  opened.device = DeviceContext::create(info);
  opened.displayPath = decision.overlayLine;
  return opened;
}

}  // namespace liveconv::ui
