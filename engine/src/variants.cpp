#include "liveconv/variants.hpp"

#include <algorithm>
#include <iterator>

#include "liveconv/errors.hpp"
#include "liveconv/kernel_sources.hpp"
#include "liveconv/mask.hpp"

namespace liveconv {

namespace {

// One row of the registry, each field set by name; a field the row does not
// set keeps VariantInfo's default, and every row accepts masks up to
// kMaxMaskSide unless it says less.
class Row {
 public:
  constexpr Row(VariantId id, const char* name, const char* description) {
    v_.id = id;
    v_.name = name;
    v_.description = description;
    v_.maxMaskSide = kMaxMaskSide;
  }
  constexpr Row& kernel(const char* sourceFile, const char* entry) {
    v_.sourceFile = sourceFile;
    v_.entry = entry;
    return *this;
  }
  constexpr Row& secondPass(const char* entry) {
    v_.entry2 = entry;
    return *this;
  }
  constexpr Row& footprint(LocalFootprint footprint) {
    v_.footprint = footprint;
    return *this;
  }
  constexpr Row& binding(MaskBinding binding) {
    v_.binding = binding;
    return *this;
  }
  constexpr Row& input(InputKind input) {
    v_.input = input;
    return *this;
  }
  constexpr Row& workgroup(int x, int y) {
    v_.defaultWorkgroupX = x;
    v_.defaultWorkgroupY = y;
    return *this;
  }
  constexpr Row& packet(int outputs) {
    v_.defaultPacket = outputs;
    return *this;
  }
  constexpr Row& rowAlign(int bytes) {
    v_.rowAlignBytes = bytes;
    return *this;
  }
  constexpr Row& needsSeparableMask() {
    v_.needsSeparableMask = true;
    return *this;
  }
  constexpr Row& maxMaskSide(int side) {
    v_.maxMaskSide = side;
    return *this;
  }
  constexpr Row& wholeRows() {
    v_.wholeRows = true;
    return *this;
  }
  constexpr Row& cpuOnly() {
    v_.cpuOnly = true;
    return *this;
  }
  constexpr operator VariantInfo() const { return v_; }

