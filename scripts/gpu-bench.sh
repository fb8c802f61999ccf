#!/usr/bin/env bash
# One call on the GPU machine: run the GPU tests (CPU-vs-GPU parity, NVRTC
# compile, the emulated kernels), the CPU-vs-GPU benchmark (a table with the
# device name), and the application end to end on both devices
# (scripts/gpu-cli-check.sh, with cuda and with auto), and whole `mteval
# score` processes on 1M rows per device (scripts/gpu-score-scale.sh).
# Results go to $OUT (the device tool's output folder) or target/gpu-bench;
# every workload also as a JSON line in gpu-results.jsonl there (the format
# of docs/gpu-results.jsonl).
#
# Settings: GPU_BENCH_TESTS (test binaries, default "gpu_cuda
# gpu_emulated"), GPU_BENCH_ONLY (long | chrf | scale: one part of
# gpu_bench), GPU_BENCH_SWEEP=0 (no batched-TER sweep), GPU_BENCH_CLI=0 (no
# end-to-end checks), GPU_BENCH_AUTO_CHECK=0 (no `auto` check),
# GPU_BENCH_NCU=1 (Nsight Compute on the edit-distance kernels),
# GPU_BENCH_LIMIT (seconds per binary), GPU_BENCH_ROWS / GPU_BENCH_SOURCES
# (the scale workloads' size), MTEVAL_GPU_TRACE=1 (each device operation's
# time on stderr).
#
#   scripts/gpu-bench.sh [WMT_DIR]     (default: $MTEVAL_SHARED_DIR/data/wmt or ../shared/data/wmt)
#
# Binaries: from .gpu-bundle/bin when present (scripts/gpu-bundle.sh builds
# them on a machine with cargo; the GPU machine has no Rust and no network),
# else built here with cargo. The WMT rows: .gpu-bundle/shared when present.
#
# NVRTC: cudarc (built for CUDA 12.8) asks the loader for libnvrtc.so or
# libnvrtc.so.12. A machine with only CUDA 13 has libnvrtc.so.13 (no
# unversioned name outside the toolkit), so the first NVRTC found (toolkit,
# pip wheel, ldconfig's list, $NVRTC_DIR) is linked as libnvrtc.so in a folder put
# on LD_LIBRARY_PATH, next to its own folder and its link target's (for its
# builtins library).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-target/gpu-bench}"
mkdir -p "$out"
bundle=.gpu-bundle
if [ -z "${MTEVAL_SHARED_DIR:-}" ] && [ -d "$bundle/shared/data/wmt" ]; then
  export MTEVAL_SHARED_DIR="$PWD/$bundle/shared"
fi
shared="${MTEVAL_SHARED_DIR:-../shared}"
wmt="${1:-$shared/data/wmt}"

{ nvidia-smi || echo "nvidia-smi: not found"; } 2>&1 | tee "$out/nvidia-smi.txt"

find_nvrtc() {
  local d f
  for d in "${NVRTC_DIR:-}" /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
    $(python3 -c 'import nvidia, os; [print(os.path.join(p, s)) for p in nvidia.__path__ for s in ("cuda_nvrtc/lib", "cu13/lib", "cu12/lib")]' 2>/dev/null || true) \
    $(ldconfig -p 2>/dev/null | awk '/libnvrtc\.so/ {print $NF}' | xargs -r -n1 dirname | sort -u); do
    for f in libnvrtc.so.12 libnvrtc.so.13 libnvrtc.so; do
      if [ -n "$d" ] && [ -e "$d/$f" ]; then
        echo "$d/$f"
        return 0
      fi
    done
  done
  return 1
}
if lib="$(find_nvrtc)"; then
  links="$PWD/target/nvrtc-link"
  mkdir -p "$links"
  ln -sf "$(readlink -f "$lib")" "$links/libnvrtc.so"
  # Its own folder and its link target's (for libnvrtc-builtins).
  export LD_LIBRARY_PATH="$links:$(dirname "$lib"):$(dirname "$(readlink -f "$lib")")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "NVRTC: $lib" | tee "$out/nvrtc.txt"
else
  echo "NVRTC: not found (the parity suite will fail)" | tee "$out/nvrtc.txt"
