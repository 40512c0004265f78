// The display-path decisions without a GL driver that shares with OpenCL:
// the cl_khr_gl_sharing property lists per window system, the probe of
// clGetGLContextInfoKHR (through a fake of it), the zero-copy or readback
// decision with its overlay line and notice, and the device choice.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "gl/interop_policy.hpp"
#include "liveconv/errors.hpp"

using namespace liveconv;
using namespace liveconv::ui;

namespace {

// Handles are opaque to the builder; any distinct addresses will do.
int g_display, g_context, g_platform, g_device, g_otherDevice;
void* const kDisplay = &g_display;
void* const kContext = &g_context;
const auto kPlatform = reinterpret_cast<cl_platform_id>(&g_platform);
const auto kDevice = reinterpret_cast<cl_device_id>(&g_device);
const auto kOtherDevice = reinterpret_cast<cl_device_id>(&g_otherDevice);

cl_context_properties prop(const void* p) {
  return reinterpret_cast<cl_context_properties>(p);
}

TEST(GlSharingProperties, GlxListsPlatformDisplayAndContextInTheSdkOrder) {
  const auto props = glSharingProperties(kPlatform, {GlWindowSystem::Glx, kDisplay, kContext});
  const std::vector<cl_context_properties> want{
      CL_CONTEXT_PLATFORM, prop(kPlatform), CL_GLX_DISPLAY_KHR, prop(kDisplay), CL_GL_CONTEXT_KHR, prop(kContext), 0};
  EXPECT_EQ(props, want);
}

TEST(GlSharingProperties, EglUsesTheEglDisplay) {
  const auto props = glSharingProperties(kPlatform, {GlWindowSystem::Egl, kDisplay, kContext});
  const std::vector<cl_context_properties> want{
      CL_CONTEXT_PLATFORM, prop(kPlatform), CL_EGL_DISPLAY_KHR, prop(kDisplay), CL_GL_CONTEXT_KHR, prop(kContext), 0};
  EXPECT_EQ(props, want);
}

TEST(GlSharingProperties, WglUsesTheDeviceContextAndCglTheShareGroup) {
  const std::vector<cl_context_properties> wgl{
      CL_CONTEXT_PLATFORM, prop(kPlatform), CL_WGL_HDC_KHR, prop(kDisplay), CL_GL_CONTEXT_KHR, prop(kContext), 0};
  EXPECT_EQ(glSharingProperties(kPlatform, {GlWindowSystem::Wgl, kDisplay, kContext}), wgl);
#if !defined(__APPLE__)
  const std::vector<cl_context_properties> cgl{CL_CONTEXT_PLATFORM, prop(kPlatform), CL_CGL_SHAREGROUP_KHR,
                                               prop(kContext), 0};
  EXPECT_EQ(glSharingProperties(kPlatform, {GlWindowSystem::Cgl, nullptr, kContext}), cgl);
#endif
}

TEST(GlSharingProperties, NothingToShareGivesAnEmptyList) {
  EXPECT_TRUE(glSharingProperties(kPlatform, {}).empty()) << "no GL context named";
  EXPECT_TRUE(glSharingProperties(kPlatform, {GlWindowSystem::None, kDisplay, kContext}).empty());
  EXPECT_TRUE(glSharingProperties(kPlatform, {GlWindowSystem::Glx, nullptr, kContext}).empty()) << "no display";
  EXPECT_TRUE(glSharingProperties(kPlatform, {GlWindowSystem::Egl, kDisplay, nullptr}).empty()) << "no context";
  EXPECT_TRUE(glSharingProperties(nullptr, {GlWindowSystem::Glx, kDisplay, kContext}).empty()) << "no platform";
}

TEST(DisplayPathRequest, ParsesTheThreeWordsOnly) {
  EXPECT_EQ(parseDisplayPathRequest("auto"), DisplayPathRequest::Auto);
  EXPECT_EQ(parseDisplayPathRequest("interop"), DisplayPathRequest::Interop);
  EXPECT_EQ(parseDisplayPathRequest("readback"), DisplayPathRequest::Readback);
  EXPECT_EQ(parseDisplayPathRequest("zero-copy"), DisplayPathRequest::Invalid);
  EXPECT_EQ(parseDisplayPathRequest(""), DisplayPathRequest::Invalid);
}

// ---- the probe, through a fake clGetGLContextInfoKHR

struct FakeGlContextInfo {
  static inline int calls = 0;
  static inline std::vector<cl_context_properties> properties;
  static inline cl_gl_context_info asked = 0;
  static inline cl_device_id answer = nullptr;  // nullptr: no device for this context
  static inline cl_int error = CL_SUCCESS;

