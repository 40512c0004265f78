#include "liveconv/mask.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <set>
#include <sstream>

#include "ascii_text.hpp"
#include "liveconv/errors.hpp"
#include "liveconv/image.hpp"

namespace liveconv {

const char* toString(Normalize mode) {
  switch (mode) {
    case Normalize::None: return "none";
    case Normalize::Auto: return "auto";
    case Normalize::Invalid: break;
  }
  return "invalid";
}

float Mask::sum() const {
  double s = 0;
  for (float c : coefficients) s += c;
  return static_cast<float>(s);
}

namespace {

// The coefficient sum counts as zero when it is tiny next to the coefficients' magnitude.
enum class SumSign { Negative, Zero, Positive };
SumSign sumSign(const Mask& mask) {
  double s = 0, magnitude = 0;
  for (float c : mask.coefficients) {
    s += c;
    magnitude += std::fabs(c);
  }
  if (std::fabs(s) <= 1e-6 * magnitude) return SumSign::Zero;
  return s > 0 ? SumSign::Positive : SumSign::Negative;
}

std::string sideError(const char* which, int value) {
  std::ostringstream out;
  if (value < 1 || value > kMaxMaskSide)
    out << "Mask " << which << " " << value << " is out of range; width and height must be odd numbers from 1 to "
        << kMaxMaskSide << ".";
  else if (value % 2 == 0)
    out << "Mask " << which << " " << value << " is even; width and height must be odd (1 to " << kMaxMaskSide
        << ") so the mask has a centre.";
  return out.str();
}

std::string numberText(double v) {
  std::ostringstream out;
  out.precision(9);
  out << v;
  return out.str();
}

// The float arithmetic every variant does, bounded: the accumulator reaches at
// most sum(|c|) * 65535 (16-bit samples; 8-bit ones stay below that), the
// result |acc * scale| + |offset at 16 bits|. Both must be finite
// floats, so no accepted mask can produce inf or NaN (and the CPU reference's
// float -> uchar conversion always gets a finite value).
std::string rangeError(const Mask& m) {
  const double scale = m.scale(), offset = m.offsetFor(kLargestSample);
  if (!std::isfinite(scale)) {
    if (m.normalize == Normalize::Auto)
      return "Mask normalize=auto divides by the coefficient sum " + numberText(m.sum()) +
             ", which gives a scale beyond float range; use larger coefficients, or normalize=none with a divisor.";
    return "Mask divisor " + numberText(m.divisor) + " gives a scale 1/divisor beyond float range; use a divisor of " +
           "at least 3e-38 in magnitude.";
  }
  if (!std::isfinite(offset))
    return "Mask bias " + numberText(m.bias) + " leaves no room for the offset; keep |bias| below 1e36.";
  double absSum = 0;
  for (float c : m.coefficients) absSum += std::fabs(c);
  const double accumulator = absSum * kLargestSample;
  const double result = accumulator * std::fabs(scale) + std::fabs(offset);
  constexpr double kFloatMax = std::numeric_limits<float>::max();
  if (!(accumulator <= kFloatMax))
    return "Mask coefficients are too large: the sum of their magnitudes times 65535, the largest 16-bit value (" +
           numberText(accumulator) + "), overflows the float accumulator; keep the sum of |coefficients| below 5e33.";
  if (!(result <= kFloatMax))
    return "Mask scale and offset are too large: a result can reach " + numberText(result) +
           ", beyond float range; use a larger divisor or smaller coefficients.";
  return {};
}

}  // namespace

std::string Mask::validationError() const {
  if (auto e = sideError("width", width); !e.empty()) return e;
  if (auto e = sideError("height", height); !e.empty()) return e;
  const std::size_t expected = static_cast<std::size_t>(width) * height;
  if (coefficients.size() != expected) {
    std::ostringstream out;
    out << "Mask has " << coefficients.size() << " coefficients but " << width << "x" << height << " needs "
        << expected << ".";
    return out.str();
  }
  for (std::size_t k = 0; k < coefficients.size(); ++k) {
    if (!std::isfinite(coefficients[k])) {
      std::ostringstream out;
      out << "Mask coefficient at row " << k / width << ", column " << k % width
          << " is not a finite number; write a number such as 0.25 or -2.";
      return out.str();
    }
  }
  if (normalize == Normalize::Invalid) return "Mask normalize mode must be none or auto.";
  // The divisor must make sense in either mode: a saved mask may be switched back to none.
  if (!std::isfinite(divisor) || divisor == 0.0f)
    return "Mask divisor must be a finite number other than zero (for example divisor=16), not " +
           numberText(divisor) + ".";
  if (!std::isfinite(bias)) return "Mask bias must be a finite number (for example bias=128).";
  return rangeError(*this);
}
void Mask::validate() const {
  if (std::string e = validationError(); !e.empty()) throw InvalidArgument(e);
}

float Mask::scale() const {
  if (normalize == Normalize::Auto) return sumSign(*this) == SumSign::Positive ? 1.0f / sum() : 1.0f;
  return 1.0f / divisor;
}

float Mask::offsetFor(int maxSample) const {
  return maxSample == 255 ? offset() : static_cast<float>(static_cast<double>(offset()) * maxSample / 255.0);
}

float Mask::offset() const {
  if (normalize == Normalize::Auto) {
    switch (sumSign(*this)) {
      case SumSign::Zero: return bias + 128.0f;
      case SumSign::Negative: return bias + 255.0f;
      case SumSign::Positive: break;
    }
  }
  return bias;
}

bool Mask::isIntegerValued() const {
  auto isInt = [](float v) { return std::isfinite(v) && std::nearbyint(v) == v; };
  if (!std::all_of(coefficients.begin(), coefficients.end(), isInt) || !isInt(bias)) return false;
  if (normalize == Normalize::Auto) return sumSign(*this) != SumSign::Positive || isInt(sum());
  return isInt(divisor);
}

int Mask::toleranceLsb(int maxSample) const {
  if (!isIntegerValued()) return 1;
  double absSum = 0;
  for (float c : coefficients) absSum += std::fabs(c);
  return absSum * maxSample < 16777216.0 ? 0 : 1;
}

int Mask::nonZeroTaps() const {
  return static_cast<int>(std::count_if(coefficients.begin(), coefficients.end(), [](float c) { return c != 0; }));
}

bool Mask::operator==(const Mask& o) const {
  return width == o.width && height == o.height && coefficients == o.coefficients && divisor == o.divisor &&
         bias == o.bias && normalize == o.normalize;
}

bool factorSeparable(const Mask& mask, SeparableFactors* factors, float relativeTolerance) {
  if (!mask.validationError().empty()) return false;
  // Pivot on the largest coefficient: row = the pivot's row, column = the pivot's
  // column divided by the pivot. Rank one iff every tap equals column * row.
  int pi = 0, pj = 0;
  float best = 0;
  for (int j = 0; j < mask.height; ++j)
    for (int i = 0; i < mask.width; ++i)
      if (std::fabs(mask.at(i, j)) > best) best = std::fabs(mask.at(i, j)), pi = i, pj = j;
  SeparableFactors f;
  f.row.resize(mask.width);
  f.column.resize(mask.height);
  if (best == 0) {  // the all-zero mask is trivially rank one
    f.column.assign(mask.height, 0.0f);
    f.row.assign(mask.width, 0.0f);
  } else {
    const float pivot = mask.at(pi, pj);
    for (int i = 0; i < mask.width; ++i) f.row[i] = mask.at(i, pj);
    for (int j = 0; j < mask.height; ++j) f.column[j] = mask.at(pi, j) / pivot;
    for (int j = 0; j < mask.height; ++j)
      for (int i = 0; i < mask.width; ++i)
        if (std::fabs(mask.at(i, j) - f.column[j] * f.row[i]) > relativeTolerance * best) return false;
  }
  if (factors) *factors = std::move(f);
  return true;
}

// ---------------------------------------------------------------- presets

namespace {

Mask fromRows(int w, int h, std::vector<float> c, Normalize n = Normalize::Auto) {
  Mask m;
  m.width = w;
  m.height = h;
  m.coefficients = std::move(c);
  m.normalize = n;
  return m;
}

std::vector<float> gaussian1d(int size, float sigma) {
  std::vector<float> g(size);
  const int r = size / 2;
  double total = 0;
  for (int i = 0; i < size; ++i) total += g[i] = static_cast<float>(std::exp(-(i - r) * (i - r) / (2.0 * sigma * sigma)));
  for (float& v : g) v = static_cast<float>(v / total);
  return g;
}

float defaultSigma(int size) { return 0.3f * ((size - 1) * 0.5f - 1.0f) + 0.8f; }  // OpenCV's rule

Mask outer(const std::vector<float>& column, const std::vector<float>& row) {
  Mask m;
  m.width = static_cast<int>(row.size());
  m.height = static_cast<int>(column.size());
  m.coefficients.resize(row.size() * column.size());
  for (std::size_t j = 0; j < column.size(); ++j)
    for (std::size_t i = 0; i < row.size(); ++i) m.coefficients[j * row.size() + i] = column[j] * row[i];
  m.normalize = Normalize::Auto;
  return m;
}

// The seed chapter's 7x7 45-degree motion blur, as printed there.
const float kSeedMotion45[49] = {
    0, 0, 0, 0, 0, 0.0145f, 0,                          //
    0, 0, 0, 0, 0.0376f, 0.1283f, 0.0145f,              //
    0, 0, 0, 0.0376f, 0.1283f, 0.0376f, 0,              //
    0, 0, 0.0376f, 0.1283f, 0.0376f, 0, 0,              //
    0, 0.0376f, 0.1283f, 0.0376f, 0, 0, 0,              //
    0.0145f, 0.1283f, 0.0376f, 0, 0, 0, 0,              //
    0, 0.0145f, 0, 0, 0, 0, 0};

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  return parts;
}

// User text inside a sentence: control characters escaped (the sentence stays
// one line) and long text cut, so a refusal never echoes a whole file.
std::string shown(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (out.size() >= 48) return out + "...";
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 32 && c != 127) {
      out += static_cast<char>(c);
    } else {
      static const char* kHex = "0123456789abcdef";
      out += c == '\n' ? std::string("\\n") : std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
    }
  }
  return out;
}

