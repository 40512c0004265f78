#include "liveconv/mask_file.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "liveconv/errors.hpp"

namespace liveconv {
namespace {

// Reads one JSON object of the mask schema, tracking line and column for errors.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  [[noreturn]] void fail(const std::string& what) const {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw InvalidArgument("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what);
  }

  void skipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  char peek() {
    skipSpace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  void expect(char c, const char* what) {
    if (peek() != c) {
      if (pos_ >= text_.size()) fail("the text ends before the mask object is closed");
      fail(std::string("expected ") + what);
    }
    ++pos_;
  }
  bool atEnd() {
    skipSpace();
    return pos_ >= text_.size();
  }

  std::string string() {
    expect('"', "a string in double quotes");
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\' || text_[pos_] == '\n')
        fail("escapes and line breaks are not allowed in mask file strings");
      out += text_[pos_++];
    }
    if (pos_ >= text_.size()) fail("the string is not closed");
    ++pos_;
    return out;
  }

  double number() {
    skipSpace();
    const std::size_t start = pos_;
    auto isNumberChar = [](char c) {
      return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
    };
    while (pos_ < text_.size() && isNumberChar(text_[pos_])) ++pos_;
    const std::string token(text_.substr(start, pos_ - start));
    char* end = nullptr;
    const double value = token.empty() ? 0 : std::strtod(token.c_str(), &end);
    if (token.empty() || end != token.c_str() + token.size()) {
      pos_ = start;
      if (pos_ >= text_.size()) fail("the text ends before the mask object is closed");
      fail("expected a number");
    }
    if (!std::isfinite(value) || std::fabs(value) > std::numeric_limits<float>::max()) {
      pos_ = start;
      fail("the number " + token + " is beyond float range");
    }
    return value;
  }

  std::size_t position() const { return pos_; }
  void rewind(std::size_t pos) { pos_ = pos; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

int integerIn(Reader& r, const char* key) {
  const std::size_t at = r.position();
  const double v = r.number();
  if (v != std::floor(v) || v < 1 || v > kMaxMaskSide) {
    r.rewind(at);
    r.fail(std::string("\"") + key + "\" must be a whole number from 1 to " + std::to_string(kMaxMaskSide));
  }
  return static_cast<int>(v);
}

constexpr std::size_t kMaxMaskFileBytes = 1 << 20;

// At most 1 MiB of a regular file, or of standard input for "-".
std::string readFile(const std::string& path) {
  std::ostringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
  } else {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) throw InvalidArgument("Mask file " + path + " does not exist.");
    if (std::filesystem::is_directory(status)) throw InvalidArgument("Mask file " + path + " is a directory.");
    if (!std::filesystem::is_regular_file(status))
      throw InvalidArgument("Mask file " + path + " is not a regular file; use @- to read a mask from standard input.");
    if (std::filesystem::file_size(path, ec) > kMaxMaskFileBytes)
      throw InvalidArgument("Mask file " + path + " is larger than 1 MiB; a mask file holds at most 63x63 numbers.");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InvalidArgument("Cannot read the mask file " + path + ".");
    text << in.rdbuf();
  }
  std::string out = text.str();
  if (out.size() > kMaxMaskFileBytes)
    throw InvalidArgument("Mask file " + path + " is larger than 1 MiB; a mask file holds at most 63x63 numbers.");
  return out;
}

// "coefficients": a flat list [c, c, ...] or a list of rows [[c, c], [c, c]].
// Row lengths are returned so they can be checked against width and height.
std::vector<float> coefficientList(Reader& r, std::vector<std::size_t>* rowLengths, std::size_t* rowsAt) {
  std::vector<float> out;
  r.expect('[', "'[' to open the coefficient list");
  const bool rows = r.peek() == '[';
  *rowsAt = r.position();
  while (r.peek() != ']') {
    if (!out.empty() || !rowLengths->empty()) r.expect(',', "',' or ']'");
    if (!rows) {
      out.push_back(static_cast<float>(r.number()));
      continue;
    }
    r.expect('[', "'[' to open a row (the list holds rows)");
    std::size_t n = 0;
    while (r.peek() != ']') {
      if (n) r.expect(',', "',' or ']'");
      out.push_back(static_cast<float>(r.number()));
      ++n;
    }
    r.expect(']', "']'");
    rowLengths->push_back(n);
  }
  r.expect(']', "']'");
  return out;
}

}  // namespace

