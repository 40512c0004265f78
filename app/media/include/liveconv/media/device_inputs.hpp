// FFmpeg's device inputs (the lavfi and v4l2 sources), loaded from libavdevice
// the first time a source needs them rather than linked into every program.
//
// libavdevice brings about 80 libraries of its own (libavfilter, SDL,
// PulseAudio, JACK, libcaca, ...): linked, the dynamic loader maps and
// relocates them at every start, and PoCL's LLVM is then relocated against a
// third more libraries (0.08 s of CPU per start of liveconv on the 2-core
// machine, a fifth of a short run), for files and streams that never use them.
#pragma once

#include <string>

namespace liveconv::media {

// Loads libavdevice and registers its inputs, once, from any thread (later
// calls return the first answer). Empty when they can be used, else the
// sentence saying why not (the build left them out, or the library is not
// installed: its name and the loader's reason).
const std::string& deviceInputsFailure();

// libavdevice's version (AV_VERSION_INT), once loaded; 0 when it is not.
unsigned deviceInputsVersion();

}  // namespace liveconv::media
