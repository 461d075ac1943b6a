#!/usr/bin/env bash
# What the shell startup snapshot costs per command (issue 6). Gateway commands source a
# snapshot of the user's aliases, functions and tool variables instead of starting an
# interactive or login shell; this script measures that against the alternatives, with a
# scratch HOME whose ~/.bashrc looks like a working developer's:
#   * raw spawn + wait (spawn_baseline, no server): `bash -c true`, `bash --noprofile --norc -c
#     true`, `bash -lc true`, `bash -ic true`, sourcing the snapshot clawexec wrote, and
#     clawexec's exact wrapper argv (taken from /proc/$$/cmdline of a real exec) around `true`;
#   * `exec true` MCP round trips with the snapshot on and with OPENCLAW_EXEC_SHELL_SNAPSHOT=0;
#   * server start -> first exec result with an empty state dir (snapshot captured on demand),
#     a state dir holding a fresh snapshot (reused after a check), and snapshots off;
#   * a check that an alias and a function of the fake ~/.bashrc work through exec (the script
#     fails if not).
# It prints a table and writes one JSON line per measurement to $OUT_DIR/results.jsonl.
#
# Environment knobs:
#   BUILD_DIR   Release build tree (default <repo>/build-bench)
#   REPEATS     rounds of the raw and MCP measurements, interleaved (default 3; the table gives
#               the median of the per-round p50 and p90)
#   N_SPAWN     spawn+wait iterations per raw baseline (default 400)
#   N_MCP       `exec true` calls per MCP latency run (default 300, after 30 warm-up calls)
#   N_COLD      server starts per cold-start variant (default 8)
#   MAX_LOAD    wait (up to LOAD_WAIT s, default 120) for the 1-minute load to drop below this
#               before each round (default 1.5); the load is recorded with every result
#   NODE        Node.js for the MCP client (default: node)
#   KEEP=1      keep the scratch directory (fake HOME, state dirs) and print its path
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build-bench}
REPEATS=${REPEATS:-3}
N_SPAWN=${N_SPAWN:-400}
N_MCP=${N_MCP:-300}
N_COLD=${N_COLD:-8}
MAX_LOAD=${MAX_LOAD:-1.5}
LOAD_WAIT=${LOAD_WAIT:-120}
NODE=${NODE:-node}
KEEP=${KEEP:-0}
OUT_DIR=${OUT_DIR:-$BUILD_DIR/bench-results/shell-env-$(date +%Y%m%d-%H%M%S)}
BASH_BIN=/bin/bash

# Nothing from the caller's shell may run in the measured shells.
unset BASH_ENV ENV

BENCH_TAG=shell-env QUIET_STEP=5
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

# ---------------------------------------------------------------------------- fake HOME
# A developer's ~/.bashrc: Debian's interactive guard and history/prompt settings, tool roots
# and PATH additions, four sourced helper files (aliases, a git prompt, nvm- and
# completion-like scripts), a `pyenv init -`-style eval of a helper program's output, dircolors
# and lesspipe as Debian ships them, a loop over optional tool directories, `command -v`
# checks, ~30 aliases and ~15 functions. Nothing secret-looking (that would disable the
# snapshot altogether).
make_fake_home() {
  local h=$1
  mkdir -p "$h"/{bin,.local/bin,.cargo/bin,go/bin,.nvm,.pyenv/bin,.pyenv/shims,.volta/bin,.config/bash,src,.bash_completion.d}
  cat >"$h/.profile" <<'EOF'
# ~/.profile: login shells (Debian's default shape).
if [ -n "$BASH_VERSION" ]; then
    if [ -f "$HOME/.bashrc" ]; then
        . "$HOME/.bashrc"
    fi
fi
if [ -d "$HOME/bin" ] ; then
    PATH="$HOME/bin:$PATH"
fi
if [ -d "$HOME/.local/bin" ] ; then
    PATH="$HOME/.local/bin:$PATH"
fi
EOF
  cat >"$h/.bashrc" <<'EOF'
# ~/.bashrc: interactive shells.
case $- in
    *i*) ;;
      *) return;;
esac

HISTCONTROL=ignoreboth
HISTSIZE=10000
HISTFILESIZE=20000
shopt -s histappend checkwinsize globstar
[ -x /usr/bin/lesspipe ] && eval "$(SHELL=/bin/sh lesspipe)"
if [ -x /usr/bin/dircolors ]; then
    eval "$(dircolors -b)"
