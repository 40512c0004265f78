#include "liveconv/variants.hpp"

#include "liveconv/errors.hpp"
#include "liveconv/mask.hpp"

namespace liveconv {

const std::vector<VariantInfo>& variantRegistry() {
  static const std::vector<VariantInfo> registry = {
      {VariantId::Naive, "naive", "global memory only, border mapping per tap (tutorial Convolve)", "naive.cl",
       "convolve_naive", TileKind::Global, MaskBinding::Runtime, 16, 16, kMaxMaskSide},
      {VariantId::Local, "local", "16x16 tile + halo cached in __local, one output per work-item (seed chapter)",
       "local.cl", "convolve_local", TileKind::Local, MaskBinding::Runtime, 16, 16, kMaxMaskSide},
      {VariantId::Unrolled, "unrolled", "local tile, mask size compiled in, loops fully unrolled (one program per size)",
       "local.cl", "convolve_local", TileKind::Local, MaskBinding::SizeConstant, 16, 16, kMaxMaskSide},
  };
  return registry;
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

}  // namespace liveconv