float parseNumber(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const float v = std::strtof(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size())
    throw InvalidArgument("Mask spec: " + what + " '" + shown(text) + "' is not a number.");
  return v;
}

// A mask side written as digits: exactly an odd whole number from 1 to 63.
int parseSide(const std::string& text, const std::string& what) {
  const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) {
    return std::isdigit(c) != 0;
  });
  if (!digits) throw InvalidArgument("Mask spec: " + what + " '" + shown(text) + "' is not a whole number; write an odd number from 1 to " +
                                     std::to_string(kMaxMaskSide) + ".");
  const std::size_t first = std::min(text.find_first_not_of('0'), text.size());
  const long v = text.size() - first > 3 ? 1000 : std::strtol(text.c_str() + first, nullptr, 10);
  if (v < 1 || v > kMaxMaskSide)
    throw InvalidArgument("Mask spec: " + what + " " + shown(text) + " is out of range; it must be an odd whole number from 1 to " +
                          std::to_string(kMaxMaskSide) + ".");
  if (v % 2 == 0)
    throw InvalidArgument("Mask spec: " + what + " " + shown(text) + " is even; it must be odd (1 to " +
                          std::to_string(kMaxMaskSide) + ") so the mask has a centre, for example " +
                          std::to_string(v + 1) + ".");
  return static_cast<int>(v);
}

