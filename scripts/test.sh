#!/usr/bin/env bash
# Installs dependencies, then builds and tests twice:
#  * an optimised build (Release, warnings as errors) of everything, tests included: the binaries
#    as shipped, and the tests that gain nothing from the sanitizers: unit, lint, the fuzz smoke
#    run, the shell differential and the black-box `smoke` subset;
#  * an AddressSanitizer + UndefinedBehaviorSanitizer build, which runs the whole suite (every
#    unit and black-box test), so no test is skipped and every one runs under the sanitizers.
# Unit tests (GoogleTest) and black-box tests (the real binaries driven by the official MCP SDK
# client) both run under ctest. CLAWEXEC_FULL_RELEASE_TESTS=1 runs the whole suite in the
# optimised build too.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

scripts/install-deps.sh --test

echo "== build (Release, -Werror)"
# -O2 as in RelWithDebInfo (the warnings -Werror sees are those of -O2), without debug info.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" -DCLAWEXEC_WERROR=ON -DCLAWEXEC_BENCH=ON
cmake --build build -j "$jobs"
if [ "${CLAWEXEC_FULL_RELEASE_TESTS:-0}" = 1 ]; then
  echo "== tests (Release, all)"
  ctest --test-dir build --output-on-failure -j "$jobs"
else
  echo "== tests (Release: unit, lint, fuzz smoke, differential, black-box smoke)"
  ctest --test-dir build --output-on-failure -j "$jobs" -L 'unit|lint|fuzz|differential|smoke'
fi

echo "== build (ASan + UBSan)"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCLAWEXEC_WERROR=ON -DCLAWEXEC_SANITIZE=ON -DCLAWEXEC_BENCH=OFF
cmake --build build-asan -j "$jobs"
echo "== tests (ASan + UBSan)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs"
