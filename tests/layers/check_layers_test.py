#!/usr/bin/env python3
"""Tests scripts/check_layers.py on two fixture trees: `fixtures/good` respects every rule (a
multi-line declaration, a commented-out declaration, a test-only dependency through TEST_LIBS,
an executable folder, a non-module include) and must pass; `fixtures/bad` breaks each rule
once and must fail with exactly the expected report lines."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "check_layers.py")

EXPECTED_BAD = [
    'src/cli/main.cc:2: includes "shell/word.h" but module cli does not declare shell',
    'src/policy/p.cc:2: includes "json/j.h" but module policy does not declare json',
    "src/config/CMakeLists.txt:1: module config declares ghost, which is not a module under src/",
    "src/shell/CMakeLists.txt:1: module shell (layer 2) declares session, which is above it (layer 3)",
    "src/widget/CMakeLists.txt:1: module widget has no layer in scripts/check_layers.py (add it to RANKS)",
    "src/json/CMakeLists.txt:1: dependency cycle config -> json -> config",
]


def run(tree):
    return subprocess.run([sys.executable, SCRIPT, os.path.join(HERE, "fixtures", tree)],
                          capture_output=True, text=True)


def main():
    failures = []
    good = run("good")
    if good.returncode != 0:
        failures.append(f"good tree: exit {good.returncode}, expected 0\n{good.stdout}{good.stderr}")
    bad = run("bad")
    if bad.returncode != 1:
        failures.append(f"bad tree: exit {bad.returncode}, expected 1\n{bad.stdout}{bad.stderr}")
    lines = [line for line in bad.stdout.splitlines() if line]
    if sorted(lines) != sorted(EXPECTED_BAD):
        failures.append("bad tree: report differs\n  got:\n    " + "\n    ".join(lines) +
                        "\n  expected:\n    " + "\n    ".join(EXPECTED_BAD))
    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print("check_layers self-test: ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
