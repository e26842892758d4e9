#!/usr/bin/env bash
# Grows the committed seed corpus of fuzz targets: runs each target for
# SECONDS (default 60) from its current corpus, reduces what it found to a
# set with the same coverage (libFuzzer -merge=1), and keeps the KEEP
# (default 16) largest inputs of that set as fuzz/corpus/<target>/seed-<hash>.
# Only seed-* files are committed (see .gitignore).
#
#   bash fuzz/make_seeds.sh                  # targets without a seed yet
#   bash fuzz/make_seeds.sh ballot_ops plain # these targets
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_TARGET="${SECONDS_PER_TARGET:-60}"
KEEP="${KEEP:-16}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for t in $(cargo +nightly fuzz list); do
        ls corpus/"$t"/seed-* >/dev/null 2>&1 || targets+=("$t")
    done
fi
for t in "${targets[@]}"; do
    mkdir -p corpus/"$t"
    cargo +nightly fuzz run "$t" -- -max_total_time="$SECONDS_PER_TARGET" \
        -timeout=10 -rss_limit_mb=4096 >/dev/null 2>&1
    reduced="$(mktemp -d)"
    cargo +nightly fuzz run "$t" "$reduced" corpus/"$t" -- -merge=1 >/dev/null 2>&1
    kept=0
    while IFS= read -r f; do
        cp "$f" corpus/"$t"/seed-"$(sha1sum "$f" | cut -c1-16)"
        kept=$((kept + 1))
    done < <(find "$reduced" -type f -printf '%s %p\n' | sort -rn | head -n "$KEEP" | cut -d' ' -f2-)
    rm -rf "$reduced"
    echo "$t: $kept seeds"
done
