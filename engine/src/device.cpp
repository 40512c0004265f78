#include "liveconv/device.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iomanip>
#include <sstream>

#include "ascii_text.hpp"
#include "liveconv/errors.hpp"

namespace liveconv {

const char* toString(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::GPU: return "GPU";
    case DeviceKind::CPU: return "CPU";
    case DeviceKind::Accelerator: return "accelerator";
    case DeviceKind::Other: return "other";
    case DeviceKind::Invalid: break;
  }
  return "invalid";
}

namespace {

DeviceKind kindOf(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return DeviceKind::GPU;
  if (type & CL_DEVICE_TYPE_CPU) return DeviceKind::CPU;
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return DeviceKind::Accelerator;
  return DeviceKind::Other;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back())))) s.pop_back();
  return s;
}

bool allDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string listForMessage(const std::vector<DeviceInfo>& devices) {
  std::ostringstream out;
  for (const auto& d : devices) out << (d.index ? "; " : "") << d.index << ": " << d.name << " (" << d.platformName << ")";
  return out.str();
}

}  // namespace

std::string DeviceInfo::fingerprint() const {
  return platformName + "|" + name + "|" + vendor + "|" + deviceVersion + "|" + driverVersion + "|cu" +
         std::to_string(computeUnits) + "|mhz" + std::to_string(clockMHz);
}

std::vector<DeviceInfo> enumerateDevices() {
  std::vector<DeviceInfo> result;
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error&) {
    return result;  // CL_PLATFORM_NOT_FOUND_KHR: no ICD installed, no platform
  }
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    std::vector<cl::Device> devices;
    try {
      platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;  // CL_DEVICE_NOT_FOUND: a platform with nothing on it
    }
    for (std::size_t d = 0; d < devices.size(); ++d) {
      const cl::Device& dev = devices[d];
      DeviceInfo info;
      info.index = static_cast<int>(result.size());
      info.platformIndex = static_cast<int>(p);
      info.deviceIndex = static_cast<int>(d);
      info.name = trimmed(dev.getInfo<CL_DEVICE_NAME>());
      info.vendor = trimmed(dev.getInfo<CL_DEVICE_VENDOR>());
      info.platformName = trimmed(platforms[p].getInfo<CL_PLATFORM_NAME>());
      info.deviceVersion = trimmed(dev.getInfo<CL_DEVICE_VERSION>());
      info.driverVersion = trimmed(dev.getInfo<CL_DRIVER_VERSION>());
      info.kind = kindOf(dev.getInfo<CL_DEVICE_TYPE>());
      info.computeUnits = dev.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
      info.clockMHz = dev.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
      info.preferredFloatVectorWidth = std::max(1u, dev.getInfo<CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT>());
      info.globalMemBytes = dev.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
      info.localMemBytes = dev.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
      info.globalCacheBytes = dev.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>();
      info.maxConstantBytes = dev.getInfo<CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE>();
      info.maxWorkGroupSize = dev.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
      info.imageSupport = dev.getInfo<CL_DEVICE_IMAGE_SUPPORT>() == CL_TRUE;
      info.device = dev;
      result.push_back(std::move(info));
    }
  }
  return result;
}

