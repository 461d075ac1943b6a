#!/usr/bin/env bash
# The sandbox host's costs, side by side in one run (issue 12), 3 rounds, alternating:
#   latency  `exec true` p50 through MCP on the gateway host vs in an existing sandbox
#   cold     server spawn -> first `exec true` result, host vs sandbox (the difference is the
#            cost of creating a sandbox on first use)
#   recreate in one running server, `exec true` into a just-created sandbox vs the live one
#   bwrap    bare `bwrap --unshare-all --ro-bind / / true`, the baseline any bwrap sandbox pays
#   rss      resident memory of one idle sandbox (bubblewrap's two processes and the holder)
#   bridge   the cold figure with docker.network "bridge" (pasta started per sandbox)
#   codex    peer figure: `codex sandbox -- /bin/true` (Codex CLI's Linux sandbox: bwrap + seccomp),
#            when CODEX_BIN names its native binary (npm @openai/codex, vendor/.../bin/codex)
# Usage: [CODEX_BIN=...] bench/sandbox_bench.sh [<clawexec binary>] [<build dir with bench/spawn_baseline>]
set -u
cd "$(dirname "$0")/.."
BIN=${1:-build/bin/clawexec}
B=${2:-build}
SANDBOX='{"agents":{"defaults":{"sandbox":{"mode":"all"}}}}'
state() { # $1 = config json or "" -> prints a fresh state dir
  local s; s=$(mktemp -d)
  [ -n "$1" ] && printf '%s' "$1" > "$s/openclaw.json"
  echo "$s"
}
for r in 1 2 3; do
  for which in host sandbox; do
    CFG=""; [ $which = sandbox ] && CFG=$SANDBOX
    H=$(mktemp -d); S=$(state "$CFG")
    echo "{\"round\":$r,\"which\":\"$which\",\"latency\":$(HOME=$H SHELL=/bin/bash OPENCLAW_STATE_DIR=$S node bench/mcp_bench.mjs latency --n 300 --warmup 30 -- $BIN serve)}"
    H=$(mktemp -d); S=$(state "$CFG")
    echo "{\"round\":$r,\"which\":\"$which\",\"cold\":$(HOME=$H SHELL=/bin/bash OPENCLAW_STATE_DIR=$S node bench/mcp_bench.mjs cold --n 20 -- $BIN serve)}"
  done
  H=$(mktemp -d); S=$(state "$SANDBOX")
  echo "{\"round\":$r,\"recreate\":$(HOME=$H SHELL=/bin/bash OPENCLAW_STATE_DIR=$S node bench/mcp_bench.mjs recreate --n 20 -- $BIN serve)}"
  echo "{\"round\":$r,\"bwrap\":$("$B/bench/spawn_baseline" --iterations 200 -- /usr/bin/bwrap --unshare-all --ro-bind / / /bin/true)}"
  if [ -n "${CODEX_BIN:-}" ]; then
    mkdir -p "$HOME/.cache/clawexec-bench-codex"
    echo "{\"round\":$r,\"codex\":$(HOME=$HOME/.cache/clawexec-bench-codex "$B/bench/spawn_baseline" --iterations 50 -- "$CODEX_BIN" sandbox -- /bin/true)}"
  fi
done
# RSS of one idle sandbox (from its record: bubblewrap's processes and the holder) and of the
# server before and after it made the sandbox.
H=$(mktemp -d); S=$(state "$SANDBOX")
echo "{\"rss\":$(HOME=$H SHELL=/bin/bash OPENCLAW_STATE_DIR=$S node bench/mcp_bench.mjs sandboxrss -- $BIN serve)}"
# Bridge networking: the first command of a new sandbox with docker.network "bridge" (pasta).
BRIDGE='{"agents":{"defaults":{"sandbox":{"mode":"all","docker":{"network":"bridge"}}}}}'
H=$(mktemp -d); S=$(state "$BRIDGE")
echo "{\"which\":\"bridge\",\"cold\":$(HOME=$H SHELL=/bin/bash OPENCLAW_STATE_DIR=$S node bench/mcp_bench.mjs cold --n 10 -- $BIN serve)}"
