// The `auto` variant: races, picks a correct variant, remembers the choice on
// disk keyed by device fingerprint and frame size.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <thread>
#include <tuple>

#include "liveconv/autotune.hpp"
#include "liveconv/compare.hpp"
#include "liveconv/kernel_builder.hpp"
#include "liveconv/kernel_sources.hpp"
#include "liveconv/reference.hpp"
#include "liveconv/thread_name.hpp"
#include "test_support.hpp"

namespace liveconv {
namespace {

std::string tempCache(const char* name) {
  const std::string path = testing::TempDir() + "/" + name;
  std::remove(path.c_str());
  return path;
}

// A kernel folder in the test's temp dir with `files` as built in, `broken`
// among them with a kernel that does not compile (`undeclared_thing`, for the
// compiler's log), set as kKernelDirEnvVar for as long as it lives (or until
// restore()): a test that fails half-way leaves the tests after it the
// kernels they had.
class KernelsWithOneBroken {
 public:
  KernelsWithOneBroken(const char* name, std::initializer_list<const char*> files, const char* broken) {
    const std::string dir = testing::TempDir() + "/" + name;
    std::filesystem::create_directories(dir);
    for (const char* f : files) {
      std::ofstream out(dir + "/" + f);
      out << kernelSource(f);
      if (std::string(f) == broken) out << "\n__kernel void broken(__global int* p) { p[0] = undeclared_thing; }\n";
    }
    if (const char* before = std::getenv(kKernelDirEnvVar)) saved_ = before;
    setenv(kKernelDirEnvVar, dir.c_str(), 1);
  }
  ~KernelsWithOneBroken() { restore(); }
  KernelsWithOneBroken(const KernelsWithOneBroken&) = delete;
  KernelsWithOneBroken& operator=(const KernelsWithOneBroken&) = delete;
  // The variable as it was before (a developer's own kernel folder, or none).
  void restore() {
    if (saved_)
      setenv(kKernelDirEnvVar, saved_->c_str(), 1);
    else
      unsetenv(kKernelDirEnvVar);
  }

 private:
  std::optional<std::string> saved_;
};

// Waits until the builder has nothing left to build (its idle work done too),
// at most `limit`; true when it went idle.
bool waitUntilIdle(const KernelBuilder& builder, std::chrono::seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (builder.busy() && std::chrono::steady_clock::now() < until);
  return !builder.busy();
}

// The tuner after `auto` raced for `mask` on 80x60 GRAY8 frames.
std::shared_ptr<AutoTuner> raceOnGray(const std::shared_ptr<DeviceContext>& ctx, const Mask& mask) {
  auto tuner = std::make_shared<AutoTuner>("");
  Convolver conv(ctx, std::make_shared<ProgramCache>(), tuner);
  FilterParams p;
  p.variant = VariantId::Auto;
  p.mask = mask;
  conv.setParams(p);
  conv.prepare(PixelFormat::GRAY8, 80, 60);
  return tuner;
}

TEST(AutoTune, PicksAVerifiedVariantAndMatchesTheReference) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  auto tuner = std::make_shared<AutoTuner>(tempCache("race.tsv"));
  Convolver conv(ctx, std::make_shared<ProgramCache>(), tuner);
  FilterParams p;
  p.variant = VariantId::Auto;
  p.mask = test::integerMask(5, 5);
  p.border = BorderMode::Mirror;
  conv.setParams(p);
  const Image src = randomImage(96, 64, PixelFormat::RGBA8, 21);
  Image got(96, 64, PixelFormat::RGBA8), want(96, 64, PixelFormat::RGBA8);
  conv.process(src.view(), got.view());
  convolveReference(src.view(), want.view(), p.mask, p.border, p.alpha);
  auto mm = compareImages(got.view(), want.view(), 0);
  EXPECT_FALSE(mm.has_value()) << mm->toString();

  EXPECT_EQ(tuner->racesRun(), 1);
  const ActiveKernel active = conv.activeKernel(PixelFormat::RGBA8, 96, 64);
  EXPECT_NE(active.variant, VariantId::Auto);
  EXPECT_NE(active.variant, VariantId::Separable) << "the mask is not rank-1";
  const auto race = tuner->lastRace();
  int ok = 0;
  for (const RaceEntry& e : race) {
    if (e.outcome == "ok") ++ok;
    EXPECT_NE(e.params.variant, VariantId::Auto);
    EXPECT_EQ(e.outcome.find("wrong result"), std::string::npos) << variantInfo(e.params.variant).name << ": " << e.outcome;
  }
  EXPECT_GE(ok, 5) << "most variants should have run";
  // The winner is the fastest entry that ran.
  double fastest = 1e30;
  for (const RaceEntry& e : race)
    if (e.outcome == "ok") fastest = std::min(fastest, e.kernelMs);
  bool winnerIsFastest = false;
  for (const RaceEntry& e : race)
    if (e.outcome == "ok" && e.kernelMs == fastest && e.params.variant == active.variant) winnerIsFastest = true;
  EXPECT_TRUE(winnerIsFastest);
}

// The candidates are timed in turns, one run each a round, so a load that
// comes and goes while the race runs falls on all of them alike: the k-th
// timed run of every candidate comes before the (k+1)-th of any; each is
// ranked by its fastest run.
TEST(AutoTune, CandidatesAreTimedInTurnsAndRankedByTheirFastestRun) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const auto report = raceOnGray(ctx, test::separableIntegerMask(5, 3))->lastReport();
  ASSERT_TRUE(report);
  std::vector<const RaceEntry*> ran;
  for (const RaceEntry& e : report->entries)
    if (e.outcome == "ok") ran.push_back(&e);
  ASSERT_GE(ran.size(), 2u) << "a race of one is no race";
  std::size_t runs = ran.front()->runOrder.size();
  EXPECT_GE(runs, 3u);
  for (const RaceEntry* e : ran) {
    ASSERT_EQ(e->runOrder.size(), runs) << variantInfo(e->params.variant).name;
    ASSERT_EQ(e->runMs.size(), runs) << variantInfo(e->params.variant).name;
    // Each keeps its fastest run: a load only ever adds to a run's time.
    EXPECT_EQ(e->kernelMs, *std::min_element(e->runMs.begin(), e->runMs.end())) << variantInfo(e->params.variant).name;
  }
  EXPECT_EQ(report->timedRuns, static_cast<int>(runs * ran.size()));
  for (std::size_t k = 0; k + 1 < runs; ++k) {
    for (const RaceEntry* a : ran) {
      for (const RaceEntry* b : ran) {
        EXPECT_LT(a->runOrder[k], b->runOrder[k + 1])
            << variantInfo(a->params.variant).name << "'s run " << k + 1 << " after "
            << variantInfo(b->params.variant).name << "'s run " << k + 2;
      }
    }
  }
  for (const RaceEntry& e : report->entries) {
    if (e.outcome != "ok") {
      EXPECT_TRUE(e.runOrder.empty()) << variantInfo(e.params.variant).name << " did not run";
    }
  }
}

TEST(AutoTune, SeparableMasksMayPickTheSeparableVariant) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const auto tuner = raceOnGray(ctx, test::separableIntegerMask(7, 7));
  // A GPU's two-pass kernel, a CPU's row kernel that sums the two factors.
  const VariantId rank1 = ctx->info.kind == DeviceKind::GPU ? VariantId::Separable : VariantId::RowsSeparable;
  bool separableRan = false;
  for (const RaceEntry& e : tuner->lastRace())
    if (e.params.variant == rank1 && e.outcome == "ok") separableRan = true;
  EXPECT_TRUE(separableRan) << variantInfo(rank1).name;
}

