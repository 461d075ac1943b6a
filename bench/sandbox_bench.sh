#!/usr/bin/env bash
# The sandbox host's costs, side by side in one run (issue 12), 3 rounds, alternating:
#   latency  `exec true` p50 through MCP on the gateway host vs in an existing sandbox
#   cold     server spawn -> first `exec true` result, host vs sandbox (the difference is the
#            cost of creating a sandbox on first use)
#   bwrap    bare `bwrap --unshare-all --ro-bind / / true`, the baseline any bwrap sandbox pays
#   rss      resident memory of one idle sandbox (bubblewrap's two processes and the holder)
# Usage: bench/sandbox_bench.sh [<clawexec binary>] [<build dir with bench/spawn_baseline>]
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
  echo "{\"round\":$r,\"bwrap\":$("$B/bench/spawn_baseline" --iterations 200 -- /usr/bin/bwrap --unshare-all --ro-bind / / /bin/true)}"
done
# RSS of one idle sandbox: start a server, run one command, sum the sandbox's processes.
H=$(mktemp -d); S=$(state "$SANDBOX")
HOME=$H SHELL=/bin/bash OPENCLAW_STATE_DIR=$S node bench/mcp_bench.mjs once --cmd true -- $BIN serve >/dev/null &
sleep 0.3
KB=0
for i in $(seq 50); do
  PIDS=$(pgrep -f "bwrap --unshare-user" || true)
  [ -n "$PIDS" ] && break
  sleep 0.05
done
for p in $PIDS $(for q in $PIDS; do pgrep -P "$q"; done) $(for q in $PIDS; do for c in $(pgrep -P "$q"); do pgrep -P "$c"; done; done); do
  KB=$((KB + $(awk '/VmRSS/{print $2}' /proc/$p/status 2>/dev/null || echo 0)))
done
echo "{\"idle_sandbox_rss_kb\":$KB}"
wait
