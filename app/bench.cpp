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
#include "exit_codes.hpp"
#include "liveconv/compare.hpp"
#include "liveconv/convolver.hpp"
#include "liveconv/device.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/mask_file.hpp"
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

// A non-separable integer mask (exact on every variant), normalized by its sum.
Mask benchMask(int w, int h) {
  Mask m;
  m.width = w;
  m.height = h;
  m.coefficients.resize(static_cast<std::size_t>(w) * h);
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) m.coefficients[static_cast<std::size_t>(j) * w + i] = float((i * 7 + j * 13 + i * j) % 9 + 1);
  m.normalize = Normalize::Auto;
  return m;
}

Image randomImage(int w, int h, PixelFormat f, unsigned seed) {
  Image img(w, h, f);
  std::mt19937 rng(seed);
  for (std::size_t k = 0; k < img.sizeBytes(); ++k) img.data()[k] = static_cast<std::uint8_t>(rng() >> 24);
  return img;
}

struct FmaLimit {
  double fmaPerSecond = 0;
  std::string how;
};

// Peak FP32 FMA rate from the device's compute units and clock. The lanes per
// compute unit are not queryable in OpenCL, so they come from the vendor:
// NVIDIA SMs have 128 FP32 lanes (Ampere/Hopper), AMD CUs 64, a CPU core its
// native float vector width times two FMA ports. LIVECONV_FMA_LANES overrides.
FmaLimit fmaLimit(const DeviceInfo& d) {
  double lanes = 0;
  std::string why;
  std::string vendor = d.vendor + " " + d.platformName;
  std::transform(vendor.begin(), vendor.end(), vendor.begin(), ::tolower);
  if (const char* env = std::getenv("LIVECONV_FMA_LANES"); env && std::atof(env) > 0) {
    lanes = std::atof(env);
    why = "LIVECONV_FMA_LANES";
  } else if (d.kind == DeviceKind::GPU && vendor.find("nvidia") != std::string::npos) {
    lanes = 128;
    why = "NVIDIA: 128 FP32 lanes per SM";
  } else if (d.kind == DeviceKind::GPU && (vendor.find("amd") != std::string::npos || vendor.find("advanced micro") != std::string::npos)) {
    lanes = 64;
    why = "AMD: 64 lanes per CU";
  } else if (d.kind == DeviceKind::CPU) {
    lanes = 2.0 * d.preferredFloatVectorWidth;
    why = std::to_string(d.preferredFloatVectorWidth) + "-wide float vectors x 2 FMA ports per core";
  } else {
    lanes = 16;
    why = "unknown vendor, assumed 16 lanes per CU";
  }
  FmaLimit f;
  f.fmaPerSecond = double(d.computeUnits) * d.clockMHz * 1e6 * lanes;
  std::ostringstream how;
  how << d.computeUnits << " CUs x " << d.clockMHz << " MHz x " << lanes << " lanes (" << why << ") = "
      << std::setprecision(3) << f.fmaPerSecond * 1e-12 << " TFMA/s";
  f.how = how.str();
  return f;
}