DeviceInfo selectDevice(std::string_view selector, const std::vector<DeviceInfo>& devices) {
  if (devices.empty())
    throw NoDeviceError(
        "No OpenCL device found: install an OpenCL driver (for example pocl-opencl-icd for the CPU) and check "
        "that /etc/OpenCL/vendors lists it.");
  const std::string sel = detail::asciiLower(selector);
  auto firstOfKind = [&](DeviceKind kind) -> const DeviceInfo* {
    for (const auto& d : devices)
      if (d.kind == kind) return &d;
    return nullptr;
  };
  if (sel.empty()) {
    if (auto d = firstOfKind(DeviceKind::GPU)) return *d;
    if (auto d = firstOfKind(DeviceKind::CPU)) return *d;
    return devices.front();
  }
  if (allDigits(sel)) {
    const long index = std::strtol(sel.c_str(), nullptr, 10);
    if (index >= 0 && index < static_cast<long>(devices.size())) return devices[index];
    throw NoDeviceError(
        "No OpenCL device has index " + sel + "; " +
        (devices.size() == 1 ? std::string("there is one") : "there are " + std::to_string(devices.size())) + " (" +
        listForMessage(devices) + ").");
  }
  if (const auto colon = sel.find(':'); colon != std::string::npos && allDigits(sel.substr(0, colon)) &&
                                         allDigits(sel.substr(colon + 1))) {
    const int p = std::atoi(sel.substr(0, colon).c_str());
    const int d = std::atoi(sel.substr(colon + 1).c_str());
    for (const auto& dev : devices)
      if (dev.platformIndex == p && dev.deviceIndex == d) return dev;
    throw NoDeviceError("No OpenCL device " + sel + " (platform:device); the devices are " +
                        listForMessage(devices) + ".");
  }
  const std::pair<const char*, DeviceKind> kinds[] = {
      {"gpu", DeviceKind::GPU}, {"cpu", DeviceKind::CPU}, {"accelerator", DeviceKind::Accelerator}};
  for (const auto& [word, kind] : kinds) {
    if (sel == word) {
      if (auto d = firstOfKind(kind)) return *d;
      throw NoDeviceError(std::string("No OpenCL device of type ") + word + " found; the devices are " +
                          listForMessage(devices) + ".");
    }
  }
  for (const auto& d : devices)
    if (detail::asciiLower(d.name).find(sel) != std::string::npos ||
        detail::asciiLower(d.vendor).find(sel) != std::string::npos ||
        detail::asciiLower(d.platformName).find(sel) != std::string::npos)
      return d;
  throw NoDeviceError("No OpenCL device matches '" + std::string(selector) + "'; the devices are " +
                      listForMessage(devices) + ".");
}

DeviceInfo selectDevice(std::string_view cliSelector) {
  std::string selector(cliSelector);
  if (selector.empty())
    if (const char* env = std::getenv(kDeviceEnvVar)) selector = env;
  return selectDevice(selector, enumerateDevices());
}

std::shared_ptr<DeviceContext> DeviceContext::create(const DeviceInfo& info) {
  auto ctx = std::make_shared<DeviceContext>();
  ctx->info = info;
  ctx->context = cl::Context(info.device);
  ctx->queue = cl::CommandQueue(ctx->context, info.device, CL_QUEUE_PROFILING_ENABLE);
  return ctx;
}

std::shared_ptr<DeviceContext> DeviceContext::create(const DeviceInfo& info,
                                                     const std::vector<cl_context_properties>& properties) {
  if (properties.empty() || properties.back() != 0)
    throw InvalidArgument("Context properties must end with 0.");
  auto ctx = std::make_shared<DeviceContext>();
  ctx->info = info;
  ctx->context = cl::Context(info.device, properties.data());
  ctx->queue = cl::CommandQueue(ctx->context, info.device, CL_QUEUE_PROFILING_ENABLE);
  return ctx;
}

bool extensionListHas(std::string_view list, std::string_view extension) {
  if (extension.empty()) return false;
  for (std::size_t at = list.find(extension); at != std::string_view::npos; at = list.find(extension, at + 1)) {
    const bool startsWord = at == 0 || list[at - 1] == ' ';
    const std::size_t end = at + extension.size();
    const bool endsWord = end == list.size() || list[end] == ' ' || list[end] == '\0';
    if (startsWord && endsWord) return true;
  }
  return false;
}

bool deviceHasExtension(const DeviceInfo& info, std::string_view extension) {
  if (extensionListHas(info.device.getInfo<CL_DEVICE_EXTENSIONS>(), extension)) return true;
  const cl::Platform platform(info.device.getInfo<CL_DEVICE_PLATFORM>());
  return extensionListHas(platform.getInfo<CL_PLATFORM_EXTENSIONS>(), extension);
}

double eventMs(const cl::Event& event) { return eventSpanMs(event, event); }