 private:
  VariantInfo v_{};
};

// Every variant, one row each. constexpr: the compiler builds the rows, so the
// table is constant data, in place before any code runs.
constexpr VariantInfo kVariants[] = {
    Row(VariantId::Naive, "naive", "global memory only, border mapping per tap (tutorial Convolve)")
        .kernel("naive.cl", "convolve_naive")
        .footprint(LocalFootprint::None)
        .binding(MaskBinding::Runtime),
    Row(VariantId::Local, "local", "16x16 tile + halo cached in __local, one output per work-item (seed chapter)")
        .kernel("local.cl", "convolve_local")
        .footprint(LocalFootprint::Tile)
        .binding(MaskBinding::Runtime),
    Row(VariantId::LocalAligned, "local_aligned",
        "local, rows padded to 128 bytes and the workgroup width, rect copies (seed: aligning)")
        .kernel("local.cl", "convolve_local")
        .footprint(LocalFootprint::Tile)
        .binding(MaskBinding::Runtime)
        .rowAlign(128),
    Row(VariantId::LocalVec4, "local_vec4", "local, tile copied four pixels per vector load (seed convolution_read4)")
        .kernel("local.cl", "convolve_local_vec4")
        .footprint(LocalFootprint::Tile)
        .binding(MaskBinding::Runtime),
    Row(VariantId::Unrolled, "unrolled", "local, mask size compiled in, loops fully unrolled (one program per size)")
        .kernel("local.cl", "convolve_local")
        .footprint(LocalFootprint::Tile)
        .binding(MaskBinding::SizeConstant),
    Row(VariantId::Unroll4, "unroll4",
        "local, runtime width, inner loop by 4 and the rest without a loop (tutorial UnrollIf)")
        .kernel("local.cl", "convolve_unroll4")
        .footprint(LocalFootprint::Tile)
        .binding(MaskBinding::Runtime),
    Row(VariantId::Baked, "baked",
        "multi_pixel with the coefficients as literals, zero taps skipped (rebuilt per mask)")
        .kernel("packet.cl", "convolve_packet")
        .footprint(LocalFootprint::PacketTile)
        .binding(MaskBinding::Baked)
        .workgroup(16, 8)
        .packet(16),
    Row(VariantId::Image, "image",
        "input as image2d_t through a sampler, borders by its addressing mode (texture path)")
        .kernel("image.cl", "convolve_image")
        .footprint(LocalFootprint::None)
        .binding(MaskBinding::Runtime)
        .input(InputKind::Image),
    Row(VariantId::MultiPixel, "multi_pixel",
        "planar local tile, each work-item computes a block of 4..32 outputs (4 across) in registers")
        .kernel("packet.cl", "convolve_packet")
        .footprint(LocalFootprint::PacketTile)
        .binding(MaskBinding::SizeConstant)
        .workgroup(16, 8)
        .packet(16),
    Row(VariantId::Separable, "separable",
        "rank-1 masks only: a row pass and a column pass of multi_pixel, planar floats between")
        .kernel("packet.cl", "convolve_packet")
        .secondPass("convolve_packet")
        .footprint(LocalFootprint::Separable)
        .binding(MaskBinding::SizeConstant)
        .workgroup(16, 8)
        .packet(16)
        .needsSeparableMask(),
    Row(VariantId::Rows, "rows",
        "CPU devices: each work-item filters whole rows in 16-wide vectors, no local memory, borders at the row "
        "ends only")
        .kernel("rows.cl", "convolve_rows")
        .footprint(LocalFootprint::None)
        .binding(MaskBinding::Runtime)
        .workgroup(1, 8)
        .packet(2)
        .wholeRows()
        .cpuOnly(),
    Row(VariantId::RowsBaked, "rows_baked",
        "rows with the coefficients as literals, zero taps skipped (rebuilt per mask)")
        .kernel("rows.cl", "convolve_rows")
        .footprint(LocalFootprint::None)
        .binding(MaskBinding::Baked)
        .workgroup(1, 8)
        .packet(2)
        .wholeRows()
        .cpuOnly(),
    Row(VariantId::RowsSeparable, "rows_separable",
        "rank-1 masks on CPU devices: rows, each source row filtered by the row taps once and summed down the "
        "column taps in registers")
        .kernel("rows.cl", "convolve_rows")
        .footprint(LocalFootprint::None)
        .binding(MaskBinding::SizeConstant)
        .workgroup(1, 8)
        .packet(4)
        .needsSeparableMask()
        .wholeRows()
        .cpuOnly(),
    Row(VariantId::User, "user",
        "your own kernel, from --kernel-file FILE.cl: naive's arguments, checked against the reference, raced "
        "by auto (docs/variants.md)")
        .kernel("", "convolve")
        .footprint(LocalFootprint::None)
        .binding(MaskBinding::Runtime),
    Row(VariantId::Auto, "auto",
        "the fastest correct variant and workgroup for this device, format, mask and frame size, by a measured race")
        .footprint(LocalFootprint::None)
        .binding(MaskBinding::Runtime)
        .workgroup(0, 0),
};

}  // namespace

const std::vector<VariantInfo>& variantRegistry() {
  static const std::vector<VariantInfo> registry(std::begin(kVariants), std::end(kVariants));
  return registry;
}

std::vector<KernelPass> kernelPasses(const VariantInfo& v) {
  using A = KernelArg;
  const std::vector<KernelArg> common{A::In,   A::InPitch,   A::Out,        A::OutPitch, A::Width, A::Height,
                                      A::Taps, A::TapsWidth, A::TapsHeight, A::Scale,    A::Offset};
  auto with = [&](std::initializer_list<KernelArg> own) {
    std::vector<KernelArg> args = common;
    args.insert(args.end(), own);
    return args;
  };
  const PassData in = v.input == InputKind::Image ? PassData::Image : PassData::Frame;
  switch (v.footprint) {
    case LocalFootprint::Separable:  // packet.cl twice: the rows into planar floats, then the columns of those
      return {{v.entry, in, PassData::Intermediate, PassTaps::Row, false, true, "-D SEPARABLE_PASS=1",
               with({A::LocalTile, A::Frame, A::FramePitch})},
              {v.entry2, PassData::Intermediate, PassData::Frame, PassTaps::Column, true, true, "-D SEPARABLE_PASS=2",
               with({A::LocalTile, A::Frame, A::FramePitch})}};
    case LocalFootprint::PacketTile:
      return {{v.entry, in, PassData::Frame, PassTaps::Mask, false, true, "", with({A::LocalTile, A::Frame, A::FramePitch})}};
    case LocalFootprint::Tile: return {{v.entry, in, PassData::Frame, PassTaps::Mask, false, false, "", with({A::LocalTile})}};
    case LocalFootprint::None:
      if (v.wholeRows)  // rows.cl: a rank-1 mask as its row taps, and its column taps beside
        return {{v.entry, in, PassData::Frame, v.needsSeparableMask ? PassTaps::Row : PassTaps::Mask, false, false,
                 v.needsSeparableMask ? "-D RANK1=1" : "", with({A::ColumnTaps, A::StreamStores})}};
      return {{v.entry, in, PassData::Frame, PassTaps::Mask, false, false, "", common}};
    case LocalFootprint::Invalid: break;
  }
  throw InvalidArgument(std::string("Variant ") + v.name + " has no kernel.");
}

RacePlan racePlan(const VariantInfo& v, bool gpu) {
  RacePlan plan;
  if (v.id == VariantId::Auto || (v.cpuOnly && gpu) || !variantAvailable(v)) return plan;
  // The user's kernel races on every device, at its own work-group shape
  // (naive's: 16x16, shrunk to fit), as `--variant user` runs it.
  if (v.id == VariantId::User) return {{0}, {{0, 0}}};
  // Elsewhere than on a GPU only the kernels written for CPU devices race:
  // they won every mask size, format and frame size measured on both CPU
  // machines (docs/benchmarks.md, "CPU kernels: PoCL against OpenCV's
  // filter2D"), and every other kernel raced there costs a compile and, on
  // PoCL, a first launch that stops the device for 100-900 ms.
  if (!gpu && !v.cpuOnly) return plan;
  plan.workgroups = {{0, 0}};
  if (v.wholeRows) {
    plan.packets = {2, 4, 8};  // rows per work-item: 2 for small masks, more for large ones
  } else if (v.defaultPacket) {
    // Packets and shapes worth racing (on an H200 the best 3..31 masks were all
    // among these); a CPU gets the short list (its compiles are slow, its shapes matter less).
    plan.packets = gpu ? std::vector<int>{8, 16, 32} : std::vector<int>{4, 8};
    if (gpu) plan.workgroups.insert(plan.workgroups.end(), {{32, 4}, {8, 8}});
  } else {
    plan.packets = {0};
    if (gpu && (v.id == VariantId::Local || v.id == VariantId::Unrolled)) plan.workgroups.push_back({32, 8});
  }
  return plan;
}

VariantId provisionalVariant(int maskW, int maskH, bool rank1, bool gpu) {
  const int side = std::max(maskW, maskH);
  // Rank-1 masks of 9 and more taps a side: 1-D sums of W + H taps beat W x H
  // everywhere we measured. On a CPU, the row kernels: rows_separable, else
  // rows_baked (as fast as the stopgap `rows` from 9x9 up, up to twice as fast
  // on small masks, where its zero taps and integer sums pay); on a GPU, the
  // two passes of `separable`, else the packet kernel with the coefficients compiled in.
  if (!gpu) return side >= 9 && rank1 ? VariantId::RowsSeparable : VariantId::RowsBaked;
  if (side >= 9 && rank1) return VariantId::Separable;
  return side <= variantInfo(VariantId::Baked).maxMaskSide ? VariantId::Baked : VariantId::MultiPixel;
}

double fmasPerOutput(const VariantInfo& v, int maskW, int maskH) {
  return v.needsSeparableMask ? double(maskW + maskH) : double(maskW) * maskH;
}

int channelsComputed(const VariantInfo& v, int channels, bool filterAlpha) {
  if (channels != 4) return 1;
  const bool planar = v.footprint == LocalFootprint::PacketTile || v.footprint == LocalFootprint::Separable;
  return planar && !filterAlpha ? 3 : 4;
}

VariantId stopgapVariant(bool gpu) {
  // Runtime-bound masks: the row kernel on a CPU (one program for every mask
  // size, as fast as with the size compiled in: 2.7 ms for 1280x720 RGBA 9x9 on
  // the 2-core machine, where naive takes 36 ms), the local tile on a GPU.
  return gpu ? VariantId::Local : VariantId::Rows;
}

bool servedByStopgap(VariantId variant) {
  return variant == VariantId::Auto || variantInfo(variant).binding != MaskBinding::Runtime;
}

bool stopgapAffordable(int width, int height, int maskW, int maskH, int channels, bool gpu, unsigned computeUnits) {
  // Taps x channels a frame may cost on the stopgap: on the 2-core machine
  // `rows` runs about 1.1e11 of them a second, so 1.5e9 a core is some 30 ms a
  // frame (1280x720 RGBA up to 28x28, GRAY8 up to 57x57); a GPU runs the tile
  // at 1e11 in well under 30 ms.
  const double taps = static_cast<double>(width) * height * maskW * maskH * channels;
  const double budget = gpu ? 1e11 : 1.5e9 * std::max(1u, computeUnits);
  return width > 0 && height > 0 && taps <= budget;
}

bool variantAvailable(const VariantInfo& v) {
  return v.id != VariantId::User || userKernelLoaded();
}

const VariantInfo* findVariant(std::string_view name) {
  for (const auto& v : variantRegistry())
    if (name == v.name) return &v;
  return nullptr;
}

const VariantInfo& variantInfo(VariantId id) {
  for (const auto& v : variantRegistry())
    if (v.id == id) return v;
  throw InvalidArgument("Unknown kernel variant id.");
}

std::string variantNames() {
  std::string names;
  for (const auto& v : variantRegistry()) names += (names.empty() ? "" : ", ") + std::string(v.name);
  return names;
}

PacketShape packetShape(const VariantInfo& v, int packet) {
  packet = std::max(1, packet);
  if (v.wholeRows) return {1, packet};
  switch (v.footprint) {
    case LocalFootprint::PacketTile:
    case LocalFootprint::Separable: {
      const int across = std::min(packet, 4);
      return {across, packet / across};
    }
    case LocalFootprint::Tile:
    case LocalFootprint::None:
    case LocalFootprint::Invalid: break;
  }
  return {1, 1};
}

namespace {

// kernels/packet.cl: planar floats; the left halo rounded up to whole float4
// words, rows padded to whole words (TILE_PITCH there).
std::uint64_t packetTileBytes(std::uint64_t wx, std::uint64_t wy, PacketShape s, int maskW, int maskH,
                              std::uint64_t planes) {
  const std::uint64_t radius = static_cast<std::uint64_t>(maskW / 2);
  const std::uint64_t window = (radius + 3) / 4 * 4 - radius;
  const std::uint64_t pitch = wx * s.x + (window + maskW - 1 + 3) / 4 * 4;
  return planes * pitch * (wy * s.y + maskH - 1) * 4;
}

}  // namespace

std::uint64_t columnPassLocalBytes(int wx, int wy, int packet, int maskH, int channels, bool filterAlpha) {
  const std::uint64_t planes = channels == 4 ? (filterAlpha ? 4 : 3) : 1;
  return packetTileBytes(static_cast<std::uint64_t>(wx), static_cast<std::uint64_t>(wy),
                         packetShape(variantInfo(VariantId::Separable), packet), 1, maskH, planes);
}

std::uint64_t localMemoryBytes(const VariantInfo& v, int wx, int wy, int packet, int maskW, int maskH, int channels,
                               bool filterAlpha) {
  const std::uint64_t elem = channels == 4 ? 16 : 4;  // float4 or float per pixel
  const std::uint64_t w = static_cast<std::uint64_t>(wx), h = static_cast<std::uint64_t>(wy);
  const std::uint64_t planes = channels == 4 ? (filterAlpha ? 4 : 3) : 1;
  switch (v.footprint) {
    case LocalFootprint::Tile: return (w + maskW - 1) * (h + maskH - 1) * elem;
    case LocalFootprint::PacketTile: return packetTileBytes(w, h, packetShape(v, packet), maskW, maskH, planes);
    case LocalFootprint::Separable:  // the row pass (W x 1); the column pass has its own shape
      return packetTileBytes(w, h, packetShape(v, packet), maskW, 1, planes);
    case LocalFootprint::None:
    case LocalFootprint::Invalid: break;
  }
  return 0;
}

}  // namespace liveconv
