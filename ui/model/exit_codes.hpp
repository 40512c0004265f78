// The exit codes of the viewer window (liveconv-viewer). They are the numbers
// of the `liveconv` commands (app/exit_codes.hpp; the tests check that they
// stay equal), so a script reads both alike, plus kExitNoDisplay, which only a
// window has.
#pragma once

#include <exception>

#include "liveconv/errors.hpp"

namespace liveconv::ui {

enum WindowExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,       // an unexpected runtime error
  kExitUsage = 2,         // bad command line or script
  kExitNoDevice = 3,      // no OpenCL device, or none matches the selector
  kExitBuildFailed = 4,   // a kernel failed to compile
  kExitUnsupported = 5,   // the variant cannot run this mask / format on this device
  kExitInputFailed = 7,   // the first source cannot be opened
  kExitOutputFailed = 8,  // a screenshot or the stats file cannot be written
  kExitNoDisplay = 9,     // no window, no GL 3.3 core context: nothing can be shown
};

// What a window exits with when its first feed cannot be opened for `e`:
// the number `liveconv run` gives for the same error.
inline WindowExitCode exitCodeFor(const std::exception& e) {
  if (dynamic_cast<const NoDeviceError*>(&e)) return kExitNoDevice;
  if (dynamic_cast<const BuildError*>(&e)) return kExitBuildFailed;
  if (dynamic_cast<const UnsupportedError*>(&e)) return kExitUnsupported;
  return kExitInputFailed;
}

}  // namespace liveconv::ui