// Device-to-device copy bandwidth (bytes read + written per second), median.
double copyBandwidth(DeviceContext& ctx, int runs) {
  const std::size_t bytes = ctx.info.kind == DeviceKind::GPU ? (256u << 20) : (64u << 20);
  cl::Buffer a(ctx.context, CL_MEM_READ_WRITE, bytes), b(ctx.context, CL_MEM_READ_WRITE, bytes);
  ctx.queue.enqueueFillBuffer(a, cl_uchar(1), 0, bytes);
  std::vector<double> ms;
  for (int r = 0; r < runs + 2; ++r) {
    cl::Event e;
    ctx.queue.enqueueCopyBuffer(a, b, 0, 0, bytes, nullptr, &e);
    e.wait();
    if (r >= 2) ms.push_back(eventMs(e));
  }
  return 2.0 * bytes / (median(ms) * 1e-3);
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
  std::cout << "usage: liveconv bench [options]\n"
               "  --pipeline          stream in-memory frames through the double-buffered pipeline (bench --pipeline --help)\n"
               "  --device SEL        OpenCL device (index, P:D, gpu/cpu, or name part); default $LIVECONV_DEVICE or first GPU\n"
               "  --variants LIST     comma list of variants, or 'all' (default)\n"
               "  --masks LIST        mask sizes: N or WxH, e.g. 3,7,15,3x7 (default 3,5,7,9,13 on CPU; 3..31 on GPU)\n"
               "  --sizes LIST        image sizes WxH (default 1280x720 on CPU; 1920x1080,3840x2160 on GPU)\n"
               "  --format F          rgba, gray or both (default rgba)\n"
               "  --border MODE       clamp, mirror, wrap or zero (default clamp)\n"
               "  --mask SPEC|@FILE   bench this mask (a spec or a mask file) instead of the generated non-separable ones\n"
               "  --packets LIST      outputs per work-item to try for packet variants, e.g. 4,8,16,32 (default: theirs)\n"
               "  --workgroups LIST   workgroup shapes to try, e.g. 16x8,32x4 (default: each variant's own)\n"
               "  --runs N            timed runs per result, median reported (default 10)\n"
               "  --warmup N          untimed runs first (default 3)\n"
               "  --no-transfers      kernel time only\n"
               "  --verify            check every result against the CPU reference\n"
               "  --csv FILE          also write the table as CSV\n"
               "  --json FILE         also write the table as JSON\n";
}

