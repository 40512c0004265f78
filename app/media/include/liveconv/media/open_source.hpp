// The openers of the source kinds (source_kinds.hpp): the one way `liveconv
// run` and the windows' decoded feed open a source spec. A live kind (a
// camera, a stream) is wrapped by openReconnecting (reconnecting_source.hpp)
// when a policy is given: busy at open or lost mid-stream, it is waited for
// and reopened.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "liveconv/device.hpp"
#include "liveconv/frame.hpp"
#include "liveconv/media/ffmpeg_source.hpp"
#include "liveconv/media/reconnecting_source.hpp"
#include "liveconv/media/source_kinds.hpp"

namespace liveconv::media {

struct OpenRequest {
  std::string text;  // as the user wrote it: "" = the bundled clip, "-" = standard input
  PixelFormat format = PixelFormat::RGBA8;
  ConvertMode convert = ConvertMode::Cpu;
  std::shared_ptr<DeviceContext> device;  // synthetic frames live in its pinned memory (may be null)
  std::function<bool()> stop;             // ends a wait on the input at once (SourceSpec::stop)
  double openTimeoutSeconds = 0;          // an input that sends nothing to open for this long fails (0: waits)
  std::string hwaccel = "none";           // --hwaccel (SourceSpec::hwaccel)
  // Planes mode (FfmpegSource::setPlanes), on every open of a live source
  // too; a decoder whose format keeps no planes is an InputError. Generated
  // kinds have no planes: the caller refuses them first.
  bool planes = false;
};

struct OpenedSource {
  std::unique_ptr<FrameSource> source;
  const SourceKind* kind = nullptr;
  FfmpegSource* decoder = nullptr;  // the FFmpeg source behind it, if any (the first one, for a live kind)
  int rateNum = 25, rateDen = 1;    // frames per second, nominal
};

// Opens `request.text` by its kind (the generated ones: generated_sources.hpp).
// Throws InputError (SourceUnavailable for a busy camera without `reconnect`),
// InvalidArgument for a spec that is malformed,
// Interrupted when `stop` ends a wait for a live source.
OpenedSource openSource(const OpenRequest& request, const ReconnectPolicy* reconnect = nullptr,
                        ReconnectingSource::Reporter report = {});

}  // namespace liveconv::media
