#!/usr/bin/env bash
# Installs what is missing, builds warpscope (release preset) and starts the desktop app. Where Qt
# could not be built, it shows the command-line analysis of a preset instead.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
warpscope_setup release
if [ -x build/release/app/warpscope ]; then
    exec build/release/app/warpscope "$@"
fi
echo "warpscope: the desktop app was not built; showing the command-line model instead"
exec build/release/core/cli/warpscope-cli analyze readsegment-offset-11
