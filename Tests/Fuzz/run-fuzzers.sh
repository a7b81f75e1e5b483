#!/bin/sh
# Runs the libFuzzer executables of `make fuzz`, FUZZ_JOBS at a time, each for FUZZ_SECONDS over
# its committed seeds (Tests/Fuzz/Corpus/<target>, read only) and a working corpus in
# <out>/corpus/<target> (kept between runs); crashes go to <out>/artifacts/<target>/. Prints
# and writes <out>/summary.txt: per target the executions and the crashes. Exit status 1 when
# any target crashed (or did not run).
# Usage: run-fuzzers.sh BIN_DIR OUT_DIR SECONDS JOBS TARGET...
set -u
bin=$1 out=$2 seconds=$3 jobs=$4
shift 4
seeds=$(cd "$(dirname "$0")" && pwd)/Corpus
mkdir -p "$out/logs"

# One target (the script runs itself through xargs for each, FUZZ_JOBS at a time).
if [ "$1" = --one ]; then
    t=$2
    mkdir -p "$out/corpus/$t" "$out/artifacts/$t"
    # The Swift runtime's backtracer would catch the crash signals first (and trips ASan on its
    # own memory reads): off, so libFuzzer's handler reports and saves the input.
    # LeakSanitizer: see Tests/Support/lsan-suppressions.txt.
    SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$seeds/../../Support/lsan-suppressions.txt" "$bin/fuzz-$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix="$out/artifacts/$t/" \
        "$out/corpus/$t" "$seeds/$t" >"$out/logs/$t.log" 2>&1
    echo $? >"$out/logs/$t.status"
    exit 0
fi

for t in "$@"; do rm -f "$out/logs/$t.status"; done
printf '%s\n' "$@" | xargs -P "$jobs" -I{} "$0" "$bin" "$out" "$seconds" "$jobs" --one {}

summary=$out/summary.txt
failed=0
{
    printf 'fuzzing %ss per target, %s at a time (finished %s)\n' "$seconds" "$jobs" "$(date -u '+%Y-%m-%d %H:%M UTC')"
    printf '%-16s %12s %9s %8s %8s  %s\n' target executions exec/s corpus crashes status
    for t in "$@"; do
        log=$out/logs/$t.log
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" 2>/dev/null | tail -n 1)
        rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" 2>/dev/null | tail -n 1)
        [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$log" 2>/dev/null | tail -n 1 | tr -d '#')
        units=$(ls "$out/corpus/$t" 2>/dev/null | wc -l)
        crashes=$(ls "$out/artifacts/$t" 2>/dev/null | grep -c -E '^(crash|leak|timeout|oom|slow-unit)-')
        status=$(cat "$out/logs/$t.status" 2>/dev/null || echo "did not run")
        if [ "$status" = 0 ] && [ "$crashes" = 0 ]; then state=ok; else state="FAILED (exit $status, log $log)"; failed=1; fi
        printf '%-16s %12s %9s %8s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$units" "$crashes" "$state"
    done
} | tee "$summary"
exit $failed
