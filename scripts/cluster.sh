#!/usr/bin/env bash
# A real Ballista cluster on 127.0.0.1 (issue 41): a scheduler and one or two
# executors started from this binary as processes, each executor pinned to one
# core (taskset), so that a 2-core machine shows what an added machine buys.
#
#  1. builds a ROWS-row Parquet dataset in 8 files (the shared WMT rows,
#     repeated and perturbed as scripts/scale.sh does);
#  2. scores it locally: `score DIR METRICS --group-by pair -o local.parquet`;
#  3. scores it on the cluster with one executor, then with two:
#     `score DIR --partitions 8 --cluster df://... -o cluster-E.parquet`;
#  4. scores it on two executors and SIGKILLs one of them KILL_AFTER seconds
#     into the job;
# and checks that every run's scored rows and corpus scores equal the local
# run's, byte for byte, printing the wall times.
#
# Usage: scripts/cluster.sh [ROWS]               (default: 1000000)
# Env:   METRICS="-m chrf -m ter"                 metrics of the score job
#        WORK=/tmp/mteval-cluster                 where the dataset and outputs go
#        KILL_AFTER=                              seconds before the kill (default: a third
#                                                 of the two-executor run's time)
#        MTEVAL=target/release/mteval
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED="${MTEVAL_SHARED_DIR:-../shared}"
MTEVAL="${MTEVAL:-target/release/mteval}"
WORK="${WORK:-/tmp/mteval-cluster}"
METRICS="${METRICS:--m chrf -m ter}"
ROWS="${1:-1000000}"
FILES=8
[ -x "$MTEVAL" ] || cargo build --release
mkdir -p "$WORK"

PIDS=()
stop_all() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  PIDS=()
}
trap stop_all EXIT

# shellcheck source=scripts/_wmt_rows.sh
. scripts/_wmt_rows.sh

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The dataset: FILES files of whole repetitions of the 7,500 shared rows.
DATA="$WORK/rows-$ROWS"
if [ ! -f "$DATA/part-$((FILES - 1)).parquet" ]; then
  mkdir -p "$DATA"
  per=$(( (ROWS + 7500 * FILES - 1) / (7500 * FILES) ))
  for k in $(seq 0 $((FILES - 1))); do
    wmt_rows $(( k * per + 1 )) $(( (k + 1) * per )) "$DATA/part-$k.parquet"
  done
fi
TOTAL=$("$MTEVAL" sql --format csv -c "SELECT count(*) AS n FROM '$DATA/'" | tail -1)

SCHED=""
start_cluster() { # executors
  local port
  port=$(free_port)
  SCHED="df://127.0.0.1:$port"
  taskset -c 0 "$MTEVAL" scheduler --bind "127.0.0.1:$port" >"$WORK/scheduler.log" 2>&1 &
  PIDS+=($!)
  for i in $(seq 1 "$1"); do
    taskset -c $(( (i - 1) % $(nproc) )) "$MTEVAL" executor --scheduler "127.0.0.1:$port" \
      --bind "127.0.0.1:$(free_port)" --grpc-bind "127.0.0.1:$(free_port)" --concurrent-tasks 1 \
      >"$WORK/executor-$i.log" 2>&1 &
    PIDS+=($!)
  done
  # Until every executor is registered (the status's first line counts them).
  for _ in $(seq 1 120); do
    if "$MTEVAL" cluster status "$SCHED" 2>/dev/null | head -1 | grep -q ": $1 executor"; then return; fi
    sleep 0.25
  done
  echo "the executors did not register within 30 s" >&2
  exit 1
}

# Seconds of wall time of a command (its output to $WORK/last.out; its own
# CPU seconds, user + system, to $WORK/last.cpu).
timed() {
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -o "$WORK/last.time" -f "%U %S" "$@" >"$WORK/last.out" 2>"$WORK/last.err" \
    || { cat "$WORK/last.err" >&2; exit 1; }
  t1=$(date +%s.%N)
  awk '{ print $1 + $2 }' "$WORK/last.time" >"$WORK/last.cpu"
  echo "$t1 - $t0" | bc -l
}

# The scored rows of a Parquet file as CSV, in file order, hashed.
rows_hash() { "$MTEVAL" sql --format csv -c "SELECT * FROM '$1'" | sha256sum | cut -c1-16; }

same_as_local() { # label parquet json
  local h
  h=$(rows_hash "$2")
  if [ "$h" != "$LOCAL_ROWS" ] || ! cmp -s "$3" "$WORK/local.json"; then
    echo "$1: the output differs from the local run's" >&2
    exit 1
  fi
}

echo "machine: $(nproc) cores; $TOTAL rows in $FILES files; metrics: $METRICS"
# shellcheck disable=SC2086
t=$(timed "$MTEVAL" score "$DATA" $METRICS --group-by pair --json -o "$WORK/local.parquet")
cp "$WORK/last.out" "$WORK/local.json"
LOCAL_ROWS=$(rows_hash "$WORK/local.parquet")
printf '%-44s %7.1f s\n' "local, one process" "$t"

declare -A WALL
for e in 1 2; do
  start_cluster "$e"
  # shellcheck disable=SC2086
  t=$(timed "$MTEVAL" score "$DATA" $METRICS --group-by pair --json --partitions $FILES --cluster "$SCHED" \
    -o "$WORK/cluster-$e.parquet")
  cp "$WORK/last.out" "$WORK/cluster-$e.json"
  same_as_local "cluster, $e executor(s)" "$WORK/cluster-$e.parquet" "$WORK/cluster-$e.json"
  WALL[$e]=$t
  printf '%-44s %7.1f s   (output equal to the local run; client CPU %.1f s)\n' \
    "cluster, $e executor(s) of one core" "$t" "$(cat "$WORK/last.cpu")"
  stop_all
done
printf '%-44s %7.2f x\n' "two executors over one" "$(echo "${WALL[1]} / ${WALL[2]}" | bc -l)"

# One of two executors SIGKILLed mid-job: the scheduler notices it within its
# executor timeout and reruns its partitions on the other.
start_cluster 2
victim=${PIDS[2]}
after="${KILL_AFTER:-$(echo "${WALL[2]} / 3" | bc -l)}"
t0=$(date +%s.%N)
# shellcheck disable=SC2086
"$MTEVAL" score "$DATA" $METRICS --group-by pair --json --partitions $FILES --cluster "$SCHED" \
  -o "$WORK/killed.parquet" >"$WORK/killed.json" 2>"$WORK/killed.err" &
job=$!
sleep "$after"
kill -9 "$victim"
{ wait "$victim"; } 2>/dev/null || true
wait "$job" || { cat "$WORK/killed.err" >&2; exit 1; }
t=$(echo "$(date +%s.%N) - $t0" | bc -l)
same_as_local "executor killed" "$WORK/killed.parquet" "$WORK/killed.json"
printf '%-44s %7.1f s   (output equal to the local run)\n' "2 executors, one SIGKILLed after $(printf '%.0f' "$after") s" "$t"
