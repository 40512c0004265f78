// Runs one variant on one device: host frame in, host frame out, or device
// buffers already resident. Each call returns its timings from CL profiling
// events. The kernel for a parameter set is built on first use through the
// ProgramCache; callers that must not wait (the frame path) call prepare() on
// another thread first.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "liveconv/cl.hpp"
#include "liveconv/device.hpp"
#include "liveconv/image.hpp"
#include "liveconv/mask.hpp"
#include "liveconv/program_cache.hpp"
#include "liveconv/variants.hpp"

namespace liveconv {

struct WorkgroupShape {
  int x = 0;  // 0: the variant's default, shrunk to fit the device
  int y = 0;
};

struct FilterParams {
  Mask mask;
  BorderMode border = BorderMode::Clamp;
  AlphaMode alpha = AlphaMode::PassThrough;
  VariantId variant = VariantId::Local;
  WorkgroupShape workgroup;
};

struct FrameTimings {
  double uploadMs = 0;    // host -> device, from the write event
  double kernelMs = 0;    // from the kernel event(s)
  double readbackMs = 0;  // device -> host, from the read event
  double wallMs = 0;      // host steady clock around the whole call
};

// A frame resident on the device: a buffer of rows `pitchBytes` apart.
struct DeviceImage {
  cl::Buffer buffer;
  int width = 0;
  int height = 0;
  std::size_t pitchBytes = 0;
  PixelFormat format = PixelFormat::Invalid;
};

// The device buffer a frame of this size would need, tightly packed.
DeviceImage allocateDeviceImage(const cl::Context& context, int width, int height, PixelFormat format,
                                cl_mem_flags flags = CL_MEM_READ_WRITE);

class Convolver {
 public:
  explicit Convolver(std::shared_ptr<DeviceContext> device,
                     std::shared_ptr<ProgramCache> cache = std::make_shared<ProgramCache>());
  ~Convolver();
  Convolver(const Convolver&) = delete;
  Convolver& operator=(const Convolver&) = delete;

  // Validates and takes the parameters; builds nothing yet. Throws InvalidArgument.
  void setParams(const FilterParams& params);
  const FilterParams& params() const { return params_; }

  // Builds (or finds in the cache) the kernel for the current parameters and
  // this format. Throws BuildError / UnsupportedError with a sentence.
  void prepare(PixelFormat format);

  // The workgroup shape that will be used (after defaults and fitting).
  WorkgroupShape workgroupFor(PixelFormat format);

  // Host frame in, host frame out (same size and format). Blocks until done.
  FrameTimings process(const ImageView& src, const ImageView& dst);

  // Enqueues the filter on resident buffers; does not wait. `waitFor` orders
  // it after other commands; `done` receives the event of the last kernel.
  void enqueue(const DeviceImage& src, const DeviceImage& dst, const std::vector<cl::Event>* waitFor,
               cl::Event* done);

  const DeviceContext& device() const { return *device_; }
  ProgramCache& programCache() { return *cache_; }

 private:
  struct Prepared;
  Prepared& preparedFor(PixelFormat format);
  void uploadMaskIfChanged();

  std::shared_ptr<DeviceContext> device_;
  std::shared_ptr<ProgramCache> cache_;
  FilterParams params_;
  std::vector<std::unique_ptr<Prepared>> prepared_;  // one per parameter set seen, small
  cl::Buffer maskBuffer_;
  std::vector<float> maskUploaded_;
  DeviceImage src_, dst_;  // staging for process()
};

}  // namespace liveconv
