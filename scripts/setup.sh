#!/usr/bin/env bash
# Shared set-up for run.sh and test.sh: installs the Debian packages warpscope needs that are
# missing (apt-get, as root or through sudo), then configures and builds one CMake preset.
# clang and its runtime build the fuzz preset, clang-tidy checks the code; texlive compiles the TikZ export in the tests.
# Usage: source scripts/setup.sh; warpscope_setup PRESET [TARGET...]
# WARPSCOPE_CONFIGURE_OPTIONS (optional): further cache options for the configure step, such as
# -DWARPSCOPE_UNITY_BUILD=ON, which CI's dev step passes (docs/testing.md, "How long CI takes").
set -euo pipefail

WARPSCOPE_PACKAGES=(
    build-essential cmake ninja-build pkg-config git
    nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev
    qt6-base-dev qt6-base-dev-tools qt6-svg-dev libqt6svg6 libgl-dev
    libqcustomplot-dev libqcustomplot2.1-qt6
    xvfb xauth fonts-dejavu-core
    dpkg-dev appstream desktop-file-utils
    clang libclang-rt-14-dev clang-tidy
    texlive-latex-base texlive-pictures
)

warpscope_install_packages() {
    local missing=()
    local pkg
    for pkg in "${WARPSCOPE_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        echo "warpscope: all Debian packages are installed"
        return 0
    fi
    echo "warpscope: installing missing Debian packages: ${missing[*]}"
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null; then
            sudo=(sudo)
        else
            echo "warpscope: need root (or sudo) to install: ${missing[*]}" >&2
            return 1
        fi
    fi
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "${missing[@]}"
}

warpscope_configure_and_build() {
    local preset=$1
    shift
    local options=()
    read -r -a options <<<"${WARPSCOPE_CONFIGURE_OPTIONS:-}"
    cmake --preset "$preset" "${options[@]}"
    if [ $# -gt 0 ]; then
        cmake --build --preset "$preset" --parallel "$(nproc)" --target "$@"
    else
        cmake --build --preset "$preset" --parallel "$(nproc)"
    fi
}

warpscope_setup() {
    cd "$(dirname "${BASH_SOURCE[0]}")/.."
    warpscope_install_packages
    warpscope_configure_and_build "$@"
}
