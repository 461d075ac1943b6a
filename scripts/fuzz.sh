#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang in their own build tree and runs each one for
# SECONDS (default 60) on a working copy of its seed corpus (fuzz/corpus/<target>/, never
# written to). Exits non-zero when a target fails to build or finds a crash, a timeout, a leak
# or a broken property; the reproducer is written to $BUILD_DIR/fuzz-artifacts/. Then (not with
# SMOKE=1) it runs the analyzer-vs-shell differential test (tests/differential) on a long corpus
# with a fresh seed, which it prints so a failure can be reproduced.
#
#   scripts/fuzz.sh [SECONDS]
#
# Environment knobs:
#   BUILD_DIR  clang build tree (default <repo>/build-fuzz)
#   TARGETS    space-separated subset of the targets (default: all of them)
#   JOBS       build parallelism (default: nproc)
#   SMOKE=1    deterministic short run for the test suite: fixed seed, a fixed number of
#              executions per target (SECONDS is then only an upper bound), fresh working corpus
#   DIFF_COUNT commands of the differential corpus (default 50000; 0 skips it)
#   DIFF_SEED  its seed (default: from the clock)
#   DIFF_BUILD_DIR  the g++ test build tree it is built in (default <repo>/build)
# Reproduce a finding: $BUILD_DIR/fuzz/<target> <artifact file>
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_PER_TARGET=${1:-60}
BUILD_DIR=${BUILD_DIR:-$ROOT/build-fuzz}
TARGETS=${TARGETS:-fuzz_policy_analyzer fuzz_json5 fuzz_approvals_document fuzz_patch_parser}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
CLANGXX=${CLANGXX:-clang++}

log() { printf '[fuzz %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

if ! command -v "$CLANGXX" >/dev/null 2>&1; then
  log "$CLANGXX not found: install clang (scripts/install-deps.sh) to fuzz"
  exit 1
fi

log "configuring $BUILD_DIR"
# Warnings are not errors here: the project's -Werror policy is enforced by the g++ build;
# this tree exists to run the fuzzers.
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER="$CLANGXX" \
  -DCLAWEXEC_FUZZ=ON -DCLAWEXEC_TESTS=OFF -DCLAWEXEC_BENCH=OFF -DCLAWEXEC_SANITIZE=OFF \
  -DCLAWEXEC_WERROR=OFF >/dev/null
log "building $TARGETS"
# shellcheck disable=SC2086
cmake --build "$BUILD_DIR" -j "$JOBS" --target $TARGETS >/dev/null

failed=()
mkdir -p "$BUILD_DIR/fuzz-artifacts" "$BUILD_DIR/fuzz-logs"
for t in $TARGETS; do
  work="$BUILD_DIR/fuzz-corpus/$t"
  seeds="$ROOT/fuzz/corpus/$t"
  dict="$ROOT/fuzz/$t.dict"
  logfile="$BUILD_DIR/fuzz-logs/$t.log"
  [[ ${SMOKE:-0} == 1 ]] && rm -rf "$work"
  mkdir -p "$work"
  args=(-max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 -max_len=4096
        -print_final_stats=1 -artifact_prefix="$BUILD_DIR/fuzz-artifacts/$t-")
  if [[ ${SMOKE:-0} == 1 ]]; then
    # The same inputs on every run, so the suite cannot fail on the luck of the draw.
    case $t in
      fuzz_policy_analyzer) runs=2000 ;;
      fuzz_json5) runs=200000 ;;
      fuzz_patch_parser) runs=100000 ;;
      *) runs=50000 ;;
    esac
    args+=(-seed=1 -runs="$runs")
  fi
  [[ -f $dict ]] && args+=(-dict="$dict")
  log "$t: ${SECONDS_PER_TARGET}s"
  if ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
      "$BUILD_DIR/fuzz/$t" "${args[@]}" "$work" "$seeds" >"$logfile" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logfile" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$logfile" | tail -1 || true)
    corpus=$(find "$work" -type f | wc -l)
    log "$t: ok, ${runs:-?} executions, ${cov:-cov: ?}, working corpus $corpus files"
  else
    log "$t: FAILED (log: $logfile)"
    tail -n 40 "$logfile" >&2
    failed+=("$t")
  fi
done

DIFF_COUNT=${DIFF_COUNT:-50000}
if [[ ${SMOKE:-0} != 1 && $DIFF_COUNT != 0 ]]; then
  DIFF_BUILD_DIR=${DIFF_BUILD_DIR:-$ROOT/build}
  DIFF_SEED=${DIFF_SEED:-$(date +%s)}
  log "differential: $DIFF_COUNT commands, seed $DIFF_SEED (CLAWEXEC_DIFF_SEED=$DIFF_SEED to reproduce)"
  [[ -f $DIFF_BUILD_DIR/build.ninja ]] || cmake -S "$ROOT" -B "$DIFF_BUILD_DIR" -G Ninja >/dev/null
  cmake --build "$DIFF_BUILD_DIR" -j "$JOBS" --target differential_test argv_stub >/dev/null
  if CLAWEXEC_DIFF_COUNT=$DIFF_COUNT CLAWEXEC_DIFF_SEED=$DIFF_SEED "$DIFF_BUILD_DIR/tests/differential_test" \
      >"$BUILD_DIR/fuzz-logs/differential.log" 2>&1; then
    log "differential: ok ($(grep -o 'differential: .*' "$BUILD_DIR/fuzz-logs/differential.log"))"
  else
    log "differential: FAILED (log: $BUILD_DIR/fuzz-logs/differential.log)"
    grep -A12 Failure "$BUILD_DIR/fuzz-logs/differential.log" | head -n 60 >&2
    failed+=(differential)
  fi
fi

if ((${#failed[@]})); then
  log "failed: ${failed[*]}; reproducers in $BUILD_DIR/fuzz-artifacts/"
  exit 1
fi
log "all targets ran clean"
