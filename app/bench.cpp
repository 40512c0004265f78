#include "bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>

#include "cli.hpp"
#include "liveconv/autotune.hpp"
#include "liveconv/compare.hpp"
#include "liveconv/convolver.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/mask_file.hpp"
#include "liveconv/media/exit_codes.hpp"
#include "liveconv/media/media_errors.hpp"
#include "liveconv/media/staged_output.hpp"
#include "liveconv/media/stop_signals.hpp"
#include "liveconv/reference.hpp"

namespace liveconv::app {
namespace {

struct Size2 {
  int w = 0, h = 0;
};

Size2 parseSize(const std::string& text, const char* what) {
  int w = 0, h = 0;
  char x = 0;
  std::istringstream in(text);
  if (text.find_first_of("xX") == std::string::npos) {
    if (!(in >> w) || !in.eof()) throw UsageError(std::string("Bad ") + what + " '" + text + "'.");
    return {w, w};
  }
  if (!(in >> w >> x >> h) || (x != 'x' && x != 'X') || !in.eof() || w <= 0 || h <= 0)
    throw UsageError(std::string("Bad ") + what + " '" + text + "'; write WxH or N.");
  return {w, h};
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// One launch of an empty kernel, enqueued and waited for (microseconds,
// median): the host's round trip to the device and back, the floor of what a
// frame costs beside its kernel (on PoCL, the wake-ups of its worker threads).
double launchRoundTripUs(DeviceContext& ctx, int runs) {
  cl::Program program(ctx.context, "__kernel void nothing(void) {}");
  program.build({ctx.info.device});
  cl::Kernel kernel(program, "nothing");
  std::vector<double> us;
  for (int r = 0; r < std::max(runs, 50) + 5; ++r) {
    const auto start = std::chrono::steady_clock::now();
    cl::Event e;
    ctx.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr, &e);
    e.wait();
    if (r >= 5) us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  return median(us);
}

struct Row {
  std::string variant, format, image, mask, workgroup, verify, chosen;
  double kernelMs = 0, transferMs = 0, kernelMpix = 0, transferMpix = 0, fracBandwidth = 0, fracFma = 0;
  std::string error;     // why the row did not run, one sentence
  std::string buildLog;  // the compiler's log when it was a build that failed
};

}  // namespace

void printBenchUsage() {
  std::cout
      << "usage: liveconv bench [options]\n"
         "  --pipeline          stream in-memory frames through the double-buffered pipeline (bench --pipeline "
         "--help)\n"
         "  --device SEL        OpenCL device (index, P:D, gpu/cpu, or name part); default $LIVECONV_DEVICE or first "
         "GPU\n"
         "  --variants LIST     comma list of variants, or 'all' (default)\n"
         "  --masks LIST        mask sizes: N or WxH, e.g. 3,7,15,3x7 (default 3,5,7,9,13 on CPU; 3..31 on GPU)\n"
         "  --sizes LIST        image sizes WxH (default 1280x720 on CPU; 1920x1080,3840x2160 on GPU)\n"
         "  --format F          rgba, gray, rgba16, gray16 or a list of them (rgba16,gray16);\n"
         "                      both (rgba,gray) or all (default rgba)\n"
         "  --border MODE       clamp, mirror, wrap or zero (default clamp)\n"
         "  --mask SPEC|@FILE   bench this mask (a spec or a mask file) instead of the generated non-separable ones\n"
         "  --packets LIST      outputs per work-item to try for packet variants, e.g. 4,8,16,32 (default: theirs)\n"
         "  --workgroups LIST   workgroup shapes to try, e.g. 16x8,32x4 (default: each variant's own)\n"
         "  --runs N            timed runs per result, median reported (default 10)\n"
         "  --warmup N          untimed runs first (default 3)\n"
         "  --no-transfers      kernel time only\n"
         "  --verify            check every result against the CPU reference\n"
         "  --kernel-file FILE  a kernel of your own, benched (and raced by auto) as the variant user\n"
         "  --csv FILE          also write the table as CSV\n"
         "  --json FILE         also write the table as JSON\n";
}

namespace {

// What one `bench` run measures, read from its command line.
struct BenchPlan {
  std::vector<const VariantInfo*> variants;
  std::vector<Mask> masks;
  std::vector<Size2> sizes;
  std::vector<PixelFormat> formats;
  BorderMode border = BorderMode::Clamp;
  std::vector<int> packets;             // 0: the variant's default
  std::vector<WorkgroupShape> shapes;  // {0, 0}: the variant's default
  int runs = 10, warmup = 3;
  bool transfers = true, verify = false;
};

std::vector<const VariantInfo*> benchVariants(const std::string& list) {
  std::vector<const VariantInfo*> variants;
  if (list == "all") {
    for (const auto& v : variantRegistry())
      if (variantAvailable(v)) variants.push_back(&v);
    return variants;
  }
  for (const auto& name : splitList(list)) {
    const VariantInfo* v = findVariant(name);
    if (!v) throw UsageError("Unknown variant '" + name + "'; the variants are " + variantNames() + ".");
    if (!variantAvailable(*v))
      throw UsageError("The variant user runs a kernel of your own: give its file with --kernel-file FILE.cl.");
    variants.push_back(v);
  }
  return variants;
}

// `masks` holds --mask already (checked before a device is touched).
void readBenchPlan(const Args& args, bool gpu, BenchPlan* plan) {
  plan->variants = benchVariants(args.get("--variants", "all"));
  if (plan->masks.empty())
    for (const auto& s : splitList(args.get("--masks", gpu ? "3,5,7,9,11,13,15,21,31" : "3,5,7,9,13"))) {
      const Size2 m = parseSize(s, "mask size");
      Mask mask = benchMask(m.w, m.h);
      if (auto e = mask.validationError(); !e.empty()) throw UsageError(e);
      plan->masks.push_back(mask);
    }
  for (const auto& s : splitList(args.get("--sizes", gpu ? "1920x1080,3840x2160" : "1280x720")))
    plan->sizes.push_back(parseSize(s, "image size"));
  // One format, a list (rgba16,gray16), `both` (rgba,gray: 8 bits) or `all`.
  const std::string fmt = args.get("--format", "rgba");
  if (fmt == "both") plan->formats = {PixelFormat::RGBA8, PixelFormat::GRAY8};
  else if (fmt == "all")
    plan->formats = allPixelFormats();
  else
    for (const auto& name : splitList(fmt)) {
      const PixelFormat f = parsePixelFormat(name);
      if (f == PixelFormat::Invalid)
        throw UsageError("Unknown pixel format '" + name + "'; use rgba, gray, rgba16, gray16 (a list), both or all.");
      plan->formats.push_back(f);
    }
  plan->border = parseBorderMode(args.get("--border", "clamp"));
  if (plan->border == BorderMode::Invalid) throw UsageError("Unknown border mode; use clamp, mirror, wrap or zero.");
  for (const auto& s : splitList(args.get("--packets", "0"))) {
    const int n = std::atoi(s.c_str());
    if (s != "0" && n != 1 && n != 2 && n != 4 && n != 8 && n != 16 && n != 32)
      throw UsageError("Bad packet '" + s + "'; a packet is 1, 2, 4, 8, 16 or 32 outputs per work-item.");
    plan->packets.push_back(n);
  }
  for (const auto& s : splitList(args.get("--workgroups", "0x0"))) {
    const Size2 wg = s == "0x0" ? Size2{0, 0} : parseSize(s, "workgroup shape");
    plan->shapes.push_back({wg.w, wg.h});
  }
  plan->runs = args.getInt("--runs", 10, 1, 100000);
  plan->warmup = args.getInt("--warmup", 3, 0, 100000);
  plan->transfers = !args.has("--no-transfers");
  plan->verify = args.has("--verify");
}

// One frame size and format: the source, and device buffers at the tight pitch
// and, for a variant that asks for padded rows (local_aligned), at its pitch.
struct BenchFrame {
  Image src, dst;
  DeviceImage tightIn, tightOut, paddedIn, paddedOut;