// The row kernels are written for CPU devices: auto races them there, in
// every packet their plan names, and only them; never on a GPU. What runs
// before a race answers follows the device too.
TEST(AutoTune, TheRowKernelsRaceOnCpuDevicesOnly) {
  for (const VariantInfo& v : variantRegistry()) {
    if (v.id == VariantId::Auto || v.id == VariantId::User) continue;   // user: test_user_kernel.cpp
    EXPECT_EQ(racePlan(v, true).packets.empty(), v.cpuOnly) << v.name;  // a GPU races all but these
    EXPECT_EQ(racePlan(v, false).packets.empty(), !v.cpuOnly) << v.name;  // a CPU only these
  }
  EXPECT_TRUE(racePlan(variantInfo(VariantId::Auto), false).packets.empty());
  EXPECT_EQ(provisionalVariant(7, 7, false, false), VariantId::RowsBaked);
  EXPECT_EQ(provisionalVariant(31, 31, true, false), VariantId::RowsSeparable);
  EXPECT_EQ(provisionalVariant(7, 7, false, true), VariantId::Baked);
  EXPECT_EQ(provisionalVariant(31, 31, true, true), VariantId::Separable);

  LIVECONV_REQUIRE_DEVICE(ctx);
  const bool gpu = ctx->info.kind == DeviceKind::GPU;
  for (const bool rank1 : {false, true}) {
    auto tuner = std::make_shared<AutoTuner>("");
    Convolver conv(ctx, std::make_shared<ProgramCache>(), tuner);
    FilterParams p;
    p.variant = VariantId::Auto;
    p.mask = rank1 ? test::separableIntegerMask(9, 5) : test::integerMask(5, 9);
    conv.setParams(p);
    conv.prepare(PixelFormat::RGBA8, 70, 50);
    std::set<std::pair<VariantId, int>> ran;
    for (const RaceEntry& e : tuner->lastRace()) {
      // A kernel of one's own races on every device (loaded by another test of this program, if any).
      if (e.params.variant != VariantId::User) {
        EXPECT_EQ(variantInfo(e.params.variant).cpuOnly, !gpu) << variantInfo(e.params.variant).name << " raced here";
      }
      EXPECT_EQ(e.outcome.find("wrong result"), std::string::npos) << variantInfo(e.params.variant).name << ": " << e.outcome;
      if (e.outcome == "ok") ran.insert({e.params.variant, e.params.packet});
    }
    if (gpu) continue;
    const VariantId rows = rank1 ? VariantId::RowsSeparable : VariantId::Rows;
    for (int packet : racePlan(variantInfo(rows), false).packets) {
      EXPECT_TRUE(ran.count({rows, packet})) << variantInfo(rows).name << " with " << packet << " rows per work-item";
    }
    if (!rank1) {
      EXPECT_TRUE(ran.count({VariantId::RowsBaked, 2}));
    }
  }
}

TEST(AutoTune, ChoicesPersistOnDiskPerDeviceAndFrameSize) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string path = tempCache("persist.tsv");
  FilterParams p;
  p.variant = VariantId::Auto;
  p.mask = test::integerMask(3, 3);
  VariantId first;
  {
    auto tuner = std::make_shared<AutoTuner>(path);
    Convolver conv(ctx, std::make_shared<ProgramCache>(), tuner);
    conv.setParams(p);
    first = conv.activeKernel(PixelFormat::GRAY8, 64, 48).variant;
    EXPECT_EQ(tuner->racesRun(), 1);
  }
  {
    auto tuner = std::make_shared<AutoTuner>(path);
    Convolver conv(ctx, std::make_shared<ProgramCache>(), tuner);
    conv.setParams(p);
    EXPECT_EQ(conv.activeKernel(PixelFormat::GRAY8, 64, 48).variant, first);
    EXPECT_EQ(tuner->racesRun(), 0) << "the choice should come from " << path;
    conv.activeKernel(PixelFormat::GRAY8, 65, 48);  // another frame size races again
    EXPECT_EQ(tuner->racesRun(), 1);
  }
  // A cache written for another device or driver (other fingerprint) does not count.
  std::string text;
  {
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::string fp = ctx->info.fingerprint();
  for (std::size_t at = text.find(fp); at != std::string::npos; at = text.find(fp)) text.replace(at, fp.size(), "other-driver");
  { std::ofstream(path) << text << "garbage line without tabs\n"; }
  auto tuner = std::make_shared<AutoTuner>(path);
  Convolver conv(ctx, std::make_shared<ProgramCache>(), tuner);
  conv.setParams(p);
  conv.prepare(PixelFormat::GRAY8, 64, 48);
  EXPECT_EQ(tuner->racesRun(), 1);
}

// A race's report: every candidate with its time or why it did not run, the
// fastest that ran chosen, the copy bandwidth and FMA limit beside them; a
// comparison (race()) changes no answer auto keeps, a race for an answer does.
TEST(AutoTune, ARaceReportsEveryCandidateAndAComparisonChangesNoAnswer) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  FilterParams p;
  p.variant = VariantId::Auto;
  p.mask = test::integerMask(5, 5);
  p.border = BorderMode::Zero;  // the variant sweep's mask and border: a comparison builds every variant, the sweep has
  auto tuner = std::make_shared<AutoTuner>(tempCache("report.tsv"));
  EXPECT_EQ(tuner->lastReport(), nullptr);
  const RaceReport r = tuner->race(ctx, std::make_shared<ProgramCache>(), p, PixelFormat::RGBA8, 96, 64);
  EXPECT_EQ(r.trigger, "compare");
  EXPECT_EQ(r.number, 1u);
  EXPECT_EQ(r.device, ctx->info.name);
  EXPECT_EQ(r.width, 96);
  EXPECT_EQ(r.sampleWidth, 96);
  EXPECT_GT(r.copyBytesPerSecond, 0);
  EXPECT_GT(r.fma.fmaPerSecond, 0);
  ASSERT_EQ(r.entries.size(), AutoTuner::candidates(p, ctx->info.kind == DeviceKind::GPU, true).size())
      << "a comparison races every variant";
  ASSERT_GE(r.chosen, 0);
  const RaceEntry& best = r.entries[static_cast<size_t>(r.chosen)];
  for (const RaceEntry& e : r.entries) {
    if (e.kernelMs > 0) {
      EXPECT_EQ(e.outcome, "ok");
      EXPECT_GE(e.kernelMs, best.kernelMs) << variantInfo(e.params.variant).name << " was faster than the one chosen";
      EXPECT_NEAR(r.megapixelsPerSecond(e), 96.0 * 64 / (e.kernelMs * 1000), 1e-6);
      EXPECT_GT(r.copyShare(e), 0);
      EXPECT_GT(r.fmaShare(e), 0);
    } else {
      EXPECT_NE(e.outcome, "ok");
      EXPECT_EQ(r.megapixelsPerSecond(e), 0);
    }
  }
  EXPECT_FALSE(tuner->lookup(ctx->info, p, PixelFormat::RGBA8, 96, 64).has_value()) << "a comparison chose for auto";
  ASSERT_NE(tuner->lastReport(), nullptr);
  EXPECT_EQ(tuner->lastReport()->number, 1u);
  tuner->resolve(ctx, std::make_shared<ProgramCache>(), p, PixelFormat::RGBA8, 96, 64);
  EXPECT_EQ(tuner->lastReport()->trigger, "auto");
  EXPECT_EQ(tuner->lastReport()->number, 2u);
  const std::optional<FilterParams> kept = tuner->lookup(ctx->info, p, PixelFormat::RGBA8, 96, 64);
  ASSERT_TRUE(kept.has_value());
  const RaceReport& won = *tuner->lastReport();
  EXPECT_EQ(kept->variant, won.entries[static_cast<size_t>(won.chosen)].params.variant);
}

