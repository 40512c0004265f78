// The reference sweep: every registered variant against the CPU reference,
// RGBA8 and GRAY8 at every border mode, RGBA16 and GRAY16 at two (below).
// Tolerance: Mask::toleranceLsb(), exact (0 LSB) for integer masks with an
// integer divisor whose sums stay below 2^24, else 1 LSB. Integer masks come
// with negative taps and with positive taps only (the row kernels sum these
// in signed and unsigned 16-bit lanes where the sums fit).
//
// Most of a case's time is the OpenCL compiler (77-97 % on PoCL): the border,
// the format, the mask's size (and, for the baked variants, its taps) are build
// options, so every mask size at every border is a program of its own. The
// masks and frames are therefore chosen by the code paths they reach, not
// enumerated, and the product is split in two:
//  - at the zero border (the one border with code of its own in the kernels:
//    rows and pixels outside read as zero and are skipped), every mask size and
//    frame below: every size-dependent path of every kernel;
//  - at clamp, mirror and wrap (which differ from each other only in
//    common.cl's border_index, the same for any taps), the two border masks
//    with integer taps on the frames that reach the border rules: coordinates
//    one and several periods outside the frame.
// The second implementation (rusticl, tests/CMakeLists.txt) runs the zero and
// clamp cases of every variant but the two row kernels built per mask. It is
// there for what differs between drivers (the compiler, vector widths, local
// memory and barriers, the work-group sizes a device takes), not for the
// index arithmetic of each mask size, which is the same source on every
// driver and which PoCL's sweep proves: at the zero border it runs the sizes
// at which a kernel changes its shape (1x1, 3x7, 7x7, 9x9, 31x31; see below)
// and leaves out 3x3, 5x5, 7x1 (a halo's width and offset in words) and
// 15x15 (a GPU build's unroll limit; llvmpipe is a CPU device). Each of its
// programs costs 0.5-2 s of llvmpipe's compiler.
//
// The taps (each a mask of its own; a baked variant builds a program per mask):
//  integer   (negative taps too) every case: exact results, and zero taps,
//            which the baked variants drop at compile time.
//  float     (a divisor and a bias, within 1 LSB) at the zero border, every size
//            but 1x1; on `baked` only at 5x5 and 3x7: its float taps are
//            literals in the same code at every size (the size's paths are the
//            integer mask's). rows_baked keeps every size: its sums are floats,
//            or 16-bit integers where they fit (rows.cl, INT_ACC), by size and taps.
//  positive  (a blur's) at the zero border up to 49 taps, on rows_baked only:
//            the one kernel with code of its own for them, unsigned 16-bit sums;
//            on a bright frame, where the 5x5's sums pass the signed range.
//
// Why each mask size is here (packet.cl, local.cl, rows.cl):
//  1x1   no halo: every kernel's degenerate window (radius 0, one tap).
//  3x3   the smallest halo, one pixel a side.
//  5x5   radius 2: packet.cl rounds its left halo up to a whole 4-pixel word,
//        leaving a window offset of 2 (RX % 4 == 2).
//  7x7   radius 3 (RX % 4 == 3); the tallest mask a CPU build unrolls
//        completely (UNROLL_ROWS 7); unroll4's remainder of 3 taps.
//  9x9   radius 4: a halo of exactly one word (RX % 4 == 0); the first mask a
//        CPU build keeps as a row loop; unroll4's remainder of 1 after two
//        blocks; the row kernels' window spans a further 16-value vector.
//  15x15 a GPU build's unroll limit (15 rows); radius 7, larger than the 5x3
//        frame in both directions.
//  31x31 a halo (15) wider than half the 16-wide tile: staging loops over
//        the tile several times; larger than the 17x13 frame.
//  3x7   taller than wide: the two radii differ, so a swapped x and y shows.
//  7x1   one row: no vertical halo, a horizontal one of 3.
// 16 bits: what differs from 8 is the element type, so only the loads, the
// stores and the conversions (common.cl's `sample`): the whole-word and the
// per-pixel staging of packet.cl, local_vec4's vector loads, the row
// kernels' vectors and tails, the image's channel type, the alpha copy, the
// saturation at 65535. The mask-size paths are the same code as at 8 bits,
// so RGBA16 and GRAY16 run two sizes, 5x5 (packet.cl's window offset of 2)
// and 3x7 (radii that differ), at the zero border, and 3x7 at clamp (the
// border rules are index arithmetic, the same at every depth): every kernel
// and every load and store path at a fifth of the 8-bit sweep's programs.
//
// Border masks: 3x7 (radii 1 and 3) and 15x15 (radius 7: on the 1x1 and 5x3
// frames the border rule maps coordinates several periods away). Both are
// sizes other tests build at clamp too (bench's --masks 3x7 and 15 in
// test_cli.cpp and README.md): a program two tests need is built once a run,
// so a mask chosen apart from theirs would cost its compiles twice.
//
// scripts/sweep-mutations.py checks that the sweep fails on each kind of
// broken kernel it is there for (a border rule, a tile edge, an unroll
// remainder, a vector tail, a packet's rows, 16-bit sums): run it after
// changing the masks or frames below, or a kernel.
//
// Why each frame size is here:
//  1x1      smaller than every mask but 1x1: every tap is a border tap.
//  5x3      narrower than a packet block (4 across) plus its halo, and than
//           one 16-value vector of the row kernels in GRAY8.
//  17x13    one column and row past a 16x16 (and 16x8) workgroup tile: the
//           last workgroup is almost empty; not a multiple of 4 pixels.
//  64x64    an exact multiple of every tile, block and vector: the right and
//           bottom halos begin exactly at a workgroup's edge.
//  333x201  odd, several workgroups each way, the row kernels' chunks end
//           mid-vector at the row's end.
//  1280x720 (zero border, masks up to 49 taps) many workgroups; RGBA rows
//           larger than the caches, the row kernels' streaming stores.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

