// liveconv-qt: the Qt 6 desktop shell (also `liveconv --ui qt`).
// --help and --version answer before Qt starts, so they work without a display.
#include <QApplication>
#include <QSettings>
#include <QSocketNotifier>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "feed/feed_sources.hpp"
#include "feed/first_launch_helper.hpp"
#include "feed/script.hpp"
#include "feed/stats_file.hpp"
#include "gl/interop_policy.hpp"
#include "liveconv/device.hpp"
#include "liveconv/media/exit_codes.hpp"
#include "liveconv/media/source_kinds.hpp"
#include "liveconv/media/stop_signals.hpp"
#include "model/commands.hpp"
#include "model/start_params.hpp"
#include "qt/main_window.hpp"

namespace {

const char* kUsage =
    "usage: liveconv-qt [options] [--source] [SOURCE] [Qt options such as -platform NAME]\n"
    "\n"
    "  SOURCE              one of (without it, the source of the last run):\n";

const char* kUsageFilter =
    "The filter (given ones replace the settings of the last run, as the Filter menu would):\n";

const char* kUsageRun =
    "  --frames N          with --quit or --screenshot: frames to show first (default 1)\n"
    "  --screenshot FILE   save the window as PNG after --frames frames\n"
    "  --quit              close the window after --frames frames (and the screenshot)\n";

const char* kUsageSettings =
    "\n"
    "Settings (mask, variant, device, border, format, alpha, workgroup, window layout) are kept in\n"
    "~/.config/liveconv/liveconv-qt.conf. The device: --device, the Device menu, or $LIVECONV_DEVICE.\n";

// --frames N, --screenshot FILE, --quit: for scripts, tests and the man page's examples.
struct RunOptions {
  long frames = 0;
  std::string screenshot;
  bool quit = false;
  std::string script;     // --script FILE
  std::string statsJson;  // --stats-json FILE
  // Nobody watches: no dialog waits for a click, and a source that does not
  // open ends the run with the input's exit code.
  bool unattended() const { return !script.empty() || quit || !screenshot.empty(); }
};

bool takeRunOption(int argc, char** argv, int* i, RunOptions* run, std::string* why) {
  const char* arg = argv[*i];
  const char* value = *i + 1 < argc ? argv[*i + 1] : nullptr;
  if (!std::strcmp(arg, "--quit")) {
    run->quit = true;
    return true;
  }
  if (!std::strcmp(arg, "--frames")) {
    char* end = nullptr;
    run->frames = value ? std::strtol(value, &end, 10) : 0;
    if (!value || run->frames < 1 || *end) *why = "--frames needs N >= 1.";
    ++*i;
    return true;
  }
  if (!std::strcmp(arg, "--script") || !std::strcmp(arg, "--stats-json")) {
    if (!value) *why = std::string(arg) + " needs a file name.";
    (!std::strcmp(arg, "--script") ? run->script : run->statsJson) = value ? value : "";
    ++*i;
    return true;
  }
  if (!std::strcmp(arg, "--screenshot")) {
    if (!value) *why = "--screenshot needs a file name.";
    run->screenshot = value ? value : "";
    ++*i;
    return true;
  }
  return false;
}

// Once the window has shown `frames` frames with a picture (as the viewer
// counts them: not the passes before the first frame came): the screenshot,
// then (with --quit) close. A source that said why it gives no picture (an
// input that fails at its first frames) ends it at once, with `liveconv run`'s
// exit code for it (7), as in the viewer; one that says nothing, after 30 s.
void finishAfterFrames(liveconv::ui::MainWindow& window, const RunOptions& run) {
  auto* timer = new QTimer(&window);
  const auto started = std::chrono::steady_clock::now();
  QObject::connect(timer, &QTimer::timeout, &window, [&window, run, timer, started] {
    const bool shown = window.loop().framesShown() >= static_cast<std::uint64_t>(std::max(1L, run.frames));
    const bool failed = window.loop().framesShown() == 0 && !window.loop().stats().sourceMessage.empty();
    if (!shown && !failed && std::chrono::steady_clock::now() - started < std::chrono::seconds(30)) return;
    timer->stop();
    if (!run.screenshot.empty() && !window.saveScreenshot(QString::fromStdString(run.screenshot))) {
      std::cerr << "liveconv-qt: cannot write the screenshot " << run.screenshot << ".\n";
      QApplication::exit(1);
      return;
    }
    if (!run.quit) return;
    window.close();
    if (failed) QApplication::exit(liveconv::media::kExitInputFailed);  // stderr and the picture said why
  });
  timer->start(20);
}

bool hasDisplay() {
  for (const char* var : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
    if (const char* v = std::getenv(var); v && *v) return true;
  return false;
}


// What liveconv-qt takes before Qt does: its own options, taken out of argv
// (as the viewer parses them) so Qt never sees them.
struct CommandLine {
  liveconv::ui::DisplayPathRequest displayPath = liveconv::ui::DisplayPathRequest::Auto;
  RunOptions run;
  liveconv::ui::StartParams params;
  int deviceIndex = -1;        // --device, as the model's index (the Device menu's)
  std::vector<char*> rest;     // what is left for Qt (and the source)
};

// --help and --version: answered before Qt starts, so without a display. -1: neither.
int answerHelpOrVersion(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      std::cout << kUsage << liveconv::media::sourceKindsHelp("    ") << liveconv::ui::sourceOptionsHelp()
                << kUsageFilter << liveconv::ui::startParamsHelp() << liveconv::ui::displayPathOptionHelp() << kUsageRun
                << liveconv::ui::scriptOptionHelp() << "  --help, --version\n"
                << liveconv::ui::keyHelp() << kUsageSettings;
      return 0;
    }
    if (!std::strcmp(argv[i], "--version")) {
      // The second line is what `liveconv --version` reports for Qt: the library loaded, not the headers.
      std::cout << "liveconv-qt " LIVECONV_VERSION " (commit " LIVECONV_GIT_COMMIT ")\nQt " << qVersion()
                << " (built with " QT_VERSION_STR ")\n";
      return 0;
    }
  }
  return -1;
}

