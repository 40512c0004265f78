// The viewer model: commands, versions, separability, variants and the
// snapshot hand-off, all without a window.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "liveconv/errors.hpp"
#include "liveconv/media/exit_codes.hpp"
#include "liveconv/media/media_errors.hpp"
#include "liveconv/parameters.hpp"
#include "liveconv/variants.hpp"
#include "model/start_params.hpp"
#include "model/viewer_model.hpp"

using namespace liveconv;
using namespace liveconv::ui;

TEST(ViewerModel, StartsOnTheSeedMask) {
  ViewerModel m;
  EXPECT_EQ(m.mask(), parseMaskSpec("motion45:7"));  // the parameter table's default, as `liveconv run`
  EXPECT_TRUE(m.maskError().empty());
  ASSERT_NE(m.snapshot(), nullptr);
  EXPECT_EQ(m.snapshot()->version, m.version());
}

// A window starts on --open-timeout's row's default, as `liveconv run`
// does, and its flag is read and refused by the row.
TEST(ViewerModel, StartsWithTheParameterTablesDefaults) {
  ViewerModel m;
  EXPECT_EQ(m.view().openTimeoutSeconds, defaultParams().openTimeoutSeconds);
  EXPECT_EQ(modelParamText(m, ParamId::OpenTimeout), paramDescription(ParamId::OpenTimeout).defaultText);
  auto take = [&m](const char* value, std::string* why) {
    std::string flag = "--open-timeout", text = value;
    char* argv[] = {flag.data(), text.data()};
    int i = 0;
    StartParams params;
    EXPECT_TRUE(takeParamFlag(2, argv, &i, &params, why));
    if (why->empty()) applyStartParams(params, m);
  };
  std::string why;
  take("7", &why);
  EXPECT_EQ(why, "");
  EXPECT_EQ(m.view().openTimeoutSeconds, 7);
  take("86401", &why);
  EXPECT_EQ(why, "--open-timeout needs a whole number from 0 to 86400, not '86401'.");
  EXPECT_EQ(m.view().openTimeoutSeconds, 7);
}

TEST(ViewerModel, EditsBumpTheVersionAndNoOpsDoNot) {
  ViewerModel m;
  const auto v0 = m.version();
  EXPECT_TRUE(m.setCell(0, 0, 4.0f));
  EXPECT_GT(m.version(), v0);
  const auto v1 = m.version();
  EXPECT_FALSE(m.setCell(0, 0, 4.0f));
  EXPECT_FALSE(m.setBorder(m.border()));
  EXPECT_EQ(m.version(), v1);
  m.view().paused = true;  // view state is not a filter edit
  EXPECT_EQ(m.version(), v1);
}

TEST(ViewerModel, SymmetricEditingGoesThroughTheModel) {
  ViewerModel m;
  m.resize(5, 5);
  m.resetMask();
  m.setSymmetry(Symmetry::Mirror4);
  m.setCell(0, 0, 2.0f);
  EXPECT_EQ(m.mask().at(4, 4), 2.0f);
  EXPECT_EQ(m.mask().at(0, 4), 2.0f);
}

TEST(ViewerModel, PresetsAndBadSpecs) {
  ViewerModel m;
  std::string error;
  for (const auto& p : maskPresets()) {
    std::string spec = p.name;
    if (std::string(p.parameters).rfind(":SIZE", 0) == 0) spec += ":5";
    m.applySpec(spec, &error);
    EXPECT_TRUE(error.empty()) << spec << ": " << error;
    EXPECT_EQ(m.mask(), parseMaskSpec(spec));
  }
  const Mask before = m.mask();
  EXPECT_FALSE(m.applySpec("gaussian:4", &error));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(m.mask(), before);
}

TEST(ViewerModel, SeparabilityFollowsTheMask) {
  ViewerModel m;
  std::string error;
  m.applySpec("gaussian:7", &error);
  EXPECT_TRUE(m.separable());
  m.applySpec("box:5", &error);
  EXPECT_TRUE(m.separable());
  m.setCell(0, 0, 5.0f);
  EXPECT_FALSE(m.separable());
  m.applySpec("motion45:7", &error);
  EXPECT_FALSE(m.separable());
}

TEST(ViewerModel, ResetGivesTheIdentityOfTheSameSize) {
  ViewerModel m;
  m.resize(3, 5);
  m.resetMask();
  EXPECT_EQ(m.mask().width, 3);
  EXPECT_EQ(m.mask().height, 5);
  EXPECT_EQ(m.mask().at(1, 2), 1.0f);
  EXPECT_EQ(m.mask().sum(), 1.0f);
}

TEST(ViewerModel, InvalidMaskPublishesNoSnapshot) {
  ViewerModel m;
  m.setNormalize(Normalize::None);  // with auto, the divisor is not used
  EXPECT_TRUE(m.setDivisor(0.0f));
  EXPECT_FALSE(m.maskError().empty());
  EXPECT_EQ(m.snapshot(), nullptr);
  m.setDivisor(1.0f);
  EXPECT_NE(m.snapshot(), nullptr);
}

