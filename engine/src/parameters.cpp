#include "liveconv/parameters.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <utility>

#include "liveconv/errors.hpp"
#include "liveconv/kernel_sources.hpp"
#include "liveconv/mask.hpp"
#include "liveconv/mask_file.hpp"
#include "liveconv/variants.hpp"

namespace liveconv {
namespace {

std::vector<std::string> variantChoices() {
  std::vector<std::string> names;
  for (const VariantInfo& v : variantRegistry()) names.push_back(v.name);
  return names;
}

// One row of the table, each field set by name; a row is a Filter parameter
// unless it says otherwise, and its type is set with what that type needs.
class Row {
 public:
  Row(ParamId id, const char* flag, const char* valueName) {
    d_.id = id;
    d_.flag = flag;
    d_.valueName = valueName;
  }
  Row& help(const char* text) {
    d_.help = text;
    return *this;
  }
  Row& byDefault(const char* text) {
    d_.defaultText = text;
    return *this;
  }
  Row& key(const char* settingsKey) {
    d_.settingsKey = settingsKey;
    return *this;
  }
  Row& group(ParamGroup group) {
    d_.group = group;
    return *this;
  }
  Row& choice(std::vector<std::string> words) {
    d_.type = ParamType::Choice;
    d_.choices = std::move(words);
    return *this;
  }
  Row& text() {
    d_.type = ParamType::Text;
    return *this;
  }
  Row& integer(int minimum, int maximum, int step = 1) { return ranged(ParamType::Integer, minimum, maximum, step); }
  Row& number(double minimum, double maximum, double step) { return ranged(ParamType::Number, minimum, maximum, step); }
  // WxH; `zeroMeans` says what 0x0 stands for ("" where it is refused).
  Row& size(int minimum, int maximum, const char* zeroMeans) {
    d_.zeroMeans = zeroMeans;
    return ranged(ParamType::Size, minimum, maximum, 1);
  }
  Row& maskSpec(int minimumSide, int maximumSide) { return ranged(ParamType::MaskSpec, minimumSide, maximumSide, 2); }
  operator ParamDescription() const { return d_; }