int runBench(const std::vector<std::string>& argv) {
  for (const auto& a : argv)
    if (a == "--pipeline") return runPipelineBench(argv);
  const Args args(argv,
                  {"--device", "--variants", "--masks", "--sizes", "--format", "--border", "--mask", "--runs",
                   "--warmup", "--csv", "--json", "--packets", "--workgroups"},
                  {"--verify", "--no-transfers", "--help"}, {{"-d", "--device"}, {"-h", "--help"}});
  if (args.has("--help")) {
    printBenchUsage();
    return kExitOk;
  }
  // A mask the user wrote is checked before a device is touched (a bad one is exit 2, not 3).
  std::vector<Mask> masks;
  if (args.has("--mask")) masks.push_back(parseMaskArgument(args.get("--mask")));
  const DeviceInfo info = selectDevice(args.get("--device"));
  auto ctx = DeviceContext::create(info);
  const bool gpu = info.kind == DeviceKind::GPU;

  std::vector<const VariantInfo*> variants;
  const std::string variantList = args.get("--variants", "all");
  // local_aligned needs padded rows: bench gives each variant the buffers it asks for.
  if (variantList == "all") {
    for (const auto& v : variantRegistry()) variants.push_back(&v);
  } else {
    for (const auto& name : splitList(variantList)) {
      const VariantInfo* v = findVariant(name);
      if (!v) throw UsageError("Unknown variant '" + name + "'; the variants are " + variantNames() + ".");
      variants.push_back(v);
    }
  }
  if (masks.empty()) {
    const std::string def = gpu ? "3,5,7,9,11,13,15,21,31" : "3,5,7,9,13";
    for (const auto& s : splitList(args.get("--masks", def))) {
      const Size2 m = parseSize(s, "mask size");
      Mask mask = benchMask(m.w, m.h);
      if (auto e = mask.validationError(); !e.empty()) throw UsageError(e);
      masks.push_back(mask);
    }
  }
  std::vector<Size2> sizes;
  for (const auto& s : splitList(args.get("--sizes", gpu ? "1920x1080,3840x2160" : "1280x720")))
    sizes.push_back(parseSize(s, "image size"));
  std::vector<PixelFormat> formats;
  const std::string fmt = args.get("--format", "rgba");
  if (fmt == "both") formats = {PixelFormat::RGBA8, PixelFormat::GRAY8};
  else if (PixelFormat f = parsePixelFormat(fmt); f != PixelFormat::Invalid) formats = {f};
  else throw UsageError("Unknown pixel format '" + fmt + "'; use rgba, gray or both.");
  const BorderMode border = parseBorderMode(args.get("--border", "clamp"));
  if (border == BorderMode::Invalid) throw UsageError("Unknown border mode; use clamp, mirror, wrap or zero.");
  std::vector<int> packets;  // 0: the variant's default
  for (const auto& s : splitList(args.get("--packets", "0"))) {
    const int n = std::atoi(s.c_str());
    if (s != "0" && n != 1 && n != 2 && n != 4 && n != 8 && n != 16 && n != 32)
      throw UsageError("Bad packet '" + s + "'; a packet is 1, 2, 4, 8, 16 or 32 outputs per work-item.");
    packets.push_back(n);
  }
  std::vector<WorkgroupShape> shapes;  // {0, 0}: the variant's default
  for (const auto& s : splitList(args.get("--workgroups", "0x0"))) {
    if (s == "0x0") {
      shapes.push_back({});
      continue;
    }
    const Size2 wg = parseSize(s, "workgroup shape");
    shapes.push_back({wg.w, wg.h});
  }
  const int runs = args.getInt("--runs", 10, 1, 100000);
  const int warmup = args.getInt("--warmup", 3, 0, 100000);
  const bool transfers = !args.has("--no-transfers");
  const bool verify = args.has("--verify");

  const double copyBytesPerSec = copyBandwidth(*ctx, runs);
  const double roundTripUs = launchRoundTripUs(*ctx, runs);
  const FmaLimit fma = fmaLimit(info);
  std::cout << "device: " << info.name << " (" << info.platformName << ", driver " << info.driverVersion << ", "
            << toString(info.kind) << ")\n"
            << std::fixed << std::setprecision(1) << "copy bandwidth (device to device, read+write, median of "
            << runs << "): " << copyBytesPerSec * 1e-9 << " GB/s\n"
            << "launch round trip (an empty kernel enqueued and waited for, median): " << roundTripUs << " us\n"
            << "FMA limit: " << fma.how << "\n"
            << "medians of " << runs << " runs after " << warmup << " warm-up; border " << toString(border)
            << "; %bw = kernel Mpix/s over copy bandwidth / (2 x bytes per pixel); %fma = kernel Mpix/s over FMA "
               "limit / (taps x channels; W+H taps for separable)\n\n";

  std::printf("%-13s %-5s %-10s %-6s %-8s %10s %10s %6s %6s %10s %10s %s\n", "variant", "fmt", "image", "mask", "wg",
              "kernel ms", "Mpix/s", "%bw", "%fma", "+xfer ms", "Mpix/s", verify ? "verify" : "");
  std::vector<Row> rows;
  int failures = 0;
  Convolver conv(ctx);
  for (PixelFormat format : formats) {
    for (const Size2& size : sizes) {
      const Image src = randomImage(size.w, size.h, format, 1234u);
      Image dst(size.w, size.h, format);
      DeviceImage dsrc = allocateDeviceImage(ctx->context, size.w, size.h, format, CL_MEM_READ_ONLY);
      DeviceImage ddst = allocateDeviceImage(ctx->context, size.w, size.h, format, CL_MEM_WRITE_ONLY);
      ctx->queue.enqueueWriteBuffer(dsrc.buffer, CL_TRUE, 0, src.sizeBytes(), src.data());
      DeviceImage paddedSrc, paddedDst;
      const double pixels = double(size.w) * size.h;
      for (const Mask& mask : masks) {
        Image want;
        if (verify) {
          want = Image(size.w, size.h, format);
          convolveReference(src.view(), want.view(), mask, border, AlphaMode::PassThrough);
        }
        for (const VariantInfo* v : variants)
        for (int packet : v->defaultPacket ? packets : std::vector<int>{0})
        for (WorkgroupShape shape : v->id == VariantId::Auto ? std::vector<WorkgroupShape>{{}} : shapes) {
          Row row;
          row.variant = v->name;
          row.format = toString(format);
          row.image = std::to_string(size.w) + "x" + std::to_string(size.h);
          row.mask = std::to_string(mask.width) + "x" + std::to_string(mask.height);
          try {
            FilterParams p;
            p.mask = mask;
            p.border = border;
            p.variant = v->id;
            p.packet = packet;
            p.workgroup = shape;
            conv.setParams(p);
            const ActiveKernel active = conv.activeKernel(format, size.w, size.h);
            row.workgroup = std::to_string(active.workgroup.x) + "x" + std::to_string(active.workgroup.y);
            if (active.packet > 1) row.workgroup += "/" + std::to_string(active.packet);
            if (active.columnWorkgroup.x > 0)  // separable: row pass + column pass
              row.workgroup += "+" + std::to_string(active.columnWorkgroup.x) + "x" +
                               std::to_string(active.columnWorkgroup.y) + "/" + std::to_string(active.columnPacket);
            if (v->id == VariantId::Auto) row.chosen = variantInfo(active.variant).name;
            // local_aligned wants padded rows: give each variant the buffers it asks for.
            const std::size_t pitch = conv.devicePitchBytes(format, size.w, size.h);
            if (pitch != dsrc.pitchBytes && pitch != paddedSrc.pitchBytes) {
              paddedSrc = allocateDeviceImage(ctx->context, size.w, size.h, format, CL_MEM_READ_ONLY, pitch);
              paddedDst = allocateDeviceImage(ctx->context, size.w, size.h, format, CL_MEM_WRITE_ONLY, pitch);
              const cl::array<cl::size_type, 3> origin{0, 0, 0};
              const cl::array<cl::size_type, 3> region{src.view().rowBytes(), static_cast<cl::size_type>(size.h), 1};
              ctx->queue.enqueueWriteBufferRect(paddedSrc.buffer, CL_TRUE, origin, origin, region, pitch, 0,
                                                src.view().rowBytes(), 0, src.data());
            }
            const DeviceImage& in = pitch == dsrc.pitchBytes ? dsrc : paddedSrc;
            const DeviceImage& out = pitch == dsrc.pitchBytes ? ddst : paddedDst;
            std::vector<double> kernelMs, wallMs;
            for (int r = 0; r < warmup + runs; ++r) {
              cl::Event first, done;
              conv.enqueue(in, out, nullptr, &done, &first);
              done.wait();
              if (r >= warmup) kernelMs.push_back(eventSpanMs(first, done));
            }
            row.kernelMs = median(kernelMs);
            row.kernelMpix = pixels / (row.kernelMs * 1e-3) * 1e-6;
            const int channels = bytesPerPixel(format);
            row.fracBandwidth = row.kernelMpix * 1e6 / (copyBytesPerSec / (2.0 * channels));
            // FMAs one output needs: taps x channels, or (W + H) x channels for a rank-1 variant's 1-D sums.
            const double taps = variantInfo(active.variant).needsSeparableMask ? double(mask.width + mask.height)
                                                                               : double(mask.width) * mask.height;
            row.fracFma = row.kernelMpix * 1e6 / (fma.fmaPerSecond / (taps * channels));
            if (transfers) {
              for (int r = 0; r < warmup + runs; ++r) {
                const FrameTimings t = conv.process(src.view(), dst.view());
                if (r >= warmup) wallMs.push_back(t.wallMs);
              }
              row.transferMs = median(wallMs);
              row.transferMpix = pixels / (row.transferMs * 1e-3) * 1e-6;
            }
            if (verify) {
              conv.process(src.view(), dst.view());
              const int tol = mask.isIntegerValued() ? 0 : 1;
              if (auto mm = compareImages(dst.view(), want.view(), tol)) {
                row.verify = "FAIL " + mm->toString();
                ++failures;
              } else {
                row.verify = tol ? "ok(1lsb)" : "ok(exact)";
              }
            }
          } catch (const BuildError& e) {
            row.error = e.what();
            row.buildLog = e.buildLog();
            ++failures;
          } catch (const Error& e) {
            row.error = e.what();
          }
          if (!row.error.empty()) {
            std::printf("%-13s %-5s %-10s %-6s  skipped: %s\n", row.variant.c_str(), row.format.c_str(),
                        row.image.c_str(), row.mask.c_str(), row.error.c_str());
            if (!row.buildLog.empty()) std::printf("%s\n", row.buildLog.c_str());
          } else {
            std::printf("%-13s %-5s %-10s %-6s %-8s %10.4f %10.1f %5.1f%% %5.1f%% ", row.variant.c_str(),
                        row.format.c_str(), row.image.c_str(), row.mask.c_str(), row.workgroup.c_str(), row.kernelMs,
                        row.kernelMpix, 100 * row.fracBandwidth, 100 * row.fracFma);
            if (transfers) std::printf("%10.3f %10.1f ", row.transferMs, row.transferMpix);
            else std::printf("%10s %10s ", "-", "-");
            std::printf("%s%s\n", row.verify.c_str(), row.chosen.empty() ? "" : (" -> " + row.chosen).c_str());
          }
          std::fflush(stdout);
          rows.push_back(row);
        }
      }
    }
  }

  auto jsonEscape = [](const std::string& s) {
    std::string o;
    for (char c : s) {
      if (c == '"' || c == '\\') o += '\\', o += c;
      else if (c == '\n') o += "\\n";
      else if (static_cast<unsigned char>(c) >= 0x20) o += c;
    }
    return o;
  };
  if (args.has("--csv")) {
    std::ofstream out(args.get("--csv"));
    if (!out) throw Error("Cannot write " + args.get("--csv") + ".");
    out << "device,driver,variant,format,image,mask,workgroup,kernel_ms,kernel_mpix_s,frac_bandwidth,frac_fma,"
           "transfer_ms,transfer_mpix_s,verify,error\n";
    for (const Row& r : rows)
      out << '"' << info.name << "\",\"" << info.driverVersion << "\"," << r.variant << ',' << r.format << ','
          << r.image << ',' << r.mask << ',' << r.workgroup << ',' << r.kernelMs << ',' << r.kernelMpix << ','
          << r.fracBandwidth << ',' << r.fracFma << ',' << r.transferMs << ',' << r.transferMpix << ",\""
          << r.verify << "\",\"" << jsonEscape(r.error) << "\"\n";
  }
  if (args.has("--json")) {
    std::ofstream out(args.get("--json"));
    if (!out) throw Error("Cannot write " + args.get("--json") + ".");
    out << "{\n  \"device\": \"" << jsonEscape(info.name) << "\",\n  \"platform\": \"" << jsonEscape(info.platformName)
        << "\",\n  \"driver\": \"" << jsonEscape(info.driverVersion) << "\",\n  \"copy_bandwidth_gb_s\": "
        << copyBytesPerSec * 1e-9 << ",\n  \"fma_limit\": \"" << jsonEscape(fma.how) << "\",\n  \"runs\": " << runs
        << ",\n  \"results\": [\n";
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const Row& r = rows[k];
      out << "    {\"variant\": \"" << r.variant << "\", \"format\": \"" << r.format << "\", \"image\": \"" << r.image
          << "\", \"mask\": \"" << r.mask << "\", \"workgroup\": \"" << r.workgroup << "\", \"kernel_ms\": "
          << r.kernelMs << ", \"kernel_mpix_s\": " << r.kernelMpix << ", \"frac_bandwidth\": " << r.fracBandwidth
          << ", \"frac_fma\": " << r.fracFma << ", \"transfer_ms\": " << r.transferMs
          << ", \"transfer_mpix_s\": " << r.transferMpix << ", \"chosen\": \"" << r.chosen
          << "\", \"verify\": \"" << jsonEscape(r.verify)
          << "\", \"error\": \"" << jsonEscape(r.error) << "\", \"build_log\": \"" << jsonEscape(r.buildLog) << "\"}" << (k + 1 < rows.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
  }
  if (failures) {
    std::cerr << failures << " result(s) failed verification or did not build.\n";
    return kExitVerifyFailed;
  }
  return kExitOk;
}

}  // namespace liveconv::app
