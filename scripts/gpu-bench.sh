#!/usr/bin/env bash
# One call on the GPU machine: build, run the GPU tests (CPU-vs-GPU parity,
# NVRTC compile) and the CPU-vs-GPU benchmark, and print the table with the
# device name. Results go to $OUT (the device tool's output folder) or
# target/gpu-bench.
#
#   scripts/gpu-bench.sh [WMT_DIR]     (default: $MTEVAL_SHARED_DIR/data/wmt or ../shared/data/wmt)
#
# NVRTC is looked for in the CUDA toolkit, then in a pip wheel
# (nvidia-cuda-nvrtc-cu12) under $NVRTC_DIR, ./.nvrtc or the Python path.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-target/gpu-bench}"
mkdir -p "$out"
shared="${MTEVAL_SHARED_DIR:-../shared}"
wmt="${1:-$shared/data/wmt}"

{ nvidia-smi || echo "nvidia-smi: not found"; } 2>&1 | tee "$out/nvidia-smi.txt"

if ! ldconfig -p 2>/dev/null | grep -q 'libnvrtc.so.12 '; then
  for d in "${NVRTC_DIR:-}" .nvrtc/nvidia/cuda_nvrtc/lib /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
    "$(python3 -c 'import nvidia.cuda_nvrtc as m, os; print(os.path.join(list(m.__path__)[0], "lib"))' 2>/dev/null || true)"; do
    if [ -n "$d" ] && [ -e "$d/libnvrtc.so.12" ]; then
      export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      echo "NVRTC: $d"
      break
    fi
  done
fi

export MTEVAL_REQUIRE_GPU=1 MTEVAL_REQUIRE_NVRTC=1 MTEVAL_SHARED_DIR="$shared"
cargo test --release -p mteval-kernels --test gpu_cuda --test gpu_emulated -- --nocapture 2>&1 | tee "$out/tests.txt"
cargo run --release -p mteval-kernels --example gpu_bench -- "$wmt" 2>&1 | tee "$out/bench.txt"
