// Mask files: the JSON form the CLI (--mask @file.json) and both UIs load and
// save. Standard library only; a small strict reader for exactly this schema:
//
//   {"width": 3, "height": 3, "coefficients": [0,-1,0, -1,5,-1, 0,-1,0],
//    "divisor": 1, "bias": 0, "normalize": "none"}
//
// width, height and coefficients are required; divisor (1), bias (0) and
// normalize ("none" or "auto", default "none") are optional. Unknown or
// repeated keys are errors, so a typo does not silently fall back on a
// default. "coefficients" may also be a list of rows, [[0,-1,0],[-1,5,-1],[0,-1,0]],
// each row as long as the width. A file is read only if it is a regular file of
// at most 1 MiB ("-" reads standard input, as --mask @- does).
#pragma once

#include <string>
#include <string_view>

#include "liveconv/mask.hpp"

namespace liveconv {

// Throws InvalidArgument saying where: "line 3, column 14: expected a number".
Mask parseMaskJson(std::string_view text);
std::string maskToJson(const Mask& mask);

// As above, the sentence starting with the path. Throws InvalidArgument
// (bad content) or Error (cannot read / write the file).
Mask loadMaskFile(const std::string& path);
void saveMaskFile(const std::string& path, const Mask& mask);

// A --mask argument: "@path" (or "@-" for standard input) or a path ending in
// ".json" is a mask file; anything else is a spec for parseMaskSpec().
Mask parseMaskArgument(std::string_view argument);

}  // namespace liveconv
