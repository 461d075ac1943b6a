#!/usr/bin/env bash
# Installs what building, running and testing clawexec needs on Debian 12 (bookworm):
# compilers and CMake, Boost 1.81 (Asio, Beast, JSON), CLI11, GoogleTest/GoogleMock,
# Google Benchmark, PCRE2 (argPattern regexes), ICU (Unicode normalisation for the exec
# auto-reviewer's pre-screen), OpenSSL (SHA-256), clang (libFuzzer:
# scripts/fuzz.sh and the fuzz.smoke test), the sandbox's libseccomp and programs (bubblewrap,
# passt/pasta and slirp4netns for user-mode networking, uidmap), and, with --test, Node.js plus the npm packages of the
# black-box tests, zsh (the shell-snapshot tests), python3 (the include-layer check) and iproute2 (network
# namespaces for the node tests) and chromium (the control UI's browser tests).
# Safe to run repeatedly; uses sudo when not root.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

packages=(build-essential cmake ninja-build pkg-config ccache clang
          libboost1.81-dev libboost-json1.81-dev libcli11-dev
          libgtest-dev libgmock-dev libbenchmark-dev libpcre2-dev libicu-dev libssl-dev
          libseccomp-dev bubblewrap passt slirp4netns uidmap)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "$want_test" = 1 ]; then
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  # zsh: the shell-snapshot tests run a fake HOME's .zshrc through a real zsh.
  command -v zsh >/dev/null 2>&1 || missing+=(zsh)
  # python3: the include-layer check (scripts/check_layers.py, ctest label lint).
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  # iproute2: the node tests build network namespaces joined by veth pairs (`ip netns`).
  command -v ip >/dev/null 2>&1 || missing+=(iproute2)
  # chromium: the control UI tests (tests/mcp/ui_*.test.mjs) drive Debian's headless Chromium.
  [ -x /usr/bin/chromium ] || missing+=(chromium)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$want_test" = 1 ]; then
  (cd tests/mcp && npm ci --no-audit --no-fund --loglevel=error)
fi
