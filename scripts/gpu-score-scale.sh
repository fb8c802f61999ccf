#!/usr/bin/env bash
# Whole `mteval score` processes on 1,000,000 rows (the shared WMT rows
# repeated, as Parquet) with --device cpu, cuda and auto: TER, chrF and
# CharacTER per system. Prints the seconds and checks that the outputs are
# equal; with GPU_BENCH_JSON set, appends each device's time to it as JSON
# lines (workload "mteval score 1M rows").
#
#   scripts/gpu-score-scale.sh MTEVAL_BIN WMT_DIR [ROWS]
set -uo pipefail
bin="${1:?MTEVAL_BIN}"
wmt="${2:?WMT_DIR}"
rows="${3:-1000000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The shared rows (mbr_groups.jsonl aside), repeated up to `rows`.
"$bin" --device cpu sql -c "COPY (SELECT hyp, ref, system FROM (
    SELECT hyp, ref, system FROM '$wmt/en-de.jsonl' UNION ALL SELECT hyp, ref, system FROM '$wmt/de-en.jsonl'
    UNION ALL SELECT hyp, ref, system FROM '$wmt/zh-en.jsonl' UNION ALL SELECT hyp, ref, system FROM '$wmt/en-zh.jsonl'
    UNION ALL SELECT hyp, ref, system FROM '$wmt/en-ja.jsonl') CROSS JOIN generate_series(1, $((rows / 7500 + 1))) LIMIT $rows)
  TO '$work/rows.parquet'" >/dev/null || { echo "FAIL: building the rows"; exit 1; }
fail=0
declare -A secs
for d in cpu cuda auto; do
  t0=$EPOCHREALTIME
  if ! "$bin" --device "$d" score "$work/rows.parquet" -m ter chrf characTER --group-by system --json \
    -o "$work/out.$d.parquet" >"$work/$d.out" 2>"$work/$d.err"; then
    echo "FAIL: score on $d: $(tail -3 "$work/$d.err")"
    fail=1
    continue
  fi
  secs[$d]=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
  echo "mteval score, $rows rows, --device $d: ${secs[$d]} s"
  if [ "$d" != cpu ] && ! { cmp -s "$work/cpu.out" "$work/$d.out" && cmp -s "$work/out.cpu.parquet" "$work/out.$d.parquet"; }; then
    echo "FAIL: score on $d differs from cpu"
    fail=1
  fi
done
if [ -n "${GPU_BENCH_JSON:-}" ] && [ -n "${secs[cpu]:-}" ]; then
  for d in cuda auto; do
    [ -n "${secs[$d]:-}" ] || continue
    python3 -c '
import json, sys
dev, date, d, rows, c, g = sys.argv[1:]
print(json.dumps({"device": dev, "date": date, "workload": "mteval score 1M rows (ter, chrf, characTER), --device " + d,
                  "rows": int(rows), "cpu_s": float(c), "gpu_s": float(g), "ratio": float(c) / float(g)}))
' "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || echo none)" "${GPU_BENCH_DATE:-}" \
      "$d" "$rows" "${secs[cpu]}" "${secs[$d]}" >>"$GPU_BENCH_JSON"
  done
fi
exit "$fail"