// "7x5" -> {7, 5} (each side checked); false when the text is not of that shape.
bool parseDimensions(const std::string& text, int* w, int* h) {
  const auto x = text.find_first_of("xX");
  if (x == std::string::npos || x == 0 || x + 1 >= text.size()) return false;
  const std::string a = text.substr(0, x), b = text.substr(x + 1);
  auto digits = [](const std::string& s) { return std::all_of(s.begin(), s.end(), ::isdigit); };
  if (!digits(a) || !digits(b)) return false;
  *w = parseSide(a, "width");
  *h = parseSide(b, "height");
  return true;
}

// What a preset takes, read from its own help text (":SIZE[:sigma=S]"), so the
// list users read and the parser cannot disagree.
struct PresetSyntax {
  bool size = false;
  std::vector<std::string> options;
};

PresetSyntax presetSyntax(const PresetInfo& p) {
  PresetSyntax out;
  const std::string text = p.parameters;
  out.size = text.find("SIZE") != std::string::npos;
  for (std::size_t at = text.find('='); at != std::string::npos; at = text.find('=', at + 1)) {
    std::size_t begin = at;
    while (begin > 0 && std::isalpha(static_cast<unsigned char>(text[begin - 1]))) --begin;
    out.options.push_back(text.substr(begin, at - begin));
  }
  return out;
}

