#!/usr/bin/env bash
# The probe's ldmatrix, stmatrix and TMA measurements on a GPU machine (issue 31): every pattern of
# the ldmatrix tables recorded with ncu (tests/data/ldmatrix_designed_h200.jsonl and
# ldmatrix_validation_h200.jsonl) swept through `warpscope-probe serve` with the refusals,
# `warpscope-probe selfcheck`, `tma-check` over every swizzle mode, element size and several
# offsets, compute-sanitizer memcheck over a sweep and TMA checks, and the SASS of the replay
# kernels. scripts/gpu/ldsm_probe_requests.py writes the requests; ldsm_probe_summary.py compares.
#
# REPLAY_TESTS (optional) is build/dev/tests/probe/warpscope-ldsm-replay-tests: the replay kernels
# launched without CUPTI, run plain and under memcheck (the probe's own replays run only with
# CUPTI's profiler, which refuses to share the GPU with compute-sanitizer). Everything is also
# packed into OUTDIR/all.tgz.
#
# Usage: scripts/gpu/ldsm_probe_check.sh PROBE REQUEST_DIR OUTDIR [REPLAY_TESTS]
set -u
probe=$1
req=$2
out=$3
replayTests=${4:-}
mkdir -p "$out"
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/extras/CUPTI/lib64 \
    /usr/local/cuda/lib64; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
export PATH=$PATH:/usr/local/cuda/bin:/usr/local/cuda/compute-sanitizer
{
    date -u
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
    nvcc --version 2>/dev/null | tail -2
    compute-sanitizer --version 2>/dev/null | tail -1
} >"$out/env.txt" 2>&1
"$probe" info >"$out/info.txt" 2>&1
timeout 150 "$probe" serve <"$req/requests.jsonl" >"$out/answers.jsonl" 2>"$out/answers.stderr"
echo "serve exit $?" >>"$out/answers.stderr"
timeout 150 "$probe" selfcheck >"$out/selfcheck.txt" 2>&1
echo "selfcheck exit $?" >>"$out/selfcheck.txt"
# Every mode at its widest row and at a narrower one, each element size, several offsets: one
# process each (a fault would end the process), eight at a time.
cases=$out/tma_cases.txt
: >"$cases"
for offset in 0 128 384 640 1024 3200; do
    for e in 1 2 4 8; do
        for spec in none:64 none:48 32B:32 32B:16 64B:64 64B:32 128B:128 128B:64; do
            mode=${spec%%:*}
            bytes=${spec##*:}
            echo "--swizzle $mode --box $((bytes / e))x8 --element-bytes $e --smem-offset $offset" >>"$cases"
        done
    done
done
echo "--swizzle 128B --box 64x16 --element-bytes 2 --smem-offset 384" >>"$cases"
echo "--swizzle 128B --box 64x11 --element-bytes 2 --smem-offset 640" >>"$cases"
echo "--swizzle 64B --box 8x13 --element-bytes 4 --smem-offset 128" >>"$cases"
xargs -P 8 -L 1 sh -c 'timeout 60 "$0" tma-check "$@" || echo "{\"failed\": \"$*\", \"exit\": $?}"' \
    "$probe" <"$cases" >"$out/tma_check.jsonl" 2>"$out/tma_check.stderr"
# compute-sanitizer memcheck: a sweep of ldmatrix/stmatrix patterns and TMA checks.
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 "$probe" serve \
    <"$req/requests_small.jsonl" >"$out/memcheck_sweep.jsonl" 2>"$out/memcheck_sweep.txt"
echo "memcheck sweep exit $?" >>"$out/memcheck_sweep.txt"
for args in "--swizzle 128B --box 64x16 --element-bytes 2 --smem-offset 384" \
    "--swizzle 32B --box 16x8 --element-bytes 1 --smem-offset 0" \
    "--swizzle none --box 12x5 --element-bytes 4 --smem-offset 3200"; do
    # shellcheck disable=SC2086
    timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 "$probe" tma-check $args \
        >>"$out/memcheck_tma.txt" 2>&1
    echo "memcheck tma-check $args: exit $?" >>"$out/memcheck_tma.txt"
done
if [ -n "$replayTests" ]; then
    "$replayTests" >"$out/replay_tests.txt" 2>&1
    echo "replay tests exit $?" >>"$out/replay_tests.txt"
    timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 "$replayTests" \
        >"$out/memcheck_replay.txt" 2>&1
    echo "memcheck replay tests exit $?" >>"$out/memcheck_replay.txt"
fi
cuobjdump -sass -arch sm_90 "$probe" 2>&1 |
    awk '/Function :/ { keep = ($0 ~ /Matrix|tmaTileDump/) } keep' >"$out/sass_ldsm.txt"
tar -czf "$out/all.tgz" -C "$out" --exclude all.tgz .
ls -la "$out"