// Reads the options; "" or the sentence of the usage error. A bad script and
// a --device that matches none are said here, before anything needs a display.
std::string readCommandLine(int argc, char** argv, CommandLine* c, int* exitCode) {
  *exitCode = 2;
  c->rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string why;
    if (!std::strcmp(argv[i], "--display-path"))
      why = liveconv::ui::parseDisplayPathOption(i + 1 < argc ? argv[++i] : nullptr, &c->displayPath);
    else if (!takeRunOption(argc, argv, &i, &c->run, &why) &&
             !liveconv::ui::takeParamFlag(argc, argv, &i, &c->params, &why))
      c->rest.push_back(argv[i]);
    if (!why.empty()) return why;
  }
  if (!c->run.script.empty())
    if (std::string why = liveconv::ui::Script().load(c->run.script); !why.empty()) return why;
  if (!c->params.hwaccel.empty())
    if (std::string why = liveconv::ui::whyNotHwAccel(c->params.hwaccel); !why.empty()) return why;
  if (c->params.has(liveconv::ParamId::Device)) {
    try {
      c->deviceIndex = liveconv::selectDevice(c->params.values.device).index;
    } catch (const std::exception& e) {
      *exitCode = liveconv::media::kExitNoDevice;  // as `liveconv` and the viewer
      return e.what();
    }
  }
  return {};
}

// Once the window ran: --stats-json; the exit code.
int finish(liveconv::ui::MainWindow& window, const RunOptions& run, int code) {
  window.loop().recordings().waitForAll();  // a recording a script ended is in the stats, complete
  if (!run.statsJson.empty())
    if (const std::string why = writeStatsJson(window.loop(), run.statsJson); !why.empty()) {
      std::cerr << "liveconv-qt: " << why << "\n";
      code = code ? code : liveconv::media::kExitOutputFailed;  // as the viewer
    }
  return code;
}

}  // namespace

LIVECONV_CATCH_STOP_SIGNALS_FROM_THE_START