std::string joinOr(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i)
    out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return out;
}

// The parts after a preset's name: its size and its key=value options, each
// checked against what the preset takes; none is ignored or given twice.
struct PresetArguments {
  std::string size;
  std::vector<std::pair<std::string, std::string>> options;
};

PresetArguments presetArguments(const PresetInfo& preset, const std::vector<std::string>& head) {
  const PresetSyntax syntax = presetSyntax(preset);
  const std::string example = std::string(preset.name) + preset.parameters;
  PresetArguments out;
  for (std::size_t k = 1; k < head.size(); ++k) {
    const auto eq = head[k].find('=');
    if (eq == std::string::npos) {
      if (!syntax.size)
        throw InvalidArgument("Mask spec: preset " + std::string(preset.name) + " takes no size ('" + shown(head[k]) +
                              "'); write just " + preset.name + ".");
      if (k != 1)
        throw InvalidArgument("Mask spec: '" + shown(head[k]) + "' should be key=value; write " + example + ".");
      out.size = head[k];
      continue;
    }
    const std::string key = detail::asciiLower(head[k].substr(0, eq));
    if (std::find(syntax.options.begin(), syntax.options.end(), key) == syntax.options.end())
      throw InvalidArgument("Mask spec: preset " + std::string(preset.name) + " has no option '" + shown(key) + "'; " +
                            (syntax.options.empty() ? std::string("it takes none") : "its options: " + joinOr(syntax.options)) +
                            " (" + example + ").");
    for (const auto& o : out.options)
      if (o.first == key) throw InvalidArgument("Mask spec: option " + shown(key) + " is given twice; give it once.");
    out.options.emplace_back(key, head[k].substr(eq + 1));
  }
  return out;
}

float presetOption(const PresetArguments& args, const char* key, float fallback) {
  for (const auto& [k, v] : args.options) {
    if (k != key) continue;
    const float value = parseNumber(v, key);
    if (std::string(key) == "sigma" && !(std::isfinite(value) && value > 0))
      throw InvalidArgument("Mask spec: sigma must be a finite number above 0 (for example sigma=1.5), not '" + shown(v) + "'.");
    if (!std::isfinite(value))
      throw InvalidArgument("Mask spec: " + std::string(key) + " must be a finite number (for example " + key +
                            "=1), not '" + shown(v) + "'.");
    return value;
  }
  return fallback;
}

const PresetInfo* findPreset(const std::string& name) {
  for (const auto& p : maskPresets())
    if (name == p.name) return &p;
  return nullptr;
}

}  // namespace

std::string numberText(float value) {
  char text[32];
  for (int digits = 1; digits <= 9; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(value));
    if (std::strtof(text, nullptr) == value) break;
  }
  return text;
}

const std::vector<PresetInfo>& maskPresets() {
  static const std::vector<PresetInfo> presets = {
      {"identity", "", "1x1 pass-through"},
      {"box", ":SIZE", "SIZE x SIZE mean"},
      {"gaussian", ":SIZE[:sigma=S]", "Gaussian blur, sigma from the size when not given (separable)"},
      {"sharpen", "", "3x3 sharpen (5 centre, -1 cross)"},
      {"unsharp", ":SIZE[:amount=A][:sigma=S]", "unsharp mask: (1+A)*identity - A*gaussian"},
      {"laplacian", "", "3x3 Laplacian edge detector (+128 under auto normalization)"},
      {"edge", "", "3x3 8-neighbour edge detector"},
      {"sobel-x", "", "3x3 Sobel, bright where intensity rises to the right"},
      {"sobel-y", "", "3x3 Sobel, bright where intensity rises downwards"},
      {"emboss", "", "3x3 emboss, light from the top left"},
      {"motion45", ":SIZE", "45-degree motion blur; motion45:7 is the seed chapter's 7x7 mask"},
  };
  return presets;
}

