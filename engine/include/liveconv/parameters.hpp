// The filter's parameters, described once. Each row names a parameter's
// command-line flag, the word for its value, a line of help, its default, the
// key a window keeps it under in its settings, and the words it takes where it
// is a choice. `liveconv run`, `bench --pipeline`, both windows' flags and
// --help, their border, format and alpha controls and the Qt shell's settings
// file are all read from this table, so a parameter is spelled, defaulted and
// checked the same way everywhere.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "liveconv/convolver.hpp"
#include "liveconv/image.hpp"

namespace liveconv {

enum class ParamId {
  Invalid = 0,
  Mask,
  Variant,
  Border,
  Alpha,
  Workgroup,
  Format,
  Device,
};

struct ParamDescription {
  ParamId id = ParamId::Invalid;
  const char* flag = "";          // "--mask"
  const char* valueName = "";     // "SPEC"
  const char* help = "";          // one line for --help
  const char* defaultText = "";   // what holds when the flag is not given ("" for Device: the default device)
  const char* settingsKey = "";   // where a window keeps it ("filter/mask")
  std::vector<std::string> choices;  // the words it takes, for a choice; empty for free text
};

// Every parameter a run or a window takes, with what the flags set.
struct ParamValues {
  FilterParams filter;  // mask, variant, border, alpha, workgroup
  PixelFormat format = PixelFormat::RGBA8;
  std::string device;  // a selector as `liveconv devices` explains; "" = $LIVECONV_DEVICE, else GPU, else CPU
};

const std::vector<ParamDescription>& paramDescriptions();
const ParamDescription& paramDescription(ParamId id);
// The row whose flag is `flag` ("--border"); null when no parameter has it.
const ParamDescription* findParamByFlag(std::string_view flag);

// Every parameter at its default (the mask the default mask spec).
ParamValues defaultParams();
// Sets one parameter from its text, as its flag takes it (a mask also as the
// JSON a settings file keeps). Throws InvalidArgument with the sentence a user
// reads ("Unknown border mode 'x'; use clamp, mirror, wrap or zero.").
void setParam(ParamValues& values, ParamId id, const std::string& text);
// The value as its flag (or, for the mask, the settings file: JSON, nothing
// lost) takes it back: setParam(v, id, paramText(v, id)) changes nothing.
std::string paramText(const ParamValues& values, ParamId id);

// --help lines for these parameters ("  --mask SPEC         ..."), the value
// column starting at `column`; the default is named where there is one.
std::string paramHelp(const std::vector<ParamId>& ids, int column = 22);

}  // namespace liveconv
