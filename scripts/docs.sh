#!/bin/sh
# Builds the DocC documentation of the library — DiveKit (with its articles in
# Sources/DiveKit/DiveKit.docc) and DiveStore — into .build/docs/, through swift-docc-plugin.
# Not part of scripts/test.sh (it takes a minute); the articles' examples are compiled and run
# by DocumentationExampleTests all the same. Extra arguments go to docc (e.g. --warnings-as-errors).
set -eu
cd "$(dirname "$0")/.."
mkdir -p .build/docs
for target in DiveKit DiveStore; do
    swift package --disable-sandbox generate-documentation --target "$target" \
        --output-path ".build/docs/$target.doccarchive" "$@"
done
