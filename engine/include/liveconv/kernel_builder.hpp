// The one place where parameter sets become ready kernels, off the frame
// path. A KernelBuilder owns a thread "lc-build" and a one-slot mailbox of
// requests: a request carries a generation number, the parameters and the
// format and frame size it is for; a newer request replaces one not yet
// started and interrupts a race in flight. For each request the thread makes a
// fresh Convolver and prepares it (compiling through the shared ProgramCache;
// for `auto`, racing the candidates on a bounded sample of the frame size, on
// a command queue of its own), then leaves it in the "built" slot. The frame
// path (the Pipeline's engine thread, the test-pattern feed on the UI thread)
// takes a built Convolver at a frame boundary and only ever enqueues on it:
// a Convolver in FramePath mode never compiles and never races.
//
// Every Convolver it prepares runs once, on a small frame and a command queue
// of the builder's own, before it is handed over (Convolver::runOnce): PoCL
// generates a kernel's code at its first launch, and that wait belongs here,
// not to the first frame filtered with it.
//
// A new `auto` set comes in up to three steps, each handed over as it is
// ready: a stopgap (stopgapVariant(): the mask taken at run time, so its one
// program per format, border and alpha serves every later mask without a
// compile; only where the frame affords it), the provisional kernel the rules
// name, then the race's winner. With idle work on (a window), a set of a
// variant that compiles each mask or mask size (baked, unrolled, separable,
// ...: servedByStopgap()) comes in two: the stopgap, where the picture
// changed (a new mask, border, alpha or format; a switch of variant alone
// keeps what runs), then, once the edits settle, its own kernel. A failure of
// that kernel is the set's (failed(), error()).
//
// A builder for live edits (setIdleWork() turns it on) has idle work too: right
// after a set's first hand-over, and once a set is done, it compiles the set
// for the other pixel format (for `auto` and a variant a stopgap serves, the
// stopgap of every format; any other variant as itself), so that a switch of the pixel
// format, or `auto`'s first edit, is a hand-over in request(), not a compile.
// Then, while an edit settles and once a set has nothing left to build, it
// compiles every other variant that takes the mask at run time (naive, local,
// ...; rows on a CPU) in the set's format, so that a switch to one of those is
// a hand-over too: programs no later mask makes useless (run once on a GPU,
// or in a helper, below; not here on PoCL, where a first launch stops the
// device and the stream beside it).
// Only the ProgramCache keeps what this builds; a request goes first.
//
// PoCL generates a kernel's code at its first launch while holding a lock that
// every launch of the process takes: 100-300 ms on two cores in which the
// stream beside it stops. A window therefore gives the builder a way to make
// first launches in another process (setFirstLaunchElsewhere): there the code
// lands in PoCL's kernel cache on disk, and the launch here only loads it. On
// a CPU device with such a helper, every first launch goes there, including
// those of the other variants (which are otherwise left to their first frame)
// and, before a race, those of every candidate.
//
// A request may also carry the caller's own number for the set (a tag, such
// as a window's parameter version); take() hands it back with the Convolver,
// so the frames filtered with it can say which set they show.
//
//   request(gen, params, format, w, h) -> [requested] -> lc-build -> [built / failed] -> take()
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "liveconv/convolver.hpp"

namespace liveconv {

// How long a window's builder lets edits settle (KernelBuilder::setSettleTime):
// longer than the pause between two keystrokes or slider steps.
constexpr std::chrono::milliseconds kLiveEditSettle{500};

// Makes the first launches of prepared sets (Convolver::preparedSets()) on
// this device in another process, and waits for them: true when all ran
// there; false when they could not, or when `abandon` (asked while it waits)
// said to stop (the builder then goes on by its own rules).
using FirstLaunchElsewhere = std::function<bool(const DeviceInfo& device,
                                                const std::vector<Convolver::PreparedSet>& sets,
                                                const std::function<bool()>& abandon)>;

class KernelBuilder {
 public:
  KernelBuilder(std::shared_ptr<DeviceContext> device, std::shared_ptr<ProgramCache> cache,
                std::shared_ptr<AutoTuner> tuner = nullptr);
  ~KernelBuilder();  // interrupts a race, joins the thread
  KernelBuilder(const KernelBuilder&) = delete;
  KernelBuilder& operator=(const KernelBuilder&) = delete;

