// The media build's subcommands: `run` (its options and help here, the work in
// run_command.cpp) and `cameras`.
#include <iostream>

#include "cli.hpp"
#include "liveconv/media/cameras.hpp"
#include "liveconv/media/device_inputs.hpp"
#include "liveconv/media/exit_codes.hpp"
#include "liveconv/media/ffmpeg_source.hpp"
#include "liveconv/media/source_kinds.hpp"
#include "liveconv/media/versions.hpp"
#include "run_command.hpp"
#include "stream.hpp"
#include "subcommands.hpp"

namespace liveconv::app {
namespace {

void printRunUsage() {
  std::cout << "usage: liveconv run [-i] SOURCE [-o OUTPUT] [--mask SPEC|@FILE.json] [--variant NAME] [options]\n"
               "  SOURCE  one of (default: the bundled clip):\n"
            << media::sourceKindsHelp("            ")
            << "  OUTPUT  FILE.mkv/.nut/.avi (FFV1, lossless coding in the input's pixel format; --pix-fmt bgra\n"
               "          keeps the filtered RGB exactly), FILE.mp4/.mov (H.264), FILE.raw/.rgba/.gray or\n"
               "          raw:FILE (frames back to back; .gray, .rgba, .gray16, .rgba16 name the format, 16-bit\n"
               "          ones in the machine's byte order), - (standard output,\n"
               "          with --container), raw:- ; FILE%03d.png (a picture a frame), FILE.png (a still's\n"
               "          one frame, or --frames 1); null (nothing; for measuring); default null\n"
               "Filter:\n"
            << paramHelp({ParamId::Mask, ParamId::Variant, ParamId::Border, ParamId::Alpha, ParamId::Workgroup,
                          ParamId::Format, ParamId::Device, ParamId::KernelFile})
            << "  --depth auto|8|16  the engine's samples: 16 bits (rgba16, gray16) for a source of more than\n"
               "                8 (10-bit HEVC, 16-bit PNG), 8 otherwise (auto, the default); the output keeps the\n"
               "                source's depth where its encoder takes it (FFV1, H.264 High 10)\n"
               "  --planes all|LIST  filter the source's own planes, as FFmpeg's convolution filter does: Y, U and\n"
               "                V (or G, B, R; and alpha) at their own sizes and depth, no colour conversion; LIST\n"
               "                names the planes --mask filters (0,1,2; 0 is Y or G), the others are kept as they are\n"
               "  --plane-mask N=MASK  plane N's own mask (repeatable; implies --planes)\n"
               "Output:\n"
               "  --codec NAME  any FFmpeg video encoder (default: FFV1, or H.264 for .mp4/.mov)\n"
               "  --container NAME, -f NAME  FFmpeg's muxer (default: from the file name; needed for -o -)\n"
               "  --crf N, --preset NAME, -b:v RATE, --codec-opt KEY=VALUE (repeatable), --pix-fmt NAME\n"
               "                encoder settings, as FFmpeg names them; H.264 defaults to preset veryfast, crf 18;\n"
               "                an encoder or option FFmpeg does not have is a bad command line (exit 2)\n"
               "  -an, -sn      leave the input's audio / subtitles out (by default they are copied into a\n"
               "                container output that can hold their codec; the run says which)\n"
               "  --no-autorotate  filter and write the picture as stored; by default an input a player shows\n"
               "                turned (a phone's portrait clip) is filtered as shown: the mask turns with it, and\n"
               "                an output that keeps no rotation (.avi, .nut, raw) gets its pixels turned\n"
               "  -y, -n        overwrite an existing output / never overwrite it; without either, a terminal is\n"
               "                asked and a script is refused (exit 2); the output is never the input\n"
               "Stream:\n"
               "  --frames N    stop after N input frames\n"
               "  --policy live|lossless  drop late frames (default for cameras and streams) or keep every one\n"
               "  --slots 2..4, --queue 2..4  frames in flight on the device, and in each queue\n"
               "  --convert gpu|cpu|auto  where decoded frames become rgba/gray: gpu (4:2:0, 4:2:2 and 4:4:4 YUV,\n"
               "                yuyv422/uyvy422, 10-bit 4:2:0, 4:2:2, 4:4:4 and p010, rgb24/bgr24 go up as they are\n"
               "                and the device converts them, at 8 or 16 bits; swscale for other formats), cpu\n"
               "                (swscale); auto = gpu at 8 bits, cpu at 16 (the encoder undoes swscale's exactly)\n"
               "  --hwaccel none|auto|NAME  decode on hardware through FFmpeg (NAME: cuda, vaapi, ...); where it\n"
               "                does not open, the CPU decodes and one line says why; auto times the CPU and\n"
               "                each hardware decoder that opens on the file's first frames and keeps hardware\n"
               "                only where 1.25x faster (cached per codec, size and machine); default none\n"
               "  --realtime    play a file at its frame rate, as a live source\n"
               "  --reconnect SECONDS  how long a busy or unplugged camera (or a stopped stream) is waited for;\n"
               "                default 10, 0 = not at all\n"
            << paramHelp({ParamId::OpenTimeout}, 16)
            << "  --decode-only decode and convert as `run` would, then discard: no OpenCL, the same threads and\n"
               "                stats (-o null); the reference the filter's speed is compared with\n"
               "Messages:\n"
               "  every message, the progress and the summary go to stderr; --quiet leaves only errors;\n"
               "  --json-log FILE writes a JSON line of stats every second and at the end\n"
               "  variant default: "
            << defaultVariantName() << "; variants: " << variantNames() << "\n";
}

int runSubcommand(const std::vector<std::string>& argv) {
  const Args args(argv, {"--input",        "--output",    "--mask",        "--variant", "--border",    "--alpha",
                         "--workgroup",    "--device",    "--format",      "--frames",  "--json-log",  "--codec",
                         "--policy",       "--slots",     "--queue",       "--convert", "--reconnect", "--crf",
                         "--open-timeout", "--hwaccel",   "--kernel-file", "--preset",  "-b:v",        "--codec-opt",
                         "--pix-fmt",      "--container", "--depth",       "--planes",  "--plane-mask"},
                  {"--help", "--quiet", "--realtime", "--decode-only", "-y", "-n", "-an", "-sn", "--no-autorotate"},
                  {{"-i", "--input"}, {"-o", "--output"}, {"-h", "--help"}, {"-f", "--container"}},
                  {"--codec-opt", "--plane-mask"});
  if (args.has("--help")) {
    printRunUsage();
    return media::kExitOk;
  }
  return runCommand(args);
}

int camerasCommand(const std::vector<std::string>& argv) {
  const Args args(argv, {}, {"--help"}, {{"-h", "--help"}});
  if (!args.positional().empty())
    throw UsageError("Unexpected argument '" + args.positional().front() + "'; cameras takes none.");
  if (args.has("--help")) {
    std::cout << "usage: liveconv cameras\n"
                 "  lists the video capture devices (V4L2) with their pixel formats, sizes and frame\n"
                 "  rates; open one with -i camera:N[:WxH][@FPS] or -i /dev/videoN.\n";
    return media::kExitOk;
  }
  if (!media::hasCameraSupport()) {
    std::cerr << "liveconv: " << media::deviceInputsFailure() << ", so cameras cannot be opened.\n";
    return media::kExitInputFailed;
  }
  std::cout << media::describeCameras(media::listCameras());
  return media::kExitOk;
}

}  // namespace

std::string mediaVersionText() {
  return media::ffmpegVersionText();
}

const std::vector<Subcommand>& extraSubcommands() {
  static const std::vector<Subcommand> commands = {
      {"run", "run [-i SOURCE] [-o OUTPUT] ...  filter a file, stream or camera (run --help)", runSubcommand},
      {"cameras", "cameras            list video capture devices and their formats", camerasCommand},
  };
  return commands;
}

}  // namespace liveconv::app
