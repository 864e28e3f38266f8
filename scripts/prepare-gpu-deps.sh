#!/usr/bin/env bash
# Copies the header-only dependencies into .deps/ (ignored by git) so that the GPU machine, which
# has no Debian -dev packages, can build; pass `.deps` in the device tool's carry list.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
rm -rf .deps && mkdir -p .deps/include .deps/cmake
cp -r /usr/include/nlohmann /usr/include/CLI /usr/include/toml++ /usr/include/doctest .deps/include/
cp /usr/lib/cmake/doctest/*.cmake .deps/cmake/
# zlib (gzip-compressed traces): the header and the static library, since the GPU machine has no zlib1g-dev
mkdir -p .deps/lib && cp /usr/include/zlib.h /usr/include/zconf.h .deps/include/ && cp /usr/lib/x86_64-linux-gnu/libz.a .deps/lib/
du -sh .deps
