#!/usr/bin/env bash
# Two clawexec builds side by side in one run, alternating, 3 rounds: `exec true` latency and
# server CPU (mcp_bench.mjs latency), 100 MB of output (mcp_bench.mjs bulk), and the bare
# posix_spawn of bash (spawn_baseline). Each server gets an empty HOME and state directory.
# Usage: bench/issue11_compare.sh <base clawexec> <new clawexec> [<build dir with bench/spawn_baseline>]
set -u
cd "$(dirname "$0")/.."
BASE=${1:?base clawexec binary}
NEW=${2:?new clawexec binary}
B=${3:-build}
BIG="head -c 100000000 /dev/zero | tr '\\0' a"
for r in 1 2 3; do
  for which in base new; do
    BIN=$BASE; [ $which = new ] && BIN=$NEW
    H=$(mktemp -d); S=$(mktemp -d)
    echo "{\"round\":$r,\"which\":\"$which\",\"latency\":$(HOME=$H SHELL=/bin/bash OPENCLAW_STATE_DIR=$S node bench/mcp_bench.mjs latency --n 300 --warmup 30 -- $BIN serve)}"
    H=$(mktemp -d); S=$(mktemp -d)
    echo "{\"round\":$r,\"which\":\"$which\",\"bulk\":$(HOME=$H SHELL=/bin/bash OPENCLAW_STATE_DIR=$S node bench/mcp_bench.mjs bulk --n 3 --cmd "$BIG" -- $BIN serve)}"
  done
  echo "{\"round\":$r,\"spawn_bash\":$("$B/bench/spawn_baseline" --iterations 300 -- /bin/bash -c true)}"
done
