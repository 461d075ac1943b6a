#!/usr/bin/env python3
"""The include-layer check: DESIGN.md's layers, enforced on the source tree.

Problem: a module links its declared DEPS publicly, so a header of any module below them also
compiles; nothing stopped a file from including a module it never declared, or a module from
declaring one above it, and the layering in DESIGN.md decayed silently.

Approach: read each src/<module>/CMakeLists.txt (`clawexec_module(<name> DEPS ... TEST_LIBS
...)`, or, for folders that build an executable instead, the `clawexec_<m>` targets their
`target_link_libraries` name), then
  (a) every `#include "<m>/..."` in src/<module>/*.{h,cc} must name the module itself or one of
      its DEPS (a `_test.cc` file may also use its TEST_LIBS);
  (b) every declared dependency must sit at the same rank or below in RANKS (the table mirrors
      DESIGN.md "Layers"), and the declared graph must have no cycle;
  (c) every module folder must have a rank.
Each violation is one line `path:line: message`; the exit status is 1 when there is any.

Usage: scripts/check_layers.py [ROOT]   (ROOT defaults to the repository; ROOT/src is read)
"""

import os
import re
import sys

# DESIGN.md "Layers", lowest first. A module may depend on modules of its own rank or lower;
# within a rank the declared graph must simply stay acyclic. Modules that do not exist (yet)
# are harmless here.
RANKS = {
    "base": 0,
    "sys": 1, "hash": 1, "term": 1, "shim": 1,
    "proc": 2, "policy": 2, "shell": 2, "config": 2, "rpc": 2, "json": 2,
    "session": 3, "approvals": 3, "sandbox": 3, "patch": 3, "env": 3, "shellenv": 3, "operator": 3,
    "exec": 4,
    "tools": 5,
    "mcp": 6, "gateway": 6, "node": 6, "net": 6,
    "daemon": 7,
    "cli": 8,
}

MODULE_CALL = re.compile(r"clawexec_module\s*\(([^)]*)\)", re.S)
LINK_CALL = re.compile(r"target_link_libraries\s*\(([^)]*)\)", re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z0-9_]+)/[^"]+"')
KEYWORDS = {"DEPS", "LIBS", "TEST_LIBS"}


class Module:
    def __init__(self, name, cmake_path, line):
        self.name = name
        self.cmake_path = cmake_path  # relative to ROOT, for messages
        self.line = line              # line of the declaration in that file
        self.deps = []                # declared module names, in order
        self.test_deps = []           # modules named by TEST_LIBS


def strip_cmake_comments(text):
    # `#` starts a comment outside quotes; the files we read do not quote `#`.
    return "\n".join(line.split("#", 1)[0] for line in text.split("\n"))


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def as_module(token):
    """A module name for a DEPS entry ("exec") or a link target ("clawexec_exec"), else None."""
    if token.startswith("clawexec_"):
        return token[len("clawexec_"):]
    if re.fullmatch(r"[a-z][a-z0-9_]*", token):
        return token
    return None


def read_module(folder, cmake_file, root):
    with open(cmake_file, encoding="utf-8") as f:
        text = strip_cmake_comments(f.read())
    rel = os.path.relpath(cmake_file, root)
    call = MODULE_CALL.search(text)
    if call:
        words = call.group(1).split()
        module = Module(words[0] if words else folder, rel, line_of(text, call.start()))
        section = None
        for word in words[1:]:
            if word in KEYWORDS:
                section = word
            elif section == "DEPS":
                module.deps.append(word)
            elif section == "TEST_LIBS":
                name = as_module(word) if word.startswith("clawexec_") else None
                if name:
                    module.test_deps.append(name)
        return module
    # A folder that builds an executable: its clawexec_<m> link targets are its dependencies.
    module = Module(folder, rel, 1)
    for link in LINK_CALL.finditer(text):
        words = link.group(1).split()
        for word in words[1:]:
            name = as_module(word) if word.startswith("clawexec_") else None
            if name and name != folder and name not in module.deps:
                if not module.deps:
                    module.line = line_of(text, link.start())
                module.deps.append(name)
    return module


def read_modules(src):
    modules = {}
    for folder in sorted(os.listdir(src)):
        cmake_file = os.path.join(src, folder, "CMakeLists.txt")
        if os.path.isfile(cmake_file):
            module = read_module(folder, cmake_file, os.path.dirname(src))
            modules[folder] = module
    return modules


def check_includes(src, root, modules, report):
    for folder, module in modules.items():
        directory = os.path.join(src, folder)
        allowed = {folder, *module.deps}
        for name in sorted(os.listdir(directory)):
            if not (name.endswith(".h") or name.endswith(".cc")):
                continue
            path = os.path.join(directory, name)
            allowed_here = allowed | set(module.test_deps) if name.endswith("_test.cc") else allowed
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    match = INCLUDE.match(line)
                    if not match:
                        continue
                    target = match.group(1)
                    if target not in modules or target in allowed_here:
                        continue  # not a module path (or the module itself / a declared one)
                    header = line.split('"')[1]
                    report(f'{os.path.relpath(path, root)}:{number}: includes "{header}" but module {folder} '
                           f"does not declare {target}")


def check_ranks(modules, report):
    for folder, module in modules.items():
        where = f"{module.cmake_path}:{module.line}"
        if folder not in RANKS:
            report(f"{where}: module {folder} has no layer in scripts/check_layers.py (add it to RANKS)")
            continue
        for dep in module.deps + module.test_deps:
            if dep not in modules:
                report(f"{where}: module {folder} declares {dep}, which is not a module under src/")
            elif dep in RANKS and RANKS[dep] > RANKS[folder]:
                report(f"{where}: module {folder} (layer {RANKS[folder]}) declares {dep}, which is above it "
                       f"(layer {RANKS[dep]})")


def check_cycles(modules, report):
    state = {}  # folder -> "visiting" | "done"
    stack = []

    def visit(folder):
        state[folder] = "visiting"
        stack.append(folder)
        for dep in modules[folder].deps:
            if dep not in modules:
                continue
            if state.get(dep) == "visiting":
                cycle = stack[stack.index(dep):] + [dep]
                module = modules[folder]
                report(f"{module.cmake_path}:{module.line}: dependency cycle {' -> '.join(cycle)}")
            elif dep not in state:
                visit(dep)
        stack.pop()
        state[folder] = "done"

    for folder in modules:
        if folder not in state:
            visit(folder)


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    src = os.path.join(root, "src")
    if not os.path.isdir(src):
        print(f"check_layers: {src}: no such directory", file=sys.stderr)
        return 2
    violations = []
    modules = read_modules(src)
    check_ranks(modules, violations.append)
    check_cycles(modules, violations.append)
    check_includes(src, root, modules, violations.append)
    for v in violations:
        print(v)
    if violations:
        print(f"check_layers: {len(violations)} violation(s) of DESIGN.md's layers", file=sys.stderr)
        return 1
    print(f"check_layers: {len(modules)} modules, layering respected")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
