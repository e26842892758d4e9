#!/usr/bin/env bash
# Side-by-side timing of pytrec_eval and this crate's TREC readers and
# evaluate_trec on identical generated files (10^4 queries x 100 documents:
# 10^6 qrels lines and a 10^6-line run by default).
#
#   bash benches/trec_compare.sh [QUERIES] [DOCS] [SEED]
#
# Uses $PYTHON if set (a Python with numpy and pytrec_eval, e.g.
# /work/venv/bin/python), else creates benches/.venv with numpy and
# pytrec-eval-terrier on first use; builds examples/relevance.rs in release
# mode, then runs benches/trec_compare.py, which prints both times, the
# ratios, the peak memory and checks that both sides computed the same means.
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
cargo build --release --quiet --example relevance
"$PYTHON" benches/trec_compare.py "$QUERIES" "$DOCS" "$SEED" target/release/examples/relevance
