#!/usr/bin/env bash
# Installs the Debian 12 packages Reduction Lab builds and tests with (idempotent; root or sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  doctest-dev nlohmann-json3-dev libtomlplusplus-dev libcli11-dev libfmt-dev libstb-dev zlib1g-dev
  libglfw3-dev libepoxy-dev libimgui-dev glslang-tools fonts-dejavu-core
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  xvfb xauth poppler-utils clang-14 libclang-rt-14-dev llvm-14-dev
  dpkg-dev librsvg2-bin desktop-file-utils appstream groff-base
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 2; }
  SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
