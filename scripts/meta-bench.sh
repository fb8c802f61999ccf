#!/usr/bin/env bash
# mteval meta against mt-metrics-eval on a WMT-sized test set: 15 systems x
# 1,500 segments x 10 metrics (scripts/meta_random_table.py), WMT23's four
# tasks one at a time. Each task runs in both at the same resampling count
# (the reference's run is long, so its count is smaller for the segment-level
# tasks: REF_K_SEG, REF_K_TIE), their rankings are compared (order, ranks,
# p-values, draws), and the times printed with their ratio; mteval is also
# timed at k = 1000, mt-metrics-eval's default, with the reference's time
# for it scaled from its run (no early stopping: the work is linear in k).
# mteval's time is the whole process (reading the table included); the
# reference's is its CompareMetrics call alone. The permutation tests' share
# is each side's time less its run at k = 0 (correlations only).
#
#   cargo build --release && MTME_DIR=/tmp/mtme-repo scripts/meta-bench.sh
#   (the reference's set-up is in scripts/_meta_env.sh)
set -euo pipefail
# shellcheck source=scripts/_meta_env.sh
source "$(dirname "$0")/_meta_env.sh"
REF_K_SYS=${REF_K_SYS:-1000}
REF_K_SEG=${REF_K_SEG:-50}
REF_K_TIE=${REF_K_TIE:-10}
"$PY" scripts/meta_random_table.py 20261127 15 1500 10 > "$WORK/t.csv"
echo "machine: $(nproc) cores; 15 systems x 1500 segments x 10 metrics (45 pairs of metrics per task)"
now() { date +%s.%N; }
printf '%-44s %5s %10s %9s %10s %9s %11s %9s\n' task ref-k "ref (k)" "ref (k=0)" "mteval" "(k=0)" "perm tests" "whole"
for spec in "acc|--corr accuracy --level sys|$REF_K_SYS" \
            "sys|--corr pearson --level sys|$REF_K_SYS" \
            "seg|--corr pearson|$REF_K_SEG" \
            "tie|--corr ties-opt --average-by item --perm-test pairs|$REF_K_TIE"; do
  IFS='|' read -r task flags k <<< "$spec"
  "$PY" scripts/meta_reference.py "$WORK/t.csv" -k 0 --tasks "$task" > "$WORK/ref0.json"
  "$PY" scripts/meta_reference.py "$WORK/t.csv" -k "$k" --tasks "$task" > "$WORK/ref.json"
  # shellcheck disable=SC2086
  "$MTEVAL" meta "$WORK/t.csv" --segment-col seg_id $flags -k "$k" --json > "$WORK/mine.json"
  python3 scripts/meta_compare_json.py "$WORK/mine.json" "$WORK/ref.json" > "$WORK/cmp.txt" || { cat "$WORK/cmp.txt"; exit 1; }
  # shellcheck disable=SC2086
  t0=$(now); "$MTEVAL" meta "$WORK/t.csv" --segment-col seg_id $flags -k 0 --json > /dev/null; t1=$(now)
  # shellcheck disable=SC2086
  t2=$(now); "$MTEVAL" meta "$WORK/t.csv" --segment-col seg_id $flags -k 1000 --json > /dev/null; t3=$(now)
  python3 - "$task" "$k" "$WORK/ref.json" "$WORK/ref0.json" "$t0" "$t1" "$t2" "$t3" <<'PYEOF'
import json, sys
task, k = sys.argv[1], int(sys.argv[2])
ref, ref0 = (json.load(open(p))["seconds"][0] for p in sys.argv[3:5])
t0, t1, t2, t3 = map(float, sys.argv[5:9])
names = {"acc": "sys pairwise accuracy", "sys": "sys Pearson", "seg": "seg Pearson (no averaging)",
         "tie": "seg acc23 tie calibration, by item, pairs test"}
mine0, mine = t1 - t0, t3 - t2
# The reference's permutation tests at k = 1000, scaled from its run at k.
ref_perm = (ref - ref0) * 1000 / k
print(f"{names[task]:<44} {k:>5} {ref:>9.2f}s {ref0:>8.2f}s {mine:>9.2f}s {mine0:>8.2f}s "
      f"{ref_perm / max(mine - mine0, 1e-3):>10.0f}x {(ref0 + ref_perm) / mine:>8.0f}x")
PYEOF
done
echo "ref: mt-metrics-eval's CompareMetrics call at ref-k and at k=0; mteval: the whole process at k=1000 and k=0"
echo "perm tests: the reference's permutation tests scaled to k=1000 over mteval's (each less its k=0 run)"
echo "whole: the reference scaled to k=1000 over mteval's whole process at k=1000"
echo "rankings equal to the reference's in every task at ref-k (order, ranks, p-values, draws)"
