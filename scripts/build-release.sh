#!/usr/bin/env bash
# Installs dependencies and builds the optimised clawexec and clawexec-shim into build-release/
# (what scripts/gateway.sh and scripts/serve.sh start). All output goes to stderr, so a script
# whose stdout is an MCP stream can call it.
set -euo pipefail
cd "$(dirname "$0")/.."
{
  scripts/install-deps.sh
  cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLAWEXEC_TESTS=OFF -DCLAWEXEC_BENCH=OFF
  cmake --build build-release --target clawexec clawexec-shim
} 1>&2
