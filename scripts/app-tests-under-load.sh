#!/usr/bin/env bash
# Runs the app's test executables ROUNDS times in a row on one CPU core shared with three busy
# loops (taskset -c 0), so that a test that races a timer, a stall budget or a fixed wait against
# the GUI fails here rather than on a loaded machine. Any failure in any round fails the script.
#
#   scripts/app-tests-under-load.sh [BUILD_DIR] [ROUNDS] [GTEST_FILTER]
#
# BUILD_DIR defaults to build/dev (built already: ./scripts/test.sh builds it), ROUNDS to 3,
# GTEST_FILTER to every test. CI (.ci/run) runs the bounded form docs/testing.md describes:
# three rounds of the tests that wait on the probe, a worker thread or a timer.
#
# WARPSCOPE_LOAD_CORES=N (default 1) splits each test executable into N gtest shards: shard i
# runs its ROUNDS rounds on core i, shared with three busy loops of its own. Every test still
# runs ROUNDS times in a row on one core shared with three busy loops; a machine with many
# cores gets through the whole suite in a fraction of the time.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:-build/dev}
rounds=${2:-3}
filter=${3:-*}
export QT_QPA_PLATFORM=offscreen QT_FONT_DPI=96

if ! command -v taskset >/dev/null; then
    echo "taskset is missing (Debian: apt-get install util-linux)" >&2
    exit 2
fi
binaries=()
for name in warpscope-app-tests warpscope-newcomer-tests; do
    if [ -x "$build/tests/app/$name" ]; then
        binaries+=("$build/tests/app/$name")
    fi
done
if [ ${#binaries[@]} -eq 0 ]; then
    echo "no app test executables in $build/tests/app: build the preset first" \
        "(cmake --build $build --target warpscope-app-tests warpscope-newcomer-tests)" >&2
    exit 2
fi

cores=${WARPSCOPE_LOAD_CORES:-1}
if ! [[ "$cores" =~ ^[1-9][0-9]*$ ]] || [ "$cores" -gt "$(nproc)" ]; then
    echo "WARPSCOPE_LOAD_CORES must be a whole number from 1 to $(nproc) (the cores here)" >&2
    exit 2
fi

# Three busy loops on each core used, stopped (by their own ids) however the script ends.
busy=()
stop_busy() {
    for pid in "${busy[@]}"; do
        kill "$pid" 2>/dev/null
    done
    wait 2>/dev/null
}
trap stop_busy EXIT
for core in $(seq 0 $((cores - 1))); do
    for _ in 1 2 3; do
        taskset -c "$core" bash -c 'while :; do :; done' &
        busy+=($!)
    done
done

# One shard's rounds on its core; prints a line per round and executable, returns non-zero when
# any failed.
run_shard() {
    local core=$1 shard_status=0 round binary name log begun result suffix
    suffix=$([ "$cores" -gt 1 ] && echo "-shard$core" || true)
    for round in $(seq 1 "$rounds"); do
        for binary in "${binaries[@]}"; do
            name=$(basename "$binary")
            log=$build/tests/app/under-load-$name$suffix-$round.log
            begun=$SECONDS
            if GTEST_TOTAL_SHARDS=$cores GTEST_SHARD_INDEX=$core taskset -c "$core" "$binary" \
                --gtest_filter="$filter" >"$log" 2>&1; then
                result=passed
            else
                result=FAILED
                shard_status=1
            fi
            printf 'core %d round %d/%d  %-26s %-7s %4d s  %s\n' "$core" "$round" "$rounds" \
                "$name" "$result" $((SECONDS - begun)) \
                "$(grep -m1 -E '^\[  PASSED  \]|tests? ran' "$log" | tail -1)"
            if [ "$result" = FAILED ]; then
                grep -E '^\[  FAILED  \]|Failure|error:' "$log" | head -40 >&2
                echo "(the whole log: $log)" >&2
            fi
        done
    done
    return "$shard_status"
}

status=0
start=$SECONDS
shards=()
for core in $(seq 0 $((cores - 1))); do
    run_shard "$core" &
    shards+=($!)
done
for pid in "${shards[@]}"; do
    wait "$pid" || status=1
done
echo "$rounds rounds on $cores core(s), each shared with three busy loops, in" \
    "$((SECONDS - start)) s: $([ "$status" -eq 0 ] && echo passed || echo FAILED)"
exit "$status"
