// OpenCL platforms and devices: enumeration, selection by index, name or type,
// and the context + profiling queue the engine runs on.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "liveconv/cl.hpp"

namespace liveconv {

enum class DeviceKind {
  Invalid = 0,
  GPU,
  CPU,
  Accelerator,
  Other,
};
const char* toString(DeviceKind kind);

struct DeviceInfo {
  int index = -1;          // position in enumerateDevices(), counting across platforms
  int platformIndex = -1;
  int deviceIndex = -1;    // position within its platform
  std::string name;
  std::string vendor;
  std::string platformName;
  std::string deviceVersion;
  std::string driverVersion;
  DeviceKind kind = DeviceKind::Invalid;
  unsigned computeUnits = 0;
  unsigned clockMHz = 0;
  unsigned preferredFloatVectorWidth = 1;
  std::uint64_t globalMemBytes = 0;
  std::uint64_t localMemBytes = 0;
  std::uint64_t globalCacheBytes = 0;  // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE (0: none reported)
  std::uint64_t maxConstantBytes = 0;
  std::size_t maxWorkGroupSize = 0;
  bool imageSupport = false;
  cl::Device device;

  // Stable identity of device + driver, used to key cached tuning results.
  std::string fingerprint() const;
};

// Every device of every platform; empty (not an exception) when the machine has
// no OpenCL platform at all.
std::vector<DeviceInfo> enumerateDevices();

// The environment variable consulted when no selector is given on the command line.
constexpr const char* kDeviceEnvVar = "LIVECONV_DEVICE";

// Resolves a selector against the devices:
//   ""             first GPU, else first CPU, else the first device
//   "N"            the N-th device of enumerateDevices()
//   "P:D"          device D of platform P
//   "gpu" | "cpu" | "accelerator"   the first device of that kind
//   anything else  the first device whose name, vendor or platform contains it (any case)
// An empty cliSelector falls back on $LIVECONV_DEVICE. Throws NoDeviceError.
DeviceInfo selectDevice(std::string_view cliSelector);
DeviceInfo selectDevice(std::string_view selector, const std::vector<DeviceInfo>& devices);

// The context and in-order profiling queue one engine instance runs on.
struct DeviceContext {
  DeviceInfo info;
  cl::Context context;
  cl::CommandQueue queue;  // CL_QUEUE_PROFILING_ENABLE

  static std::shared_ptr<DeviceContext> create(const DeviceInfo& info);
  // With context properties, e.g. those that make the context share a GL
  // context (cl_khr_gl_sharing): a zero-terminated list of name/value pairs
  // that names CL_CONTEXT_PLATFORM. Throws cl::Error when the driver refuses it.
  static std::shared_ptr<DeviceContext> create(const DeviceInfo& info,
                                               const std::vector<cl_context_properties>& properties);
};

// True when `extension` is a whole word of the device's (or its platform's)
// extension string.
bool deviceHasExtension(const DeviceInfo& info, std::string_view extension);
bool extensionListHas(std::string_view list, std::string_view extension);

// Duration of a profiled command in milliseconds (END - START).
double eventMs(const cl::Event& event);
// From the START of `first` to the END of `last`.
double eventSpanMs(const cl::Event& first, const cl::Event& last);

// The device's peak FP32 FMA rate, as `bench` and the windows' race chart
// weigh a kernel against it, and how it was reckoned: compute units x clock x
// lanes per compute unit. OpenCL does not say the lanes, so they come from the
// vendor: NVIDIA SMs have 128 FP32 lanes (Ampere/Hopper), AMD CUs 64, a CPU
// core its native float vector width times two FMA ports; LIVECONV_FMA_LANES
// overrides.
struct FmaLimit {
  double fmaPerSecond = 0;
  std::string how;  // "2 CUs x 2096 MHz x 32 lanes (...) = 0.134 TFMA/s"
};
FmaLimit fmaLimit(const DeviceInfo& device);

// Device-to-device copy bandwidth (bytes read + written per second, median of
// `runs` after two warm-up copies) of a buffer far larger than the caches
// (256 MiB on a GPU, 64 MiB elsewhere): what a kernel that reads and writes
// each pixel once cannot beat (bench's %bw, the race chart's "of copy").
double copyBandwidth(DeviceContext& ctx, int runs);

// A readable sentence for a CL error code, e.g. "CL_OUT_OF_RESOURCES (-5)".
std::string clErrorName(cl_int code);

}  // namespace liveconv
