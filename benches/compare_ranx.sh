#!/usr/bin/env bash
# Side-by-side timing of ranx `compare` and `acm compare` at issue 34's bars
# (10 TREC runs x 10^4 queries, all 45 pairs, randomisation 10^4, Holm; a
# 95 systems x 56 benchmarks table with Friedman, the critical difference and
# a paired bootstrap of 10^4 resamples), then the library alone (criterion,
# benches/compare.rs) unless NO_CRITERION is set.
#
#   bash benches/compare_ranx.sh [QUERIES] [RUNS] [SEED]
#
# Uses $PYTHON if set (a Python with numpy and ranx), else creates
# benches/.venv (shared with trec_compare.sh) with ranx on first use; builds `acm` in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PYTHON:-}" ]; then
    VENV=benches/.venv
    if ! "$VENV/bin/python" -c "import numpy, ranx" 2>/dev/null; then
        python3 -m venv "$VENV"
        "$VENV/bin/pip" install --quiet --upgrade pip
        "$VENV/bin/pip" install --quiet ranx
    fi
    PYTHON="$VENV/bin/python"
fi
cargo build --release --quiet -p adaptive-comp-metrics-cli
uptime
"$PYTHON" benches/compare_ranx.py target/release/acm "${1:-10000}" "${2:-10}" "${3:-34}"
if [ -z "${NO_CRITERION:-}" ]; then
    cargo bench -p adaptive-comp-metrics-benches --bench compare -- --noplot
fi
uptime
