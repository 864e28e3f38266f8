#!/usr/bin/env bash
# Builds the Debian package (reduction-lab_VERSION_amd64.deb, installing to /usr) and installs it with apt:
# the three programs in the menu and on PATH, lessons, man pages, bash completion. Remove: apt remove reduction-lab.
# --no-install only builds the package.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default -j "$(nproc)"
(cd build/default && cpack -G DEB)
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' build/default/CMakeCache.txt)
pkg="$PWD/build/default/reduction-lab_${version}_amd64.deb"
echo "package: $pkg"
[ "${1:-}" = "--no-install" ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get install -y "$pkg"
