#include "liveconv/image.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cstring>
#include <mutex>
#include <new>
#include <random>
#include <unordered_map>
#include <vector>

#include "ascii_text.hpp"

namespace liveconv {

int channelCount(PixelFormat format) {
  switch (format) {
    case PixelFormat::RGBA8:
    case PixelFormat::RGBA16:
      return 4;
    case PixelFormat::GRAY8:
    case PixelFormat::GRAY16:
      return 1;
    case PixelFormat::Invalid:
      break;
  }
  return 0;
}

int bytesPerSample(PixelFormat format) {
  switch (format) {
    case PixelFormat::RGBA8:
    case PixelFormat::GRAY8: return 1;
    case PixelFormat::RGBA16:
    case PixelFormat::GRAY16:
      return 2;
    case PixelFormat::Invalid: break;
  }
  return 0;
}

int bytesPerPixel(PixelFormat format) {
  return channelCount(format) * bytesPerSample(format);
}
int sampleBits(PixelFormat format) {
  return 8 * bytesPerSample(format);
}
int maxSampleValue(PixelFormat format) {
  return bytesPerSample(format) == 2 ? 65535 : bytesPerSample(format) ? 255 : 0;
}

PixelFormat withSampleBits(PixelFormat format, int bits) {
  const int channels = channelCount(format);
  if (channels == 0 || (bits != 8 && bits != 16)) return PixelFormat::Invalid;
  if (channels == 4) return bits == 8 ? PixelFormat::RGBA8 : PixelFormat::RGBA16;
  return bits == 8 ? PixelFormat::GRAY8 : PixelFormat::GRAY16;
}

const char* toString(PixelFormat format) {
  switch (format) {
    case PixelFormat::RGBA8: return "rgba";
    case PixelFormat::GRAY8: return "gray";
    case PixelFormat::RGBA16:
      return "rgba16";
    case PixelFormat::GRAY16:
      return "gray16";
    case PixelFormat::Invalid: break;
  }
  return "invalid";
}

PixelFormat parsePixelFormat(std::string_view text) {
  const std::string t = detail::asciiLower(text);
  if (t == "rgba" || t == "rgba8") return PixelFormat::RGBA8;
  if (t == "gray" || t == "gray8" || t == "grey") return PixelFormat::GRAY8;
  if (t == "rgba16") return PixelFormat::RGBA16;
  if (t == "gray16" || t == "grey16") return PixelFormat::GRAY16;
  return PixelFormat::Invalid;
}

const std::vector<PixelFormat>& allPixelFormats() {
  static const std::vector<PixelFormat> formats{PixelFormat::RGBA8, PixelFormat::GRAY8, PixelFormat::RGBA16,
                                                PixelFormat::GRAY16};
  return formats;
}

const char* toString(BorderMode mode) {
  switch (mode) {
    case BorderMode::Clamp: return "clamp";
    case BorderMode::Mirror: return "mirror";
    case BorderMode::Wrap: return "wrap";
    case BorderMode::Zero: return "zero";
    case BorderMode::Invalid: break;
  }
  return "invalid";
}

BorderMode parseBorderMode(std::string_view text) {
  const std::string t = detail::asciiLower(text);
  if (t == "clamp" || t == "replicate") return BorderMode::Clamp;
  if (t == "mirror" || t == "reflect") return BorderMode::Mirror;
  if (t == "wrap" || t == "repeat") return BorderMode::Wrap;
  if (t == "zero" || t == "constant") return BorderMode::Zero;
  return BorderMode::Invalid;
}

const std::vector<BorderMode>& allBorderModes() {
  static const std::vector<BorderMode> modes = {BorderMode::Clamp, BorderMode::Mirror, BorderMode::Wrap,
                                                BorderMode::Zero};
  return modes;
}

int borderIndex(int i, int n, BorderMode mode) {
  switch (mode) {
    case BorderMode::Clamp: return std::clamp(i, 0, n - 1);
    case BorderMode::Mirror: {
      const int period = 2 * n;
      i %= period;
      if (i < 0) i += period;
      return i < n ? i : period - 1 - i;
    }
    case BorderMode::Wrap:
      i %= n;
      return i < 0 ? i + n : i;
    case BorderMode::Zero: return (i < 0 || i >= n) ? -1 : i;
    case BorderMode::Invalid: break;
  }
  return -1;
}

namespace {

constexpr std::size_t kPageAlignment = PageAlignedAllocator<std::uint8_t>::kAlignment;
struct Block {
  void* p = nullptr;
  std::size_t bytes = 0;
};

// Freed frame-sized blocks, newest last, for the next allocation of the same
// size: at most kBlocks of them and kBytes in all (a few 4K frames).
class PixelCache {
 public:
  static constexpr std::size_t kSmallest = 256 * 1024;
  static constexpr std::size_t kBlocks = 12;
  static constexpr std::size_t kBytes = std::size_t(256) << 20;
  void* take(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t i = blocks_.size(); i-- > 0;)
      if (blocks_[i].bytes == bytes) {
        void* p = blocks_[i].p;
        held_ -= bytes;
        blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
        return p;
      }
    return nullptr;
  }
  PixelCache() { blocks_.reserve(kBlocks + 1); }
  // Keeps `p`; fills `evicted` with the blocks that no longer fit (the oldest
  // first) for the caller to free, and returns their number. Allocates nothing.
  std::size_t keep(void* p, std::size_t bytes, std::array<Block, kBlocks + 1>* evicted) {
    std::lock_guard<std::mutex> lock(mutex_);
    blocks_.push_back({p, bytes});  // within the capacity reserved
    held_ += bytes;
    std::size_t n = 0;
    while (blocks_.size() > kBlocks || held_ > kBytes) {
      (*evicted)[n++] = blocks_.front();
      held_ -= blocks_.front().bytes;
      blocks_.erase(blocks_.begin());
    }
    return n;
  }

