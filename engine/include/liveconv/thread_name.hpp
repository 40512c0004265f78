// Thread names: every thread the project starts is named (lc-engine,
// lc-build, lc-decode, ...), as top -H, gdb and perf show them.
#pragma once

#include <string>

namespace liveconv {

// Names the calling thread; at most 15 characters are kept.
void setThreadName(const char* name);
// The calling thread's name ("" where the platform cannot say).
std::string currentThreadName();

}  // namespace liveconv
