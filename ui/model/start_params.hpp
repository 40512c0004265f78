// The parameter flags both windows take, as `liveconv run` takes them: the
// rows of liveconv/parameters.hpp (--mask, --variant, --border, --alpha,
// --workgroup, --format, --device, --open-timeout), read the same way and with the same
// sentences, then set in the model over whatever it started with (its
// defaults, or the settings a window restored).
#pragma once

#include <string>
#include <vector>

#include "liveconv/parameters.hpp"
#include "model/viewer_model.hpp"

namespace liveconv::ui {

struct StartParams {
  ParamValues values = defaultParams();
  std::vector<ParamId> given;   // only these are set in the model
  std::string hwaccel;          // --hwaccel (ViewState::hwaccel); "": not given
  bool planes = false;          // --planes (ViewState::planes)

  bool has(ParamId id) const;
};

// argv[*i] is one of the table's flags: reads its value (argv[*i + 1], moving
// *i past it) into `params` and returns true; *why is then "" or the sentence
// that says what is wrong. False, untouched, for any other argument.
// --hwaccel NAME is taken here too (it is `liveconv run`'s option); the name
// is checked where FFmpeg is (feed_sources.hpp's whyNotHwAccel).
bool takeParamFlag(int argc, char** argv, int* i, StartParams* params, std::string* why);

// Sets the given parameters in the model. The device is a selector, not a
// model index: the caller hands params.values.device to its frame loop.
void applyStartParams(const StartParams& params, ViewerModel& model);

// A window's control for one parameter, in the table's words: the model's
// value as its flag spells it ("wrap"), and the model set from such a word
// (true when that changed the model; false, untouched, for a word it does not take).
std::string modelParamText(const ViewerModel& model, ParamId id);
bool setModelParam(ViewerModel& model, ParamId id, const std::string& text);

// The --help lines of the table's flags, as both windows print them.
std::string startParamsHelp();
// The --help lines of --open-timeout (its row) and --hwaccel, under the source.
std::string sourceOptionsHelp();

}  // namespace liveconv::ui
