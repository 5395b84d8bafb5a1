#!/usr/bin/env bash
# Runs the whole test suite: installs system libraries if missing, builds, tests.
# Tests that need the shared reference corpus (../shared) skip cleanly without it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh mdbtools  # mdb-tools: the SmartTRAK (.slg) reader's tests read the corpus file through it
swift build --build-tests
swift test --skip-build