// The race behind a choice is kept with it in the file: a later run that
// takes auto's answer from there shows that race (when it ran, every
// candidate, the winner), where the windows said "No race yet"; a race asked
// for (B) after it stays shown while the same answer is asked for (every
// frame), until the parameters change; a line of an earlier version (no race
// on it) still gives its choice, with no race to show.
TEST(AutoTune, TheRaceBehindACachedChoiceIsKeptWithIt) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string path = tempCache("kept.tsv");
  FilterParams p;
  p.variant = VariantId::Auto;
  p.mask = test::integerMask(3, 3);
  p.border = BorderMode::Zero;  // the variant sweep's mask and border: its programs
  const auto cache = std::make_shared<ProgramCache>();
  RaceReport raced;
  {
    AutoTuner first(path);
    first.resolve(ctx, cache, p, PixelFormat::GRAY8, 64, 48);
    ASSERT_NE(first.lastReport(), nullptr);
    raced = *first.lastReport();
    EXPECT_FALSE(raced.cached);
    EXPECT_EQ(raced.racedAt.size(), 20u) << raced.racedAt;  // 2026-11-29T16:00:00Z
  }
  AutoTuner tuner(path);
  EXPECT_EQ(tuner.lastReport(), nullptr);
  ASSERT_TRUE(tuner.lookup(ctx->info, p, PixelFormat::GRAY8, 64, 48).has_value());
  EXPECT_EQ(tuner.racesRun(), 0);
  const std::shared_ptr<const RaceReport> kept = tuner.lastReport();
  ASSERT_NE(kept, nullptr) << "the choice came back without its race";
  EXPECT_TRUE(kept->cached);
  EXPECT_EQ(kept->trigger, "auto");
  EXPECT_EQ(kept->racedAt, raced.racedAt);
  EXPECT_EQ(kept->device, raced.device);
  EXPECT_EQ(kept->format, raced.format);
  EXPECT_EQ(kept->mask, raced.mask);
  EXPECT_EQ(kept->border, raced.border);
  EXPECT_EQ(kept->width, raced.width);
  EXPECT_EQ(kept->height, raced.height);
  EXPECT_EQ(kept->sampleWidth, raced.sampleWidth);
  EXPECT_EQ(kept->sampleHeight, raced.sampleHeight);
  EXPECT_NEAR(kept->copyBytesPerSecond, raced.copyBytesPerSecond, raced.copyBytesPerSecond * 1e-8);
  EXPECT_NEAR(kept->fma.fmaPerSecond, raced.fma.fmaPerSecond, raced.fma.fmaPerSecond * 1e-8);
  EXPECT_EQ(kept->fma.how, raced.fma.how);
  EXPECT_EQ(kept->maskWidth, raced.maskWidth);
  EXPECT_EQ(kept->channels, raced.channels);
  EXPECT_EQ(kept->chosen, raced.chosen);
  EXPECT_EQ(kept->timedRuns, raced.timedRuns);
  ASSERT_EQ(kept->entries.size(), raced.entries.size());
  for (std::size_t i = 0; i < raced.entries.size(); ++i) {
    const RaceEntry &a = kept->entries[i], &b = raced.entries[i];
    EXPECT_EQ(a.params.variant, b.params.variant) << i;
    EXPECT_EQ(a.params.workgroup.x, b.params.workgroup.x) << i;
    EXPECT_EQ(a.params.workgroup.y, b.params.workgroup.y) << i;
    EXPECT_EQ(a.params.packet, b.params.packet) << i;
    EXPECT_NEAR(a.kernelMs, b.kernelMs, b.kernelMs * 1e-8) << i;
    EXPECT_EQ(a.outcome, b.outcome) << i;
  }
  // B after it stays shown while the same answer is asked for ...
  tuner.race(ctx, cache, p, PixelFormat::GRAY8, 64, 48);
  ASSERT_TRUE(tuner.lookup(ctx->info, p, PixelFormat::GRAY8, 64, 48).has_value());
  EXPECT_EQ(tuner.lastReport()->trigger, "compare");
  // ... until the parameters change: another size (a race of its own), then back.
  tuner.resolve(ctx, cache, p, PixelFormat::GRAY8, 65, 48);
  EXPECT_FALSE(tuner.lastReport()->cached);
  ASSERT_TRUE(tuner.lookup(ctx->info, p, PixelFormat::GRAY8, 64, 48).has_value());
  EXPECT_EQ(tuner.lastReport(), kept) << "back at the first size: its kept race";
  // A file of an earlier version: the choice alone on each line.
  std::string text, line;
  {
    std::ifstream in(path);
    while (std::getline(in, line)) {
      std::size_t tab = 0;
      for (int field = 0; field < 6 && tab != std::string::npos; ++field) tab = line.find('\t', tab ? tab + 1 : 0);
      text += (tab == std::string::npos ? line : line.substr(0, tab)) + "\n";
    }
  }
  { std::ofstream(path) << text; }
  AutoTuner older(path);
  ASSERT_TRUE(older.lookup(ctx->info, p, PixelFormat::GRAY8, 64, 48).has_value()) << text;
  EXPECT_EQ(older.lastReport(), nullptr);
  EXPECT_EQ(older.racesRun(), 0);
}

// A race asked to stop (run's Ctrl-C) throws Cancelled and remembers nothing.
TEST(AutoTune, ARaceAskedToStopThrowsCancelledAndRemembersNothing) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const std::string path = tempCache("stopped.tsv");
  FilterParams p;
  p.variant = VariantId::Auto;
  p.mask = test::integerMask(5, 3);
  auto tuner = std::make_shared<AutoTuner>(path);
  int asked = 0;
  tuner->setStopRequest([&asked] { return ++asked > 2; });  // after two candidates
  EXPECT_THROW(tuner->resolve(ctx, std::make_shared<ProgramCache>(), p, PixelFormat::GRAY8, 64, 48), Cancelled);
  EXPECT_EQ(tuner->racesRun(), 0);
  EXPECT_FALSE(tuner->lookup(ctx->info, p, PixelFormat::GRAY8, 64, 48).has_value());
  tuner->setStopRequest(nullptr);
  EXPECT_NO_THROW(tuner->resolve(ctx, std::make_shared<ProgramCache>(), p, PixelFormat::GRAY8, 64, 48));
  EXPECT_EQ(tuner->racesRun(), 1);
}

// An 8K frame (or a header that claims one) races on a bounded sample: seconds, not minutes.
TEST(AutoTune, AnEightKFrameRacesOnABoundedSample) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  FilterParams p;
  p.variant = VariantId::Auto;
  p.mask = test::integerMask(5, 5);
  auto tuner = std::make_shared<AutoTuner>(tempCache("eightk.tsv"));
  const auto start = std::chrono::steady_clock::now();
  const FilterParams chosen = tuner->resolve(ctx, std::make_shared<ProgramCache>(), p, PixelFormat::RGBA8, 7680, 4320);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_NE(chosen.variant, VariantId::Auto);
  EXPECT_EQ(tuner->racesRun(), 1);
  std::cout << "[          ] 8K rgba 5x5 race on " << ctx->info.name << ": " << seconds << " s\n";
  // Bounded by what was timed, not by how long it took (a loaded machine is
  // slow either way): every candidate ran on the sample, at most 1080p's pixels.
  const std::shared_ptr<const RaceReport> report = tuner->lastReport();
  ASSERT_TRUE(report);
  EXPECT_EQ(report->width, 7680);
  EXPECT_EQ(report->height, 4320);
  EXPECT_LE(static_cast<long long>(report->sampleWidth) * report->sampleHeight, 1920LL * 1080);
  EXPECT_GT(report->sampleWidth, 0);
  EXPECT_TRUE(tuner->lookup(ctx->info, p, PixelFormat::RGBA8, 7680, 4320).has_value()) << "kept for the real size";
}

TEST(AutoTune, TheRaceSampleKeepsTheShapeWithin1080pPixels) {
  EXPECT_EQ(AutoTuner::raceSample(1920, 1080), (std::pair<int, int>{1920, 1080}));
  EXPECT_EQ(AutoTuner::raceSample(320, 180), (std::pair<int, int>{320, 180}));
  for (const auto& [w, h] : {std::pair<int, int>{7680, 4320}, {16000, 16000}, {3840, 2160}, {100000, 40}}) {
    const auto [sw, sh] = AutoTuner::raceSample(w, h);
    EXPECT_LE(double(sw) * sh, 1920.0 * 1080.0) << w << "x" << h;
    EXPECT_GE(double(sw) * sh, 0.9 * std::min(1920.0 * 1080.0, double(w) * h)) << w << "x" << h;
    EXPECT_LE(sw, w);
    EXPECT_LE(sh, h);
    if (w < 20000 && h < 20000) {  // the shape is kept unless a side had to stay at its minimum
      EXPECT_NEAR(double(sw) / sh, double(w) / h, 0.01 * w / h) << w << "x" << h;
    }
  }
}

