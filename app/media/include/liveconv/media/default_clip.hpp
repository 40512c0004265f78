// The bundled clip that `liveconv run` and both windows play when no source is
// given. Looked for, in order: $LIVECONV_ASSETS/city_320x180.mp4; the
// installed copy, ../share/liveconv/ from the running executable's folder (so
// an installed liveconv finds it from any working directory); the source
// tree's assets/ (a build that was not installed).
#pragma once

#include <string>

namespace liveconv::media {

std::string defaultClipPath();

}  // namespace liveconv::media
