#include "feed/first_launch_helper.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
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

// Runs the helper (its errors to /dev/null); `launched(i)` for each set it
// reports done on its standard output (one index a line), also when it is
// killed later. True when it exited with 0 within the limit; killed when
// `abandon` says so.
bool runHelper(const std::vector<std::string>& args, const std::function<bool()>& abandon,
               const std::function<void(std::size_t)>& launched) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) return false;
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&files, report[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&files, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  // Nothing else of the window's (its display connection, its devices' files) stays open in the helper.
  posix_spawn_file_actions_addclosefrom_np(&files, STDERR_FILENO + 1);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  close(report[1]);
  if (spawned != 0) {
    close(report[0]);
    return false;
  }
  fcntl(report[0], F_SETFL, O_NONBLOCK);
  std::string pending;
  const auto readReports = [&] {
    char buffer[256];
    for (ssize_t n; (n = read(report[0], buffer, sizeof buffer)) > 0;) pending.append(buffer, static_cast<std::size_t>(n));
    for (std::size_t end; (end = pending.find('\n')) != std::string::npos; pending.erase(0, end + 1))
      launched(static_cast<std::size_t>(std::strtoul(pending.c_str(), nullptr, 10)));
  };
  const auto deadline = std::chrono::steady_clock::now() + kFirstLaunchHelperLimit;
  int status = 0;
  bool ok = false;
  for (;;) {
    readReports();
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
      break;
    }
    if (done < 0) break;
    if (std::chrono::steady_clock::now() >= deadline || (abandon && abandon())) {
      kill(pid, SIGKILL);  // what it generated so far stays in PoCL's cache
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  readReports();
  close(report[0]);
  return ok;
}

// Where PoCL keeps the code it generates (its own rule: $POCL_CACHE_DIR, else
// $XDG_CACHE_HOME/pocl/kcache, else ~/.cache/pocl/kcache); empty when unknown.
std::string poclKernelCache() {
  if (const char* dir = std::getenv("POCL_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/pocl/kcache";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/pocl/kcache";
  return {};
}

// What helpers launched, across runs: a line per set (the device and driver,
// the program's digest, the variant, format and work-group shape), so that a
// window on a machine whose PoCL cache is warm starts no helper at all. The
// record lives in PoCL's cache folder, so it goes when that cache is emptied.
class LaunchRecord {
 public:
  static LaunchRecord& instance() {
    static LaunchRecord record;
    return record;
  }

  bool has(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    load();
    return !path_.empty() && keys_.count(key) > 0;
  }

  void add(const std::vector<std::string>& keys) {
    if (keys.empty()) return;
    std::lock_guard<std::mutex> lock(mutex_);
    load();
    if (path_.empty()) return;
    if (keys_.size() + keys.size() > kMaxKeys) {  // bounded: start again
      keys_.clear();
      std::ofstream(path_, std::ios::trunc);
    }
    std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), error_);
    std::ofstream out(path_, std::ios::app);
    for (const std::string& k : keys)
      if (keys_.insert(k).second) out << k << "\n";
  }

 private:
  static constexpr std::size_t kMaxKeys = 20000;

  void load() {
    const std::string cache = poclKernelCache();
    const std::string path = cache.empty() ? std::string() : cache + "/liveconv-first-launches.tsv";
    if (path == path_) return;
    path_ = path;
    keys_.clear();
    std::ifstream in(path_);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) keys_.insert(line);
  }

  std::mutex mutex_;
  std::string path_;  // what keys_ were read from
  std::set<std::string> keys_;
  std::error_code error_;
};

std::string recordKey(const DeviceInfo& device, const Convolver::PreparedSet& set) {
  return device.fingerprint() + "\t" + set.launchKey();
}

}  // namespace

FirstLaunchElsewhere firstLaunchInHelper(std::string executable) {
  return [executable = std::move(executable)](const DeviceInfo& device,
                                              const std::vector<Convolver::PreparedSet>& sets,
                                              const std::function<bool()>& abandon) {
    if (!generatesCodeAtFirstLaunch(device)) return false;
    LaunchRecord& record = LaunchRecord::instance();
    std::vector<Convolver::PreparedSet> todo;
    std::vector<std::string> keys;
    for (const Convolver::PreparedSet& set : sets) {
      std::string key = recordKey(device, set);
      if (record.has(key)) continue;  // launched by a helper before, its code in PoCL's cache
      todo.push_back(set);
      keys.push_back(std::move(key));
    }
    if (todo.empty()) return true;
    std::vector<std::string> done;
    const bool ok = runHelper(helperArguments(executable, device, todo), abandon, [&](std::size_t i) {
      if (i < keys.size()) done.push_back(keys[i]);
    });
    record.add(done);  // those done, also when it was killed before the others
    return ok;
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
    for (std::size_t i = 0; i < sets.size(); ++i) {
      try {
        Convolver c(device);
        c.setParams(sets[i].filter);
        c.prepare(sets[i].format);
        c.runOnce(queue);
        std::printf("%zu\n", i);  // done: the caller records it
        std::fflush(stdout);
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