fi

export EDITOR=vim
export PAGER=less
export LESS=-R
export PATH="$HOME/bin:$PATH"
export PATH="$HOME/.local/bin:$PATH"
export CARGO_HOME="$HOME/.cargo"
export PATH="$CARGO_HOME/bin:$PATH"
export GOPATH="$HOME/go"
export PATH="$PATH:$GOPATH/bin"
export VOLTA_HOME="$HOME/.volta"
export PATH="$VOLTA_HOME/bin:$PATH"
export NVM_DIR="$HOME/.nvm"
export PYENV_ROOT="$HOME/.pyenv"
export PATH="$PYENV_ROOT/bin:$PATH"

# Optional tool directories, added when present.
for dir in /opt/homebrew/bin /usr/local/go/bin "$HOME/.deno/bin" "$HOME/.bun/bin" \
           "$HOME/.rbenv/bin" "$HOME/.poetry/bin" "$HOME/.local/share/pnpm" /snap/bin; do
    if [ -d "$dir" ]; then
        case ":$PATH:" in *":$dir:"*) ;; *) PATH="$dir:$PATH" ;; esac
    fi
done

for file in "$HOME/.bash_aliases" "$HOME/.config/bash/git-prompt.sh" \
            "$HOME/.config/bash/completions.sh"; do
    [ -r "$file" ] && . "$file"
done
[ -s "$NVM_DIR/nvm.sh" ] && . "$NVM_DIR/nvm.sh"
if command -v pyenv >/dev/null 2>&1; then
    eval "$(pyenv init -)"
fi
for tool in git docker kubectl fzf direnv rg fd bat jq gh; do
    if command -v "$tool" >/dev/null 2>&1; then
        HAVE_TOOLS="${HAVE_TOOLS:+$HAVE_TOOLS }$tool"
    fi
done
command -v direnv >/dev/null 2>&1 && eval "$(direnv hook bash)"

