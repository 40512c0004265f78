#include "feed/first_launch_helper.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "liveconv/convolver.hpp"
#include "liveconv/device.hpp"
#include "liveconv/parameters.hpp"

extern char** environ;

namespace liveconv::ui {
namespace {

constexpr const char* kSetFlag = "--set";     // starts each set
constexpr const char* kPacketFlag = "--packet";  // not a user's parameter: the race's winners carry one

// Only PoCL generates code at a kernel's first launch under a process-wide
// lock; other drivers generate it at build time, or off their launches. And
// only PoCL's kernel cache on disk brings the helper's code back here.
bool generatesCodeAtFirstLaunch(const DeviceInfo& device) {
  const char* cache = std::getenv("POCL_KERNEL_CACHE");
  return device.kind != DeviceKind::GPU && device.platformName.find("Portable Computing Language") != std::string::npos &&
         !(cache && std::string(cache) == "0");
}

// executable --first-launch-helper --device P:D [--set --format F --mask JSON ... --packet N]...
std::vector<std::string> helperArguments(const std::string& executable, const DeviceInfo& device,
                                         const std::vector<Convolver::PreparedSet>& sets) {
  std::vector<std::string> args = {executable, kFirstLaunchFlag, paramDescription(ParamId::Device).flag,
                                   std::to_string(device.platformIndex) + ":" + std::to_string(device.deviceIndex)};
  for (const Convolver::PreparedSet& set : sets) {
    ParamValues values;
    values.filter = set.params;
    values.format = set.format;
    args.push_back(kSetFlag);
    for (const ParamId id : {ParamId::Format, ParamId::Mask, ParamId::Variant, ParamId::Border, ParamId::Alpha,
                             ParamId::Workgroup}) {
      args.push_back(paramDescription(id).flag);
      args.push_back(paramText(values, id));
    }
    args.push_back(kPacketFlag);
    args.push_back(std::to_string(set.params.packet));
  }
  return args;
}

// Runs the helper, its output to /dev/null; true when it exited with 0 within
// the limit. Killed when `abandon` says so.
bool runHelper(const std::vector<std::string>& args, const std::function<bool()>& abandon) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&files, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  if (spawned != 0) return false;
  const auto deadline = std::chrono::steady_clock::now() + kFirstLaunchHelperLimit;
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (done < 0) return false;
    if (std::chrono::steady_clock::now() >= deadline || (abandon && abandon())) {
      kill(pid, SIGKILL);  // what it generated so far stays in PoCL's cache
      waitpid(pid, &status, 0);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

FirstLaunchElsewhere firstLaunchInHelper(std::string executable) {
  return [executable = std::move(executable)](const DeviceInfo& device,
                                              const std::vector<Convolver::PreparedSet>& sets,
                                              const std::function<bool()>& abandon) {
    return generatesCodeAtFirstLaunch(device) && runHelper(helperArguments(executable, device, sets), abandon);
  };
}

namespace {
std::mutex offeredMutex;
std::string offeredExecutable;  // empty: none offered
}  // namespace

void offerFirstLaunchHelper(std::string executable) {
  std::lock_guard<std::mutex> lock(offeredMutex);
  offeredExecutable = std::move(executable);
}

FirstLaunchElsewhere offeredFirstLaunchHelper() {
  std::lock_guard<std::mutex> lock(offeredMutex);
  if (offeredExecutable.empty()) return {};
  return firstLaunchInHelper(offeredExecutable);
}

bool isFirstLaunchHelper(int argc, char** argv) { return argc > 1 && std::strcmp(argv[1], kFirstLaunchFlag) == 0; }

int firstLaunchHelperMain(int argc, char** argv) {
  std::string selector;
  std::vector<ParamValues> sets;
  try {
    for (int i = 2; i < argc; ++i) {
      const std::string flag = argv[i];
      if (flag == kSetFlag) {
        sets.push_back(defaultParams());
        continue;
      }
      if (i + 1 >= argc) return 2;
      const std::string text = argv[++i];
      const ParamDescription* d = findParamByFlag(flag);
      if (d && d->id == ParamId::Device) {
        selector = text;
      } else if (sets.empty()) {
        return 2;
      } else if (flag == kPacketFlag) {
        sets.back().filter.packet = std::stoi(text);
      } else if (d) {
        setParam(sets.back(), d->id, text);
      } else {
        return 2;
      }
    }
  } catch (const std::exception&) {
    return 2;
  }
  int code = 0;
  try {
    auto device = DeviceContext::create(selectDevice(selector));
    const cl::CommandQueue queue(device->context, device->info.device);
    for (const ParamValues& set : sets) {
      try {
        Convolver c(device);
        c.setParams(set.filter);
        c.prepare(set.format);
        c.runOnce(queue);
      } catch (const std::exception&) {
        code = 1;  // the others still go
      }
    }
  } catch (const std::exception&) {
    return 1;
  }
  return code;
}

}  // namespace liveconv::ui