 private:
  Row& ranged(ParamType type, double minimum, double maximum, double step) {
    d_.type = type;
    d_.minimum = minimum;
    d_.maximum = maximum;
    d_.step = step;
    return *this;
  }
  ParamDescription d_;
};

std::vector<ParamDescription> describeParams() {
  return {
      Row(ParamId::Mask, "--mask", "SPEC")
          .help("a preset or inline mask, as `liveconv presets` lists them, or @FILE.json / FILE.json")
          .byDefault("motion45:7")
          .key("filter/mask")
          .maskSpec(1, kMaxMaskSide),
      Row(ParamId::Variant, "--variant", "NAME")
          .help("the kernel variant (`liveconv variants`); auto races them")
          .byDefault("auto")
          .key("filter/variant")
          .choice(variantChoices()),
      Row(ParamId::Border, "--border", "MODE")
          .help("what lies beyond the frame's edges")
          .byDefault("clamp")
          .key("filter/border")
          .choice({"clamp", "mirror", "wrap", "zero"}),
      Row(ParamId::Alpha, "--alpha", "MODE")
          .help("RGBA alpha: copied from the centre pixel, or filtered like a colour")
          .byDefault("copy")
          .key("filter/alpha")
          .choice({"copy", "filter"}),
      Row(ParamId::Workgroup, "--workgroup", "WxH")
          .help("the work-group shape; 0x0 is the variant's own")
          .byDefault("0x0")
          .key("filter/workgroup")
          .size(1, 16384, "the variant's own"),
      Row(ParamId::Format, "--format", "FORMAT")
          .help("the pixel format filtered (and written)")
          .byDefault("rgba")
          .key("filter/format")
          .choice({"rgba", "gray"}),
      Row(ParamId::Device, "--device", "SEL")
          .help("index, P:D, gpu, cpu or part of a name; default $LIVECONV_DEVICE, else GPU, else CPU")
          .key("device")
          .group(ParamGroup::Device)
          .text(),
      Row(ParamId::OpenTimeout, "--open-timeout", "SECONDS")
          .help("give up opening a source that sends nothing for this long (a stream that accepts and never "
                "answers); 0 waits as long as it takes")
          .byDefault("20")
          .group(ParamGroup::Source)
          .integer(0, 86400, 5),
      Row(ParamId::KernelFile, "--kernel-file", "FILE.cl")
          .help("a kernel of your own, run as the variant `user` and raced by auto: it is built with the "
                "variants' options, checked against the CPU reference, and refused with its build log "
                "(docs/variants.md)")
          .text(),
  };
}

std::string joinChoices(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i)
    out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return out;
}

std::string rangeNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// "from 1 to 63", as a sentence names a row's range.
std::string fromTo(const ParamDescription& d) {
  return "from " + rangeNumber(d.minimum) + " to " + rangeNumber(d.maximum);
}

// An Integer's or a Number's value, inside its row's range.
double readNumber(const ParamDescription& d, const std::string& text) {
  const bool whole = d.type == ParamType::Integer;
  char* end = nullptr;
  errno = 0;
  const double v = whole ? static_cast<double>(std::strtol(text.c_str(), &end, 10)) : std::strtod(text.c_str(), &end);
  const bool read = !text.empty() && !std::isspace(static_cast<unsigned char>(text.front())) && *end == '\0' &&
                    errno == 0 && std::isfinite(v);
  if (!read || v < d.minimum || v > d.maximum)
    throw InvalidArgument(std::string(d.flag) + " needs " + (whole ? "a whole number " : "a number ") + fromTo(d) +
                          ", not '" + text + "'.");
  return v;
}

// A Size's "WxH", each side inside its row's range, or 0x0 where the row takes it.
WorkgroupShape readSize(const ParamDescription& d, const std::string& text) {
  std::istringstream in(text);
  char x = 0;
  int w = -1, h = -1;
  const bool read = static_cast<bool>(in >> w >> x >> h) && (x == 'x' || x == 'X') && in.eof();
  const bool zero = read && w == 0 && h == 0 && *d.zeroMeans;
  const bool inRange = read && w >= d.minimum && h >= d.minimum && w <= d.maximum && h <= d.maximum;
  if (!zero && !inRange)
    throw InvalidArgument("Bad " + std::string(d.flag + 2) + " '" + text + "'; " + d.flag + " takes WxH, each side " +
                          fromTo(d) + (*d.zeroMeans ? std::string(" (0x0: ") + d.zeroMeans + ")" : "") + ".");
  return {w, h};
}

// A mask as its flag or a settings file spells it. The spec's own reader
// names what is wrong with a spec; the row's range is checked after it.
Mask readMask(const ParamDescription& d, const std::string& text) {
  Mask m = !text.empty() && text.front() == '{' ? parseMaskJson(text) : parseMaskArgument(text);
  if (m.width < d.minimum || m.height < d.minimum || m.width > d.maximum || m.height > d.maximum)
    throw InvalidArgument(std::string(d.flag) + " takes masks with odd sides " + fromTo(d) + ", not " +
                          std::to_string(m.width) + "x" + std::to_string(m.height) + ".");
  return m;
}

// The range as --help names it, after the row's help.
std::string rangeHelp(const ParamDescription& d) {
  switch (d.type) {
    case ParamType::Integer:
    case ParamType::Number:
      return "; " + paramRange(d);
    case ParamType::Size:
      return "; each side " + paramRange(d);
    case ParamType::MaskSpec:
      return "; odd sides " + paramRange(d);
    default:
      return "";
  }
}

// `text` in lines of at most kHelpWidth columns, the lines after the first indented to `column`.
constexpr std::size_t kHelpWidth = 100;
std::string wrapped(const std::string& text, int column) {
  std::istringstream words(text);
  std::string out, word;
  std::size_t at = static_cast<std::size_t>(column);
  for (bool first = true; words >> word; first = false) {
    if (!first && at + 1 + word.size() > kHelpWidth) {
      out += "\n" + std::string(static_cast<std::size_t>(column), ' ');
      at = static_cast<std::size_t>(column);
    } else if (!first) {
      out += ' ';
      ++at;
    }
    out += word;
    at += word.size();
  }
  return out;
}

}  // namespace

const std::vector<ParamDescription>& paramDescriptions() {
  static const std::vector<ParamDescription> table = describeParams();
  return table;
}

const ParamDescription& paramDescription(ParamId id) {
  for (const ParamDescription& d : paramDescriptions())
    if (d.id == id) return d;
  throw InvalidArgument("Unknown parameter.");
}

const ParamDescription* findParamByFlag(std::string_view flag) {
  for (const ParamDescription& d : paramDescriptions())
    if (flag == d.flag) return &d;
  return nullptr;
}

ParamValues defaultParams() {
  ParamValues v;
  for (const ParamDescription& d : paramDescriptions()) setParam(v, d.id, d.defaultText);
  return v;
}

