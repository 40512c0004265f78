// What a window's run did, for `--stats-json`: every message the user was
// shown (errors, refusals, notices), every parameter edit with the frame it
// was asked on and the first frame that showed it (or that it was refused),
// and the files the window wrote. The frame loop fills it in each tick; the
// shells add their notices. Toolkit-free, so both windows write the same file.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "model/frame_stats.hpp"

namespace liveconv::ui {

class SessionLog {
 public:
  struct Message {
    std::uint64_t frame = 0;  // frames shown when it appeared
    double ms = 0;            // since the log started
    std::string kind;         // "open", "source", "filter", "failure", "notice", "script"
    std::string text;
  };
  struct Edit {
    std::uint64_t version = 0;  // the model version the edit made
    std::string what;           // the script line, or "" for an edit made in the window
    std::uint64_t askedFrame = 0;
    double askedMs = 0;
    std::uint64_t shownFrame = 0;  // the first frame filtered with it (0: not yet)
    double shownMs = 0;
    // New pictures that reached the screen (FeedFrame::fresh) when it was asked,
    // and when the first one filtered with it came: a pass that finds no new
    // frame shows the same picture again, so on a 30 fps clip in a window that
    // turns at 60 Hz every other pass counts only for shownFrame.
    std::uint64_t askedNewFrames = 0, shownNewFrames = 0;
    std::string variant;  // what filtered that frame
    bool refused = false;  // the frame side refused it; the previous parameters run on
  };

  SessionLog();

  // A message shown now; the same text of the same kind twice in a row is logged once.
  void message(const std::string& kind, const std::string& text, std::uint64_t frame);
  // Where each message logged is also said (an unattended run: stderr, as
  // `liveconv run` says its messages); none by default.
  void echoMessages(std::function<void(const std::string& text)> echo) { echo_ = std::move(echo); }
  bool echoing() const { return static_cast<bool>(echo_); }
  // `frame`: the passes with a picture so far (what a script's FRAME counts);
  // `newFrames`: the new pictures that reached the screen so far.
  // The model is at `version` now, by `what` ("" for the window): an edit
  // unless it is the first version seen, the state the window started in.
  void modelAt(std::uint64_t version, const std::string& what, std::uint64_t frame, std::uint64_t newFrames) {
    if (startVersion_ == 0)
      startVersion_ = version;
    else if (version > startVersion_)
      edited(version, what, frame, newFrames);
  }
  // The model's notice counter is at `count`, its last notice `text`: logged once per notice.
  void notices(std::uint64_t count, const std::string& text, std::uint64_t frame) {
    if (count == noticesSeen_) return;
    noticesSeen_ = count;
    message("notice", text, frame);
  }
  // A frame filtered with parameters `version` is on screen (or that version, and
  // those before it, were refused).
  void shown(std::uint64_t version, const std::string& variant, std::uint64_t frame, std::uint64_t newFrames);
  void refused(std::uint64_t version, std::uint64_t frame);
  void wrote(const std::string& path) { files_.push_back(path); }
  // A recording's file is complete: `frames` written to it; `stoppedBy` "" when the user (or closing) ended it.
  void recorded(const std::string& path, long long frames, const std::string& stoppedBy) {
    recordings_.push_back({path, frames, stoppedBy});
  }
  // A recording whose recorder failed (`why`): nothing of it was kept under `path`.
  void recordingFailed(const std::string& path, long long frames, const std::string& why) {
    failedRecordings_.push_back({path, frames, why});
  }
  // A check of the frame on screen against the CPU reference finished (check
  // mode). The file keeps the first 5000 of a session and counts the rest.
  void checked(const CheckReport& report, std::uint64_t frame);
  // Once per pass of the UI thread: its frame times go into the file.
  void tick();
  // The frames dropped so far (every cause, as FrameStats counts them): those
  // new since the last call go to the second of the run they were seen in.
  void dropped(std::uint64_t total);
  // A new frame reached the screen `ms` after its source handed it over.
  void latency(double ms) {
    if (latencyMs_.empty()) firstFrameMs_ = nowMs();
    latencyMs_.push_back(ms);
  }

  // Every edit so far reached the picture or was refused.
  bool settled() const;
  const std::vector<Message>& messages() const { return messages_; }

  // The whole log, the final stats, the mask that ran (its spec) and the
  // parameters as the flags spell them ({"border", "wrap"}, ...) as one JSON object.
  // `redraws`: the passes that drew (the others found nothing the window shows changed).
  std::string toJson(const FrameStats& stats, std::uint64_t framesShown, std::uint64_t redraws, double videoFps,
                     const std::string& maskSpec,
                     const std::vector<std::pair<std::string, std::string>>& parameters = {}) const;

 private:
  void edited(std::uint64_t version, const std::string& what, std::uint64_t frame, std::uint64_t newFrames);
  double nowMs() const;
  std::string uiFrameMsJson() const;
  std::string latencyMsJson() const;
  std::string dropsPerSecondJson() const;
  static std::string raceJson(const RaceReport* race);  // "null" before any race
  std::vector<double> frameMs_, latencyMs_;
  double lastTickMs_ = -1;
  double firstFrameMs_ = -1;  // when the first new frame reached the screen
  // Drops per second of play: [0] from the start to the first frame on screen
  // and the second after it, [n] the n-th second after that first frame.
  std::vector<std::uint64_t> dropsPerSecond_;
  std::uint64_t droppedSeen_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::vector<Message> messages_;
  std::function<void(const std::string&)> echo_;
  std::vector<Edit> edits_;
  std::uint64_t startVersion_ = 0, noticesSeen_ = 0;
  std::vector<std::string> files_;
  struct Recorded {
    std::string path;
    long long frames = 0;
    std::string stoppedBy;
  };
  std::vector<Recorded> recordings_, failedRecordings_;  // complete files; those the recorder gave up
  std::vector<std::string> checks_;  // each check, as its JSON object
  std::uint64_t checksNotKept_ = 0;
};

// `text` as a JSON string literal, quotes included.
std::string jsonQuote(const std::string& text);

}  // namespace liveconv::ui
