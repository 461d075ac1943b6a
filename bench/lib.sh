# Shared helpers of the whole-process benchmark scripts (sourced by run.sh and
# shell_env_bench.sh). Expects OUT_DIR, MAX_LOAD and LOAD_WAIT; BENCH_TAG names the script in
# log lines; BENCH_STDERR_LOG, when set, receives the measured commands' stderr (and their
# stdin is /dev/null).

log() { printf '[%s %s] %s\n' "${BENCH_TAG:-bench}" "$(date +%H:%M:%S)" "$*" >&2; }
load1() { cut -d' ' -f1 /proc/loadavg; }

# Waits (bounded) for a quiet machine; the measured load is recorded with every result.
wait_for_quiet() {
  local waited=0 step=${QUIET_STEP:-10}
  while awk -v l="$(load1)" -v m="$MAX_LOAD" 'BEGIN { exit !(l >= m) }'; do
    if ((waited >= LOAD_WAIT)); then
      log "load $(load1) still >= $MAX_LOAD after ${LOAD_WAIT}s; measuring anyway"
      return
    fi
    ((waited == 0)) && log "load $(load1) >= $MAX_LOAD; waiting (up to ${LOAD_WAIT}s)"
    sleep "$step"
    waited=$((waited + step))
  done
}

# record NAME REPEAT COMMAND...: runs COMMAND (which prints one JSON object) and appends it to
# results.jsonl wrapped with its name, repeat index and the load before and after.
record() {
  local name=$1 repeat=$2
  shift 2
  local before after out ok=1
  before=$(load1)
  if [[ -n ${BENCH_STDERR_LOG:-} ]]; then
    out=$("$@" </dev/null 2>>"$BENCH_STDERR_LOG") || ok=0
  else
    out=$("$@") || ok=0
  fi
  if ((ok == 0)); then
    log "FAILED: $name ($*)${BENCH_STDERR_LOG:+; see $BENCH_STDERR_LOG}"
    out='{"error":"failed"}'
  fi
  after=$(load1)
  printf '{"name":"%s","repeat":%s,"load_before":%s,"load_after":%s,"data":%s}\n' \
    "$name" "$repeat" "$before" "$after" "$out" >>"$OUT_DIR/results.jsonl"
  log "$name #$repeat done (load $before -> $after)"
}
