#include "ui_programs.hpp"

namespace liveconv::app {

const std::vector<UiProgram>& uiPrograms() {
  static const std::vector<UiProgram> programs = {
      {"qt", "liveconv-qt", "the Qt desktop shell (configure with -DLIVECONV_WITH_QT=ON and Qt 6)"},
      {"viewer", "liveconv-viewer", "the GLFW viewer (configure with -DLIVECONV_WITH_GUI=ON, GLFW and ImGui)"},
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

std::filesystem::path uiProgramPath(const UiProgram& program, const std::filesystem::path& ownDir) {
  return ownDir / program.file;
}

std::filesystem::path locateUiProgram(const UiProgram& program, const std::filesystem::path& ownDir) {
  const std::filesystem::path path = uiProgramPath(program, ownDir);
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) ? path : std::filesystem::path();
}

}  // namespace liveconv::app