TEST(ViewerModel, NextVariantCyclesThroughUsableOnes) {
  ViewerModel m;
  ASSERT_TRUE(m.applySpec("gaussian:5", nullptr));  // rank 1: every variant can run it
  const auto& reg = variantRegistry();
  // `user` without a kernel file is not usable: the cycle passes it by.
  const auto usable = std::count_if(reg.begin(), reg.end(), [](const VariantInfo& v) { return variantAvailable(v); });
  ASSERT_GE(usable, 2);
  std::vector<VariantId> seen{m.variant()};
  for (long i = 0; i + 1 < usable; ++i) {
    ASSERT_TRUE(m.nextVariant());
    seen.push_back(m.variant());
  }
  m.nextVariant();
  EXPECT_EQ(m.variant(), seen.front()) << "wraps around";
  // A variant the frame side refused is skipped, until the mask size changes.
  const VariantId refused = seen[1];
  m.noteVariantFailure(refused, "needs too much local memory");
  EXPECT_EQ(m.variantUnusableReason(refused), "needs too much local memory");
  m.nextVariant();
  EXPECT_NE(m.variant(), refused);
  m.resize(3, 3);
  EXPECT_TRUE(m.variantUnusableReason(refused).empty());
}

// separable is greyed, with the reason, for a mask that is not rank 1, before
// anyone picks it, and usable again as soon as the mask is.
TEST(ViewerModel, SeparableIsGreyedForAMaskThatIsNotRankOneAndBackWhenItIs) {
  ViewerModel m;
  ASSERT_TRUE(m.applySpec("sharpen", nullptr));
  EXPECT_NE(m.variantUnusableReason(VariantId::Separable).find("separable (rank-1)"), std::string::npos);
  m.setVariant(VariantId::Local);
  m.nextVariant();
  for (int i = 0; i < 20; ++i, m.nextVariant()) EXPECT_NE(m.variant(), VariantId::Separable);
  ASSERT_TRUE(m.applySpec("box:3", nullptr));
  EXPECT_EQ(m.variantUnusableReason(VariantId::Separable), "");
  // A refusal the frame side reported for the old mask does not outlive it.
  m.noteVariantFailure(VariantId::Separable, "the engine refused it for the mask of that moment");
  EXPECT_NE(m.variantUnusableReason(VariantId::Separable), "");
  m.setCell(0, 0, 2.0f);  // not rank 1: greyed by the rank rule
  EXPECT_NE(m.variantUnusableReason(VariantId::Separable).find("rank-1"), std::string::npos);
  m.setCell(0, 0, 1.0f);  // box:3 again: usable
  EXPECT_EQ(m.variantUnusableReason(VariantId::Separable), "");
}

// A choice the frame side refuses leaves the model asking for what runs, so
// every widget shows it; the refused snapshot is not sent again.
TEST(ViewerModel, ARefusedVariantGivesWayToTheOneThatRuns) {
  ViewerModel m;
  m.setVariant(VariantId::Local);
  m.setVariant(VariantId::Baked);
  const auto version = m.version();
  m.noteVariantFailure(VariantId::Baked, "needs too much local memory");
  EXPECT_EQ(m.variant(), VariantId::Local);
  // A new version: a mask edit sent with the refused set goes again with the variant that runs.
  EXPECT_EQ(m.version(), version + 1);
  EXPECT_EQ(m.snapshot()->filter.variant, VariantId::Local);
  EXPECT_EQ(m.variantUnusableReason(VariantId::Baked), "needs too much local memory");
  // A failure of a variant no longer asked for changes nothing else.
  m.noteVariantFailure(VariantId::Naive, "build failed");
  EXPECT_EQ(m.variant(), VariantId::Local);
}

// The edit lands at once: a variant the new mask rules out gives way to auto, and the model says so.
TEST(ViewerModel, AMaskEditThatRulesOutTheVariantSwitchesToAutoAndSaysSo) {
  ViewerModel m;
  std::string error;
  ASSERT_TRUE(m.applySpec("box:5", &error)) << error;
  ASSERT_TRUE(m.setVariant(VariantId::Separable));
  const auto notices = m.notices();
  ASSERT_TRUE(m.applySpec("3x3:1,2,3,4,5,6,7,8,10", &error)) << error;
  EXPECT_EQ(m.variant(), VariantId::Auto);
  EXPECT_EQ(m.snapshot()->filter.variant, VariantId::Auto);
  EXPECT_EQ(m.notices(), notices + 1);
  EXPECT_NE(m.notice().find("separable"), std::string::npos) << m.notice();
  EXPECT_NE(m.notice().find("auto runs it instead"), std::string::npos) << m.notice();
  // A mask the variant can run changes nothing of the kind.
  ASSERT_TRUE(m.setVariant(VariantId::Naive));
  ASSERT_TRUE(m.applySpec("gaussian:5", &error)) << error;
  EXPECT_EQ(m.variant(), VariantId::Naive);
  EXPECT_EQ(m.notices(), notices + 1);
}

