// The variant registry: every kernel variant is one row of data, and what
// follows from a row is said here too: its launches and their argument layout
// (kernelPasses), what `auto` races of it (racePlan), the multiply-adds per
// output (fmasPerOutput), its local memory and packet shape. The host code in
// convolver.cpp is written once and follows these; no code outside
// variants.cpp names a variant. Adding a variant means adding a kernel to
// kernels/ and a row to the table in variants.cpp (and, for a new signature,
// its case in kernelPasses).
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
  User,  // the user's own kernel (--kernel-file FILE.cl): its source is loaded, not embedded (kernel_sources.hpp)
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
  // Written for CPU devices: `auto` races it there and nowhere else, and only these there.
  bool cpuOnly = false;
};

const std::vector<VariantInfo>& variantRegistry();

// What one argument of a variant's kernel receives (kernels/*.cl). Every
// kernel takes the first eleven, in this order; the rest are its own.
enum class KernelArg {
  Invalid = 0,
  In,            // the pass's input (PassData)
  InPitch,       // its row pitch: in pixels, or in floats for the intermediate
  Out,           // the pass's output (PassData)
  OutPitch,
  Width,         // the frame's size
  Height,
  Taps,          // the pass's taps (PassTaps)
  TapsWidth,     // their width and height
  TapsHeight,
  Scale,         // the mask's scale and offset in the pass that writes the frame, 1 and 0 before it
  Offset,
  LocalTile,     // the pass's __local tile (localMemoryBytes(), or columnPassLocalBytes() for a pass of its own shape)
  ColumnTaps,    // a rank-1 mask's column taps; the mask itself for a variant that takes it whole
  StreamStores,  // 1 when the frame in and out would fill half the device's caches (rows.cl)
  Frame,         // the 8-bit frame whose centre alpha is copied, and its pitch (packet.cl)
  FramePitch,
};

// Where a pass reads or writes.
enum class PassData {
  Invalid = 0,
  Frame,         // the frame's buffer
  Image,         // the frame copied into an image2d_t just before the pass
  Intermediate,  // planar floats between two passes, rows of whole float4 words (kernels/packet.cl)
};

// Which taps a pass sums: the mask, or a rank-1 mask's row (W x 1) or column (1 x H) factor.
enum class PassTaps { Invalid = 0, Mask, Row, Column };

// One kernel launch of a variant, as the host code enqueues it.
struct KernelPass {
  const char* entry = "";
  PassData in = PassData::Invalid;
  PassData out = PassData::Invalid;
  PassTaps taps = PassTaps::Invalid;
  // Work-groups of its own (kColumnPass*, shrunk to fit), not the set's workgroup and packet.
  bool ownShape = false;
  // Masks up to UNROLL_ROWS rows are unrolled completely (kernels/packet.cl);
  // the device kind says how many.
  bool unrollsRows = false;
  // Its program's build options beyond those of every variant (CHANNELS,
  // BORDER, FILTER_ALPHA, LX, LY, PX and, where the size is compiled in,
  // MASK_W and MASK_H: the mask's for a one-pass variant, the pass's taps' otherwise).
  std::string defines;
  std::vector<KernelArg> args;
};

// The launches of a variant, in order: the only description of its passes
// and argument layout that the host code (convolver.cpp) follows.
std::vector<KernelPass> kernelPasses(const VariantInfo& v);

// What `auto` races of a variant on a GPU or on another device, besides its
// defaults: the packets (0: the variant's default) and the workgroup shapes
// ({0, 0}: the default, shrunk to fit). Empty packets: the variant is not raced
// there (a GPU races every variant but the CPU ones, another device only those).
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
// Whether a stopgap may serve a set of this variant while its own kernel is
// built: `auto`, and in a window (KernelBuilder::setIdleWork) a variant whose
// program holds the mask or its size (baked, unrolled, separable, ...), which
// compiles for a new mask. A variant that takes the mask at run time needs none.
bool servedByStopgap(VariantId variant);
// The multiply-adds one output channel costs on `v`: the mask's taps, or W + H
// for a variant that sums a rank-1 mask in two 1-D passes (bench's %fma).
double fmasPerOutput(const VariantInfo& v, int maskW, int maskH);
// The channels `v`'s kernel multiplies for a pixel of `channels` (4 or 1): 1
// for gray; for RGBA the packet kernels (planar floats) leave the alpha plane
// out where alpha is copied (3), the others sum float4s whatever alpha does
// (4). With fmasPerOutput, the FMAs a pixel costs on it: the FMA limit that
// applies to it (bench's %fma, the race chart's share of FMA).
int channelsComputed(const VariantInfo& v, int channels, bool filterAlpha);
bool stopgapAffordable(int width, int height, int maskW, int maskH, int channels, bool gpu, unsigned computeUnits);
// Whether `v` can be built now: every variant but `user`, which needs a
// kernel file loaded (loadUserKernel). Lists a user picks from, sweeps and
// races leave out what is not available.
bool variantAvailable(const VariantInfo& v);
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

// Local memory a variant needs for a workgroup shape, mask size and channels
// per pixel (4 or 1; the tiles hold floats, whatever the sample's width).
// For `separable` that is its row pass; columnPassLocalBytes() is the other.
std::uint64_t localMemoryBytes(const VariantInfo& v, int wx, int wy, int packet, int maskW, int maskH, int channels,
                               bool filterAlpha = true);

// The column pass of `separable` runs in work-groups of its own: tall and
// narrow, so fewer halo rows are staged per output (the row pass wants the
// opposite). FilterParams' workgroup and packet set the row pass; this shape,
// shrunk until it fits, the column pass. Chosen by measuring on the H200:
// docs/benchmarks.md, "Separable 31x31 Gaussian".
constexpr int kColumnPassWorkgroupX = 8;
constexpr int kColumnPassWorkgroupY = 16;
constexpr int kColumnPassPacket = 16;
std::uint64_t columnPassLocalBytes(int wx, int wy, int packet, int maskH, int channels, bool filterAlpha);

}  // namespace liveconv
