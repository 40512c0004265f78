#include "gl/interop_policy.hpp"

#include <cstdlib>

namespace liveconv::ui {

const char* toString(GlWindowSystem system) {
  switch (system) {
    case GlWindowSystem::None:
      return "none";
    case GlWindowSystem::Glx:
      return "GLX";
    case GlWindowSystem::Egl:
      return "EGL";
    case GlWindowSystem::Wgl:
      return "WGL";
    case GlWindowSystem::Cgl:
      return "CGL";
    case GlWindowSystem::Invalid:
      break;
  }
  return "invalid";
}

std::vector<cl_context_properties> glSharingProperties(cl_platform_id platform, const GlContextHandles& gl) {
  const auto prop = [](const void* p) { return reinterpret_cast<cl_context_properties>(p); };
  if (!platform || !gl.context) return {};
  switch (gl.system) {
    case GlWindowSystem::Glx:
      if (!gl.display) return {};
      return {CL_CONTEXT_PLATFORM,
              prop(platform),
              CL_GLX_DISPLAY_KHR,
              prop(gl.display),
              CL_GL_CONTEXT_KHR,
              prop(gl.context),
              0};
    case GlWindowSystem::Egl:
      if (!gl.display) return {};
      return {CL_CONTEXT_PLATFORM,
              prop(platform),
              CL_EGL_DISPLAY_KHR,
              prop(gl.display),
              CL_GL_CONTEXT_KHR,
              prop(gl.context),
              0};
    case GlWindowSystem::Wgl:
      if (!gl.display) return {};
      return {CL_CONTEXT_PLATFORM,
              prop(platform),
              CL_WGL_HDC_KHR,
              prop(gl.display),
              CL_GL_CONTEXT_KHR,
              prop(gl.context),
              0};
    case GlWindowSystem::Cgl:
#if defined(__APPLE__) && defined(CL_CONTEXT_PROPERTY_USE_CGL_SHAREGROUP_APPLE)
      // Apple's own OpenCL takes the share group under its APPLE name and no platform.
      return {CL_CONTEXT_PROPERTY_USE_CGL_SHAREGROUP_APPLE, prop(gl.context), 0};
#else
      return {CL_CONTEXT_PLATFORM, prop(platform), CL_CGL_SHAREGROUP_KHR, prop(gl.context), 0};
#endif
    case GlWindowSystem::None:
    case GlWindowSystem::Invalid:
      break;
  }
  return {};
}

DisplayPathRequest parseDisplayPathRequest(std::string_view text) {
  if (text == "auto") return DisplayPathRequest::Auto;
  if (text == "interop") return DisplayPathRequest::Interop;
  if (text == "readback") return DisplayPathRequest::Readback;
  return DisplayPathRequest::Invalid;
}

std::string parseDisplayPathOption(const char* value, DisplayPathRequest* request) {
  const DisplayPathRequest parsed = value ? parseDisplayPathRequest(value) : DisplayPathRequest::Invalid;
  if (parsed == DisplayPathRequest::Invalid) return "--display-path takes auto, interop or readback.";
  *request = parsed;
  return {};
}

const char* displayPathOptionHelp() {
  return "  --display-path auto|interop|readback\n"
         "                      how filtered frames reach the screen: auto (zero-copy through\n"
         "                      cl_khr_gl_sharing where the device shares with the GL context, else\n"
         "                      readback + PBO), interop (the same, saying why when it cannot),\n"
         "                      readback (always map and upload)\n";
}

const char* toString(DisplayPathRequest request) {
  switch (request) {
    case DisplayPathRequest::Auto:
      return "auto";
    case DisplayPathRequest::Interop:
      return "interop";
    case DisplayPathRequest::Readback:
      return "readback";
    case DisplayPathRequest::Invalid:
      break;
  }
  return "invalid";
}

SharingFacts probeSharing(const ProbeInput& in) {
  SharingFacts f;
  f.deviceName = in.deviceName;
  const std::vector<cl_context_properties> properties = glSharingProperties(in.platform, in.gl);
  f.glContextKnown = !properties.empty();
  f.deviceHasSharing =
      extensionListHas(in.extensions, "cl_khr_gl_sharing") || extensionListHas(in.extensions, "cl_APPLE_gl_sharing");
  f.deviceHasGlEvent = extensionListHas(in.extensions, "cl_khr_gl_event");
  f.queryFunctionFound = in.getGlContextInfo != nullptr;
  if (!f.glContextKnown || !f.deviceHasSharing || !f.queryFunctionFound) return f;
  cl_device_id current = nullptr;
  std::size_t size = 0;
  f.queryError =
      in.getGlContextInfo(properties.data(), CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR, sizeof current, &current, &size);
  // No device for the context is CL_SUCCESS with a size of 0.
  f.glDeviceFound = f.queryError == CL_SUCCESS && size == sizeof current && current != nullptr;
  if (f.glDeviceFound) {
    f.glDevice = current;
    f.glDeviceIsThisDevice = current == in.device;
  }
  return f;
}

std::string readbackLine(const std::string& reason) {
  return "interop: readback + PBO (" + reason + ")";
}

DisplayPathDecision decideDisplayPath(DisplayPathRequest request, const SharingFacts& f) {
  DisplayPathDecision d;
  if (request == DisplayPathRequest::Readback) {
    d.path = DisplayPath::Readback;
    d.sync = GlSync::None;
    d.overlayLine = readbackLine("--display-path readback");
    return d;
  }
  std::string reason;
  if (!f.glContextKnown)
    reason = "the window's GL context could not be named";
  else if (!f.deviceHasSharing)
    reason = "device has no cl_khr_gl_sharing";
  else if (!f.queryFunctionFound)
    reason = "the platform does not export clGetGLContextInfoKHR";
  else if (f.queryError != CL_SUCCESS)
    reason = "clGetGLContextInfoKHR failed with " + clErrorName(f.queryError);
  else if (!f.glDeviceFound)
    reason = "no OpenCL device drives this GL context";
  else if (!f.glDeviceIsThisDevice)
    reason = "the GL context runs on " + (f.glDeviceName.empty() ? std::string("another device") : f.glDeviceName);
  if (reason.empty()) {
    d.path = DisplayPath::ZeroCopy;
    d.sync = f.deviceHasGlEvent ? GlSync::GlEvent : GlSync::Finish;
    d.overlayLine = f.deviceHasGlEvent
                        ? "interop: zero-copy (cl_khr_gl_sharing)"
                        : "interop: zero-copy (cl_khr_gl_sharing; glFinish/clFinish, no cl_khr_gl_event)";
    return d;
  }
  d.path = DisplayPath::Readback;
  d.sync = GlSync::None;
  d.overlayLine = readbackLine(reason);
  if (request == DisplayPathRequest::Interop)
    d.notice = "--display-path interop cannot run on " +
               (f.deviceName.empty() ? std::string("this device") : f.deviceName) + " (" + reason +
               "), so frames are shown through readback + PBO.";
  return d;
}

DeviceInfo chooseDevice(const std::string& selector, const std::vector<DeviceInfo>& devices, int glDeviceIndex) {
  std::string sel = selector;
  if (sel.empty())
    if (const char* env = std::getenv(kDeviceEnvVar)) sel = env;
  if (sel.empty() && glDeviceIndex >= 0 && glDeviceIndex < static_cast<int>(devices.size()))
    return devices[glDeviceIndex];
  return selectDevice(sel, devices);
}

}  // namespace liveconv::ui
