#include "liveconv/media/exit_codes.hpp"

#include "liveconv/errors.hpp"
#include "liveconv/media/media_errors.hpp"
#include "liveconv/media/stop_signals.hpp"

namespace liveconv::media {

ExitCode exitCodeFor(const std::exception& e) {
  if (dynamic_cast<const NoDeviceError*>(&e)) return kExitNoDevice;
  if (dynamic_cast<const BuildError*>(&e)) return kExitBuildFailed;
  if (dynamic_cast<const UnsupportedError*>(&e)) return kExitUnsupported;
  if (dynamic_cast<const InvalidArgument*>(&e)) return kExitUsage;
  if (dynamic_cast<const EncoderChoiceError*>(&e)) return kExitUsage;
  if (dynamic_cast<const InputError*>(&e)) return kExitInputFailed;
  if (dynamic_cast<const OutputError*>(&e)) return kExitOutputFailed;
  if (dynamic_cast<const Interrupted*>(&e)) return static_cast<ExitCode>(interruptExitCode());
  return kExitFailure;
}

}  // namespace liveconv::media
