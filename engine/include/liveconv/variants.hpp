// The variant registry: every kernel variant is one row of data. The host code
// in convolver.cpp is written once and driven by these fields; adding a variant
// means adding a kernel to kernels/ and a row to the table in variants.cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace liveconv {

enum class VariantId {
  Invalid = 0,
  Naive,
  Local,
  Unrolled,
};

// Where the kernel reads its neighbourhood from.
enum class TileKind {
  Invalid = 0,
  Global,  // straight from global memory, border mapping per tap
  Local,   // tile + halo cooperatively copied to __local, then a barrier
};

// How the mask reaches the kernel.
enum class MaskBinding {
  Invalid = 0,
  Runtime,       // __constant buffer, size as kernel arguments: one program for all masks
  SizeConstant,  // __constant buffer, size as -D MASK_W/MASK_H: one program per size
};

struct VariantInfo {
  VariantId id = VariantId::Invalid;
  const char* name = "";
  const char* description = "";  // one line, shown by `liveconv bench` and the UIs
  const char* sourceFile = "";   // in kernels/, appended to common.cl
  const char* entry = "";        // kernel function name
  TileKind tile = TileKind::Invalid;
  MaskBinding binding = MaskBinding::Invalid;
  int defaultWorkgroupX = 16;
  int defaultWorkgroupY = 16;
  int maxMaskSide = 63;  // largest mask width/height the variant accepts
};

const std::vector<VariantInfo>& variantRegistry();
// nullptr when unknown.
const VariantInfo* findVariant(std::string_view name);
const VariantInfo& variantInfo(VariantId id);
// "naive, local, unrolled"
std::string variantNames();

}  // namespace liveconv
