#include "liveconv/thread_name.hpp"

#include <cstring>

#if defined(__linux__)
#include <cerrno>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace liveconv {

void setThreadName(const char* name) {
#if defined(__linux__)
  char shortName[16] = {};
  std::strncpy(shortName, name, sizeof shortName - 1);
  pthread_setname_np(pthread_self(), shortName);
#else
  (void)name;
#endif
}

std::string currentThreadName() {
#if defined(__linux__)
  char name[16] = {};
  if (pthread_getname_np(pthread_self(), name, sizeof name) == 0) return name;
#endif
  return {};
}

bool setCurrentThreadNice(int nice) {
#if defined(__linux__)
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  return ::setpriority(PRIO_PROCESS, tid, nice) == 0;
#else
  (void)nice;
  return false;
#endif
}

int currentThreadNice() {
#if defined(__linux__)
  errno = 0;
  const int nice = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)));
  return errno == 0 ? nice : 0;
#else
  return 0;
#endif
}

}  // namespace liveconv
