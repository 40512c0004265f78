// The parameter sets a window's feed handed its pipeline, and where each
// stands. Whether a set is built, failed or runs is the pipeline's one answer
// (Pipeline::paramsState); this keeps only what the feed asked of it: the
// newest set (requested), the one that runs (applied), one still building, a
// set that runs on a stopgap while its own kernel may still fail (watched),
// the last refusal as the overlay and the card say it, and when a paused
// picture is to be filtered again. UI thread only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "liveconv/pipeline.hpp"
#include "model/snapshot.hpp"

namespace liveconv::ui {

class ParamSets {
 public:
  // A pipeline was started with `params`: it runs.
  void started(std::shared_ptr<const ParamsSnapshot> params);
  // `next` was handed to the running pipeline, which builds it off the frame path.
  void building(std::shared_ptr<const ParamsSnapshot> next);
  // `set` cannot run (`why`, the compiler's `log`); the set before it runs on.
  void refused(const ParamsSnapshot& set, std::string why, std::string log);
  // Reads the pipeline's answer for the set building and for the one watched.
  void poll(const LiveChannel& pipeline);
  const std::shared_ptr<const ParamsSnapshot>& requested() const { return requested_; }
  const std::shared_ptr<const ParamsSnapshot>& applied() const { return applied_; }
  std::uint64_t requestedVersion() const { return requested_ ? requested_->version : 0; }

  // Paused on a frame filtered with `shownVersion`: whether to filter it again,
  // once the newest set is built, and again when a later kernel of the set on
  // screen is ready (`kernelWaiting`: the one its stopgap stood in for,
  // `auto`'s provisional kernel or winner), so what the overlay names is what
  // filtered the picture.
  bool refilterPaused(std::uint64_t shownVersion, bool kernelWaiting);
  // A new frame came: a refilter for a later kernel is no longer on its way.
  void freshFrame() { refilterForKernel_ = false; }

  struct Refusal {
    std::string error, buildLog;
    std::uint64_t version = 0;
    VariantId variant = VariantId::Invalid;
  };
  // The last refusal; its error and build log are cleared when a newer set is built.
  const Refusal& refusal() const { return refusal_; }

 private:
  void watch(const std::shared_ptr<const ParamsSnapshot>& set);

  std::shared_ptr<const ParamsSnapshot> applied_, requested_;
  std::uint64_t building_ = 0;  // the version handed to the pipeline and not yet built (0: none)
  std::uint64_t refilteredFor_ = 0;
  bool refilterForKernel_ = false;  // a refilter asked for a kernel that is ready, its frame not yet come
  std::shared_ptr<const ParamsSnapshot> watched_;  // null: none
  Refusal refusal_;
};

}  // namespace liveconv::ui
