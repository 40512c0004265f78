#include "model/start_params.hpp"

#include <algorithm>
#include <exception>

#include "liveconv/kernel_sources.hpp"

namespace liveconv::ui {

bool StartParams::has(ParamId id) const { return std::find(given.begin(), given.end(), id) != given.end(); }

bool takeParamFlag(int argc, char** argv, int* i, StartParams* params, std::string* why) {
  if (std::string(argv[*i]) == "--planes") {
    why->clear();
    params->planes = true;
    return true;
  }
  if (std::string(argv[*i]) == "--hwaccel") {
    if (*i + 1 >= argc || !*argv[*i + 1]) {
      *why = "--hwaccel needs a value (none, auto, or a hardware decoder such as cuda or vaapi).";
      return true;
    }
    why->clear();
    params->hwaccel = argv[++*i];
    return true;
  }
  const ParamDescription* d = findParamByFlag(argv[*i]);
  if (!d) return false;
  why->clear();
  if (*i + 1 >= argc) {
    *why = std::string(d->flag) + " needs a value (" + d->valueName + ").";
    return true;
  }
  try {
    setParam(params->values, d->id, argv[++*i]);
    // Read at once: a file that cannot be read is a bad command line, said before a window opens.
    if (d->id == ParamId::KernelFile) loadUserKernel(params->values.kernelFile);
    if (!params->has(d->id)) params->given.push_back(d->id);
  } catch (const std::exception& e) {
    *why = e.what();
  }
  return true;
}

void applyStartParams(const StartParams& params, ViewerModel& model) {
  if (!params.hwaccel.empty()) model.view().hwaccel = params.hwaccel;
  if (params.planes) model.view().planes = true;
  const ParamValues& v = params.values;
  // In the table's order, whatever the command line's: the mask before the
  // variant, so a variant is judged against the mask it will run.
  for (const ParamDescription& d : paramDescriptions()) {
    if (!params.has(d.id)) continue;
    switch (d.id) {
      case ParamId::Mask:
        model.setMask(v.filter.mask);
        break;
      case ParamId::Variant:
        model.setVariant(v.filter.variant);
        break;
      case ParamId::Border:
        model.setBorder(v.filter.border);
        break;
      case ParamId::Alpha:
        model.setAlpha(v.filter.alpha);
        break;
      case ParamId::Workgroup:
        model.setWorkgroup(v.filter.workgroup);
        break;
      case ParamId::Format:
        model.setFormat(v.format);
        break;
      case ParamId::OpenTimeout:
        model.view().openTimeoutSeconds = v.openTimeoutSeconds;
        break;
      case ParamId::KernelFile:  // loaded when its flag was read (takeParamFlag): its version
        model.setUserKernel(userKernel().digest);
        break;
      case ParamId::Device:  // a selector: the frame loop's, see above
      case ParamId::Invalid:
        break;
    }
  }
}

std::string modelParamText(const ViewerModel& model, ParamId id) {
  ParamValues values;
  values.filter = model.filter();
  values.format = model.format();
  values.openTimeoutSeconds = model.view().openTimeoutSeconds;
  values.kernelFile = userKernel().path;
  return paramText(values, id);
}

bool setModelParam(ViewerModel& model, ParamId id, const std::string& text) {
  StartParams one;
  try {
    setParam(one.values, id, text);
  } catch (const std::exception&) {
    return false;
  }
  one.given.push_back(id);
  const std::uint64_t before = model.version();
  applyStartParams(one, model);
  return model.version() != before;
}

std::string startParamsHelp() {
  return paramHelp({ParamId::Mask, ParamId::Variant, ParamId::Border, ParamId::Alpha, ParamId::Workgroup,
                    ParamId::Format, ParamId::Device, ParamId::KernelFile});
}

std::string sourceOptionsHelp() {
  return paramHelp({ParamId::OpenTimeout}) +
         "  --hwaccel none|auto|NAME  decode on hardware through FFmpeg (cuda, vaapi, ...); where it does\n"
         "                      not open the CPU decodes and a message says why; auto keeps the faster,\n"
         "                      measured on a file's first frames; default " +
         ViewState().hwaccel +
         "\n"
         "  --planes            filter the source's own planes (Y, U, V or G, B, R, A) as they are, each\n"
         "                      with the mask, as `liveconv run --planes all` (no colour conversion)\n";
}

}  // namespace liveconv::ui
