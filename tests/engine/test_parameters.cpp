// The parameter table (liveconv/parameters.hpp): the defaults every tool
// starts from, each row's words and sentences, and that a value written back
// as its flag (or settings) spells it reads back unchanged.
#include <gtest/gtest.h>

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
}

TEST(Parameters, FlagsAndSettingsKeysAreOneEachAndHelpNamesEveryFlag) {
  std::set<std::string> flags, keys;
  std::vector<ParamId> ids;
  for (const ParamDescription& d : paramDescriptions()) {
    EXPECT_TRUE(flags.insert(d.flag).second) << d.flag;
    EXPECT_TRUE(keys.insert(d.settingsKey).second) << d.settingsKey;
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
  ParamValues back = defaultParams();
  for (const ParamDescription& d : paramDescriptions()) setParam(back, d.id, paramText(v, d.id));
  EXPECT_EQ(back.filter, v.filter);
  EXPECT_EQ(back.format, PixelFormat::GRAY8);
  EXPECT_EQ(back.device, "cpu");
  EXPECT_EQ(back.filter.mask.divisor, 20);
  EXPECT_EQ(back.filter.workgroup, (WorkgroupShape{32, 8}));
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
  EXPECT_NE(sentence(ParamId::Mask, "box:4").find("odd"), std::string::npos);
  EXPECT_EQ(v.filter, before.filter) << "a refused value changes nothing";
}

}  // namespace
}  // namespace liveconv
