#!/usr/bin/env python3
"""Checks that the reference sweep (tests/engine/test_variants.cpp) still
catches each kind of broken kernel it is there to catch: every mutation below
is one small mistake in a copy of kernels/, loaded through LIVECONV_KERNEL_DIR
by the sweep's cases of the variants that run that code. A mutation the sweep
does not fail on is a hole in the sweep (or a change that cannot be seen: say
which, here, and drop it).

Usage: scripts/sweep-mutations.py [BUILD_DIR] [NAME...]   (default build; every mutation)
Prints one line per mutation (caught or MISSED, the cases that failed, the
seconds) and the first mismatch; exit 1 when one is missed. The kernels are
compiled for each mutation (a cache of their own, under the work folder).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SWEEP = "All/VariantSweep.MatchesReference/"

# name, kernel file, the text, the mistake, the sweep cases that run it
MUTATIONS = [
    ("a border rule wrong (mirror repeats its edge pixel)", "common.cl",
     "return i < n ? i : period - 1 - i;", "return i < n ? i : period - i;",
     SWEEP + "*_mirror"),
    ("a border rule wrong (wrap one short)", "common.cl",
     "return i < 0 ? i + n : i;", "return i < 0 ? i + n - 1 : i;",
     SWEEP + "*_wrap"),
    ("a tap off by one at a tile edge (the last halo column never staged)", "local.cl",
     "    for (int tx = get_local_id(0); tx < tileW; tx += LX)",
     "    for (int tx = get_local_id(0); tx < tileW - 1; tx += LX)",
     SWEEP + "local_*_zero:" + SWEEP + "unrolled_*_zero"),
    ("an unroll remainder wrong (unroll4 drops the third of three)", "local.cl",
     "      acc = fma((pixf)(m[i + 1]), t[i + 1], acc);\n      acc = fma((pixf)(m[i + 2]), t[i + 2], acc);\n    } else if (rest == 2) {",
     "      acc = fma((pixf)(m[i + 1]), t[i + 1], acc);\n    } else if (rest == 2) {",
     SWEEP + "unroll4_*_zero"),
    ("a packet's row loop one short (baked, multi_pixel)", "packet.cl",
     "for (int r = MH; r < PY + MH - 1; ++r) APPLY_ROW(r, 0, PY - 1, 1)",
     "for (int r = MH + 1; r < PY + MH - 1; ++r) APPLY_ROW(r, 0, PY - 1, 1)",
     SWEEP + "multi_pixel_*_zero:" + SWEEP + "baked_*_zero"),
    ("a vector tail wrong (a packet's last pixel of a row not written)", "packet.cl",
     "    const int x = x0 + b;\n    if (x >= width) continue;",
     "    const int x = x0 + b;\n    if (x >= width - 1) continue;",
     SWEEP + "multi_pixel_*_zero:" + SWEEP + "separable_*_zero"),
    ("a vector tail wrong (the row kernels' last bytes of a row not stored)", "rows.cl",
     "for (int q = 0; e + q < rowValues; ++q) dst[",
     "for (int q = 0; e + q + 1 < rowValues; ++q) dst[",
     SWEEP + "rows*_zero"),
    ("a window read past the row's end (the row kernels' inside test one pixel loose)", "rows.cl",
     "    if (left >= 0 && left + WIN <= rowValues) {",
     "    if (left >= 0 && left + WIN <= rowValues + CHANNELS) {",
     SWEEP + "rows*_zero"),
    ("unsigned 16-bit sums taken as signed (rows_baked's blur on a bright frame)", "rows.cl",
     "typedef ushort16 acc16;\ntypedef ushort acc1;\n#define TO_ACC convert_ushort16",
     "typedef short16 acc16;\ntypedef short acc1;\n#define TO_ACC convert_short16",
     SWEEP + "rows_baked_*_zero"),
    ("a 16-bit sample staged as its low byte (the packet kernels)", "packet.cl",
     "#define SAMPLE_AT(p, c) sample_to_float((uint)(((p) >> ((c) * SAMPLE_BITS)) & SAMPLE_MASK))",
     "#define SAMPLE_AT(p, c) sample_to_float((uint)(((p) >> ((c) * SAMPLE_BITS)) & 0xFFu))",
     SWEEP + "multi_pixel_*16_zero:" + SWEEP + "baked_*16_zero:" + SWEEP + "separable_*16_zero"),
    ("a copied 16-bit alpha cut to its low byte (the packet kernels)", "packet.cl",
     "#define ALPHA_BITS ((packed)SAMPLE_MASK << (3 * SAMPLE_BITS))",
     "#define ALPHA_BITS ((packed)0xFFu << (3 * SAMPLE_BITS))",
     SWEEP + "multi_pixel_rgba16_*:" + SWEEP + "baked_rgba16_*"),
    ("16-bit results saturated at 255 (the packet and row kernels)", "common.cl",
     "#define SAMPLE_MAX 65535.0f", "#define SAMPLE_MAX 255.0f",
     SWEEP + "multi_pixel_*16_zero:" + SWEEP + "rows_*16_zero"),
    ("a copied 16-bit alpha cut to its low byte (the row kernels)", "rows.cl",
     "const sample m = (sample)SAMPLE_MASK;", "const sample m = (sample)0xFF;",
     SWEEP + "rows_rgba16_*"),
]
# Left out, as changes no output can show: packet.cl's whole-word store test
# (x0 + 3 < width) made one pixel looser writes the fourth value into the row's
# padding only, which a buffer's pitch (a multiple of 4 there) always has.


def main():
    args = sys.argv[1:]
    build = args.pop(0) if args and os.path.isdir(args[0]) else "build"
    tests = os.path.join(build, "tests", "engine_tests")
    if not os.access(tests, os.X_OK):
        sys.exit(f"sweep-mutations.py: no {tests}; build the tests first (./test.sh -N).")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    chosen = [m for m in MUTATIONS if not args or any(a in m[0] for a in args)]
    missed = 0
    with tempfile.TemporaryDirectory(prefix="liveconv-mutations.") as work:
        for k, (name, file, text, mistake, cases) in enumerate(chosen):
            kernels = os.path.join(work, f"kernels{k}")
            shutil.copytree(os.path.join(root, "kernels"), kernels)
            path = os.path.join(kernels, file)
            with open(path) as f:
                source = f.read()
            if source.count(text) != 1:
                sys.exit(f"sweep-mutations.py: '{name}': its text is in {file} {source.count(text)} times, not once; "
                         "update the mutation to the kernel as it is now.")
            with open(path, "w") as f:
                f.write(source.replace(text, mistake))
            env = dict(os.environ, LIVECONV_KERNEL_DIR=kernels, POCL_CACHE_DIR=os.path.join(work, "pocl"))
            started = time.monotonic()
            run = subprocess.run([tests, f"--gtest_filter={cases}"], env=env, capture_output=True, text=True)
            seconds = time.monotonic() - started
            out = run.stdout + run.stderr
            ran = len(re.findall(r"^\[ RUN      \]", out, re.M))
            failed = len(re.findall(r"^\[  FAILED  \] .* \(\d+ ms\)$", out, re.M))
            first = next((line for line in out.splitlines() if "first mismatch" in line), "")
            caught = run.returncode != 0 and failed > 0
            missed += not caught
            print(f"{'caught' if caught else 'MISSED'}  {name}: {failed} of {ran} cases failed ({seconds:.0f} s)")
            if first:
                print(f"        {first.strip()[:200]}")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