void setParam(ParamValues& v, ParamId id, const std::string& text) {
  const ParamDescription& d = paramDescription(id);
  switch (id) {
    case ParamId::Mask:
      v.filter.mask = readMask(d, text);
      return;
    case ParamId::Variant: {
      const VariantInfo* variant = findVariant(text);
      if (!variant) throw InvalidArgument("Unknown variant '" + text + "'; the variants are " + variantNames() + ".");
      v.filter.variant = variant->id;
      return;
    }
    case ParamId::Border: {
      const BorderMode border = parseBorderMode(text);
      if (border == BorderMode::Invalid)
        throw InvalidArgument("Unknown border mode '" + text + "'; use " + joinChoices(d.choices) + ".");
      v.filter.border = border;
      return;
    }
    case ParamId::Alpha:
      if (text != "copy" && text != "filter")
        throw InvalidArgument("Unknown alpha mode '" + text + "'; use " + joinChoices(d.choices) + ".");
      v.filter.alpha = text == "filter" ? AlphaMode::Filter : AlphaMode::PassThrough;
      return;
    case ParamId::Workgroup:
      v.filter.workgroup = readSize(d, text);
      return;
    case ParamId::Format: {
      // --format names the channels; the source (and `run --depth`) the depth.
      const PixelFormat format = parsePixelFormat(text);
      if (format == PixelFormat::Invalid)
        throw InvalidArgument("Unknown format '" + text + "'; use " + joinChoices(d.choices) + ".");
      if (bytesPerSample(format) != 1)
        throw InvalidArgument("Format " + text + " names a depth: give --format " +
                              toString(withSampleBits(format, 8)) +
                              ": a source of more than 8 bits is filtered at 16 (in `run`, --depth 16 asks for it).");
      v.format = format;
      return;
    }
    case ParamId::Device:
      v.device = text;
      return;
    case ParamId::OpenTimeout:
      v.openTimeoutSeconds = static_cast<int>(readNumber(d, text));
      return;
    case ParamId::KernelFile:
      v.kernelFile = text;
      return;
    case ParamId::Invalid:
      break;
  }
  throw InvalidArgument("Unknown parameter.");
}

void applyKernelFile(const ParamValues& values) {
  if (!values.kernelFile.empty()) loadUserKernel(values.kernelFile);
  if (values.filter.variant == VariantId::User && !userKernelLoaded())
    throw InvalidArgument("The variant user runs a kernel of your own: give its file with --kernel-file FILE.cl.");
}

std::string paramRefusal(ParamId id, const std::string& text) {
  ParamValues scratch;
  try {
    setParam(scratch, id, text);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

std::string paramText(const ParamValues& v, ParamId id) {
  switch (id) {
    case ParamId::Mask:
      return maskToJson(v.filter.mask);
    case ParamId::Variant:
      return variantInfo(v.filter.variant).name;
    case ParamId::Border:
      return toString(v.filter.border);
    case ParamId::Alpha:
      return v.filter.alpha == AlphaMode::Filter ? "filter" : "copy";
    case ParamId::Workgroup:
      return std::to_string(v.filter.workgroup.x) + "x" + std::to_string(v.filter.workgroup.y);
    case ParamId::Format:
      return toString(v.format);
    case ParamId::Device:
      return v.device;
    case ParamId::OpenTimeout:
      return std::to_string(v.openTimeoutSeconds);
    case ParamId::KernelFile:
      return v.kernelFile;
    case ParamId::Invalid:
      break;
  }
  throw InvalidArgument("Unknown parameter.");
}

std::string paramRange(const ParamDescription& d) {
  if (d.type == ParamType::Choice || d.type == ParamType::Text) return "";
  return rangeNumber(d.minimum) + ".." + rangeNumber(d.maximum);
}

std::string paramHelp(const std::vector<ParamId>& ids, int column) {
  std::string out;
  for (ParamId id : ids) {
    const ParamDescription& d = paramDescription(id);
    std::string value = d.valueName;  // a short choice is spelled out: clamp|mirror|wrap|zero
    if (!d.choices.empty() && d.choices.size() <= 4) {
      value.clear();
      for (std::size_t i = 0; i < d.choices.size(); ++i) value += (i ? "|" : "") + d.choices[i];
    }
    std::string head = std::string("  ") + d.flag + " " + value;
    if (static_cast<int>(head.size()) + 2 > column) head += "\n" + std::string(static_cast<std::size_t>(column), ' ');
    else head.resize(static_cast<std::size_t>(column), ' ');
    const std::string text =
        d.help + rangeHelp(d) + (*d.defaultText ? std::string(" (default ") + d.defaultText + ")" : std::string());
    out += head + wrapped(text, column) + "\n";
  }
  return out;
}

}  // namespace liveconv
