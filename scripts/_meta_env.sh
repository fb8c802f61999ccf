# Shared by scripts/meta-diff.sh and scripts/meta-bench.sh (sourced): the
# reference's location and Python, the mteval binary, a work folder removed
# on exit. mt-metrics-eval's set-up:
#   git clone https://github.com/google-research/mt-metrics-eval /tmp/mtme-repo && git -C /tmp/mtme-repo checkout 68a481a
#   python3 -m venv /tmp/metavenv && /tmp/metavenv/bin/pip install numpy==2.4.6 scipy==1.17.1 dacite==1.9.2
cd "$(dirname "$0")/.."
: "${MTME_DIR:=/tmp/mtme-repo}"
export MTME_DIR
PY=${META_PY:-/tmp/metavenv/bin/python}
MTEVAL=${MTEVAL:-target/release/mteval}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