  // Asks for `params` built for this format and frame size (0x0: not known
  // yet; `auto` then builds its provisional choice). Replaces a request not yet
  // started. `raceOnly`: the same set as `generation` already running, asked
  // again for a new frame size; its answer is dropped once a newer set was taken.
  void request(std::uint64_t generation, const FilterParams& params, PixelFormat format, int width, int height,
               bool raceOnly = false, std::uint64_t tag = 0);
  // Requests the set and waits for the first kernel handed over for it (for
  // `auto`: its stopgap or provisional kernel; the later steps follow through
  // take()): how an owner that opens on a thread of its own (a window's feed,
  // for a new source, device or pixel format) gets its first kernel through
  // the builder. Throws BuildError (with the compiler's log), UnsupportedError
  // (the set cannot run here: a workgroup too large, ...) or Cancelled.
  std::unique_ptr<Convolver> first(std::uint64_t generation, const FilterParams& params, PixelFormat format, int width,
                                   int height, std::uint64_t tag = 0);
  // Turns the idle work on (see above), before the first request.
  void setIdleWork(bool on);
  // Live edits: the later steps of an `auto` set that a stopgap serves (its
  // provisional kernel and race: compiles, and on PoCL a first launch that
  // stops the device) start only once no request has come for `settle`. While
  // the user edits, each edit shows at once on the stopgap, and the device
  // and the cores are not spent on kernels the next edit would throw away.
  void setSettleTime(std::chrono::milliseconds settle);
  // A CPU device's first launches go to `elsewhere` (see above), before the first request.
  void setFirstLaunchElsewhere(FirstLaunchElsewhere elsewhere);
  // Live edits: once a first set is done, lc-build (and the first-launch
  // helpers it starts) runs at nice `nice` (kBackgroundNice): its later
  // kernels, the race and the idle work then take the cores only where the
  // stream and the window leave them (on the 2-core machine with one core
  // busy, a window's cold start compiled for some 15 s beside the stream). The
  // first kernel is built at the caller's priority, so a window opens as fast.
  void setBackgroundAfterFirst(int nice);
  static constexpr int kBackgroundNice = 10;
  // lc-build's nice value now (0 until it is lowered).
  int builderNice() const;
  // The newest Convolver built (in FramePath mode), with its generation and
  // its request's tag; null when none is waiting. Called at a frame boundary.
  // `format`: the pixel format the set was asked for (it may hold kernels for the other one too).
  std::unique_ptr<Convolver> take(std::uint64_t* generation, std::uint64_t* tag = nullptr, PixelFormat* format = nullptr);
  // Waits until `generation` is built (true) or has failed (false), at most timeoutMs.
  bool wait(std::uint64_t generation, int timeoutMs);
  // True once `generation` failed; error() is then its sentence and
  // buildLog() the compiler's log (empty when it was no compile that failed).
  bool failed(std::uint64_t generation) const;
  std::string error() const;
  std::string buildLog() const;
  // The last generation built or failed.
  std::uint64_t finished() const;
  // True while a request waits or builds.
  bool busy() const;
  // True while a built Convolver waits for take(): for a paused window, whose
  // frame boundaries come only when it asks (a later step of the set on
  // screen, such as the kernel a stopgap stood in for, is ready).
  bool hasBuilt() const;
  // Stops the thread (a race in flight is interrupted); requests are then ignored.
  void stop();
  bool stopped() const;

