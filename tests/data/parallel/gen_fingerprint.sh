#!/usr/bin/env bash
# Writes tests/data/parallel/fingerprint.txt: the values of every large-n
# coefficient of tests/common/fingerprint.rs computed by the crate at COMMIT
# (default: the commit before the coefficients used threads), with this
# tree's fingerprint code, so tests/correlation/parallel.rs can check that
# the current code gives the same bits on any number of threads.
#
#   bash tests/data/parallel/gen_fingerprint.sh [COMMIT]
set -euo pipefail
cd "$(dirname "$0")/../../.."
COMMIT="${1:-daace06}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
git archive "$COMMIT" | tar -x -C "$TMP"
cp examples/fingerprint.rs "$TMP/examples/"
mkdir -p "$TMP/tests/common"
cp tests/common/fingerprint.rs "$TMP/tests/common/"
grep -q 'name = "fingerprint"' "$TMP/Cargo.toml" || printf '\n[[example]]\nname = "fingerprint"\n' >> "$TMP/Cargo.toml"
(cd "$TMP" && cargo run --release --quiet --example fingerprint) > tests/data/parallel/fingerprint.txt
echo "wrote tests/data/parallel/fingerprint.txt from $COMMIT ($(wc -l < tests/data/parallel/fingerprint.txt) values)"
