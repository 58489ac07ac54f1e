#!/usr/bin/env bash
# Installs what gpuguide needs to build and test, only what is missing, from Debian's archive and the npm
# registry (never from anywhere else). Idempotent: a second run checks and returns in about a second.
# Usage: tools/setup.sh [native|web|test|fuzz|bench]   (native: C++ build; web: + Emscripten and ImGui sources;
#                                                 test: + Chromium and playwright-core for browser tests;
#                                                 fuzz: native + ImGui sources + clang and its libFuzzer runtime;
#                                                 bench: web + Google Benchmark (package and sources))
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-test}

say() { printf '[setup] %s\n' "$*"; }
sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_="sudo"

# --- Debian packages: a package is wanted when the file it provides is missing --------------------------
need=()
want() { [ -e "$2" ] || need+=("$1"); }
want cmake /usr/bin/cmake
want g++ /usr/bin/g++
want make /usr/bin/make
want xz-utils /usr/bin/xz
want nlohmann-json3-dev /usr/include/nlohmann/json.hpp
want doctest-dev /usr/include/doctest/doctest.h
want libyaml-cpp-dev /usr/include/yaml-cpp/yaml.h  # reads the stacks' training configs (gpuguide from-config)
want python3-fonttools /usr/lib/python3/dist-packages/fontTools/subset/__init__.py
want fonts-wqy-microhei /usr/share/fonts/truetype/wqy/wqy-microhei.ttc
if [ "$what" != native ] && [ "$what" != fuzz ]; then
  want emscripten /usr/bin/emcc
  want libglfw3-dev /usr/include/GLFW/glfw3.h
  want zopfli /usr/bin/zopfli  # compresses the wasm inside the page (tools/assemble_page.py)
  command -v node >/dev/null || need+=(nodejs)
fi
if [ "$what" = test ]; then
  want chromium /usr/bin/chromium
  command -v npm >/dev/null || need+=(npm)
fi
if [ "$what" = bench ]; then
  want libbenchmark-dev /usr/include/benchmark/benchmark.h
fi
if [ "$what" = fuzz ]; then
  # make fuzz: clang++ 14 and libFuzzer's runtime (libclang_rt.fuzzer; libclang-common-14-dev only recommends it).
  want clang /usr/bin/clang++
  compgen -G '/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a' >/dev/null || need+=(libclang-rt-14-dev)
fi
if [ ${#need[@]} -gt 0 ]; then
  say "installing Debian packages: ${need[*]}"
  $sudo_ apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

# --- sources from Debian source packages (only the upstream tarball is unpacked) -------------------------
# unpack_source PACKAGE DIR: downloads PACKAGE's source (apt-get source, needs a deb-src entry) and unpacks its
# upstream tarball into DIR.
unpack_source() {
  local package=$1 dir=$2 tarball
  src_list=/etc/apt/sources.list.d/debian-src.sources
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    say "adding a deb-src entry ($src_list) from the machine's own Debian source list"
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources | $sudo_ tee "$src_list" >/dev/null
  fi
  mkdir -p build/deps/download
  ( cd build/deps/download
    if ! ls "${package}"_*.orig.tar.* >/dev/null 2>&1; then
      $sudo_ apt-get update -qq
      apt-get source --download-only -qq "$package"
    fi )
  tarball=$(ls build/deps/download/"${package}"_*.orig.tar.* | head -n 1)
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  tar -xf "$tarball" -C "$dir.tmp" --strip-components=1
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
  say "$package sources in $dir ($(basename "$tarball"))"
}

# Dear ImGui 1.86 (the page and the UI tests build it from source).
if [ "$what" != native ] && [ ! -f build/deps/imgui/imgui.cpp ]; then
  unpack_source imgui build/deps/imgui
fi
# yaml-cpp 0.7.0 (the page reads pasted training configs with it; natively libyaml-cpp-dev above).
if [ "$what" != native ] && [ "$what" != fuzz ] && [ ! -f build/deps/yaml-cpp/src/parse.cpp ]; then
  unpack_source yaml-cpp build/deps/yaml-cpp
fi
# Google Benchmark 1.7.1, for the wasm benchmarks of `make bench`.
if [ "$what" = bench ] && [ ! -f build/deps/benchmark/CMakeLists.txt ]; then
  unpack_source benchmark build/deps/benchmark
fi

# --- npm: playwright-core for the browser tests (the browser itself is Debian's chromium) ---------------
if [ "$what" = test ]; then
  want_ver=$(sed -n 's/.*"playwright-core": *"\([^"]*\)".*/\1/p' tests/browser/package.json)
  have_ver=$(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' tests/browser/node_modules/playwright-core/package.json 2>/dev/null || true)
  if [ "$want_ver" != "$have_ver" ]; then
    say "installing playwright-core $want_ver from the npm registry"
    ( cd tests/browser && npm install --no-audit --no-fund --loglevel=error )
  fi
fi
exit 0
