#!/usr/bin/env bash
# Runs the whole test suite: installs system libraries if missing, builds, tests, and says how
# many tests were skipped and why (a test that needs ../shared or mdb-tools skips cleanly
# without it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh mdbtools librsvg2-bin  # mdb-tools: the SmartTRAK (.slg) reader's tests read the corpus file through it; librsvg2-bin: rsvg-convert renders `umilog plot`'s SVG in its tests
swift build --build-tests
results=.build/test-results.xml
rm -f "${results%.xml}-swift-testing.xml"
status=0
swift test --skip-build --xunit-output "$results" || status=$?
# Swift Testing's xUnit report: <testsuite … skipped="N"> and a <skipped>reason</skipped> each.
report="${results%.xml}-swift-testing.xml"
if [ -f "$report" ]; then
  skipped=$(grep -o 'skipped="[0-9]*"' "$report" | head -n 1 | tr -dc '0-9')
  echo "tests skipped: ${skipped:-0}"
  grep -o '<skipped>[^<]*</skipped>' "$report" | sed -e 's#<skipped>##' -e 's#</skipped>##' | sort | uniq -c | sed 's/^ */  /' || true
fi
exit "$status"
