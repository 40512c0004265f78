#include "liveconv/mask.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <sstream>

#include "liveconv/errors.hpp"

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
      out << "Mask coefficient at row " << k / width << ", column " << k % width << " is not a finite number.";
      return out.str();
    }
  }
  if (normalize == Normalize::Invalid) return "Mask normalize mode must be none or auto.";
  if (normalize == Normalize::None && (!std::isfinite(divisor) || divisor == 0.0f))
    return "Mask divisor must be a finite number other than zero.";
  if (!std::isfinite(bias)) return "Mask bias must be a finite number.";
  return {};
}

void Mask::validate() const {
  if (std::string e = validationError(); !e.empty()) throw InvalidArgument(e);
}

float Mask::scale() const {
  if (normalize == Normalize::Auto) return sumSign(*this) == SumSign::Positive ? 1.0f / sum() : 1.0f;
  return 1.0f / divisor;
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

std::string lowerCopy(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

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

float parseNumber(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const float v = std::strtof(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size())
    throw InvalidArgument("Mask spec: " + what + " '" + text + "' is not a number.");
  return v;
}

int parseSize(const std::string& text, const std::string& presetName) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size())
    throw InvalidArgument("Mask spec: size '" + text + "' of preset " + presetName + " is not a whole number.");
  if (v < 1 || v > kMaxMaskSide || v % 2 == 0)
    throw InvalidArgument("Mask spec: size " + text + " of preset " + presetName + " must be odd, from 1 to " +
                          std::to_string(kMaxMaskSide) + ".");
  return static_cast<int>(v);
}

// "7x5" -> {7, 5}; false when it is not of that shape.
bool parseDimensions(const std::string& text, int* w, int* h) {
  const auto x = text.find_first_of("xX");
  if (x == std::string::npos || x == 0 || x + 1 >= text.size()) return false;
  const std::string a = text.substr(0, x), b = text.substr(x + 1);
  auto digits = [](const std::string& s) { return std::all_of(s.begin(), s.end(), ::isdigit); };
  if (!digits(a) || !digits(b)) return false;
  *w = std::atoi(a.c_str());
  *h = std::atoi(b.c_str());
  return true;
}

}  // namespace

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

