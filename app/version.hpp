// `liveconv --version`: this program's version and the commit it was built
// from, then what it runs with: the OpenCL ICD loader and each platform (PoCL
// among them when installed), FFmpeg (media build), and the Qt and GLFW of the
// window programs found beside it (each asked with its own --version).
#pragma once

#include <filesystem>
#include <string>

namespace liveconv::app {

std::string versionReport(const std::filesystem::path& ownDir);

}  // namespace liveconv::app
