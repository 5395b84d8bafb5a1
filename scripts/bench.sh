#!/usr/bin/env bash
# umilog's one benchmark command (issue 21): every figure Benchmarks.md gives, in one run, each
# beside its floor — the bytes read (cat), libxml2 tokenising (xmllint --stream), a C program
# doing with libxml2's SAX2 push parser only what umilog's reader must (scripts/bench/sax2-floor.c),
# libxml2's schema validator (xmllint --stream --schema), SQLite storing the same rows (an
# INSERT … SELECT of an imported logbook into an empty one, in one transaction), and the
# reference DiveJSON converter (divejson-py) — then the targets of issue 21 as a table and as
# JSON, and the 20,000-dive logbook (scripts/bench-logbook.sh). Not part of the test run.
#
#   scripts/bench.sh            # build release, generate the logbooks if missing, measure
#   RUNS=3 scripts/bench.sh     # best (lowest wall time) of 3 runs per command
#   LOGBOOK=0 scripts/bench.sh  # without the 20,000-dive logbook (LOGBOOK_RUNS=N: its runs, 100)
#   REFERENCE=0 scripts/bench.sh  # without divejson-py (installed from PyPI into bench-data/venv)
#
# The inputs are written to bench-data/ (gitignored) once and reused; delete them to
# regenerate. The tables are printed and written to bench-data/results.md, everything as JSON
# to bench-data/results.json. See Benchmarks.md for what the figures mean.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-1}
LOGBOOK=${LOGBOOK:-1}
REFERENCE=${REFERENCE:-1}
DATA=bench-data
UMILOG=${UMILOG:-.build/release/umilog}  # override to compare another build
MAKE_LOGBOOK=.build/release/make-logbook

# name|make-logbook arguments
LOGBOOKS=(
    "logbook-38MB.uddf|--dives 500 --interval 10 --duration 60"
    "logbook-756MB.uddf|--dives 1006 --interval 1 --duration 60"
)

# The libraries the build needs, and the tools the table compares with.
scripts/setup.sh libxml2-utils time sqlite3 gcc
TIME=/usr/bin/time

echo "bench: swift build -c release" >&2
swift build -c release >&2
mkdir -p "$DATA"
# shellcheck disable=SC2046 # pkg-config prints a word list
cc -O2 scripts/bench/sax2-floor.c $(pkg-config --cflags --libs libxml-2.0) -o "$DATA/sax2-floor"

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

REFERENCE_BIN=""
if [ "$REFERENCE" = 1 ]; then
    if [ ! -x "$DATA/venv/bin/divejson" ]; then
        echo "bench: installing divejson-py 0.32.0 into $DATA/venv" >&2
        { python3 -m venv "$DATA/venv" && "$DATA/venv/bin/pip" install -q divejson==0.32.0; } >&2 ||
            echo "bench: divejson-py could not be installed; its row is left out" >&2
    fi
    [ -x "$DATA/venv/bin/divejson" ] && REFERENCE_BIN="$DATA/venv/bin/divejson"
fi

RESULTS="$DATA/results.md"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ROWS="$TMP/rows.jsonl"
: >"$ROWS"

# measure ID LABEL FILE_BYTES COMMAND...: runs the command RUNS times under GNU time, prints one
# table row with the fastest run (its wall time and peak RSS) and records it under ID for the
# JSON and the targets.
measure() {
    local id=$1 label=$2 bytes=$3
    shift 3
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
        printf '{"id":"%s","label":"%s","bytes":%s,"failed":%s}\n' "$id" "$label" "$bytes" "$rc" >>"$ROWS"
        return 0
    fi
    awk -v b="$bytes" -v s="$best_s" -v kb="$best_kb" -v label="$label" 'BEGIN {
        rate = s > 0 ? sprintf("%.0f", b / 1e6 / s) : "n/a"
        printf "| %.1f MB | %s | %.3f | %.1f | %s |\n", b / 1e6, label, s, kb * 1024 / 1e6, rate
    }'
    printf '{"id":"%s","label":"%s","bytes":%s,"seconds":%s,"peak_mb":%s}\n' "$id" "$label" "$bytes" "$best_s" \
        "$(awk -v kb="$best_kb" 'BEGIN { printf "%.1f", kb * 1024 / 1e6 }')" >>"$ROWS"
}

size() { stat -c %s "$1"; }

# A fresh logbook for an import: no file, no WAL, no journal.
fresh() { rm -f "$1" "$1-wal" "$1-shm" "$1-journal"; }