Mask parseMaskJson(std::string_view text) {
  Reader r(text);
  Mask m;
  std::set<std::string> seen;
  std::vector<std::size_t> rowLengths;  // when coefficients are written as rows
  std::size_t rowsAt = 0;
  r.expect('{', "'{' to open the mask object");
  bool first = true;
  while (r.peek() != '}') {
    if (!first) r.expect(',', "',' or '}'");
    first = false;
    const std::size_t keyAt = r.position();
    const std::string key = r.string();
    if (!seen.insert(key).second) {
      r.rewind(keyAt);
      r.fail("\"" + key + "\" appears twice");
    }
    r.expect(':', "':' after the key");
    if (key == "width") {
      m.width = integerIn(r, "width");
    } else if (key == "height") {
      m.height = integerIn(r, "height");
    } else if (key == "divisor") {
      m.divisor = static_cast<float>(r.number());
    } else if (key == "bias") {
      m.bias = static_cast<float>(r.number());
    } else if (key == "normalize") {
      const std::size_t at = r.position();
      const std::string v = r.string();
      if (v == "none")
        m.normalize = Normalize::None;
      else if (v == "auto")
        m.normalize = Normalize::Auto;
      else {
        r.rewind(at);
        r.skipSpace();
        r.fail("\"normalize\" must be \"none\" or \"auto\"");
      }
    } else if (key == "coefficients") {
      m.coefficients = coefficientList(r, &rowLengths, &rowsAt);
    } else {
      r.rewind(keyAt);
      r.skipSpace();
      r.fail("unknown key \"" + key + "\" (known: width, height, coefficients, divisor, bias, normalize)");
    }
  }
  r.expect('}', "'}'");
  if (!r.atEnd()) r.fail("unexpected text after the mask object");
  for (const char* required : {"width", "height", "coefficients"})
    if (!seen.count(required)) r.fail(std::string("the mask object has no \"") + required + "\"");
  if (!rowLengths.empty()) {
    r.rewind(rowsAt);
    if (rowLengths.size() != static_cast<std::size_t>(m.height))
      r.fail("\"coefficients\" has " + std::to_string(rowLengths.size()) + " rows but the height is " +
             std::to_string(m.height));
    for (std::size_t row = 0; row < rowLengths.size(); ++row)
      if (rowLengths[row] != static_cast<std::size_t>(m.width))
        r.fail("row " + std::to_string(row + 1) + " of \"coefficients\" has " + std::to_string(rowLengths[row]) +
               " numbers but the width is " + std::to_string(m.width));
  }
  if (const std::string why = m.validationError(); !why.empty()) throw InvalidArgument(why);
  return m;
}

std::string maskToJson(const Mask& m) {
  std::ostringstream o;
  o.precision(9);
  o << "{\n  \"width\": " << m.width << ",\n  \"height\": " << m.height << ",\n  \"coefficients\": [";
  for (int y = 0; y < m.height; ++y) {
    o << (y ? ",\n    " : "\n    ");
    for (int x = 0; x < m.width; ++x) o << (x ? ", " : "") << m.at(x, y);
  }
  o << "\n  ],\n  \"divisor\": " << m.divisor << ",\n  \"bias\": " << m.bias << ",\n  \"normalize\": \""
    << (m.normalize == Normalize::Auto ? "auto" : "none") << "\"\n}\n";
  return o.str();
}

Mask loadMaskFile(const std::string& path) {
  const std::string text = readFile(path);
  try {
    return parseMaskJson(text);
  } catch (const InvalidArgument& e) {
    throw InvalidArgument("In mask file " + path + ": " + e.what());
  }
}

void saveMaskFile(const std::string& path, const Mask& mask) {
  mask.validate();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << maskToJson(mask);
  out.close();
  if (!out) throw Error("Cannot write the mask file " + path + ".");
}

Mask parseMaskArgument(std::string_view argument) {
  if (!argument.empty() && argument.front() == '@') return loadMaskFile(std::string(argument.substr(1)));  // @- = stdin
  if (argument.size() > 5 && argument.substr(argument.size() - 5) == ".json")
    return loadMaskFile(std::string(argument));
  return parseMaskSpec(argument);
}

}  // namespace liveconv
