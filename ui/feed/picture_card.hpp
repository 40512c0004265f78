// The card both windows write on the picture: a source that did not open
// (the one playing stays), else the feed's failure, else what the source said.
// A card goes after kCardSeconds, unless the picture stopped or nothing plays;
// every one stays in the session log, which both windows show on demand.
#pragma once

#include <chrono>
#include <string>

namespace liveconv::ui {

class PictureCard {
 public:
  static constexpr std::chrono::seconds kCardSeconds{8};

  // `text`: what the card would say now ("" for nothing); `stays`: it does not fade.
  void update(const std::string& text, bool stays) {
    const auto now = std::chrono::steady_clock::now();
    if (text != text_) {
      text_ = text;
      since_ = now;
    }
    shown_ = !text.empty() && (stays || now - since_ < kCardSeconds) ? text : std::string();
  }
  // What the card shows ("" once it faded).
  const std::string& shown() const { return shown_; }

 private:
  std::string text_, shown_;
  std::chrono::steady_clock::time_point since_{};
};

}  // namespace liveconv::ui
