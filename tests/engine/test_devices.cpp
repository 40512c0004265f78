#include <gtest/gtest.h>

#include <cstdlib>

#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "test_support.hpp"

namespace liveconv {
namespace {

DeviceInfo fake(int index, int platform, int device, const char* name, DeviceKind kind, const char* platformName) {
  DeviceInfo d;
  d.index = index;
  d.platformIndex = platform;
  d.deviceIndex = device;
  d.name = name;
  d.kind = kind;
  d.platformName = platformName;
  d.vendor = "vendor";
  return d;
}

const std::vector<DeviceInfo> kDevices = {
    fake(0, 0, 0, "pthread-skylake", DeviceKind::CPU, "Portable Computing Language"),
    fake(1, 1, 0, "NVIDIA H100 80GB HBM3", DeviceKind::GPU, "NVIDIA CUDA"),
    fake(2, 1, 1, "NVIDIA H200", DeviceKind::GPU, "NVIDIA CUDA"),
};

TEST(DeviceSelection, DefaultIsTheFirstGpuElseTheFirstCpu) {
  EXPECT_EQ(selectDevice("", kDevices).index, 1);
  const std::vector<DeviceInfo> cpuOnly = {kDevices[0]};
  EXPECT_EQ(selectDevice("", cpuOnly).index, 0);
}

TEST(DeviceSelection, ByIndexPlatformDeviceTypeAndName) {
  EXPECT_EQ(selectDevice("2", kDevices).index, 2);
  EXPECT_EQ(selectDevice("1:1", kDevices).index, 2);
  EXPECT_EQ(selectDevice("0:0", kDevices).index, 0);
  EXPECT_EQ(selectDevice("cpu", kDevices).index, 0);
  EXPECT_EQ(selectDevice("GPU", kDevices).index, 1);
  EXPECT_EQ(selectDevice("h200", kDevices).index, 2);
  EXPECT_EQ(selectDevice("portable", kDevices).index, 0);
}

TEST(DeviceSelection, NoMatchIsOneSentenceListingTheDevices) {
  try {
    selectDevice("radeon", kDevices);
    FAIL();
  } catch (const NoDeviceError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("No OpenCL device matches 'radeon'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1: NVIDIA H100"), std::string::npos) << msg;
  }
  EXPECT_THROW(selectDevice("7", kDevices), NoDeviceError);
  EXPECT_THROW(selectDevice("3:0", kDevices), NoDeviceError);
  EXPECT_THROW(selectDevice("accelerator", kDevices), NoDeviceError);
  // The count in words a user reads: "there are 3", "there is one".
  auto indexError = [](const std::string& sel, const std::vector<DeviceInfo>& devices) {
    try {
      selectDevice(sel, devices);
    } catch (const NoDeviceError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(indexError("7", kDevices).find("No OpenCL device has index 7; there are 3 (0: "), std::string::npos)
      << indexError("7", kDevices);
  const std::vector<DeviceInfo> one = {kDevices[0]};
  EXPECT_NE(indexError("7", one).find("No OpenCL device has index 7; there is one (0: "), std::string::npos)
      << indexError("7", one);
}

TEST(DeviceSelection, NoDeviceAtAllSaysSo) {
  try {
    selectDevice("", std::vector<DeviceInfo>{});
    FAIL();
  } catch (const NoDeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("No OpenCL device found"), std::string::npos);
  }
}

TEST(DeviceSelection, EnvironmentVariableIsUsedWhenNoSelectorIsGiven) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const auto devices = enumerateDevices();
  const std::string last = std::to_string(devices.size() - 1);
  ::setenv(kDeviceEnvVar, last.c_str(), 1);
  EXPECT_EQ(selectDevice("").index, static_cast<int>(devices.size() - 1));
  ::setenv(kDeviceEnvVar, "no-such-device-anywhere", 1);
  EXPECT_THROW(selectDevice(""), NoDeviceError);
  EXPECT_EQ(selectDevice("0").index, 0);  // the command line wins over the variable
  ::unsetenv(kDeviceEnvVar);
}

TEST(DeviceEnumeration, ListsRealDevicesWithTheirLimits) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const auto devices = enumerateDevices();
  ASSERT_FALSE(devices.empty());
  for (const auto& d : devices) {
    EXPECT_FALSE(d.name.empty());
    EXPECT_GT(d.computeUnits, 0u);
    EXPECT_GT(d.maxWorkGroupSize, 0u);
    EXPECT_GT(d.localMemBytes, 0u);
    EXPECT_NE(d.kind, DeviceKind::Invalid);
    EXPECT_FALSE(d.fingerprint().empty());
  }
}

}  // namespace
}  // namespace liveconv
