// The figures' numbers in their sentences (check_figure, race_figure).
#pragma once

#include <cstdio>
#include <string>

namespace liveconv::ui {

// PATTERN (a printf pattern of up to four doubles) filled with A..D.
inline std::string formatNumbers(const char* pattern, double a, double b = 0, double c = 0, double d = 0) {
  char text[200];
  std::snprintf(text, sizeof text, pattern, a, b, c, d);
  return text;
}

}  // namespace liveconv::ui
