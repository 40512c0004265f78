#include "feed/stats_file.hpp"

#include "feed/frame_loop.hpp"
#include "liveconv/media/staged_output.hpp"
#include "liveconv/parameters.hpp"
#include "model/mask_edit.hpp"
#include "model/start_params.hpp"

namespace liveconv::ui {

std::string writeStatsJson(const FrameLoop& loop, const std::string& path) {
  FrameStats s = loop.stats();
  if (s.source.empty()) s.source = loop.playingSource();
  const ViewerModel& model = loop.model();
  const Mask& m = model.mask();
  std::string mask = specForMask(m, {});  // too large to spell out: its size
  if (mask.empty()) mask = "custom " + std::to_string(m.width) + "x" + std::to_string(m.height);
  // The parameters as their flags spell them (the mask above, as a spec).
  std::vector<std::pair<std::string, std::string>> parameters;
  for (const ParamDescription& d : paramDescriptions()) {
    if (d.group != ParamGroup::Filter || d.id == ParamId::Mask) continue;
    const std::string text = modelParamText(model, d.id);
    if (d.type == ParamType::Text && text.empty()) continue;  // --kernel-file not given
    parameters.emplace_back(d.flag + 2, text);
  }
  // Whole or not at all (staged): a full disk keeps an older stats file as it was.
  return media::writeStaged(
      path, loop.log().toJson(s, loop.framesShown(), loop.redraw().redraws(), loop.videoFps(), mask, parameters));
}

}  // namespace liveconv::ui
