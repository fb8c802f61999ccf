#!/usr/bin/env bash
# Fuzz the mteval-kernels crate with cargo-fuzz (libFuzzer).
#
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#   SECONDS_PER_TARGET  how long each target runs (default 300)
#   TARGET...           targets to run (default: all of `cargo fuzz list`:
#                       charac_ter chrf levenshtein options ter terms tokenize)
#
# Builds the targets in fuzz/ (optimised, with debug assertions and overflow
# checks), then runs them one after the other, each on a scratch copy of its
# hand-written seeds (fuzz/seeds/<target>/), so the repository never grows.
# Prints per target the runs executed, the coverage reached and whether it
# found anything; exits 1 if any target crashed, leaked memory or timed out.
# Reproducers land in fuzz/artifacts/<target>/ (ignored by git); replay one
# with  $CARGO_TARGET_DIR/<host>/release/<target> <file>.
#
# Only a stable toolchain is needed: cargo-fuzz's nightly flags are allowed
# through RUSTC_BOOTSTRAP=1. cargo-fuzz is installed when missing.
#
# Environment:
#   CARGO_TARGET_DIR    build directory (default fuzz/target)
#   CARGO_BUILD_JOBS    parallel rustc jobs for the build (cargo's own variable)
#   FUZZ_SANITIZER      none (default: the kernels forbid unsafe code, so the
#                       2x cost of ASan buys little) | address | leak | ...
#   FUZZ_CORPUS_DIR     keep the grown corpora here instead of a temp dir
#   FUZZ_MAX_LEN        libFuzzer -max_len (default 4096)
#   FUZZ_ARGS           extra libFuzzer arguments, e.g. "-jobs=2 -workers=2"
#   RAYON_NUM_THREADS   threads for the chrF group functions (default 1)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fuzz_dir="$root/fuzz"
secs="${1:-300}"
if [[ $# -gt 0 ]]; then shift; fi
if ! [[ "$secs" =~ ^[0-9]+$ ]] || [[ "$secs" -eq 0 ]]; then
    echo "usage: $0 [SECONDS_PER_TARGET] [TARGET...]" >&2
    exit 2
fi

export RUSTC_BOOTSTRAP=1
export RAYON_NUM_THREADS="${RAYON_NUM_THREADS:-1}"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
target_dir="${CARGO_TARGET_DIR:-$fuzz_dir/target}"
sanitizer="${FUZZ_SANITIZER:-none}"
max_len="${FUZZ_MAX_LEN:-4096}"

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi

cd "$root"
all_targets=$(cargo fuzz list --fuzz-dir "$fuzz_dir")
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    mapfile -t targets <<<"$all_targets"
fi
for t in "${targets[@]}"; do
    if ! grep -qx "$t" <<<"$all_targets"; then
        echo "unknown target '$t' (known: $(echo $all_targets))" >&2
        exit 2
    fi
done

echo "== building ${targets[*]} (sanitizer: $sanitizer, target dir: $target_dir)"
start=$(date +%s)
cargo fuzz build --fuzz-dir "$fuzz_dir" --release --debug-assertions --sanitizer "$sanitizer" \
    --target-dir "$target_dir"
echo "== build took $(( $(date +%s) - start )) s"

host=$(rustc -vV | sed -n 's/^host: //p')
bin_dir="$target_dir/$host/release"
if [[ -n "${FUZZ_CORPUS_DIR:-}" ]]; then
    corpus_root="$FUZZ_CORPUS_DIR"
    mkdir -p "$corpus_root"
else
    corpus_root=$(mktemp -d "${TMPDIR:-/tmp}/mteval-fuzz.XXXXXX")
    trap 'rm -rf "$corpus_root"' EXIT
fi

failed=()
summary=()
for t in "${targets[@]}"; do
    corpus="$corpus_root/$t"
    artifacts="$fuzz_dir/artifacts/$t"
    mkdir -p "$corpus" "$artifacts"
    if [[ -d "$fuzz_dir/seeds/$t" ]]; then
        cp -n "$fuzz_dir/seeds/$t"/* "$corpus"/ 2>/dev/null || true
    fi
    log="$corpus_root/$t.log"
    before=$(find "$artifacts" -type f | wc -l)
    echo "== fuzzing $t for ${secs}s (log: $log)"
    set +e
    # shellcheck disable=SC2086
    "$bin_dir/$t" "$corpus" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$artifacts/" \
        ${FUZZ_ARGS:-} >"$log" 2>&1
    rc=$?
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*/[0-9a-zA-Z]*' "$log" | tail -1)
    after=$(find "$artifacts" -type f | wc -l)
    if [[ $rc -eq 0 && $after -eq $before ]]; then
        result="ok"
    else
        what=$(grep -m1 -A1 'panicked at' "$log" | tr '\n' ' ' || true)
        [[ -n "$what" ]] || what=$(grep -o -m1 'ERROR: libFuzzer: .*' "$log" || true)
        result="FOUND SOMETHING (exit $rc): $what"
        result+=$'\n'"      reproducer: $(sed -n 's/^.*Test unit written to //p' "$log" | tail -1)"
        failed+=("$t")
        cp "$log" "$artifacts/last-failure.log"
    fi
    line="$(printf '%-12s runs: %-10s %s\n      %s' "$t" "${runs:-?}" "${cov:-cov: ?}" "$result")"
    summary+=("$line")
    echo "$line"
done

echo
echo "== summary (${secs}s per target)"
printf '%s\n' "${summary[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "== targets that found something: ${failed[*]} (see fuzz/artifacts/)"
    exit 1
fi
echo "== no crashes"
