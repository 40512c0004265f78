// The window programs (liveconv-qt, liveconv-viewer) as the CLI finds them:
// next to this executable (an installed bin/), then where CMake builds them
// in the build tree (app/ -> ../ui/qt, ../ui/glfw). `--ui` starts them and
// `--version` asks them which Qt and GLFW they run with.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace liveconv::app {

struct UiProgram {
  const char* name;      // as --ui takes it
  const char* file;      // the executable
  const char* buildDir;  // its folder in the build tree, relative to app/
  const char* what;      // for the sentence when it is missing
};

const std::vector<UiProgram>& uiPrograms();
const UiProgram* findUiProgram(const std::string& name);  // nullptr for an unknown name

// The folder of the running executable (/proc/self/exe, else argv[0]).
std::filesystem::path ownDirectory(const char* argv0);
// Where `program` is looked for, in order, from the CLI's own folder.
std::vector<std::filesystem::path> uiProgramCandidates(const UiProgram& program, const std::filesystem::path& ownDir);
// The first candidate that exists; empty when the program is not part of this build.
std::filesystem::path locateUiProgram(const UiProgram& program, const std::filesystem::path& ownDir);

}  // namespace liveconv::app
