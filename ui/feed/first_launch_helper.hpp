// First launches in a helper process, for the windows on PoCL.
//
// PoCL generates a kernel's machine code at its first launch (for each
// work-group shape), and holds a lock meanwhile that every launch of the
// process takes: for 100-300 ms on two cores the stream on screen stops, and
// an edit made then waits. A helper process does not share that lock. So a
// window's KernelBuilder hands each first launch on a CPU device to a copy of
// the window's own executable, started with kFirstLaunchFlag: it builds the
// same program (the same source and options, so PoCL's kernel cache on disk
// keys it the same), launches it once on a small frame and exits; the window's
// own first launch then only loads the code PoCL left in its cache. What the
// helpers launched is recorded in that cache's folder
// (liveconv-first-launches.tsv: device and driver, the program's digest,
// variant, format, shape), so a window on a machine whose PoCL cache is warm
// starts no helper at all, and an emptied cache takes the record with it.
//
//   main(): offerFirstLaunchHelper() -> a feed's builder: setFirstLaunchElsewhere(offeredFirstLaunchHelper())
//   lc-build: firstLaunchInHelper(...)(device, sets, abandon)
//     -> posix_spawn(executable --first-launch-helper --device P:D --set --format F --mask JSON ... [--set ...])
//     -> waits (at most kFirstLaunchHelperLimit; killed when `abandon` says so), exit status 0 = all done
#pragma once

#include <chrono>
#include <string>

#include "liveconv/kernel_builder.hpp"

namespace liveconv::ui {

constexpr const char* kFirstLaunchFlag = "--first-launch-helper";
// A helper that takes longer is killed, and the builder goes on without it.
constexpr std::chrono::seconds kFirstLaunchHelperLimit{30};

// For KernelBuilder::setFirstLaunchElsewhere: starts `executable` (default:
// this process's own) as one helper for the sets on a PoCL device, and answers
// false at once for any other device (whose code is generated at build time)
// or when the helper could not start, failed, ran too long or was abandoned.
FirstLaunchElsewhere firstLaunchInHelper(std::string executable = "/proc/self/exe");

// In a window's main(): this executable answers kFirstLaunchFlag, so the
// feeds opened from now on give their builders firstLaunchInHelper(executable).
// Without it (the tests, say) they give none, and PoCL's first launches stay
// in the process.
void offerFirstLaunchHelper(std::string executable = "/proc/self/exe");
// What a feed gives its builder: the helper offered, else an empty function.
FirstLaunchElsewhere offeredFirstLaunchHelper();

// In a window's main(), before anything else: true when this process was
// started as a helper; firstLaunchHelperMain() is then all it does: each set
// launched is reported as its index on a line of standard output; exit 0 when
// every launch ran, 1 when one failed, 2 for arguments it does not take.
bool isFirstLaunchHelper(int argc, char** argv);
int firstLaunchHelperMain(int argc, char** argv);

}  // namespace liveconv::ui
