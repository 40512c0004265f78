# Sourced by the GPU-machine scripts (gpu-bench.sh, gpu-explore.sh): registers
# NVIDIA's OpenCL with the ICD loader and builds the engine and the bench with
# nothing but OpenCL into build-gpu, logging to $out/build.log. Expects $out.
# The GPU machine's copy of the tree has no .git: set LIVECONV_COMMIT (the
# output of `git rev-parse HEAD` here) in the command so --version names it.
mkdir -p "$out"
[ -f /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DLIVECONV_WITH_MEDIA=OFF -DLIVECONV_WITH_GUI=OFF \
  -DLIVECONV_WITH_QT=OFF -DLIVECONV_BUILD_TESTS=OFF >"$out/build.log" 2>&1 &&
  cmake --build build-gpu -j "$(nproc)" >>"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
export LIVECONV_TUNING_CACHE="$out/autotune.tsv"
bin=build-gpu/app/liveconv
