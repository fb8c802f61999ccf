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
# From python/tests, so that `import mteval` is the installed wheel, not the source folder.
cd python/tests
"$VENV/bin/python" -m pytest -q "$@" .