Mask parseMaskSpec(std::string_view specText) {
  const std::string spec = trim(specText);
  if (spec.empty()) throw InvalidArgument("Mask spec is empty; give a preset such as gaussian:7 or WxH:c1,c2,...");
  const std::vector<std::string> sections = split(spec, ';');
  const std::vector<std::string> head = split(sections[0], ':');
  const std::string name = lowerCopy(head[0]);

  // key=value parameters after the size, e.g. gaussian:7:sigma=1.5
  std::vector<std::pair<std::string, std::string>> params;
  std::string sizeArg;
  for (std::size_t k = 1; k < head.size(); ++k) {
    const auto eq = head[k].find('=');
    if (eq == std::string::npos) {
      if (k != 1) throw InvalidArgument("Mask spec: '" + head[k] + "' should be key=value (e.g. sigma=1.5).");
      sizeArg = head[k];
    } else {
      params.emplace_back(lowerCopy(head[k].substr(0, eq)), head[k].substr(eq + 1));
    }
  }
  auto param = [&](const char* key, float fallback) {
    for (auto& [k, v] : params)
      if (k == key) return parseNumber(v, key);
    return fallback;
  };
  auto requireSize = [&](int fallback) { return sizeArg.empty() ? fallback : parseSize(sizeArg, name); };

  Mask m;
  int w = 0, h = 0;
  if (parseDimensions(name, &w, &h)) {
    std::vector<float> coeffs;
    for (const std::string& c : split(sizeArg, ',')) coeffs.push_back(parseNumber(c, "coefficient"));
    m = fromRows(w, h, std::move(coeffs), Normalize::None);
  } else if (name == "identity") {
    m = fromRows(1, 1, {1});
  } else if (name == "box") {
    const int n = requireSize(3);
    m = fromRows(n, n, std::vector<float>(static_cast<std::size_t>(n) * n, 1.0f));
  } else if (name == "gaussian") {
    const int n = requireSize(5);
    const auto g = gaussian1d(n, param("sigma", defaultSigma(n)));
    m = outer(g, g);
  } else if (name == "unsharp") {
    const int n = requireSize(5);
    const float amount = param("amount", 1.0f);
    const auto g = gaussian1d(n, param("sigma", defaultSigma(n)));
    m = outer(g, g);
    for (float& c : m.coefficients) c *= -amount;
    m.coefficients[static_cast<std::size_t>(n) * n / 2] += 1.0f + amount;
  } else if (name == "sharpen") {
    m = fromRows(3, 3, {0, -1, 0, -1, 5, -1, 0, -1, 0});
  } else if (name == "laplacian") {
    m = fromRows(3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0});
  } else if (name == "edge") {
    m = fromRows(3, 3, {-1, -1, -1, -1, 8, -1, -1, -1, -1});
  } else if (name == "sobel-x") {
    m = fromRows(3, 3, {-1, 0, 1, -2, 0, 2, -1, 0, 1});
  } else if (name == "sobel-y") {
    m = fromRows(3, 3, {-1, -2, -1, 0, 0, 0, 1, 2, 1});
  } else if (name == "emboss") {
    m = fromRows(3, 3, {-2, -1, 0, -1, 1, 1, 0, 1, 2});
  } else if (name == "motion45") {
    const int n = requireSize(7);
    if (n == 7) {
      m = fromRows(7, 7, std::vector<float>(std::begin(kSeedMotion45), std::end(kSeedMotion45)));
    } else {  // a line from bottom left to top right
      std::vector<float> c(static_cast<std::size_t>(n) * n, 0.0f);
      for (int k = 0; k < n; ++k) c[static_cast<std::size_t>(n - 1 - k) * n + k] = 1.0f;
      m = fromRows(n, n, std::move(c));
    }
  } else {
    std::string names;
    for (const auto& p : maskPresets()) names += std::string(names.empty() ? "" : ", ") + p.name;
    throw InvalidArgument("Mask spec '" + spec + "' is neither WxH:coefficients nor a preset (" + names + ").");
  }

  for (std::size_t k = 1; k < sections.size(); ++k) {
    if (sections[k].empty()) continue;
    const auto eq = sections[k].find('=');
    if (eq == std::string::npos) throw InvalidArgument("Mask spec option '" + sections[k] + "' needs key=value.");
    const std::string key = lowerCopy(sections[k].substr(0, eq));
    const std::string value = sections[k].substr(eq + 1);
    if (key == "divisor") {
      m.divisor = parseNumber(value, "divisor");
      m.normalize = Normalize::None;
    } else if (key == "bias") {
      m.bias = parseNumber(value, "bias");
    } else if (key == "normalize") {
      const std::string v = lowerCopy(value);
      if (v == "auto") m.normalize = Normalize::Auto;
      else if (v == "none") m.normalize = Normalize::None;
      else throw InvalidArgument("Mask spec: normalize must be auto or none, not '" + value + "'.");
    } else {
      throw InvalidArgument("Mask spec option '" + key + "' is unknown; use divisor, bias or normalize.");
    }
  }
  m.validate();
  return m;
}

std::string describe(const Mask& mask) {
  std::ostringstream out;
  out << mask.width << "x" << mask.height << " (" << mask.nonZeroTaps() << " non-zero of "
      << mask.width * mask.height << " taps), ";
  if (mask.normalize == Normalize::Auto) out << "normalize auto (sum " << mask.sum() << ")";
  else out << "divisor " << mask.divisor;
  out << ", bias " << mask.bias;
  return out.str();
}

}  // namespace liveconv
