// Access to the OpenCL C sources in kernels/: embedded at build time, or read
// from the folder named by LIVECONV_KERNEL_DIR so a developer can edit a .cl
// and rerun without rebuilding.
#pragma once

#include <string>

namespace liveconv {

// The embedded text of kernels/<fileName> (e.g. "local.cl"), or nullptr.
// Generated at build time (cmake/EmbedKernels.cmake).
const char* embeddedKernelText(const char* fileName);

constexpr const char* kKernelDirEnvVar = "LIVECONV_KERNEL_DIR";

// The text of kernels/<fileName>, from LIVECONV_KERNEL_DIR when set, else embedded.
// Throws Error when the file is unknown or unreadable.
std::string kernelSource(const std::string& fileName);

}  // namespace liveconv
