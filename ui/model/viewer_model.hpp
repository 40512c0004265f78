// The toolkit-free state the viewer's panels edit and the commands that change
// it. Both shells (GLFW + ImGui, Qt) render this model; the frame side gets
// immutable snapshots of it. No ImGui, GLFW, Qt or OpenCL object lives here.
//
// Every command returns true when it changed the filter state; such a change
// bumps version(), and the next snapshot() carries it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "liveconv/convolver.hpp"
#include "model/mask_edit.hpp"
#include "model/response_figure.hpp"
#include "model/snapshot.hpp"
#include "model/view_state.hpp"

namespace liveconv::ui {

// Size: one command for each thing a user edits (the mask's cells, size, flips,
// divisor, bias, normalisation, symmetry and file; the variant, border,
// alpha, workgroup, format, device and source), each a few lines that
// bump the one version every snapshot carries.
class ViewerModel {
 public:
  ViewerModel();

  // ---- state
  const Mask& mask() const { return params_.mask; }
  const FilterParams& filter() const { return params_; }
  VariantId variant() const { return params_.variant; }
  BorderMode border() const { return params_.border; }
  AlphaMode alpha() const { return params_.alpha; }
  PixelFormat format() const { return format_; }
  WorkgroupShape workgroup() const { return params_.workgroup; }
  int deviceIndex() const { return deviceIndex_; }
  const std::string& source() const { return source_; }
  Symmetry symmetry() const { return symmetry_; }
  std::uint64_t version() const { return version_; }
  ViewState& view() { return view_; }
  const ViewState& view() const { return view_; }

  // Empty when the mask can run, else the sentence the editor shows in red.
  std::string maskError() const { return params_.mask.validationError(); }
  // The engine's rank-1 test, recomputed only when the mask changes.
  bool separable() const;
  // The mask's frequency response as both windows draw it beside the grid,
  // recomputed only when the mask changes (size 0 while the mask is invalid).
  const ResponseFigure& responseFigure() const;

  // ---- mask commands
  bool setMask(const Mask& mask);
  // A preset or inline spec ("gaussian:7"); on a bad spec returns false and
  // fills *error with the parser's sentence; the mask is untouched.
  bool applySpec(const std::string& spec, std::string* error);
  bool setCell(int x, int y, float value);  // mirrored by symmetry()
  bool resize(int width, int height);       // odd, 1..63, centre kept
  bool transposeMask();
  bool flipMaskHorizontal();
  bool flipMaskVertical();
  bool resetMask();  // back to the identity of the current size
  bool setDivisor(float divisor);
  bool setBias(float bias);
  bool setNormalize(Normalize mode);
  void setSymmetry(Symmetry mode) { symmetry_ = mode; }

  // ---- engine commands
  bool setVariant(VariantId id);
  // The next usable variant in registry order, wrapping; false when none other is usable.
  bool nextVariant();
  // Empty when `id` can run the current mask, else why not (registry limits,
  // or a failure the frame side reported for this mask size and format).
  std::string variantUnusableReason(VariantId id) const;
  // The frame side refused `id` (and runs the previous set). The variant the
  // model asks for goes back to the one that runs, so every widget shows what
  // runs and the reason stays on screen until the next edit; the version grows
  // so that a mask edit that came with the refused set is sent again with it.
  void noteVariantFailure(VariantId id, const std::string& reason);
  // The version of the user's kernel (its digest, kernel_sources.hpp) that
  // `user` runs and `auto` races: a reloaded file is a new set. Where the new
  // version fails, noteVariantFailure goes back to the version before it,
  // which runs on, and `user` stays chosen.
  bool setUserKernel(const std::string& digest);

  // The last thing the model decided by itself that the user should read (a
  // variant that gave way to auto); notices() grows by one each time.
  const std::string& notice() const { return notice_; }
  std::uint64_t notices() const { return notices_; }

  bool setDevice(int index);
  bool setBorder(BorderMode mode);
  bool setAlpha(AlphaMode mode);
  bool setFormat(PixelFormat format);
  bool setWorkgroup(WorkgroupShape shape);  // {0,0}: the variant's default
  // Also remembers the spec at the front of recentSources().
  bool setSource(const std::string& spec);
  // The last few sources opened, newest first, without duplicates.
  const std::vector<std::string>& recentSources() const { return recent_; }
  static constexpr std::size_t kRecentSources = 8;

  // ---- mask files (the JSON of liveconv/mask_file.hpp)
  // On failure returns false with the sentence in *error (for a parse error it
  // says the line and column); the mask is untouched.
  bool loadMask(const std::string& path, std::string* error);
  bool saveMask(const std::string& path, std::string* error) const;

  // ---- hand-off
  // The current state as an immutable snapshot; nullptr while the mask is
  // invalid (the frame side keeps the last good one). Cached per version.
  std::shared_ptr<const ParamsSnapshot> snapshot() const;

 private:
  bool changed(bool structural);  // bumps the version; structural edits forget reported failures
  void say(std::string notice);
  std::string notice_;
  std::uint64_t notices_ = 0;

  FilterParams params_;  // starts at the parameter table's defaults, as `liveconv run`
  PixelFormat format_ = PixelFormat::RGBA8;
  int deviceIndex_ = -1;
  std::string source_ = "testpattern";
  Symmetry symmetry_ = Symmetry::None;
  ViewState view_;
  std::uint64_t version_ = 1;
  std::map<VariantId, std::string> failures_;
  VariantId previousVariant_ = VariantId::Invalid;  // before the last setVariant()
  std::string previousUserKernel_;                  // before the last setUserKernel(), while it builds
  std::vector<std::string> recent_;
  mutable std::uint64_t separableVersion_ = 0;
  mutable bool separable_ = false;
  mutable std::shared_ptr<const ParamsSnapshot> snapshot_;
  mutable Mask responseMask_;
  mutable bool responseComputed_ = false;
  mutable ResponseFigure response_;
};

}  // namespace liveconv::ui
