#!/usr/bin/env bash
# The Python package's tests: a venv with python/tests/requirements.txt, the wheel built by maturin
# from the workspace's compiled dependencies (same release profile and features as
# `cargo test --release --workspace`, so DataFusion is not compiled again), installed with pip, then
# pytest over python/tests.
#
# Usage: bash scripts/test-python.sh [pytest args...]
# Environment: MTEVAL_PYVENV (default target/pyvenv), MTEVAL_SHARED_DIR (default ../shared).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${MTEVAL_PYVENV:-target/pyvenv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
VENV="$(cd "$VENV" && pwd)"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r python/tests/requirements.txt
rm -rf target/wheels
"$VENV/bin/maturin" build --release --manifest-path python/Cargo.toml --interpreter "$VENV/bin/python" \
  --out target/wheels
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps target/wheels/mteval-*.whl
export MTEVAL_SHARED_DIR="${MTEVAL_SHARED_DIR:-$(cd .. && pwd)/shared}"
ROOT="$(pwd)"
# jiwer 4.0.0's own tests, from its published source distribution (never copied into the repo), run
# against mteval.jiwer: python/tests/shims/jiwer_is_mteval.py makes `import jiwer` give mteval.jiwer.
# Every test file but test_speed.py (pytest-benchmark timings, not results).
JIWER_SRC="$ROOT/target/jiwer-sdist"
if [ ! -d "$JIWER_SRC/jiwer-4.0.0/tests" ]; then
  rm -rf "$JIWER_SRC" && mkdir -p "$JIWER_SRC"
  "$VENV/bin/python" -m pip download --quiet --disable-pip-version-check --no-binary :all: --no-deps \
    --dest "$JIWER_SRC" jiwer==4.0.0
  tar -xzf "$JIWER_SRC/jiwer-4.0.0.tar.gz" -C "$JIWER_SRC"
fi
# comet-compare's statistics, the reference of mteval.comet_compare: compare.py from unbabel-comet 2.2.7's
# published wheel (never copied into the repo), loaded by scripts/comet_reference.py.
COMET_SRC="$ROOT/target/comet-wheel"
if [ ! -f "$COMET_SRC/comet/cli/compare.py" ]; then
  rm -rf "$COMET_SRC" && mkdir -p "$COMET_SRC"
  "$VENV/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps --dest "$COMET_SRC" \
    unbabel-comet==2.2.7
  "$VENV/bin/python" -m zipfile -e "$COMET_SRC"/unbabel_comet-2.2.7-py3-none-any.whl "$COMET_SRC/wheel"
  mkdir -p "$COMET_SRC/comet/cli" && cp "$COMET_SRC/wheel/comet/cli/compare.py" "$COMET_SRC/comet/cli/"
fi
export MTEVAL_COMET_COMPARE_PY="$COMET_SRC/comet/cli/compare.py"
# From python/tests, so that `import mteval` is the installed wheel, not the source folder.
cd python/tests
"$VENV/bin/python" -m pytest -q "$@" .
if [ "$#" -eq 0 ]; then
  cd "$JIWER_SRC/jiwer-4.0.0"
  PYTHONPATH="$ROOT/python/tests/shims" "$VENV/bin/python" -m pytest -q -p jiwer_is_mteval -p no:cacheprovider \
    tests --ignore tests/test_speed.py
fi