 private:
  std::mutex mutex_;
  std::vector<Block> blocks_;
  std::size_t held_ = 0;
};

// Never destroyed: an image freed during the program's exit still finds it.
PixelCache& pixelCache() {
  static PixelCache* cache = new PixelCache;
  return *cache;
}

// The locked blocks and the locker that locked them. A free checks here
// first (one atomic load while nothing is locked).
class LockedBlocks {
 public:
  bool install(PixelMemoryLocker* locker) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (locker_ && locker_ != locker) return false;
    locker_ = locker;
    return true;
  }
  void remove(PixelMemoryLocker* locker) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!locker || locker_ != locker) return;
    for (const auto& [p, bytes] : blocks_) locker_->unlock(p, bytes);
    blocks_.clear();
    count_.store(0, std::memory_order_relaxed);
    locker_ = nullptr;
  }
  bool lock(PixelMemoryLocker* locker, void* p, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!locker || locker_ != locker) return false;
    if (blocks_.count(p)) return true;
    if (!locker_->lock(p, bytes)) return false;
    blocks_.emplace(p, bytes);
    count_.store(blocks_.size(), std::memory_order_relaxed);
    return true;
  }
  // Before `p` goes back to the system.
  void beforeFree(void* p) {
    if (count_.load(std::memory_order_relaxed) == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = blocks_.find(p);
    if (it == blocks_.end()) return;
    locker_->unlock(it->first, it->second);
    blocks_.erase(it);
    count_.store(blocks_.size(), std::memory_order_relaxed);
  }
  std::size_t count() const { return count_.load(std::memory_order_relaxed); }

 private:
  std::mutex mutex_;
  PixelMemoryLocker* locker_ = nullptr;
  std::unordered_map<void*, std::size_t> blocks_;
  std::atomic<std::size_t> count_{0};
};

LockedBlocks& lockedBlocks() {
  static LockedBlocks* blocks = new LockedBlocks;  // never destroyed, as the cache
  return *blocks;
}

void freeBlock(void* p) {
  lockedBlocks().beforeFree(p);
  ::operator delete(p, std::align_val_t{kPageAlignment});
}

}  // namespace

