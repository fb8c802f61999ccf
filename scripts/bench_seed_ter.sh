#!/usr/bin/env bash
# Times TER with `algo:seed` on one row of N words (N = 100, 150, 200, 250 by
# default): the reference is N random words over a vocabulary of N, the
# hypothesis the same words shuffled (the seed's worst case: many rounds,
# many candidate blocks). Prints the score and the wall time per N, to pick
# and check the seed's `max_words` default (200).
#
# Usage: scripts/bench_seed_ter.sh [N...]   (needs a release build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${MTEVAL_BIN:-$root/target/release/mteval}"
[[ -x "$bin" ]] || { echo "build first: cargo build --release" >&2; exit 2; }
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(100 150 200 250)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in "${sizes[@]}"; do
    # awk's rand() with a fixed seed: the same row on every run of one awk.
    awk -v n="$n" 'BEGIN {
        srand(7)
        for (i = 0; i < n; i++) { r[i] = "w" int(rand() * n); h[i] = r[i] }
        for (i = n - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = h[i]; h[i] = h[j]; h[j] = t }
        printf "SELECT ter(\x27"; for (i = 0; i < n; i++) printf "%s%s", (i ? " " : ""), h[i]
        printf "\x27, \x27"; for (i = 0; i < n; i++) printf "%s%s", (i ? " " : ""), r[i]
        printf "\x27, \x27algo:seed|max_words:none\x27) AS ter;\n"
    }' >"$tmp/q.sql"
    start=$(date +%s%N)
    score=$("$bin" sql --device cpu --format csv -f "$tmp/q.sql" 2>/dev/null | tail -1)
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    printf 'n=%-5s seed TER %-20s %d.%03d s\n' "$n" "$score" $((ms / 1000)) $((ms % 1000))
done