 private:
  enum class Stage {
    Invalid = 0,
    Set,          // a set asked for: its stopgap, or its provisional kernel, or the kernel itself
    Provisional,  // after a stopgap: the provisional kernel (or the known winner)
    Race,         // the race for the frame size; its winner
    OtherFormats,  // idle: the set's programs for the other pixel formats, into the cache only
  };
  struct Job {
    std::uint64_t generation = 0;
    FilterParams params;
    PixelFormat format = PixelFormat::Invalid;
    int width = 0, height = 0;
    Stage stage = Stage::Invalid;
    std::uint64_t tag = 0;
    std::chrono::steady_clock::time_point notBefore{};  // settling (setSettleTime)
    // A concrete variant that compiles each mask, in a window, where the
    // picture changed: the stopgap may serve it (request() decides).
    bool stopgap = false;
  };
  struct Outcome {
    std::unique_ptr<Convolver> convolver;
    std::string error, log;
    bool unsupported = false;  // the error was an UnsupportedError (no compile failed)
    bool interrupted = false;
    std::optional<Job> next;  // the step that follows this one
  };
  void loop();
  Outcome build(const Job& job);
  void buildOtherFormats(const Job& job);
  // Idle: every other variant that takes the mask at run time, in the set's
  // format (into the cache only), until `until` (the set's next step is due).
  void buildOtherVariants(const Job& job, std::chrono::steady_clock::time_point until);
  void finish(const Job& job, Outcome outcome);  // under mutex_
  // Whether a stopgap serves the job first: `auto` or Job::stopgap, a frame
  // that affords it, and no earlier failure to build one for its format,
  // border and alpha.
  static int stopgapKey(const Job& job);
  // Whether `now` filters frames to other pixels than `before` (not only another variant).
  static bool changesPicture(const Job& before, const Job& now);
  bool stopgapServes(const Job& job) const;
  bool prepareStopgap(Convolver& next, const Job& job, bool gpu);
  // The set's kernel (for `auto`, its stopgap) where its program is built
  // already; null otherwise (no compile).
  std::unique_ptr<Convolver> cachedKernel(const Job& job);
  // The first launches of what `cs` prepared, each set once: here on a GPU;
  // on another device in one helper where one is given (killed when the
  // builder stops or `abandon` says so), else here only when `here`.
  void firstLaunch(const std::vector<Convolver*>& cs, bool here, const std::function<bool()>& abandon = {});
  // Before a race, where a helper is given on a CPU device: every candidate
  // compiled here and launched once in the helper, so that the race's own
  // launches only load their code and the stream beside it never stops for
  // a code generation. Throws Cancelled when a request interrupts it.
  void launchCandidatesElsewhere(const Job& job);
  // firstLaunch() for idle work and a race's candidates: no error escapes.
  void launchOnce(const std::vector<std::unique_ptr<Convolver>>& built, bool here,
                  const std::function<bool()>& abandon = {});
  // For idle work and a race's candidates: the set's kernel (for `auto`, its
  // stopgap), cached or compiled here; null when it cannot be built (a real
  // request for it, or the race, says why).
  std::unique_ptr<Convolver> idleKernel(const Job& job);

  std::shared_ptr<DeviceContext> device_;
  std::shared_ptr<ProgramCache> cache_;
  std::shared_ptr<AutoTuner> tuner_;
  cl::CommandQueue queue_;  // where each Convolver runs once before it is handed over (Convolver::runOnce)
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<Job> requested_;
  std::optional<Job> resumeAfterIdle_;  // the step of a set that waits behind its OtherFormats job
  std::optional<Job> lastSet_;          // the newest set asked for (request())
  bool building_ = false;
  std::unique_ptr<Convolver> built_;
  std::uint64_t builtGeneration_ = 0, builtTag_ = 0, takenGeneration_ = 0, finished_ = 0, failed_ = 0;
  PixelFormat builtFormat_ = PixelFormat::Invalid;
  std::string error_, buildLog_;
  bool unsupported_ = false;      // the last failure was an UnsupportedError
  std::set<int> stopgapsFailed_;  // by stopgapKey()
  bool stop_ = false;
  bool idleWork_ = false;
  int backgroundNice_ = 0;  // 0: lc-build keeps its priority
  bool lowered_ = false;    // lc-build runs at backgroundNice_
  int builderNice_ = 0;
  std::chrono::milliseconds settle_{0};
  FirstLaunchElsewhere elsewhere_;
  std::set<std::string> launched_;  // what firstLaunch() has launched (PreparedSet::launchKey()), here or elsewhere
  std::chrono::steady_clock::time_point lastRequest_{};
  std::thread thread_;
};

}  // namespace liveconv
