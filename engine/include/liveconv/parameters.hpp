// The filter's parameters, described once. Each row names a parameter's
// command-line flag, the word for its value, a line of help, its default, the
// key a window keeps it under in its settings, its type and, by type, the
// words it takes (a choice) or the range it takes (a number, a size, a mask's
// sides). `liveconv run`, `bench --pipeline`, both windows' flags and --help,
// the script language's checks, both windows' controls (their choices and
// their spin box and slider ranges) and the Qt shell's settings file are all
// read from this table, so a parameter is spelled, defaulted, ranged and
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
  OpenTimeout,
  KernelFile,
};

// What a value is, which says how it is read and which fields of its row
// apply: `choices` for a Choice, minimum..maximum for the rest but Text.
enum class ParamType {
  Invalid = 0,
  Choice,    // one of `choices` (clamp|mirror|wrap|zero)
  Text,      // free text, read where it is used (a device selector)
  Integer,   // a whole number, minimum..maximum
  Number,    // a number, minimum..maximum
  Size,      // WxH, each side minimum..maximum, or 0x0 where the row says what that means
  MaskSpec,  // a mask spec, @FILE.json or JSON; its sides odd, minimum..maximum
};

// Where a value lives, which says who keeps it: a Filter parameter is the
// model's filter or format (kept in the Qt shell's settings, written in the
// stats file), the Device a selector each tool resolves, a Source one how a
// source is opened (the windows' ViewState).
enum class ParamGroup {
  Invalid = 0,
  Filter,
  Device,
  Source,
};

struct ParamDescription {
  ParamId id = ParamId::Invalid;
  const char* flag = "";          // "--mask"
  const char* valueName = "";     // "SPEC"
  const char* help = "";          // one line for --help
  const char* defaultText = "";   // what holds when the flag is not given ("" for Device: the default device)
  const char* settingsKey = "";   // where a window keeps it ("filter/mask"); "" where none does
  std::vector<std::string> choices;  // the words it takes, for a choice; empty otherwise
  ParamType type = ParamType::Invalid;
  ParamGroup group = ParamGroup::Filter;
  double minimum = 0;  // Integer, Number: the value; Size, MaskSpec: each side
  double maximum = 0;
  double step = 1;             // what a spin box or slider steps by (a mask's sides by 2, staying odd)
  const char* zeroMeans = "";  // Size: what 0x0 means ("the variant's own"); "" where 0x0 is refused
};

// Every parameter a run or a window takes, with what the flags set.
struct ParamValues {
  FilterParams filter;  // mask, variant, border, alpha, workgroup
  PixelFormat format = PixelFormat::RGBA8;
  std::string device;  // a selector as `liveconv devices` explains; "" = $LIVECONV_DEVICE, else GPU, else CPU
  int openTimeoutSeconds = 0;  // a source that sends nothing to open for this long fails; 0 waits
  // The `user` variant's source (loadUserKernel reads it where the values are
  // applied: a run's start, a window's); "" when none is given.
  std::string kernelFile;
};

// Loads the kernel file the values name, if any (loadUserKernel), and refuses
// the variant `user` without one: InvalidArgument with one sentence.
void applyKernelFile(const ParamValues& values);

const std::vector<ParamDescription>& paramDescriptions();
const ParamDescription& paramDescription(ParamId id);
// The row whose flag is `flag` ("--border"); null when no parameter has it.
const ParamDescription* findParamByFlag(std::string_view flag);

// Every parameter at its default (the mask the default mask spec).
ParamValues defaultParams();
// Sets one parameter from its text, as its flag takes it (a mask also as the
// JSON a settings file keeps), checked against its row: its choices, or its
// range. Throws InvalidArgument with the sentence a user reads ("Unknown
// border mode 'x'; use clamp, mirror, wrap or zero."; "--open-timeout needs a
// whole number from 0 to 86400, not '-1'.").
void setParam(ParamValues& values, ParamId id, const std::string& text);
// "" where setParam takes `text` for this parameter, else its sentence: for
// a check that sets nothing (a script's line, before it runs).
std::string paramRefusal(ParamId id, const std::string& text);
// The value as its flag (or, for the mask, the settings file: JSON, nothing
// lost) takes it back: setParam(v, id, paramText(v, id)) changes nothing.
std::string paramText(const ParamValues& values, ParamId id);
// A row's range as help and sentences name it ("1..63"); "" for a Choice or Text.
std::string paramRange(const ParamDescription& d);

// --help lines for these parameters ("  --mask SPEC         ..."), the value
// column starting at `column`; the range and the default are named where
// there are ones.
std::string paramHelp(const std::vector<ParamId>& ids, int column = 22);

}  // namespace liveconv