#include "liveconv/autotune.hpp"
#include "liveconv/compare.hpp"
#include "liveconv/convolver.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/kernel_sources.hpp"
#include "liveconv/reference.hpp"
#include "test_support.hpp"

namespace liveconv {
namespace {

struct Size2 {
  int w, h;
};
const std::vector<Size2> kMaskSizes = {{1, 1}, {3, 3}, {5, 5}, {7, 7}, {9, 9}, {15, 15}, {31, 31}, {3, 7}, {7, 1}};
const std::vector<Size2> kImageSizes = {{1, 1}, {5, 3}, {17, 13}, {64, 64}, {333, 201}, {1280, 720}};
const std::vector<Size2> kSecondImplementationMaskSizes = {{1, 1}, {7, 7}, {9, 9}, {31, 31}, {3, 7}};
const std::vector<Size2> kBorderMaskSizes = {{3, 7}, {15, 15}};
const std::vector<Size2> kBorderImageSizes = {{1, 1}, {5, 3}, {17, 13}, {64, 64}, {333, 201}};
const std::vector<Size2> kWideMaskSizes = {{5, 5}, {3, 7}};
const std::vector<Size2> kWideBorderMaskSizes = {{3, 7}};
const std::vector<BorderMode> kWideBorders = {BorderMode::Zero, BorderMode::Clamp};
// The border at which every mask size and frame runs (see above).
constexpr BorderMode kEveryPathBorder = BorderMode::Zero;

using SweepParam = std::tuple<std::string, PixelFormat, BorderMode>;

class VariantSweep : public ::testing::TestWithParam<SweepParam> {};

// The frame with every value moved into 240..255 (the same picture, brighter).
Image brightened(const Image& src) {
  Image out = src;
  for (std::size_t k = 0; k < out.sizeBytes(); ++k) out.data()[k] = static_cast<std::uint8_t>(240 + out.data()[k] / 16);
  return out;
}

// Runs one case; returns an empty string or the failure text with the first mismatch.
std::string runCase(Convolver& conv, const VariantInfo& v, const Mask& mask, const Image& src, BorderMode border,
                    AlphaMode alpha) {
  FilterParams p;
  p.mask = mask;
  p.border = border;
  p.alpha = alpha;
  p.variant = v.id;
  conv.setParams(p);
  Image got(src.width(), src.height(), src.format()), want(src.width(), src.height(), src.format());
  conv.process(src.view(), got.view());
  convolveReference(src.view(), want.view(), mask, border, alpha);
  const int tolerance = mask.toleranceLsb(maxSampleValue(src.format()));
  if (auto mm = compareImages(got.view(), want.view(), tolerance)) {
    std::ostringstream out;
    out << v.name << " " << toString(src.format()) << " border " << toString(border) << " mask " << mask.width
        << "x" << mask.height << " image " << src.width() << "x" << src.height() << " (tolerance " << tolerance
        << " LSB): " << mm->toString();
    return out.str();
  }
  return {};
}

TEST_P(VariantSweep, MatchesReference) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const auto& [name, format, border] = GetParam();
  const VariantInfo* v = findVariant(name);
  ASSERT_NE(v, nullptr);
  // The row `user` runs the docs' worked example (docs/examples/skip_zero_taps.cl).
  if (v->id == VariantId::User) test::loadExampleUserKernel();
  Convolver conv(ctx);
  int cases = 0;
  unsigned seed = 1;
  const bool everyPath = border == kEveryPathBorder;
  const bool wide = bytesPerSample(format) == 2;
  const std::vector<Size2>& images = everyPath ? kImageSizes : kBorderImageSizes;
  const std::vector<Size2>& maskSizes = wide         ? (everyPath ? kWideMaskSizes : kWideBorderMaskSizes)
                                        : !everyPath ? kBorderMaskSizes
                                        : test::testImplementation().empty() ? kMaskSizes
                                                                             : kSecondImplementationMaskSizes;
  for (const Size2& is : images) {
    const Image src = randomImage(is.w, is.h, format, seed++);
    for (const Size2& ms : maskSizes) {
      if (is.w * is.h > 100000 && ms.w * ms.h > 49) continue;  // large image: small masks only
      const bool rank1 = v->needsSeparableMask, small = is.w * is.h <= 100000;
      const bool baked = v->binding == MaskBinding::Baked;
      std::vector<Mask> masks = {rank1 ? test::separableIntegerMask(ms.w, ms.h) : test::integerMask(ms.w, ms.h)};
      const bool floatTaps = everyPath && ms.w * ms.h > 1 && small &&
                             (!baked || v->wholeRows || (ms.w == 5 && ms.h == 5) || (ms.w == 3 && ms.h == 7));
      if (floatTaps)
        // Seeded by the mask size only: the same mask on every image, so `baked` builds one program per mask.
        masks.push_back(rank1 ? test::separableFloatMask(ms.w, ms.h, ms.w * 100 + ms.h)
                              : test::floatMask(ms.w, ms.h, ms.w * 100 + ms.h));
      // Positive taps: rows_baked's unsigned 16-bit sums (the integer mask has negative taps: signed ones).
      const bool positiveTaps =
          !wide && everyPath && baked && v->wholeRows && ms.w * ms.h > 1 && ms.w * ms.h <= 49 && small;
      if (positiveTaps) masks.push_back(benchMask(ms.w, ms.h));
      for (const Mask& mask : masks) {
        // On a bright frame (240..255): the 5x5 blur's sums (its taps add up
        // to 135) then pass 32767, where signed 16-bit lanes would wrap.
        const bool bright = positiveTaps && &mask == &masks.back();
        std::string failure;
        try {
          failure = runCase(conv, *v, mask, bright ? brightened(src) : src, border, AlphaMode::PassThrough);
        } catch (const UnsupportedError& e) {
          continue;  // the variant declares it cannot run this (e.g. local memory); tested in Constraints
        }
        ASSERT_TRUE(failure.empty()) << failure;
        ++cases;
      }
    }
  }
  EXPECT_GT(cases, 0);
  std::cout << "[          ] " << name << " " << toString(format) << " " << toString(border) << ": " << cases
            << " cases match the reference\n";
}

std::vector<SweepParam> allSweepParams() {
  std::vector<SweepParam> params;
  for (const auto& v : variantRegistry())
    if (v.id != VariantId::Auto)  // auto picks among the others; tested in test_autotune.cpp
      for (PixelFormat f : allPixelFormats())
        for (BorderMode b : bytesPerSample(f) == 2 ? kWideBorders : allBorderModes()) params.emplace_back(v.name, f, b);
  return params;
}

INSTANTIATE_TEST_SUITE_P(All, VariantSweep, ::testing::ValuesIn(allSweepParams()),
                         [](const ::testing::TestParamInfo<SweepParam>& info) {
                           return std::get<0>(info.param) + "_" + toString(std::get<1>(info.param)) + "_" +
                                  toString(std::get<2>(info.param));
                         });

// A CPU device filters the caller's frames where they are (no upload, no
// readback copy) when they are aligned, and copies when they are not; both
// give the reference's result.
TEST(Variants, ACpuDeviceFiltersHostFramesInPlaceAndExactly) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  if (ctx->info.kind != DeviceKind::CPU) GTEST_SKIP() << "the device is not a CPU device: " << ctx->info.name;
  Convolver conv(ctx);
  FilterParams p;
  p.variant = VariantId::Local;
  p.mask = test::integerMask(5, 3);
  conv.setParams(p);
  const Image src = randomImage(203, 61, PixelFormat::RGBA8, 5);
  Image want(203, 61, PixelFormat::RGBA8), got(203, 61, PixelFormat::RGBA8);
  convolveReference(src.view(), want.view(), p.mask, p.border, p.alpha);
  const FrameTimings wrapped = conv.process(src.view(), got.view());
  EXPECT_TRUE(wrapped.hostFramesWrapped) << "Image's pixels are page-aligned; the CPU device should use them in place";
  const auto m = compareImages(got.view(), want.view(), 0);
  EXPECT_FALSE(m) << m->toString();

