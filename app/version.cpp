#include "version.hpp"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sstream>
#include <vector>

#include "liveconv/cl.hpp"
#include "subcommands.hpp"
#include "ui_programs.hpp"

#ifndef LIVECONV_GIT_COMMIT
#define LIVECONV_GIT_COMMIT "unknown"
#endif

namespace liveconv::app {
namespace {

// The loader-information query that ocl-icd and the Khronos loader both answer.
using GetLoaderInfo = cl_int (*)(cl_uint, size_t, void*, size_t*);
constexpr cl_uint kLoaderOpenCLVersion = 1, kLoaderVersion = 2, kLoaderName = 3;

std::string loaderString(GetLoaderInfo get, cl_uint what) {
  size_t size = 0;
  if (get(what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  if (get(what, size, text.data(), nullptr) != CL_SUCCESS) return {};
  return text.c_str();
}

// The loader's own functions are reached only through OpenCL 1.0's
// clGetExtensionFunctionAddress (the 1.2 call asks a platform's driver, which
// does not know them). The headers mark that call deprecated, so it is looked
// up by name in the loader already linked, rather than called by declaration.
using GetExtensionFunctionAddress = void* (*)(const char*);

std::string icdLoaderLine() {
  const auto lookup =
      reinterpret_cast<GetExtensionFunctionAddress>(dlsym(RTLD_DEFAULT, "clGetExtensionFunctionAddress"));
  if (!lookup) return "an ICD loader without clGetExtensionFunctionAddress";
  auto get = reinterpret_cast<GetLoaderInfo>(lookup("clGetICDLoaderInfoOCLICD"));
  if (!get) return "an ICD loader that does not name itself";
  return loaderString(get, kLoaderName) + " " + loaderString(get, kLoaderVersion) + ", up to " +
         loaderString(get, kLoaderOpenCLVersion);
}

void platformLines(std::ostream& out) {
  std::vector<cl::Platform> platforms;
  if (cl::Platform::get(&platforms) != CL_SUCCESS || platforms.empty()) {
    out << "OpenCL platforms: none (install an OpenCL driver, for example pocl-opencl-icd)\n";
    return;
  }
  for (std::size_t i = 0; i < platforms.size(); ++i)
    out << "OpenCL platform " << i << ": " << platforms[i].getInfo<CL_PLATFORM_NAME>() << ", "
        << platforms[i].getInfo<CL_PLATFORM_VERSION>() << "\n";
}

// The standard output of `program --version`; empty if it could not be run.
std::string outputOf(const std::filesystem::path& program) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return {};
  }
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execl(program.c_str(), program.c_str(), "--version", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  std::string text;
  char buffer[512];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? text : std::string();
}

// "Qt: 6.4.2, in /usr/bin/liveconv-qt", from the second line of the window's own --version.
void windowLine(std::ostream& out, const char* toolkit, const char* uiName, const std::filesystem::path& ownDir) {
  const UiProgram& program = *findUiProgram(uiName);
  out << toolkit << ": ";
  const std::filesystem::path path = locateUiProgram(program, ownDir);
  if (path.empty()) {
    out << "none (" << program.file << " is not part of this build)\n";
    return;
  }
  std::istringstream lines(outputOf(path));
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  if (second.empty())
    out << "unknown (" << path.string() << " --version did not answer)\n";
  else  // "Qt 6.4.2 (built with 6.4.2)" -> "6.4.2 (built with 6.4.2)"
    out << (second.rfind(std::string(toolkit) + " ", 0) == 0 ? second.substr(std::string(toolkit).size() + 1) : second)
        << ", in " << path.string() << "\n";
}

}  // namespace

std::string versionReport(const std::filesystem::path& ownDir) {
  std::ostringstream out;
  out << "liveconv " LIVECONV_VERSION " (commit " LIVECONV_GIT_COMMIT ")\n";
  out << "OpenCL ICD loader: " << icdLoaderLine() << "\n";
  platformLines(out);
  out << "FFmpeg: " << mediaVersionText() << "\n";
  windowLine(out, "Qt", "qt", ownDir);
  windowLine(out, "GLFW", "viewer", ownDir);
  return out.str();
}

}  // namespace liveconv::app
