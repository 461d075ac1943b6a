#!/usr/bin/env bash
# Builds the benchmark programs and a Release clawexec, runs every measurement against its
# baseline in the same run (and against OpenClaw itself when the reference is installed),
# and prints the summary table (bench/summarize.mjs). Raw results: one JSON line per
# measurement in $OUT_DIR/results.jsonl.
#
# Environment knobs:
#   BUILD_DIR     build tree (default <repo>/build-bench, Release)
#   REPEATS       how many times each whole-process measurement is repeated (default 3; the
#                 table reports the median of the per-run figures)
#   SESSIONS      background sessions for the memory test (default 1000)
#   MAX_LOAD      wait (up to LOAD_WAIT seconds, default 300) for the 1-minute load average to
#                 drop below this before each repeat (default 1.5; the load is recorded anyway)
#   OPENCLAW=0    skip the OpenClaw comparison; OPENCLAW_SESSIONS=0 skips only its 1000-session
#                 run (about 30 s)
#   NODE          Node.js for the client (default: node); OC_NODE: Node 24 for OpenClaw
#   QUICK=1       fewer iterations (smoke test of the harness, figures not for the record)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build-bench}
REPEATS=${REPEATS:-3}
SESSIONS=${SESSIONS:-1000}
MAX_LOAD=${MAX_LOAD:-1.5}
LOAD_WAIT=${LOAD_WAIT:-300}
OPENCLAW=${OPENCLAW:-1}
OPENCLAW_SESSIONS=${OPENCLAW_SESSIONS:-$SESSIONS}
NODE=${NODE:-node}
REFERENCE_DIR=${CLAWEXEC_REFERENCE:-$HOME/.cache/clawexec-reference}
OC_NODE=${OC_NODE:-$REFERENCE_DIR/node24/package/bin/node}
QUICK=${QUICK:-0}
OUT_DIR=${OUT_DIR:-$BUILD_DIR/bench-results/$(date +%Y%m%d-%H%M%S)}

if [[ $QUICK == 1 ]]; then
  N_LAT=100; N_SPAWN=200; N_BULK=2; N_COLD=5; N_OC_LAT=20; N_OC_BULK=1; GB_TIME=0.1
else
  N_LAT=500; N_SPAWN=500; N_BULK=5; N_COLD=20; N_OC_LAT=100; N_OC_BULK=3; GB_TIME=0.5
fi
BIG_TR="head -c 100000000 /dev/zero | tr '\\0' a"
BIG_YES="yes | head -c 100000000"

# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

# ---------------------------------------------------------------------------- build
log "building in $BUILD_DIR"
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLAWEXEC_TESTS=OFF \
  -DCLAWEXEC_BENCH=ON >/dev/null
cmake --build "$BUILD_DIR" -j2 --target clawexec clawexec-shim spawn_baseline stream_baseline \
  clawexec_inproc_bench >/dev/null
SERVER=("$BUILD_DIR/bin/clawexec" serve)
B="$BUILD_DIR/bench"
MCP=("$NODE" "$BENCH_DIR/mcp_bench.mjs")

mkdir -p "$OUT_DIR"
: >"$OUT_DIR/results.jsonl"
HAVE_OPENCLAW=0
if [[ $OPENCLAW == 1 && -x $OC_NODE && -d $REFERENCE_DIR/openclaw/node_modules/openclaw/dist ]]; then
  HAVE_OPENCLAW=1
fi
OC_SERVER=("$OC_NODE" "$BENCH_DIR/openclaw_exec_mcp.mjs")

{
  echo "{\"date\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\",\"commit\":\"$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)\","
  echo "\"src_files_modified\":$(git -C "$ROOT" status --porcelain -- src 2>/dev/null | wc -l),"
  echo "\"cpu\":\"$(lscpu | sed -n 's/^Model name: *//p' | head -1)\",\"cores\":$(nproc),"
  echo "\"kernel\":\"$(uname -r)\",\"mem_mib\":$(free -m | awk '/^Mem:/ {print $2}'),"
  echo "\"shell\":\"${SHELL:-}\",\"nofile_soft\":$(ulimit -Sn),\"nofile_hard\":$(ulimit -Hn),"
  echo "\"node\":\"$($NODE --version)\",\"openclaw\":$HAVE_OPENCLAW,\"repeats\":$REPEATS,\"sessions\":$SESSIONS}"
} | tr -d '\n' >"$OUT_DIR/machine.json"

