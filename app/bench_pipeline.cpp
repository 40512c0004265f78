// `liveconv bench --pipeline`: the stream path without FFmpeg. In-memory
// frames (pinned) go through upload, kernel and readback in the
// double-buffered pipeline; reports fps and per-stage medians. Builds in the
// engine-only configuration, for GPU machines that have no FFmpeg.
// --keep-on-device leaves the filtered frames on the device and reads nothing
// back: the engine's side of the viewer's zero-copy display path.
// --copy-frames stages frames through copies even on a device that shares host
// memory (where frames of 2 MiB and more are otherwise mapped), --map-frames
// maps frames of any size there: the two measure where the maps pay.
#include <iostream>
#include <memory>
#include <string>

#include "bench.hpp"
#include "cli.hpp"
#include "liveconv/autotune.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/media/exit_codes.hpp"
#include "liveconv/media/stop_signals.hpp"
#include "liveconv/pipeline.hpp"
#include "stream.hpp"

namespace liveconv::app {

int runPipelineBench(const std::vector<std::string>& argv) {
  const Args args(argv,
                  {"--device", "--size", "--frames", "--mask", "--variant", "--border", "--alpha", "--workgroup",
                   "--format", "--slots", "--json-log", "--kernel-file"},
                  {"--pipeline", "--no-pinned", "--keep-on-device", "--copy-frames", "--map-frames", "--help"});
  if (args.has("--help")) {
    std::cout << "usage: liveconv bench --pipeline [--size 3840x2160] [--frames N] [--mask SPEC] [--variant NAME]\n"
                 "       [--kernel-file FILE.cl] [--format rgba|gray] [--slots 2..4] [--no-pinned] [--keep-on-device]\n"
                 "       [--copy-frames | --map-frames]\n"
                 "       [--device SEL] [--json-log FILE]\n"
                 "  --keep-on-device  no readback: frames stay on the device, as on the viewer's zero-copy path\n"
                 "  --copy-frames     upload and read back through copies even where the device shares host\n"
                 "                    memory (a CPU device), where frames of 2 MiB and more are otherwise\n"
                 "                    mapped into its buffers\n"
                 "  --map-frames      map frames of any size into the buffers of such a device\n";
    return media::kExitOk;
  }
  const ParamValues values = paramValuesFromArgs(args);
  const DeviceInfo info = selectDevice(values.device);
  auto device = DeviceContext::create(info);
  const bool gpu = info.kind == DeviceKind::GPU;
  int width = 0, height = 0;
  parseFrameSize(args.get("--size", gpu ? "3840x2160" : "1280x720"), "size", &width, &height);
  const PixelFormat format = values.format;
  const FilterParams& params = values.filter;
  PipelineOptions options;
  options.policy = QueuePolicy::Lossless;
  options.format = format;
  options.deviceSlots = args.getInt("--slots", 3, 2, 4);
  options.deliverPixels = false;
  options.keepOnDevice = args.has("--keep-on-device");
  options.mapHostMemory = !args.has("--copy-frames");
  if (args.has("--map-frames")) options.mapMinFrameBytes = 0;
  const long long frames = args.getInt("--frames", gpu ? 2000 : 60, 1, 1000000);
  SyntheticSource source(width, height, format, frames, args.has("--no-pinned") ? nullptr : device);
  NullSink sink;
  source.frameSize(&options.expectedWidth, &options.expectedHeight);  // `auto` races before the timed stream
  // A signal during auto's race or the kernel build ends the bench as one in the stream does.
  media::InterruptScope interruptScope;
  RaceStopsOnSignal raceStops;
  const auto interrupted = [](const char* during) {
    return media::reportInterruption("liveconv", std::string(" ") + during);
  };
  std::unique_ptr<Pipeline> built;
  try {
    built = std::make_unique<Pipeline>(device, params, options);
  } catch (const Cancelled&) {
    return interrupted("while auto was measuring; nothing was streamed");
  } catch (const BuildError&) {
    if (!media::interruptRequested()) throw;
    return interrupted("while a kernel was being built; nothing was streamed");
  }
  Pipeline& pipeline = *built;
  std::cout << "pipeline: " << source.describe() << " -> " << variantInfo(params.variant).name << " "
            << describe(params.mask) << " on " << info.name << " -> " << sink.describe() << ", " << options.deviceSlots
            << " device slots" << (options.keepOnDevice ? ", kept on the device (no readback)" : "") << std::endl;  // seen before the stream ends
  StreamOptions so;
  so.jsonLogPath = args.get("--json-log");
  const StreamResult r = runStream(source, sink, pipeline, so);
  std::cout << summaryText(r.stats);
  std::cout << (pipeline.mapsHostMemory() ? "frames were mapped into the device's buffers (it shares host memory)\n"
                : options.keepOnDevice    ? "frames were copied to the device and kept there (no readback)\n"
                                          : "frames were copied to and from the device\n");
  if (r.interrupted) return interrupted(("after " + std::to_string(r.stats.framesOut) + " frames").c_str());
  return media::kExitOk;
}

}  // namespace liveconv::app
