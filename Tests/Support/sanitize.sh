#!/usr/bin/env bash
# `make sanitize`: the Swift test suites under a sanitizer, each in its own scratch path.
#
#   sanitize.sh address   build with --sanitize=address (tests and the eid, eid-sim and
#                         eid-testserver binaries the end-to-end tests run: EID_BIN_DIR) in
#                         .build-asan; run every suite, the end-to-end ones through the test pcscd
#   sanitize.sh thread    build with --sanitize=thread in .build-tsan; run the concurrent suites
#                         (the faces, the test server's sessions and its HTTPS front end, the
#                         workflows, the TLS client)
#
# Every sanitized process, test runner and spawned binary alike, writes its reports into
# <scratch>/reports/ (log_path) instead of its stderr, where the tests would take them for
# output; the run fails when a test fails or any report names an error.
set -uo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
kind=$1
case $kind in
address) scratch=${ASAN_DIR:-$PWD/.build-asan} filter=() ;;
thread)
    scratch=${TSAN_DIR:-$PWD/.build-tsan}
    filter=(--filter 'FacesTests|EIDTestServerTests|TestServerHTTPSTests|WorkflowsTests|TLSTests|SmartCardTests|CardSimulatorTests')
    ;;
*) echo "usage: sanitize.sh address|thread" >&2; exit 2 ;;
esac
build=("$SWIFT" build --build-tests --sanitize="$kind" --scratch-path "$scratch")
"${build[@]}" || exit 1
bin=$("${build[@]}" --show-bin-path)
reports=$scratch/reports
rm -rf "$reports" && mkdir -p "$reports"

# The Swift runtime's backtracer would catch a crash before the sanitizer reports it.
export SWIFT_BACKTRACE=enable=no
# LeakSanitizer: see lsan-suppressions.txt. TSan: tsan-suppressions.txt.
# Suppressions match symbolized frames: the symbolizer by absolute path, since some tests run
# the binaries with an empty PATH.
symbolizer=$(command -v llvm-symbolizer || echo "$(dirname "$(readlink -f "$(command -v "$SWIFT")")")/llvm-symbolizer")
# fast_unwind_on_malloc=0: libcrypto and libeac have no frame pointers, so the fast unwinder
# stops inside them and a leak of theirs would name neither the caller nor a suppression's frame.
export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:fast_unwind_on_malloc=0:external_symbolizer_path=$symbolizer"
export LSAN_OPTIONS="suppressions=$PWD/Tests/Support/lsan-suppressions.txt"
export TSAN_OPTIONS="log_path=$reports/tsan:suppressions=$PWD/Tests/Support/tsan-suppressions.txt:external_symbolizer_path=$symbolizer"
EID_BIN_DIR=$bin Tests/Support/pcsc-env.sh run "$scratch/e2e" \
    "$SWIFT" test --skip-build --disable-xctest --sanitize="$kind" --scratch-path "$scratch" "${filter[@]}"
status=$?

found=$(grep -l -E '^(==[0-9]+==ERROR|WARNING: ThreadSanitizer|SUMMARY: (Address|Thread|Leak|UndefinedBehavior)Sanitizer)' \
    "$reports"/* 2>/dev/null)
if [ -n "$found" ]; then
    echo "sanitize ($kind): reports in:" $found >&2
    for f in $found; do grep -m 1 -E 'SUMMARY' "$f" >&2; done
    exit 1
fi
[ $status -eq 0 ] || { echo "sanitize ($kind): the tests failed (status $status)" >&2; exit $status; }
echo "sanitize ($kind): clean (no sanitizer errors; suppressed: Tests/Support/*-suppressions.txt)"
