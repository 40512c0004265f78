// ParallelCopy: a frame copied on several threads is the frame, byte for
// byte, whatever the split (helpers, sizes that are not page or row
// multiples, padded rows on either side), and nothing outside it is written.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "liveconv/parallel_copy.hpp"

namespace liveconv {
namespace {

std::vector<std::uint8_t> noise(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> v(n);
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const std::uint32_t r = rng();
    std::memcpy(&v[i], &r, 4);
  }
  for (; i < n; ++i) v[i] = static_cast<std::uint8_t>(rng());
  return v;
}

TEST(ParallelCopy, ABlockArrivesWholeWhateverTheSplit) {
  for (int helpers : {0, 1, 3, 7}) {
    ParallelCopy copier(helpers);
    for (std::size_t bytes : {std::size_t(1), std::size_t(4095), ParallelCopy::kSplitBytes - 1,
                              ParallelCopy::kSplitBytes, ParallelCopy::kSplitBytes * 3 + 4097,
                              std::size_t(3840) * 2160 * 3}) {
      const auto src = noise(bytes, static_cast<unsigned>(bytes));
      std::vector<std::uint8_t> dst(bytes + 64, 0xA5);
      copier.copy(dst.data() + 32, src.data(), bytes);
      ASSERT_TRUE(std::equal(src.begin(), src.end(), dst.begin() + 32)) << helpers << " helpers, " << bytes;
      for (int i = 0; i < 32; ++i) {
        ASSERT_EQ(dst[i], 0xA5) << "before the block";
        ASSERT_EQ(dst[bytes + 32 + i], 0xA5) << "after the block";
      }
    }
  }
}

TEST(ParallelCopy, PaddedRowsKeepTheirPadding) {
  struct Shape {
    std::size_t rowBytes, rows, srcStride, dstStride;
  };
  for (int helpers : {0, 3}) {
    ParallelCopy copier(helpers);
    for (const Shape& s : {Shape{3840 * 4, 2160, 3840 * 4, 3840 * 4 + 512}, Shape{1921 * 4, 1081, 1924 * 4, 1921 * 4},
                           Shape{7, 3, 9, 16}, Shape{4096, 2049, 4096, 4096}}) {
      const auto src = noise(s.srcStride * s.rows, static_cast<unsigned>(s.rows));
      std::vector<std::uint8_t> dst(s.dstStride * s.rows, 0x5A);
      copier.copyRows(dst.data(), s.dstStride, src.data(), s.srcStride, s.rowBytes, s.rows);
      for (std::size_t y = 0; y < s.rows; ++y) {
        ASSERT_TRUE(std::equal(src.begin() + y * s.srcStride, src.begin() + y * s.srcStride + s.rowBytes,
                               dst.begin() + y * s.dstStride))
            << "row " << y << " of " << s.rows << ", " << helpers << " helpers";
        for (std::size_t x = s.rowBytes; x < s.dstStride; ++x) ASSERT_EQ(dst[y * s.dstStride + x], 0x5A) << "padding";
      }
    }
  }
}

TEST(ParallelCopy, ManyCopiesInARowEachComplete) {
  ParallelCopy copier(3);
  const std::size_t bytes = ParallelCopy::kSplitBytes * 2 + 123;
  std::vector<std::uint8_t> dst(bytes);
  for (unsigned round = 0; round < 50; ++round) {
    const auto src = noise(bytes, round);
    copier.copy(dst.data(), src.data(), bytes);
    ASSERT_EQ(dst, src) << "round " << round;  // returned before a helper finished its share: fails here
  }
}

}  // namespace
}  // namespace liveconv