  BenchFrame(DeviceContext& ctx, const Size2& size, PixelFormat format)
      : src(randomImage(size.w, size.h, format, 1234u)), dst(size.w, size.h, format) {
    tightIn = allocateDeviceImage(ctx.context, size.w, size.h, format, CL_MEM_READ_ONLY);
    tightOut = allocateDeviceImage(ctx.context, size.w, size.h, format, CL_MEM_WRITE_ONLY);
    ctx.queue.enqueueWriteBuffer(tightIn.buffer, CL_TRUE, 0, src.sizeBytes(), src.data());
  }
  // The input and output at `pitch`, made on first use.
  std::pair<const DeviceImage*, const DeviceImage*> at(DeviceContext& ctx, std::size_t pitch) {
    if (pitch == tightIn.pitchBytes) return {&tightIn, &tightOut};
    if (pitch != paddedIn.pitchBytes) {
      const ImageView v = src.view();
      paddedIn = allocateDeviceImage(ctx.context, v.width, v.height, v.format, CL_MEM_READ_ONLY, pitch);
      paddedOut = allocateDeviceImage(ctx.context, v.width, v.height, v.format, CL_MEM_WRITE_ONLY, pitch);
      const cl::array<cl::size_type, 3> origin{0, 0, 0};
      const cl::array<cl::size_type, 3> region{v.rowBytes(), static_cast<cl::size_type>(v.height), 1};
      ctx.queue.enqueueWriteBufferRect(paddedIn.buffer, CL_TRUE, origin, origin, region, pitch, 0, v.rowBytes(), 0,
                                       src.data());
    }
    return {&paddedIn, &paddedOut};
  }
};

// What the device can do, measured once per run: the reference points of the rows.
struct DeviceLimits {
  double copyBytesPerSec = 0;
  double roundTripUs = 0;
  FmaLimit fma;
};

std::string shapeText(const ActiveKernel& active) {
  std::string text = std::to_string(active.workgroup.x) + "x" + std::to_string(active.workgroup.y);
  if (active.packet > 1) text += "/" + std::to_string(active.packet);
  if (active.columnWorkgroup.x > 0)  // separable: row pass + column pass
    text += "+" + std::to_string(active.columnWorkgroup.x) + "x" + std::to_string(active.columnWorkgroup.y) + "/" +
            std::to_string(active.columnPacket);
  return text;
}

// Times one variant, packet and shape on one frame: kernel alone, then with
// the frame coming from and going back to host memory; checks it on --verify.
void measureRow(DeviceContext& ctx, Convolver& conv, BenchFrame& frame, const BenchPlan& plan,
                const DeviceLimits& limits, const Image& want, Row* row, int* failures) {
  const ImageView src = frame.src.view();
  const ActiveKernel active = conv.activeKernel(src.format, src.width, src.height);
  row->workgroup = shapeText(active);
  if (conv.params().variant == VariantId::Auto) row->chosen = variantInfo(active.variant).name;
  const auto [in, out] = frame.at(ctx, conv.devicePitchBytes(src.format, src.width, src.height));
  std::vector<double> kernelMs, wallMs;
  // The kernel alone and (with transfers) the whole frame, run by run
  // interleaved: both medians come from the same stretch of time, so the
  // machine's drift (clocks, caches, other work) does not set them apart.
  for (int r = 0; r < plan.warmup + plan.runs; ++r) {
    cl::Event first, done;
    conv.enqueue(*in, *out, nullptr, &done, &first);
    done.wait();
    if (r >= plan.warmup) kernelMs.push_back(eventSpanMs(first, done));
    if (!plan.transfers) continue;
    const FrameTimings t = conv.process(src, frame.dst.view());
    if (r >= plan.warmup) wallMs.push_back(t.wallMs);
  }
  const double pixels = double(src.width) * src.height;
  const int channels = channelCount(src.format);
  const Mask& mask = conv.params().mask;
  row->kernelMs = median(kernelMs);
  row->kernelMpix = pixels / (row->kernelMs * 1e-3) * 1e-6;
  row->fracBandwidth = row->kernelMpix * 1e6 / (limits.copyBytesPerSec / (2.0 * bytesPerPixel(src.format)));
  // The channels the kernel that ran computes (alpha is copied here): its FMA limit.
  const VariantInfo& ran = variantInfo(active.variant);
  const double fmas = fmasPerOutput(ran, mask.width, mask.height) * channelsComputed(ran, channels, false);
  row->fracFma = row->kernelMpix * 1e6 / (limits.fma.fmaPerSecond / fmas);
  if (plan.transfers) {
    row->transferMs = median(wallMs);
    row->transferMpix = pixels / (row->transferMs * 1e-3) * 1e-6;
  }
  if (!plan.verify) return;
  conv.process(src, frame.dst.view());
  const int tol = mask.toleranceLsb(maxSampleValue(src.format));
  if (auto mm = compareImages(frame.dst.view(), want.view(), tol)) {
    row->verify = "FAIL " + mm->toString();
    ++*failures;
  } else {
    row->verify = tol ? "ok(1lsb)" : "ok(exact)";
  }
}

void printRow(const Row& row, bool transfers) {
  if (!row.error.empty()) {
    std::printf("%-14s %-6s %-10s %-6s  skipped: %s\n", row.variant.c_str(), row.format.c_str(), row.image.c_str(),
                row.mask.c_str(), row.error.c_str());
    if (!row.buildLog.empty()) std::printf("%s\n", row.buildLog.c_str());
  } else {
    const Roof roof = roofOf(row.fracBandwidth, row.fracFma);
    std::printf("%-14s %-6s %-10s %-6s %-15s %10.4f %10.1f %5.1f%% %5.1f%% %3s %4.0f%% ", row.variant.c_str(),
                row.format.c_str(), row.image.c_str(), row.mask.c_str(), row.workgroup.c_str(), row.kernelMs,
                row.kernelMpix, 100 * row.fracBandwidth, 100 * row.fracFma, roof.limit, 100 * roof.share);
    if (transfers) std::printf("%10.3f %10.1f ", row.transferMs, row.transferMpix);
    else std::printf("%10s %10s ", "-", "-");
    std::printf("%s%s\n", row.verify.c_str(), row.chosen.empty() ? "" : (" -> " + row.chosen).c_str());
  }
  std::fflush(stdout);
}

void printHeader(const DeviceInfo& info, const BenchPlan& plan, const DeviceLimits& limits) {
  std::cout << "device: " << info.name << " (" << info.platformName << ", driver " << info.driverVersion << ", "
            << toString(info.kind) << ")\n"
            << std::fixed << std::setprecision(1) << "copy bandwidth (device to device, read+write, median of "
            << plan.runs << "): " << limits.copyBytesPerSec * 1e-9 << " GB/s\n"
            << "launch round trip (an empty kernel enqueued and waited for, median): " << limits.roundTripUs << " us\n"
            << "FMA limit: " << limits.fma.how << "\n"
            << "medians of " << plan.runs << " runs after " << plan.warmup << " warm-up; border "
            << toString(plan.border)
            << "; %bw = kernel Mpix/s over copy bandwidth / (2 x bytes per pixel); %fma = kernel Mpix/s over FMA "
               "limit / (taps x the channels the kernel computes: 3 for rgba on the packet kernels, which leave "
               "the copied alpha out; W+H taps for separable); roof = the nearer of the two limits and the share "
               "of it; +xfer ms = a whole frame from host memory "
               "and back (upload, kernel, readback; a CPU device filters the host frames in place, which can "
               "take less than its own padded buffers), run by run interleaved with the kernel alone\n\n";
  std::printf("%-14s %-6s %-10s %-6s %-15s %10s %10s %6s %6s  %-8s %10s %10s %s\n", "variant", "fmt", "image", "mask",
              "wg", "kernel ms", "Mpix/s", "%bw", "%fma", "roof", "+xfer ms", "Mpix/s", plan.verify ? "verify" : "");
}

// Every row of the plan, printed as it is measured.
// A signal (Ctrl-C, SIGTERM, SIGHUP) ends it before the next row, or in the
// middle of auto's race or a kernel build: the rows measured so far are kept.
std::vector<Row> measureAll(const std::shared_ptr<DeviceContext>& device, const BenchPlan& plan,
                            const DeviceLimits& limits, int* failures) {
  std::vector<Row> rows;
  DeviceContext& ctx = *device;
  Convolver conv(device);
  for (PixelFormat format : plan.formats)
    for (const Size2& size : plan.sizes) {
      BenchFrame frame(ctx, size, format);
      for (const Mask& mask : plan.masks) {
        Image want;
        if (plan.verify) {
          want = Image(size.w, size.h, format);
          convolveReference(frame.src.view(), want.view(), mask, plan.border, AlphaMode::PassThrough);
        }
        for (const VariantInfo* v : plan.variants)
          for (int packet : v->defaultPacket ? plan.packets : std::vector<int>{0})
            for (WorkgroupShape shape : v->id == VariantId::Auto ? std::vector<WorkgroupShape>{{}} : plan.shapes) {
              if (media::interruptRequested()) return rows;
              Row row;
              row.variant = v->name;
              row.format = toString(format);
              row.image = std::to_string(size.w) + "x" + std::to_string(size.h);
              row.mask = std::to_string(mask.width) + "x" + std::to_string(mask.height);
              try {
                conv.setParams({mask, plan.border, AlphaMode::PassThrough, v->id, shape, packet, {}});
                measureRow(ctx, conv, frame, plan, limits, want, &row, failures);
              } catch (const Cancelled&) {
                return rows;  // a signal stopped auto's race
              } catch (const BuildError& e) {
                if (media::interruptRequested()) return rows;  // the signal reached the compiler too
                row.error = e.what();
                row.buildLog = e.buildLog();
                ++*failures;
              } catch (const Error& e) {
                row.error = e.what();
              }
              printRow(row, plan.transfers);
              rows.push_back(row);
            }
      }
    }
  return rows;
}

std::string jsonEscape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (c == '\n') o += "\\n";
    else if (static_cast<unsigned char>(c) >= 0x20) o += c;
  }
  return o;
}

// The tables are written whole or not at all (staged: a full disk keeps an older file as it was).
void writeWhole(const std::string& path, const std::string& text) {
  if (const std::string error = media::writeStaged(path, text); !error.empty()) throw media::OutputError(error);
}

void writeCsv(const std::string& path, const DeviceInfo& info, const std::vector<Row>& rows) {
  std::ostringstream out;
  out << "device,driver,variant,format,image,mask,workgroup,kernel_ms,kernel_mpix_s,frac_bandwidth,frac_fma,"
         "transfer_ms,transfer_mpix_s,verify,error,roof\n";
  for (const Row& r : rows) {
    out << '"' << info.name << "\",\"" << info.driverVersion << "\"," << r.variant << ',' << r.format << ',' << r.image
        << ',' << r.mask << ',' << r.workgroup << ',';
    if (r.error.empty())  // a skipped row leaves its numbers empty (a 0 would read as a measurement)
      out << r.kernelMs << ',' << r.kernelMpix << ',' << r.fracBandwidth << ',' << r.fracFma << ',' << r.transferMs
          << ',' << r.transferMpix;
    else
      out << ",,,,,";
    out << ",\"" << r.verify << "\",\"" << jsonEscape(r.error) << "\","
        << (r.error.empty() ? roofOf(r.fracBandwidth, r.fracFma).limit : "") << "\n";
  }
  writeWhole(path, out.str());
}

void writeJson(const std::string& path, const DeviceInfo& info, const DeviceLimits& limits, int runs,
               const std::vector<Row>& rows) {
  std::ostringstream out;
  out << "{\n  \"device\": \"" << jsonEscape(info.name) << "\",\n  \"platform\": \"" << jsonEscape(info.platformName)
      << "\",\n  \"driver\": \"" << jsonEscape(info.driverVersion) << "\",\n  \"copy_bandwidth_gb_s\": "
      << limits.copyBytesPerSec * 1e-9 << ",\n  \"fma_limit\": \"" << jsonEscape(limits.fma.how)
      << "\",\n  \"runs\": " << runs << ",\n  \"results\": [\n";
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const Row& r = rows[k];
    // A skipped row's numbers are null (a 0 would read as a measurement).
    auto number = [&r](double v) {
      std::ostringstream n;
      if (r.error.empty())
        n << v;
      else
        n << "null";
      return n.str();
    };
    out << "    {\"variant\": \"" << r.variant << "\", \"format\": \"" << r.format << "\", \"image\": \"" << r.image
        << "\", \"mask\": \"" << r.mask << "\", \"workgroup\": \"" << r.workgroup
        << "\", \"kernel_ms\": " << number(r.kernelMs) << ", \"kernel_mpix_s\": " << number(r.kernelMpix)
        << ", \"frac_bandwidth\": " << number(r.fracBandwidth) << ", \"frac_fma\": " << number(r.fracFma)
        << ", \"roof\": "
        << (r.error.empty() ? std::string("\"") + roofOf(r.fracBandwidth, r.fracFma).limit + "\"" : "null")
        << ", \"transfer_ms\": " << number(r.transferMs) << ", \"transfer_mpix_s\": " << number(r.transferMpix)
        << ", \"chosen\": \"" << r.chosen << "\", \"verify\": \"" << jsonEscape(r.verify) << "\", \"error\": \""
        << jsonEscape(r.error) << "\", \"build_log\": \"" << jsonEscape(r.buildLog) << "\"}"
        << (k + 1 < rows.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
  writeWhole(path, out.str());
}

}  // namespace

int runBench(const std::vector<std::string>& argv) {
  for (const auto& a : argv)
    if (a == "--pipeline") return runPipelineBench(argv);
  const Args args(argv,
                  {"--device", "--variants", "--masks", "--sizes", "--format", "--border", "--mask", "--runs",
                   "--warmup", "--csv", "--json", "--packets", "--workgroups", "--kernel-file"},
                  {"--verify", "--no-transfers", "--help"}, {{"-d", "--device"}, {"-h", "--help"}});
  if (args.has("--help")) {
    printBenchUsage();
    return media::kExitOk;
  }
  // A mask the user wrote is checked before a device is touched (a bad one is exit 2, not 3).
  BenchPlan plan;
  if (args.has("--mask")) plan.masks.push_back(parseMaskArgument(args.get("--mask")));
  if (args.has("--kernel-file")) loadUserKernel(args.get("--kernel-file"));
  media::InterruptScope interruptScope;  // Ctrl-C, SIGTERM, SIGHUP end the table at the next row
  RaceStopsOnSignal raceStops;
  const DeviceInfo info = selectDevice(args.get("--device"));
  auto ctx = DeviceContext::create(info);
  readBenchPlan(args, info.kind == DeviceKind::GPU, &plan);
  const DeviceLimits limits{copyBandwidth(*ctx, plan.runs), launchRoundTripUs(*ctx, plan.runs), fmaLimit(info)};
  printHeader(info, plan, limits);
  int failures = 0;
  const std::vector<Row> rows = measureAll(ctx, plan, limits, &failures);
  if (args.has("--csv")) writeCsv(args.get("--csv"), info, rows);
  if (args.has("--json")) writeJson(args.get("--json"), info, limits, plan.runs, rows);
  if (media::interruptRequested()) {
    return media::reportInterruption("liveconv", "; " + std::to_string(rows.size()) + " row(s) were measured" +
                                                     (args.has("--json") || args.has("--csv") ? " and written" : ""));
  }
  if (failures) {
    std::cerr << failures << " result(s) failed verification or did not build.\n";
    return media::kExitVerifyFailed;
  }
  // Every row skipped: nothing to compare, so not a success.
  if (!rows.empty() && std::all_of(rows.begin(), rows.end(), [](const Row& r) { return !r.error.empty(); })) {
    const bool rank1 = std::all_of(rows.begin(), rows.end(), [](const Row& r) {
      const VariantInfo* v = findVariant(r.variant);
      return v && v->needsSeparableMask;
    });
    std::cerr << "liveconv: nothing was measured; every row was skipped (" << rows.front().error << ")"
              << (rank1 && !args.has("--mask")
                      ? " The generated masks are not separable: give one with --mask, e.g. --mask gaussian:5.\n"
                      : "\n");
    return media::kExitUnsupported;
  }
  return media::kExitOk;
}

}  // namespace liveconv::app
