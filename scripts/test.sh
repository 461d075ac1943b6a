#!/usr/bin/env bash
# Installs dependencies, then builds and runs the whole test suite twice: a normal build with
# warnings as errors, and an AddressSanitizer + UndefinedBehaviorSanitizer build. Unit tests
# (GoogleTest) and black-box tests (the real binaries driven by the official MCP SDK client)
# both run under ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

scripts/install-deps.sh --test

echo "== build (RelWithDebInfo, -Werror)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLAWEXEC_WERROR=ON -DCLAWEXEC_BENCH=ON
cmake --build build -j "$jobs"
echo "== tests"
ctest --test-dir build --output-on-failure -j "$jobs"

echo "== build (ASan + UBSan)"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCLAWEXEC_WERROR=ON -DCLAWEXEC_SANITIZE=ON -DCLAWEXEC_BENCH=OFF
cmake --build build-asan -j "$jobs"
echo "== tests (ASan + UBSan)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs"
