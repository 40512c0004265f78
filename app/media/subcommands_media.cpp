// The media build's subcommands: `run` (filter a source to an output through
// the pipeline) and `cameras`. Media errors are turned into exit codes here;
// engine errors go on to main().
#include <iostream>

#include "cli.hpp"
#include "exit_codes.hpp"
#include "liveconv/device.hpp"
#include "liveconv/pipeline.hpp"
#include "media/ffmpeg_sink.hpp"
#include "media/ffmpeg_source.hpp"
#include "media/media_errors.hpp"
#include "stream.hpp"
#include "subcommands.hpp"

#ifndef LIVECONV_DEFAULT_CLIP
#define LIVECONV_DEFAULT_CLIP "assets/city_320x180.mp4"
#endif

namespace liveconv::app {
namespace {

void printRunUsage() {
  std::cout
      << "usage: liveconv run [-i SOURCE] [-o OUTPUT] [--mask SPEC|@FILE.json] [--variant NAME] [--border MODE]\n"
         "                    [--device SEL] [--format rgba|gray] [--frames N] [--json-log FILE]\n"
         "                    [--codec NAME] [--policy live|lossless] [--slots 2..4] [--queue 2..4] [--quiet]\n"
         "  SOURCE  a file or URL; lavfi:testsrc2=size=320x240:rate=30; camera:0[:640x480][@30] or /dev/video0;\n"
         "          synthetic:WxH (frames generated in memory, no decoding); default: the bundled clip\n"
         "  OUTPUT  FILE.mkv/.nut/.avi (FFV1, lossless), FILE.mp4/.mov (H.264), FILE.raw/.rgba/.gray or raw:FILE\n"
         "          (frames back to back), null (nothing; for measuring); default null\n"
         "  variant default: "
      << defaultVariantName() << "; variants: " << variantNames() << "\n";
}

std::string defaultClip() {
  // Installed next to the sources; LIVECONV_ASSETS overrides (an installed copy, tests).
  if (const char* dir = std::getenv("LIVECONV_ASSETS"); dir && *dir) return std::string(dir) + "/city_320x180.mp4";
  return LIVECONV_DEFAULT_CLIP;
}

int runCommand(const std::vector<std::string>& argv) {
  const Args args(argv,
                  {"--input", "--output", "--mask", "--variant", "--border", "--alpha", "--workgroup", "--device",
                   "--format", "--frames", "--json-log", "--codec", "--policy", "--slots", "--queue"},
                  {"--help", "--quiet"}, {{"-i", "--input"}, {"-o", "--output"}});
  if (args.has("--help")) {
    printRunUsage();
    return kExitOk;
  }
  // Everything the command line can get wrong is checked before a device or file is touched.
  const FilterParams params = filterParamsFromArgs(args);
  const PixelFormat format = parsePixelFormat(args.get("--format", "rgba"));
  if (format == PixelFormat::Invalid)
    throw UsageError("Unknown format '" + args.get("--format") + "'; use rgba or gray.");
  const std::string input = args.get("--input");
  const std::string output = args.get("--output", "null");
  StreamOptions so;
  so.maxFrames = args.has("--frames") ? args.getInt("--frames", 0, 1, 1 << 30) : -1;
  so.jsonLogPath = args.get("--json-log");
  if (args.has("--quiet")) so.progress = ProgressStyle::Quiet;

  try {
    std::unique_ptr<FrameSource> source;
    int rateNum = 25, rateDen = 1;
    const DeviceInfo info = selectDevice(args.get("--device"));
    auto device = DeviceContext::create(info);
    if (input.rfind("synthetic:", 0) == 0) {
      int w = 0, h = 0;
      parseFrameSize(input.substr(10), "synthetic size", &w, &h);
      source = std::make_unique<SyntheticSource>(w, h, format, so.maxFrames < 0 ? 300 : so.maxFrames, device);
      rateNum = 60;
    } else {
      auto ff = std::make_unique<FfmpegSource>(parseSourceSpec(input, defaultClip()), format);
      ff->frameRate(&rateNum, &rateDen);
      source = std::move(ff);
    }
    std::unique_ptr<FrameSink> sink = openSink(output, args.get("--codec"), rateNum, rateDen);

    PipelineOptions options;
    const std::string policy = args.get("--policy", source->isLive() ? "live" : "lossless");
    if (policy == "live")
      options.policy = QueuePolicy::Live;
    else if (policy == "lossless")
      options.policy = QueuePolicy::Lossless;
    else
      throw UsageError("Unknown policy '" + policy + "'; use live or lossless.");
    options.format = format;
    options.deviceSlots = args.getInt("--slots", 2, 2, 4);
    options.queueCapacity = args.getInt("--queue", 3, 2, 4);
    options.deliverPixels = output != "null";
    Pipeline pipeline(device, params, options);
    std::cout << "run: " << source->describe() << " -> " << variantInfo(params.variant).name << " "
              << describe(params.mask) << ", border " << toString(params.border) << ", on " << info.name << " -> "
              << sink->describe() << " (" << policy << ")\n";
    const StreamResult r = runStream(*source, *sink, pipeline, so);
    std::cout << summaryText(r.stats);
    if (r.interrupted) {
      std::cerr << "liveconv: interrupted; " << r.stats.framesOut
                << " frames were written and the output was finished properly.\n";
      return kExitInterrupted;
    }
    return kExitOk;
  } catch (const InputError& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return kExitInputFailed;
  } catch (const OutputError& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return kExitOutputFailed;
  }
}

int camerasCommand(const std::vector<std::string>& argv) {
  const Args args(argv, {}, {});
  std::cout << describeCameras();
  return kExitOk;
}

}  // namespace

const std::vector<Subcommand>& extraSubcommands() {
  static const std::vector<Subcommand> commands = {
      {"run", "run [-i SOURCE] [-o OUTPUT] ...  filter a file, stream or camera (run --help)", runCommand},
      {"cameras", "cameras            list video capture devices and their formats", camerasCommand},
  };
  return commands;
}

}  // namespace liveconv::app