  static cl_int CL_API_CALL call(const cl_context_properties* props, cl_gl_context_info name, size_t size, void* value,
                                 size_t* sizeRet) {
    ++calls;
    properties.clear();
    for (const cl_context_properties* p = props; *p; p += 2) properties.insert(properties.end(), {p[0], p[1]});
    properties.push_back(0);
    asked = name;
    if (error != CL_SUCCESS) return error;
    if (!answer) {
      if (sizeRet) *sizeRet = 0;
      return CL_SUCCESS;
    }
    if (size < sizeof(cl_device_id)) return CL_INVALID_VALUE;
    *static_cast<cl_device_id*>(value) = answer;
    if (sizeRet) *sizeRet = sizeof(cl_device_id);
    return CL_SUCCESS;
  }
  static void reset(cl_device_id device, cl_int err = CL_SUCCESS) {
    calls = 0;
    properties.clear();
    asked = 0;
    answer = device;
    error = err;
  }
};

ProbeInput sharingInput(const char* extensions = "cl_khr_icd cl_khr_gl_sharing cl_khr_gl_event") {
  ProbeInput in;
  in.gl = {GlWindowSystem::Glx, kDisplay, kContext};
  in.platform = kPlatform;
  in.device = kDevice;
  in.deviceName = "Test GPU";
  in.extensions = extensions;
  in.getGlContextInfo = &FakeGlContextInfo::call;
  return in;
}

TEST(ProbeSharing, AsksForTheCurrentDeviceWithTheSharingProperties) {
  FakeGlContextInfo::reset(kDevice);
  const SharingFacts f = probeSharing(sharingInput());
  EXPECT_EQ(FakeGlContextInfo::calls, 1);
  EXPECT_EQ(FakeGlContextInfo::asked, static_cast<cl_gl_context_info>(CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR));
  EXPECT_EQ(FakeGlContextInfo::properties, glSharingProperties(kPlatform, {GlWindowSystem::Glx, kDisplay, kContext}));
  EXPECT_TRUE(f.glContextKnown);
  EXPECT_TRUE(f.deviceHasSharing);
  EXPECT_TRUE(f.deviceHasGlEvent);
  EXPECT_TRUE(f.glDeviceFound);
  EXPECT_TRUE(f.glDeviceIsThisDevice);
}

TEST(ProbeSharing, AnotherDeviceDrivingTheContextIsNotThisOne) {
  FakeGlContextInfo::reset(kOtherDevice);
  const SharingFacts f = probeSharing(sharingInput());
  EXPECT_TRUE(f.glDeviceFound);
  EXPECT_FALSE(f.glDeviceIsThisDevice);
  EXPECT_EQ(f.glDevice, kOtherDevice);
}

TEST(ProbeSharing, NoDeviceForTheContextAndQueryErrorsAreKept) {
  FakeGlContextInfo::reset(nullptr);
  EXPECT_FALSE(probeSharing(sharingInput()).glDeviceFound) << "CL_SUCCESS with size 0 names no device";
  FakeGlContextInfo::reset(kDevice, CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR);
  const SharingFacts f = probeSharing(sharingInput());
  EXPECT_FALSE(f.glDeviceFound);
  EXPECT_EQ(f.queryError, CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR);
}

TEST(ProbeSharing, WithoutTheExtensionOrTheFunctionNothingIsAsked) {
  FakeGlContextInfo::reset(kDevice);
  SharingFacts f = probeSharing(sharingInput("cl_khr_icd cl_khr_gl_sharing_ext_not_it"));
  EXPECT_FALSE(f.deviceHasSharing) << "extension names match whole words only";
  EXPECT_EQ(FakeGlContextInfo::calls, 0);

  ProbeInput in = sharingInput();
  in.getGlContextInfo = nullptr;
  f = probeSharing(in);
  EXPECT_FALSE(f.queryFunctionFound);
  EXPECT_EQ(FakeGlContextInfo::calls, 0);

  in = sharingInput();
  in.gl = {};
  f = probeSharing(in);
  EXPECT_FALSE(f.glContextKnown);
  EXPECT_EQ(FakeGlContextInfo::calls, 0);
}

// ---- the decision

SharingFacts sharingFacts() {
  SharingFacts f;
  f.glContextKnown = f.deviceHasSharing = f.queryFunctionFound = f.glDeviceFound = f.glDeviceIsThisDevice = true;
  f.deviceHasGlEvent = true;
  f.deviceName = "Test GPU";
  return f;
}

TEST(DecideDisplayPath, ASharingDeviceDrivingTheContextGoesZeroCopy) {
  DisplayPathDecision d = decideDisplayPath(DisplayPathRequest::Auto, sharingFacts());
  EXPECT_EQ(d.path, DisplayPath::ZeroCopy);
  EXPECT_EQ(d.sync, GlSync::GlEvent);
  EXPECT_EQ(d.overlayLine, "interop: zero-copy (cl_khr_gl_sharing)");
  EXPECT_EQ(d.notice, "");

  SharingFacts noEvent = sharingFacts();
  noEvent.deviceHasGlEvent = false;
  d = decideDisplayPath(DisplayPathRequest::Interop, noEvent);
  EXPECT_EQ(d.path, DisplayPath::ZeroCopy);
  EXPECT_EQ(d.sync, GlSync::Finish) << "without cl_khr_gl_event: glFinish before acquire, clFinish after release";
  EXPECT_EQ(d.notice, "");
}

TEST(DecideDisplayPath, EachMissingPieceFallsBackToReadbackWithItsReason) {
  struct Case {
    void (*breakIt)(SharingFacts&);
    const char* reason;
  };
  const Case cases[] = {
      {[](SharingFacts& f) { f.glContextKnown = false; }, "the window's GL context could not be named"},
      {[](SharingFacts& f) { f.deviceHasSharing = false; }, "device has no cl_khr_gl_sharing"},
      {[](SharingFacts& f) { f.queryFunctionFound = false; }, "the platform does not export clGetGLContextInfoKHR"},
      {[](SharingFacts& f) { f.queryError = CL_INVALID_OPERATION; },
       "clGetGLContextInfoKHR failed with CL_INVALID_OPERATION (-59)"},
      {[](SharingFacts& f) { f.glDeviceFound = f.glDeviceIsThisDevice = false; },
       "no OpenCL device drives this GL context"},
      {[](SharingFacts& f) {
         f.glDeviceIsThisDevice = false;
         f.glDeviceName = "Other GPU";
       },
       "the GL context runs on Other GPU"},
  };
  for (const Case& c : cases) {
    SharingFacts f = sharingFacts();
    c.breakIt(f);
    const DisplayPathDecision autoPath = decideDisplayPath(DisplayPathRequest::Auto, f);
    EXPECT_EQ(autoPath.path, DisplayPath::Readback) << c.reason;
    EXPECT_EQ(autoPath.sync, GlSync::None);
    EXPECT_EQ(autoPath.overlayLine, std::string("interop: readback + PBO (") + c.reason + ")");
    EXPECT_EQ(autoPath.notice, "") << "auto falls back without a word";

    const DisplayPathDecision asked = decideDisplayPath(DisplayPathRequest::Interop, f);
    EXPECT_EQ(asked.path, DisplayPath::Readback);
    EXPECT_EQ(asked.overlayLine, autoPath.overlayLine);
    EXPECT_EQ(asked.notice, std::string("--display-path interop cannot run on Test GPU (") + c.reason +
                                "), so frames are shown through readback + PBO.");
  }
}

TEST(DecideDisplayPath, ReadbackAskedForIsReadbackEvenWhereSharingWorks) {
  const DisplayPathDecision d = decideDisplayPath(DisplayPathRequest::Readback, sharingFacts());
  EXPECT_EQ(d.path, DisplayPath::Readback);
  EXPECT_EQ(d.overlayLine, "interop: readback + PBO (--display-path readback)");
  EXPECT_EQ(d.notice, "");
}

// ---- the device choice (DeviceInfo rows without CL handles: selection looks at names and kinds)

std::vector<DeviceInfo> threeDevices() {
  std::vector<DeviceInfo> devices(3);
  const char* names[] = {"cpu-a", "gpu-b", "gpu-c"};
  const DeviceKind kinds[] = {DeviceKind::CPU, DeviceKind::GPU, DeviceKind::GPU};
  for (int i = 0; i < 3; ++i) {
    devices[i].index = i;
    devices[i].platformIndex = i == 0 ? 0 : 1;
    devices[i].deviceIndex = i == 0 ? 0 : i - 1;
    devices[i].name = names[i];
    devices[i].vendor = "vendor";
    devices[i].platformName = i == 0 ? "cpu platform" : "gpu platform";
    devices[i].kind = kinds[i];
  }
  return devices;
}

class ChooseDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* env = std::getenv(kDeviceEnvVar)) saved_ = env, hadEnv_ = true;
    unsetenv(kDeviceEnvVar);
  }
  void TearDown() override {
    if (hadEnv_)
      setenv(kDeviceEnvVar, saved_.c_str(), 1);
    else
      unsetenv(kDeviceEnvVar);
  }
  std::string saved_;
  bool hadEnv_ = false;
};

TEST_F(ChooseDevice, WithNoSelectorTheDeviceDrivingTheGlContextWins) {
  const auto devices = threeDevices();
  EXPECT_EQ(chooseDevice("", devices, 2).name, "gpu-c");
  EXPECT_EQ(chooseDevice("", devices, -1).name, "gpu-b") << "none found: the default (first GPU)";
  EXPECT_EQ(chooseDevice("", devices, 7).name, "gpu-b") << "an index out of range is ignored";
}

TEST_F(ChooseDevice, AnExplicitSelectorOrTheEnvironmentWinsOverTheGlDevice) {
  const auto devices = threeDevices();
  EXPECT_EQ(chooseDevice("cpu", devices, 2).name, "cpu-a");
  EXPECT_EQ(chooseDevice("1", devices, 2).name, "gpu-b");
  setenv(kDeviceEnvVar, "cpu", 1);
  EXPECT_EQ(chooseDevice("", devices, 2).name, "cpu-a");
  EXPECT_THROW(chooseDevice("no-such-device", devices, 2), NoDeviceError);
}

}  // namespace
