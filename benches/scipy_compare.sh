#!/usr/bin/env bash
# Side-by-side timing of scipy.stats.weightedtau / kendalltau / spearmanr and
# this crate's weighted_tau / kendall_tau_b / spearman (with p-values) on
# identical SplitMix64 data (n = 10^6 by default).
#
#   bash benches/scipy_compare.sh [N] [SEED] [BASELINE_EXE]
#
# BASELINE_EXE: examples/bench_weighted_tau built from another commit; its
# times are printed beside and its values must be identical, bit for bit.
# ACM_THREADS=1 runs the crate on one thread.
#
# Creates benches/.venv (python3 -m venv) with numpy and scipy on first use,
# builds examples/bench_weighted_tau.rs in release mode, then runs
# benches/scipy_compare.py, which prints both times, the ratios and checks
# that both sides computed the same values.
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-1000000}"
SEED="${2:-42}"
VENV=benches/.venv
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --upgrade pip
    "$VENV/bin/pip" install --quiet numpy scipy
fi
cargo build --release --quiet --example bench_weighted_tau
"$VENV/bin/python" benches/scipy_compare.py "$N" "$SEED" target/release/examples/bench_weighted_tau ${3:+"$3"}
