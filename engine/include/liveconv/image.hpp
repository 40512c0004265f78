// Host images: the pixel formats and border modes the engine understands, a
// non-owning view and an owning image.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <new>
#include <utility>
#include <vector>

namespace liveconv {

enum class PixelFormat {
  Invalid = 0,
  RGBA8,   // interleaved R, G, B, A bytes
  GRAY8,   // one byte per pixel
  RGBA16,  // interleaved R, G, B, A 16-bit values in the host's byte order, 0..65535
  GRAY16,  // one 16-bit value per pixel, 0..65535
};

int bytesPerPixel(PixelFormat format);
int channelCount(PixelFormat format);    // 4 for RGBA, 1 for gray, 0 for Invalid
int bytesPerSample(PixelFormat format);  // 1 or 2 (0 for Invalid)
int sampleBits(PixelFormat format);      // 8 or 16 (0 for Invalid)
// The largest value a sample holds: 255 or 65535. Results are clamped to 0..it.
int maxSampleValue(PixelFormat format);
// The same channels at the other depth: RGBA8 <-> RGBA16, GRAY8 <-> GRAY16.
PixelFormat withSampleBits(PixelFormat format, int bits);
const char* toString(PixelFormat format);
// "rgba" / "gray" (8 bits), "rgba16" / "gray16"; Invalid if unknown
PixelFormat parsePixelFormat(std::string_view text);
// Every format the engine filters, in the order lists show them.
const std::vector<PixelFormat>& allPixelFormats();

// How pixels outside the image are read. Numbering matches BORDER_* in kernels/common.cl.
enum class BorderMode {
  Invalid = 0,
  Clamp,   // replicate the edge pixel:         aaa|abcd|ddd
  Mirror,  // reflect, edge pixel repeated:     cba|abcd|dcb
  Wrap,    // periodic:                         bcd|abcd|abc
  Zero,    // constant zero (all channels):     000|abcd|000
};

const char* toString(BorderMode mode);
BorderMode parseBorderMode(std::string_view text);  // Invalid if unknown
const std::vector<BorderMode>& allBorderModes();

// Maps an out-of-range coordinate into [0, n) for the given mode; returns -1
// for Zero when the coordinate lies outside. Works for any offset, also when
// the image is smaller than the mask.
int borderIndex(int i, int n, BorderMode mode);

enum class AlphaMode {
  Invalid = 0,
  PassThrough,  // RGBA8: output alpha = input alpha of the centre pixel
  Filter,       // RGBA8: alpha is filtered like the colour channels
};

struct ImageView {
  std::uint8_t* data = nullptr;
  int width = 0;
  int height = 0;
  std::size_t strideBytes = 0;  // bytes from one row to the next
  PixelFormat format = PixelFormat::Invalid;

  std::uint8_t* row(int y) const { return data + static_cast<std::size_t>(y) * strideBytes; }
  std::size_t rowBytes() const { return static_cast<std::size_t>(width) * bytesPerPixel(format); }
};

// Pixel storage aligned to a page: a device that works in host memory (a CPU
// device) can then use the pixels where they are (CL_MEM_USE_HOST_PTR asks
// for the device's base-address alignment, up to a page on some drivers).
// Page-aligned pixel memory. Frame-sized blocks (256 KiB and more) that are
// freed wait in a small cache for the next frame of that size: a stream
// allocates a frame or two per frame on several threads, and fresh pages cost
// a page fault each (at 1280x720 RGBA, 900 a frame).
void* allocatePixelMemory(std::size_t bytes);
void freePixelMemory(void* p, std::size_t bytes) noexcept;

// Page-locking of pixel blocks by an API the engine does not know: CUDA's
// cuMemHostRegister, so that NVDEC's frames come back into them at the bus's
// speed rather than through the driver's bounce buffers. A block stays locked
// while it waits in the cache for its next frame; the engine unlocks it just
// before the memory is freed, and unlocks every block when the locker goes.
class PixelMemoryLocker {
 public:
  virtual ~PixelMemoryLocker() = default;
  virtual bool lock(void* p, std::size_t bytes) = 0;  // false: the block stays pageable
  virtual void unlock(void* p, std::size_t bytes) = 0;
};
// Makes `locker` the one lockPixelMemory() uses; false (and nothing changes)
// while another is installed.
bool installPixelMemoryLocker(PixelMemoryLocker* locker);
// Unlocks every block `locker` locked and uninstalls it (nothing where it is
// not the one installed). Call before what it locks with goes away.
void removePixelMemoryLocker(PixelMemoryLocker* locker);
// Locks the block allocatePixelMemory() returned at `p` (`bytes`, its size)
// with `locker`, once: true where it is locked (now or before), false where
// `locker` is not the one installed or refuses.
bool lockPixelMemory(PixelMemoryLocker* locker, void* p, std::size_t bytes);
// The blocks locked now (for tests and the verbose log).
std::size_t lockedPixelBlocks();

template <typename T>
struct PageAlignedAllocator {
  using value_type = T;
  static constexpr std::size_t kAlignment = 4096;
  PageAlignedAllocator() = default;
  template <typename U>
  PageAlignedAllocator(const PageAlignedAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocatePixelMemory(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { freePixelMemory(p, n * sizeof(T)); }
  // Pixels are left as they are (default-initialised): every image is written
  // whole before it is read, and zeroing a frame cost as much as copying it.
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <typename U>
  bool operator==(const PageAlignedAllocator<U>&) const { return true; }
  template <typename U>
  bool operator!=(const PageAlignedAllocator<U>&) const { return false; }
};

// A tightly packed image that owns its pixels (page-aligned).
class Image {
 public:
  Image() = default;
  Image(int width, int height, PixelFormat format);

  ImageView view();
  ImageView view() const;  // the view is writable; constness is the caller's promise
  int width() const { return width_; }
  int height() const { return height_; }
  PixelFormat format() const { return format_; }
  std::uint8_t* data() { return pixels_.data(); }
  const std::uint8_t* data() const { return pixels_.data(); }
  std::size_t sizeBytes() const { return pixels_.size(); }

 private:
  int width_ = 0;
  int height_ = 0;
  PixelFormat format_ = PixelFormat::Invalid;
  std::vector<std::uint8_t, PageAlignedAllocator<std::uint8_t>> pixels_;
};

// A picture turned by quarter turns clockwise (0 to 3), as a player turns one
// whose display matrix says it is stored on its side: the grid point a turned
// width x height picture shows at (x, y) comes from (source.x, source.y).
// One and three turns swap the sides.
struct GridPoint {
  int x = 0, y = 0;
};
GridPoint turnedSource(int x, int y, int width, int height, int quarterTurns);
Image turnedClockwise(const ImageView& source, int quarterTurns);
// The same into `into`, whose pixels are reused where it has the turned size
// and format already (a sink turning every frame allocates once).
void turnClockwise(const ImageView& source, int quarterTurns, Image* into);

// A frame of pseudo-random bytes, the same for the same seed: what the bench,
// auto's race and the tests filter (no mask's result depends on its content).
Image randomImage(int w, int h, PixelFormat f, unsigned seed);

}  // namespace liveconv