bool installPixelMemoryLocker(PixelMemoryLocker* locker) {
  return lockedBlocks().install(locker);
}

void removePixelMemoryLocker(PixelMemoryLocker* locker) {
  lockedBlocks().remove(locker);
}

bool lockPixelMemory(PixelMemoryLocker* locker, void* p, std::size_t bytes) {
  return lockedBlocks().lock(locker, p, bytes);
}

std::size_t lockedPixelBlocks() {
  return lockedBlocks().count();
}

void* allocatePixelMemory(std::size_t bytes) {
  if (bytes >= PixelCache::kSmallest)
    if (void* p = pixelCache().take(bytes)) return p;
  return ::operator new(bytes, std::align_val_t{kPageAlignment});
}

void freePixelMemory(void* p, std::size_t bytes) noexcept {
  if (!p) return;
  if (bytes >= PixelCache::kSmallest) {
    std::array<Block, PixelCache::kBlocks + 1> evicted;
    const std::size_t n = pixelCache().keep(p, bytes, &evicted);
    for (std::size_t i = 0; i < n; ++i) freeBlock(evicted[i].p);
    return;
  }
  freeBlock(p);
}

Image::Image(int width, int height, PixelFormat format)
    : width_(width),
      height_(height),
      format_(format),
      pixels_(static_cast<std::size_t>(width) * height * bytesPerPixel(format)) {}

ImageView Image::view() {
  return ImageView{pixels_.data(), width_, height_, static_cast<std::size_t>(width_) * bytesPerPixel(format_),
                   format_};
}

ImageView Image::view() const { return const_cast<Image*>(this)->view(); }

}  // namespace liveconv

namespace liveconv {

GridPoint turnedSource(int x, int y, int width, int height, int quarterTurns) {
  switch (((quarterTurns % 4) + 4) % 4) {
    case 1: return {y, height - 1 - x};
    case 2: return {width - 1 - x, height - 1 - y};
    case 3: return {width - 1 - y, x};
    default: return {x, y};
  }
}

Image turnedClockwise(const ImageView& source, int quarterTurns) {
  Image turned;
  turnClockwise(source, quarterTurns, &turned);
  return turned;
}

void turnClockwise(const ImageView& source, int quarterTurns, Image* into) {
  const bool sidesSwap = ((quarterTurns % 4) + 4) % 2 == 1;
  const int width = sidesSwap ? source.height : source.width, height = sidesSwap ? source.width : source.height;
  if (into->width() != width || into->height() != height || into->format() != source.format)
    *into = Image(width, height, source.format);
  const ImageView out = into->view();
  const int bpp = bytesPerPixel(source.format);
  constexpr int kBlock = 32;  // blocks that fit the cache on both sides of a transposition
  for (int by = 0; by < out.height; by += kBlock)
    for (int bx = 0; bx < out.width; bx += kBlock)
      for (int y = by; y < std::min(by + kBlock, out.height); ++y) {
        std::uint8_t* row = out.row(y);
        for (int x = bx; x < std::min(bx + kBlock, out.width); ++x) {
          const GridPoint p = turnedSource(x, y, source.width, source.height, quarterTurns);
          std::memcpy(row + static_cast<std::size_t>(x) * bpp, source.row(p.y) + static_cast<std::size_t>(p.x) * bpp, bpp);
        }
      }
}

Image randomImage(int w, int h, PixelFormat f, unsigned seed) {
  Image img(w, h, f);
  std::mt19937 rng(seed);
  if (bytesPerSample(f) == 2) {
    // Whole 16-bit values, so that both bytes of a sample vary.
    auto* samples = reinterpret_cast<std::uint16_t*>(img.data());
    for (std::size_t k = 0; k < img.sizeBytes() / 2; ++k) samples[k] = static_cast<std::uint16_t>(rng() >> 16);
    return img;
  }
  for (std::size_t k = 0; k < img.sizeBytes(); ++k) img.data()[k] = static_cast<std::uint8_t>(rng() >> 24);
  return img;
}

}  // namespace liveconv
