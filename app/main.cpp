// liveconv: the command-line entry point. Dispatches to the subcommands and
// turns every error into one sentence and a defined exit code (exit_codes.hpp).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "bench.hpp"
#include "cli.hpp"
#include "exit_codes.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/mask.hpp"
#include "liveconv/variants.hpp"
#include "subcommands.hpp"

namespace liveconv::app {
namespace {

void printUsage() {
  std::cout << "liveconv " LIVECONV_VERSION " - live 2D convolution on OpenCL\n\n"
               "usage: liveconv COMMAND [options]\n\n"
               "commands:\n"
               "  devices            list OpenCL platforms and devices\n"
               "  variants           list the kernel variants\n"
               "  presets            list the mask presets\n"
               "  bench              benchmark variants x masks x image sizes (bench --help)\n";
  for (const Subcommand& s : extraSubcommands()) std::cout << "  " << s.usageLine << "\n";
  std::cout << "\nwindows: liveconv --ui qt [ARGS]      the Qt desktop shell (liveconv-qt ARGS)\n"
               "         liveconv --ui viewer [ARGS]  the GLFW + ImGui viewer (liveconv-viewer ARGS)\n";
  std::cout << "\ndevice selection: --device SEL or $LIVECONV_DEVICE; SEL is an index, P:D, gpu, cpu, or part of a name\n"
               "kernel sources: $LIVECONV_KERNEL_DIR loads kernels/*.cl from disk instead of the embedded copies\n";
}

int listDevices(const std::vector<std::string>& argv) {
  const Args args(argv, {}, {});
  const auto devices = enumerateDevices();
  if (devices.empty()) throw NoDeviceError(
      "No OpenCL platform or device found: install an OpenCL driver (for example pocl-opencl-icd).");
  int defaultIndex = -1;
  try {
    defaultIndex = selectDevice("", devices).index;
    if (const char* env = std::getenv(kDeviceEnvVar); env && *env) defaultIndex = selectDevice(env, devices).index;
  } catch (const NoDeviceError&) {
  }
  int platform = -1;
  for (const auto& d : devices) {
    if (d.platformIndex != platform) {
      platform = d.platformIndex;
      std::cout << "platform " << platform << ": " << d.platformName << "\n";
    }
    std::cout << (d.index == defaultIndex ? "  * " : "    ") << d.index << " (" << d.platformIndex << ":"
              << d.deviceIndex << ") " << d.name << "  [" << toString(d.kind) << ", " << d.computeUnits << " CUs @ "
              << d.clockMHz << " MHz, " << d.globalMemBytes / (1024 * 1024) << " MiB global, "
              << d.localMemBytes / 1024 << " KiB local, " << d.deviceVersion << ", driver " << d.driverVersion
              << "]\n";
  }
  std::cout << "(* = the device used when none is selected)\n";
  return kExitOk;
}

int listVariants() {
  for (const auto& v : variantRegistry()) std::cout << "  " << v.name << std::string(12 - std::string(v.name).size(), ' ') << v.description << "\n";
  return kExitOk;
}

int listPresets() {
  for (const auto& p : maskPresets())
    std::cout << "  " << p.name << p.parameters << std::string(std::max<int>(1, 30 - int(std::string(p.name).size() + std::string(p.parameters).size())), ' ')
              << p.description << "\n";
  std::cout << "  WxH:c1,c2,...                 inline coefficients, row-major\n"
               "  options after ';': divisor=D, bias=B, normalize=auto|none (e.g. 3x3:1,2,1,2,4,2,1,2,1;divisor=16)\n";
  return kExitOk;
}

// `liveconv --ui qt|viewer ARGS...` becomes the window program with ARGS: the
// same process (exec), so its exit code, signals and terminal are the user's.
// It is looked for next to this executable (an installed bin/), then where
// CMake builds it in the build tree (app/ -> ../ui/qt, ../ui/glfw).
struct UiProgram {
  const char* name;      // as --ui takes it
  const char* file;      // the executable
  const char* buildDir;  // its folder in the build tree, relative to app/
  const char* what;      // for the sentence when it is missing
};
constexpr UiProgram kUiPrograms[] = {
    {"qt", "liveconv-qt", "../ui/qt", "the Qt desktop shell (configure with -DLIVECONV_WITH_QT=ON and Qt 6)"},
    {"viewer", "liveconv-viewer", "../ui/glfw",
     "the GLFW viewer (configure with -DLIVECONV_WITH_GUI=ON, GLFW and ImGui)"},
};

std::filesystem::path ownDirectory(const char* argv0) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) return self.parent_path();
  return std::filesystem::absolute(argv0, ec).parent_path();
}