fi

export MTEVAL_REQUIRE_GPU=1 MTEVAL_REQUIRE_NVRTC=1 RUST_BACKTRACE=1
# Every workload also as a JSON line (docs/gpu-results.jsonl's format).
export GPU_BENCH_JSON="$out/gpu-results.jsonl" GPU_BENCH_DATE="$(date -u +%F)"
: >"$GPU_BENCH_JSON"
status=0
# A hang must not eat the device call: each binary gets a time limit.
limit="${GPU_BENCH_LIMIT:-240}"
if [ -x "$bundle/bin/gpu_bench" ]; then
  echo "binaries: $bundle/bin ($(cat "$bundle/bin/BUILT" 2>/dev/null || echo 'unknown build'))"
  # GPU_BENCH_TESTS: which test binaries (the emulated suite also runs in CI).
  for t in ${GPU_BENCH_TESTS:-gpu_cuda gpu_emulated}; do
    timeout "$limit" "$bundle/bin/$t" --nocapture 2>&1 | tee -a "$out/tests.txt" || status=1
  done
  timeout "$limit" "$bundle/bin/gpu_bench" "$wmt" 2>&1 | tee "$out/bench.txt" || status=1
  # GPU_BENCH_NCU=1: Nsight Compute's view of the edit-distance kernels on
  # the ~1 KB strings (speed of light, occupancy, launch statistics).
  if [ "${GPU_BENCH_NCU:-0}" = 1 ]; then
    env -u GPU_BENCH_JSON GPU_BENCH_ONLY=long timeout "$limit" ncu --clock-control none -k 'regex:lev_|utf8_decode' \
      --launch-count 6 --section SpeedOfLight --section Occupancy --section LaunchStats \
      --section ComputeWorkloadAnalysis --section WarpStateStats \
      "$bundle/bin/gpu_bench" "$wmt" >"$out/ncu.txt" 2>&1 || echo "ncu failed (see ncu.txt)"
    grep -E "lev_|utf8_decode|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Memory Throughput|Executed Ipc A|Block Limit Reg" \
      "$out/ncu.txt" | head -80
  fi
  if [ -f "$bundle/bin/mteval.xz" ] && [ "${GPU_BENCH_CLI:-1}" = 1 ]; then
    mkdir -p target
    xz -dc "$bundle/bin/mteval.xz" >target/mteval-bundled 2>/dev/null ||
      python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' \
        "$bundle/bin/mteval.xz" target/mteval-bundled
    chmod +x target/mteval-bundled
    MTEVAL_BIN=target/mteval-bundled bash scripts/gpu-cli-check.sh "$wmt" 2>&1 | tee "$out/cli.txt" || status=1
    timeout "$limit" bash scripts/gpu-score-scale.sh target/mteval-bundled "$wmt" 2>&1 | tee "$out/score-scale.txt" ||
      status=1
    # `auto` on a GPU machine: the same bytes as cpu, at about the CPU's speed.
    if [ "${GPU_BENCH_AUTO_CHECK:-1}" = 1 ]; then
      GPU_CHECK_DEVICE=auto MTEVAL_BIN=target/mteval-bundled bash scripts/gpu-cli-check.sh "$wmt" 2>&1 |
        tee "$out/cli-auto.txt" || status=1
    fi
  fi
else
  cargo test --release -p mteval-kernels --test gpu_cuda --test gpu_emulated -- --nocapture 2>&1 \
    | tee "$out/tests.txt" || status=1
  cargo run --release -p mteval-kernels --example gpu_bench -- "$wmt" 2>&1 | tee "$out/bench.txt" || status=1
  cargo build --release && MTEVAL_BIN=target/release/mteval bash scripts/gpu-cli-check.sh "$wmt" 2>&1 |
    tee "$out/cli.txt" || status=1
  bash scripts/gpu-score-scale.sh target/release/mteval "$wmt" 2>&1 | tee "$out/score-scale.txt" || status=1
  GPU_CHECK_DEVICE=auto MTEVAL_BIN=target/release/mteval bash scripts/gpu-cli-check.sh "$wmt" 2>&1 |
    tee "$out/cli-auto.txt" || status=1
fi
exit "$status"
