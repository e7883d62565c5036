#!/usr/bin/env bash
# Every file in tests/data is read by a test, or is listed with its reason in unread.txt.
# "Read by a test": its path below tests/data is named in a test source, or a folder above it is
# (as a folder: "DIR/" or "DIR" quoted, as a test that reads every file in it names it)
# (any file under tests/ outside tests/data and this folder). The check fails on:
#   - a data file that no test names and unread.txt does not list (add a test that reads it, or
#     remove it, or list it with the reason no test can read it);
#   - an unread.txt entry that is missing from tests/data, or that a test now names (take it off).
# Usage: check_data_files_read.sh TESTS_DIR
set -euo pipefail
tests=${1:?usage: check_data_files_read.sh TESTS_DIR}
data=$tests/data
allow=$tests/datafiles/unread.txt
[ -d "$data" ] || { echo "no folder $data" >&2; exit 2; }
[ -f "$allow" ] || { echo "no allow-list $allow" >&2; exit 2; }

# The text of every test source, once.
sources=$(mktemp)
trap 'rm -f "$sources"' EXIT
find "$tests" -path "$data" -prune -o -path "$tests/datafiles" -prune -o -type f \
    \( -name '*.cpp' -o -name '*.h' -o -name '*.sh' -o -name '*.py' -o -name '*.cmake' \
    -o -name 'CMakeLists.txt' \) -print0 | xargs -0 cat >"$sources"

named() { # PATH below tests/data: named by a test source, itself or a folder above it
    local rel=$1
    grep -qF -- "$rel" "$sources" && return 0
    local dir=$rel
    while [[ $dir == */* ]]; do
        dir=${dir%/*}
        grep -qF -e "$dir/\"" -e "\"$dir\"" -- "$sources" && return 0
    done
    return 1
}

allowed() { # PATH below tests/data: listed in unread.txt, itself or a folder above it ("dir/")
    local rel=$1 entry
    while read -r entry _; do
        [ -z "$entry" ] || [[ $entry == \#* ]] && continue
        if [ "$entry" = "$rel" ] || { [[ $entry == */ ]] && [[ $rel == "$entry"* ]]; }; then
            return 0
        fi
    done <"$allow"
    return 1
}

status=0
checked=0
listed=0
missing=0
while IFS= read -r -d '' file; do
    rel=${file#"$data"/}
    checked=$((checked + 1))
    if named "$rel"; then
        continue
    fi
    if allowed "$rel"; then
        listed=$((listed + 1))
        continue
    fi
    missing=$((missing + 1))
    echo "tests/data/$rel: no test reads it; add a test that does, remove it, or list it with" \
        "its reason in tests/datafiles/unread.txt" >&2
    status=1
done < <(find "$data" -type f -print0 | sort -z)

while read -r entry _; do
    [ -z "$entry" ] || [[ $entry == \#* ]] && continue
    if [ ! -e "$data/$entry" ]; then
        echo "tests/datafiles/unread.txt lists $entry, which is not in tests/data: take it off" >&2
        status=1
    elif [[ $entry != */ ]] && named "$entry"; then
        echo "tests/datafiles/unread.txt lists $entry, which a test now reads: take it off" >&2
        status=1
    fi
done <"$allow"

echo "$checked files in tests/data: $((checked - listed - missing)) read by a test, $listed listed as unread, $missing neither"
exit "$status"
