// The decisions behind the display path, kept free of GL calls so each one
// can be tested without a GL driver that shares with OpenCL:
//   - the cl_context_properties that make an OpenCL context share the
//     window's GL context (cl_khr_gl_sharing), per window system;
//   - which device drives the GL context (CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR)
//     and which device to open;
//   - zero-copy or readback, and how CL and GL are synchronised.
// The property order follows the Khronos OpenCL-SDK (lib/src/SDK/InteropContext.cpp):
// CL_CONTEXT_PLATFORM first, then the window-system display, then the GL context.
#pragma once

// liveconv/cl.hpp first: it sets the OpenCL version the C headers target.
#include "liveconv/cl.hpp"

#include <CL/cl_gl.h>

#include <string>
#include <string_view>
#include <vector>

#include "liveconv/device.hpp"
#include "model/frame_stats.hpp"  // DisplayPath

namespace liveconv::ui {

enum class GlWindowSystem {
  Invalid = 0,
  None,  // the shell could not name its GL context: no sharing possible
  Glx,   // X11: display = Display*, context = GLXContext
  Egl,   // Wayland or X11 through EGL: display = EGLDisplay, context = EGLContext
  Wgl,   // Windows: display = the window's HDC, context = HGLRC
  Cgl,   // macOS: context = the CGLShareGroupObj (display unused)
};
const char* toString(GlWindowSystem system);

// The window's GL context as the window system names it. Plain pointers, so
// no X11, EGL, Win32 or CGL header is needed to carry them.
struct GlContextHandles {
  GlWindowSystem system = GlWindowSystem::None;
  void* display = nullptr;
  void* context = nullptr;
};

// The zero-terminated property list for a context on `platform` that shares
// the GL context `gl`; empty when `gl` cannot be shared (system None, a null
// handle, or a window system this build does not know).
std::vector<cl_context_properties> glSharingProperties(cl_platform_id platform, const GlContextHandles& gl);

enum class DisplayPathRequest {
  Invalid = 0,
  Auto,      // zero-copy where the device shares with the GL context, else readback
  Interop,   // zero-copy asked for: where it cannot run, say why and fall back
  Readback,  // always map the filtered frame and upload it through a PBO
};
// "auto", "interop", "readback"; Invalid for anything else.
DisplayPathRequest parseDisplayPathRequest(std::string_view text);
const char* toString(DisplayPathRequest request);
// The --display-path option of both shells (the viewer and liveconv-qt):
// `value` is the word after it, null when there was none. Returns "" with
// *request set, or the sentence that says what is wrong.
std::string parseDisplayPathOption(const char* value, DisplayPathRequest* request);
// The option's lines for --help, starting with "  --display-path".
const char* displayPathOptionHelp();

enum class GlSync {
  Invalid = 0,
  None,     // readback: the blocking map orders everything
  GlEvent,  // cl_khr_gl_event: a GL fence becomes the acquire's CL event; release is ordered implicitly
  Finish,   // no cl_khr_gl_event: glFinish before acquire, clFinish after release (the one
            // place a finish per frame is allowed: the spec leaves no other portable order)
};

// What the OpenCL side says about sharing with one GL context, for the device
// that would be opened. Filled by probeSharing() (or by a test).
struct SharingFacts {
  bool glContextKnown = false;      // the shell named its GL context
  bool deviceHasSharing = false;    // cl_khr_gl_sharing on the device or its platform
  bool queryFunctionFound = false;  // clGetGLContextInfoKHR through clGetExtensionFunctionAddressForPlatform
  cl_int queryError = CL_SUCCESS;   // what clGetGLContextInfoKHR returned
  bool glDeviceFound = false;       // it named the device current for the GL context
  bool glDeviceIsThisDevice = false;
  std::string deviceName;           // the device that would be opened
  cl_device_id glDevice = nullptr;  // that device's id (the caller names it: glDeviceName)
  std::string glDeviceName;         // the device driving the GL context, where known
  bool deviceHasGlEvent = false;    // cl_khr_gl_event
};

// clGetGLContextInfoKHR's signature (cl_gl.h has the typedef; tests pass fakes).
using GetGlContextInfoFn = clGetGLContextInfoKHR_fn;
// clCreateEventFromGLsyncKHR's (cl_gl.h declares the function but no typedef).
using CreateEventFromGlSyncFn = cl_event(CL_API_CALL*)(cl_context context, cl_GLsync sync, cl_int* errcode);

struct ProbeInput {
  GlContextHandles gl;
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;  // the device that would be opened
  std::string deviceName;
  std::string extensions;                         // the device's and its platform's extension strings, space separated
  GetGlContextInfoFn getGlContextInfo = nullptr;  // null: the platform does not export it
};

// Asks getGlContextInfo which device is current for the GL context (with
// glSharingProperties(platform, gl)) and compares it with the device.
SharingFacts probeSharing(const ProbeInput& input);

struct DisplayPathDecision {
  DisplayPath path = DisplayPath::Invalid;
  GlSync sync = GlSync::Invalid;
  std::string overlayLine;  // "interop: zero-copy (cl_khr_gl_sharing)" or "interop: readback + PBO (why)"
  std::string notice;       // one sentence for the user when `interop` was asked for and cannot run; else empty
};

DisplayPathDecision decideDisplayPath(DisplayPathRequest request, const SharingFacts& facts);

// The overlay line of the readback path with its reason in brackets.
std::string readbackLine(const std::string& reason);

// The device to open: an explicit selector wins; with none, the device that
// drives the GL context (glDeviceIndex into `devices`, -1 when none was found),
// else selectDevice()'s default. Throws NoDeviceError like selectDevice().
DeviceInfo chooseDevice(const std::string& selector, const std::vector<DeviceInfo>& devices, int glDeviceIndex);

}  // namespace liveconv::ui
