#!/usr/bin/env bash
# Builds, on a machine with cargo, what scripts/gpu-bench.sh runs on a GPU
# machine that has no Rust toolchain and no network: the kernels' GPU test
# binaries (gpu_cuda, gpu_emulated), the gpu_bench example, the mteval
# binary, and a copy of the WMT rows they read, all in .gpu-bundle/
# (git-ignored). Then, with the
# device tool: carry [".gpu-bundle"], command "bash scripts/gpu-bench.sh".
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${MTEVAL_SHARED_DIR:-../shared}"
b=.gpu-bundle
rm -rf "$b"
mkdir -p "$b/bin" "$b/shared/data/wmt"
cargo build --release -p mteval-kernels --example gpu_bench
cp target/release/examples/gpu_bench "$b/bin/"
cargo test --release -p mteval-kernels --test gpu_cuda --test gpu_emulated --no-run --message-format=json \
  | python3 -c '
import json, shutil, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] in ("gpu_cuda", "gpu_emulated"):
        shutil.copy(m["executable"], sys.argv[1] + "/" + m["target"]["name"])
' "$b/bin"
# The application, for the end-to-end device checks of gpu-bench.sh
# (stripped and xz-compressed: about 24 MB, within the device tool's carry
# limit; gpu-bench.sh unpacks it with Python's lzma when xz is missing).
cargo build --release
strip -o "$b/bin/mteval" target/release/mteval
xz -T2 -6 "$b/bin/mteval"
for t in gpu_cuda gpu_emulated gpu_bench; do
  [ -x "$b/bin/$t" ] || { echo "gpu-bundle: $t was not built" >&2; exit 1; }
done
cp "$shared"/data/wmt/*.jsonl "$b/shared/data/wmt/"
echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- kernels || echo '+local changes') $(date -u +%FT%TZ)" >"$b/bin/BUILT"
du -sh "$b"
