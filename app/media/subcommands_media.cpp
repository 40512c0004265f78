// The media build's subcommands: `run` (filter a source to an output through
// the pipeline) and `cameras`. Media errors are turned into exit codes here;
// engine errors go on to main().
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "cli.hpp"
#include "exit_codes.hpp"
#include "liveconv/device.hpp"
#include "liveconv/pipeline.hpp"
#include "media/default_clip.hpp"
#include "media/ffmpeg_sink.hpp"
#include "media/ffmpeg_source.hpp"
#include "media/media_errors.hpp"
#include "media/reconnecting_source.hpp"
#include "media/versions.hpp"
#include "stream.hpp"
#include "subcommands.hpp"

namespace liveconv::app {
namespace {

void printRunUsage() {
  std::cout
      << "usage: liveconv run [-i SOURCE] [-o OUTPUT] [--mask SPEC|@FILE.json] [--variant NAME] [--border MODE]\n"
         "                    [--device SEL] [--format rgba|gray] [--frames N] [--json-log FILE]\n"
         "                    [--codec NAME] [--policy live|lossless] [--slots 2..4] [--queue 2..4] [--quiet]\n"
         "                    [--convert gpu|cpu|auto] [--realtime] [--reconnect SECONDS] [--decode-only] [-y|-n] [-an] [-sn]\n"
         "  SOURCE  a file or URL; lavfi:testsrc2=size=320x240:rate=30; camera:0[:640x480][@30] or /dev/video0;\n"
         "          synthetic:WxH (frames generated in memory, no decoding); default: the bundled clip\n"
         "  OUTPUT  FILE.mkv/.nut/.avi (FFV1, lossless), FILE.mp4/.mov (H.264), FILE.raw/.rgba/.gray or raw:FILE\n"
         "          (frames back to back), null (nothing; for measuring); default null\n"
         "  --convert     where decoded frames become rgba/gray: gpu (yuv420p and nv12 go up as planes and the\n"
         "                device converts them; swscale for other formats), cpu (swscale always); auto = gpu\n"
         "  --crf N, --preset NAME, -b:v RATE, --codec-opt KEY=VALUE (repeatable), --pix-fmt NAME\n"
         "                encoder settings, as FFmpeg names them; H.264 defaults to preset veryfast, crf 18.\n"
         "                An encoder or option FFmpeg does not have is a bad command line (exit 2)\n"
         "  -an, -sn      leave the input's audio / subtitles out (by default they are copied into a\n"
         "                container output when it can hold their codec; the run says which)\n"
         "  -y, -n        overwrite an existing output / never overwrite it; without either, a terminal is\n"
         "                asked and a script is refused (exit 2). The output is never the input.\n"
         "  --realtime    play a file at its frame rate, as a live source (with --policy live, late frames are\n"
         "                dropped and counted as decode late)\n"
         "  --reconnect   how long a busy or unplugged camera (or a stopped stream) is waited for; default 10, 0 = "
         "not\n"
         "  --decode-only decode and convert as `run` would, then discard: no OpenCL, same threads and stats (-o "
         "null);\n"
         "                the reference the filter's speed is compared with\n"
         "  variant default: "
      << defaultVariantName() << "; variants: " << variantNames() << "\n";
}

// The output file is never the input, and an existing one is replaced only
// when the user says so: -y, or "y" at the terminal; -n (or no terminal to ask)
// keeps it and stops before anything is opened. Exit 2 either way.
void checkOutputPath(const std::string& output, const std::string& input, bool overwrite, bool keep) {
  namespace fs = std::filesystem;
  if (overwrite && keep) throw UsageError("-y (overwrite) and -n (never overwrite) contradict each other; give one.");
  std::string path = output.rfind("raw:", 0) == 0 ? output.substr(4) : output;
  if (path.rfind("file:", 0) == 0) path = path.substr(5);
  std::error_code ec;
  if (path.empty() || output == "null" || path.find("://") != std::string::npos || !fs::exists(path, ec)) return;
  std::string in = input.rfind("file:", 0) == 0 ? input.substr(5) : input;
  if (!in.empty() && fs::exists(in, ec) && fs::equivalent(in, path, ec))
    throw UsageError("The output " + output + " is the input " + input +
                     "; write the filtered video to another file.");
  if (!fs::is_regular_file(path, ec)) return;  // a device or a FIFO is written to, not replaced
  if (overwrite) return;
  if (keep) throw UsageError(output + " exists and -n keeps it; nothing was written.");
  if (isatty(STDIN_FILENO) && isatty(STDERR_FILENO)) {
    std::cerr << "File '" << output << "' exists. Overwrite? [y/N] " << std::flush;
    std::string answer;
    std::getline(std::cin, answer);
    if (answer == "y" || answer == "Y" || answer == "yes") return;
    throw UsageError("Not overwriting " + output + "; nothing was written.");
  }
  throw UsageError(output + " exists; pass -y to overwrite it, or -n to keep it.");
}

int runCommand(const std::vector<std::string>& argv) {
  const Args args(
      argv,
      {"--input", "--output", "--mask", "--variant", "--border", "--alpha", "--workgroup", "--device", "--format",
       "--frames", "--json-log", "--codec", "--policy", "--slots", "--queue", "--convert", "--reconnect", "--crf",
       "--preset", "-b:v", "--codec-opt", "--pix-fmt"},
      {"--help", "--quiet", "--realtime", "--decode-only", "-y", "-n", "-an", "-sn"},
      {{"-i", "--input"}, {"-o", "--output"}, {"-h", "--help"}});
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
  so.realtime = args.has("--realtime");
  if (args.has("--quiet")) so.progress = ProgressStyle::Quiet;
  const ConvertMode convert = parseConvertMode(args.get("--convert", "auto"));
  if (convert == ConvertMode::Invalid)
    throw UsageError("Unknown conversion '" + args.get("--convert") + "'; use gpu, cpu or auto.");
  const bool decodeOnly = args.has("--decode-only");
  if (decodeOnly && output != "null")
    throw UsageError("--decode-only filters nothing, so it writes nothing: use it with -o null.");
  checkOutputPath(output, input.empty() ? defaultClipPath() : input, args.has("-y"), args.has("-n"));
  ReconnectPolicy reconnect;
  reconnect.budgetS = args.getInt("--reconnect", 10, 0, 3600);
  std::string policy = args.get("--policy");
  if (!policy.empty() && policy != "live" && policy != "lossless")
    throw UsageError("Unknown policy '" + policy + "'; use live or lossless.");

  InterruptScope interruptScope;  // Ctrl-C also while waiting for a camera
  std::unique_ptr<Pipeline> pipeline;
  std::unique_ptr<PassThrough> passThrough;
  FrameChannel* channel = nullptr;
  try {
    std::unique_ptr<FrameSource> source;
    FfmpegSource* decoder = nullptr;
    int rateNum = 25, rateDen = 1;
    DeviceInfo info;
    std::shared_ptr<DeviceContext> device;
    if (!decodeOnly) {
      info = selectDevice(args.get("--device"));
      device = DeviceContext::create(info);
    }
    if (input.rfind("synthetic:", 0) == 0) {
      int w = 0, h = 0;
      parseFrameSize(input.substr(10), "synthetic size", &w, &h);
      source = std::make_unique<SyntheticSource>(w, h, format, so.maxFrames < 0 ? 300 : so.maxFrames, device);
      rateNum = 60;
    } else {
      const SourceSpec spec = parseSourceSpec(input, defaultClipPath());
      if (spec.live) {
        // Cameras and streams: a busy camera is waited for, a lost one reopened.
        auto open = [spec, format, convert] { return std::make_unique<FfmpegSource>(spec, format, convert); };
        auto report = [](const std::string& line) { std::cerr << "liveconv: " << line << std::endl; };
        auto rs = std::make_unique<ReconnectingSource>(open, reconnect, report, interruptRequested);
        decoder = dynamic_cast<FfmpegSource*>(&rs->current());
        decoder->frameRate(&rateNum, &rateDen);
        source = std::move(rs);
      } else {
        auto ff = std::make_unique<FfmpegSource>(spec, format, convert);
        ff->frameRate(&rateNum, &rateDen);
        decoder = ff.get();
        source = std::move(ff);
      }
    }
    SinkOptions timing;  // frames keep their source timestamps (variable rates, gaps, live drops)
    timing.rateNum = rateNum;
    timing.rateDen = rateDen;
    timing.sourceTimestamps = true;
    if (args.has("--crf")) timing.encoderOptions.emplace_back("crf", args.get("--crf"));
    if (args.has("--preset")) timing.encoderOptions.emplace_back("preset", args.get("--preset"));
    if (args.has("-b:v")) timing.encoderOptions.emplace_back("b", args.get("-b:v"));
    for (const std::string& kv : args.getAll("--codec-opt")) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        throw UsageError("--codec-opt takes KEY=VALUE (for example --codec-opt tune=film), not '" + kv + "'.");
      timing.encoderOptions.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    timing.pixelFormat = args.get("--pix-fmt");
    if (decoder) decoder->timeBase(&timing.timeBaseNum, &timing.timeBaseDen);
    std::unique_ptr<FrameSink> sink = openSink(output, args.get("--codec"), timing);
    // The input's audio and subtitles are copied into a container output (-an, -sn leave them out).
    if (auto* encoder = dynamic_cast<EncoderSink*>(sink.get()); encoder && decoder) {
      auto copy = std::make_shared<StreamCopy>();
      decoder->copyStreamsInto(copy, !args.has("-an"), !args.has("-sn"));
      encoder->carry(copy);
    }

    if (policy.empty()) policy = source->isLive() || so.realtime ? "live" : "lossless";
    PipelineOptions options;
    options.policy = policy == "live" ? QueuePolicy::Live : QueuePolicy::Lossless;
    options.format = format;
    options.deviceSlots = args.getInt("--slots", 2, 2, 4);
    options.queueCapacity = args.getInt("--queue", 3, 2, 4);
    options.deliverPixels = output != "null";
    options.prepareYuvConversion = decoder && convert != ConvertMode::Cpu;
    source->frameSize(&options.expectedWidth, &options.expectedHeight);  // `auto` races before the first frame
    std::cout << "run: " << source->describe() << " -> ";
    if (decodeOnly) {
      passThrough = std::make_unique<PassThrough>(options.policy, options.queueCapacity);
      channel = passThrough.get();
      std::cout << "decode only (no OpenCL)";
    } else {
      pipeline = std::make_unique<Pipeline>(device, params, options);
      channel = pipeline.get();
      std::cout << variantInfo(params.variant).name << " " << describe(params.mask) << ", border "
                << toString(params.border) << ", on " << info.name;
    }
    std::cout << " -> " << sink->describe() << " (" << policy << ", convert " << toString(convert) << ")\n";
    if (const std::string note = saturationNote(params.mask); !note.empty() && !decodeOnly)
      std::cerr << "liveconv: note: " << note << "\n";
    const StreamResult r = runStream(*source, *sink, *channel, so);
    // The source may have been reopened: ask the one in use.
    if (auto* rs = dynamic_cast<ReconnectingSource*>(source.get()))
      decoder = dynamic_cast<FfmpegSource*>(&rs->current());
    if (decoder && !decoder->conversionUsed().empty()) {
      if (decodeOnly && decoder->conversionUsed().rfind("on the device", 0) == 0)
        std::cout << "converted: not at all (decode only; `run` would convert " << decoder->conversionUsed() << ")\n";
      else
        std::cout << "converted " << decoder->conversionUsed() << "\n";
    }
    std::cout << summaryText(r.stats);
    if (r.stats.framesIn == 0 && !r.interrupted) {
      std::cerr << "liveconv: " << source->describe() << " gave no video frame to filter; nothing was written.\n";
      return kExitInputFailed;
    }
    if (r.stats.framesOut == 0 && output != "null")
      std::cerr << "liveconv: no filtered frame reached " << output << ", so it was not written.\n";
    if (r.interrupted) {
      const int signal = interruptSignal();
      std::cerr << "liveconv: interrupted by " << signalName(signal) << "; " << r.stats.framesOut
                << " frames were written and the output was finished properly.\n";
      return signal > 0 ? 128 + signal : kExitInterrupted;
    }
    return kExitOk;
  } catch (const Interrupted& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return interruptSignal() > 0 ? 128 + interruptSignal() : kExitInterrupted;
  } catch (const InputError& e) {
    if (channel) {  // the stream had started: the output was finished all the same
      const StatsSnapshot stats = channel->stats().snapshot();
      std::cout << summaryText(stats) << std::flush;
      std::cerr << "liveconv: " << e.what() << " " << stats.framesOut
                << " frames were written and the output was finished properly.\n";
    } else {
      std::cerr << "liveconv: " << e.what() << "\n";
    }
    return kExitInputFailed;
  } catch (const EncoderChoiceError& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return kExitUsage;
  } catch (const OutputError& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return kExitOutputFailed;
  }
}

int camerasCommand(const std::vector<std::string>& argv) {
  const Args args(argv, {}, {"--help"}, {{"-h", "--help"}});
  if (!args.positional().empty())
    throw UsageError("Unexpected argument '" + args.positional().front() + "'; cameras takes none.");
  if (args.has("--help")) {
    std::cout << "usage: liveconv cameras\n"
                 "  lists the video capture devices (V4L2) with their pixel formats, sizes and frame\n"
                 "  rates; open one with -i camera:N[:WxH][@FPS] or -i /dev/videoN.\n";
    return kExitOk;
  }
  if (!hasCameraSupport()) {
    std::cerr << "liveconv: This liveconv was built without camera support (LIVECONV_WITH_AVDEVICE=OFF).\n";
    return kExitInputFailed;
  }
  std::cout << describeCameras();
  return kExitOk;
}

}  // namespace

std::string mediaVersionText() { return ffmpegVersionText(); }

const std::vector<Subcommand>& extraSubcommands() {
  static const std::vector<Subcommand> commands = {
      {"run", "run [-i SOURCE] [-o OUTPUT] ...  filter a file, stream or camera (run --help)", runCommand},
      {"cameras", "cameras            list video capture devices and their formats", camerasCommand},
  };
  return commands;
}

}  // namespace liveconv::app
