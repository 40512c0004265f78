#include "liveconv/parameters.hpp"

#include <cstdio>
#include <sstream>

#include "liveconv/errors.hpp"
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

std::vector<ParamDescription> describeParams() {
  return {
      {ParamId::Mask, "--mask", "SPEC",
       "a preset or inline mask, as `liveconv presets` lists them, or @FILE.json / FILE.json", "motion45:7",
       "filter/mask", {}},
      {ParamId::Variant, "--variant", "NAME", "the kernel variant (`liveconv variants`); auto races them", "auto",
       "filter/variant", variantChoices()},
      {ParamId::Border, "--border", "MODE", "what lies beyond the frame's edges", "clamp", "filter/border",
       {"clamp", "mirror", "wrap", "zero"}},
      {ParamId::Alpha, "--alpha", "MODE", "RGBA alpha: copied from the centre pixel, or filtered like a colour",
       "copy", "filter/alpha", {"copy", "filter"}},
      {ParamId::Workgroup, "--workgroup", "WxH", "the work-group shape; 0x0 is the variant's own", "0x0",
       "filter/workgroup", {}},
      {ParamId::Format, "--format", "FORMAT", "the pixel format filtered (and written)", "rgba", "filter/format",
       {"rgba", "gray"}},
      {ParamId::Device, "--device", "SEL",
       "index, P:D, gpu, cpu or part of a name; default $LIVECONV_DEVICE, else GPU, else CPU", "", "device", {}},
  };
}

std::string joinChoices(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i)
    out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return out;
}

// "WxH", each side 0 (both: the variant's own shape) or 1..16384.
WorkgroupShape parseWorkgroup(const std::string& text) {
  std::istringstream in(text);
  char x = 0;
  int w = -1, h = -1;
  const bool read = static_cast<bool>(in >> w >> x >> h) && (x == 'x' || x == 'X') && in.eof();
  if (!read || w < 0 || h < 0 || w > 16384 || h > 16384 || (w == 0) != (h == 0))
    throw InvalidArgument("Bad workgroup '" + text + "'; write WxH, for example 16x16 (0x0: the variant's own).");
  return {w, h};
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
      v.filter.mask = !text.empty() && text.front() == '{' ? parseMaskJson(text) : parseMaskArgument(text);
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
      v.filter.workgroup = parseWorkgroup(text);
      return;
    case ParamId::Format: {
      const PixelFormat format = parsePixelFormat(text);
      if (format == PixelFormat::Invalid)
        throw InvalidArgument("Unknown format '" + text + "'; use " + joinChoices(d.choices) + ".");
      v.format = format;
      return;
    }
    case ParamId::Device:
      v.device = text;
      return;
    case ParamId::Invalid:
      break;
  }
  throw InvalidArgument("Unknown parameter.");
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
    case ParamId::Invalid:
      break;
  }
  throw InvalidArgument("Unknown parameter.");
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
    const std::string text = d.help + (*d.defaultText ? std::string(" (default ") + d.defaultText + ")" : std::string());
    out += head + wrapped(text, column) + "\n";
  }
  return out;
}

}  // namespace liveconv