namespace {

Mask presetMask(const PresetInfo& preset, const std::vector<std::string>& head) {
  const PresetArguments args = presetArguments(preset, head);
  const std::string name = preset.name;
  auto size = [&](int fallback) { return args.size.empty() ? fallback : parseSide(args.size, "size of " + name); };
  if (name == "identity") return fromRows(1, 1, {1});
  if (name == "box") {
    const int n = size(3);
    return fromRows(n, n, std::vector<float>(static_cast<std::size_t>(n) * n, 1.0f));
  }
  if (name == "gaussian") {
    const int n = size(5);
    const auto g = gaussian1d(n, presetOption(args, "sigma", defaultSigma(n)));
    return outer(g, g);
  }
  if (name == "unsharp") {
    const int n = size(5);
    const float amount = presetOption(args, "amount", 1.0f);
    const auto g = gaussian1d(n, presetOption(args, "sigma", defaultSigma(n)));
    Mask m = outer(g, g);
    for (float& c : m.coefficients) c *= -amount;
    m.coefficients[static_cast<std::size_t>(n) * n / 2] += 1.0f + amount;
    return m;
  }
  if (name == "sharpen") return fromRows(3, 3, {0, -1, 0, -1, 5, -1, 0, -1, 0});
  if (name == "laplacian") return fromRows(3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0});
  if (name == "edge") return fromRows(3, 3, {-1, -1, -1, -1, 8, -1, -1, -1, -1});
  if (name == "sobel-x") return fromRows(3, 3, {-1, 0, 1, -2, 0, 2, -1, 0, 1});
  if (name == "sobel-y") return fromRows(3, 3, {-1, -2, -1, 0, 0, 0, 1, 2, 1});
  if (name == "emboss") return fromRows(3, 3, {-2, -1, 0, -1, 1, 1, 0, 1, 2});
  // motion45
  const int n = size(7);
  if (n == 7) return fromRows(7, 7, std::vector<float>(std::begin(kSeedMotion45), std::end(kSeedMotion45)));
  std::vector<float> c(static_cast<std::size_t>(n) * n, 0.0f);  // a line from bottom left to top right
  for (int k = 0; k < n; ++k) c[static_cast<std::size_t>(n - 1 - k) * n + k] = 1.0f;
  return fromRows(n, n, std::move(c));
}

// ";divisor=D;bias=B;normalize=auto|none", each at most once. An inline mask is
// normalized by its sum (auto) unless a divisor is given.
void applyOptions(Mask& m, const std::vector<std::string>& sections) {
  std::set<std::string> seen;
  bool normalizeGiven = false;
  for (std::size_t k = 1; k < sections.size(); ++k) {
    if (sections[k].empty()) continue;
    const auto eq = sections[k].find('=');
    if (eq == std::string::npos)
      throw InvalidArgument("Mask spec option '" + shown(sections[k]) + "' needs key=value (divisor=16, bias=128, normalize=none).");
    const std::string key = detail::asciiLower(sections[k].substr(0, eq));
    const std::string value = sections[k].substr(eq + 1);
    if (!seen.insert(key).second) throw InvalidArgument("Mask spec option " + shown(key) + " is given twice; give it once.");
    if (key == "divisor") {
      m.divisor = parseNumber(value, "divisor");
      if (!std::isfinite(m.divisor) || m.divisor == 0.0f)
        throw InvalidArgument("Mask spec: divisor must be a finite number other than zero (for example divisor=16), not '" +
                              shown(value) + "'.");
      if (!normalizeGiven) m.normalize = Normalize::None;
    } else if (key == "bias") {
      m.bias = parseNumber(value, "bias");
      if (!std::isfinite(m.bias))
        throw InvalidArgument("Mask spec: bias must be a finite number (for example bias=128), not '" + shown(value) + "'.");
    } else if (key == "normalize") {
      const std::string v = detail::asciiLower(value);
      if (v == "auto") m.normalize = Normalize::Auto;
      else if (v == "none") m.normalize = Normalize::None;
      else throw InvalidArgument("Mask spec: normalize must be auto or none, not '" + shown(value) + "'.");
      normalizeGiven = true;
    } else {
      throw InvalidArgument("Mask spec option '" + shown(key) + "' is unknown; use divisor, bias or normalize.");
    }
  }
}

}  // namespace

