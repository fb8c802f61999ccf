#!/usr/bin/env bash
# Differential test of `mteval meta` against mt-metrics-eval on fresh random
# tables: N cases (default 6) of random shape, resampling count and block
# size (early stopping), each run through WMT23's four tasks by both, then
# compared: metric order, ranks, every p-value and draw count equal,
# correlations to 1e-14. A new seed each run unless SEED is given.
#
#   git clone https://github.com/google-research/mt-metrics-eval /tmp/mtme-repo && git -C /tmp/mtme-repo checkout 68a481a
#   python3 -m venv /tmp/metavenv && /tmp/metavenv/bin/pip install numpy==2.4.6 scipy==1.17.1 dacite==1.9.2
#   cargo build --release && MTME_DIR=/tmp/mtme-repo scripts/meta-diff.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${MTME_DIR:=/tmp/mtme-repo}"
export MTME_DIR
PY=${META_PY:-/tmp/metavenv/bin/python}
MTEVAL=${MTEVAL:-target/release/mteval}
N=${N:-6}
SEED=${SEED:-$(date +%s)}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
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