// The frame path's Convolver never compiles: an edit goes to the KernelBuilder,
// the old kernel serves every frame until the new Convolver is taken, and no
// frame is torn between the two.
TEST(KernelBuilder, ThePreviousKernelServesUntilTheNewOneIsTaken) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  auto cache = std::make_shared<ProgramCache>();
  Convolver conv(ctx, cache);
  FilterParams p;
  p.variant = VariantId::Baked;
  p.mask = test::integerMask(3, 3);
  conv.setParams(p);
  const Image src = randomImage(40, 30, PixelFormat::GRAY8, 4);
  Image out(40, 30, PixelFormat::GRAY8), before(40, 30, PixelFormat::GRAY8), after(40, 30, PixelFormat::GRAY8);
  conv.prepare(PixelFormat::GRAY8, 40, 30);  // the first program is built before streaming
  conv.setBuildPolicy(BuildPolicy::FramePath);
  convolveReference(src.view(), before.view(), p.mask, p.border, p.alpha);

  FilterParams edited = p;
  edited.mask.coefficients[0] += 2;  // a baked mask edit needs a new program
  convolveReference(src.view(), after.view(), edited.mask, p.border, p.alpha);
  conv.setParams(edited);  // on the frame path itself: still served by the old program
  conv.process(src.view(), out.view());
  EXPECT_FALSE(compareImages(out.view(), before.view(), 0).has_value()) << "a FramePath Convolver compiled";

  KernelBuilder builder(ctx, cache);
  builder.request(2, edited, PixelFormat::GRAY8, 40, 30);
  std::unique_ptr<Convolver> next;
  std::uint64_t generation = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (int frame = 0; std::chrono::steady_clock::now() < deadline && !next; ++frame) {
    conv.process(src.view(), out.view());
    ASSERT_FALSE(compareImages(out.view(), before.view(), 0).has_value()) << "frame " << frame << " is not the old result";
    next = builder.take(&generation);
  }
  ASSERT_TRUE(next) << "the builder never finished";
  EXPECT_EQ(generation, 2u);
  next->process(src.view(), out.view());
  EXPECT_FALSE(compareImages(out.view(), after.view(), 0).has_value());
  EXPECT_TRUE(builder.wait(2, 0));
}

TEST(KernelBuilder, AFailedBuildIsReportedWithItsSentenceAndNothingIsHandedOver) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  KernelBuilder builder(ctx, std::make_shared<ProgramCache>());
  FilterParams p;
  p.variant = VariantId::Local;
  p.mask = test::integerMask(3, 3);
  p.workgroup = {4096, 4096};  // cannot fit: the build fails
  builder.request(7, p, PixelFormat::RGBA8, 20, 20);
  EXPECT_FALSE(builder.wait(7, 60000));
  EXPECT_TRUE(builder.failed(7));
  EXPECT_NE(builder.error().find("Workgroup 4096x4096"), std::string::npos) << builder.error();
  std::uint64_t generation = 0;
  EXPECT_EQ(builder.take(&generation), nullptr);
}

// A kernel that does not compile: the builder says so in one sentence and
// keeps the compiler's log apart, for the windows to show each in its place.
TEST(KernelBuilder, ACompileFailureKeepsItsSentenceAndTheCompilersLogApart) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  KernelsWithOneBroken kernels("builder_broken_kernels", {"common.cl", "naive.cl"}, "naive.cl");
  KernelBuilder builder(ctx, std::make_shared<ProgramCache>());
  FilterParams p;
  p.variant = VariantId::Naive;
  p.mask = test::integerMask(3, 3);
  builder.request(3, p, PixelFormat::RGBA8, 20, 20);
  EXPECT_FALSE(builder.wait(3, 120000));
  kernels.restore();
  ASSERT_TRUE(builder.failed(3));
  EXPECT_EQ(builder.error().find('\n'), std::string::npos) << "one sentence: " << builder.error();
  EXPECT_NE(builder.error().find("naive"), std::string::npos) << builder.error();
  EXPECT_NE(builder.buildLog().find("undeclared_thing"), std::string::npos) << builder.buildLog();
}

// A new `auto` set is handed over at once on the stopgap, then on its
// provisional kernel; the race follows on the builder's thread (never the
// caller's) and its winner is handed over after it, for the same generation.
TEST(KernelBuilder, AutoShowsTheProvisionalKernelFirstThenTheRaceWinner) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  auto tuner = std::make_shared<AutoTuner>(tempCache("builder.tsv"));
  KernelBuilder builder(ctx, std::make_shared<ProgramCache>(), tuner);
  FilterParams p;
  p.variant = VariantId::Auto;
  p.mask = test::integerMask(5, 5);
  builder.request(3, p, PixelFormat::RGBA8, 64, 48);
  ASSERT_TRUE(builder.wait(3, 120000)) << builder.error();
  std::uint64_t generation = 0;
  std::unique_ptr<Convolver> first = builder.take(&generation);
  ASSERT_TRUE(first);
  EXPECT_EQ(generation, 3u);
  EXPECT_EQ(first->lastRun().variant, stopgapVariant(ctx->info.kind == DeviceKind::GPU));
  EXPECT_TRUE(first->lastRun().stopgap);
  // The provisional kernel and the winner may be taken together when the race is quick: wait for the race.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while ((tuner->racesRun() < 1 || builder.busy()) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::unique_ptr<Convolver> winner = builder.take(&generation);
  ASSERT_TRUE(winner) << "the race's winner never came";
  EXPECT_EQ(generation, 3u);
  EXPECT_EQ(tuner->racesRun(), 1);
  EXPECT_EQ(tuner->lastRaceThread(), "lc-build");
  const std::optional<FilterParams> answer = tuner->lookup(ctx->info, p, PixelFormat::RGBA8, 64, 48);
  ASSERT_TRUE(answer);
  EXPECT_EQ(winner->lastRun().variant, answer->variant);
  EXPECT_TRUE(winner->readyFor(PixelFormat::RGBA8, 64, 48));
}

// A handed-over Convolver filters a 64x48 RGBA frame exactly as the reference does with `p`.
void expectExactOn64x48(Convolver& c, const FilterParams& p, PixelFormat format = PixelFormat::RGBA8) {
  const Image in = randomImage(64, 48, format, 77);
  Image out(64, 48, format), want(64, 48, format);
  c.process(in.view(), out.view());
  convolveReference(in.view(), want.view(), p.mask, p.border, p.alpha);
  const auto mismatch = compareImages(out.view(), want.view(), 0);
  EXPECT_FALSE(mismatch) << mismatch->toString();
}

// Takes handed-over Convolvers until `done` accepts one, at most 120 s.
template <typename Done>
std::unique_ptr<Convolver> takeUntil(KernelBuilder& builder, std::uint64_t* generation, Done done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::unique_ptr<Convolver> c = builder.take(generation); c && done(*c)) return c;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return nullptr;
}

