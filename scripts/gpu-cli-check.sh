#!/usr/bin/env bash
# The application end to end on the GPU and on the CPU, outputs compared
# byte for byte: `mteval score` (every metric, grouped, Parquet out),
# `mteval mbr`, and SQL with `SET mteval.device` (scalar, aggregate and
# window functions). Run by scripts/gpu-bench.sh on a GPU machine; on a
# machine without one, `--device cuda` must fail cleanly, which is checked
# instead.
#
#   MTEVAL_BIN=target/release/mteval scripts/gpu-cli-check.sh WMT_DIR
#
# GPU_CHECK_DEVICE=auto compares cpu with auto instead of cuda (a dry run of
# the comparisons on a machine without a GPU).
set -uo pipefail
bin="${MTEVAL_BIN:-target/release/mteval}"
wmt="${1:?WMT_DIR}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail=0

# Every WMT row, one JSON-lines table (hyp, ref, ref2, system, seg_id, pair).
python3 - "$wmt" "$work/rows.jsonl" <<'PY'
import glob, json, os, sys
with open(sys.argv[2], "w") as out:
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.jsonl"))):
        pair = os.path.basename(path)[: -len(".jsonl")]
        for line in open(path):
            row = json.loads(line)
            row["pair"] = pair
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
PY

gpu="${GPU_CHECK_DEVICE:-cuda}"
have_gpu=1
if ! "$bin" --device "$gpu" sql -c "SELECT 1" >/dev/null 2>"$work/probe.txt"; then
  have_gpu=0
  echo "no usable GPU: $(tail -1 "$work/probe.txt")"
  grep -q "device 'cuda' was requested but" "$work/probe.txt" || { echo "FAIL: unclear error without a GPU"; fail=1; }
fi

# run NAME ARGS...: the same command on each device; outputs must be equal.
run() {
  local name="$1"
  shift
  local d
  for d in cpu "$gpu"; do
    [ "$d" = "$gpu" ] && [ "$have_gpu" = 0 ] && continue
    local t0=$EPOCHREALTIME
    if ! "$bin" --device "$d" "$@" >"$work/$name.$d.out" 2>"$work/$name.$d.err"; then
      echo "FAIL: $name on $d: $(tail -3 "$work/$name.$d.err")"
      fail=1
      return
    fi
    for f in "$work"/out.*; do [ -e "$f" ] && mv "$f" "$work/$name.$d.${f##*.}"; done
    awk -v n="$name" -v d="$d" -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%-10s %-5s %6.2f s\n", n, d, b - a }'
  done
  [ "$have_gpu" = 0 ] && return
  local f
  for f in "$work/$name".cpu.*; do
    [ "${f##*.}" = err ] && continue # messages name the device
    if ! cmp -s "$f" "${f/.cpu./.$gpu.}"; then
      echo "FAIL: $name: ${f##*/} differs between cpu and $gpu"
      fail=1
    fi
  done
}

run score score "$work/rows.jsonl" -m ter chrf chrf++ characTER --ref-col ref --ref-col ref2 \
  --group-by pair --json -o "$work/out.parquet"
run score_norm score "$work/rows.jsonl" -m ter --options 'norm:yes|asian:yes' --group-by system --json
run mbr mbr "$work/rows.jsonl" --group-by pair --group-by seg_id -o "$work/out.jsonl"
run mbr_ter mbr "$work/rows.jsonl" --group-by pair --group-by seg_id --utility ter -o "$work/out.jsonl"
run sql sql --format csv -c "SELECT pair, system, corpus_ter(hyp, [ref, ref2]) AS ter, corpus_chrf(hyp, ref, 'nw:2') AS chrfpp,
  sum(edit_distance(hyp, ref)) AS ed, sum(ter(hyp, ref)) AS sum_ter
  FROM '$work/rows.jsonl' GROUP BY pair, system ORDER BY pair, system"
run sql_window sql --format csv -c "SELECT pair, seg_id, system, mbr_chrf(hyp) OVER (PARTITION BY pair, seg_id) AS u,
  mbr_chrf_aggregate(hyp, ref) OVER (PARTITION BY pair, seg_id) AS a
  FROM '$work/rows.jsonl' ORDER BY pair, seg_id, system"
# The session setting, against the CLI flag.
if [ "$have_gpu" = 1 ]; then
  q="SELECT sum(ter(hyp, ref)) AS t, sum(chrf(hyp, ref)) AS c FROM '$work/rows.jsonl'"
  a="$("$bin" --device cpu sql --format csv -c "$q" 2>"$work/set.cpu.err")"
  b="$("$bin" sql --format csv -c "SET mteval.device = '$gpu'; $q" 2>"$work/set.gpu.err")"
  if [ "$a" = "$b" ]; then echo "SET mteval.device = '$gpu': same as cpu"; else echo "FAIL: SET mteval.device: $a vs $b"; fail=1; fi
fi
# Forced faults (with cuda, which sends every batch to the GPU): every
# kernel launch fails (MTEVAL_GPU_FAULT='*'); the job
# still ends with the CPU's bytes, and says on stderr that batches were
# recomputed on the CPU.
if [ "$have_gpu" = 1 ] && [ "$gpu" = cuda ]; then
  if MTEVAL_GPU_FAULT='*' "$bin" --device "$gpu" score "$work/rows.jsonl" -m ter chrf chrf++ characTER --ref-col ref \
    --ref-col ref2 --group-by pair --json -o "$work/fault.parquet" >"$work/fault.out" 2>"$work/fault.err" &&
    cmp -s "$work/fault.parquet" "$work/score.cpu.parquet" && cmp -s "$work/fault.out" "$work/score.cpu.out" &&
    grep -q "recomputing this batch on the CPU" "$work/fault.err"; then
    echo "MTEVAL_GPU_FAULT='*': same bytes as cpu; stderr: $(grep -m1 'on the CPU' "$work/fault.err")"
  else
    echo "FAIL: forced kernel faults: $(tail -3 "$work/fault.err")"
    fail=1
  fi
fi
[ "$fail" = 0 ] && echo "gpu-cli-check: all outputs equal (gpu: $have_gpu)"
exit "$fail"
