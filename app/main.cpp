// liveconv: the command-line entry point. Dispatches to the subcommands and
// turns every error into one sentence and a defined exit code (exit_codes.hpp).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "bench.hpp"
#include "cli.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/frequency_response.hpp"
#include "liveconv/mask.hpp"
#include "liveconv/media/exit_codes.hpp"
#include "liveconv/media/media_errors.hpp"
#include "liveconv/media/stop_signals.hpp"
#include "liveconv/variants.hpp"
#include "subcommands.hpp"
#include "ui_programs.hpp"
#include "version.hpp"

namespace liveconv::app {
namespace {

void printUsage() {
  std::cout << "liveconv " LIVECONV_VERSION " - live 2D convolution on OpenCL\n\n"
               "Usage: liveconv COMMAND [options]\n"
               "  or:  liveconv COMMAND --help\n"
               "  or:  liveconv --ui qt|viewer [ARGS]\n\n"
               "Commands:\n"
               "  devices            list OpenCL platforms and devices\n"
               "  variants           list the kernel variants\n"
               "  presets            list the mask presets and the mask spec syntax\n"
               "  response SPEC      what a mask does to the picture's frequencies (its gain)\n"
               "  bench              benchmark variants x masks x image sizes\n";
  for (const Subcommand& s : extraSubcommands()) std::cout << "  " << s.usageLine << "\n";
  std::cout << "\nWindows:\n"
               "  --ui qt [ARGS]      the Qt desktop shell (liveconv-qt ARGS)\n"
               "  --ui viewer [ARGS]  the GLFW + ImGui viewer (liveconv-viewer ARGS)\n"
               "\nOptions:\n"
               "  --help, -h         this text\n"
               "  --version          the version, the commit it was built from, and the OpenCL ICD loader,\n"
               "                     OpenCL platforms, FFmpeg, Qt and GLFW it runs with\n"
               "\nEnvironment:\n"
               "  LIVECONV_DEVICE        the device when --device is not given: an index from\n"
               "                         `liveconv devices`, P:D, gpu, cpu, accelerator, or part of a\n"
               "                         device, vendor or platform name\n"
               "  LIVECONV_KERNEL_DIR    load kernels/*.cl from this folder instead of the embedded copies\n"
               "  LIVECONV_TUNING_CACHE  the file where auto keeps its measured choices\n"
               "                         (default $XDG_CACHE_HOME/liveconv/autotune.tsv)\n"
               "  LIVECONV_DECODER_CACHE the file where --hwaccel auto keeps its measured choices\n"
               "                         (default $XDG_CACHE_HOME/liveconv/decoders.tsv)\n"
               "  LIVECONV_ASSETS        the folder of city_320x180.mp4, played when no source is given\n"
               "  LIVECONV_FFMPEG_LOG    set: show FFmpeg's own log lines\n"
               "\nExit status:\n"
               "  0 ok; 1 unexpected failure; 2 bad command line or mask; 3 no (matching) OpenCL device;\n"
               "  4 kernel build failure (the build log is printed); 5 the variant cannot run this mask or\n"
               "  format on this device; 6 verification failed; 7 input failed; 8 output failed;\n"
               "  127 the window program is not part of this build; 130, 143, 129 interrupted by\n"
               "  SIGINT (Ctrl-C), SIGTERM or SIGHUP (each finishes the output file first)\n";
}

// Commands that take no options: `--help` (or -h) prints `usage` and returns true.
bool answeredHelp(const std::vector<std::string>& argv, const char* usage) {
  const Args args(argv, {}, {"--help"}, {{"-h", "--help"}});
  if (!args.positional().empty())
    throw UsageError("Unexpected argument '" + args.positional().front() + "'; this command takes none.");
  if (!args.has("--help")) return false;
  std::cout << usage;
  return true;
}

int listDevices(const std::vector<std::string>& argv) {
  if (answeredHelp(argv, "usage: liveconv devices\n"
                         "  lists every OpenCL platform and device: index, platform:device, name, kind,\n"
                         "  compute units, clock, memory, OpenCL version and driver; * marks the device\n"
                         "  used when none is selected (--device SEL or $LIVECONV_DEVICE).\n"))
    return media::kExitOk;
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
  return media::kExitOk;
}

int listVariants(const std::vector<std::string>& argv) {
  if (answeredHelp(argv, "usage: liveconv variants\n"
                         "  lists the kernel variants (--variant NAME of run, bench and the windows) with a\n"
                         "  line on each; auto races the others and keeps the fastest.\n"))
    return media::kExitOk;
  std::size_t width = 0;
  for (const auto& v : variantRegistry()) width = std::max(width, std::string(v.name).size());
  for (const auto& v : variantRegistry())
    std::cout << "  " << v.name << std::string(width + 2 - std::string(v.name).size(), ' ') << v.description << "\n";
  return media::kExitOk;
}

int listPresets(const std::vector<std::string>& argv) {
  if (answeredHelp(argv, "usage: liveconv presets\n"
                         "  lists the mask presets (--mask SPEC) with their parameters, and the inline\n"
                         "  mask syntax.\n"))
    return media::kExitOk;
  // One column for the syntax, as wide as its longest entry (unsharp's options are long).
  std::size_t column = std::string("WxH:c1,c2,...").size();
  for (const auto& p : maskPresets()) column = std::max(column, std::string(p.name).size() + std::string(p.parameters).size());
  column += 2;
  auto row = [&](const std::string& syntax, const std::string& text) {
    std::cout << "  " << syntax << std::string(column - syntax.size(), ' ') << text << "\n";
  };
  for (const auto& p : maskPresets()) row(std::string(p.name) + p.parameters, p.description);
  row("WxH:c1,c2,...", "inline coefficients, row-major; divided by their sum");
  row("", "(normalize=auto) unless a divisor or normalize=none is given");
  std::cout << "  options after ';': divisor=D, bias=B, normalize=auto|none, each at most once\n"
               "  (e.g. 3x3:1,2,1,2,4,2,1,2,1 blurs; 3x3:0,-1,0,-1,5,-1,0,-1,0;divisor=1 sharpens)\n"
               "  sizes are odd whole numbers 1 to 63; a preset takes only the size and options listed above\n";
  return media::kExitOk;
}

// The mask's frequency response, as the windows draw it beside the grid.
int printResponse(const std::vector<std::string>& argv) {
  const char* usage = "usage: liveconv response SPEC [--grid]\n"
                         "  what the mask SPEC (a preset or inline mask, see `liveconv presets`) does to\n"
                         "  the picture's frequencies: the magnitude of its 2-D Fourier transform times\n"
                         "  the scale the kernels apply (normalize, divisor), on a 64x64 grid of\n"
                         "  frequencies from -0.5 to 0.5 cycles per pixel (numpy's\n"
                         "  abs(fftshift(fft2(scale * mask, (64, 64))))). Prints one line on what it\n"
                         "  does, then the gain along x (fy = 0) and along y (fx = 0) from 0 to 0.5\n"
                         "  cycles/px; --grid prints the whole grid instead: 64 rows (fy from -0.5), 64\n"
                         "  gains each (fx from -0.5). The windows show the same as a picture.\n";
  const Args args(argv, {}, {"--help", "--grid"}, {{"-h", "--help"}});
  if (args.has("--help")) {
    std::cout << usage;
    return media::kExitOk;
  }
  if (args.positional().size() != 1)
    throw UsageError(args.positional().empty() ? "response needs a mask spec, e.g. liveconv response gaussian:9"
                                               : "response takes one mask spec; '" + args.positional()[1] +
                                                     "' is a second.");
  const std::string spec = args.positional()[0];
  const bool grid = args.has("--grid");
  const FrequencyResponse r = frequencyResponse(parseMaskSpec(spec));
  char line[64];
  if (grid) {
    for (int y = 0; y < r.size; ++y)
      for (int x = 0; x < r.size; ++x) {
        std::snprintf(line, sizeof line, "%.9g%c", static_cast<double>(r.at(x, y)), x + 1 < r.size ? ' ' : '\n');
        std::cout << line;
      }
    return media::kExitOk;
  }
  std::cout << describe(parseMaskSpec(spec)) << ": " << describeResponse(r) << "\n"
            << "cycles/px  gain along x  gain along y\n";
  const std::vector<float> x = r.cutX(), y = r.cutY();
  for (size_t k = 0; k < x.size(); k += 2) {
    std::snprintf(line, sizeof line, "%9.4f  %12.6g  %12.6g\n", 0.5 * static_cast<double>(k) / static_cast<double>(x.size() - 1),
                  static_cast<double>(x[k]), static_cast<double>(y[k]));
    std::cout << line;
  }
  return media::kExitOk;
}

// `liveconv --ui qt|viewer ARGS...` becomes the window program with ARGS: the
// same process (exec), so its exit code, signals and terminal are the user's.
int launchUi(const std::string& name, const std::vector<std::string>& args, const char* argv0) {
  const UiProgram* program = findUiProgram(name);
  if (!program) throw UsageError("Unknown UI '" + name + "'; --ui takes qt or viewer.");
  const std::filesystem::path dir = ownDirectory(argv0);
  const std::filesystem::path path = locateUiProgram(*program, dir);
  if (path.empty()) {
    std::cerr << "liveconv: " << program->file << ", " << program->what << ", is not part of this build (looked for "
              << uiProgramPath(*program, dir).string() << ").\n";
    return media::kExitUiMissing;
  }
  std::vector<std::string> owned = {path.string()};
  owned.insert(owned.end(), args.begin(), args.end());
  std::vector<char*> argvOut;
  for (std::string& a : owned) argvOut.push_back(a.data());
  argvOut.push_back(nullptr);
  std::cout.flush();
  if (media::interruptRequested()) {  // the window would not see a signal that came before it started
    return media::reportInterruption("liveconv", std::string("; ") + program->file + " was not started");
  }
  // Held from here until the window's first code takes them (as bin/'s launcher
  // does): a signal while the window's libraries load is its interruption.
  sigset_t stop, before;
  sigemptyset(&stop);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stop, signal);
  sigprocmask(SIG_BLOCK, &stop, &before);
  execv(path.c_str(), argvOut.data());
  const int error = errno;
  sigprocmask(SIG_SETMASK, &before, nullptr);
  errno = error;
  std::cerr << "liveconv: cannot start " << path.string() << ": " << std::strerror(errno) << ".\n";
  return media::kExitUiMissing;
}

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    printUsage();
    return media::kExitUsage;
  }
  const std::string cmd = argv[1];
  const std::vector<std::string> rest(argv + 2, argv + argc);
  if (cmd == "help" && !rest.empty()) {  // `liveconv help run` is `liveconv run --help`
    std::vector<char*> again = {argv[0], argv[2], const_cast<char*>("--help")};
    return dispatch(3, again.data());
  }
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    printUsage();
    return media::kExitOk;
  }
  if (cmd == "--version") {
    std::cout << versionReport(ownDirectory(argv[0]));
    return media::kExitOk;
  }
  if (cmd == "--ui") {
    if (rest.empty()) throw UsageError("--ui needs a name: qt or viewer.");
    return launchUi(rest[0], std::vector<std::string>(rest.begin() + 1, rest.end()), argv[0]);
  }
  if (cmd.rfind("--ui=", 0) == 0) return launchUi(cmd.substr(5), rest, argv[0]);
  if (cmd == "devices") return listDevices(rest);
  if (cmd == "variants") return listVariants(rest);
  if (cmd == "presets") return listPresets(rest);
  if (cmd == "response") return printResponse(rest);
  if (cmd == "bench") return runBench(rest);
  for (const Subcommand& s : extraSubcommands())
    if (cmd == s.name) return s.run(rest);
  throw UsageError("Unknown command '" + cmd + "'; run 'liveconv --help' for the list.");
}

}  // namespace
}  // namespace liveconv::app

namespace {

// The command's exit code; its errors as one sentence each.
int runMain(int argc, char** argv) {
  using namespace liveconv;
  using namespace liveconv::app;
  try {
    return dispatch(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return media::kExitUsage;
  } catch (const BuildError& e) {
    std::cerr << "liveconv: " << e.what() << "\nbuild log:\n" << e.buildLog() << "\n";
    return media::kExitBuildFailed;
  } catch (const cl::Error& e) {
    std::cerr << "liveconv: OpenCL call " << e.what() << " failed with " << clErrorName(e.err()) << ".\n";
    return media::kExitFailure;
  } catch (const std::exception& e) {  // the engine's and the media's errors, each with its number
    std::cerr << "liveconv: " << e.what() << "\n";
    return media::exitCodeFor(e);
  }
}

}  // namespace

LIVECONV_CATCH_STOP_SIGNALS_FROM_THE_START

int main(int argc, char** argv) {
  using namespace liveconv;
  using namespace liveconv::app;
  media::writeFailuresAreErrors();
  return media::finishInterrupted("liveconv", runMain(argc, argv));
}
