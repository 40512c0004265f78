#include "liveconv/media/device_inputs.hpp"

#include <dlfcn.h>

extern "C" {
#include <libavutil/macros.h>
#if LIVECONV_WITH_AVDEVICE
#include <libavdevice/version.h>
#endif
}

namespace liveconv::media {
namespace {

struct DeviceInputs {
  void* library = nullptr;
  std::string failure;
};

const DeviceInputs& deviceInputs() {
  static const DeviceInputs inputs = [] {
    DeviceInputs d;
#if LIVECONV_WITH_AVDEVICE
    // The soname of the libavdevice this build was compiled against.
    const char* name = "libavdevice.so." AV_STRINGIFY(LIBAVDEVICE_VERSION_MAJOR);
    // Its own dependencies come with it; the FFmpeg libraries it shares with
    // this program are the ones already loaded.
    d.library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!d.library) {
      const char* why = dlerror();
      d.failure =
          std::string("FFmpeg's device inputs (") + name + ") cannot be loaded: " + (why ? why : "no reason given");
      return d;
    }
    auto registerAll = reinterpret_cast<void (*)()>(dlsym(d.library, "avdevice_register_all"));
    if (!registerAll) {
      d.failure = std::string(name) + " has no avdevice_register_all, so FFmpeg's device inputs cannot be used";
      return d;
    }
    registerAll();
#else
    d.failure = "This liveconv was built without FFmpeg's device inputs (LIVECONV_WITH_AVDEVICE=OFF)";
#endif
    return d;
  }();
  return inputs;
}

}  // namespace

const std::string& deviceInputsFailure() {
  return deviceInputs().failure;
}

unsigned deviceInputsVersion() {
  const DeviceInputs& d = deviceInputs();
  if (!d.library) return 0;
  auto version = reinterpret_cast<unsigned (*)()>(dlsym(d.library, "avdevice_version"));
  return version ? version() : 0;
}

}  // namespace liveconv::media