mkcd() {
    mkdir -p -- "$1" &&
        cd -- "$1"
}
up() {
    local n=${1:-1} path=
    while [ "$n" -gt 0 ]; do
        path="../$path"
        n=$((n - 1))
    done
    cd "${path:-.}"
}
extract() {
    case "$1" in
        *.tar.gz|*.tgz) tar xzf "$1" ;;
        *.tar.xz) tar xJf "$1" ;;
        *.zip) unzip -q "$1" ;;
        *.gz) gunzip "$1" ;;
        *) echo "extract: unknown archive $1" >&2; return 1 ;;
    esac
}
devcheck() {
    echo "devcheck-function-ok:$1"
    echo "nvm=$NVM_DIR"
}
gbr() {
    git for-each-ref --sort=-committerdate refs/heads \
        --format='%(refname:short) %(committerdate:relative)' | head -n "${1:-10}"
}
serve_here() {
    local port=${1:-8000}
    python3 -m http.server "$port"
}
psgrep() {
    ps aux | grep -v grep | grep -i -- "$1"
}
dusort() {
    du -sh -- "${@:-.}"/* 2>/dev/null | sort -h
}
venv() {
    if [ -d .venv ]; then
        . .venv/bin/activate
    else
        python3 -m venv .venv && . .venv/bin/activate
    fi
}
timer() {
    local start=$SECONDS
    "$@"
    echo "took $((SECONDS - start))s" >&2
}
repo_root() {
    git rev-parse --show-toplevel 2>/dev/null || pwd
}
cdr() {
    cd "$(repo_root)"
}
weather() {
    curl -s "wttr.in/${1:-Berlin}?format=3"
}
backup() {
    cp -a -- "$1" "$1.bak.$(date +%Y%m%d%H%M%S)"
}
path_list() {
    printf '%s\n' "${PATH//:/$'\n'}"
}

if [ -f "$HOME/.bash_completion.d/local" ]; then
    . "$HOME/.bash_completion.d/local"
fi
PS1='\u@\h:\w$(__dev_git_ps1 " (%s)")\$ '
EOF
  cat >"$h/.bash_aliases" <<'EOF'
alias ls='ls --color=auto'
alias ll='ls -alF'
alias la='ls -A'
alias l='ls -CF'
alias grep='grep --color=auto'
alias fgrep='fgrep --color=auto'
alias egrep='egrep --color=auto'
alias ..='cd ..'
alias ...='cd ../..'
alias ....='cd ../../..'
alias gs='git status -sb'
alias ga='git add'
alias gc='git commit'
alias gca='git commit --amend'
alias gco='git checkout'
alias gd='git diff'
alias gds='git diff --staged'
alias gl='git log --oneline --graph --decorate -20'
alias gp='git push'
alias gpl='git pull --rebase'
alias k='kubectl'
alias dc='docker compose'
alias dps='docker ps --format "table {{.Names}}\t{{.Status}}"'
alias py='python3'
alias ipy='python3 -m IPython'
alias serve='python3 -m http.server'
alias tf='terraform'
alias v='vim'
alias h='history'
alias ports='ss -tulpn'
alias myip='curl -s ifconfig.me'
alias reload='. ~/.bashrc'
alias whereami='echo "alias-ok:$PWD"'
EOF
  cat >"$h/.config/bash/git-prompt.sh" <<'EOF'
# A small git prompt helper.
__dev_git_branch() {
    local head
    head=$(git symbolic-ref --short HEAD 2>/dev/null) || return 1
    printf '%s' "$head"
}
__dev_git_ps1() {
    local b
    b=$(__dev_git_branch) || return 0
    printf -- "${1:- (%s)}" "$b"
}
GIT_PS1_SHOWDIRTYSTATE=1
EOF
  cat >"$h/.config/bash/completions.sh" <<'EOF'
# Completion for a few local helper commands.
_dev_complete_targets() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    COMPREPLY=($(compgen -W "build test lint fmt clean release" -- "$cur"))
}
complete -F _dev_complete_targets make-target dev
complete -d mkcd cdr
complete -W "tar.gz tgz tar.xz zip gz" extract
complete -c timer
EOF
  cat >"$h/.bash_completion.d/local" <<'EOF'
complete -W "8000 8080 3000" serve_here
complete -A hostname ssh scp
EOF
  cat >"$h/.nvm/nvm.sh" <<'EOF'
# Stand-in for nvm.sh: a few functions and the default version's bin directory.
nvm_default_version() {
    local alias_file="$NVM_DIR/alias/default"
    [ -r "$alias_file" ] && cat "$alias_file" || echo "v20.0.0"
}
nvm_ls() {
    local d
    for d in "$NVM_DIR"/versions/node/*; do
        [ -d "$d" ] && basename "$d"
    done
}
nvm() {
    case "$1" in
        ls) nvm_ls ;;
        current) nvm_default_version ;;
        use) echo "Now using node $2" ;;
        *) echo "nvm: $1: not supported by this stand-in" >&2; return 1 ;;
    esac
}
NVM_BIN="$NVM_DIR/versions/node/v20.0.0/bin"
case ":$PATH:" in *":$NVM_BIN:"*) ;; *) PATH="$NVM_BIN:$PATH" ;; esac
EOF
  # `pyenv init -` prints shell code to eval; this stand-in does the same (one fork + exec of
  # a bash script, as the real one does, but faster).
  cat >"$h/.pyenv/bin/pyenv" <<'EOF'
#!/bin/bash
if [ "$1" = init ] && [ "$2" = - ]; then
    cat <<'CODE'
export PYENV_SHELL=bash
case ":$PATH:" in *":$PYENV_ROOT/shims:"*) ;; *) PATH="$PYENV_ROOT/shims:$PATH" ;; esac
pyenv() {
    local command=${1:-}
    [ "$#" -gt 0 ] && shift
    case "$command" in
        shell) echo "pyenv shell $*" ;;
        *) command pyenv "$command" "$@" ;;
    esac
}
CODE
fi
EOF
  chmod +x "$h/.pyenv/bin/pyenv"
}

# ---------------------------------------------------------------------------- build
mkdir -p "$OUT_DIR"
OUT_DIR=$(cd "$OUT_DIR" && pwd)
BENCH_STDERR_LOG="$OUT_DIR/stderr.log"
log "building in $BUILD_DIR (log: $OUT_DIR/build.log)"
if ! { cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLAWEXEC_TESTS=OFF \
  -DCLAWEXEC_BENCH=ON && cmake --build "$BUILD_DIR" -j2 --target clawexec clawexec-shim spawn_baseline; } \
  >"$OUT_DIR/build.log" 2>&1; then
  tail -n 30 "$OUT_DIR/build.log" >&2
  log "FAIL: build"
  exit 1
fi
SERVER=("$BUILD_DIR/bin/clawexec" serve)
# In a session of its own: `bash -i` must not find (and take over) a controlling terminal.
SPAWN=(setsid -w "$BUILD_DIR/bench/spawn_baseline" --iterations "$N_SPAWN")
MCP=("$NODE" "$BENCH_DIR/mcp_bench.mjs")

: >"$OUT_DIR/results.jsonl"
: >"$OUT_DIR/stderr.log"
WORK=$(mktemp -d)
if [[ $KEEP == 1 ]]; then
  trap 'log "kept $WORK"' EXIT
else
  trap 'rm -rf "$WORK"' EXIT
fi
FAKE_HOME=$WORK/home
STATE=$WORK/state
make_fake_home "$FAKE_HOME"
mkdir -p "$STATE" "$WORK/cwd"
cd "$WORK/cwd"
export HOME=$FAKE_HOME SHELL=$BASH_BIN
unset OPENCLAW_EXEC_SHELL_SNAPSHOT
# The server environment: HOME and SHELL above, plus its own state dir.
with_state() { env OPENCLAW_STATE_DIR="$1" "${@:2}"; }

{
  echo "{\"date\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\",\"commit\":\"$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)\","
  echo "\"src_files_modified\":$(git -C "$ROOT" status --porcelain -- src 2>/dev/null | wc -l),"
  echo "\"cores\":$(nproc),\"bash\":\"$($BASH_BIN -c 'echo $BASH_VERSION')\",\"node\":\"$($NODE --version)\","
  echo "\"repeats\":$REPEATS,\"n_spawn\":$N_SPAWN,\"n_mcp\":$N_MCP,\"n_cold\":$N_COLD,"
  echo "\"bashrc_lines\":$(wc -l <"$FAKE_HOME/.bashrc"),\"load_at_start\":$(load1)}"
} | tr -d '\n' >"$OUT_DIR/machine.json"

# ---------------------------------------------------------------------------- snapshot + checks
# One server run writes the snapshot and reports the argv its shell was started with.
log "first server run: capture the snapshot, read the wrapper argv"
ARGV_JSON=$(with_state "$STATE" "${MCP[@]}" once \
  --cmd 'printf "ARGV:%s\n" "$(base64 -w0 /proc/$$/cmdline)"' -- "${SERVER[@]}")
ARGV_B64=$(printf '%s' "$ARGV_JSON" | grep -o 'ARGV:[A-Za-z0-9+/=]\+' | head -1 | cut -d: -f2)
SNAPSHOTS=("$STATE"/cache/shell-snapshots/*.sh)
if [[ ! -f ${SNAPSHOTS[0]} || ${#SNAPSHOTS[@]} != 1 || -z $ARGV_B64 ]]; then
  log "FAIL: expected one snapshot file and the wrapper argv; got: ${SNAPSHOTS[*]}; $ARGV_JSON"
  exit 1
fi
SNAPSHOT=${SNAPSHOTS[0]}
mapfile -d '' WRAPPER_ARGV < <(printf '%s' "$ARGV_B64" | base64 -d)
# The wrapper's script ends with `eval '<command>'`; put `true` there.
WRAPPER_SCRIPT=${WRAPPER_ARGV[-1]}
WRAPPER_ARGV[-1]="${WRAPPER_SCRIPT%eval *}eval 'true'"
log "snapshot: $SNAPSHOT ($(wc -c <"$SNAPSHOT") bytes, $(grep -c '^alias ' "$SNAPSHOT") aliases,"\
" $(grep -c '^[A-Za-z_][A-Za-z0-9_]* () *$' "$SNAPSHOT") functions); wrapper argv:" \
  "${WRAPPER_ARGV[*]:0:${#WRAPPER_ARGV[@]}-1} <script>"
cp "$SNAPSHOT" "$OUT_DIR/snapshot.sh"
printf '%s\n' "${WRAPPER_ARGV[-1]}" >"$OUT_DIR/wrapper-script.txt"

CHECK_CMD='whereami; devcheck 42; type -t ll; echo "path0=${PATH%%:*}"'
record check_snapshot_on 1 with_state "$STATE" "${MCP[@]}" once --cmd "$CHECK_CMD" -- "${SERVER[@]}"
record check_snapshot_off 1 with_state "$WORK/state-check-off" env OPENCLAW_EXEC_SHELL_SNAPSHOT=0 \
  "${MCP[@]}" once --cmd "$CHECK_CMD" -- "${SERVER[@]}"
CHECK_ON=$(grep '"name":"check_snapshot_on"' "$OUT_DIR/results.jsonl")
if ! grep -q 'alias-ok:' <<<"$CHECK_ON" || ! grep -q 'devcheck-function-ok:42' <<<"$CHECK_ON" ||
  ! grep -q "nvm=$FAKE_HOME/.nvm" <<<"$CHECK_ON"; then
  log "FAIL: alias/function from ~/.bashrc not available through exec with the snapshot on: $CHECK_ON"
  exit 1
fi
log "alias + function + NVM_DIR work through exec with the snapshot on"

# ---------------------------------------------------------------------------- measurements
for ((r = 1; r <= REPEATS; r++)); do
  wait_for_quiet
  log "round $r/$REPEATS"
  record raw_bash_c "$r" "${SPAWN[@]}" -- "$BASH_BIN" -c true
  record raw_bash_norc_c "$r" "${SPAWN[@]}" -- "$BASH_BIN" --noprofile --norc -c true
  record raw_snapshot_source "$r" "${SPAWN[@]}" -- "$BASH_BIN" --noprofile --norc -c ". '$SNAPSHOT'; eval true"
  record raw_clawexec_wrapper "$r" "${SPAWN[@]}" -- "${WRAPPER_ARGV[@]}"
  record raw_bash_lc "$r" "${SPAWN[@]}" -- "$BASH_BIN" -lc true
  record raw_bash_ic "$r" "${SPAWN[@]}" -- "$BASH_BIN" -ic true
  record mcp_snapshot_on "$r" with_state "$STATE" "${MCP[@]}" latency --n "$N_MCP" --warmup 30 -- "${SERVER[@]}"
  record mcp_snapshot_off "$r" with_state "$WORK/state-off" env OPENCLAW_EXEC_SHELL_SNAPSHOT=0 \
    "${MCP[@]}" latency --n "$N_MCP" --warmup 30 -- "${SERVER[@]}"
done

# Server start -> first exec result (initialize and the call written at once). The empty
# state dir makes the first command wait for the capture; the populated one holds a
# snapshot written just before (reused while younger than five minutes, after a check that it
# still sources); both also probe the login shell once per server start.
with_state "$WORK/state-cold-cached" "${MCP[@]}" once --cmd true -- "${SERVER[@]}" >/dev/null
wait_for_quiet
log "cold starts ($N_COLD each)"
for ((i = 1; i <= N_COLD; i++)); do
  record cold_empty_state "$i" with_state "$WORK/cold-$i" "${MCP[@]}" cold --n 1 -- "${SERVER[@]}"
  record cold_snapshot_cached "$i" with_state "$WORK/state-cold-cached" "${MCP[@]}" cold --n 1 -- "${SERVER[@]}"
  record cold_snapshot_off "$i" with_state "$WORK/cold-off-$i" env OPENCLAW_EXEC_SHELL_SNAPSHOT=0 \
    "${MCP[@]}" cold --n 1 -- "${SERVER[@]}"
done

# ---------------------------------------------------------------------------- summary
log "results in $OUT_DIR"
"$NODE" - "$OUT_DIR" <<'EOF'
const fs = require("fs");
const dir = process.argv[2];
const rows = fs.readFileSync(`${dir}/results.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const median = (xs) => {
  const s = xs.filter((x) => typeof x === "number").sort((a, b) => a - b);
  if (!s.length) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const pick = (name, f) => median(rows.filter((r) => r.name === name && !r.data.error).map((r) => f(r.data)));
const loads = (name) => {
  const ls = rows.filter((r) => r.name === name).flatMap((r) => [r.load_before, r.load_after]);
  return ls.length ? `${Math.min(...ls).toFixed(2)}–${Math.max(...ls).toFixed(2)}` : "";
};
const fmt = (x) => (x === null || x === undefined ? "—" : x.toFixed(3));
const base = pick("raw_bash_c", (d) => d.p50_ms);
const out = [];
const table = [];
const row = (label, name, p50, p90, delta, extra = "") => {
  const d = delta === null ? "" : `${delta >= 0 ? "+" : ""}${delta.toFixed(3)}`;
  out.push(`| ${label} | ${fmt(p50)} | ${fmt(p90)} | ${d} | ${extra} | ${loads(name)} |`);
  table.push({ name, label, p50_ms: p50, p90_ms: p90, delta_ms: delta === null ? null : Math.round(delta * 1000) / 1000 });
};
out.push("| Measurement | p50 ms | p90 ms | Δ p50 vs reference | Notes | Load (1 min) |");
out.push("|---|---|---|---|---|---|");
const raw = [
  ["raw_bash_c", "spawn+wait `bash -c true`"],
  ["raw_bash_norc_c", "spawn+wait `bash --noprofile --norc -c true`"],
  ["raw_snapshot_source", "spawn+wait `bash --noprofile --norc -c \". <snapshot>; eval true\"`"],
  ["raw_clawexec_wrapper", "spawn+wait clawexec's wrapper argv around `true`"],
  ["raw_bash_lc", "spawn+wait `bash -lc true`"],
  ["raw_bash_ic", "spawn+wait `bash -ic true`"],
];
for (const [name, label] of raw) {
  const p50 = pick(name, (d) => d.p50_ms);
  row(label, name, p50, pick(name, (d) => d.p90_ms), name === "raw_bash_c" ? null : p50 - base,
      name === "raw_bash_c" ? "reference for Δ" : "vs `bash -c true`");
}
const off = pick("mcp_snapshot_off", (d) => d.exec_true_ms.p50);
const on = pick("mcp_snapshot_on", (d) => d.exec_true_ms.p50);
row("MCP `exec true`, snapshot off (`OPENCLAW_EXEC_SHELL_SNAPSHOT=0`)", "mcp_snapshot_off", off,
    pick("mcp_snapshot_off", (d) => d.exec_true_ms.p90), null,
    `reference for Δ; server CPU/call ${fmt(pick("mcp_snapshot_off", (d) => d.server_cpu_ms_per_exec))} ms`);
row("MCP `exec true`, snapshot on", "mcp_snapshot_on", on, pick("mcp_snapshot_on", (d) => d.exec_true_ms.p90),
    on - off, `vs snapshot off; server CPU/call ${fmt(pick("mcp_snapshot_on", (d) => d.server_cpu_ms_per_exec))} ms`);
const coldOff = pick("cold_snapshot_off", (d) => d.first_result_ms.p50);
for (const [name, label] of [
  ["cold_snapshot_off", "server start → first exec result, snapshot off"],
  ["cold_snapshot_cached", "server start → first exec result, fresh snapshot on disk"],
  ["cold_empty_state", "server start → first exec result, empty state dir (capture)"],
]) {
  const vals = rows.filter((r) => r.name === name && !r.data.error).map((r) => r.data.first_result_ms.p50).sort((a, b) => a - b);
  const p50 = median(vals);
  const p90 = vals.length ? vals[Math.min(vals.length - 1, Math.round(0.9 * (vals.length - 1)))] : null;
  row(label, name, p50, p90, name === "cold_snapshot_off" ? null : p50 - coldOff,
      name === "cold_snapshot_off" ? `reference for Δ; n=${vals.length} server starts` : `vs snapshot off; n=${vals.length}`);
}
console.log(out.join("\n"));
const wrapper = pick("raw_clawexec_wrapper", (d) => d.p50_ms);
const verdict = (x) => (x === null ? "not measured" : x <= 2 ? "met" : "MISSED");
const machine = JSON.parse(fs.readFileSync(`${dir}/machine.json`, "utf8"));
console.log(`\nload average (1 min) at start: ${machine.load_at_start}`);
console.log(`snapshot overhead per command, p50: spawn+wait wrapper vs \`bash -c true\` ` +
  `${fmt(wrapper === null ? null : wrapper - base)} ms; MCP on vs off ${fmt(on === null || off === null ? null : on - off)} ms ` +
  `(target ≤ 2 ms: ${verdict(wrapper === null ? null : wrapper - base)} / ${verdict(on === null || off === null ? null : on - off)})`);
const check = (name) => rows.find((r) => r.name === name)?.data?.text?.trim().replace(/\n/g, " | ");
console.log(`\ncheck, snapshot on:  ${check("check_snapshot_on")}`);
console.log(`check, snapshot off: ${check("check_snapshot_off")}`);
fs.writeFileSync(`${dir}/summary.json`, JSON.stringify({ table }, null, 1));
EOF
