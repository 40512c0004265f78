// The window programs (liveconv-qt, liveconv-viewer) as the CLI finds them:
// beside this program, in libexec/liveconv/ (installed and in the build tree
// alike: cmake/ProgramLauncher.cmake). `--ui` starts them and `--version` asks
// them which Qt and GLFW they run with.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace liveconv::app {

struct UiProgram {
  const char* name;      // as --ui takes it
  const char* file;      // the executable
  const char* what;      // for the sentence when it is missing
};

const std::vector<UiProgram>& uiPrograms();
const UiProgram* findUiProgram(const std::string& name);  // nullptr for an unknown name

// The folder of the running executable (/proc/self/exe, else argv[0]).
std::filesystem::path ownDirectory(const char* argv0);
// Where `program` belongs, from the CLI's own folder.
std::filesystem::path uiProgramPath(const UiProgram& program, const std::filesystem::path& ownDir);
// That path when the program is there; empty when it is not part of this build.
std::filesystem::path locateUiProgram(const UiProgram& program, const std::filesystem::path& ownDir);

}  // namespace liveconv::app