// Once the stopgap's program is built (by the first set), a new `auto` mask
// is handed over on it by request() itself (no compile: the mask is taken at
// run time), exactly, then on its own kernels. A frame too costly for the
// stopgap waits for the provisional kernel instead.
TEST(KernelBuilder, ANewAutoMaskShowsAtOnceOnTheStopgapThenOnItsOwnKernels) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  auto tuner = std::make_shared<AutoTuner>(tempCache("stopgap.tsv"));
  KernelBuilder builder(ctx, std::make_shared<ProgramCache>(), tuner);
  const bool gpu = ctx->info.kind == DeviceKind::GPU;
  const VariantId stopgap = stopgapVariant(gpu);
  FilterParams p;
  p.variant = VariantId::Auto;
  p.mask = test::integerMask(3, 3);
  builder.request(1, p, PixelFormat::RGBA8, 64, 48);
  std::uint64_t generation = 0;
  // The first set: the stopgap (its one compile), its provisional kernel, then the race.
  ASSERT_TRUE(builder.wait(1, 120000)) << builder.error();
  const auto idle = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while ((tuner->racesRun() < 1 || builder.busy()) && std::chrono::steady_clock::now() < idle)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(tuner->racesRun(), 1);
  ASSERT_FALSE(builder.busy()) << "the builder never went idle";
  while (builder.take(&generation)) {
  }

  p.mask = test::integerMask(7, 5);  // a new size: its own kernels need a compile
  const auto asked = std::chrono::steady_clock::now();
  builder.request(2, p, PixelFormat::RGBA8, 64, 48);
  // Handed over by request() itself, in the caller's thread, with no compile: ready without waiting.
  std::unique_ptr<Convolver> first = builder.take(&generation);
  ASSERT_TRUE(first) << "the stopgap was not ready when request() returned";
  EXPECT_TRUE(builder.wait(2, 0));
  EXPECT_EQ(generation, 2u);
  EXPECT_EQ(first->lastRun().variant, stopgap) << "the new mask waited for a compile";
  EXPECT_TRUE(first->lastRun().stopgap);
  std::printf("[          ] the stopgap (%s) was handed over %.1f ms after the request\n", variantInfo(stopgap).name,
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - asked).count());
  expectExactOn64x48(*first, p);
  std::unique_ptr<Convolver> own =
      takeUntil(builder, &generation, [&](const Convolver& c) { return !c.lastRun().stopgap; });
  ASSERT_TRUE(own) << "the set's own kernel never replaced the stopgap";
  EXPECT_EQ(generation, 2u);

  // Too costly a frame for the stopgap, on a CPU and on a GPU alike
  // (stopgapAffordable): the provisional kernel comes first.
  p.mask = test::integerMask(31, 31);
  builder.request(3, p, PixelFormat::RGBA8, 8192, 8192);
  ASSERT_TRUE(builder.wait(3, 120000)) << builder.error();
  std::unique_ptr<Convolver> large = builder.take(&generation);
  ASSERT_TRUE(large);
  EXPECT_EQ(large->lastRun().variant, AutoTuner::provisional(p, ctx->info.kind).variant);
}

// In a window (idle work on), a variant that compiles each mask (baked) shows
// a new mask at once on the stopgap, exactly, then on its own kernel once the
// edits settle. A switch of variant alone (the same picture) waits for its
// own kernel, and a builder for a run (no idle work) never hands a stopgap.
TEST(KernelBuilder, AVariantThatCompilesEachMaskShowsANewMaskOnTheStopgapInAWindow) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const bool gpu = ctx->info.kind == DeviceKind::GPU;
  const VariantId stopgap = stopgapVariant(gpu);
  for (const bool live : {true, false}) {
    SCOPED_TRACE(live ? "a window" : "a run");
    KernelBuilder builder(ctx, std::make_shared<ProgramCache>());
    builder.setIdleWork(live);
    builder.setSettleTime(std::chrono::milliseconds(100));
    FilterParams p;
    p.variant = VariantId::Baked;
    p.mask = test::integerMask(3, 3);
    std::uint64_t generation = 0;
    std::unique_ptr<Convolver> opened = builder.first(1, p, PixelFormat::RGBA8, 64, 48);
    ASSERT_TRUE(opened);
    EXPECT_EQ(opened->lastRun().variant, live ? stopgap : VariantId::Baked);
    EXPECT_EQ(opened->lastRun().stopgap, live);
    if (live) {
      std::unique_ptr<Convolver> own =
          takeUntil(builder, &generation, [&](const Convolver& c) { return !c.lastRun().stopgap; });
      ASSERT_TRUE(own) << "baked never replaced the stopgap";
      EXPECT_EQ(own->lastRun().variant, VariantId::Baked);
      expectExactOn64x48(*own, p);
    }
    ASSERT_TRUE(waitUntilIdle(builder, std::chrono::seconds(120))) << "the builder never went idle";
    while (builder.take(&generation)) {
    }

    p.mask.coefficients[4] += 3;  // a new mask: baked compiles again
    builder.request(2, p, PixelFormat::RGBA8, 64, 48);
    std::unique_ptr<Convolver> edited = builder.take(&generation);
    if (!live) {
      EXPECT_FALSE(edited) << "a run was handed a kernel before baked was built";
      ASSERT_TRUE(builder.wait(2, 120000)) << builder.error();
      edited = builder.take(&generation);
      ASSERT_TRUE(edited);
      EXPECT_EQ(edited->lastRun().variant, VariantId::Baked);
      continue;
    }
    ASSERT_TRUE(edited) << "the new mask waited for baked's compile";
    EXPECT_EQ(generation, 2u);
    EXPECT_EQ(edited->lastRun().variant, stopgap);
    EXPECT_TRUE(edited->lastRun().stopgap);
    expectExactOn64x48(*edited, p);
    std::unique_ptr<Convolver> own =
        takeUntil(builder, &generation, [&](const Convolver& c) { return !c.lastRun().stopgap; });
    ASSERT_TRUE(own) << "baked never replaced the stopgap";
    EXPECT_EQ(generation, 2u);
    EXPECT_EQ(own->lastRun().variant, VariantId::Baked);
    expectExactOn64x48(*own, p);
    ASSERT_TRUE(waitUntilIdle(builder, std::chrono::seconds(120)));

    p.variant = VariantId::Unrolled;  // the same picture: no stopgap
    builder.request(3, p, PixelFormat::RGBA8, 64, 48);
    ASSERT_TRUE(builder.wait(3, 120000)) << builder.error();
    std::unique_ptr<Convolver> switched = takeUntil(builder, &generation, [](const Convolver&) { return true; });
    ASSERT_TRUE(switched);
    EXPECT_EQ(generation, 3u);
    EXPECT_EQ(switched->lastRun().variant, VariantId::Unrolled) << "a switch of variant alone ran on the stopgap";
  }
}

// Edits that come while the builder does idle work (compiling the other
// variants) each queue idle work of their own: the last one's own kernel
// still follows once they pause (it was dropped when the older idle work ended).
TEST(KernelBuilder, AfterQuickEditsTheLastSetsOwnKernelStillFollows) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  for (const VariantId variant : {VariantId::Baked, VariantId::Auto}) {
    SCOPED_TRACE(variantInfo(variant).name);
    auto tuner = std::make_shared<AutoTuner>(tempCache("quick_edits.tsv"));
    KernelBuilder builder(ctx, std::make_shared<ProgramCache>(), tuner);
    builder.setIdleWork(true);
    builder.setSettleTime(std::chrono::milliseconds(100));
    // On a CPU device the idle work's first launches go here: held while the
    // edits come, so they surely come while the idle work runs.
    std::atomic<bool> hold{false};
    builder.setFirstLaunchElsewhere(
        [&](const DeviceInfo&, const std::vector<Convolver::PreparedSet>&, const std::function<bool()>& abandon) {
          while (hold && !abandon()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
          return false;  // launched nowhere: the builder goes on by its own rules
        });
    FilterParams p;
    p.variant = variant;
    p.mask = test::integerMask(5, 5);
    std::uint64_t generation = 0;
    ASSERT_TRUE(builder.first(1, p, PixelFormat::RGBA8, 64, 48));  // the stopgap; the idle work starts
    hold = true;
    for (std::uint64_t g = 2; g <= 6; ++g) {
      p.mask.coefficients[g] += 1;
      builder.request(g, p, PixelFormat::RGBA8, 64, 48);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    hold = false;
    std::unique_ptr<Convolver> own =
        takeUntil(builder, &generation, [&](const Convolver& c) { return !c.lastRun().stopgap; });
    ASSERT_TRUE(own) << "the last set stayed on its stopgap";
    EXPECT_EQ(generation, 6u);
    expectExactOn64x48(*own, p);
  }
}

// A first set that cannot run here is said with the engine's own kind of
// error, so a window exits with `liveconv run`'s code for it: a workgroup no
// device allows is UnsupportedError (5), a kernel that does not compile BuildError (4).
TEST(KernelBuilder, TheFirstSetsFailureKeepsItsKind) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  FilterParams p;
  p.variant = VariantId::Local;
  p.mask = test::integerMask(3, 3);
  p.workgroup = {128, 128};
  {
    KernelBuilder builder(ctx, std::make_shared<ProgramCache>());
    EXPECT_THROW(builder.first(1, p, PixelFormat::RGBA8, 64, 48), UnsupportedError);
  }
  KernelsWithOneBroken kernels("builder_broken_first", {"common.cl", "naive.cl"}, "naive.cl");
  KernelBuilder builder(ctx, std::make_shared<ProgramCache>());
  p.variant = VariantId::Naive;
  p.workgroup = {};
  try {
    builder.first(1, p, PixelFormat::RGBA8, 64, 48);
    ADD_FAILURE() << "a kernel that does not compile was handed over";
  } catch (const BuildError& e) {
    EXPECT_NE(e.buildLog().find("undeclared_thing"), std::string::npos) << e.buildLog();
  }
}

