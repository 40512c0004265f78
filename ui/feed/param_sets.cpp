#include "feed/param_sets.hpp"

#include "liveconv/variants.hpp"

namespace liveconv::ui {

void ParamSets::started(std::shared_ptr<const ParamsSnapshot> params) {
  applied_ = requested_ = std::move(params);
  building_ = 0;
  watch(applied_);
}

void ParamSets::building(std::shared_ptr<const ParamsSnapshot> next) {
  building_ = next->version;
  requested_ = std::move(next);
}

void ParamSets::refused(const ParamsSnapshot& set, std::string why, std::string log) {
  refusal_ = {std::move(why), std::move(log), set.version, set.filter.variant};
}

// A variant that compiles each mask may run on a stopgap until its own
// kernel is built (KernelBuilder): that build can still fail, and poll() says so.
void ParamSets::watch(const std::shared_ptr<const ParamsSnapshot>& set) {
  const VariantId variant = set->filter.variant;
  watched_ = variant != VariantId::Auto && servedByStopgap(variant) ? set : nullptr;
}

void ParamSets::poll(const LiveChannel& pipeline) {
  if (watched_) {
    if (const LiveChannel::ParamsState state = pipeline.paramsState(watched_->version); state.failed) {
      // The kernel its stopgap stood in for failed to build: said as any refusal.
      refused(*watched_, state.error, state.buildLog);
      watched_ = nullptr;
    }
  }
  if (building_ == 0) return;
  const LiveChannel::ParamsState state = pipeline.paramsState(building_);
  if (state.failed) {
    refused(*requested_, state.error, state.buildLog);
  } else if (state.built) {  // the error goes; the last refusal's version stays, as the model noted it
    applied_ = requested_;
    watch(applied_);
    refusal_.error.clear();
    refusal_.buildLog.clear();
  } else {
    return;  // still building
  }
  building_ = 0;
}

bool ParamSets::refilterPaused(std::uint64_t shownVersion, bool kernelWaiting) {
  if (building_ != 0) return false;
  if (shownVersion < requestedVersion() && refilteredFor_ != requestedVersion()) {
    refilteredFor_ = requestedVersion();
    return true;
  }
  if (shownVersion == requestedVersion() && !refilterForKernel_ && kernelWaiting) {
    refilterForKernel_ = true;  // until the frame filtered with it arrives
    return true;
  }
  return false;
}

}  // namespace liveconv::ui
