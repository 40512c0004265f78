// `liveconv run`: filter a source into an output through the pipeline, as
// ffmpeg's command line would: every message on stderr (stdout may be the
// output), nothing the user keeps lost or overwritten unasked, one sentence and
// a defined exit code for everything that goes wrong.
#include "run_command.hpp"

extern "C" {
#include <libavutil/pixdesc.h>
}

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include "cli.hpp"
#include "liveconv/autotune.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/media/default_clip.hpp"
#include "liveconv/media/exit_codes.hpp"
#include "liveconv/media/ffmpeg_sink.hpp"
#include "liveconv/media/ffmpeg_source.hpp"
#include "liveconv/media/hw_decode.hpp"
#include "liveconv/media/media_errors.hpp"
#include "liveconv/media/open_source.hpp"
#include "liveconv/media/planes.hpp"
#include "liveconv/media/reconnecting_source.hpp"
#include "liveconv/pipeline.hpp"
#include "liveconv/planes_channel.hpp"
#include "stream.hpp"

namespace liveconv::app {
namespace {

// What a run that ended early kept, for its last sentence.
std::string framesWritten(long long frames) {
  return std::to_string(frames) + " frames were written and the output was finished properly";
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Everything `run` was asked, checked before a device or a file is touched.
struct RunRequest {
  FilterParams params;
  PixelFormat format = PixelFormat::RGBA8;  // 8-bit until the source is open and --depth decides
  int depth = 0;                            // --depth: 0 (auto: the source's), 8 or 16
  std::string input;   // as the user wrote it ("" = the bundled clip, "-" = standard input)
  std::string output;  // "-" = standard output
  StreamOptions stream;
  media::ConvertMode convert = media::ConvertMode::Auto;
  bool decodeOnly = false, quiet = false, copyAudio = true, copySubtitles = true;
  media::ReconnectPolicy reconnect;
  int openTimeoutS = 0;          // --open-timeout, its row's default unless given
  std::string hwaccel = "none";  // --hwaccel
  std::string policy;  // "", "live" or "lossless"
  media::SinkOptions sink;  // encoder settings; the timing is filled in once the source is open
  std::string codec, device;
  int slots = 2, queue = 3;
  // Planes mode (--planes, --plane-mask): plane i's mask, or none (handed on
  // as it is); empty in RGBA mode.
  std::vector<std::optional<Mask>> planeMasks;
  std::vector<bool> planesNamed;  // the planes named by number (--planes LIST, --plane-mask): the source must have them
  // A single picture named without --frames: the input decides (a still
  // image gives its one frame; anything longer is refused, nothing written).
  bool pictureIfStill = false;
};

// --depth: the engine's sample depth, 0 for auto (the source's: 16 bits for
// a source of more than 8).
int depthOf(const Args& args) {
  const std::string given = args.get("--depth", "auto");
  if (given == "auto") return 0;
  if (given == "8" || given == "16") return std::stoi(given);
  throw UsageError("Unknown depth '" + given + "'; use auto (the source's), 8 or 16.");
}

// A raw output's extension names its pixel format and depth; --format and
// --depth may only agree with it. The format is the 8-bit one of its kind
// (the depth is applied once the source is open).
PixelFormat outputFormat(const Args& args, const std::string& output, int* depth) {
  const std::string given = args.get("--format");
  PixelFormat format = paramValuesFromArgs(args).format;
  for (const auto& [ext, implied] : {std::pair<const char*, PixelFormat>{".gray", PixelFormat::GRAY8},
                                     {".rgba", PixelFormat::RGBA8},
                                     {".gray16", PixelFormat::GRAY16},
                                     {".rgba16", PixelFormat::RGBA16}}) {
    if (!endsWith(output, ext)) continue;
    const std::string name = ext + 1;
    if (!given.empty() && format != withSampleBits(implied, 8))
      throw UsageError(output + " holds " + name + " frames, but --format is " + given +
                       "; drop --format or give the file a ." + given + " name.");
    if (*depth != 0 && *depth != sampleBits(implied))
      throw UsageError(output + " holds " + name + " frames, but --depth is " + std::to_string(*depth) +
                       "; drop --depth or name the file ." + toString(withSampleBits(implied, *depth)) + ".");
    format = withSampleBits(implied, 8);
    *depth = sampleBits(implied);
  }
  return format;
}

// --planes LIST (all, or plane numbers as 0,1,2) and --plane-mask N=MASK:
// planes mode, each listed plane filtered with --mask and each --plane-mask
// plane with its own; the other planes are handed on as they are.
// What planes mode cannot take with it: one sentence (exit 2).
void refuseWithPlanes(const Args& args, const RunRequest& r) {
  const char* why = args.has("--depth") && args.get("--depth") != "auto"
                        ? "--depth (the planes keep the source's depth)"
                    : args.has("--format")  ? "--format (the planes are the source's, not RGBA or gray frames)"
                    : args.has("--alpha")   ? "--alpha (an alpha plane is a plane: name it, 3, or leave it out)"
                    : args.has("--convert") ? "--convert (planes mode converts no colour)"
                                            : nullptr;
  if (why) throw UsageError(std::string("--planes filters the source's own planes; leave out ") + why + ".");
  if (media::sourceKindOf(r.input).generated)
    throw UsageError("--planes filters the planes FFmpeg decodes, and " + r.input +
                     " makes RGBA frames; give a file, stream or camera.");
}

// --planes LIST (all, or plane numbers as 0,1,2) and --plane-mask N=MASK:
// planes mode, each listed plane filtered with --mask and each --plane-mask
// plane with its own (with `all`: the planes it names, the others --mask);
// the other planes are handed on as they are. A plane named twice, or a
// --mask no plane takes, is refused.
void readPlanes(const Args& args, const ParamValues& values, RunRequest& r) {
  if (!args.has("--planes") && !args.has("--plane-mask")) return;
  constexpr int kPlanes = 4;
  r.planeMasks.assign(kPlanes, std::nullopt);
  std::vector<bool>& named = r.planesNamed;
  named.assign(kPlanes, false);
  auto planeNumber = [&named](const std::string& text, const char* option) {
    if (text.size() != 1 || text[0] < '0' || text[0] >= '0' + kPlanes)
      throw UsageError(std::string(option) + " takes plane numbers 0 to 3 (0: Y, or G of RGB; 1, 2: U, V, or B, R; " +
                       "3: alpha), not '" + text + "'.");
    const int n = text[0] - '0';
    if (named[n]) throw UsageError("Plane " + text + " is named twice (--planes, --plane-mask); name it once.");
    named[n] = true;
    return n;
  };
  const std::string list = args.get("--planes", args.has("--plane-mask") ? "" : "all");
  if (list == "all") {
    r.planeMasks.assign(kPlanes, r.params.mask);  // with --plane-mask: the others
  } else if (args.has("--planes")) {
    // Every item between commas, the empty ones too ("", "0,"): each is refused.
    for (std::size_t at = 0, comma = 0; comma != std::string::npos; at = comma + 1) {
      comma = list.find(',', at);
      r.planeMasks[planeNumber(list.substr(at, comma == std::string::npos ? comma : comma - at), "--planes")] =
          r.params.mask;
    }
  } else if (args.has("--mask")) {
    throw UsageError(
        "--mask filters no plane here: --plane-mask gives each plane its own; add --planes LIST for "
        "the planes --mask should filter.");
  }
  for (const std::string& kv : args.getAll("--plane-mask")) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos)
      throw UsageError("--plane-mask takes PLANE=MASK (for example --plane-mask 0=gaussian:7), not '" + kv + "'.");
    const int n = planeNumber(kv.substr(0, eq), "--plane-mask");
    ParamValues own = values;
    setParam(own, ParamId::Mask, kv.substr(eq + 1));
    r.planeMasks[n] = own.filter.mask;
  }
  refuseWithPlanes(args, r);
}

// Planes mode, once the source is open: a plane asked for that the source
// does not have is a bad command line, said before an output is opened.
void checkPlanesOfSource(const RunRequest& r, const media::OpenedSource& in) {
  const auto format = static_cast<AVPixelFormat>(in.decoder->planesFormat());
  const std::size_t planes = media::planesOf(format, 1, 1).size();
  for (std::size_t i = planes; i < r.planeMasks.size(); ++i)
    if (r.planesNamed[i])
      throw UsageError(in.source->describe() + " has no plane " + std::to_string(i) + ": its " +
                       av_get_pix_fmt_name(format) + " has " + std::to_string(planes) + " (" +
                       media::planeNames(format) + ").");
}

void readEncoderSettings(const Args& args, media::SinkOptions& sink) {
  if (args.has("--crf")) sink.encoderOptions.emplace_back("crf", args.get("--crf"));
  if (args.has("--preset")) sink.encoderOptions.emplace_back("preset", args.get("--preset"));
  if (args.has("-b:v")) sink.encoderOptions.emplace_back("b", args.get("-b:v"));
  for (const std::string& kv : args.getAll("--codec-opt")) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--codec-opt takes KEY=VALUE (for example --codec-opt tune=film), not '" + kv + "'.");
    sink.encoderOptions.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  sink.pixelFormat = args.get("--pix-fmt");
  sink.container = args.get("--container");
}

std::string inputOf(const Args& args) {
  const auto& rest = args.positional();
  if (rest.size() > 1 || (rest.size() == 1 && args.has("--input")))
    throw UsageError("Unexpected argument '" + rest.back() + "'; run takes one input, as -i SOURCE or just SOURCE.");
  return rest.empty() ? args.get("--input") : rest.front();
}

RunRequest parseRunRequest(const Args& args) {
  RunRequest r;
  const ParamValues values = paramValuesFromArgs(args);
  r.params = values.filter;
  r.input = inputOf(args);
  r.output = args.get("--output", "null");
  r.depth = depthOf(args);
  r.format = outputFormat(args, r.output, &r.depth);
  readPlanes(args, values, r);
  if (!r.planeMasks.empty() && media::isRawOutput(r.output, args.get("--codec")))
    throw UsageError(
        "--planes writes the planes back into a video or picture file (.mkv, .mp4, .webm, .png ...), "
        "and " +
        r.output + " would hold rgba or gray frames.");
  r.stream.maxFrames = args.has("--frames") ? args.getInt("--frames", 0, 1, 1 << 30) : -1;
  r.stream.jsonLogPath = args.get("--json-log");
  r.stream.realtime = args.has("--realtime");
  r.quiet = args.has("--quiet");
  r.sink.quiet = r.quiet;
  if (r.quiet) r.stream.progress = ProgressStyle::Quiet;
  r.convert = media::parseConvertMode(args.get("--convert", "auto"));
  if (r.convert == media::ConvertMode::Invalid)
    throw UsageError("Unknown conversion '" + args.get("--convert") + "'; use gpu, cpu or auto.");
  r.decodeOnly = args.has("--decode-only");
  if (r.decodeOnly && r.output != "null")
    throw UsageError("--decode-only filters nothing, so it writes nothing: use it with -o null.");
  r.reconnect.budgetS = args.getInt("--reconnect", 10, 0, 3600);
  r.openTimeoutS = values.openTimeoutSeconds;
  r.hwaccel = args.get("--hwaccel", "none");
  if (const std::string why = media::checkHwAccel(r.hwaccel); !why.empty()) throw UsageError(why);
  r.policy = args.get("--policy");
  if (!r.policy.empty() && r.policy != "live" && r.policy != "lossless")
    throw UsageError("Unknown policy '" + r.policy + "'; use live or lossless.");
  r.copyAudio = !args.has("-an");
  r.copySubtitles = !args.has("-sn");
  r.sink.autorotate = !args.has("--no-autorotate");
  readEncoderSettings(args, r.sink);
  r.codec = args.get("--codec");
  r.device = args.get("--device");
  r.slots = args.getInt("--slots", 2, 2, 4);
  r.queue = args.getInt("--queue", 3, 2, 4);
  r.sink.maxFrames = r.stream.maxFrames;
  r.pictureIfStill = r.stream.maxFrames < 0 && media::isSinglePicture(r.output, r.sink);
  try {
    media::SinkOptions checked = r.sink;
    if (r.pictureIfStill) checked.maxFrames = 1;  // until the input says whether it is a still
    media::checkOutput(r.output, r.codec, checked);  // a name FFmpeg cannot write video to, before anything is opened
  } catch (const media::EncoderChoiceError& e) {
    throw UsageError(e.what());
  }
  checkOutputPath(r.output, r.input.empty() ? media::defaultClipPath() : r.input, args.has("-y"), args.has("-n"));
  // The JSON log is written as the run goes, so an existing one is replaced only when asked, as an output is.
  if (!r.stream.jsonLogPath.empty())
    checkOutputPath(r.stream.jsonLogPath, r.input.empty() ? media::defaultClipPath() : r.input, args.has("-y"),
                    args.has("-n"));
  return r;
}

// The source by its kind (liveconv/media/open_source.hpp); a live one waited for and
// reopened within --reconnect, each wait said in a line.
media::OpenedSource openRunSource(const RunRequest& r, const std::shared_ptr<DeviceContext>& device) {
  media::OpenRequest request;
  request.text = r.input;
  request.format = r.format;
  request.convert = r.convert;
  request.device = device;
  request.stop = media::interruptRequested;  // Ctrl-C ends a wait on a stream that sends nothing
  request.openTimeoutSeconds = r.openTimeoutS;
  request.hwaccel = r.hwaccel;
  request.planes = !r.planeMasks.empty();
  auto report = [](const std::string& line) { std::cerr << "liveconv: " << line << std::endl; };
  return openSource(request, &r.reconnect, report);
}

// The engine's depth, from --depth and the open source: a source of more
// than 8 bits (HEVC Main10, 16-bit PNG) runs at 16 unless --depth 8 says.
void chooseDepth(RunRequest& r, const media::OpenedSource& in) {
  const int sourceBits = in.decoder ? in.decoder->sampleBits() : 8;
  const int depth = r.depth ? r.depth : sourceBits > 8 ? 16 : 8;
  if (depth == 8) return;
  const PixelFormat wide = withSampleBits(r.format, 16);
  if (!in.source->setFormat(wide))
    throw UsageError(in.source->describe() + " gives 8-bit frames; --depth 16 (or a ." + toString(wide) +
                     " output) needs a source FFmpeg decodes.");
  r.format = wide;
}

// Frames keep their source timestamps; the input's audio and subtitles and its
// tags are carried into a container output (-an, -sn leave streams out).
std::unique_ptr<FrameSink> openRunSink(RunRequest& r, const media::OpenedSource& in) {
  r.sink.rateNum = in.rateNum;
  r.sink.rateDen = in.rateDen;
  r.sink.sourceTimestamps = true;
  if (in.decoder) in.decoder->timeBase(&r.sink.timeBaseNum, &r.sink.timeBaseDen);
  if (in.decoder) r.sink.orientation = media::orientationOf(in.decoder->displayMatrix());
  std::unique_ptr<FrameSink> sink = media::openSink(r.output, r.codec, r.sink);
  if (auto* encoder = dynamic_cast<media::EncoderSink*>(sink.get()); encoder && in.decoder) {
    auto copy = std::make_shared<media::StreamCopy>();
    in.decoder->copyStreamsInto(copy, r.copyAudio, r.copySubtitles);
    encoder->carry(copy);
  }
  return sink;
}

// An input a player shows turned is filtered as shown: the mask turns the
// other way with the stored picture (the output turns it back, as metadata or
// pixels: liveconv/media/orientation.hpp). Said in one line.
void orientMask(RunRequest& r) {
  const media::Orientation& o = r.sink.orientation;
  if (o.upright() || r.decodeOnly) return;
  if (!r.sink.autorotate) {
    if (!r.quiet)
      std::cerr << "liveconv: the input is shown " << o.describe() << "; --no-autorotate filters it as stored.\n";
    return;
  }
  if (!o.turnable) {
    if (!r.quiet)
      std::cerr << "liveconv: the input is shown " << o.describe() << ", which liveconv cannot turn the mask by; "
                << "it is filtered as stored.\n";
    return;
  }
  const Mask before = r.params.mask;
  r.params.mask = turnedClockwise(before, 4 - o.quarterTurns);
  for (std::optional<Mask>& m : r.planeMasks)
    if (m) m = turnedClockwise(*m, 4 - o.quarterTurns);
  if (!r.quiet)
    std::cerr << "liveconv: the input is shown " << o.describe() << " (its display matrix); the mask turns with it, "
              << "so the picture is filtered as it is shown"
              << (r.params.mask == before ? "" : " (--no-autorotate filters it as stored)") << ".\n";
}

std::string kernelText(const ActiveKernel& k) {
  std::ostringstream out;
  out << variantInfo(k.variant).name << " (workgroup " << k.workgroup.x << "x" << k.workgroup.y;
  if (k.packet > 0) out << ", packet " << k.packet;
  out << ")";
  return out.str();
}

// How the user's kernel (--kernel-file) fared in auto's race, in a line:
// its time beside the winner's, or why it was left out. "" without one.
std::string userKernelRaceNote() {
  const UserKernel own = userKernel();
  const std::shared_ptr<const RaceReport> report = AutoTuner::shared()->lastReport();
  if (own.path.empty() || !report) return "";
  for (const RaceEntry& e : report->entries) {
    if (e.params.variant != VariantId::User) continue;
    std::ostringstream note;
    note << "liveconv: auto: your kernel " << own.path;
    if (e.outcome != "ok") {
      const std::string unavailable = "unavailable: ";  // the race's word before an engine's sentence
      const bool sentence = e.outcome.rfind(unavailable, 0) == 0;
      return note.str() + " was left out: " + (sentence ? e.outcome.substr(unavailable.size()) : e.outcome) + "\n";
    }
    note << std::fixed << std::setprecision(3);
    const bool won = report->chosen >= 0 && &report->entries[static_cast<std::size_t>(report->chosen)] == &e;
    note << (won ? " is the fastest: " : " took ") << e.kernelMs << " ms a frame";
    if (!won && report->chosen >= 0) {
      const RaceEntry& best = report->entries[static_cast<std::size_t>(report->chosen)];
      note << ", " << variantInfo(best.params.variant).name << " " << best.kernelMs << " ms (chosen)";
    }
    return note.str() + "\n";
  }
  return "";
}

// Planes mode: a pipeline per filtered plane (PlanesChannel); says which
// mask filters which plane, and what each plane's `auto` chose.
std::unique_ptr<FrameChannel> openPlanesChannel(const RunRequest& r, const media::OpenedSource& in,
                                                const std::shared_ptr<DeviceContext>& device, QueuePolicy policy,
                                                std::ostringstream& line) {
  const auto format = static_cast<AVPixelFormat>(in.decoder->planesFormat());
  int width = 0, height = 0;
  in.source->frameSize(&width, &height);
  PlanesOptions options;
  options.policy = policy;
  options.deviceSlots = r.slots;
  options.queueCapacity = r.queue;
  options.deliverPixels = r.output != "null";
  options.planes = media::planesOf(format, width, height);
  std::vector<std::optional<FilterParams>> filters;
  for (const std::optional<Mask>& m : r.planeMasks) {
    filters.emplace_back(std::nullopt);
    if (!m) continue;
    filters.back() = r.params;
    filters.back()->mask = *m;
  }
  auto channel = std::make_unique<PlanesChannel>(device, filters, options);
  // "planes of yuv420p: Y, U, V mask 5x5 (...), auto: rows_baked for Y, rows for U, V; A as it is"
  std::vector<std::string> names;
  std::istringstream list(media::planeNames(format));
  for (std::string name; std::getline(list >> std::ws, name, ',');) names.push_back(name);
  const std::size_t count = std::min(options.planes.size(), names.size());
  auto maskOf = [&r](std::size_t i) { return i < r.planeMasks.size() ? r.planeMasks[i] : std::nullopt; };
  // Planes grouped by what they share, in plane order: "U, V".
  auto grouped = [&](auto key) {
    std::vector<std::pair<std::string, decltype(key(0))>> groups;
    for (std::size_t i = 0; i < count; ++i) {
      auto k = key(i);
      auto g = std::find_if(groups.begin(), groups.end(), [&k](const auto& e) { return e.second == k; });
      if (g == groups.end())
        groups.emplace_back(names[i], k);
      else
        g->first += ", " + names[i];
    }
    return groups;
  };
  line << "planes of " << av_get_pix_fmt_name(format) << ": ";
  bool first = true;
  for (const auto& [who, mask] : grouped(maskOf)) {
    line << (first ? "" : "; ") << who;
    first = false;
    if (!mask) {
      line << (who.find(',') == std::string::npos ? " as it is" : " as they are");
      continue;
    }
    line << " mask " << describe(*mask) << ", " << variantInfo(r.params.variant).name;
    if (r.params.variant != VariantId::Auto) continue;
    std::string chose;  // "rows_baked for Y, rows for U, V"
    for (const auto& [planes, variant] : grouped([&](std::size_t i) {
           const Pipeline* p = channel->plane(static_cast<int>(i));
           return maskOf(i) == mask && p ? std::string(variantInfo(p->prepared().variant).name) : std::string();
         }))
      if (!variant.empty()) chose += (chose.empty() ? "" : ", ") + variant + " for " + planes;
    if (!chose.empty()) line << ": " << chose;
  }
  line << ", border " << toString(r.params.border) << ", on " << device->info.name;
  return channel;
}

// The pipeline, or for --decode-only a pass-through; says what filters what.
std::unique_ptr<FrameChannel> openChannel(const RunRequest& r, const media::OpenedSource& in, const FrameSink& sink,
                                          const std::shared_ptr<DeviceContext>& device, StreamOptions& stream) {
  const std::string policy = !r.policy.empty() ? r.policy : in.source->isLive() || r.stream.realtime ? "live" : "lossless";
  PipelineOptions options;
  options.policy = policy == "live" ? QueuePolicy::Live : QueuePolicy::Lossless;
  options.format = r.format;
  options.deviceSlots = r.slots;
  options.queueCapacity = r.queue;
  options.deliverPixels = r.output != "null";
  options.prepareYuvConversion = in.decoder && media::deviceConverts(r.convert, r.format);
  in.source->frameSize(&options.expectedWidth, &options.expectedHeight);  // `auto` races before the first frame
  options.expectedLayout = in.source->planesLayout();  // the conversion's first launch before the first frame
  const std::string how = policy == "live" ? "live: late frames are dropped" : "every frame";
  std::ostringstream line;
  line << "run: " << in.source->describe() << " -> ";
  std::unique_ptr<FrameChannel> channel;
  if (r.decodeOnly) {
    channel = std::make_unique<PassThrough>(options.policy, options.queueCapacity);
    line << "decode only (no OpenCL)";
  } else if (!r.planeMasks.empty()) {
    channel = openPlanesChannel(r, in, device, options.policy, line);
  } else {
    const bool tuning = r.params.variant == VariantId::Auto && options.expectedWidth > 0;
    if (tuning && !r.quiet) {
      const bool known = AutoTuner::shared()
                             ->lookup(device->info, r.params, r.format, options.expectedWidth, options.expectedHeight)
                             .has_value();
      std::cerr << "liveconv: auto: " << (known ? "the fastest variant for " : "finding the fastest variant for ")
                << options.expectedWidth << "x" << options.expectedHeight << " " << toString(r.format) << " frames on "
                << device->info.name
                << (known ? " was measured before (" + AutoTuner::defaultCachePath() + ")\n"
                          : " (measured once, then cached)...\n");
    }
    auto pipeline = std::make_unique<Pipeline>(device, r.params, options);
    const ActiveKernel& k = pipeline->prepared();
    if (tuning && !r.quiet) std::cerr << userKernelRaceNote();
    line << variantInfo(r.params.variant).name;
    if (r.params.variant == VariantId::Auto && k.variant != VariantId::Invalid) line << " -> " << kernelText(k);
    line << ", mask " << describe(r.params.mask) << ", border " << toString(r.params.border) << ", "
         << toString(r.format) << ", on " << device->info.name;
    if (k.variant != VariantId::Invalid)
      stream.jsonExtra = "\"variant\":\"" + std::string(variantInfo(k.variant).name) + "\"";
    channel = std::move(pipeline);
  }
  line << " -> " << sink.describe() << " (" << how
       << (r.planeMasks.empty() ? std::string(", convert ") + toString(r.convert) : std::string()) << ")\n";
  if (!r.quiet) std::cerr << line.str();
  std::vector<Mask> masks;  // each mask that filters, once
  for (const std::optional<Mask>& m : r.planeMasks)
    if (m && std::find(masks.begin(), masks.end(), *m) == masks.end()) masks.push_back(*m);
  if (r.planeMasks.empty()) masks.push_back(r.params.mask);
  for (const Mask& m : masks)
    if (const std::string note = saturationNote(m); !note.empty() && !r.decodeOnly && !r.quiet)
      std::cerr << "liveconv: note: " << note << "\n";
  return channel;
}

// The summary and the exit code of a stream that ran.
int reportRun(const RunRequest& r, const StreamResult& result, const media::OpenedSource& in, const FrameSink& sink) {
  // The source may have been reopened: ask the one in use.
  media::FfmpegSource* decoder = in.decoder;
  if (auto* rs = dynamic_cast<media::ReconnectingSource*>(in.source.get()))
    decoder = dynamic_cast<media::FfmpegSource*>(&rs->current());
  if (!r.quiet && decoder && !decoder->decoderFallback().empty())
    std::cerr << "liveconv: " << decoder->decoderFallback() << "\n";
  if (!r.quiet && decoder && !decoder->conversionUsed().empty()) {
    if (r.decodeOnly && decoder->conversionUsed().rfind("on the device", 0) == 0)
      std::cerr << "converted: not at all (decode only; `run` would convert " << decoder->conversionUsed() << ")\n";
    else
      std::cerr << "converted " << decoder->conversionUsed() << "\n";
  }
  if (!r.quiet) std::cerr << summaryText(result.stats);
  if (result.stats.framesIn == 0 && !result.interrupted) {
    std::cerr << "liveconv: " << in.source->describe() << " gave no video frame to filter; nothing was written.\n";
    return media::kExitInputFailed;
  }
  if (result.stats.framesOut == 0 && r.output != "null")
    std::cerr << "liveconv: no filtered frame reached " << r.output << ", so it was not written.\n";
  else if (const auto* raw = dynamic_cast<const media::RawSink*>(&sink); raw && !r.quiet)
    std::cerr << "wrote " << raw->layout() << "\n";
  if (result.interrupted) {
    // With no frame written, the line above said so.
    media::reportInterruption("liveconv", result.stats.framesOut > 0 || r.output == "null"
                                              ? "; " + framesWritten(result.stats.framesOut)
                                              : "");
    return media::interruptExitCode();
  }
  return media::kExitOk;
}

}  // namespace