// In a window (stopgaps on), a set whose own kernel cannot fit the device (a
// workgroup too large for baked) is refused at once, with UnsupportedError,
// not served by the stopgap until its own build fails; the stopgap is not
// blamed: the next set of that variant is served by it as before.
TEST(KernelBuilder, ASetThatCannotFitTheDeviceIsRefusedBeforeAStopgapServesIt) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  auto cache = std::make_shared<ProgramCache>();
  KernelBuilder builder(ctx, cache);
  builder.setIdleWork(true);
  FilterParams p;
  p.variant = VariantId::Baked;
  p.mask = test::integerMask(3, 3);
  p.workgroup = {128, 128};  // more work-items than any device allows
  try {
    builder.first(1, p, PixelFormat::RGBA8, 64, 48);
    ADD_FAILURE() << "a set that cannot fit the device was handed over (on its stopgap)";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("Workgroup 128x128 does not fit"), std::string::npos) << e.what();
  }
  EXPECT_EQ(cache->buildCount(), 0) << "refused only after a compile (its own or a stopgap's)";
  p.workgroup = {};
  p.mask = test::integerMask(5, 5);
  std::unique_ptr<Convolver> next = builder.first(2, p, PixelFormat::RGBA8, 64, 48);
  ASSERT_TRUE(next);
  EXPECT_TRUE(next->lastRun().stopgap) << "the stopgap was taken for the refused set's failure";
}

// The kernel a stopgap stands in for can still fail to build: its failure is
// the set's, with the compiler's log, for the window to refuse as any other.
TEST(KernelBuilder, AFailureOfTheKernelAStopgapServedIsTheSets) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  // The stopgap: rows on a CPU, local on a GPU.
  KernelsWithOneBroken kernels("builder_broken_packet", {"common.cl", "rows.cl", "local.cl", "packet.cl"}, "packet.cl");
  KernelBuilder builder(ctx, std::make_shared<ProgramCache>());
  builder.setIdleWork(true);
  builder.setSettleTime(std::chrono::milliseconds(50));
  FilterParams p;
  p.variant = VariantId::Baked;
  p.mask = test::integerMask(3, 3);
  std::unique_ptr<Convolver> opened = builder.first(1, p, PixelFormat::RGBA8, 64, 48);
  ASSERT_TRUE(opened);
  EXPECT_TRUE(opened->lastRun().stopgap);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!builder.failed(1) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  kernels.restore();
  ASSERT_TRUE(builder.failed(1)) << "baked's failure after its stopgap was not the set's";
  EXPECT_NE(builder.buildLog().find("undeclared_thing"), std::string::npos) << builder.buildLog();
  std::uint64_t generation = 0;
  while (std::unique_ptr<Convolver> c = builder.take(&generation)) EXPECT_TRUE(c->lastRun().stopgap);
}

// A window's builder builds its first kernel at the caller's priority, then
// lowers its own (lc-build's nice value, which the first-launch helpers it
// starts inherit), so that its later kernels, the race and the idle work
// take the cores only where the stream and the window leave them. A builder
// without it (`run`) keeps its priority.
TEST(KernelBuilder, AWindowsBuilderYieldsTheCoresAfterItsFirstSet) {
  LIVECONV_REQUIRE_DEVICE(ctx);
#if !defined(__linux__)
  GTEST_SKIP() << "per-thread nice values are Linux's";
#endif
  const int callerNice = currentThreadNice();  // a test run under `nice` starts above 0
  FilterParams p;
  p.variant = VariantId::Naive;
  p.mask = test::integerMask(3, 3);
  for (const bool window : {false, true}) {
    KernelBuilder builder(ctx, std::make_shared<ProgramCache>());
    if (window) builder.setBackgroundAfterFirst(KernelBuilder::kBackgroundNice);
    EXPECT_EQ(builder.builderNice(), 0);
    ASSERT_TRUE(builder.first(1, p, PixelFormat::RGBA8, 64, 48));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (window && builder.builderNice() == 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (window) {
      EXPECT_GE(builder.builderNice(), KernelBuilder::kBackgroundNice) << "lc-build kept its priority in a window";
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      EXPECT_EQ(builder.builderNice(), 0) << "a run's builder was lowered";
    }
  }
  EXPECT_EQ(currentThreadNice(), callerNice) << "the caller's thread was lowered, not lc-build";
}

// A set of a concrete variant whose program is built already (a runtime-bound
// mask: naive, local) is handed over by request() itself: a cell edit never
// waits for the builder's thread, whatever it is compiling or racing.
TEST(KernelBuilder, ASetWhoseProgramIsBuiltIsReadyWhenRequestReturns) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  KernelBuilder builder(ctx, std::make_shared<ProgramCache>());
  FilterParams p;
  p.variant = VariantId::Naive;
  p.mask = test::integerMask(5, 5);
  builder.request(1, p, PixelFormat::RGBA8, 64, 48);
  ASSERT_TRUE(builder.wait(1, 120000)) << builder.error();  // the first one compiles, on the builder's thread
  std::uint64_t generation = 0;
  ASSERT_TRUE(builder.take(&generation));
  p.mask = test::integerMask(7, 3);  // another mask, the same program (naive takes the mask at run time)
  builder.request(2, p, PixelFormat::RGBA8, 64, 48);
  std::unique_ptr<Convolver> next = builder.take(&generation);
  ASSERT_TRUE(next) << "the set waited for the builder's thread";
  EXPECT_EQ(generation, 2u);
  expectExactOn64x48(*next, p);
}

// A builder for live edits (setIdleWork) compiles the set in force for the
// other pixel format once the set was handed over (for `auto` and baked, the
// stopgap of every format; naive, whose one program serves every mask, as itself): a
// later switch of the format is handed over by request() itself. A builder
// without it compiles nothing it was not asked for.
TEST(KernelBuilder, AnIdleBuilderForLiveEditsHasTheOtherFormatReady) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  for (const VariantId variant : {VariantId::Auto, VariantId::Naive, VariantId::Baked}) {
    for (const bool live : {true, false}) {
      SCOPED_TRACE(std::string(variantInfo(variant).name) + (live ? ", prebuild" : ", no prebuild"));
      auto tuner = std::make_shared<AutoTuner>(tempCache("prebuild.tsv"));
      KernelBuilder builder(ctx, std::make_shared<ProgramCache>(), tuner);
      FilterParams p;
      p.variant = variant;
      p.mask = test::integerMask(5, 3);
      builder.setIdleWork(live);
      std::uint64_t generation = 0;
      ASSERT_TRUE(builder.first(1, p, PixelFormat::RGBA8, 64, 48));  // as a window's feed opens
      ASSERT_TRUE(waitUntilIdle(builder, std::chrono::seconds(120))) << "the builder never went idle";
      while (builder.take(&generation)) {  // the later steps of the RGBA set
      }
      builder.request(2, p, PixelFormat::GRAY8, 64, 48);
      std::unique_ptr<Convolver> gray = builder.take(&generation);
      if (!live) {
        EXPECT_FALSE(gray) << "the builder compiled a format nobody asked for";
        continue;
      }
      ASSERT_TRUE(gray) << "the gray kernel was not ready when request() returned";
      EXPECT_EQ(generation, 2u);
      EXPECT_EQ(gray->lastRun().variant,
                variant == VariantId::Naive ? variant : stopgapVariant(ctx->info.kind == DeviceKind::GPU));
      expectExactOn64x48(*gray, p, PixelFormat::GRAY8);
    }
  }
}