namespace {

// The window set up as the command line asks, over the settings of the last
// run; "" or why its script cannot be loaded.
std::string setUp(liveconv::ui::MainWindow& window, const CommandLine& c) {
  window.setDisplayPath(c.displayPath);
  // Nobody watches: every message the window shows is said on stderr too, as `liveconv run` says its own.
  if (c.run.unattended())
    window.loop().log().echoMessages([](const std::string& text) { std::cerr << "liveconv-qt: " << text << "\n"; });
  // Scripted, or told when to quit: nobody is there to pick another variant or device.
  window.setQuitWhenNothingCanPlay(!c.run.script.empty() || c.run.quit || !c.run.screenshot.empty());
  liveconv::ui::applyStartParams(c.params, window.model());  // over the settings of the last run
  if (c.deviceIndex >= 0) window.model().setDevice(c.deviceIndex);
  window.syncFromModel();
  return c.run.script.empty() ? "" : window.loop().script().load(c.run.script);
}

int qtMain(int argc, char** argv) {
  if (liveconv::ui::isFirstLaunchHelper(argc, argv)) return liveconv::ui::firstLaunchHelperMain(argc, argv);
  liveconv::ui::offerFirstLaunchHelper();
  if (const int code = answerHelpOrVersion(argc, argv); code >= 0) return code;
  CommandLine c;
  int usageCode = 2;
  if (const std::string why = readCommandLine(argc, argv, &c, &usageCode); !why.empty()) {
    std::cerr << "liveconv-qt: " << why << "\n";
    return usageCode;
  }
  argc = static_cast<int>(c.rest.size());
  c.rest.push_back(nullptr);
  argv = c.rest.data();
  // Qt would abort with its own message; say it in one sentence instead, before QApplication.
  bool platformArg = false;
  for (int i = 1; i < argc; ++i) platformArg = platformArg || !std::strcmp(argv[i], "-platform");
  if (!platformArg && !hasDisplay()) {
    std::cerr << "liveconv-qt: no display ($DISPLAY and $WAYLAND_DISPLAY are empty); run it in a desktop session, "
                 "or use `liveconv run` for filtering without a window.\n";
    return 1;
  }

  // A signal (SIGINT, SIGTERM, SIGHUP) closes the window as the user would:
  // the recording is finished and the settings saved; the exit code is 128 + N.
  liveconv::media::InterruptScope interrupts;
  QApplication app(argc, argv);
  QApplication::setOrganizationName("liveconv");
  QApplication::setApplicationName("liveconv-qt");
  QApplication::setApplicationVersion(LIVECONV_VERSION);
  // Qt has taken its own options out of arguments() by now.
  QStringList args = QApplication::arguments().mid(1);
  if (!args.isEmpty() && args.front() == "--source") args.removeFirst();
  if (args.size() > 1 || (!args.isEmpty() && args.front().startsWith("--"))) {
    std::cerr << "liveconv-qt: unexpected argument " << args.back().toStdString() << " (see --help).\n";
    return 2;
  }
  QSettings settings;
  // A scripted or timed run (--script, --quit, --screenshot) reports in the
  // status line, on stderr and in the stats file: no dialog waits for a click.
  liveconv::ui::MainWindow window(settings, c.run.unattended() ? liveconv::ui::ErrorStyle::StatusBar
                                                               : liveconv::ui::ErrorStyle::Dialog);
  if (const std::string why = setUp(window, c); !why.empty()) {
    std::cerr << "liveconv-qt: " << why << "\n";
    return 2;
  }
  // A signal closes the window as the user would, from here on (the first
  // open included): the recording is finished, the settings saved, 128 + N.
  std::string recording;  // what a signal finished
  QSocketNotifier onSignal(liveconv::media::interruptWakeFd(), QSocketNotifier::Read);
  QObject::connect(&onSignal, &QSocketNotifier::activated, &window, [&] {
    onSignal.setEnabled(false);
    recording = window.loop().recordings().path();
    QApplication::closeAllWindows();  // the dialogs too; the main window's closeEvent finishes and saves
    QApplication::quit();
  });
  if (!args.isEmpty() && !window.openSource(args.front()) && c.run.unattended())
    return finish(window, c.run, liveconv::media::kExitInputFailed);  // the log's line on stderr said why
  // The first run fills the screen it opens on; later runs come back where they were left.
  if (window.restoredGeometry()) window.show();
  else window.showMaximized();
  window.setRunning(true);
  if (c.run.quit || !c.run.screenshot.empty()) finishAfterFrames(window, c.run);
  const int code = app.exec();
  if (liveconv::media::interruptRequested()) {
    if (window.isVisible()) window.close();  // a dialog's loop kept it open: finished and saved all the same
    const int interrupted = liveconv::media::reportInterruption(
        "liveconv-qt", recording.empty() ? "" : "; the recording " + recording + " was finished");
    finish(window, c.run, 0);
    return interrupted;
  }
  return finish(window, c.run, code);
}

}  // namespace

int main(int argc, char** argv) {
  liveconv::media::writeFailuresAreErrors();  // a recording past `ulimit -f` is a write error, said, not a kill
  return liveconv::media::finishInterrupted("liveconv-qt", qtMain(argc, argv));
}
