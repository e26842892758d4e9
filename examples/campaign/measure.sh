#!/usr/bin/env bash
# Times every step of a campaign with N = 10^5 items and M = 20 (alpha 0.5,
# 7 ballots, 5% control tasks in units of 20, 500 workers who always prefer
# the item with the smaller index) and prints the state file's size after
# each ballot. Needs python3 (standard library only) and GNU time.
#
#   bash examples/campaign/measure.sh [DIR]      (default DIR: a fresh temporary directory)
#
# The bar (issue 18): every step under 2 s, the state file under 100 MB.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --features scheduler,serde --example campaign
B="$PWD/target/release/examples/campaign"
DIR="${1:-$(mktemp -d)}"
mkdir -p "$DIR" && cd "$DIR"
python3 - <<'PY'
import csv
w = csv.writer(open('items.csv', 'w', newline=''))
w.writerow(['id', 'text', 'source'])
for i in range(100000):
    w.writerow([f'p{i}', f'word{i} - word{i * 7 % 1000}', 'corpus'])
w = csv.writer(open('controls.csv', 'w', newline=''))
w.writerow(['first', 'second', 'answer'])
for i in range(20):
    w.writerow([f'p{i}', f'p{99999 - i}', 'first'])
PY
cat > answer.py <<'PY'
import csv, sys
r = csv.reader(open(sys.argv[1], newline=''))
next(r)
w = csv.writer(open(sys.argv[2], 'w', newline=''))
w.writerow(['HITId', 'WorkerId', 'Answer'])
for row in r:
    a, b = int(row[2][1:]), int(row[4][1:])
    w.writerow([row[0], 'w%d' % (int(row[1]) % 500), 'first' if a < b else 'second'])
PY
T=(/usr/bin/time -f "%C: wall %e s, user %U s, sys %S s, max RSS %M KB")
uptime
rm -f s.json
"${T[@]}" "$B" init --state s.json --items items.csv --seed 1 --m 20 --controls controls.csv \
    --control-rate 0.05 --unit-size 20 --price 0.02 > /dev/null
for k in 1 2 3 4 5 6 7; do
    "${T[@]}" "$B" export --state s.json --out "b$k.csv" > /dev/null
    python3 answer.py "b$k.csv" "a$k.csv"
    "${T[@]}" "$B" import --state s.json --answers "a$k.csv" --task-column HITId \
        --worker-column WorkerId --choice-column Answer > /dev/null
    "${T[@]}" "$B" status --state s.json > /dev/null
    "${T[@]}" "$B" close --state s.json --ballot "$k" --min-accuracy 0.8 > /dev/null
    ls -l s.json
done
"${T[@]}" "$B" rank --state s.json --out ranking.csv > /dev/null
uptime
