#!/usr/bin/env bash
# mteval meta --tasks wmt25 against mt-metrics-eval's tasks.WMT25 at WMT25's scale: its 16
# language pairs, SYSTEMS systems x SEGMENTS segments x METRICS metrics each (synthetic, in the
# reference's layout; scripts/meta_taskset_bench.py). Both run the whole task set (soft pairwise
# accuracy and tie-calibrated acc-23 per pair, then the weighted average with its clusters) from
# np.random.seed(12345); the reference at REF_K resampling runs (its run is long) and at k = 0,
# mteval at REF_K (the final tables compared byte for byte), at k = 0 and at k = 1000. The
# reference's time at k = 1000 is scaled from its run (the permutation tests' share is linear
# in k up to early stopping, which only shortens it).
#
#   cargo build --release && MTME_DIR=/tmp/mtme-repo scripts/meta-taskset-bench.sh
#   (the reference's set-up is in scripts/_meta_env.sh)
set -euo pipefail
# shellcheck source=scripts/_meta_env.sh
source "$(dirname "$0")/_meta_env.sh"
SYSTEMS=${SYSTEMS:-12}
SEGMENTS=${SEGMENTS:-500}
METRICS=${METRICS:-10}
REF_K=${REF_K:-10}
ROOT="$WORK/root"
"$PY" scripts/meta_taskset_bench.py "$ROOT" "$SYSTEMS" "$SEGMENTS" "$METRICS" -1
echo "machine: $(nproc) cores; WMT25's 16 pairs x $SYSTEMS systems x $SEGMENTS segments x $METRICS metrics"
now() { date +%s.%N; }
"$PY" scripts/meta_taskset_bench.py "$ROOT" "$SYSTEMS" "$SEGMENTS" "$METRICS" 0 > "$WORK/ref0.json"
"$PY" scripts/meta_taskset_bench.py "$ROOT" "$SYSTEMS" "$SEGMENTS" "$METRICS" "$REF_K" > "$WORK/ref.json"
run() { "$MTEVAL" meta --mtme "$ROOT" --mtme-test-set wmt25 --mtme-lp all --tasks wmt25 --seed 12345 -k "$1"; }
run "$REF_K" > "$WORK/mine.txt"
python3 - "$WORK/ref.json" "$WORK/mine.txt" <<'PYEOF'
import json, sys
ref = json.load(open(sys.argv[1]))["table"]
mine = open(sys.argv[2]).read().split("\n\n")[0] + "\n"
if ref != mine:
    print("tables differ:\n" + ref + "\n" + mine)
    sys.exit(1)
PYEOF
t0=$(now); run 0 > /dev/null; t1=$(now)
t2=$(now); run 1000 > /dev/null; t3=$(now)
python3 - "$REF_K" "$WORK/ref.json" "$WORK/ref0.json" "$t0" "$t1" "$t2" "$t3" <<'PYEOF'
import json, sys
k = int(sys.argv[1])
ref, ref0 = (json.load(open(p))["seconds"] for p in sys.argv[2:4])
t0, t1, t2, t3 = map(float, sys.argv[4:8])
mine0, mine = t1 - t0, t3 - t2
ref1000 = ref0 + (ref - ref0) * 1000 / k
print(f"mt-metrics-eval: {ref0:.2f} s at k=0, {ref:.2f} s at k={k}, {ref1000:.0f} s at k=1000 (scaled)")
print(f"mteval:          {mine0:.2f} s at k=0, {mine:.2f} s at k=1000 (whole process)")
print(f"ratio at k=1000: {ref1000 / mine:.0f}x; at k=0: {ref0 / max(mine0, 1e-3):.0f}x")
print(f"final tables equal at k={k}")
PYEOF