TEST(ViewerModel, TheWindowsStartOnAutoAsTheCommandLineDoes) {
  EXPECT_EQ(ViewerModel().variant(), VariantId::Auto);
}

TEST(ViewerModel, SnapshotIsImmutableAndCachedPerVersion) {
  ViewerModel m;
  auto a = m.snapshot();
  EXPECT_EQ(a, m.snapshot());
  m.setBorder(BorderMode::Mirror);
  auto b = m.snapshot();
  EXPECT_GT(b->version, a->version);
  EXPECT_EQ(a->filter.border, BorderMode::Clamp);
  EXPECT_EQ(b->filter.border, BorderMode::Mirror);
  m.setFormat(PixelFormat::GRAY8);
  m.setDevice(0);
  m.setWorkgroup({8, 4});
  auto c = m.snapshot();
  EXPECT_EQ(c->format, PixelFormat::GRAY8);
  EXPECT_EQ(c->deviceIndex, 0);
  EXPECT_EQ(c->filter.workgroup.x, 8);
  EXPECT_EQ(c->filter.workgroup.y, 4);
}

TEST(SnapshotSlot, FrameSideSeesOnlyTheNewest) {
  ViewerModel m;
  SnapshotSlot slot;
  EXPECT_EQ(slot.takeIfNewer(0), nullptr);
  slot.publish(m.snapshot());
  auto first = slot.takeIfNewer(0);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(slot.takeIfNewer(first->version), nullptr) << "nothing new since";
  m.setBias(1.0f);
  const auto older = m.snapshot();
  m.setBias(2.0f);
  slot.publish(m.snapshot());
  slot.publish(older);  // a late publisher must not roll the frame side back
  auto got = slot.takeIfNewer(first->version);
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->filter.mask.bias, 2.0f);
}

TEST(SnapshotSlot, PublishFromOneThreadTakeFromAnother) {
  ViewerModel m;
  SnapshotSlot slot;
  std::vector<std::shared_ptr<const ParamsSnapshot>> published;
  for (int i = 1; i <= 200; ++i) {
    m.setBias(static_cast<float>(i));
    published.push_back(m.snapshot());
  }
  std::thread ui([&] {
    for (auto& s : published) slot.publish(s);
  });
  std::uint64_t seen = 0;
  while (seen < published.back()->version) {
    if (auto s = slot.takeIfNewer(seen)) {
      EXPECT_GT(s->version, seen);
      EXPECT_EQ(s->filter.mask.bias, static_cast<float>(s->version - published.front()->version + 1));
      seen = s->version;
    }
  }
  ui.join();
}

// UI edits go through the same validation as specs and files: an edit whose
// arithmetic would leave float range (or a zero divisor under auto) is held
// back with its sentence, and the last valid mask keeps filtering.
TEST(ViewerModel, EditsThatWouldComputeNonFiniteResultsAreHeldBackWithTheirSentence) {
  ViewerModel m;
  const auto before = m.snapshot();
  ASSERT_NE(before, nullptr);
  m.setCell(0, 0, 3e38f);
  EXPECT_NE(m.maskError().find("too large"), std::string::npos) << m.maskError();
  EXPECT_EQ(m.snapshot(), nullptr) << "no snapshot of a mask that would overflow";
  m.setCell(0, 0, 0.0f);
  EXPECT_TRUE(m.maskError().empty()) << m.maskError();
  m.setNormalize(Normalize::Auto);
  m.setDivisor(0.0f);
  EXPECT_NE(m.maskError().find("divisor"), std::string::npos) << m.maskError();
  EXPECT_EQ(m.snapshot(), nullptr);
  m.setDivisor(1e-39f);
  m.setNormalize(Normalize::None);
  EXPECT_NE(m.maskError().find("scale"), std::string::npos) << m.maskError();
}

// Every program answers an error with the same number (exitCodeFor, the one
// table of exit codes that `liveconv` and both windows return).
TEST(ExitCodes, EachErrorClassHasItsNumber) {
  EXPECT_EQ(media::exitCodeFor(NoDeviceError("none")), 3);
  EXPECT_EQ(media::exitCodeFor(BuildError("no", "log")), 4);
  EXPECT_EQ(media::exitCodeFor(UnsupportedError("no")), 5);
  EXPECT_EQ(media::exitCodeFor(InvalidArgument("bad")), 2);
  EXPECT_EQ(media::exitCodeFor(media::EncoderChoiceError("no such encoder")), 2);
  EXPECT_EQ(media::exitCodeFor(media::InputError("cannot open")), 7);
  EXPECT_EQ(media::exitCodeFor(media::SourceUnavailable("busy")), 7);
  EXPECT_EQ(media::exitCodeFor(media::OutputError("disk full")), 8);
  EXPECT_EQ(media::exitCodeFor(Error("other")), 1);
  EXPECT_EQ(media::exitCodeFor(std::runtime_error("other")), 1);
  EXPECT_EQ(int(media::kExitNoDisplay), 9) << "after the codes 0-8 that every program shares";
  EXPECT_EQ(int(media::kExitInterrupted), 130);
}
