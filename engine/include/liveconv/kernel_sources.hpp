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

// The `user` variant's source: a file of the user's own (`--kernel-file`),
// read when it is loaded. It defines a kernel named `convolve` with the
// arguments `naive` takes (docs/variants.md); common.cl comes before it, as
// before every variant, with the same build options.
struct UserKernel {
  std::string path;  // as given; empty when none is loaded
  std::string text;
  std::string digest;  // 16 hex digits of the text: part of the program's and the tuning cache's keys
};

// Reads `path` as the user's kernel, replacing the one loaded before (kernels
// built from that one keep running). Throws InvalidArgument with one sentence
// when the file cannot be read or is empty. Any thread.
void loadUserKernel(const std::string& path);
// The kernel loaded last (a copy); its path is empty when none was.
UserKernel userKernel();
// The version loaded with this digest (every version loaded stays: a window
// keeps the last good one running while a newer one fails); the one loaded
// last for "", and an empty path for a digest never loaded.
UserKernel userKernel(const std::string& digest);
bool userKernelLoaded();

}  // namespace liveconv
