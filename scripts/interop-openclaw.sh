#!/usr/bin/env bash
# The slow interop suite (tests/mcp/*.interop.mjs): OpenClaw's own CLI against our gateway, and
# our node host (`clawexec node run`) paired with OpenClaw's real gateway (openclaw_node_host.interop.mjs).
# Needs the reference OpenClaw (../shared/tools/install-reference.sh) and a built tree
# (BUILD_DIR, default build). Not part of scripts/test.sh: it needs the reference installed.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
(cd tests/mcp && [ -d node_modules/@modelcontextprotocol/conformance ] || npm ci --silent)
cd tests/mcp
CLAWEXEC_BIN=$PWD/../../$BUILD_DIR/bin/clawexec CLAWEXEC_SHIM=$PWD/../../$BUILD_DIR/bin/clawexec-shim \
  exec node --test --test-concurrency=1 --test-reporter=spec ./*.interop.mjs
