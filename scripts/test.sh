#!/usr/bin/env bash
# Installs what is missing, builds warpscope and runs its checks (docs/testing.md):
#   ./scripts/test.sh           the dev preset (debug, warnings as errors): the whole test suite
#   ./scripts/test.sh asan      the same suite under AddressSanitizer and UBSan (no CUDA; the
#                               probe's protocol, fake backend and their tests included)
#   ./scripts/test.sh fuzz      the fuzz preset (Debian's clang): every libFuzzer target in fuzz/
#                               runs from its seed corpus fuzz/corpus/NAME/ for
#                               WARPSCOPE_FUZZ_SECONDS seconds (default: 240 s shared by all),
#                               one target per core at a time;
#                               any crash, leak, timeout, slow input or sanitizer report fails it
#   ./scripts/test.sh tidy      clang-tidy (the checks of .clang-tidy) over core (library and CLI)
#                               and the probe's plain C++ (protocol, fake backend, command line),
#                               from the dev preset's compile_commands.json (configured in
#                               build/tidy); any finding fails it
# GPU tests skip with a reason where there is no GPU. Exit status: non-zero on any failure.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
preset=${1:-dev}

print_skipped() {
    # ctest keeps a skipped test's reason in its log: print it, so a GPU test that did not run
    # says why.
    local log="build/$1/Testing/Temporary/LastTest.log"
    if [ -f "$log" ] && grep -q ': Skipped$' "$log"; then
        echo "Skipped tests and why:"
        grep -h -A1 ': Skipped$' "$log" | grep -v -e ': Skipped$' -e '^--$' | sort | uniq -c
    fi
}

# Runs one fuzz target from its seed corpus; prints one line of results. New inputs go to a
# scratch folder in the build tree, never into fuzz/corpus/.
run_fuzzer() {
    local binary=$1 seconds=$2
    local target name seeds work log
    target=$(basename "$binary")
    name=${target#fuzz-}
    seeds=fuzz/corpus/$name
    if [ ! -d "$seeds" ] || [ -z "$(ls -A "$seeds")" ]; then
        echo "$target: no seed corpus: add a few inputs to $seeds/" >&2
        return 1
    fi
    work=build/fuzz/fuzz-runs/$name
    rm -rf "$work"
    mkdir -p "$work/new" "$work/findings"
    log=$work/log.txt
    local status=0
    # A dictionary of the format's size fields (fuzz/dict/NAME.dict), where there is one, so that
    # the fuzzer writes huge launches and buffers, not only the seeds' small ones.
    local dict=()
    if [ -f "fuzz/dict/$name.dict" ]; then
        dict=(-dict="fuzz/dict/$name.dict")
    fi
    # -timeout: one input running longer is a hang; -rss_limit_mb: an input needing more is a bug;
    # -report_slow_units: an input taking longer than that (sanitized, debug) is written to
    # findings/ as slow-unit-*, which fails the step below: a size that makes the work follow it
    # must be refused by a budget, not merely be slow.
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$binary" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2560 \
        -report_slow_units="${WARPSCOPE_FUZZ_SLOW_SECONDS:-10}" "${dict[@]}" \
        -print_final_stats=1 -artifact_prefix="$work/findings/" "$work/new" "$seeds" \
        >"$log" 2>&1 || status=$?
    # A slow input does not stop libFuzzer; it fails the step all the same.
    if compgen -G "$work/findings/slow-unit-*" >/dev/null; then
        echo "$target: inputs slower than ${WARPSCOPE_FUZZ_SLOW_SECONDS:-10} s each:" >&2
        grep -A1 '^Slowest unit' "$log" >&2 || true
        if [ "$status" -eq 0 ]; then
            status=1
        fi
    fi
    # A sanitizer report that did not stop the run still fails it.
    if grep -q -E 'runtime error:|ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer)' "$log"; then
        if [ "$status" -eq 0 ]; then
            status=1
        fi
    fi
    local runs corpus
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    corpus=$(($(ls "$work/new" | wc -l) + $(ls "$seeds" | wc -l)))
    printf '%-22s %5ss %12s runs %6s inputs in corpus  %s\n' "$target" "$seconds" "${runs:-?}" \
        "$corpus" "$([ "$status" -eq 0 ] && echo ok || echo FAILED)"
    if [ "$status" -ne 0 ]; then
        echo "---- $target failed (exit $status); the end of $log:" >&2
        grep -v -E '^#[0-9]+' "$log" | tail -40 >&2
        echo "---- inputs that fail it, to fix and then add to $seeds/ as regression inputs:" >&2
        ls -l "$work/findings" >&2
    fi
    return "$status"
}

# The sources `tidy` checks, as run-clang-tidy's regular expressions over compile_commands.json.
# Not in it yet (docs/testing.md, "clang-tidy"): the app, the probe's CUDA side, its fake backend
# and self-check.
WARPSCOPE_TIDY_SOURCES=(
    '/core/(src|cli)/.*[.]cpp$'
    '/kernels/protocol/(probe_protocol|probe_requests|probe_serve|experiment_table|kernel_codegen|kernel_request)[.]cpp$'
    '/kernels/cli/[^/]*[.]cpp$'
)

case "$preset" in
tidy)
    cd "$(dirname "${BASH_SOURCE[0]}")/.."
    warpscope_install_packages
    # Configuring is enough: the checked sources include no generated header. The dev preset's
    # flags in a folder of its own, one source at a time: a unity-built build/dev (CI's dev step)
    # lists its batches, not the sources, in compile_commands.json.
    cmake --preset dev -B build/tidy -DBUILD_TESTING=OFF -DWARPSCOPE_UNITY_BUILD=OFF >/dev/null
    # Each expression must name sources: one that matches none would pass without a check.
    for pattern in "${WARPSCOPE_TIDY_SOURCES[@]}"; do
        count=$(grep -c -E "\"file\": \".*${pattern%$}\"" build/tidy/compile_commands.json || true)
        if [ "$count" -eq 0 ]; then
            echo "tidy: no source in build/tidy/compile_commands.json matches $pattern" >&2
            exit 1
        fi
        echo "tidy: $count sources match $pattern"
    done
    # GCC's warning flags that clang does not know are not findings.
    run-clang-tidy -quiet -p build/tidy -j "$(nproc)" -extra-arg=-Wno-unknown-warning-option \
        "${WARPSCOPE_TIDY_SOURCES[@]}"
    ;;
