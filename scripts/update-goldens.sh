#!/usr/bin/env bash
# Re-records the golden outputs in Samples/expected/ from the current build.
# Review the result with `git diff Samples/expected` before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --product umilog >/dev/null
bin=.build/debug/umilog
$bin convert Samples/logbook.uddf --to csv -o Samples/expected/logbook.csv -q
$bin convert Samples/logbook.uddf --to csv-profile -o Samples/expected/logbook.profile.csv -q
$bin convert Samples/logbook.uddf --to csv --units imperial -o Samples/expected/logbook.imperial.csv -q
SOURCE_DATE_EPOCH=0 $bin convert Samples/logbook.uddf --to json -o Samples/expected/logbook.divejson -q
SOURCE_DATE_EPOCH=0 $bin convert Samples/logbook.uddf --to uddf -o Samples/expected/logbook.written.uddf -q
$bin convert Samples/logbook.uddf --to ssrf -o Samples/expected/logbook.written.ssrf -q
SOURCE_DATE_EPOCH=0 $bin convert Samples/logbook.ssrf --to json -o Samples/expected/logbook.ssrf.divejson -q
SOURCE_DATE_EPOCH=0 $bin convert Samples/suunto-dm3.SDE --to json -o Samples/expected/suunto-dm3.divejson -q
$bin inspect Samples/logbook.uddf > Samples/expected/logbook.inspect.txt
# The logbook schema dump (a test keeps it current).
$bin db schema > schemas/logbook.sql
echo "re-recorded Samples/expected/; review with: git diff Samples/expected"
