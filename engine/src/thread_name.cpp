#include "liveconv/thread_name.hpp"

#include <cstring>

#if defined(__linux__)
#include <pthread.h>
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

}  // namespace liveconv