  // The same frames one byte off their alignment: copied, and still exact.
  std::vector<std::uint8_t> inBytes(src.sizeBytes() + 1), outBytes(src.sizeBytes() + 1);
  std::copy_n(src.data(), src.sizeBytes(), inBytes.data() + 1);
  ImageView in = src.view(), out = got.view();
  in.data = inBytes.data() + 1;
  out.data = outBytes.data() + 1;
  const FrameTimings copied = conv.process(in, out);
  EXPECT_FALSE(copied.hostFramesWrapped);
  Image back(203, 61, PixelFormat::RGBA8);
  std::copy_n(outBytes.data() + 1, back.sizeBytes(), back.data());
  const auto m2 = compareImages(back.view(), want.view(), 0);
  EXPECT_FALSE(m2) << m2->toString();
}

TEST(Variants, FilterAlphaModeFiltersAlpha) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  test::loadExampleUserKernel();  // the row `user`
  Convolver conv(ctx);
  const Image src = randomImage(37, 29, PixelFormat::RGBA8, 99);
  // One border: filtering alpha adds a fourth plane to the same loops, and the
  // zero border is the one with code of its own (outside pixels staged as zero
  // in every plane); the sweep runs the borders themselves.
  for (const auto& v : variantRegistry()) {
    if (v.id == VariantId::Auto) continue;
    const Mask mask = v.needsSeparableMask ? test::separableIntegerMask(5, 3) : test::integerMask(5, 3);
    const BorderMode border = test::testImplementation().empty() ? BorderMode::Zero : BorderMode::Clamp;
    const std::string failure = runCase(conv, v, mask, src, border, AlphaMode::Filter);
    EXPECT_TRUE(failure.empty()) << failure;
  }
}

