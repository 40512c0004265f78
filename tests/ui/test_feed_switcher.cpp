// FeedSwitcher: a source or device change opens the new feed on "lc-open"
// while the UI thread goes on with the old one; sync() never waits for an
// open, and the new feed is installed at a frame boundary. The factory here
// blocks until the test lets it go, as a slow camera or stream would.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#if defined(__linux__)
#include <pthread.h>
#endif

#include "feed/feed_switcher.hpp"

using namespace liveconv;
using namespace liveconv::ui;
using Clock = std::chrono::steady_clock;

namespace {

class FakeFeed final : public FrameFeed {
 public:
  FakeFeed(std::string source, std::string selector, std::shared_ptr<const ParamsSnapshot> initial)
      : source(std::move(source)), selector(std::move(selector)), initial(std::move(initial)) {}
  void setParams(std::shared_ptr<const ParamsSnapshot> snapshot) override { params = std::move(snapshot); }
  FeedFrame advance(Advance) override { return {}; }
  FrameStats stats() const override { return {}; }
  std::string source, selector;
  std::shared_ptr<const ParamsSnapshot> initial, params;
};

// A factory that blocks each open until release() lets it finish.
class Gate {
 public:
  std::unique_ptr<FrameFeed> open(const std::string& source, const std::string& selector,
                                  std::shared_ptr<const ParamsSnapshot> initial) {
    std::unique_lock<std::mutex> lock(mutex_);
    ++started_;
#if defined(__linux__)
    char name[16] = {};
    pthread_getname_np(pthread_self(), name, sizeof name);
    threadName_ = name;
#endif
    changed_.notify_all();
    changed_.wait(lock, [&] { return released_ > 0; });
    --released_;
    if (source == "broken") throw std::runtime_error("the camera is busy.");
    if (initial && initial->filter.variant == VariantId::Separable)  // as the engine refuses a mask that is not rank-1
      throw UnsupportedError("Variant separable needs a rank-1 (separable) mask; this one is not.");
    return std::make_unique<FakeFeed>(source, selector, std::move(initial));
  }
  void release(int n = 1) {
    std::lock_guard<std::mutex> lock(mutex_);
    released_ += n;
    changed_.notify_all();
  }
  bool waitStarted(int n) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(60), [&] { return started_ >= n; });
  }
  int started() {
    std::lock_guard<std::mutex> lock(mutex_);
    return started_;
  }
  std::string threadName() {
    std::lock_guard<std::mutex> lock(mutex_);
    return threadName_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int started_ = 0, released_ = 0;
  std::string threadName_;
};

struct Fixture {
  Gate gate;
  ViewerModel model;
  FeedSwitcher switcher{[this](const std::string& s, const std::string& sel, std::shared_ptr<const ParamsSnapshot> p,
                               const OpenControl&) { return gate.open(s, sel, std::move(p)); },
                        "cpu"};
  FakeFeed* first = nullptr;

