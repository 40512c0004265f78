// Page-locked pixel blocks (PixelMemoryLocker): a block is locked once, stays
// locked while it waits in the pixel cache, and is unlocked before its memory
// goes back to the system, or when its locker is removed; never twice, never
// by a locker that is not the one installed.
#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <vector>

#include "liveconv/image.hpp"

namespace liveconv {
namespace {

class CountingLocker final : public PixelMemoryLocker {
 public:
  bool refuse = false;
  std::map<void*, std::size_t> locked;
  int locks = 0, unlocks = 0, badUnlocks = 0;

  bool lock(void* p, std::size_t bytes) override {
    ++locks;
    if (refuse) return false;
    if (locked.count(p)) ADD_FAILURE() << "locked twice";
    locked[p] = bytes;
    return true;
  }
  void unlock(void* p, std::size_t bytes) override {
    ++unlocks;
    const auto it = locked.find(p);
    if (it == locked.end() || it->second != bytes) {
      ++badUnlocks;
      return;
    }
    locked.erase(it);
  }
};

// A block size no other test of this program allocates, so that the pixel
// cache's blocks of it are the ones these tests make.
constexpr std::size_t kBlock = 3 * 1024 * 1024 + 4096;

class PixelMemory : public ::testing::Test {
 protected:
  void TearDown() override {
    removePixelMemoryLocker(&locker);
    removePixelMemoryLocker(&other);
  }
  CountingLocker locker, other;
};

TEST_F(PixelMemory, ABlockIsLockedOnceAndStaysLockedInTheCache) {
  ASSERT_TRUE(installPixelMemoryLocker(&locker));
  void* p = allocatePixelMemory(kBlock);
  ASSERT_TRUE(lockPixelMemory(&locker, p, kBlock));
  ASSERT_TRUE(lockPixelMemory(&locker, p, kBlock));  // the second frame in the same block
  EXPECT_EQ(locker.locks, 1);
  EXPECT_EQ(lockedPixelBlocks(), 1u);
  freePixelMemory(p, kBlock);  // into the cache: still locked
  EXPECT_EQ(locker.unlocks, 0);
  void* again = allocatePixelMemory(kBlock);
  EXPECT_EQ(again, p);  // the cached block comes back, locked
  EXPECT_TRUE(lockPixelMemory(&locker, again, kBlock));
  EXPECT_EQ(locker.locks, 1);
  freePixelMemory(again, kBlock);
}

TEST_F(PixelMemory, ABlockIsUnlockedBeforeTheCacheFreesIt) {
  ASSERT_TRUE(installPixelMemoryLocker(&locker));
  void* p = allocatePixelMemory(kBlock);
  ASSERT_TRUE(lockPixelMemory(&locker, p, kBlock));
  freePixelMemory(p, kBlock);
  // More freed blocks than the cache keeps push the locked one (the oldest) out.
  std::vector<void*> many;
  for (int i = 0; i < 40; ++i) many.push_back(allocatePixelMemory(kBlock + 4096 * (i + 1)));
  for (int i = 0; i < 40; ++i) freePixelMemory(many[i], kBlock + 4096 * (i + 1));
  EXPECT_EQ(locker.unlocks, 1);
  EXPECT_EQ(locker.badUnlocks, 0);
  EXPECT_TRUE(locker.locked.empty());
  EXPECT_EQ(lockedPixelBlocks(), 0u);
}

TEST_F(PixelMemory, RemovingTheLockerUnlocksEveryBlockItLocked) {
  ASSERT_TRUE(installPixelMemoryLocker(&locker));
  void* a = allocatePixelMemory(kBlock);
  void* b = allocatePixelMemory(kBlock);
  ASSERT_TRUE(lockPixelMemory(&locker, a, kBlock));
  ASSERT_TRUE(lockPixelMemory(&locker, b, kBlock));
  EXPECT_EQ(lockedPixelBlocks(), 2u);
  removePixelMemoryLocker(&locker);
  EXPECT_EQ(locker.unlocks, 2);
  EXPECT_TRUE(locker.locked.empty());
  EXPECT_EQ(lockedPixelBlocks(), 0u);
  // Freed afterwards (frames still in flight when the decoder closed): not unlocked again.
  freePixelMemory(a, kBlock);
  freePixelMemory(b, kBlock);
  std::vector<void*> many;
  for (int i = 0; i < 40; ++i) many.push_back(allocatePixelMemory(kBlock + 4096 * (i + 1)));
  for (int i = 0; i < 40; ++i) freePixelMemory(many[i], kBlock + 4096 * (i + 1));
  EXPECT_EQ(locker.unlocks, 2);
  EXPECT_FALSE(lockPixelMemory(&locker, a, kBlock));  // no longer installed
}

TEST_F(PixelMemory, OneLockerAtATime) {
  ASSERT_TRUE(installPixelMemoryLocker(&locker));
  EXPECT_FALSE(installPixelMemoryLocker(&other));
  void* p = allocatePixelMemory(kBlock);
  EXPECT_FALSE(lockPixelMemory(&other, p, kBlock));
  EXPECT_EQ(other.locks, 0);
  removePixelMemoryLocker(&other);  // not the installed one: nothing happens
  EXPECT_TRUE(lockPixelMemory(&locker, p, kBlock));
  removePixelMemoryLocker(&locker);
  EXPECT_TRUE(installPixelMemoryLocker(&other));
  freePixelMemory(p, kBlock);
}

TEST_F(PixelMemory, ARefusedBlockStaysPageableAndIsNeverUnlocked) {
  ASSERT_TRUE(installPixelMemoryLocker(&locker));
  locker.refuse = true;
  void* p = allocatePixelMemory(kBlock);
  EXPECT_FALSE(lockPixelMemory(&locker, p, kBlock));
  EXPECT_EQ(lockedPixelBlocks(), 0u);
  removePixelMemoryLocker(&locker);
  freePixelMemory(p, kBlock);
  EXPECT_EQ(locker.unlocks, 0);
}

}  // namespace
}  // namespace liveconv