void checkOutputPath(const std::string& output, const std::string& input, bool overwrite, bool keep) {
  namespace fs = std::filesystem;
  if (overwrite && keep) throw UsageError("-y (overwrite) and -n (never overwrite) contradict each other; give one.");
  std::string path = output.rfind("raw:", 0) == 0 ? output.substr(4) : output;
  if (path.rfind("file:", 0) == 0) path = path.substr(5);
  // A sequence of pictures (out%03d.png): its first picture is what would be replaced first.
  std::string named = output;
  if (const std::string first = media::firstPictureOf(path); !first.empty() && output.rfind("raw:", 0) != 0)
    named = path = first;
  std::error_code ec;
  if (path.empty() || path == "-" || output == "null" || path.find("://") != std::string::npos || !fs::exists(path, ec))
    return;
  std::string in = input.rfind("file:", 0) == 0 ? input.substr(5) : input;
  if (!in.empty() && fs::exists(in, ec) && fs::equivalent(in, path, ec))
    throw UsageError("The output " + output + " is the input " + input + "; write the filtered video to another file.");
  if (!fs::is_regular_file(path, ec)) return;  // a device or a FIFO is written to, not replaced
  if (overwrite) return;
  if (keep) throw UsageError(named + " exists and -n keeps it; nothing was written.");
  if (isatty(STDIN_FILENO) && isatty(STDERR_FILENO)) {
    std::cerr << "File '" << named << "' exists. Overwrite? [y/N] " << std::flush;
    std::string answer;
    std::getline(std::cin, answer);
    if (answer == "y" || answer == "Y" || answer == "yes") return;
    throw UsageError("Not overwriting " + named + "; nothing was written.");
  }
  throw UsageError(named + " exists; pass -y to overwrite it, or -n to keep it.");
}

