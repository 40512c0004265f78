// The parameter table (liveconv/parameters.hpp): the defaults every tool
// starts from, each row's type, words, range and sentences, and that a value
// written back as its flag (or settings) spells it reads back unchanged.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "liveconv/errors.hpp"
#include "liveconv/mask.hpp"
#include "liveconv/parameters.hpp"
#include "liveconv/variants.hpp"

namespace liveconv {
namespace {

TEST(Parameters, DefaultsAreThoseEveryToolStartsWith) {
  const ParamValues d = defaultParams();
  EXPECT_EQ(d.filter.mask, parseMaskSpec("motion45:7"));
  EXPECT_EQ(d.filter.variant, VariantId::Auto);
  EXPECT_EQ(d.filter.border, BorderMode::Clamp);
  EXPECT_EQ(d.filter.alpha, AlphaMode::PassThrough);
  EXPECT_EQ(d.filter.workgroup, (WorkgroupShape{0, 0}));
  EXPECT_EQ(d.format, PixelFormat::RGBA8);
  EXPECT_EQ(d.device, "");
  EXPECT_EQ(d.openTimeoutSeconds, 20);
}

TEST(Parameters, FlagsAndSettingsKeysAreOneEachAndHelpNamesEveryFlag) {
  std::set<std::string> flags, keys;
  std::vector<ParamId> ids;
  for (const ParamDescription& d : paramDescriptions()) {
    EXPECT_TRUE(flags.insert(d.flag).second) << d.flag;
    if (*d.settingsKey) {
      EXPECT_TRUE(keys.insert(d.settingsKey).second) << d.settingsKey;
    }
    EXPECT_EQ(findParamByFlag(d.flag), &d);
    ids.push_back(d.id);
  }
  EXPECT_EQ(findParamByFlag("--size"), nullptr);
  const std::string help = paramHelp(ids);
  for (const std::string& flag : flags) EXPECT_NE(help.find("  " + flag + " "), std::string::npos) << help;
  EXPECT_NE(help.find("--border clamp|mirror|wrap|zero"), std::string::npos) << help;
  EXPECT_NE(help.find("(default motion45:7)"), std::string::npos) << help;
}

// Every word a choice offers is taken, and written back the same.
TEST(Parameters, EveryChoiceIsTakenAndSpelledBack) {
  for (const ParamDescription& d : paramDescriptions())
    for (const std::string& word : d.choices) {
      ParamValues v = defaultParams();
      ASSERT_NO_THROW(setParam(v, d.id, word)) << d.flag << " " << word;
      EXPECT_EQ(paramText(v, d.id), word) << d.flag;
    }
}

// OpenCV's name for the mirror border (the edge pixel repeated, dcba|abcd) is
// taken as mirror, as docs/cli.md says, and spelled back as mirror.
TEST(Parameters, ReflectIsTheMirrorBorder) {
  ParamValues v = defaultParams();
  ASSERT_NO_THROW(setParam(v, ParamId::Border, "reflect"));
  EXPECT_EQ(paramText(v, ParamId::Border), "mirror");
}

TEST(Parameters, AValueReadsBackUnchangedFromItsText) {
  ParamValues v = defaultParams();
  setParam(v, ParamId::Mask, "3x3:1,2,1,2,4,2,1,2,1;divisor=20;bias=3");
  setParam(v, ParamId::Variant, "rows_baked");
  setParam(v, ParamId::Border, "wrap");
  setParam(v, ParamId::Alpha, "filter");
  setParam(v, ParamId::Workgroup, "32x8");
  setParam(v, ParamId::Format, "gray");
  setParam(v, ParamId::Device, "cpu");
  setParam(v, ParamId::OpenTimeout, "3");
  ParamValues back = defaultParams();
  for (const ParamDescription& d : paramDescriptions()) setParam(back, d.id, paramText(v, d.id));
  EXPECT_EQ(back.filter, v.filter);
  EXPECT_EQ(back.format, PixelFormat::GRAY8);
  EXPECT_EQ(back.device, "cpu");
  EXPECT_EQ(back.filter.mask.divisor, 20);
  EXPECT_EQ(back.filter.workgroup, (WorkgroupShape{32, 8}));
  EXPECT_EQ(back.openTimeoutSeconds, 3);
}

TEST(Parameters, ABadValueIsOneSentenceNamingWhatIsTaken) {
  ParamValues v = defaultParams();
  const ParamValues before = v;
  auto sentence = [&](ParamId id, const std::string& text) {
    try {
      setParam(v, id, text);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("(taken)");
  };
  EXPECT_EQ(sentence(ParamId::Border, "edge"), "Unknown border mode 'edge'; use clamp, mirror, wrap or zero.");
  EXPECT_EQ(sentence(ParamId::Alpha, "keep"), "Unknown alpha mode 'keep'; use copy or filter.");
  EXPECT_EQ(sentence(ParamId::Format, "yuv"), "Unknown format 'yuv'; use rgba or gray.");
  EXPECT_EQ(sentence(ParamId::Variant, "fast").rfind("Unknown variant 'fast'; the variants are naive, ", 0), 0u);
  for (const char* wg : {"16", "0x8", "-1x4", "16x16x1", "99999x1"})
    EXPECT_EQ(sentence(ParamId::Workgroup, wg).rfind("Bad workgroup", 0), 0u) << wg;
  EXPECT_EQ(sentence(ParamId::Workgroup, "16385x1"),
            "Bad workgroup '16385x1'; --workgroup takes WxH, each side from 1 to 16384 (0x0: the variant's own).");
  EXPECT_EQ(sentence(ParamId::OpenTimeout, "soon"), "--open-timeout needs a whole number from 0 to 86400, not 'soon'.");
  for (const char* seconds : {"", " 5", "5s", "2.5", "-1", "86401", "99999999999999999999"})
    EXPECT_EQ(sentence(ParamId::OpenTimeout, seconds).rfind("--open-timeout needs a whole number", 0), 0u) << seconds;
  EXPECT_NE(sentence(ParamId::Mask, "box:4").find("odd"), std::string::npos);
  EXPECT_EQ(v.filter, before.filter) << "a refused value changes nothing";
}

// The ranges the docs and --help promise (docs/cli.md, docs/windows.md):
// the mask's sides are the engine's kMaxMaskSide, which every variant and
// the mask's own reader take.
TEST(Parameters, RangesAreThoseTheDocsPromise) {
  EXPECT_EQ(paramRange(paramDescription(ParamId::Mask)), "1.." + std::to_string(kMaxMaskSide));
  EXPECT_EQ(paramDescription(ParamId::Mask).step, 2) << "a mask's sides stay odd";
  EXPECT_EQ(paramRange(paramDescription(ParamId::Workgroup)), "1..16384");
  EXPECT_EQ(paramRange(paramDescription(ParamId::OpenTimeout)), "0..86400");
  EXPECT_EQ(paramRange(paramDescription(ParamId::Border)), "");
  EXPECT_EQ(paramRange(paramDescription(ParamId::Device)), "");
}

std::string numberText(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// A value of a ranged row's type, `side` where the type has one number.
std::string rangedText(const ParamDescription& d, double side) {
  switch (d.type) {
    case ParamType::Size:
      return numberText(side) + "x" + numberText(d.minimum);
    case ParamType::MaskSpec:
      return "box:" + numberText(side);
    default:
      return numberText(side);
  }
}

bool isRanged(const ParamDescription& d) {
  return d.type != ParamType::Choice && d.type != ParamType::Text;
}

// Every row: a type, what the type needs, and a default that is taken and
// written back as itself.
TEST(Parameters, EveryRowHasATypeAndItsDefaultReadsBackUnchanged) {
  for (const ParamDescription& d : paramDescriptions()) {
    EXPECT_NE(d.type, ParamType::Invalid) << d.flag;
    EXPECT_NE(d.group, ParamGroup::Invalid) << d.flag;
    EXPECT_EQ(d.type == ParamType::Choice, !d.choices.empty()) << d.flag << ": choices are for a choice";
    if (isRanged(d)) {
      EXPECT_LE(d.minimum, d.maximum) << d.flag;
      EXPECT_GT(d.step, 0) << d.flag;
    }
    ParamValues v = defaultParams();
    ASSERT_NO_THROW(setParam(v, d.id, d.defaultText)) << d.flag << " " << d.defaultText;
    const std::string text = paramText(v, d.id);
    ASSERT_NO_THROW(setParam(v, d.id, text)) << d.flag << " " << text;
    EXPECT_EQ(paramText(v, d.id), text) << d.flag;
    EXPECT_EQ(paramRefusal(d.id, d.defaultText), "") << d.flag;
  }
}

// Every ranged row takes its ends, and refuses a step past either with one
// sentence that names the flag and the range. A mask's sentence is its
// reader's, which mask files and a script's mask lines share: it names the
// range and "Mask".
TEST(Parameters, EveryRangedRowTakesItsEndsAndRefusesAStepPastThem) {
  for (const ParamDescription& d : paramDescriptions()) {
    if (!isRanged(d)) continue;
    const std::string range = numberText(d.minimum) + " to " + numberText(d.maximum);
    for (const double side : {d.minimum, d.maximum})
      EXPECT_EQ(paramRefusal(d.id, rangedText(d, side)), "") << d.flag << " " << rangedText(d, side);
    for (const double side : {d.minimum - d.step, d.maximum + d.step}) {
      const std::string text = rangedText(d, side);
      const std::string why = paramRefusal(d.id, text);
      EXPECT_NE(why.find(range), std::string::npos) << d.flag << " " << text << ": " << why;
      if (d.type == ParamType::MaskSpec)
        EXPECT_EQ(why.rfind("Mask", 0), 0u) << text << ": " << why;
      else
        EXPECT_NE(why.find(d.flag), std::string::npos) << text << ": " << why;
      EXPECT_TRUE(!why.empty() && why.back() == '.' && why.find(". ") == std::string::npos) << "one sentence: " << why;
    }
  }
}

// --help names each ranged row's range ("1..63") and each choice's words.
TEST(Parameters, HelpNamesEachRowsRangeOrChoices) {
  for (const ParamDescription& d : paramDescriptions()) {
    const std::string help = paramHelp({d.id});
    if (isRanged(d)) {
      EXPECT_NE(help.find(" " + paramRange(d)), std::string::npos) << help;
    }
    for (const std::string& word : d.choices.size() <= 4 ? d.choices : std::vector<std::string>{})
      EXPECT_NE(help.find(word), std::string::npos) << help;
  }
  EXPECT_NE(paramHelp({ParamId::Mask}).find("odd sides 1..63 (default motion45:7)"), std::string::npos);
  EXPECT_NE(paramHelp({ParamId::OpenTimeout}).find("0..86400 (default 20)"), std::string::npos);
}

}  // namespace
}  // namespace liveconv
