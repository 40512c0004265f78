// Access to the OpenCL C sources in kernels/: embedded at build time, or read
// from the folder named by LIVECONV_KERNEL_DIR so a developer can edit a .cl
// and rerun without rebuilding.
#pragma once

#include <string>
#include <vector>

namespace liveconv {

struct EmbeddedKernel {
  const char* fileName;  // e.g. "local.cl"
  const char* text;
};

const std::vector<EmbeddedKernel>& embeddedKernelSources();  // generated

constexpr const char* kKernelDirEnvVar = "LIVECONV_KERNEL_DIR";

// The text of kernels/<fileName>, from LIVECONV_KERNEL_DIR when set, else embedded.
// Throws Error when the file is unknown or unreadable.
std::string kernelSource(const std::string& fileName);

}  // namespace liveconv
