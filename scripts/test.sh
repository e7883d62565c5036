#!/usr/bin/env bash
# Installs what is missing, builds warpscope (dev preset: debug, warnings as errors) and runs the
# whole test suite through ctest. GPU tests skip with a reason where there is no GPU.
#   ./scripts/test.sh           the dev preset
#   ./scripts/test.sh asan      the AddressSanitizer + UBSan preset
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
preset=${1:-dev}
warpscope_setup "$preset"
status=0
ctest --preset "$preset" --parallel "$(nproc)" || status=$?
# ctest keeps a skipped test's reason in its log: print it, so a GPU test that did not run says why.
log="build/$preset/Testing/Temporary/LastTest.log"
if [ -f "$log" ] && grep -q ': Skipped$' "$log"; then
    echo "Skipped tests and why:"
    grep -h -A1 ': Skipped$' "$log" | grep -v -e ': Skipped$' -e '^--$' | sort | uniq -c
fi
exit "$status"
