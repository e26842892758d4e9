#!/usr/bin/env bash
# Side-by-side timing of pytrec_eval and this crate's TREC readers and
# evaluate_trec on identical generated files (10^4 queries x 100 documents:
# 10^6 qrels lines and a 10^6-line run by default).
#
#   bash benches/trec_compare.sh [QUERIES] [DOCS] [SEED]
#
# With TREC_EVAL=/path/to/trec_eval set, trec_eval's own end-to-end time is
# printed too.
#
# Uses $PYTHON if set (a Python with numpy and pytrec_eval, e.g.
# /work/venv/bin/python), else creates benches/.venv with numpy and
# pytrec-eval-terrier on first use; builds `acm` (cli/) in release mode, then
# runs benches/trec_compare.py, which prints both times (the library's load
# and scoring inside `acm trec`, and the whole process), the ratios, the peak
# memory, and checks that both sides computed the same means.
set -euo pipefail
cd "$(dirname "$0")/.."
QUERIES="${1:-10000}"
DOCS="${2:-100}"
SEED="${3:-16}"
if [ -z "${PYTHON:-}" ]; then
    VENV=benches/.venv
    if ! "$VENV/bin/python" -c "import numpy, pytrec_eval" 2>/dev/null; then
        python3 -m venv "$VENV"
        "$VENV/bin/pip" install --quiet --upgrade pip
        "$VENV/bin/pip" install --quiet numpy pytrec-eval-terrier
    fi
    PYTHON="$VENV/bin/python"
fi
cargo build --release --quiet -p adaptive-comp-metrics-cli
"$PYTHON" benches/trec_compare.py "$QUERIES" "$DOCS" "$SEED" target/release/acm ${TREC_EVAL:-}
