#!/usr/bin/env bash
# Fuzzes one reader with libFuzzer and AddressSanitizer.
#
#   scripts/fuzz.sh uddf|csv|divejson|ssrf|fit|suunto-json|shearwater-xml|suunto-dm3|zip SECONDS [libFuzzer options…]
#
# Builds the target (Fuzz/, only when UMILOG_FUZZ=1) into .build-fuzz/, seeds it from
# Samples/ and, when present, ../shared/corpus and the DiveJSON fixtures, and runs it on both
# cores (-fork) for SECONDS. The corpus it grows is kept in .fuzz/TARGET/corpus (gitignored);
# a crash, leak, hang or out-of-memory input is written to .fuzz/TARGET/ and the script exits
# non-zero. Each one found becomes a regression test with its minimised input in
# Samples/invalid/ (minimise with: .build-fuzz/debug/fuzz-TARGET -minimize_crash=1 FILE).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

extra=()  # DIRECTORY:PATTERN seeds beyond the patterns' walk
target=${1:?usage: scripts/fuzz.sh uddf|csv|divejson|ssrf|fit|suunto-json|shearwater-xml|suunto-dm3|zip SECONDS}
seconds=${2:?usage: scripts/fuzz.sh uddf|csv|divejson|ssrf|fit|suunto-json|shearwater-xml|suunto-dm3|zip SECONDS}
shift 2
case "$target" in
    uddf) patterns=("*.uddf") ;;
    csv) patterns=("*.csv" "*.CSV" "*.tsv" "*.txt") ;;
    divejson) patterns=("*.divejson" "*.json") ;;
    # Subsurface's own files are .ssrf or .xml; only the corpus's ssrf directory's .xml are it.
    ssrf) patterns=("*.ssrf") extra=("../shared/corpus/ssrf:*.xml") ;;
    fit) patterns=("*.fit") ;;
    suunto-json) patterns=("suunto*.json") extra=("../shared/reference/divejson/fixtures/suunto_json:*.json") ;;
    shearwater-xml) patterns=("shearwater*.xml") ;;
    suunto-dm3) patterns=("*.SDE") ;;
    zip) patterns=("*.zip" "*.SDE") ;;
    *) echo "fuzz: no target '$target' (uddf, csv, divejson, ssrf, fit, suunto-json, shearwater-xml, suunto-dm3, zip)" >&2; exit 2 ;;
esac

scripts/setup.sh
echo "fuzz: building fuzz-$target with -sanitize=fuzzer,address" >&2
UMILOG_FUZZ=1 swift build -c debug --product "fuzz-$target" --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld >&2
binary=.build-fuzz/debug/fuzz-$target

work=.fuzz/$target
mkdir -p "$work/corpus" "$work/seeds" "$work/artifacts"
# Seeds: every file of the format the project has, up to 1 MB (libFuzzer mutates within -max_len).
for dir in Samples ../shared/corpus ../shared/reference/divejson/fixtures; do
    [ -d "$dir" ] || continue
    for p in "${patterns[@]}"; do
        find "$dir" -type f -name "$p" -size -1024k -exec cp -n {} "$work/seeds/" \; 2>/dev/null || true
    done
done
for e in ${extra[@]+"${extra[@]}"}; do
    [ -d "${e%%:*}" ] || continue
    find "${e%%:*}" -type f -name "${e#*:}" -size -1024k -exec cp -n {} "$work/seeds/" \; 2>/dev/null || true
done
echo "fuzz: $(ls "$work/seeds" | wc -l) seeds, running for ${seconds}s" >&2

status=0
# Fuzz/lsan.supp explains its one suppression (a one-time static that Swift's tagged
# pointers hide from LeakSanitizer); every other leak is reported.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0"
"$binary" "$work/corpus" "$work/seeds" \
    -fork="$(nproc)" -ignore_crashes=1 -max_total_time="$seconds" \
    -max_len=65536 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "$@" 2>&1 | tee "$work/last-run.log" | grep -E "^#|INFO: fuzzed|stat::|crash|leak|timeout|oom|ERROR" >&2 || status=$?
found=$(find "$work/artifacts" -type f | wc -l)
echo "fuzz: $found input(s) in $work/artifacts that crashed, leaked, hung or ran out of memory" >&2
[ "$found" -eq 0 ]