// Idle, once the set has nothing left to build, a live builder has every
// other variant that takes the mask at run time ready in the set's format: a
// switch of variant in a window is a hand-over in request(), exact, not a compile.
TEST(KernelBuilder, AnIdleBuilderForLiveEditsHasEveryRuntimeVariantReady) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  test::loadExampleUserKernel();  // a kernel of one's own is a runtime variant too
  const bool gpu = ctx->info.kind == DeviceKind::GPU;
  for (const bool live : {true, false}) {
    SCOPED_TRACE(live ? "idle work" : "no idle work");
    auto tuner = std::make_shared<AutoTuner>(tempCache("prebuild_variants.tsv"));
    KernelBuilder builder(ctx, std::make_shared<ProgramCache>(), tuner);
    builder.setIdleWork(live);
    FilterParams p;
    // Not `auto`: its race compiles every candidate (on a GPU, every runtime variant) with or without idle work.
    p.variant = VariantId::Naive;
    p.mask = test::integerMask(3, 5);
    const auto started = std::chrono::steady_clock::now();
    ASSERT_TRUE(builder.first(1, p, PixelFormat::RGBA8, 64, 48));
    ASSERT_TRUE(waitUntilIdle(builder, std::chrono::seconds(240))) << "the builder never went idle";
    std::printf("[          ] idle after %.0f ms\n",
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
    std::uint64_t generation = 0, g = 1;
    while (builder.take(&generation)) {
    }
    int handed = 0, asked = 0;
    for (const VariantInfo& v : variantRegistry()) {
      if (v.id == VariantId::Auto || v.binding != MaskBinding::Runtime || (v.cpuOnly && gpu)) continue;
      p.variant = v.id;
      p.mask.coefficients[0] += 1;  // a new mask too: the program serves it
      builder.request(++g, p, PixelFormat::RGBA8, 64, 48);
      std::unique_ptr<Convolver> c = builder.take(&generation);
      ++asked;
      EXPECT_TRUE(c || !live) << v.name << " was not ready when request() returned";
      if (!c) continue;
      ++handed;
      EXPECT_EQ(c->lastRun().variant, v.id);
      expectExactOn64x48(*c, p);
    }
    EXPECT_GE(asked, gpu ? 6 : 7);
    if (live)
      EXPECT_EQ(handed, asked);
    else
      EXPECT_LT(handed, asked) << "without idle work the other variants are compiled when asked for";
  }
}

// On a CPU device (PoCL generates a kernel's code at its first launch, and
// every launch of the process waits for it) a builder given a helper makes
// each first launch there: the set's own, the other format's, those of the
// other variants, and before a race those of every candidate; nothing is left
// for the frame path or the race. A GPU launches itself.
TEST(KernelBuilder, OnACpuDeviceEveryFirstLaunchGoesToTheHelperGiven) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  test::loadExampleUserKernel();  // a kernel of one's own is a runtime variant too
  const bool gpu = ctx->info.kind == DeviceKind::GPU;
  using Launch = std::tuple<VariantId, int, int, int, PixelFormat>;  // variant, workgroup, packet, format
  auto launchOf = [](const FilterParams& p, PixelFormat f) {
    return Launch{p.variant, p.workgroup.x, p.workgroup.y, p.packet, f};
  };
  for (const VariantId asked : {VariantId::Local, VariantId::Auto}) {
    SCOPED_TRACE(variantInfo(asked).name);
    std::mutex m;
    std::set<Launch> launched;
    auto tuner = std::make_shared<AutoTuner>(tempCache("first_launch_elsewhere.tsv"));
    KernelBuilder builder(ctx, std::make_shared<ProgramCache>(), tuner);
    builder.setIdleWork(true);
    builder.setFirstLaunchElsewhere(
        [&](const DeviceInfo& d, const std::vector<Convolver::PreparedSet>& sets, const std::function<bool()>&) {
          EXPECT_EQ(d.name, ctx->info.name);
          std::lock_guard<std::mutex> lock(m);
          for (const Convolver::PreparedSet& set : sets) {
            EXPECT_NE(set.params.variant, VariantId::Auto) << "the helper gets the concrete set";
            EXPECT_TRUE(launched.insert(launchOf(set.params, set.format)).second)
                << variantInfo(set.params.variant).name << " launched twice";
          }
          return true;
        });
    FilterParams p;
    p.variant = asked;
    p.mask = test::integerMask(3, 5);
    ASSERT_TRUE(builder.first(1, p, PixelFormat::RGBA8, 64, 48));
    ASSERT_TRUE(waitUntilIdle(builder, std::chrono::seconds(240))) << "the builder never went idle";
    std::lock_guard<std::mutex> lock(m);
    if (gpu) {
      EXPECT_TRUE(launched.empty()) << "a GPU makes its first launches itself";
      continue;
    }
    std::set<std::pair<VariantId, PixelFormat>> variants;  // what was launched, by variant and format
    for (const Launch& l : launched) variants.insert({std::get<0>(l), std::get<4>(l)});
    std::set<std::pair<VariantId, PixelFormat>> want;
    for (const VariantInfo& v : variantRegistry())
      if (v.id != VariantId::Auto && v.binding == MaskBinding::Runtime) want.insert({v.id, PixelFormat::RGBA8});
    if (asked == VariantId::Local) {
      want.insert({VariantId::Local, PixelFormat::GRAY8});  // its other format
      EXPECT_EQ(variants, want);
      continue;
    }
    want.insert({stopgapVariant(false), PixelFormat::GRAY8});  // the stopgap in the other format
    for (const auto& w : want) EXPECT_TRUE(variants.count(w)) << variantInfo(w.first).name << " " << toString(w.second);
    const std::vector<FilterParams> candidates = AutoTuner::candidates(p, false);
    EXPECT_GE(candidates.size(), 3u);
    for (const FilterParams& c : candidates)
      EXPECT_TRUE(launched.count(launchOf(c, PixelFormat::RGBA8)))
          << variantInfo(c.variant).name << " " << c.workgroup.x << "x" << c.workgroup.y << " packet " << c.packet
          << ": a candidate the race launched itself";
    EXPECT_GE(tuner->racesRun(), 1) << "no race ran";
  }
}

// The other format's stopgap comes right after a set's first hand-over,
// before its provisional kernel and race: a switch to gray soon after a
// window opened (while `auto` still races) is a hand-over, not a compile.
TEST(KernelBuilder, TheOtherFormatsStopgapIsReadyBeforeTheRace) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  auto tuner = std::make_shared<AutoTuner>(tempCache("prebuild_early.tsv"));
  KernelBuilder builder(ctx, std::make_shared<ProgramCache>(), tuner);
  builder.setIdleWork(true);
  FilterParams p;
  p.variant = VariantId::Auto;
  p.mask = test::integerMask(5, 3);
  const VariantId stopgap = stopgapVariant(ctx->info.kind == DeviceKind::GPU);
  std::unique_ptr<Convolver> opened = builder.first(1, p, PixelFormat::RGBA8, 64, 48);
  ASSERT_TRUE(opened);
  ASSERT_EQ(opened->lastRun().variant, stopgap);
  std::uint64_t generation = 0;
  // The provisional kernel: the race has not answered yet.
  ASSERT_TRUE(takeUntil(builder, &generation, [&](const Convolver& c) { return !c.lastRun().stopgap; }));
  EXPECT_EQ(tuner->racesRun(), 0) << "the race answered first; nothing to tell apart";
  builder.request(2, p, PixelFormat::GRAY8, 64, 48);
  std::unique_ptr<Convolver> gray = builder.take(&generation);
  ASSERT_TRUE(gray) << "the gray stopgap was not ready when request() returned";
  EXPECT_EQ(gray->lastRun().variant, stopgap);
  expectExactOn64x48(*gray, p, PixelFormat::GRAY8);
}

