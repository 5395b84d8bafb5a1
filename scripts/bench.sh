#!/usr/bin/env bash
# Benchmarks umilog on two synthetic UDDF logbooks (38 MB and 756 MB), and one set of dives
# as UDDF and as a 100 MB Subsurface XML logbook, against
# xmllint --stream (without and with the UDDF schema) and cat. See Benchmarks.md for
# what the figures mean.
#
#   scripts/bench.sh            # build release, generate logbooks if missing, measure
#   RUNS=3 scripts/bench.sh     # best (lowest wall time) of 3 runs per command
#
# The logbooks are written to bench-data/ (gitignored) once and reused; delete them to
# regenerate. The table is printed and also written to bench-data/results.md.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-1}
DATA=bench-data
UMILOG=${UMILOG:-.build/release/umilog}  # override to compare another build
MAKE_LOGBOOK=.build/release/make-logbook

# name|make-logbook arguments
LOGBOOKS=(
    "logbook-38MB.uddf|--dives 500 --interval 10 --duration 60"
    "logbook-756MB.uddf|--dives 1006 --interval 1 --duration 60"
)

# The libraries the build needs, and the tools the table compares with.
scripts/setup.sh libxml2-utils time
TIME=/usr/bin/time

echo "bench: swift build -c release" >&2
swift build -c release >&2

mkdir -p "$DATA"
for entry in "${LOGBOOKS[@]}"; do
    name=${entry%%|*}
    args=${entry#*|}
    if [ ! -s "$DATA/$name" ]; then
        echo "bench: make-logbook $args --out $DATA/$name" >&2
        # shellcheck disable=SC2086 # args is a word list
        "$MAKE_LOGBOOK" $args --out "$DATA/$name.partial"
        mv "$DATA/$name.partial" "$DATA/$name"
    fi
done

RESULTS="$DATA/results.md"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# measure LABEL FILE_BYTES COMMAND...: runs the command RUNS times under GNU time and
# prints one table row with the fastest run (its wall time and peak RSS).
measure() {
    local label=$1 bytes=$2
    shift 2
    local best_s="" best_kb="" rc=0 i t0 t1 s kb
    for ((i = 0; i < RUNS; i++)); do
        rc=0
        # GNU time gives the peak RSS; the wall time is taken around it in nanoseconds,
        # since its own %e has only 10 ms resolution (too coarse for cat).
        t0=$(date +%s%N)
        "$TIME" -f '%M' -o "$TMP/time" "$@" >"$TMP/stdout" 2>"$TMP/stderr" || rc=$?
        t1=$(date +%s%N)
        if [ "$rc" -ne 0 ]; then
            break
        fi
        s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
        kb=$(tail -n 1 "$TMP/time")
        if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then
            best_s=$s
            best_kb=$kb
        fi
    done
    if [ "$rc" -ne 0 ]; then
        printf '| %s | %s | FAILED (exit %s) | | |\n' "$(awk -v b="$bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }')" "$label" "$rc"
        {
            echo "bench: '$label' failed with exit status $rc:"
            tail -n 20 "$TMP/stderr"
        } >&2
        return 0
    fi
    awk -v b="$bytes" -v s="$best_s" -v kb="$best_kb" -v label="$label" 'BEGIN {
        rate = s > 0 ? sprintf("%.0f", b / 1e6 / s) : "n/a"
        printf "| %.1f MB | %s | %.3f | %.1f | %s |\n", b / 1e6, label, s, kb * 1024 / 1e6, rate
    }'
}

