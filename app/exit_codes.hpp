// The exit codes of every liveconv command. Scripts may rely on them.
#pragma once

namespace liveconv::app {

enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,        // an unexpected runtime error
  kExitUsage = 2,          // bad command line: unknown option, bad value, invalid mask spec
  kExitNoDevice = 3,       // no OpenCL device, or none matches the selector
  kExitBuildFailed = 4,    // a kernel failed to compile (the build log is printed)
  kExitUnsupported = 5,    // the variant cannot run this mask / format on this device
  kExitVerifyFailed = 6,   // --verify found a result that differs from the CPU reference
  kExitInputFailed = 7,    // the input cannot be opened or decoded
  kExitOutputFailed = 8,   // the output cannot be written or encoded
  kExitUiMissing = 127,    // --ui NAME: that window program is not part of this build (or cannot be started)
  kExitInterrupted = 130,  // Ctrl-C (SIGINT); SIGTERM exits 143, SIGHUP 129; outputs were finished properly
};

}  // namespace liveconv::app
