#!/usr/bin/env python3
"""Where a ctest run's time went, read from its log (./test.sh's or .ci/run's).

Usage: scripts/suite-costs.py LOG [--slowest N] [--release NAME]

Prints the entries, test-seconds and share of each family (a GoogleTest suite,
the rusticl.* copies apart, Readme's documented commands as one), then the N
slowest entries (default 20). A .ci/run log holds both releases one after the
other: --release trixie (or bookworm) reads only the part of that release's
suite; without it, the counts are both releases together.

Test-seconds are each entry's own time as ctest printed it, so entries that
ran beside each other (ctest -j2) both count: on a busy machine they grow with
the load, not with the entry's work alone.
"""
import argparse
import collections
import re
import signal
import sys

ENTRY = re.compile(r"Test +#\d+: (\S+).*?[\s.](Passed|\*\*\*Failed|Failed|Not Run|\*\*\*Skipped|Skipped|\*\*\*Timeout)\s+([\d.]+) sec")


def family(name: str) -> str:
    if name.startswith("rusticl."):
        rest = name[len("rusticl."):]
        if "VariantSweep" in rest:
            return "rusticl.VariantSweep"
        return "rusticl." + rest.split("/")[-1].split(".")[0]
    if "VariantSweep" in name:
        return "VariantSweep"
    if name.startswith("Readme"):
        return "Readme"
    if name.startswith("qt."):
        return "qt." + name.split(".")[1]
    suite = name.split(".")[0]
    return suite.split("/")[-1]


def release_part(log: str, release: str) -> str:
    """The lines between '.ci/run's "RELEASE: ./test.sh in the clean root (the whole suite)" and the next step line."""
    start = re.search(r"ci \[\d+s\]: " + re.escape(release) + r": \./test\.sh in the clean root \(the whole suite\)", log)
    if not start:
        sys.exit(f"suite-costs: no suite of {release} in this log (a .ci/run log names each release's step).")
    end = re.search(r"^ci \[\d+s\]: ", log[start.end():], re.M)
    return log[start.end(): start.end() + end.start()] if end else log[start.end():]


def main() -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # | head ends it quietly
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("log")
    parser.add_argument("--slowest", type=int, default=20)
    parser.add_argument("--release")
    args = parser.parse_args()
    try:
        log = open(args.log, errors="replace").read()
    except OSError as e:
        sys.exit(f"suite-costs: cannot read {args.log}: {e.strerror}.")
    if args.release:
        log = release_part(log, args.release)
    rows = [(float(t), name, status) for name, status, t in ENTRY.findall(log)]
    if not rows:
        sys.exit(f"suite-costs: {args.log} holds no ctest result lines.")
    total = sum(t for t, _, _ in rows)
    families = collections.defaultdict(lambda: [0, 0.0])
    for t, name, _ in rows:
        f = families[family(name)]
        f[0] += 1
        f[1] += t
    print(f"{len(rows)} entries, {total:.0f} test-seconds")
    print(f"{'family':<32} {'entries':>7} {'test-s':>8} {'share':>6}")
    for name, (count, seconds) in sorted(families.items(), key=lambda kv: -kv[1][1]):
        print(f"{name:<32} {count:>7} {seconds:>8.1f} {100 * seconds / total:>5.1f}%")
    print(f"\nthe {args.slowest} slowest entries")
    for t, name, status in sorted(rows, reverse=True)[: args.slowest]:
        print(f"{t:>7.1f} s  {status.strip('*'):<7} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
