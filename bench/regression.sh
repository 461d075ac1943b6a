#!/usr/bin/env bash
# Side-by-side regression check of the policy path against an earlier commit, in one run:
# builds BASE (a git ref, checked out into a scratch worktree) and the current tree, both
# Release, and measures alternately, REPEATS times each:
#   * policy_bench BM_DecideGateway (the gateway decision, 1000-entry allowlist, in-process);
#   * `exec true` over MCP stdio with the default policy (security=full: no analysis);
#   * over MCP stdio under security=allowlist (analysed, rendered, run): `printf x | head -c 1`
#     (an allowlisted program piped into a safe bin).
# Prints medians and the ratio current/base per figure; raw output in $OUT_DIR.
#
#   BASE=<ref> bench/regression.sh
#
# Knobs: REPEATS (default 5), N (exec calls per latency run, default 500), BUILD_DIR (default
# <repo>/build-bench), OUT_DIR.
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
BASE=${BASE:?set BASE to the git ref to compare with}
REPEATS=${REPEATS:-5}
N=${N:-500}
BUILD_DIR=${BUILD_DIR:-$ROOT/build-bench}
BASE_SRC=$BUILD_DIR/regression-base-src
BASE_BUILD=$BUILD_DIR/regression-base
OUT_DIR=${OUT_DIR:-$BUILD_DIR/regression-results/$(date +%Y%m%d-%H%M%S)}
NODE=${NODE:-node}
log() { printf '[regression %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

build() {  # build <src> <build dir>
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLAWEXEC_TESTS=OFF -DCLAWEXEC_BENCH=ON >/dev/null
  cmake --build "$2" -j2 --target clawexec clawexec-shim policy_bench >/dev/null
}

log "checking out $BASE into $BASE_SRC"
rm -rf "$BASE_SRC"
git -C "$ROOT" worktree prune
git -C "$ROOT" worktree add -q --detach "$BASE_SRC" "$BASE"
trap 'git -C "$ROOT" worktree remove --force "$BASE_SRC" 2>/dev/null || true' EXIT
log "building base and current (Release)"
build "$BASE_SRC" "$BASE_BUILD"
build "$ROOT" "$BUILD_DIR"
mkdir -p "$OUT_DIR"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"; git -C "$ROOT" worktree remove --force "$BASE_SRC" 2>/dev/null || true' EXIT

# The servers get their own empty HOME: a ~/.openclaw/exec-approvals.json of the machine's user
# would otherwise act as the legacy approvals file (and fail closed) for an overridden state dir.
export HOME="$WORK/home"
mkdir -p "$HOME"

# A state dir whose policy is allowlist with printf allowlisted: the command is analysed,
# satisfied by the allowlist and a safe bin, and run as its rendering.
mkdir -p "$WORK/state-allowlist"
echo '{ tools: { exec: { security: "allowlist", ask: "off" } } }' >"$WORK/state-allowlist/openclaw.json"
echo '{"version":1,"agents":{"main":{"allowlist":[{"pattern":"printf"}]}}}' >"$WORK/state-allowlist/exec-approvals.json"
ALLOWLIST_CMD='printf x | head -c 1'

for ((r = 1; r <= REPEATS; r++)); do
  for side in base current; do
    dir=$BUILD_DIR; [[ $side == base ]] && dir=$BASE_BUILD
    log "repeat $r: $side"
    "$dir/bench/policy_bench" --benchmark_filter='BM_DecideGateway/' --benchmark_min_time=0.3 \
      --benchmark_format=json >"$OUT_DIR/policy-$side-$r.json" 2>/dev/null
    mkdir -p "$WORK/state-default-$side"
    (cd "$WORK" && OPENCLAW_STATE_DIR="$WORK/state-default-$side" "$NODE" "$BENCH_DIR/mcp_bench.mjs" latency --n "$N" \
      -- "$dir/bin/clawexec" serve) >"$OUT_DIR/latency-default-$side-$r.json"
    (cd "$WORK" && OPENCLAW_STATE_DIR="$WORK/state-allowlist" "$NODE" "$BENCH_DIR/mcp_bench.mjs" latency --n "$N" \
      --cmd "$ALLOWLIST_CMD" -- "$dir/bin/clawexec" serve) >"$OUT_DIR/latency-allowlist-$side-$r.json"
  done
done

python3 - "$OUT_DIR" "$REPEATS" <<'PY'
import json, statistics, sys, glob, os
out, repeats = sys.argv[1], int(sys.argv[2])
def med(xs): return statistics.median(xs)
def policy(side):
    per = {}
    for f in sorted(glob.glob(os.path.join(out, f"policy-{side}-*.json"))):
        for b in json.load(open(f))["benchmarks"]:
            per.setdefault(b["name"] + " (" + b.get("label", "") + ")", []).append(b["real_time"])
    return {k: med(v) for k, v in per.items()}
def latency(kind, side):
    xs = []
    for f in sorted(glob.glob(os.path.join(out, f"latency-{kind}-{side}-*.json"))):
        d = json.loads(open(f).read().strip().splitlines()[-1])
        xs.append(d["exec_true_ms"]["p50"])
    return med(xs)
pb, pc = policy("base"), policy("current")
for f in glob.glob(os.path.join(out, "latency-*.json")):
    d = json.loads(open(f).read().strip().splitlines()[-1])
    if d.get("failures"):
        print(f"warning: {os.path.basename(f)}: {d['failures']} failed calls ({d.get('shell')})", file=sys.stderr)
print("| Figure | base | current | current/base |")
print("|---|---|---|---|")
for k in pb:
    if k in pc:
        print(f"| decide_gateway {k} | {pb[k]:.2f} µs | {pc[k]:.2f} µs | {pc[k]/pb[k]:.3f} |")
for kind, label in (("default", "exec `true` p50, default policy"),
                    ("allowlist", "exec `printf x | head -c 1` p50, security=allowlist")):
    b, c = latency(kind, "base"), latency(kind, "current")
    print(f"| {label} | {b:.3f} ms | {c:.3f} ms | {c/b:.3f} |")
PY
