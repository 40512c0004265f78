#include "model/viewer_model.hpp"

#include <algorithm>
#include <exception>
#include <iterator>

#include "liveconv/mask_file.hpp"
#include "liveconv/media/staged_output.hpp"
#include "liveconv/parameters.hpp"
#include "liveconv/variants.hpp"

namespace liveconv::ui {

ViewerModel::ViewerModel() {
  // The defaults of the parameter table (liveconv/parameters.hpp), as `liveconv run` starts with.
  const ParamValues d = defaultParams();
  params_ = d.filter;
  format_ = d.format;
}

bool ViewerModel::changed(bool structural) {
  ++version_;
  if (structural) failures_.clear();
  return true;
}

bool ViewerModel::separable() const {
  if (separableVersion_ != version_) {
    separable_ = params_.mask.validationError().empty() && factorSeparable(params_.mask, nullptr);
    separableVersion_ = version_;
  }
  return separable_;
}

bool ViewerModel::setMask(const Mask& mask) {
  if (mask == params_.mask) return false;
  const bool resized = mask.width != params_.mask.width || mask.height != params_.mask.height;
  params_.mask = mask;
  // A refusal that depended on the old mask (separable's rank-1 need, a baked
  // build) is asked again for the new one.
  for (auto it = failures_.begin(); it != failures_.end();)
    it = variantInfo(it->first).needsSeparableMask || variantInfo(it->first).binding == MaskBinding::Baked
             ? failures_.erase(it)
             : std::next(it);
  // A variant that cannot run the new mask (separable after the mask stops
  // being rank-1, a size beyond its limit) gives way to `auto`, and says so:
  // the edit lands at once instead of being refused by the frame side.
  changed(resized);  // first: separable() answers for the new version
  if (const std::string why = variantUnusableReason(params_.variant); !why.empty()) {
    say(std::string(variantInfo(params_.variant).name) + " " + why + "; auto runs it instead.");
    previousVariant_ = params_.variant;
    params_.variant = VariantId::Auto;
  }
  return true;
}

void ViewerModel::say(std::string notice) {
  notice_ = std::move(notice);
  ++notices_;
}

bool ViewerModel::applySpec(const std::string& spec, std::string* error) {
  try {
    Mask m = parseMaskSpec(spec);
    if (error) error->clear();
    return setMask(m);
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return false;
  }
}

bool ViewerModel::setCell(int x, int y, float value) {
  Mask m = params_.mask;
  ui::setCell(m, x, y, value, symmetry_);
  return setMask(m);
}

bool ViewerModel::resize(int width, int height) {
  Mask m = params_.mask;
  resizeKeepingCentre(m, width, height);
  return setMask(m);
}

bool ViewerModel::transposeMask() {
  Mask m = params_.mask;
  transpose(m);
  return setMask(m);
}

bool ViewerModel::flipMaskHorizontal() {
  Mask m = params_.mask;
  flipHorizontal(m);
  return setMask(m);
}

bool ViewerModel::flipMaskVertical() {
  Mask m = params_.mask;
  flipVertical(m);
  return setMask(m);
}

bool ViewerModel::resetMask() {
  Mask m;
  m.width = params_.mask.width;
  m.height = params_.mask.height;
  m.coefficients.assign(static_cast<size_t>(m.width) * m.height, 0.0f);
  m.coefficients[m.coefficients.size() / 2] = 1.0f;  // odd sides: the middle element is the centre
  return setMask(m);
}

bool ViewerModel::setDivisor(float divisor) {
  Mask m = params_.mask;
  m.divisor = divisor;
  return setMask(m);
}

bool ViewerModel::setBias(float bias) {
  Mask m = params_.mask;
  m.bias = bias;
  return setMask(m);
}

bool ViewerModel::setNormalize(Normalize mode) {
  if (mode == Normalize::Invalid) return false;
  Mask m = params_.mask;
  m.normalize = mode;
  return setMask(m);
}

bool ViewerModel::setVariant(VariantId id) {
  if (id == params_.variant || id == VariantId::Invalid) return false;
  if (!variantAvailable(variantInfo(id))) {  // `user` kept in the settings, the file not given this time
    say(std::string(variantInfo(id).name) + " " + variantUnusableReason(id) + ".");
    return false;
  }
  previousVariant_ = params_.variant;
  params_.variant = id;
  return changed(false);
}

bool ViewerModel::setUserKernel(const std::string& digest) {
  if (digest == params_.userKernel) return false;
  previousUserKernel_ = params_.userKernel;
  params_.userKernel = digest;
  // A save while it plays (not the first load): said, as its refusal would be.
  if (!previousUserKernel_.empty() && params_.variant == VariantId::User)
    say("The kernel file changed: its new version is built beside what plays and takes over when it is ready.");
  return changed(false);
}

void ViewerModel::noteVariantFailure(VariantId id, const std::string& reason) {
  // A new version of the user's kernel that does not build or computes
  // wrong: the one before it runs on (the feed kept it), `user` stays, and
  // the next version saved is tried.
  const bool userKernelChanged = !previousUserKernel_.empty() && previousUserKernel_ != params_.userKernel;
  if (userKernelChanged && id == VariantId::User) {
    params_.userKernel = previousUserKernel_;
    previousUserKernel_.clear();
    say("The kernel file's new version was refused; the last one that built runs on.");
    ++version_;
    return;
  }
  failures_[id] = reason;
  if (id == params_.variant && previousVariant_ != VariantId::Invalid && previousVariant_ != id) {
    params_.variant = previousVariant_;
    previousVariant_ = VariantId::Invalid;
    // The refused set may have carried a mask edit too: the next snapshot
    // sends that edit with the variant that runs, so it still lands.
    ++version_;
  }
}

bool ViewerModel::nextVariant() {
  const auto& reg = variantRegistry();
  size_t at = 0;
  while (at < reg.size() && reg[at].id != params_.variant) ++at;
  for (size_t step = 1; step < reg.size(); ++step) {
    const VariantInfo& v = reg[(at + step) % reg.size()];
    if (variantUnusableReason(v.id).empty()) return setVariant(v.id);
  }
  return false;
}

std::string ViewerModel::variantUnusableReason(VariantId id) const {
  const VariantInfo& v = variantInfo(id);
  if (!variantAvailable(v)) return "runs a kernel of your own: start with --kernel-file FILE.cl";
  const Mask& m = params_.mask;
  if (m.width > v.maxMaskSide || m.height > v.maxMaskSide)
    return "takes masks up to " + std::to_string(v.maxMaskSide) + "x" + std::to_string(v.maxMaskSide);
  // From the registry and the mask, before anyone clicks: separable needs a rank-1 mask.
  if (v.needsSeparableMask && !separable()) return "needs a separable (rank-1) mask; this one is not";
  auto failed = failures_.find(id);
  return failed == failures_.end() ? std::string() : failed->second;
}

bool ViewerModel::setDevice(int index) {
  if (index == deviceIndex_) return false;
  deviceIndex_ = index;
  return changed(true);
}

bool ViewerModel::setBorder(BorderMode mode) {
  if (mode == params_.border || mode == BorderMode::Invalid) return false;
  params_.border = mode;
  return changed(false);
}

bool ViewerModel::setAlpha(AlphaMode mode) {
  if (mode == params_.alpha || mode == AlphaMode::Invalid) return false;
  params_.alpha = mode;
  return changed(false);
}

bool ViewerModel::setFormat(PixelFormat format) {
  // The windows show and record 8-bit frames; 16-bit ones are bench's and run's.
  if (format == format_ || format == PixelFormat::Invalid || bytesPerSample(format) != 1) return false;
  format_ = format;
  return changed(true);
}

bool ViewerModel::setWorkgroup(WorkgroupShape shape) {
  if (shape.x == params_.workgroup.x && shape.y == params_.workgroup.y) return false;
  params_.workgroup = shape;
  return changed(true);
}

bool ViewerModel::setSource(const std::string& spec) {
  recent_.erase(std::remove(recent_.begin(), recent_.end(), spec), recent_.end());
  recent_.insert(recent_.begin(), spec);
  if (recent_.size() > kRecentSources) recent_.resize(kRecentSources);
  if (spec == source_) return false;
  source_ = spec;
  return changed(false);
}

const ResponseFigure& ViewerModel::responseFigure() const {
  if (!responseComputed_ || responseMask_ != params_.mask) {
    response_ = ui::responseFigure(params_.mask);
    responseMask_ = params_.mask;
    responseComputed_ = true;
  }
  return response_;
}

bool ViewerModel::loadMask(const std::string& path, std::string* error) {
  try {
    const Mask mask = loadMaskFile(path);
    setMask(mask);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return false;
  }
}

// Whole or not at all (staged): a full disk keeps an older mask file as it was.
bool ViewerModel::saveMask(const std::string& path, std::string* error) const {
  std::string why;
  try {
    params_.mask.validate();
    why = media::writeStaged(path, maskToJson(params_.mask));
  } catch (const std::exception& e) {
    why = e.what();
  }
  if (error) *error = why;
  return why.empty();
}

std::shared_ptr<const ParamsSnapshot> ViewerModel::snapshot() const {
  if (!params_.mask.validationError().empty()) return nullptr;
  if (!snapshot_ || snapshot_->version != version_) {
    auto s = std::make_shared<ParamsSnapshot>();
    s->version = version_;
    s->filter = params_;
    s->format = format_;
    s->deviceIndex = deviceIndex_;
    s->source = source_;
    snapshot_ = std::move(s);
  }
  return snapshot_;
}

}  // namespace liveconv::ui