# sqlite_floor SOURCE.sqlite TARGET.sqlite: the SQL that makes TARGET an empty logbook with
# SOURCE's schema, and the SQL that then copies every row of SOURCE's tables into it in one
# transaction (the triggers fill the search and position indexes, as they do on an import).
sqlite_floor_sql() {
    local src=$1
    {
        echo "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
        sqlite3 "$src" .schema | grep -v '^CREATE TABLE sqlite_'
    } >"$TMP/floor-schema.sql"
    {
        echo "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
        echo "ATTACH '$src' AS src; BEGIN;"
        sqlite3 "$src" "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'" |
            while read -r t; do echo "INSERT INTO main.\"$t\" SELECT * FROM src.\"$t\";"; done
        echo "COMMIT;"
    } >"$TMP/floor-copy.sql"
}

big=${LOGBOOKS[${#LOGBOOKS[@]}-1]}
BIG="$DATA/${big%%|*}"
small=${LOGBOOKS[0]}
SMALL="$DATA/${small%%|*}"

{
    echo "| file | command | seconds | peak MB | MB/s |"
    echo "| ---: | --- | ---: | ---: | ---: |"
    for entry in "${LOGBOOKS[@]}"; do
        name=${entry%%|*}
        file="$DATA/$name"
        tag=${name%.uddf}
        bytes=$(size "$file")
        # cat first: it also brings the file into the page cache for the others.
        measure "$tag.cat" "cat FILE > /dev/null" "$bytes" sh -c 'cat "$1" > /dev/null' sh "$file"
        measure "$tag.xmllint" "xmllint --stream --noout FILE" "$bytes" xmllint --stream --noout "$file"
        measure "$tag.sax2-floor" "C SAX2 floor (parse, sum depths)" "$bytes" "$DATA/sax2-floor" "$file"
        measure "$tag.csv" "umilog convert FILE --to csv" "$bytes" "$UMILOG" convert "$file" --to csv -o "$DATA/out.csv"
        measure "$tag.csv-profile" "umilog convert FILE --to csv-profile" "$bytes" "$UMILOG" convert "$file" --to csv-profile -o "$DATA/out-profile.csv"
        measure "$tag.json" "umilog convert FILE --to json" "$bytes" "$UMILOG" convert "$file" --to json -o "$DATA/out.divejson"
        measure "$tag.uddf" "umilog convert FILE --to uddf" "$bytes" "$UMILOG" convert "$file" --to uddf -o "$DATA/out.uddf"
        measure "$tag.inspect" "umilog inspect FILE" "$bytes" "$UMILOG" inspect "$file"
        measure "$tag.xmllint-schema" "xmllint --stream --noout --schema uddf_3.2.2.xsd FILE" "$bytes" xmllint --stream --noout --schema schemas/uddf_3.2.2.xsd "$file"
        measure "$tag.validate" "umilog validate FILE" "$bytes" "$UMILOG" validate "$file"
        measure "$tag.import" "umilog import FILE (a new logbook)" "$bytes" sh -c 'rm -f "$2" "$2-wal" "$2-shm"; "$1" import "$3" --db "$2" -q' sh "$UMILOG" "$DATA/$tag.sqlite" "$file"
        # SQLite storing the same rows: the logbook just imported copied into an empty one.
        sqlite_floor_sql "$DATA/$tag.sqlite"
        measure "$tag.sqlite-floor" "SQLite floor: the same rows into an empty logbook (sqlite3, one transaction)" "$bytes" \
            sh -c 'rm -f "$1" "$1-wal" "$1-shm"; sqlite3 "$1" < "$2" > /dev/null && sqlite3 "$1" < "$3" > /dev/null' sh "$DATA/floor.sqlite" "$TMP/floor-schema.sql" "$TMP/floor-copy.sql"
        if [ "$file" = "$SMALL" ] && [ -n "$REFERENCE_BIN" ]; then
            measure "$tag.divejson-py" "divejson-py 0.32.0: divejson convert FILE (to DiveJSON)" "$bytes" "$REFERENCE_BIN" convert "$file" -o "$DATA/out-py.divejson" -f
        fi
    done
    # What the largest logbook's conversions wrote: its DiveJSON read back and validated, and
    # its profile CSV checked row by row against a byte scan.
    bytes=$(size "$DATA/out.divejson")
    measure "divejson.csv" "umilog convert FILE.divejson --to csv" "$bytes" "$UMILOG" convert "$DATA/out.divejson" --to csv -o "$DATA/out-back.csv"
    measure "divejson.validate" "umilog validate FILE.divejson" "$bytes" "$UMILOG" validate "$DATA/out.divejson"
    bytes=$(size "$DATA/out-profile.csv")
    measure "profile-csv.wc" "wc -l FILE.csv (a byte scan)" "$bytes" wc -l "$DATA/out-profile.csv"
    measure "profile-csv.validate" "umilog validate FILE.csv" "$bytes" "$UMILOG" validate "$DATA/out-profile.csv"
    measure "profile-csv.csv" "umilog convert FILE.csv --to csv (reads every sample)" "$bytes" "$UMILOG" convert "$DATA/out-profile.csv" --to csv -o "$DATA/out-from-profile.csv"
    # The logbook database: one dive of an hour sampled every second, the largest logbook
    # again (nothing added), and all of it out as DiveJSON and back into a new logbook.
    "$MAKE_LOGBOOK" --dives 1 --interval 1 --duration 60 --out "$DATA/hour-1s.uddf"
    bytes=$(size "$DATA/hour-1s.uddf")
    measure "hour.import" "umilog import FILE (one dive, 1 s for an hour)" "$bytes" sh -c 'rm -f "$2" "$2-wal" "$2-shm"; "$1" import "$3" --db "$2" -q' sh "$UMILOG" "$DATA/hour.sqlite" "$DATA/hour-1s.uddf"
    tag=$(basename "$BIG" .uddf)
    bytes=$(size "$BIG")
    measure "$tag.import-again" "umilog import FILE (again: nothing added)" "$bytes" "$UMILOG" import "$BIG" --db "$DATA/$tag.sqlite" -q
    measure "$tag.export" "umilog export --to json (the logbook)" "$bytes" "$UMILOG" export --db "$DATA/$tag.sqlite" --to json -o "$DATA/export.divejson" -q
    bytes=$(size "$DATA/export.divejson")
    measure "export.import" "umilog import FILE.divejson (the export, into a new logbook)" "$bytes" sh -c 'rm -f "$2" "$2-wal" "$2-shm"; "$1" import "$3" --db "$2" -q' sh "$UMILOG" "$DATA/restored.sqlite" "$DATA/export.divejson"
    # Garmin FIT (issue 17): 700 one-hour dives at 1 s, one file of 50 MB.
    if [ ! -s "$DATA/logbook-50MB.fit" ]; then
        python3 scripts/make-fit.py --dives 700 --duration 60 --interval 1 --out "$DATA/logbook-50MB.fit"
    fi
    bytes=$(size "$DATA/logbook-50MB.fit")
    measure "fit.csv" "umilog convert FILE.fit --to csv" "$bytes" "$UMILOG" convert "$DATA/logbook-50MB.fit" --to csv -o "$DATA/out-fit.csv"
    measure "fit.json" "umilog convert FILE.fit --to json" "$bytes" "$UMILOG" convert "$DATA/logbook-50MB.fit" --to json -o "$DATA/out-fit.divejson"
    # Subsurface XML: the same dives as UDDF and as a ~100 MB Subsurface logbook (written by
    # umilog's own writer from the UDDF), each read to CSV; the ratio is in Benchmarks.md.
    if [ ! -s "$DATA/logbook-ssrf-dives.uddf" ]; then
        "$MAKE_LOGBOOK" --dives 630 --interval 2 --duration 60 --out "$DATA/logbook-ssrf-dives.uddf"
    fi
    if [ ! -s "$DATA/logbook-100MB.ssrf" ]; then
        "$UMILOG" convert "$DATA/logbook-ssrf-dives.uddf" --to ssrf -o "$DATA/logbook-100MB.ssrf" -q
    fi
    for file in "$DATA/logbook-ssrf-dives.uddf" "$DATA/logbook-100MB.ssrf"; do
        tag=$(basename "$file")
        bytes=$(size "$file")
        measure "$tag.cat" "cat FILE > /dev/null" "$bytes" sh -c 'cat "$1" > /dev/null' sh "$file"
        measure "$tag.xmllint" "xmllint --stream --noout FILE" "$bytes" xmllint --stream --noout "$file"
        measure "$tag.csv" "umilog convert FILE --to csv" "$bytes" "$UMILOG" convert "$file" --to csv -o "$DATA/out-ssrf.csv"
        measure "$tag.json" "umilog convert FILE --to json" "$bytes" "$UMILOG" convert "$file" --to json -o "$DATA/out-ssrf.divejson"
        measure "$tag.ssrf" "umilog convert FILE --to ssrf" "$bytes" "$UMILOG" convert "$file" --to ssrf -o "$DATA/out.ssrf"
        measure "$tag.validate" "umilog validate FILE" "$bytes" "$UMILOG" validate "$file"
    done
} | tee "$RESULTS"

LOGBOOK_JSON=""
if [ "$LOGBOOK" = 1 ]; then
    echo | tee -a "$RESULTS"
    # Its own number of runs (p50/p95 need many), whatever RUNS says for the commands above.
    RUNS=${LOGBOOK_RUNS:-100} scripts/bench-logbook.sh | grep '^|' | tee -a "$RESULTS"
    LOGBOOK_JSON="$DATA/logbook-results.json"
fi

echo | tee -a "$RESULTS"
python3 scripts/bench/targets.py "$ROWS" "$DATA/results.json" "$(basename "$BIG" .uddf)" "$(basename "$SMALL" .uddf)" "$LOGBOOK_JSON" | tee -a "$RESULTS"
echo "bench: $(nproc) cores, RUNS=$RUNS; tables in $RESULTS, JSON in $DATA/results.json" >&2
