#include "ui_programs.hpp"

namespace liveconv::app {

const std::vector<UiProgram>& uiPrograms() {
  static const std::vector<UiProgram> programs = {
      {"qt", "liveconv-qt", "../ui/qt", "the Qt desktop shell (configure with -DLIVECONV_WITH_QT=ON and Qt 6)"},
      {"viewer", "liveconv-viewer", "../ui/glfw",
       "the GLFW viewer (configure with -DLIVECONV_WITH_GUI=ON, GLFW and ImGui)"},
  };
  return programs;
}

const UiProgram* findUiProgram(const std::string& name) {
  for (const UiProgram& p : uiPrograms())
    if (name == p.name) return &p;
  return nullptr;
}

std::filesystem::path ownDirectory(const char* argv0) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) return self.parent_path();
  return std::filesystem::absolute(argv0, ec).parent_path();
}

std::vector<std::filesystem::path> uiProgramCandidates(const UiProgram& program, const std::filesystem::path& ownDir) {
  return {ownDir / program.file, (ownDir / program.buildDir / program.file).lexically_normal()};
}

std::filesystem::path locateUiProgram(const UiProgram& program, const std::filesystem::path& ownDir) {
  for (const auto& path : uiProgramCandidates(program, ownDir)) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) return path;
  }
  return {};
}

}  // namespace liveconv::app
