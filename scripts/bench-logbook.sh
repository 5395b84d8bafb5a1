#!/usr/bin/env bash
# The logbook at scale (issue 21, point 4): a 20,000-dive logbook with profiles in a seeded
# catalog logbook, and p50/p95 over 100 runs of stats(), the repository queries the app runs,
# an export of one site's dives (in-process and as `umilog export --site`) and the wizard's
# one-dive save. Not part of the test run; see Benchmarks.md ("The logbook at 20,000 dives").
#
#   scripts/bench-logbook.sh                 # build release, generate the logbook if missing, measure
#   RUNS=20 scripts/bench-logbook.sh         # fewer runs per operation
#   DIVES=2000 scripts/bench-logbook.sh      # another size (its own file)
#
# The logbook is written to bench-data/logbook-<DIVES>.sqlite (gitignored) once and reused
# (the dives the save adds are removed again); delete it to regenerate. The table and JSON are
# printed; the JSON is also written to bench-data/logbook-results.json.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-100}
DIVES=${DIVES:-20000}
DATA=bench-data

echo "bench-logbook: swift build -c release" >&2
swift build -c release --product bench-logbook >&2
swift build -c release --product umilog >&2

mkdir -p "$DATA"
.build/release/bench-logbook --db "$DATA/logbook-$DIVES.sqlite" --dives "$DIVES" --runs "$RUNS" \
    --umilog .build/release/umilog --json "$DATA/logbook-results.json"
echo "bench-logbook: $(nproc) cores, RUNS=$RUNS, DIVES=$DIVES" >&2
