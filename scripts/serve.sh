#!/usr/bin/env bash
# Installs dependencies, builds clawexec (Release) and starts the MCP server on stdio with the
# embedded defaults (tools.exec: host=auto, security=full, ask=off, timeout 1800 s, yield
# 10 s). Extra arguments go to `clawexec serve` (e.g. --agent ID). Build output goes to stderr
# so stdout carries only the MCP protocol; an MCP client can use this script as its command.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-release.sh
exec build-release/bin/clawexec serve "$@"
