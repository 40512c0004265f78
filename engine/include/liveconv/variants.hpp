// The variant registry: every kernel variant is one row of data. The host code
// in convolver.cpp is written once and driven by these fields; adding a variant
// means adding a kernel to kernels/ and a row to the table in variants.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace liveconv {

enum class VariantId {
  Invalid = 0,
  Naive,
  Local,
  LocalAligned,
  LocalVec4,
  Unrolled,
  Unroll4,
  Baked,
  Image,
  MultiPixel,
  Separable,
  Rows,
  RowsBaked,
  RowsSeparable,
  Auto,  // not a kernel: picks one of the others by a measured race (autotune.hpp)
};

// How the kernel uses __local memory; decides the bytes it needs per workgroup.
enum class LocalFootprint {
  Invalid = 0,
  None,       // reads global memory (or an image) directly
  Tile,       // (wx + W - 1) * (wy + H - 1) pixels
  PacketTile, // planar floats, (wx * packet-across + W - 1) * (wy * packet-down + H - 1) per plane
  Separable,  // the larger of PacketTile for a W x 1 and for a 1 x H mask (two passes)
};

// How the mask reaches the kernel.
enum class MaskBinding {
  Invalid = 0,
  Runtime,       // __constant buffer, size as kernel arguments: one program for all masks
  SizeConstant,  // __constant buffer, size as -D MASK_W/MASK_H: one program per size
  Baked,         // coefficients written into the program text: one program per mask
};

enum class InputKind {
  Invalid = 0,
  Buffer,  // the frame's buffer as it is
  Image,   // copied into an image2d_t read through a sampler
};

struct VariantInfo {
  VariantId id = VariantId::Invalid;
  const char* name = "";
  const char* description = "";  // one line, shown by `liveconv bench` and the UIs
  const char* sourceFile = "";   // in kernels/, appended to common.cl
  const char* entry = "";        // kernel function name (first pass)
  const char* entry2 = "";       // second pass, for two-pass variants
  LocalFootprint footprint = LocalFootprint::Invalid;
  MaskBinding binding = MaskBinding::Invalid;
  InputKind input = InputKind::Buffer;
  int defaultWorkgroupX = 16;
  int defaultWorkgroupY = 16;
  int defaultPacket = 0;         // outputs per work-item (multi-pixel kernels, see packetShape); 0 = one
  int rowAlignBytes = 0;         // >0: device rows padded to this and to the workgroup width
  bool needsSeparableMask = false;
  int maxMaskSide = 63;          // largest mask width/height the variant accepts
  // A work-item filters whole rows, `packet` of them, instead of a block of
  // pixels: the NDRange is one work-item wide (kernels/rows.cl).
  bool wholeRows = false;
  // Written for CPU devices: `auto` races it there and nowhere else.
  bool cpuOnly = false;
};

const std::vector<VariantInfo>& variantRegistry();

// What `auto` races of a variant on a GPU or on another device, besides its
// defaults: the packets (0: the variant's default) and the workgroup shapes
// ({0, 0}: the default, shrunk to fit). Empty packets: the variant is not raced there.
struct RacePlan {
  std::vector<int> packets;
  std::vector<std::pair<int, int>> workgroups;
};
RacePlan racePlan(const VariantInfo& v, bool gpu);

// The variant `auto` runs at once for a mask, until its race has answered
// (the rules the races agreed with most often).
VariantId provisionalVariant(int maskW, int maskH, bool rank1, bool gpu);
// What `auto` runs for a new mask while even its provisional kernel compiles:
// a variant that takes the mask at run time, so its one program (per format,
// border and alpha) serves every mask. Used only where the frame can afford
// it: stopgapAffordable() bounds the taps a frame costs on it.
VariantId stopgapVariant(bool gpu);
// The multiply-adds one output channel costs on `v`: the mask's taps, or W + H
// for a variant that sums a rank-1 mask in two 1-D passes (bench's %fma).
double fmasPerOutput(const VariantInfo& v, int maskW, int maskH);
bool stopgapAffordable(int width, int height, int maskW, int maskH, int channels, bool gpu, unsigned computeUnits);
// nullptr when unknown.
const VariantInfo* findVariant(std::string_view name);
const VariantInfo& variantInfo(VariantId id);
// "naive, local, ..."
std::string variantNames();

// How a variant lays out a packet of outputs per work-item: `x` adjacent
// columns in each of `y` adjacent rows (PacketTile and both separable passes:
// up to 4 across, the rest down). {1, 1} for one output. A wholeRows variant:
// {1, packet}, where x counts whole rows.
struct PacketShape {
  int x = 1;
  int y = 1;
};
PacketShape packetShape(const VariantInfo& v, int packet);

// Local memory a variant needs for a workgroup shape, mask size and pixel size.
// For `separable` that is its row pass; columnPassLocalBytes() is the other.
std::uint64_t localMemoryBytes(const VariantInfo& v, int wx, int wy, int packet, int maskW, int maskH,
                               int bytesPerPixelValue, bool filterAlpha = true);

// The column pass of `separable` runs in work-groups of its own: tall and
// narrow, so fewer halo rows are staged per output (the row pass wants the
// opposite). FilterParams' workgroup and packet set the row pass; this shape,
// shrunk until it fits, the column pass. Chosen by measuring on the H200:
// docs/benchmarks.md, "Separate shapes for the two separable passes".
constexpr int kColumnPassWorkgroupX = 8;
constexpr int kColumnPassWorkgroupY = 16;
constexpr int kColumnPassPacket = 16;
std::uint64_t columnPassLocalBytes(int wx, int wy, int packet, int maskH, int bytesPerPixelValue, bool filterAlpha);

}  // namespace liveconv