// The sweep runs each variant's default packet; this runs every packet (1 to 32
// outputs per work-item: 1x1, 2x1, 4x1, 4x2, 4x4, 4x8) of the packet kernel
// (multi_pixel, and separable's two passes) and a second workgroup shape, with
// masks on both sides of the unrolling limit (7 rows on a CPU, 15 on a GPU)
// and images narrower than a block of 4. `baked` is the same kernel with
// literal coefficients: the sweep covers it. The formats take turns by
// packet: a block's arithmetic (BX across, PY down, its window's words) is
// the same for one plane and for three, and the sweep runs both formats.
TEST(Variants, EveryPacketAndShapeMatchesReference) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  Convolver conv(ctx);
  const Size2 masks[] = {{1, 1}, {3, 7}, {9, 9}};
  const Size2 images[] = {{3, 2}, {67, 45}};
  struct Config {
    int packet;
    WorkgroupShape wg;
  };
  const Config configs[] = {{1, {}}, {2, {}}, {4, {}}, {8, {}}, {8, {8, 4}}, {16, {}}, {32, {}}};
  int cases = 0;
  for (VariantId id : {VariantId::MultiPixel, VariantId::Separable}) {
    const VariantInfo& v = variantInfo(id);
    for (const Size2& ms : masks) {
      const Mask mask = v.needsSeparableMask ? test::separableIntegerMask(ms.w, ms.h) : test::integerMask(ms.w, ms.h);
      for (std::size_t k = 0; k < std::size(configs); ++k) {
        const Config& c = configs[k];
        const PixelFormat f = k % 2 ? PixelFormat::GRAY8 : PixelFormat::RGBA8;
        const BorderMode border = c.packet % 4 ? BorderMode::Mirror : BorderMode::Zero;
        FilterParams p;
        p.mask = mask;
        p.border = border;
        p.variant = v.id;
        p.packet = c.packet;
        p.workgroup = c.wg;
        conv.setParams(p);
        for (const Size2& is : images) {
          const Image src = randomImage(is.w, is.h, f, 40u + is.w);
          Image got(is.w, is.h, f), want(is.w, is.h, f);
          conv.process(src.view(), got.view());
          convolveReference(src.view(), want.view(), mask, border, AlphaMode::PassThrough);
          const auto mm = compareImages(got.view(), want.view(), 0);
          ASSERT_FALSE(mm.has_value()) << v.name << " packet " << c.packet << " workgroup " << c.wg.x << "x"
                                       << c.wg.y << " " << toString(f) << " border " << toString(border) << " mask "
                                       << ms.w << "x" << ms.h << " image " << is.w << "x" << is.h
                                       << " (exact): " << mm->toString();
          ++cases;
        }
      }
    }
  }
  std::cout << "[          ] " << cases << " packet/shape cases match the reference\n";
}

