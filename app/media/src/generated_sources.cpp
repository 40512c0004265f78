#include "liveconv/media/generated_sources.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "liveconv/errors.hpp"
#include "liveconv/media/media_errors.hpp"

namespace liveconv::media {

namespace {

constexpr int kBarWidth = 6;
const int kBar[3] = {255, 40, 90};

int barXOf(int width, std::uint64_t frameIndex) {
  return static_cast<int>((frameIndex * 4) % static_cast<std::uint64_t>(width > 0 ? width : 1));
}

void setPixel(std::uint8_t* px, int bpp, int r, int g, int b) {
  if (bpp == 1) {
    px[0] = static_cast<std::uint8_t>((r * 77 + g * 150 + b * 29) >> 8);
  } else {
    px[0] = static_cast<std::uint8_t>(r);
    px[1] = static_cast<std::uint8_t>(g);
    px[2] = static_cast<std::uint8_t>(b);
    px[3] = 255;
  }
}

// The moving bar, over whatever is at its columns.
void drawBar(Image& img, std::uint64_t frameIndex) {
  const int bpp = bytesPerPixel(img.format());
  const int barX = barXOf(img.width(), frameIndex);
  for (int y = 0; y < img.height(); ++y) {
    std::uint8_t* row = img.view().row(y);
    for (int x = barX; x < std::min(img.width(), barX + kBarWidth); ++x)
      setPixel(row + static_cast<std::size_t>(x) * bpp, bpp, kBar[0], kBar[1], kBar[2]);
  }
}

// Everything but the bar: the same for every frame.
Image testPatternBackground(int width, int height, PixelFormat format) {
  Image img(width, height, format);
  const int bpp = bytesPerPixel(format);
  for (int y = 0; y < height; ++y) {
    std::uint8_t* row = img.view().row(y);
    for (int x = 0; x < width; ++x) {
      int r = x * 255 / (width > 1 ? width - 1 : 1);
      int g = y * 255 / (height > 1 ? height - 1 : 1);
      int b = 255 - (r + g) / 2;
      // A checkerboard in the middle third: hard edges in x and y.
      if (y > height / 3 && y < 2 * height / 3 && x > width / 6 && x < width / 2 && ((x / 16 + y / 16) % 2) == 0)
        r = g = b = 235;
      // A ring on the right: curved edges for directional masks.
      const double dx = x - 0.72 * width, dy = y - 0.5 * height, d = std::sqrt(dx * dx + dy * dy);
      if (std::fabs(d - 0.22 * height) < 3.0) r = 250, g = 210, b = 40;
      // Thin diagonal lines in the top band.
      if (y < height / 6 && ((x + y) % 12) == 0) r = g = b = 20;
      setPixel(row + static_cast<size_t>(x) * bpp, bpp, r, g, b);
    }
  }
  return img;
}

}  // namespace

Image makeTestPattern(int width, int height, PixelFormat format, std::uint64_t frameIndex) {
  Image img = testPatternBackground(width, height, format);
  drawBar(img, frameIndex);  // the moving bar says frames are flowing
  return img;
}

bool parseTestPatternSpec(const std::string& spec, int* width, int* height) {
  const SourceKind& kind = sourceKindOf(spec);
  if (kind.id != SourceKindId::TestPattern) return false;
  const ParsedSource p = kind.parse(spec);
  if (!p.error.empty()) return false;
  *width = p.width;
  *height = p.height;
  return true;
}

TestPatternSource::TestPatternSource(int width, int height, PixelFormat format)
    : width_(width), height_(height), format_(format == PixelFormat::GRAY8 ? format : PixelFormat::RGBA8) {}

// Each frame is the background, drawn once per format, with the bar on it: a
// copy, so the source costs what a memory copy costs, not a drawing.
bool TestPatternSource::next(Frame& frame) {
  if (background_.format() != format_ || background_.width() != width_)
    background_ = testPatternBackground(width_, height_, format_);
  frame = Frame();
  frame.image = Image(width_, height_, format_);
  std::copy_n(background_.data(), background_.sizeBytes(), frame.image.data());
  drawBar(frame.image, static_cast<std::uint64_t>(produced_));
  frame.index = produced_;
  frame.ptsSeconds = static_cast<double>(produced_) / kFps;
  frame.hasPts = true;
  ++produced_;
  return true;
}

std::string TestPatternSource::describe() const {
  return "test pattern " + std::to_string(width_) + "x" + std::to_string(height_) + " " + toString(format_);
}

bool TestPatternSource::setFormat(PixelFormat format) {
  if (format != PixelFormat::RGBA8 && format != PixelFormat::GRAY8) return false;
  format_ = format;
  return true;
}

ParsedSource parseOrThrow(const SourceKind& kind, const std::string& text) {
  ParsedSource p = kind.parse(text);
  if (p.error.empty()) return p;
  if (p.inputError) throw InputError(p.error);
  throw InvalidArgument(p.error);
}

namespace {

using GeneratedOpener = GeneratedSource (*)(const ParsedSource& spec, PixelFormat format,
                                            const std::shared_ptr<DeviceContext>& device);

// The openers of the generated rows, by the row's id.
const std::pair<SourceKindId, GeneratedOpener> kGeneratedOpeners[] = {
    {SourceKindId::TestPattern,
     [](const ParsedSource& spec, PixelFormat format, const std::shared_ptr<DeviceContext>&) {
       return GeneratedSource{std::make_unique<TestPatternSource>(spec.width, spec.height, format),
                              TestPatternSource::kFps};
     }},
    {SourceKindId::Synthetic,
     [](const ParsedSource& spec, PixelFormat format, const std::shared_ptr<DeviceContext>& device) {
       return GeneratedSource{std::make_unique<SyntheticSource>(spec.width, spec.height, format, -1, device),
                              60};  // SyntheticSource's timestamps
     }},
};

}  // namespace

GeneratedSource openGeneratedSource(const SourceKind& kind, const std::string& text, PixelFormat format,
                                    const std::shared_ptr<DeviceContext>& device) {
  if (!kind.generated) return {};
  for (const auto& [id, open] : kGeneratedOpeners)
    if (id == kind.id) return open(parseOrThrow(kind, text), format, device);
  throw std::logic_error(std::string("The generated source kind ") + kind.syntax + " has no opener.");
}

}  // namespace liveconv::media