fuzz)
    warpscope_setup fuzz
    targets=()
    for binary in build/fuzz/fuzz/fuzz-*; do
        [ -x "$binary" ] && [ -f "$binary" ] && targets+=("$binary")
    done
    # WARPSCOPE_FUZZ_SECONDS per target; unset, the step fuzzes 240 s in all (CI's time budget),
    # shared evenly, so a new target does not make the step longer.
    seconds=${WARPSCOPE_FUZZ_SECONDS:-$((240 / (${#targets[@]} > 0 ? ${#targets[@]} : 1)))}
    if [ ${#targets[@]} -eq 0 ]; then
        echo "no fuzz targets were built in build/fuzz/fuzz/" >&2
        exit 1
    fi
    # One target per core at a time (each fuzzer is one process): the same fuzzing per target in
    # a fraction of the wall time. Each target's lines are printed whole, in the targets' order.
    jobs=$(nproc)
    status=0
    for ((first = 0; first < ${#targets[@]}; first += jobs)); do
        batch=("${targets[@]:first:jobs}")
        pids=()
        for binary in "${batch[@]}"; do
            run_fuzzer "$binary" "$seconds" >"build/fuzz/$(basename "$binary").out" 2>&1 &
            pids+=($!)
        done
        for i in "${!batch[@]}"; do
            wait "${pids[$i]}" || status=1
            cat "build/fuzz/$(basename "${batch[$i]}").out"
        done
    done
    exit "$status"
    ;;
*)
    warpscope_setup "$preset"
    built=$SECONDS
    status=0
    ctest --preset "$preset" --parallel "$(nproc)" || status=$?
    print_skipped "$preset"
    # Where a step's time goes (docs/testing.md, "CI time"): set-up and build, then the tests.
    echo "$preset: set-up and build ${built} s, tests $((SECONDS - built)) s"
    exit "$status"
    ;;
esac