namespace {

// A signal before the first frame: whatever failed after it, it is what ended the run.
int interruptedBeforeTheStream(const char* during) {
  return media::reportInterruption("liveconv", std::string(" while ") + during + "; nothing was written");
}

}  // namespace

int runCommand(const Args& args) {
  RunRequest r = parseRunRequest(args);
  // What runs killed outright (SIGKILL, a crash) left beside the output: removed with -y, else named.
  const std::string target = r.output.rfind("raw:", 0) == 0 ? r.output.substr(4) : r.output;
  if (const std::string line = media::plainFilePath(target).empty()
                                   ? ""
                                   : media::sweepLeftoverParts(target, args.has("-y"), "pass -y to remove such files");
      !line.empty())
    std::cerr << "liveconv: " << line << "\n";
  media::InterruptScope interruptScope;  // signals finish the output, also while waiting for a camera or a race
  RaceStopsOnSignal raceStops;
  std::unique_ptr<FrameChannel> channel;
  try {
    std::shared_ptr<DeviceContext> device;
    if (!r.decodeOnly) device = DeviceContext::create(selectDevice(r.device));
    const media::OpenedSource in = openRunSource(r, device);
    if (r.pictureIfStill) {
      // A still image into a picture (as ffmpeg: -i still.png out.png); else
      // the picture's sentence (EncoderChoiceError: exit 2, nothing written).
      if (in.source->expectedFrames() != 1) media::checkOutput(r.output, r.codec, r.sink);
      r.stream.maxFrames = r.sink.maxFrames = 1;
    }
    if (in.decoder && !in.decoder->decoderNote().empty() && !r.quiet)
      std::cerr << "liveconv: " << in.decoder->decoderNote() << "\n";
    if (r.planeMasks.empty()) chooseDepth(r, in);
    if (!r.planeMasks.empty()) checkPlanesOfSource(r, in);
    const std::unique_ptr<FrameSink> sink = openRunSink(r, in);
    if (const auto* encoder = dynamic_cast<const media::EncoderSink*>(sink.get());
        encoder && !r.planeMasks.empty() && encoder->turnsPixels())
      throw UsageError("The input is shown turned, and planes mode keeps the picture as stored, but " + r.output +
                       " keeps no rotation to show it turned (this FFmpeg's " + encoder->containerName() +
                       "); write an .mp4 or .mov, add --no-autorotate, or leave out --planes.");
    orientMask(r);
    channel = openChannel(r, in, *sink, device, r.stream);
    const StreamResult result = runStream(*in.source, *sink, *channel, r.stream);
    return reportRun(r, result, in, *sink);
  } catch (const media::Interrupted& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return media::interruptExitCode();
  } catch (const Cancelled&) {  // a signal while auto was measuring, before any frame
    return interruptedBeforeTheStream("auto was measuring");
  } catch (const BuildError&) {
    // A signal to the process group (Ctrl-C, `timeout`) also reaches the
    // compiler's helpers: a build it broke is an interruption, not a kernel
    // that does not compile.
    if (!media::interruptRequested()) throw;
    return interruptedBeforeTheStream("a kernel was being built");
  } catch (const media::InputError& e) {
    // An open or a read that a signal cut short (EINTR) ends the run as the signal does.
    const bool bySignal = media::interruptRequested();
    if (!channel && bySignal) return interruptedBeforeTheStream("the input was being opened");
    if (!channel) {
      std::cerr << "liveconv: " << e.what() << "\n";
      return media::kExitInputFailed;
    }
    const StatsSnapshot stats = channel->stats().snapshot();  // the stream had started: the output was finished
    if (!r.quiet) std::cerr << summaryText(stats);
    const bool nothing = stats.framesOut == 0 && r.output != "null";
    const std::string kept =
        nothing ? "filtered frame reached " + r.output + ", so it was not written" : framesWritten(stats.framesOut);
    if (bySignal) return media::reportInterruption("liveconv", nothing ? "; no " + kept : "; " + kept);
    std::cerr << "liveconv: " << e.what() << (nothing ? " No " : " ") << kept << ".\n";
    return media::kExitInputFailed;
  } catch (const media::EncoderChoiceError& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return media::kExitUsage;
  } catch (const media::OutputError& e) {
    std::cerr << "liveconv: " << e.what() << "\n";
    return media::kExitOutputFailed;
  }
}

}  // namespace liveconv::app