Mask parseMaskSpec(std::string_view specText) {
  const std::string spec = trim(specText);
  if (spec.empty()) throw InvalidArgument("Mask spec is empty; give a preset such as gaussian:7 or WxH:c1,c2,...");
  const std::vector<std::string> sections = split(spec, ';');
  const std::vector<std::string> head = split(sections[0], ':');
  const std::string name = detail::asciiLower(head[0]);

  Mask m;
  int w = 0, h = 0;
  const bool inlineMask = parseDimensions(name, &w, &h);
  if (inlineMask) {
    if (head.size() != 2)
      throw InvalidArgument(head.size() < 2 ? "Mask spec " + shown(spec) + " has no coefficients; write " + shown(name) + ":c1,c2,..."
                                            : "Mask spec: inline masks take nothing after the coefficients but "
                                              "';' options (;divisor=16;bias=0;normalize=none).");
    std::vector<float> coeffs;
    for (const std::string& c : split(head[1], ',')) coeffs.push_back(parseNumber(c, "coefficient"));
    m = fromRows(w, h, std::move(coeffs), Normalize::Auto);
  } else if (const PresetInfo* preset = findPreset(name)) {
    m = presetMask(*preset, head);
  } else {
    std::string names;
    for (const auto& p : maskPresets()) names += std::string(names.empty() ? "" : ", ") + p.name;
    throw InvalidArgument("Mask spec '" + shown(spec) + "' is neither WxH:coefficients nor a preset (" + names + ").");
  }
  applyOptions(m, sections);
  m.validate();
  return m;
}

std::string describe(const Mask& mask) {
  std::ostringstream out;
  out << mask.width << "x" << mask.height << " (" << mask.nonZeroTaps() << " non-zero of "
      << mask.width * mask.height << " taps), ";
  if (mask.normalize == Normalize::Auto) out << "normalize auto (sum " << mask.sum() << ")";
  else out << "divisor " << mask.divisor;
  out << ", bias " << mask.bias << ": scale " << mask.scale() << ", offset " << mask.offset();
  return out.str();
}

OutputRange outputRange(const Mask& mask) {
  double positive = 0, negative = 0;
  for (float c : mask.coefficients) (c > 0 ? positive : negative) += c;
  const double a = 255.0 * negative * mask.scale() + mask.offset();
  const double b = 255.0 * positive * mask.scale() + mask.offset();
  return {std::min(a, b), std::max(a, b)};
}

std::string saturationNote(const Mask& mask) {
  const OutputRange r = outputRange(mask);
  if (r.low >= -0.5 && r.high < 255.5) return {};
  std::ostringstream out;
  out.precision(4);
  out << "results of this mask range from " << r.low << " to " << r.high
      << " and are clamped to 0..255, so the picture saturates where they fall outside.";
  return out.str();
}

}  // namespace liveconv

namespace liveconv {

Mask turnedClockwise(const Mask& mask, int quarterTurns) {
  Mask turned = mask;
  if (((quarterTurns % 4) + 4) % 2 == 1) std::swap(turned.width, turned.height);
  for (int y = 0; y < turned.height; ++y)
    for (int x = 0; x < turned.width; ++x) {
      const GridPoint p = turnedSource(x, y, mask.width, mask.height, quarterTurns);
      turned.coefficients[static_cast<std::size_t>(y) * turned.width + x] = mask.at(p.x, p.y);
    }
  return turned;
}

Mask benchMask(int w, int h) {
  Mask m;
  m.width = w;
  m.height = h;
  m.coefficients.resize(static_cast<std::size_t>(w) * h);
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i)
      m.coefficients[static_cast<std::size_t>(j) * w + i] = float((i * 7 + j * 13 + i * j) % 9 + 1);
  m.normalize = Normalize::Auto;
  return m;
}

}  // namespace liveconv
