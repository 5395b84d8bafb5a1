#!/usr/bin/env bash
# Kills `umilog convert` and `umilog export` with SIGKILL at 20 random moments each, spread
# over a run of a synthetic logbook of about 38 MB (600 dives; export: 300 imported), and
# checks after every kill that the destination is absent, the previous file or the complete
# new one, and that no temporary is left beside it, in TMPDIR or in /tmp. It is the normal
# run's KilledRunTests (5 kills each on 150 dives) made longer:
#
#   scripts/kill-test.sh [KILLS [DIVES]]      (SCRATCH=.build-x to build elsewhere)
#
# Each kind of kill prints one line: the run time, how many kills landed while the output was
# being written, how many after the run had ended, and what was left (nothing).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
kills=${1:-20}
dives=${2:-600}
scratch=${SCRATCH:-.build}
swift build --build-tests --scratch-path "$scratch" >&2
UMILOG_KILLS=$kills UMILOG_KILL_DIVES=$dives \
    swift test --skip-build --scratch-path "$scratch" --filter KilledRunTests 2>&1 \
    | grep -E "KilledRunTests:|✘|Test run with|error" 
