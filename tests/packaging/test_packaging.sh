#!/usr/bin/env bash
# Packaging tests, run by ctest (tests/packaging/CMakeLists.txt):
#   metadata  desktop-file-validate and `appstreamcli validate --no-net` pass, and the application
#             id, the version and the MIME type agree across the desktop entry, the metainfo, the
#             MIME XML and the app's setDesktopFileName.
#   deb       builds the .deb and .tar.gz (`cmake --build BUILD --target package`), unpacks the
#             .deb into a scratch root, checks its files and dependencies, then runs the installed
#             warpscope-cli on a preset and starts the installed app offscreen.
# Exit 0 passed, 1 failed, 77 skipped (a tool is missing; the reason is printed).
# Usage: test_packaging.sh metadata|deb SOURCE_DIR BUILD_DIR VERSION HAVE_APP HAVE_PROBE
set -euo pipefail

mode=$1 src=$2 build=$3 version=$4 have_app=$5 have_probe=$6
app_id=io.github.warpscope.Warpscope
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
skip() { echo "SKIP: $*"; exit 77; }
need() { # tool debian-package
    command -v "$1" >/dev/null || skip "$1 is not installed (Debian: $2; scripts/setup.sh installs it)"
}
finish() {
    if ((failures > 0)); then
        echo "$failures check(s) failed" >&2
        exit 1
    fi
    echo "all checks passed"
    exit 0
}

desktop="$src/packaging/$app_id.desktop"
metainfo="$build/packaging/$app_id.metainfo.xml"
mime="$src/packaging/$app_id.mime.xml"

if [[ $mode == metadata ]]; then
    need desktop-file-validate desktop-file-utils
    need appstreamcli appstream

    if out=$(desktop-file-validate "$desktop" 2>&1) && ! grep -q 'error:' <<<"$out"; then
        pass "desktop-file-validate $desktop${out:+ ($out)}"
    else
        fail "desktop-file-validate $desktop: $out"
    fi
    if out=$(appstreamcli validate --no-net "$metainfo" 2>&1); then
        pass "appstreamcli validate --no-net $metainfo"
    else
        fail "appstreamcli validate --no-net $metainfo: $out"
    fi

    # One application id everywhere (ARCHITECTURE/STYLE: no three spellings of one id).
    grep -qx "Icon=$app_id" "$desktop" || fail "the desktop entry's Icon is not $app_id"
    grep -q "<id>$app_id</id>" "$metainfo" || fail "the metainfo's <id> is not $app_id"
    grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo" ||
        fail "the metainfo's launchable is not $app_id.desktop"
    grep -q "kApplicationId = \"$app_id\"" "$src/app/src/shell/applicationsetup.h" ||
        fail "app/src/shell/applicationsetup.h's kApplicationId (setDesktopFileName) is not $app_id"
    # The MIME type the desktop entry opens is the one the MIME XML defines and AppStream provides.
    mime_type=$(sed -n 's/.*<mime-type type="\([^"]*\)".*/\1/p' "$mime")
    [[ $mime_type == application/x-warpscope-session ]] || fail "MIME XML defines '$mime_type'"
    grep -qx "MimeType=$mime_type;" "$desktop" || fail "the desktop entry does not open $mime_type"
    grep -q "<mediatype>$mime_type</mediatype>" "$metainfo" || fail "the metainfo does not provide $mime_type"
    grep -q '<glob pattern="\*.warpscope"/>' "$mime" || fail "the MIME XML has no *.warpscope glob"
    # The newest release in the metainfo is the version project() declares.
    newest=$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' "$metainfo" | head -n 1)
    [[ $newest == "$version" ]] || fail "the metainfo's newest release is '$newest', the project is $version"
    ((failures == 0)) && pass "one application id ($app_id), MIME type and version ($version)"
    finish
fi

[[ $mode == deb ]] || { echo "usage: $0 metadata|deb SOURCE_DIR BUILD_DIR VERSION HAVE_APP HAVE_PROBE" >&2; exit 2; }

need dpkg dpkg
need dpkg-deb dpkg
need dpkg-shlibdeps dpkg-dev

start=$SECONDS
echo "building the packages: cmake --build $build --target package"
if ! cmake --build "$build" --target package; then
    fail "cmake --build $build --target package"
    finish
fi
echo "packaged in $((SECONDS - start)) s"

# CPack's default names: Debian's for the .deb, NAME-VERSION-SYSTEM for the .tar.gz.
deb="$build/packages/warpscope_${version}_$(dpkg --print-architecture).deb"
tgz="$build/packages/warpscope-$version-Linux.tar.gz"
[[ -f $deb ]] || { fail "no $deb"; finish; }
[[ -f $tgz ]] || fail "no $tgz"
pass "packages: $deb ($(stat -c %s "$deb") bytes), $tgz"

