#!/usr/bin/env bash
# Differential test of `mteval meta` against mt-metrics-eval on fresh random
# tables: N cases (default 6) of random shape, resampling count and block
# size (early stopping), each run through WMT23's four tasks by both, then
# compared: metric order, ranks, every p-value and draw count equal,
# correlations to 1e-12 (BLAS). A new seed each run unless SEED is given.
#
#   cargo build --release && MTME_DIR=/tmp/mtme-repo scripts/meta-diff.sh
#   (the reference's set-up is in scripts/_meta_env.sh)
set -euo pipefail
# shellcheck source=scripts/_meta_env.sh
source "$(dirname "$0")/_meta_env.sh"
N=${N:-6}
SEED=${SEED:-$(date +%s)}
echo "seed $SEED, $N cases"
fail=0
for i in $(seq 1 "$N"); do
  read -r nsys nseg nmet k block seed < <("$PY" -c "
import random; r = random.Random($SEED * 100 + $i)
print(r.randint(3, 12), r.randint(4, 30), r.randint(2, 6), r.randint(20, 250), r.choice([1000, 50, 25]), r.randint(0, 2**32 - 1))")
  "$PY" scripts/meta_random_table.py "$((SEED * 100 + i))" "$nsys" "$nseg" "$nmet" > "$WORK/t.csv"
  "$MTEVAL" meta "$WORK/t.csv" --segment-col seg_id -k "$k" --block-size "$block" --seed "$seed" --json > "$WORK/mine.json"
  "$PY" scripts/meta_reference.py "$WORK/t.csv" -k "$k" --block-size "$block" --seed "$seed" > "$WORK/ref.json"
  echo -n "case $i: $nsys systems x $nseg segments x $nmet metrics, k=$k, block $block, seed $seed: "
  python3 scripts/meta_compare_json.py "$WORK/mine.json" "$WORK/ref.json" || fail=1
done
exit $fail