# Work in a scratch directory so commands run with a harmless cwd.
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

# ---------------------------------------------------------------------------- measurements
for ((r = 1; r <= REPEATS; r++)); do
  wait_for_quiet
  log "repeat $r/$REPEATS"
  # exec `true`: baselines and the server back to back.
  record spawn_sh "$r" "$B/spawn_baseline" --iterations "$N_SPAWN" -- /bin/sh -c true
  record spawn_bash "$r" "$B/spawn_baseline" --iterations "$N_SPAWN" -- /bin/bash --noprofile --norc -c true
  # The reaper layer alone: clawexec-shim's direct mode (control socket on fd 3) + bash, no server.
  record spawn_shim_bash "$r" "$B/spawn_baseline" --iterations "$N_SPAWN" --fd3-socketpair -- \
    "$BUILD_DIR/bin/clawexec-shim" pipes /bin/bash /bin/bash --noprofile --norc -c true
  record latency_default_shell "$r" "${MCP[@]}" latency --n "$N_LAT" -- "${SERVER[@]}"
  record latency_sh "$r" env SHELL=/bin/sh "${MCP[@]}" latency --n "$N_LAT" -- "${SERVER[@]}"
  # 100 MB of output.
  record pipe_tr "$r" "$B/stream_baseline" --mode pipe --iterations "$N_BULK" -- "$BIG_TR"
  record bulk_tr "$r" "${MCP[@]}" bulk --n "$N_BULK" --cmd "$BIG_TR" -- "${SERVER[@]}"
  record pipe_yes "$r" "$B/stream_baseline" --mode pipe --iterations "$N_BULK" -- "$BIG_YES"
  record bulk_yes "$r" "${MCP[@]}" bulk --n "$N_BULK" --cmd "$BIG_YES" -- "${SERVER[@]}"
  # PTY.
  record pty_raw "$r" "$B/stream_baseline" --mode pty --iterations 3 -- "$BIG_TR"
  record pty_tr "$r" "${MCP[@]}" bulk --pty --n 3 --cmd "$BIG_TR" -- "${SERVER[@]}"
  # Cold start.
  record spawn_echo "$r" "${MCP[@]}" spawnecho --n "$N_COLD" -- cat
  record cold "$r" "${MCP[@]}" cold --n "$N_COLD" -- "${SERVER[@]}"
  # Memory.
  record sessions "$r" "${MCP[@]}" sessions --n "$SESSIONS" -- "${SERVER[@]}"
  record growth "$r" "${MCP[@]}" growth --at 0,100,1000,3000 -- "${SERVER[@]}"
done

wait_for_quiet
log "in-process benchmarks (Google Benchmark)"
"$B/clawexec_inproc_bench" --benchmark_min_time="$GB_TIME" --benchmark_repetitions="$REPEATS" \
  --benchmark_report_aggregates_only=true --benchmark_format=json \
  >"$OUT_DIR/inproc.json" 2>/dev/null || log "FAILED: clawexec_inproc_bench"

if [[ $HAVE_OPENCLAW == 1 ]]; then
  wait_for_quiet
  log "OpenClaw comparison"
  record oc_inproc_latency 1 "$OC_NODE" "$BENCH_DIR/openclaw_inproc.mjs" latency "$N_OC_LAT"
  record oc_inproc_bulk 1 "$OC_NODE" "$BENCH_DIR/openclaw_inproc.mjs" bulk "$N_OC_BULK" "$BIG_TR"
  record oc_latency 1 "${MCP[@]}" latency --n "$N_OC_LAT" --warmup 10 -- "${OC_SERVER[@]}"
  record oc_bulk 1 "${MCP[@]}" bulk --n "$N_OC_BULK" --cmd "$BIG_TR" -- "${OC_SERVER[@]}"
  record oc_cold 1 "${MCP[@]}" cold --n 5 -- "${OC_SERVER[@]}"
  if [[ $OPENCLAW_SESSIONS != 0 ]]; then
    record oc_sessions 1 "${MCP[@]}" sessions --n "$OPENCLAW_SESSIONS" -- "${OC_SERVER[@]}"
  fi
fi

log "results in $OUT_DIR"
"$NODE" "$BENCH_DIR/summarize.mjs" "$OUT_DIR"