// separable's column pass runs its own tall shape (kColumnPassWorkgroupX x
// kColumnPassWorkgroupY, kColumnPassPacket outputs), shrunk on its own until
// it fits. A device that reports less local memory than the default needs
// (the same device, told 8 KiB) makes both passes shrink; the result must
// still be the reference, with every alpha mode.
TEST(Variants, SeparableColumnPassHasItsOwnShapeAndShrinksToFit) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const Mask mask = test::separableIntegerMask(9, 31);
  {
    Convolver conv(ctx);
    FilterParams p;
    p.mask = mask;
    p.variant = VariantId::Separable;
    conv.setParams(p);
    const ActiveKernel a = conv.activeKernel(PixelFormat::RGBA8, 64, 48);
    if (columnPassLocalBytes(kColumnPassWorkgroupX, kColumnPassWorkgroupY, kColumnPassPacket, 31, 4, false) <=
        ctx->info.localMemBytes) {
      EXPECT_EQ(a.columnWorkgroup, (WorkgroupShape{kColumnPassWorkgroupX, kColumnPassWorkgroupY}));
    }
    EXPECT_EQ(a.columnPacket, kColumnPassPacket);
  }
  auto small = std::make_shared<DeviceContext>(*ctx);
  small->info.localMemBytes = 8 * 1024;
  Convolver conv(small);
  for (AlphaMode alpha : {AlphaMode::PassThrough, AlphaMode::Filter}) {
    for (PixelFormat f : {PixelFormat::RGBA8, PixelFormat::GRAY8}) {
      const Image src = randomImage(71, 53, f, 7);
      const std::string failure = runCase(conv, variantInfo(VariantId::Separable), mask, src, BorderMode::Mirror, alpha);
      EXPECT_TRUE(failure.empty()) << failure;
      const ActiveKernel a = conv.activeKernel(f, 71, 53);
      const int bpp = bytesPerPixel(f);
      const bool filterAlpha = alpha == AlphaMode::Filter;
      EXPECT_LE(columnPassLocalBytes(a.columnWorkgroup.x, a.columnWorkgroup.y, a.columnPacket, 31, bpp, filterAlpha),
                small->info.localMemBytes);
      EXPECT_LT(a.columnWorkgroup.x * a.columnWorkgroup.y, kColumnPassWorkgroupX * kColumnPassWorkgroupY)
          << toString(f) << ": the column pass did not shrink for 8 KiB";
      EXPECT_LE(localMemoryBytes(variantInfo(VariantId::Separable), a.workgroup.x, a.workgroup.y, a.packet, 9, 31, bpp,
                                 filterAlpha),
                small->info.localMemBytes);
    }
  }
}

