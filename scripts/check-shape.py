#!/usr/bin/env python3
"""The code-shape rules of CONTRIBUTING (issue 16), checked over the workspace's non-test Rust code:

- no function over 120 lines, and at most 5 over 80;
- no import circle between the files of a crate (`use crate::a::...` in b.rs and `use crate::b::...` in a.rs,
  or a longer cycle), nor between its top-level modules (a file of `run/` and one of `report/` naming each other);
- no error that is only a `String` in a library crate (`Result<T, String>`, `type Err = String`): a library's
  errors are types (thiserror), which callers can match and wrap; the binaries (`src/`, `src/bin/`) may do as
  they like;
- no path of a run directory spelled outside the rundir crate (`"state.json"`, `.join("checkpoints")`...): the
  layout is `zero_rundir::layout`'s (`RunPaths`), binaries included.

Tests (`tests/`, `benches/`, `examples/`, `#[cfg(test)]` modules) are left out. Exit status 1 with a list of
what breaks a rule; 0 with a one-line summary otherwise. Run by `make test`.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LONG, TOO_LONG, MAX_LONG = 80, 120, 5
SKIP_DIRS = {"target", "tests", "benches", "examples", ".git", "build", "node_modules"}
# A `Result<..., String>` (generic arguments nested up to two deep) or a FromStr whose error is a String.
STRING_ERROR = re.compile(r"Result<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*,\s*String>|type Err = String")
# A run directory's files by name, and its folders where a path is joined with one.
RUN_DIR_LITERAL = re.compile(
    r'"(state\.json|config\.toml|version\.txt|generations\.jsonl|metrics\.jsonl|openings\.json|zero\.log|run\.lock'
    r'|cluster\.json)"'
    r'|\.join\("(data|checkpoints|games|equal-time|report|tensorboard|lease|followers)"\)'
)
FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+\"C\"\s+)?fn\s+(\w+)")


def rust_files():
    for crate_dir, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")]
        for f in files:
            if f.endswith(".rs"):
                yield os.path.join(crate_dir, f)


def strip(line, state, keep_strings=False):
    """The line without comments, and without string and char contents unless `keep_strings`; `state` carries an
    open block comment."""
    out, i, n = [], 0, len(line)
    while i < n:
        if state["block"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out)
            state["block"], i = False, end + 2
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            state["block"], i = True, i + 2
        elif line[i] == '"':
            j = i + 1
            while j < n and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            out.append(line[i:j + 1] if keep_strings else '""')
            i = j + 1
        elif line[i] == "'" and re.match(r"'(\\.|[^\\'])'", line[i:]):
            m = re.match(r"'(\\.|[^\\'])'", line[i:])
            out.append("' '")
            i += m.end()
        else:
            out.append(line[i])
            i += 1
    return "".join(out)


def functions(path):
    """(name, first line, length) of every function outside `#[cfg(test)]` modules."""
    with open(path, encoding="utf-8") as f:
        raw = f.read().split("\n")
    state = {"block": False}
    lines = [strip(l, state) for l in raw]
    found, skip_until, i = [], -1, 0
    cfg_test = False
    while i < len(lines):
        line = lines[i]
        if "#[cfg(test)]" in line:
            cfg_test = True
        elif cfg_test and re.match(r"^\s*(pub\s+)?mod\s+\w+\s*\{", line):
            i = block_end(lines, i) + 1
            cfg_test = False
            continue
        elif line.strip() and not line.strip().startswith("#["):
            cfg_test = False
        m = FN.match(line)
        if m and i > skip_until:
            end = block_end(lines, i)
            if end is not None:
                found.append((m.group(7), i + 1, end - i + 1))
        i += 1
    return found


def block_end(lines, start):
    """The line where the block opened at or after `start` closes; None for a declaration without body."""
    depth, opened = 0, False
    for j in range(start, len(lines)):
        for ch in lines[j]:
            if ch == "{":
                depth, opened = depth + 1, True
            elif ch == "}":
                depth -= 1
                if opened and depth == 0:
                    return j
            elif ch == ";" and not opened and depth == 0:
                return None
    return None


def crate_root(path):
    d = os.path.dirname(path)
    while d != ROOT and not os.path.exists(os.path.join(d, "Cargo.toml")):
        d = os.path.dirname(d)
    return d


def module_file(src, segments):
    """The file of the most specific module named by `segments` under `src`."""
    for k in range(len(segments), 0, -1):
        base = os.path.join(src, *segments[:k])
        for candidate in (base + ".rs", os.path.join(base, "mod.rs")):
            if os.path.exists(candidate):
                return candidate
    return None


def module_segments(src, path):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] == "mod":
        rel = rel[:-1]
    if rel in (["lib"], ["main"]):
        return []
    return rel


USE = re.compile(r"\b(crate|super)((?:::\w+)+)")


def imports(path, src):
    """Files of the same crate that `path` names through `crate::` or `super::` paths (its own submodules and
    its parents' declarations left out)."""
    here = module_segments(src, path)
    state = {"block": False}
    out = set()
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = strip(raw, state)
            for m in USE.finditer(line):
                segs = [s for s in m.group(2).split("::") if s]
                if m.group(1) == "super":
                    parent = here[:-1]
                    while segs and segs[0] == "super":
                        parent, segs = parent[:-1], segs[1:]
                    segs = parent + segs
                target = module_file(src, segs)
                if target and target != path:
                    tsegs = module_segments(src, target)
                    # A parent module (lib.rs, mod.rs) is where a file is declared, not an import.
                    if tsegs != here[: len(tsegs)]:
                        out.add(target)
    return out


def top_level(src, graph):
    """The file graph folded onto the crate's top-level modules (`run/dir.rs` belongs to `run`)."""
    def top(path):
        segs = module_segments(src, path)
        return segs[0] if segs else None

    folded = {}
    for path, targets in graph.items():
        for target in targets:
            a, b = top(path), top(target)
            if a and b and a != b:
                folded.setdefault(a, set()).add(b)
    return folded


def cycles(graph):
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def matching_lines(path, pattern, keep_strings=False):
    """The lines of `path` (outside `#[cfg(test)]` modules) where `pattern` matches the code (comments left out,
    and string contents too unless `keep_strings`)."""
    state = {"block": False}
    found = []
    for number, raw in enumerate(open(path, encoding="utf-8"), 1):
        if raw.startswith("#[cfg(test)]"):
            break
        if pattern.search(strip(raw, state, keep_strings)):
            found.append(number)
    return found


def is_library(rel):
    """Whether `rel` is library code: a crate's `src/` but not the binary's (`src/` at the root) nor a `bin/`."""
    parts = rel.split(os.sep)
    return len(parts) > 2 and parts[1] == "src" and "bin" not in parts[2:-1] and parts[0] != "fuzz"


def main():
    problems, long_fns, total = [], [], 0
    graphs = {}
    for path in rust_files():
        rel = os.path.relpath(path, ROOT)
        for name, line, length in functions(path):
            total += 1
            if length > TOO_LONG:
                problems.append(f"{rel}:{line}: fn {name} is {length} lines (at most {TOO_LONG})")
            elif length > LONG:
                long_fns.append(f"{rel}:{line}: fn {name} is {length} lines")
        if is_library(rel):
            for line in matching_lines(path, STRING_ERROR):
                problems.append(f"{rel}:{line}: an error that is only a String (a library's errors are types)")
        if not rel.startswith("rundir" + os.sep) and not rel.startswith("fuzz" + os.sep):
            for line in matching_lines(path, RUN_DIR_LITERAL, keep_strings=True):
                problems.append(f"{rel}:{line}: a run directory's path spelled out (zero_rundir::RunPaths names it)")
        src = os.path.join(crate_root(path), "src")
        if path.startswith(src + os.sep):
            graphs.setdefault(src, {})[path] = imports(path, src)
    if len(long_fns) > MAX_LONG:
        problems.append(f"{len(long_fns)} functions over {LONG} lines (at most {MAX_LONG}):")
        problems.extend("  " + f for f in long_fns)
    for src, graph in graphs.items():
        for comp in cycles(graph):
            problems.append("import circle: " + " <-> ".join(os.path.relpath(p, ROOT) for p in comp))
        for comp in cycles(top_level(src, graph)):
            problems.append(f"import circle between modules of {os.path.relpath(src, ROOT)}: " + " <-> ".join(comp))
    if problems:
        print("check-shape: FAILED", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        sys.exit(1)
    print(
        f"check-shape: {total} functions, {len(long_fns)} over {LONG} lines, none over {TOO_LONG}; no import circle;"
        " no String errors in library crates; no run directory path outside rundir"
    )


if __name__ == "__main__":
    main()
