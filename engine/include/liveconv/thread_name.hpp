// Thread names: every thread the project starts is named (lc-engine,
// lc-build, lc-decode, ...), as top -H, gdb and perf show them.
#pragma once

#include <string>

namespace liveconv {

// Names the calling thread; at most 15 characters are kept.
void setThreadName(const char* name);
// The calling thread's name ("" where the platform cannot say).
std::string currentThreadName();
// Sets the calling thread's nice value (Linux keeps one per thread; the
// processes it starts inherit it): background work that must not take the
// cores from a stream. False where the platform refuses or cannot.
bool setCurrentThreadNice(int nice);
// The calling thread's nice value (0 where the platform cannot say).
int currentThreadNice();

}  // namespace liveconv