// The CPU row kernels keep a private window as wide as the mask: the largest
// masks (63 wide or high, square or not) on frames smaller than them and on
// frames whose rows end mid-vector, both formats; every border for the
// 63x63 window, and the zero border (its own code) and wrap for the other two.
TEST(Variants, RowKernelsTakeTheLargestMasks) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  Convolver conv(ctx);
  int cases = 0;
  for (const VariantInfo& v : variantRegistry()) {
    if (!v.wholeRows) continue;
    for (PixelFormat format : {PixelFormat::RGBA8, PixelFormat::GRAY8}) {
      for (const Size2& is : {Size2{17, 13}, Size2{70, 64}}) {
        const Image src = randomImage(is.w, is.h, format, 5);
        for (const Size2& ms : {Size2{63, 63}, Size2{1, 63}, Size2{63, 5}}) {
          const Mask mask = v.needsSeparableMask ? test::separableIntegerMask(ms.w, ms.h) : test::integerMask(ms.w, ms.h);
          const std::vector<BorderMode> borders =
              ms.w == ms.h ? allBorderModes() : std::vector<BorderMode>{BorderMode::Zero, BorderMode::Wrap};
          for (BorderMode border : borders) {
            const std::string failure = runCase(conv, v, mask, src, border, AlphaMode::PassThrough);
            ASSERT_TRUE(failure.empty()) << failure;
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 3 * 2 * 2 * (4 + 2 + 2));
}

// `rows` takes the mask at run time: one program per format serves every mask
// size, 1x1 to 63x63, square or not, on frames smaller than the mask too, with
// the results of the reference. (auto's stopgap on a CPU: a new size needs no compile.)
TEST(Variants, TheRowKernelServesEveryMaskSizeWithOneProgram) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  ASSERT_EQ(variantInfo(VariantId::Rows).binding, MaskBinding::Runtime);
  auto cache = std::make_shared<ProgramCache>();
  Convolver conv(ctx, cache);
  const VariantInfo& rows = variantInfo(VariantId::Rows);
  for (PixelFormat format : {PixelFormat::RGBA8, PixelFormat::GRAY8}) {
    const Image src = randomImage(45, 31, format, 9);
    ASSERT_TRUE(runCase(conv, rows, test::integerMask(3, 3), src, BorderMode::Mirror, AlphaMode::PassThrough).empty());
    const int built = cache->buildCount();
    for (const Size2& ms : {Size2{1, 1}, Size2{5, 9}, Size2{17, 3}, Size2{63, 63}, Size2{1, 63}}) {
      const std::string failure =
          runCase(conv, rows, test::integerMask(ms.w, ms.h), src, BorderMode::Mirror, AlphaMode::PassThrough);
      EXPECT_TRUE(failure.empty()) << failure;
    }
    EXPECT_EQ(cache->buildCount(), built) << "a new mask size compiled `rows` again";
  }
}

// A frame whose input and output fill more than half the device's caches is
// written with streaming stores; rows 2051 values long start at every
// alignment, so both store paths run.
TEST(Variants, RowKernelsWriteFramesLargerThanTheCachesExactly) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  Convolver conv(ctx);
  const int width = 2051;
  const std::uint64_t half = std::max<std::uint64_t>(ctx->info.globalCacheBytes / 2, 1);
  const int height = static_cast<int>(std::min<std::uint64_t>(half / (2 * width) + 2, 16384));
  const Image src = randomImage(width, height, PixelFormat::GRAY8, 9);
  const std::string failure = runCase(conv, variantInfo(VariantId::Rows), test::integerMask(3, 3), src,
                                      BorderMode::Mirror, AlphaMode::PassThrough);
  EXPECT_TRUE(failure.empty()) << failure;
}

TEST(Variants, RegistryIsWellFormed) {
  std::map<std::string, int> names;
  for (const auto& v : variantRegistry()) {
    EXPECT_NE(v.id, VariantId::Invalid);
    EXPECT_FALSE(std::string(v.description).empty()) << v.name;
    EXPECT_EQ(++names[v.name], 1) << "duplicate variant name " << v.name;
    EXPECT_EQ(findVariant(v.name), &v);
    EXPECT_EQ(&variantInfo(v.id), &v);
  }
  EXPECT_EQ(findVariant("no-such-variant"), nullptr);
}

TEST(Variants, ProgramsAreCachedPerParameterSet) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  auto cache = std::make_shared<ProgramCache>();
  Convolver conv(ctx, cache);
  const Image src = randomImage(20, 20, PixelFormat::GRAY8, 5);
  Image dst(20, 20, PixelFormat::GRAY8);
  FilterParams p;
  p.mask = test::integerMask(3, 3);
  p.variant = VariantId::Local;
  conv.setParams(p);
  conv.process(src.view(), dst.view());
  const int afterFirst = cache->buildCount();
  p.mask = test::integerMask(5, 5);  // runtime mask size: same program
  conv.setParams(p);
  conv.process(src.view(), dst.view());
  EXPECT_EQ(cache->buildCount(), afterFirst);
  p.variant = VariantId::Unrolled;  // size compiled in: one program per size
  conv.setParams(p);
  conv.process(src.view(), dst.view());
  p.mask = test::integerMask(7, 7);
  conv.setParams(p);
  conv.process(src.view(), dst.view());
  EXPECT_EQ(cache->buildCount(), afterFirst + 2);
  p.mask = test::integerMask(5, 5);
  conv.setParams(p);
  conv.process(src.view(), dst.view());
  EXPECT_EQ(cache->buildCount(), afterFirst + 2);
}

