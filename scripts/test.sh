#!/usr/bin/env bash
# Runs the whole test suite: installs system libraries if missing, builds, tests.
# Tests that need the shared reference corpus (../shared) skip cleanly without it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
swift test --skip-build