FmaLimit fmaLimit(const DeviceInfo& d) {
  double lanes = 0;
  std::string why;
  const std::string vendor = detail::asciiLower(d.vendor + " " + d.platformName);
  if (const char* env = std::getenv("LIVECONV_FMA_LANES"); env && std::atof(env) > 0) {
    lanes = std::atof(env);
    why = "LIVECONV_FMA_LANES";
  } else if (d.kind == DeviceKind::GPU && vendor.find("nvidia") != std::string::npos) {
    lanes = 128;
    why = "NVIDIA: 128 FP32 lanes per SM";
  } else if (d.kind == DeviceKind::GPU && (vendor.find("amd") != std::string::npos || vendor.find("advanced micro") != std::string::npos)) {
    lanes = 64;
    why = "AMD: 64 lanes per CU";
  } else if (d.kind == DeviceKind::CPU) {
    lanes = 2.0 * d.preferredFloatVectorWidth;
    why = std::to_string(d.preferredFloatVectorWidth) + "-wide float vectors x 2 FMA ports per core";
  } else {
    lanes = 16;
    why = "unknown vendor, assumed 16 lanes per CU";
  }
  FmaLimit f;
  f.fmaPerSecond = double(d.computeUnits) * d.clockMHz * 1e6 * lanes;
  std::ostringstream how;
  how << d.computeUnits << " CUs x " << d.clockMHz << " MHz x " << lanes << " lanes (" << why << ") = "
      << std::setprecision(3) << f.fmaPerSecond * 1e-12 << " TFMA/s";
  f.how = how.str();
  return f;
}


double copyBandwidth(DeviceContext& ctx, int runs) {
  const std::size_t bytes = ctx.info.kind == DeviceKind::GPU ? (256u << 20) : (64u << 20);
  cl::Buffer a(ctx.context, CL_MEM_READ_WRITE, bytes), b(ctx.context, CL_MEM_READ_WRITE, bytes);
  ctx.queue.enqueueFillBuffer(a, cl_uchar(1), 0, bytes);
  std::vector<double> ms;
  for (int r = 0; r < runs + 2; ++r) {
    cl::Event e;
    ctx.queue.enqueueCopyBuffer(a, b, 0, 0, bytes, nullptr, &e);
    e.wait();
    if (r >= 2) ms.push_back(eventSpanMs(e, e));
  }
  std::sort(ms.begin(), ms.end());
  return 2.0 * bytes / (ms[ms.size() / 2] * 1e-3);
}

double eventSpanMs(const cl::Event& first, const cl::Event& last) {
  const cl_ulong start = first.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const cl_ulong end = last.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
}

std::string clErrorName(cl_int code) {
  switch (code) {
#define LC_CASE(x) \
  case x: return std::string(#x) + " (" + std::to_string(code) + ")";
    LC_CASE(CL_DEVICE_NOT_FOUND)
    LC_CASE(CL_DEVICE_NOT_AVAILABLE)
    LC_CASE(CL_COMPILER_NOT_AVAILABLE)
    LC_CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    LC_CASE(CL_OUT_OF_RESOURCES)
    LC_CASE(CL_OUT_OF_HOST_MEMORY)
    LC_CASE(CL_BUILD_PROGRAM_FAILURE)
    LC_CASE(CL_INVALID_VALUE)
    LC_CASE(CL_INVALID_DEVICE)
    LC_CASE(CL_INVALID_CONTEXT)
    LC_CASE(CL_INVALID_BUFFER_SIZE)
    LC_CASE(CL_INVALID_PROGRAM_EXECUTABLE)
    LC_CASE(CL_INVALID_KERNEL_ARGS)
    LC_CASE(CL_INVALID_WORK_GROUP_SIZE)
    LC_CASE(CL_INVALID_WORK_ITEM_SIZE)
    LC_CASE(CL_INVALID_GLOBAL_WORK_SIZE)
    LC_CASE(CL_INVALID_ARG_SIZE)
    LC_CASE(CL_INVALID_ARG_VALUE)
    LC_CASE(CL_INVALID_MEM_OBJECT)
    LC_CASE(CL_INVALID_OPERATION)
#undef LC_CASE
    default: return "OpenCL error " + std::to_string(code);
  }
}

}  // namespace liveconv
