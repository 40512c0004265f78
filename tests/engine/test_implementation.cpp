// The suites a test binary runs for a second OpenCL implementation. ctest
// gives such a suite one variable, LIVECONV_TEST_IMPLEMENTATION (ctest's
// ENVIRONMENT property takes one list, which gtest_discover_tests cannot pass
// through with more than one entry); before main, and so before the ICD
// loader reads anything, it becomes what that implementation needs:
//   rusticl  RUSTICL_ENABLE=llvmpipe (rusticl shows no device without it),
//            LIVECONV_DEVICE=rusticl, and an `auto` cache of its own beside
//            the test binary.
// RUSTICL_ENABLE and LIVECONV_DEVICE already set are kept; the cache is
// always the suite's own. See missingTestDevice() for SKIP and failure.
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace {

std::string executableFolder() {
  char path[4096];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return ".";
  const std::string exe(path, static_cast<std::size_t>(n));
  return exe.substr(0, exe.rfind('/'));
}

const bool kImplementationSet = [] {
  const char* name = std::getenv("LIVECONV_TEST_IMPLEMENTATION");
  if (!name || std::string(name) != "rusticl") return false;
  ::setenv("RUSTICL_ENABLE", "llvmpipe", 0);
  ::setenv("LIVECONV_DEVICE", "rusticl", 0);
  ::setenv("LIVECONV_TUNING_CACHE", (executableFolder() + "/autotune-rusticl.tsv").c_str(), 1);
  return true;
}();

}  // namespace
