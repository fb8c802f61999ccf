#!/usr/bin/env bash
# Corpus-scale runs with peak memory (issue 6): generates N-row Parquet inputs
# by repeating and perturbing the shared WMT rows (with mteval's own SQL, so no
# Python is needed), then runs the streaming jobs under /usr/bin/time -v and
# prints wall time, rows/s and peak RSS.
#
# Usage: scripts/scale.sh [ROWS...]            (default: 1000000 10000000)
# Env:   METRICS="-m ter -m chrf -m characTER"  metrics of the score job
#        WORK=/tmp/mteval-scale                  where inputs/outputs go (~90 bytes/row of Parquet)
#        SQL=1                                   also run a GROUP BY aggregate through `mteval sql`
#        MTEVAL=target/release/mteval
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED="${MTEVAL_SHARED_DIR:-../shared}"
MTEVAL="${MTEVAL:-target/release/mteval}"
WORK="${WORK:-/tmp/mteval-scale}"
METRICS="${METRICS:--m ter -m chrf -m characTER}"
mkdir -p "$WORK"
[ -x "$MTEVAL" ] || cargo build --release
ROWS=("$@")
[ ${#ROWS[@]} -gt 0 ] || ROWS=(1000000 10000000)

# shellcheck source=scripts/_wmt_rows.sh
. scripts/_wmt_rows.sh

measure() { # label rows command...
  local label=$1 rows=$2; shift 2
  local log="$WORK/time.log"
  /usr/bin/time -v "$@" >"$WORK/stdout.log" 2>"$log" || { cat "$log" >&2; exit 1; }
  local wall rss
  wall=$(grep "Elapsed (wall clock)" "$log" | awk '{print $NF}' | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  rss=$(grep "Maximum resident set size" "$log" | awk '{print $NF}')
  printf '%-34s %11s rows %9.1f s %10.0f rows/s   peak RSS %6.0f MB\n' \
    "$label" "$rows" "$wall" "$(echo "$rows / $wall" | bc -l)" "$(echo "$rss / 1024" | bc -l)"
}

echo "machine: $(nproc) cores, $(grep MemTotal /proc/meminfo | awk '{printf "%.0f GB", $2/1048576}'); metrics: $METRICS"
for n in "${ROWS[@]}"; do
  IN="$WORK/rows-$n.parquet"
  if [ ! -f "$IN" ]; then
    reps=$(( (n + 7499) / 7500 ))
    wmt_rows 1 "$reps" "$IN" "$n"
  fi
  # shellcheck disable=SC2086
  measure "score $METRICS" "$n" "$MTEVAL" score "$IN" $METRICS --group-by pair -o "$WORK/scored-$n.parquet"
  if [ "${SQL:-0}" = 1 ]; then
    measure "sql GROUP BY corpus_ter/chrf" "$n" "$MTEVAL" sql --memory-limit 512M -c \
      "SELECT pair, corpus_ter(hyp, ref) AS ter, corpus_chrf(hyp, ref) AS chrf FROM '$IN' GROUP BY pair ORDER BY pair"
  fi
  rm -f "$WORK/scored-$n.parquet"
done