TEST(Variants, OversizedWorkgroupIsRejectedWithASentence) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  Convolver conv(ctx);
  FilterParams p;
  p.variant = VariantId::Local;
  p.mask = test::integerMask(3, 3);
  p.workgroup = {4096, 4096};
  conv.setParams(p);
  try {
    conv.prepare(PixelFormat::RGBA8);
    FAIL() << "a 4096x4096 workgroup was accepted";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("Workgroup 4096x4096 does not fit"), std::string::npos) << e.what();
  }
}

TEST(Variants, ChosenWorkgroupShapeIsUsed) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  Convolver conv(ctx);
  FilterParams p;
  p.variant = VariantId::Local;
  p.mask = test::integerMask(5, 5);
  p.workgroup = {8, 4};
  conv.setParams(p);
  const WorkgroupShape wg = conv.activeKernel(PixelFormat::GRAY8, 45, 23).workgroup;
  EXPECT_EQ(wg.x, 8);
  EXPECT_EQ(wg.y, 4);
  const Image src = randomImage(45, 23, PixelFormat::GRAY8, 8);
  EXPECT_EQ(runCase(conv, variantInfo(VariantId::Local), p.mask, src, BorderMode::Mirror, AlphaMode::PassThrough), "");
}

TEST(Variants, DeviceResidentEnqueueMatchesHostPath) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  Convolver conv(ctx);
  FilterParams p;
  p.variant = VariantId::Local;
  p.mask = test::integerMask(7, 7);
  conv.setParams(p);
  const Image src = randomImage(100, 50, PixelFormat::RGBA8, 3);
  Image viaHost(100, 50, PixelFormat::RGBA8), viaDevice(100, 50, PixelFormat::RGBA8);
  conv.process(src.view(), viaHost.view());
  DeviceImage din = allocateDeviceImage(ctx->context, 100, 50, PixelFormat::RGBA8);
  DeviceImage dout = allocateDeviceImage(ctx->context, 100, 50, PixelFormat::RGBA8);
  cl::Event written, done;
  ctx->queue.enqueueWriteBuffer(din.buffer, CL_FALSE, 0, src.sizeBytes(), src.data(), nullptr, &written);
  std::vector<cl::Event> wait{written};
  conv.enqueue(din, dout, &wait, &done);
  std::vector<cl::Event> waitDone{done};
  ctx->queue.enqueueReadBuffer(dout.buffer, CL_TRUE, 0, viaDevice.sizeBytes(), viaDevice.data(), &waitDone);
  EXPECT_FALSE(compareImages(viaDevice.view(), viaHost.view(), 0).has_value());
  EXPECT_GT(eventMs(done), 0.0);
}

TEST(Variants, StridedHostImagesUseRectCopies) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  Convolver conv(ctx);
  FilterParams p;
  p.variant = VariantId::Naive;
  p.mask = test::integerMask(3, 5);
  conv.setParams(p);
  const Image packed = randomImage(30, 20, PixelFormat::RGBA8, 11);
  // The same pixels in rows of 160 bytes (40 pixels) instead of 120.
  std::vector<std::uint8_t> wideIn(160 * 20, 7), wideOut(160 * 20, 0);
  for (int y = 0; y < 20; ++y) std::copy_n(packed.data() + y * 120, 120, wideIn.data() + y * 160);
  ImageView in{wideIn.data(), 30, 20, 160, PixelFormat::RGBA8}, out{wideOut.data(), 30, 20, 160, PixelFormat::RGBA8};
  conv.process(in, out);
  Image want(30, 20, PixelFormat::RGBA8);
  convolveReference(packed.view(), want.view(), p.mask, p.border, p.alpha);
  EXPECT_FALSE(compareImages(out, want.view(), 0).has_value());
  EXPECT_EQ(wideOut[125], 0) << "bytes between rows were written";
}