int launchUi(const std::string& name, const std::vector<std::string>& args, const char* argv0) {
  const UiProgram* program = nullptr;
  for (const UiProgram& p : kUiPrograms)
    if (name == p.name) program = &p;
  if (!program) throw UsageError("Unknown UI '" + name + "'; --ui takes qt or viewer.");
  const std::filesystem::path dir = ownDirectory(argv0);
  const std::vector<std::filesystem::path> candidates = {dir / program->file,
                                                         (dir / program->buildDir / program->file).lexically_normal()};
  for (const auto& path : candidates) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) continue;
    std::vector<std::string> owned = {path.string()};
    owned.insert(owned.end(), args.begin(), args.end());
    std::vector<char*> argvOut;
    for (std::string& a : owned) argvOut.push_back(a.data());
    argvOut.push_back(nullptr);
    std::cout.flush();
    execv(path.c_str(), argvOut.data());
    std::cerr << "liveconv: cannot start " << path.string() << ": " << std::strerror(errno) << ".\n";
    return kExitUiMissing;
  }
  std::cerr << "liveconv: " << program->file << ", " << program->what << ", is not part of this build (looked for "
            << candidates[0].string() << " and " << candidates[1].string() << ").\n";
  return kExitUiMissing;
}

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    printUsage();
    return kExitUsage;
  }
  const std::string cmd = argv[1];
  const std::vector<std::string> rest(argv + 2, argv + argc);
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    printUsage();
    return kExitOk;
  }
  if (cmd == "--version") {
    std::cout << "liveconv " LIVECONV_VERSION "\n";
    return kExitOk;
  }
  if (cmd == "--ui") {
    if (rest.empty()) throw UsageError("--ui needs a name: qt or viewer.");
    return launchUi(rest[0], std::vector<std::string>(rest.begin() + 1, rest.end()), argv[0]);
  }
  if (cmd.rfind("--ui=", 0) == 0) return launchUi(cmd.substr(5), rest, argv[0]);
  if (cmd == "devices") return listDevices(rest);
  if (cmd == "variants") return listVariants();
  if (cmd == "presets") return listPresets();
  if (cmd == "bench") return runBench(rest);
  for (const Subcommand& s : extraSubcommands())
    if (cmd == s.name) return s.run(rest);
  throw UsageError("Unknown command '" + cmd + "'; run 'liveconv --help' for the list.");
}

}  // namespace
}  // namespace liveconv::app

int main(int argc, char** argv) {
  using namespace liveconv;
  using namespace liveconv::app;
  try {
    return dispatch(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return kExitUsage;
  } catch (const InvalidArgument& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return kExitUsage;
  } catch (const NoDeviceError& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return kExitNoDevice;
  } catch (const BuildError& e) {
    std::cerr << "liveconv: " << e.what() << "\nbuild log:\n" << e.buildLog() << "\n";
    return kExitBuildFailed;
  } catch (const UnsupportedError& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return kExitUnsupported;
  } catch (const Error& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return kExitFailure;
  } catch (const cl::Error& e) {
    std::cerr << "liveconv: OpenCL call " << e.what() << " failed with " << clErrorName(e.err()) << ".\n";
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return kExitFailure;
  }
}
