// The exit codes of every liveconv program: the `liveconv` commands and both
// windows. Scripts may rely on them; docs/cli.md lists them.
#pragma once

#include <exception>

namespace liveconv::media {

enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,        // an unexpected runtime error
  kExitUsage = 2,          // bad command line or script: unknown option, bad value, invalid mask spec
  kExitNoDevice = 3,       // no OpenCL device, or none matches the selector
  kExitBuildFailed = 4,    // a kernel failed to compile (the build log is printed)
  kExitUnsupported = 5,    // the variant cannot run this mask / format on this device
  kExitVerifyFailed = 6,   // --verify or a window's check found a result that differs from the CPU reference
  kExitInputFailed = 7,    // the input cannot be opened or decoded
  kExitOutputFailed = 8,   // the output (a file, a screenshot, the stats) cannot be written or encoded
  kExitNoDisplay = 9,      // a window: no display, no GL 3.3 core context, nothing can be shown
  kExitUiMissing = 127,    // --ui NAME: that window program is not part of this build (or cannot be started)
  kExitInterrupted = 130,  // Ctrl-C (SIGINT); SIGTERM exits 143, SIGHUP 129 (interruptExitCode()); outputs finished
};

// The exit code of an error that ended a program: its class's number
// (NoDeviceError 3, BuildError 4, UnsupportedError 5, UsageError and
// InvalidArgument 2, InputError 7, OutputError 8, Interrupted 128 + N),
// else kExitFailure.
ExitCode exitCodeFor(const std::exception& e);

}  // namespace liveconv::media