// The registry's argument layout (kernelPasses) is what the kernels declare:
// as many arguments, each in the address space its meaning needs. The host
// code sets arguments only from this layout, so a kernel whose signature
// drifted from it fails here, not as a wrong picture.
TEST(VariantRegistry, EveryPassesArgumentsAreWhatItsKernelDeclares) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  test::loadExampleUserKernel();  // the row `user`: the signature docs/variants.md gives
  std::set<std::string> compiled;
  for (const VariantInfo& v : variantRegistry()) {
    if (v.id == VariantId::Auto) continue;
    for (const KernelPass& pass : kernelPasses(v)) {
      SCOPED_TRACE(std::string(v.name) + " " + pass.entry + " " + pass.defines);
      const std::string options = "-cl-kernel-arg-info -D CHANNELS=4 -D BORDER=1 -D FILTER_ALPHA=1 -D LX=8 -D LY=8 "
                                  "-D PX=4 -D MASK_W=3 -D MASK_H=3 -D UNROLL_ROWS=7 " + pass.defines;
      if (!compiled.insert(std::string(v.sourceFile) + pass.entry + options).second) continue;
      const std::string own = v.id == VariantId::User ? userKernel().text : kernelSource(v.sourceFile);
      cl::Program program(ctx->context, kernelSource("common.cl") + "\n" + own);
      try {
        program.build({ctx->info.device}, options.c_str());
      } catch (const cl::Error&) {
        FAIL() << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(ctx->info.device);
      }
      cl::Kernel k(program, pass.entry);
      ASSERT_EQ(k.getInfo<CL_KERNEL_NUM_ARGS>(), pass.args.size());
      for (std::size_t a = 0; a < pass.args.size(); ++a) {
        const auto space = k.getArgInfo<CL_KERNEL_ARG_ADDRESS_QUALIFIER>(static_cast<cl_uint>(a));
        const std::string type = k.getArgInfo<CL_KERNEL_ARG_TYPE_NAME>(static_cast<cl_uint>(a));
        switch (pass.args[a]) {
          case KernelArg::In:
            if (pass.in == PassData::Image) EXPECT_NE(type.find("image2d_t"), std::string::npos) << "argument " << a;
            else EXPECT_EQ(space, static_cast<cl_uint>(CL_KERNEL_ARG_ADDRESS_GLOBAL)) << "argument " << a;
            break;
          case KernelArg::Out:
          case KernelArg::Frame: EXPECT_EQ(space, static_cast<cl_uint>(CL_KERNEL_ARG_ADDRESS_GLOBAL)) << "argument " << a; break;
          case KernelArg::Taps:
          case KernelArg::ColumnTaps:
            EXPECT_EQ(space, static_cast<cl_uint>(CL_KERNEL_ARG_ADDRESS_CONSTANT)) << "argument " << a;
            break;
          case KernelArg::LocalTile: EXPECT_EQ(space, static_cast<cl_uint>(CL_KERNEL_ARG_ADDRESS_LOCAL)) << "argument " << a; break;
          case KernelArg::Scale:
          case KernelArg::Offset: EXPECT_EQ(type, "float") << "argument " << a; break;
          default: EXPECT_EQ(type, "int") << "argument " << a; break;
        }
      }
    }
  }
}

}  // namespace
// The FMAs a pixel costs on each variant (bench's %fma, the race chart):
// the packet kernels leave the copied alpha plane out, the others sum float4s.
TEST(VariantRegistry, EachVariantCountsTheChannelsItsKernelComputes) {
  for (const VariantInfo& v : variantRegistry()) {
    if (v.id == VariantId::Auto) continue;
    EXPECT_EQ(channelsComputed(v, 1, false), 1) << v.name;
    EXPECT_EQ(channelsComputed(v, 4, true), 4) << v.name;
    const bool planar = v.footprint == LocalFootprint::PacketTile || v.footprint == LocalFootprint::Separable;
    EXPECT_EQ(channelsComputed(v, 4, false), planar ? 3 : 4) << v.name;
  }
  EXPECT_EQ(channelsComputed(variantInfo(VariantId::Baked), 4, false), 3);
  EXPECT_EQ(channelsComputed(variantInfo(VariantId::Local), 4, false), 4);
  EXPECT_EQ(std::string(roofOf(0.5, 0.2).limit), "bw");
  EXPECT_EQ(std::string(roofOf(0.3, 0.9).limit), "fma");
  EXPECT_DOUBLE_EQ(roofOf(0.3, 0.9).share, 0.9);
}

}  // namespace liveconv