# The control fields.
field() { dpkg-deb -f "$deb" "$1"; }
[[ $(field Package) == warpscope ]] || fail "Package is '$(field Package)'"
[[ $(field Version) == "$version" ]] || fail "Version is '$(field Version)', not $version"
[[ $(field Section) == devel ]] || fail "Section is '$(field Section)', not devel"
depends=$(field Depends)
echo "Depends: $depends"
grep -q 'libc6' <<<"$depends" || fail "Depends lacks libc6 (dpkg-shlibdeps did not run?)"
grep -q 'libstdc++6' <<<"$depends" || fail "Depends lacks libstdc++6"
if [[ $have_app == 1 ]]; then
    grep -q 'libqt6widgets6' <<<"$depends" || fail "Depends lacks libqt6widgets6"
    # Qt loads the SVG icon engine as a plugin: dpkg-shlibdeps cannot see it, so it is listed by hand.
    grep -q 'libqt6svg6' <<<"$depends" || fail "Depends lacks libqt6svg6 (the SVG icon plugin)"
fi

# Unpack into a scratch root, as `dpkg -i` would lay it out.
root="$build/tests/packaging/scratch-root"
rm -rf "$root"
mkdir -p "$root"
dpkg-deb -x "$deb" "$root"

expected=(usr/bin/warpscope-cli usr/share/doc/warpscope/README.md
          usr/share/warpscope/decks/course.json)
if [[ $have_probe == 1 ]]; then expected+=(usr/bin/warpscope-probe); fi
if [[ $have_app == 1 ]]; then
    expected+=(
        usr/bin/warpscope
        "usr/share/applications/$app_id.desktop"
        "usr/share/metainfo/$app_id.metainfo.xml"
        "usr/share/mime/packages/$app_id.xml"
        "usr/share/icons/hicolor/scalable/apps/$app_id.svg"
        "usr/share/icons/hicolor/48x48/apps/$app_id.png"
        "usr/share/icons/hicolor/128x128/apps/$app_id.png"
        "usr/share/icons/hicolor/256x256/apps/$app_id.png"
    )
fi
for file in "${expected[@]}"; do
    [[ -f $root/$file ]] || fail "the .deb lacks /$file"
done
for size in 48 128 256; do
    png="$root/usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png"
    [[ -f $png ]] || continue
    # A PNG's IHDR holds the width and height as big-endian 32-bit numbers at bytes 16 and 20.
    dims=$(od -An -tu1 -j16 -N8 "$png" | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}')
    [[ $dims == "${size}x${size}" ]] || fail "$png is $dims, not ${size}x${size}"
done
if [[ -f $tgz ]]; then
    # Lists are captured first: `grep -q` closing a pipe early would fail the pipeline (pipefail).
    listing=$(tar -tzf "$tgz")
    grep -q '/bin/warpscope-cli$' <<<"$listing" || fail ".tar.gz lacks bin/warpscope-cli"
fi
((failures == 0)) && pass "the .deb holds ${#expected[@]} expected files"
if [[ $have_app == 1 ]] && command -v readelf >/dev/null; then
    # When the app links QCustomPlot (optional at build time), dpkg-shlibdeps must have said so.
    needed=$(readelf -d "$root/usr/bin/warpscope")
    if grep -q 'libQCustomPlotQt6' <<<"$needed"; then
        grep -q 'libqcustomplot' <<<"$depends" || fail "the app links QCustomPlot; Depends lacks it"
    fi
fi

# The installed CLI on a preset (seed 002's readSegment, offset 11: five sectors, two lines).
cli="$root/usr/bin/warpscope-cli"
if out=$("$cli" analyze readsegment-offset-11 2>&1); then
    grep -Eq '^  sectors +5 +l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum' <<<"$out" ||
        fail "installed warpscope-cli: no '5 sectors' line in: $out"
    grep -Eq '^  transactions +2$' <<<"$out" || fail "installed warpscope-cli: no '2 transactions' line"
    pass "installed warpscope-cli analyze readsegment-offset-11"
else
    fail "installed warpscope-cli analyze readsegment-offset-11 exited non-zero: $out"
fi
[[ $("$cli" --version 2>&1) == *"$version"* ]] || fail "installed warpscope-cli --version does not say $version"

if [[ $have_probe == 1 ]]; then
    # The probe starts and explains itself without a GPU; nothing here needs one.
    if out=$("$root/usr/bin/warpscope-probe" --help 2>&1) && grep -q '^Usage:' <<<"$out"; then
        pass "installed warpscope-probe --help"
    else
        fail "installed warpscope-probe --help: $out"
    fi
fi

if [[ $have_app == 1 ]]; then
    # The installed app, offscreen, with a throw-away home so no settings are touched.
    home="$build/tests/packaging/scratch-home"
    rm -rf "$home"
    mkdir -p "$home/runtime"
    chmod 700 "$home/runtime"
    if out=$(HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_RUNTIME_DIR="$home/runtime" \
        QT_QPA_PLATFORM=offscreen timeout 120 "$root/usr/bin/warpscope" \
        --preset readsegment-offset-11 --quit-after-first-frame 2>&1); then
        pass "installed warpscope --preset readsegment-offset-11 --quit-after-first-frame"
    else
        fail "installed warpscope exited with $?: $out"
    fi
    [[ $(QT_QPA_PLATFORM=offscreen "$root/usr/bin/warpscope" --version 2>&1) == *"$version"* ]] ||
        fail "installed warpscope --version does not say $version"
fi

echo "packaging test took $((SECONDS - start)) s"
finish
