#!/usr/bin/env bash
# Installs dependencies, builds clawexec (Release) and starts the gateway in the foreground on
# the embedded defaults: http://127.0.0.1:18789, MCP over streamable HTTP at /mcp, a token
# generated on first start into <state>/gateway/token (0600). Logs go to stderr; Ctrl-C stops
# it and every command it started. Extra arguments go to `clawexec gateway` (e.g. --port 0).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-release.sh
echo "Starting the gateway. In another terminal: build-release/bin/clawexec gateway status" >&2
exec build-release/bin/clawexec gateway "$@"