  Fixture() {
    model.setSource("testpattern");
    auto feed = std::make_unique<FakeFeed>("testpattern", "cpu", model.snapshot());
    first = feed.get();
    switcher.adopt(std::move(feed), "testpattern", model.deviceIndex());
  }
  ~Fixture() { gate.release(100); }  // an open still blocked must end, or the switcher's join would wait forever
  // Calls sync() until it installs a feed (true), or false at a limit that only catches a hang.
  bool syncUntilInstalled() {
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    while (Clock::now() < deadline) {
      if (switcher.sync(model)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
  }
};

FakeFeed* current(const FeedSwitcher& s) {
  return static_cast<FakeFeed*>(s.feed());
}

TEST(FeedSwitcher, OpeningASourceDoesNotBlockTheUiThread) {
  Fixture f;
  f.model.setSource("lavfi:slow");
  EXPECT_FALSE(f.switcher.sync(f.model));
  ASSERT_TRUE(f.gate.waitStarted(1)) << "the open never started";
  // The open is blocked (until release() below); the UI thread goes on, a
  // frame at a time, with the old feed. A sync() that waited for the open
  // would never return: the test's hang limit, not a time, fails it.
  for (int frame = 0; frame < 20; ++frame) {
    EXPECT_FALSE(f.switcher.sync(f.model));
    EXPECT_EQ(f.switcher.feed(), f.first) << "the old feed plays until the new one is ready";
  }
  EXPECT_TRUE(f.switcher.pending());
  EXPECT_EQ(f.switcher.pendingMessage(), "opening lavfi:slow ...");
#if defined(__linux__)
  EXPECT_EQ(f.gate.threadName(), "lc-open");
#endif

  f.gate.release();
  ASSERT_TRUE(f.syncUntilInstalled());
  EXPECT_EQ(current(f.switcher)->source, "lavfi:slow");
  EXPECT_FALSE(f.switcher.pending());
  EXPECT_EQ(f.switcher.error(), "");
  EXPECT_EQ(f.gate.started(), 1) << "one open per change";
}

TEST(FeedSwitcher, ADeviceChangeIsASwitchAndTheOldFeedKeepsItsDevice) {
  Fixture f;
  f.model.setDevice(3);
  EXPECT_FALSE(f.switcher.sync(f.model));
  EXPECT_EQ(f.switcher.pendingMessage(), "switching device ...");
  // Edits made while switching reach the old feed with its own device, so it never reopens one itself.
  auto forOld = f.switcher.forFeed(f.model.snapshot());
  EXPECT_EQ(forOld->deviceIndex, -1);
  EXPECT_EQ(forOld->filter.variant, f.model.snapshot()->filter.variant);
  EXPECT_EQ(forOld->version, f.model.snapshot()->version);

  f.gate.release();
  ASSERT_TRUE(f.syncUntilInstalled());
  EXPECT_EQ(current(f.switcher)->selector, "3");
  EXPECT_EQ(current(f.switcher)->initial->deviceIndex, 3);
  EXPECT_EQ(f.switcher.forFeed(f.model.snapshot())->deviceIndex, 3);
}

TEST(FeedSwitcher, ANewerRequestSupersedesOneStillOpening) {
  Fixture f;
  f.model.setSource("first");
  f.switcher.sync(f.model);
  ASSERT_TRUE(f.gate.waitStarted(1));
  f.model.setSource("second");
  f.switcher.sync(f.model);
  EXPECT_EQ(f.switcher.pendingMessage(), "opening second ...");
  f.gate.release(2);
  ASSERT_TRUE(f.syncUntilInstalled());
  EXPECT_EQ(current(f.switcher)->source, "second") << "the superseded feed is never installed";
  EXPECT_EQ(f.gate.started(), 2);
}

TEST(FeedSwitcher, AFailedOpenKeepsTheOldFeedSaysWhyAndIsNotRetried) {
  Fixture f;
  f.model.setSource("broken");
  f.switcher.sync(f.model);
  f.gate.release();
  const auto deadline = Clock::now() + std::chrono::seconds(60);  // only a hang
  while (f.switcher.pending() && Clock::now() < deadline) {
    f.switcher.sync(f.model);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_FALSE(f.switcher.pending());
  EXPECT_EQ(f.switcher.error(), "Cannot open broken: the camera is busy.");
  EXPECT_EQ(f.switcher.feed(), f.first);
  for (int frame = 0; frame < 5; ++frame) f.switcher.sync(f.model);
  EXPECT_EQ(f.gate.started(), 1) << "a failed source is not reopened every frame";
}

// The same source asked for again (File > Open on the playing file, or after
// its device failed): reopen() makes the next sync() open it once more.
TEST(FeedSwitcher, ReopenOpensTheSameSourceAgain) {
  Fixture f;
  for (int frame = 0; frame < 3; ++frame) EXPECT_FALSE(f.switcher.sync(f.model));
  EXPECT_EQ(f.gate.started(), 0) << "nothing changed, nothing opens";
  f.switcher.reopen();
  EXPECT_FALSE(f.switcher.sync(f.model));
  EXPECT_EQ(f.switcher.pendingMessage(), "opening testpattern ...");
  f.gate.release();
  ASSERT_TRUE(f.syncUntilInstalled());
  EXPECT_NE(f.switcher.feed(), f.first) << "a new feed for the same source";
  EXPECT_EQ(current(f.switcher)->source, "testpattern");
  for (int frame = 0; frame < 3; ++frame) f.switcher.sync(f.model);
  EXPECT_EQ(f.gate.started(), 1) << "one reopen, one open";
}

// A window whose first set cannot run has no feed at all: the failure keeps
// `liveconv run`'s exit code for it, the same set is not tried again every
// frame, and the next set (a newer model version) opens the source again.
TEST(FeedSwitcher, WithNothingPlayingASetRefusedIsTriedAgainOnlyWithTheNextSet) {
  Gate gate;
  gate.release(10);
  ViewerModel model;
  FeedSwitcher switcher([&](const std::string& s, const std::string& sel, std::shared_ptr<const ParamsSnapshot> p,
                            const OpenControl&) { return gate.open(s, sel, std::move(p)); },
                        "cpu");
  model.setSource("clip");
  ASSERT_TRUE(model.setVariant(VariantId::Separable));
  auto settle = [&] {
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    bool installed = switcher.sync(model);
    while (!installed && switcher.pending() && Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      installed = switcher.sync(model);
    }
    return installed;
  };
  EXPECT_FALSE(settle());
  EXPECT_EQ(switcher.feed(), nullptr);
  EXPECT_EQ(switcher.errorExitCode(), media::kExitUnsupported) << switcher.error();
  EXPECT_EQ(switcher.error(), "Variant separable needs a rank-1 (separable) mask; this one is not.")
      << "as `liveconv run` says it: the source is not what failed";
  for (int frame = 0; frame < 5; ++frame) EXPECT_FALSE(switcher.sync(model));
  EXPECT_EQ(gate.started(), 1) << "the set refused was tried again";
  ASSERT_TRUE(model.setVariant(VariantId::Auto));
  EXPECT_TRUE(settle()) << "the next set did not open the source: " << switcher.error();
  ASSERT_NE(current(switcher), nullptr);
  EXPECT_EQ(current(switcher)->source, "clip");
  EXPECT_EQ(switcher.errorExitCode(), media::kExitOk);
  EXPECT_EQ(gate.started(), 2);
}

}  // namespace

// A source that sends nothing (a stream that accepts and never answers): the
// open waits, asking its control whether to give up, as FFmpeg's interrupt
// callback does. The user cancels it (Esc or Cancel): the wait ends at once,
// the feed playing stays, and the window says the open was cancelled. The
// open is given the model's timeout, after which the media library gives up.
TEST(FeedSwitcher, AnOpenThatWaitsOnASilentSourceCanBeCancelled) {
  std::mutex mutex;
  std::condition_variable changed;
  bool waiting = false, gaveUp = false;
  double timeoutGiven = -1;
  ViewerModel model;
  model.setSource("testpattern");
  FeedSwitcher switcher(
      [&](const std::string& s, const std::string& sel, std::shared_ptr<const ParamsSnapshot> p,
          const OpenControl& control) -> std::unique_ptr<FrameFeed> {
        {
          std::lock_guard<std::mutex> lock(mutex);
          waiting = true;
          timeoutGiven = control.timeoutSeconds;
        }
        changed.notify_all();
        // Waits as a silent source does, until abandoned (gaveUp), or a limit that only catches a hang.
        const auto deadline = Clock::now() + std::chrono::seconds(60);
        while (!(control.abandoned && control.abandoned()) && Clock::now() < deadline)
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        {
          std::lock_guard<std::mutex> lock(mutex);
          gaveUp = Clock::now() < deadline;
        }
        changed.notify_all();
        if (gaveUp) throw std::runtime_error("Immediate exit requested.");
        return std::make_unique<FakeFeed>(s, sel, std::move(p));
      },
      "cpu");
  auto feed = std::make_unique<FakeFeed>("testpattern", "cpu", model.snapshot());
  FrameFeed* first = feed.get();
  switcher.adopt(std::move(feed), "testpattern", model.deviceIndex());

  EXPECT_FALSE(switcher.cancel()) << "nothing is opening: nothing to cancel";
  model.view().openTimeoutSeconds = 7;
  model.setSource("tcp://127.0.0.1:9/silent");
  EXPECT_FALSE(switcher.sync(model));
  {
    std::unique_lock<std::mutex> lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, std::chrono::seconds(60), [&] { return waiting; })) << "the open never started";
    EXPECT_EQ(timeoutGiven, 7) << "the open is given the model's timeout";
  }
  ASSERT_TRUE(switcher.pending());
  EXPECT_TRUE(switcher.cancel());
  EXPECT_FALSE(switcher.pending()) << "the window stops saying 'opening ...' at once";
  EXPECT_EQ(switcher.error(), "Cancelled opening tcp://127.0.0.1:9/silent.");
  {
    std::unique_lock<std::mutex> lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, std::chrono::seconds(90), [&] { return gaveUp; }))
        << "the wait on the silent source did not end";
  }
  for (int frame = 0; frame < 20; ++frame) {
    EXPECT_FALSE(switcher.sync(model));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(switcher.feed(), first) << "the feed that played before plays on";
  EXPECT_EQ(switcher.error(), "Cancelled opening tcp://127.0.0.1:9/silent.") << "the failed open is not said over it";
  EXPECT_FALSE(switcher.pending()) << "the same source is not opened again by itself";
}
