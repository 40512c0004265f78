// The windows' check mode, off the UI thread: the frame on screen (its
// source and filtered pixels, copied by the caller) is filtered again by the
// CPU reference on the "lc-check" thread, one check at a time, and compared
// (liveconv/frame_check.hpp). The stream goes on meanwhile; the check takes
// half the machine's cores, and its times go into the report the overlay shows.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "liveconv/convolver.hpp"
#include "liveconv/image.hpp"
#include "model/check_figure.hpp"

namespace liveconv::ui {

class FrameChecker {
 public:
  FrameChecker() = default;
  ~FrameChecker();
  FrameChecker(const FrameChecker&) = delete;
  FrameChecker& operator=(const FrameChecker&) = delete;

  // Starts checking `filtered` (same size and format as `source`) against
  // the reference of `params`, in the region the work budget allows;
  // `report` carries what the frame was (number, frame, version, device,
  // variant, copy time), the check fills in the rest. False while a check runs.
  bool start(Image source, Image filtered, const FilterParams& params, CheckReport report);
  bool busy() const { return busy_.load(); }
  // The check finished since the last call (once each), else null.
  std::shared_ptr<const CheckReport> takeFinished();
  // Why the last check could not be made (the reference refused the mask); "" otherwise.
  std::string takeError();

 private:
  std::thread worker_;
  std::atomic<bool> busy_{false};
  std::mutex mutex_;
  std::shared_ptr<const CheckReport> finished_;
  std::string error_;
};

}  // namespace liveconv::ui
