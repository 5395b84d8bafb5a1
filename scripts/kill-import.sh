#!/usr/bin/env bash
# Kills `umilog import` of a multi-file batch with SIGKILL at random moments, N times (100 by
# default), and checks after each kill that the logbook passes `umilog db check` (SQLite's
# integrity and foreign-key checks), that it holds whole files only (every table, the samples'
# bytes included, equal to what importing some number of the batch's files gives), and that
# rerunning the import gives exactly the uninterrupted logbook.
#
#   scripts/kill-import.sh [N]        UMILOG=path/to/umilog to use another build
#
# The batch: Samples/ (the sample logbook, the rebreather, the pair) and, when present,
# ../shared/corpus/uddf. Needs the sqlite3 command-line shell. Exit 0 when every check held.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-100}
umilog=${UMILOG:-.build/debug/umilog}
[ -x "$umilog" ] || swift build --product umilog
command -v sqlite3 >/dev/null || { echo "kill-import: needs sqlite3 (apt-get install sqlite3)" >&2; exit 2; }

batch=(Samples/logbook.uddf Samples/rebreather.uddf Samples/pair/computer-a.uddf Samples/pair/computer-b.csv)
if [ -d ../shared/corpus/uddf ]; then
    while IFS= read -r f; do batch+=("$f"); done < <(ls ../shared/corpus/uddf/*.uddf | sort)
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/umilog-kill-import.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Every row of every table (blobs as hex), sorted: two logbooks with the same digest hold the same.
digest() {
    local db=$1
    for t in $(sqlite3 "$db" "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                              AND name NOT GLOB 'site_rtree*' AND name NOT GLOB '*_fts*' ORDER BY name"); do
        echo "== $t"
        sqlite3 -cmd ".mode quote" "$db" "SELECT * FROM \"$t\"" | LC_ALL=C sort
    done | sha256sum | cut -c1-16
}

# The logbook after each prefix of the batch, file by file.
ref="$work/ref.sqlite"
"$umilog" db init --db "$ref" >/dev/null 2>&1
prefixes=("$(digest "$ref")")
for f in "${batch[@]}"; do
    "$umilog" import "$f" --db "$ref" -q >/dev/null 2>&1
    prefixes+=("$(digest "$ref")")
done
final=${prefixes[-1]}

# How long the uninterrupted import takes: kills fall anywhere in it.
start=$(date +%s.%N)
"$umilog" import "${batch[@]}" --db "$work/full.sqlite" -q >/dev/null 2>&1
end=$(date +%s.%N)
full=$(digest "$work/full.sqlite")
[ "$full" = "$final" ] || { echo "kill-import: one import of the batch differs from importing it file by file" >&2; exit 1; }
duration=$(echo "$end - $start" | bc -l)
printf "batch: %d files; uninterrupted import %.2f s; %d kills\n" "${#batch[@]}" "$duration" "$runs"

failures=0; cut=0; before=0; done_=0
declare -A landed=()
for ((i = 1; i <= runs; i++)); do
    db="$work/killed.sqlite"
    rm -f "$db" "$db-wal" "$db-shm"
    "$umilog" import "${batch[@]}" --db "$db" -q >/dev/null 2>&1 &
    pid=$!
    sleep "$(awk -v d="$duration" -v r="$RANDOM" 'BEGIN { printf "%.3f", d * r / 32768 }')"
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; cut=$((cut + 1)); else done_=$((done_ + 1)); fi
    wait "$pid" 2>/dev/null || true
    if [ ! -e "$db" ]; then before=$((before + 1)); continue; fi
    if ! check=$("$umilog" db check --db "$db" 2>&1); then
        echo "run $i: db check failed: $check"; failures=$((failures + 1)); continue
    fi
    state=$(digest "$db")
    k=-1
    for j in "${!prefixes[@]}"; do [ "${prefixes[$j]}" = "$state" ] && k=$j && break; done
    if [ "$k" -lt 0 ]; then echo "run $i: the killed import left a state no prefix of the batch gives"; failures=$((failures + 1)); continue; fi
    landed[$k]=$(( ${landed[$k]:-0} + 1 ))
    if ! "$umilog" import "${batch[@]}" --db "$db" -q >/dev/null 2>&1; then echo "run $i: the rerun failed"; failures=$((failures + 1)); continue; fi
    [ "$(digest "$db")" = "$final" ] || { echo "run $i: the rerun did not give the uninterrupted logbook"; failures=$((failures + 1)); }
done

states=""
for k in $(echo "${!landed[@]}" | tr ' ' '\n' | sort -n); do states+=" $k:${landed[$k]}"; done
echo "kills: $cut cut an import short, $done_ came after it ended, $before before the logbook existed"
echo "states left (files imported: times):$states"
echo "failures: $failures"
[ "$failures" -eq 0 ]