// What the builder hands over has run once, on its own queue: the first frame
// filtered with it does not wait for PoCL to generate the kernel's code (on
// two cores 50-900 ms, while nothing else runs on the device). The mask is
// new to every run (its coefficients are compiled in), so no cache of an
// earlier run holds that code. Seen by what PoCL generates, not by how long
// the frame took: the generated code lands in its kernel cache, and none may
// come from the first frame.
TEST(KernelBuilder, AKernelHandedOverHasRunOnce) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  if (const std::string why = test::poclKernelCacheUnreadable(ctx->info); !why.empty()) GTEST_SKIP() << why;
  KernelBuilder builder(ctx, std::make_shared<ProgramCache>());
  FilterParams p;
  p.variant = VariantId::Baked;
  p.mask = test::integerMask(7, 5);
  std::mt19937 random(static_cast<unsigned>(std::chrono::steady_clock::now().time_since_epoch().count()));
  for (float& c : p.mask.coefficients) c = static_cast<float>(static_cast<int>(random() % 9) - 3);
  p.mask.coefficients[17] = 40;  // a sum far from zero
  p.mask.divisor = 64;
  const long long before = test::poclGeneratedKernels();
  builder.request(1, p, PixelFormat::RGBA8, 640, 480);
  ASSERT_TRUE(builder.wait(1, 120000)) << builder.error();
  std::uint64_t generation = 0;
  std::unique_ptr<Convolver> c = builder.take(&generation);
  ASSERT_TRUE(c);
  const long long handedOver = test::poclGeneratedKernels();
  EXPECT_GT(handedOver, before) << "the builder generated no code: the mask was not new, so nothing is proven";
  const Image in = randomImage(640, 480, PixelFormat::RGBA8, 5);
  DeviceImage src = allocateDeviceImage(ctx->context, 640, 480, PixelFormat::RGBA8, CL_MEM_READ_ONLY);
  DeviceImage dst = allocateDeviceImage(ctx->context, 640, 480, PixelFormat::RGBA8, CL_MEM_WRITE_ONLY);
  ctx->queue.enqueueWriteBuffer(src.buffer, CL_TRUE, 0, in.sizeBytes(), in.data());
  cl::Event done;
  c->enqueue(src, dst, nullptr, &done, nullptr);
  done.wait();
  EXPECT_EQ(test::poclGeneratedKernels(), handedOver) << "the first frame generated the kernel's code";
  Image got(640, 480, PixelFormat::RGBA8), want(640, 480, PixelFormat::RGBA8);
  ctx->queue.enqueueReadBuffer(dst.buffer, CL_TRUE, 0, got.sizeBytes(), got.data());
  convolveReference(in.view(), want.view(), p.mask, p.border, p.alpha);
  const auto mismatch = compareImages(got.view(), want.view(), 0);
  EXPECT_FALSE(mismatch) << mismatch->toString();
}

// A window's builder (setSettleTime): while edits come faster than the settle
// time, each shows at once on the stopgap and nothing else is built; `auto`'s
// own kernel follows once they pause. The masks keep one size, so the race's
// answer for it is known and that kernel would follow without one.
TEST(KernelBuilder, AutosOwnKernelWaitsUntilTheEditsPause) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  auto tuner = std::make_shared<AutoTuner>(tempCache("settle.tsv"));
  KernelBuilder builder(ctx, std::make_shared<ProgramCache>(), tuner);
  // Far longer than the 150 ms between the edits, so that a loaded machine's
  // stall between two of them does not pass for a pause.
  const auto settle = std::chrono::milliseconds(3000);
  builder.setSettleTime(settle);
  FilterParams p;
  p.variant = VariantId::Auto;
  p.mask = test::integerMask(5, 3);
  const VariantId stopgap = stopgapVariant(ctx->info.kind == DeviceKind::GPU);
  ASSERT_TRUE(builder.first(1, p, PixelFormat::RGBA8, 64, 48));
  std::uint64_t generation = 0;
  ASSERT_TRUE(takeUntil(builder, &generation, [&](const Convolver& c) { return !c.lastRun().stopgap; }));
  const auto idle = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (builder.busy() && std::chrono::steady_clock::now() < idle)  // its race, too
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  while (builder.take(&generation)) {
  }
  auto last = std::chrono::steady_clock::now();
  for (std::uint64_t g = 2; g <= 5; ++g) {  // four edits, 150 ms apart
    p.mask.coefficients[g] += 1;
    last = std::chrono::steady_clock::now();
    builder.request(g, p, PixelFormat::RGBA8, 64, 48);
    std::unique_ptr<Convolver> shown = builder.take(&generation);
    ASSERT_TRUE(shown) << "edit " << g << " did not show at once";
    EXPECT_EQ(shown->lastRun().variant, stopgap);
    EXPECT_TRUE(shown->lastRun().stopgap);
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    EXPECT_FALSE(builder.take(&generation)) << "a kernel was built while the edits came";
  }
  std::unique_ptr<Convolver> own =
      takeUntil(builder, &generation, [&](const Convolver& c) { return !c.lastRun().stopgap; });
  const auto waited = std::chrono::steady_clock::now() - last;
  ASSERT_TRUE(own);
  EXPECT_EQ(generation, 5u);
  EXPECT_GE(waited, settle - std::chrono::milliseconds(20)) << "auto's own kernel came before the edits settled";
  expectExactOn64x48(*own, p);
}

// While an `auto` edit settles, a builder with idle work builds the set's
// other format's stopgap (once; at once done where it is built): a format
// switch right after an edit is a hand-over, even where the idle work after
// the window opened did not get to it.
TEST(KernelBuilder, TheOtherFormatIsBuiltWhileAnEditSettles) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  auto cache = std::make_shared<ProgramCache>();
  KernelBuilder builder(ctx, cache, std::make_shared<AutoTuner>(tempCache("settle_idle.tsv")));
  builder.setSettleTime(std::chrono::minutes(30));  // longer than the test, however slow the machine
  FilterParams p;
  p.variant = VariantId::Auto;
  p.mask = test::integerMask(5, 3);
  ASSERT_TRUE(builder.first(1, p, PixelFormat::RGBA8, 64, 48));  // no idle work yet: the gray stopgap is not built
  builder.setIdleWork(true);
  p.mask.coefficients[4] = 9;
  builder.request(2, p, PixelFormat::RGBA8, 64, 48);  // on the RGBA stopgap at once; settles now
  std::uint64_t generation = 0;
  ASSERT_TRUE(builder.take(&generation));
  const VariantId stopgap = stopgapVariant(ctx->info.kind == DeviceKind::GPU);
  auto grayBuilt = [&] {
    Convolver c(ctx, cache);
    c.setParams(p);
    return c.prepareStopgap(PixelFormat::GRAY8, stopgap, true);
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(240);  // only a hang
  while (!grayBuilt() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(grayBuilt()) << "the gray stopgap was not built while the edit settled";
  builder.request(3, p, PixelFormat::GRAY8, 64, 48);
  std::unique_ptr<Convolver> gray = builder.take(&generation);
  ASSERT_TRUE(gray) << "the switch to gray was no hand-over";
  EXPECT_EQ(generation, 3u);
  expectExactOn64x48(*gray, p, PixelFormat::GRAY8);
}

// While an edit settles, a builder with idle work also compiles the other
// variants that take the mask at run time (after the set's other format), so
// a switch to one right after an edit is a hand-over; the set's own steps
// still wait for the edits to pause.
TEST(KernelBuilder, TheOtherVariantsAreCompiledWhileAnEditSettles) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  auto cache = std::make_shared<ProgramCache>();
  KernelBuilder builder(ctx, cache, std::make_shared<AutoTuner>(tempCache("settle_variants.tsv")));
  builder.setSettleTime(std::chrono::minutes(30));  // longer than the test, however slow the machine
  builder.setIdleWork(true);
  FilterParams p;
  p.variant = VariantId::Auto;
  p.mask = test::integerMask(3, 5);
  ASSERT_TRUE(builder.first(1, p, PixelFormat::RGBA8, 64, 48));
  FilterParams naive = p;
  naive.variant = VariantId::Naive;
  auto naiveBuilt = [&] {
    Convolver c(ctx, cache);
    c.setParams(naive);
    return c.prepareIfCached(PixelFormat::RGBA8);
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(240);  // only a hang
  while (!naiveBuilt() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(naiveBuilt()) << "naive was not compiled while the edit settled";
  std::uint64_t generation = 0;
  EXPECT_FALSE(builder.take(&generation)) << "the set's own kernel came before the edits paused";
  naive.mask.coefficients[2] = 7;
  builder.request(2, naive, PixelFormat::RGBA8, 64, 48);
  std::unique_ptr<Convolver> switched = builder.take(&generation);
  ASSERT_TRUE(switched) << "the switch to naive was no hand-over";
  EXPECT_EQ(generation, 2u);
  expectExactOn64x48(*switched, naive);
}

}  // namespace
}  // namespace liveconv
