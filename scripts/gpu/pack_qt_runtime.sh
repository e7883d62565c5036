#!/usr/bin/env bash
# Packs what the Qt app needs to run offscreen on a GPU machine without Qt (no Debian packages
# there): the shared libraries `ldd` lists for the given binaries (glibc itself excepted), Qt's
# offscreen platform plugin and the SVG image plugins with their libraries, a DejaVu font and a
# fonts.conf naming its folder. scripts/gpu/app_check.sh unpacks it.
# Usage: scripts/gpu/pack_qt_runtime.sh OUT.tar.xz BINARY...
set -euo pipefail
out=$1
shift
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib" "$stage/plugins/platforms" "$stage/plugins/imageformats" \
    "$stage/plugins/iconengines" "$stage/fonts"
plugins=/usr/lib/x86_64-linux-gnu/qt6/plugins
cp "$plugins/platforms/libqoffscreen.so" "$stage/plugins/platforms/"
cp "$plugins/imageformats/libqsvg.so" "$stage/plugins/imageformats/" 2>/dev/null || true
cp "$plugins/iconengines/libqsvgicon.so" "$stage/plugins/iconengines/" 2>/dev/null || true
for f in "$@" "$stage"/plugins/*/*.so; do
    ldd "$f" | awk '/=> \//{print $3}'
done | sort -u | grep -Ev '/(libc|libm|libdl|libpthread|librt|ld-linux-x86-64)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
cp /usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf /usr/share/fonts/truetype/dejavu/DejaVuSansMono*.ttf "$stage/fonts/"
cat >"$stage/fonts.conf" <<'CONF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>/tmp/warpscope-qt/fonts</dir>
  <cachedir>/tmp/warpscope-qt/cache</cachedir>
</fontconfig>
CONF
tar -C "$stage" -cJf "$out" .
ls -la "$out"