{
    echo "| file | command | seconds | peak MB | MB/s |"
    echo "| ---: | --- | ---: | ---: | ---: |"
    for entry in "${LOGBOOKS[@]}"; do
        name=${entry%%|*}
        file="$DATA/$name"
        bytes=$(stat -c %s "$file")
        # cat first: it also brings the file into the page cache for the others.
        measure "cat FILE > /dev/null" "$bytes" sh -c 'cat "$1" > /dev/null' sh "$file"
        measure "xmllint --stream --noout FILE" "$bytes" xmllint --stream --noout "$file"
        measure "umilog convert FILE --to csv" "$bytes" "$UMILOG" convert "$file" --to csv -o "$DATA/out.csv"
        measure "umilog convert FILE --to csv-profile" "$bytes" "$UMILOG" convert "$file" --to csv-profile -o "$DATA/out-profile.csv"
        measure "umilog convert FILE --to json" "$bytes" "$UMILOG" convert "$file" --to json -o "$DATA/out.divejson"
        measure "umilog convert FILE --to uddf" "$bytes" "$UMILOG" convert "$file" --to uddf -o "$DATA/out.uddf"
        measure "umilog inspect FILE" "$bytes" "$UMILOG" inspect "$file"
        measure "xmllint --stream --noout --schema uddf_3.2.2.xsd FILE" "$bytes" xmllint --stream --noout --schema schemas/uddf_3.2.2.xsd "$file"
        measure "umilog validate FILE" "$bytes" "$UMILOG" validate "$file"
    done
    # What the last (largest) logbook's conversions wrote: its DiveJSON read back (the DiveJSON
    # reader holds the document), and its profile CSV checked row by row against a byte scan.
    bytes=$(stat -c %s "$DATA/out.divejson")
    measure "umilog convert FILE.divejson --to csv" "$bytes" "$UMILOG" convert "$DATA/out.divejson" --to csv -o "$DATA/out-back.csv"
    bytes=$(stat -c %s "$DATA/out-profile.csv")
    measure "wc -l FILE.csv (a byte scan)" "$bytes" wc -l "$DATA/out-profile.csv"
    measure "umilog validate FILE.csv" "$bytes" "$UMILOG" validate "$DATA/out-profile.csv"
    measure "umilog convert FILE.csv --to csv (reads every sample)" "$bytes" "$UMILOG" convert "$DATA/out-profile.csv" --to csv -o "$DATA/out-from-profile.csv"
    # The logbook database: one dive of an hour sampled every second, then the largest logbook
    # into a fresh database, again (nothing added), and all of it out as DiveJSON.
    "$MAKE_LOGBOOK" --dives 1 --interval 1 --duration 60 --out "$DATA/hour-1s.uddf"
    bytes=$(stat -c %s "$DATA/hour-1s.uddf")
    measure "umilog import FILE (one dive, 1 s for an hour)" "$bytes" sh -c 'rm -f "$2"*; "$1" import "$3" --db "$2" -q' sh "$UMILOG" "$DATA/hour.sqlite" "$DATA/hour-1s.uddf"
    last=${LOGBOOKS[${#LOGBOOKS[@]}-1]}
    file="$DATA/${last%%|*}"
    bytes=$(stat -c %s "$file")
    measure "umilog import FILE (fresh database)" "$bytes" sh -c 'rm -f "$2"*; "$1" import "$3" --db "$2" -q' sh "$UMILOG" "$DATA/logbook.sqlite" "$file"
    measure "umilog import FILE (again: nothing added)" "$bytes" "$UMILOG" import "$file" --db "$DATA/logbook.sqlite" -q
    measure "umilog export --to json (the database)" "$bytes" "$UMILOG" export --db "$DATA/logbook.sqlite" --to json -o "$DATA/export.divejson" -q
    bytes=$(stat -c %s "$DATA/export.divejson")
    measure "umilog import FILE.divejson (the export, into a fresh database)" "$bytes" sh -c 'rm -f "$2"*; "$1" import "$3" --db "$2" -q' sh "$UMILOG" "$DATA/restored.sqlite" "$DATA/export.divejson"
    # Garmin FIT (issue 17): 700 one-hour dives at 1 s, one file of 50 MB.
    if [ ! -s "$DATA/logbook-50MB.fit" ]; then
        python3 scripts/make-fit.py --dives 700 --duration 60 --interval 1 --out "$DATA/logbook-50MB.fit"
    fi
    bytes=$(stat -c %s "$DATA/logbook-50MB.fit")
    measure "umilog convert FILE.fit --to csv" "$bytes" "$UMILOG" convert "$DATA/logbook-50MB.fit" --to csv -o "$DATA/out-fit.csv"
    measure "umilog convert FILE.fit --to json" "$bytes" "$UMILOG" convert "$DATA/logbook-50MB.fit" --to json -o "$DATA/out-fit.divejson"
    # Subsurface XML: the same dives as UDDF and as a ~100 MB Subsurface logbook (written by
    # umilog's own writer from the UDDF), each read to CSV; the ratio is in Benchmarks.md.
    if [ ! -s "$DATA/logbook-ssrf-dives.uddf" ]; then
        "$MAKE_LOGBOOK" --dives 630 --interval 2 --duration 60 --out "$DATA/logbook-ssrf-dives.uddf"
    fi
    if [ ! -s "$DATA/logbook-100MB.ssrf" ]; then
        "$UMILOG" convert "$DATA/logbook-ssrf-dives.uddf" --to ssrf -o "$DATA/logbook-100MB.ssrf" -q
    fi
    for file in "$DATA/logbook-ssrf-dives.uddf" "$DATA/logbook-100MB.ssrf"; do
        bytes=$(stat -c %s "$file")
        measure "cat FILE > /dev/null" "$bytes" sh -c 'cat "$1" > /dev/null' sh "$file"
        measure "xmllint --stream --noout FILE" "$bytes" xmllint --stream --noout "$file"
        measure "umilog convert FILE --to csv" "$bytes" "$UMILOG" convert "$file" --to csv -o "$DATA/out-ssrf.csv"
        measure "umilog convert FILE --to json" "$bytes" "$UMILOG" convert "$file" --to json -o "$DATA/out-ssrf.divejson"
        measure "umilog convert FILE --to ssrf" "$bytes" "$UMILOG" convert "$file" --to ssrf -o "$DATA/out.ssrf"
        measure "umilog validate FILE" "$bytes" "$UMILOG" validate "$file"
    done
} | tee "$RESULTS"
echo "bench: $(nproc) cores, RUNS=$RUNS; table also in $RESULTS" >&2
