#!/usr/bin/env python3
"""The tree's call graph between C files has no circle: from `nm -P` on the
build tree's objects, file A uses file B when A references a global symbol
that B defines, and no set of files may use each other round (Tarjan's
strongly connected components of more than one file). The include graph
has its own test; this one sees calls and shared globals that no header
shows. Objects that are not built are not read: the test names the
libraries and programs of every part as its targets. First it plants a
circle (two files that call each other, compiled with cc) in a scratch tree
and checks that it is caught.

usage: test_tree_symbol_graph.py BUILD TOP"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

DEFINED = set("TDBRWVGSCui")   # nm -P types of a symbol defined here


def objects(build, top):
    """(source file relative to top, object path) for every object of a
    source file of the tree."""
    for root, _, files in os.walk(build):
        for f in files:
            if not f.endswith(".o"):
                continue
            path = os.path.join(root, f)
            m = re.match(r"(.*)/CMakeFiles/[^/]+\.dir/(.*)\.o$", os.path.relpath(path, build))
            if not m:
                continue
            src = os.path.normpath(os.path.join(m.group(1), m.group(2).replace("__", "..")))
            if os.path.exists(os.path.join(top, src)):
                yield src, path


def circles(build, top):
    """The circles, each a sorted list of files with the symbols between them."""
    defs, refs = defaultdict(set), defaultdict(set)
    src_of = dict((path, src) for src, path in objects(build, top))
    paths = sorted(src_of)
    # One nm for many objects (-A names each line's object): nm's start
    # costs more than reading one object.
    for i in range(0, len(paths), 200):
        out = subprocess.run(["nm", "-P", "-A"] + paths[i:i + 200], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            path, _, rest = line.partition(": ")
            parts = rest.split()
            if path not in src_of or len(parts) < 2:
                continue
            src = src_of[path]
            if parts[1] == "U":
                refs[src].add(parts[0])
            elif parts[1] in DEFINED:
                defs[src].add(parts[0])
    owner = defaultdict(set)
    for src, names in defs.items():
        for n in names:
            owner[n].add(src)
    edges = defaultdict(dict)
    for src, names in refs.items():
        for n in names:
            for o in owner.get(n, ()):
                if o != src:
                    edges[src].setdefault(o, set()).add(n)
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
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
            comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(set(edges) | {o for e in edges.values() for o in e}):
        if v not in index:
            visit(v)
    found = []
    for comp in (c for c in comps if len(c) > 1):
        uses = ["  %s -> %s: %s" % (a, b, " ".join(sorted(n)))
                for a in comp for b, n in sorted(edges.get(a, {}).items()) if b in comp]
        found.append((comp, uses))
    return found, len(set(defs) | set(refs))


def planted_is_caught():
    """Two files calling each other in a scratch tree: the check must say so."""
    cc = shutil.which("cc")
    with tempfile.TemporaryDirectory() as work:
        top, build = os.path.join(work, "src"), os.path.join(work, "build")
        os.makedirs(os.path.join(top, "part"))
        os.makedirs(os.path.join(build, "part", "CMakeFiles", "p.dir"))
        for name, other in (("a", "b"), ("b", "a")):
            with open(os.path.join(top, "part", name + ".c"), "w") as f:
                f.write("int %s_fn(int);\nint %s_fn(int x) { return x ? %s_fn(x - 1) : 0; }\n"
                        % (other, name, other))
            subprocess.run([cc, "-c", os.path.join(top, "part", name + ".c"), "-o",
                            os.path.join(build, "part", "CMakeFiles", "p.dir", name + ".c.o")], check=True)
        found, _ = circles(build, top)
        return len(found) == 1 and found[0][0] == ["part/a.c", "part/b.c"]


def main():
    if len(sys.argv) != 3:
        print(__doc__.splitlines()[-1], file=sys.stderr)
        return 2
    if not shutil.which("nm") or not shutil.which("cc"):
        print("skip: nm or cc not installed (binutils, gcc)")
        return 77
    if not planted_is_caught():
        print("test_tree_symbol_graph: FAIL: a planted circle (part/a.c <-> part/b.c) was not caught")
        return 1
    found, nfiles = circles(sys.argv[1], sys.argv[2])
    for comp, uses in found:
        print("test_tree_symbol_graph: FAIL: circle: " + " ".join(comp))
        print("\n".join(uses))
    if found:
        return 1
    # A graph of a few files says nothing of the tree: its objects are
    # missing (a tree not built, or moved). Most of the tree's sources must
    # be there (a fixed count failed once folds made the tree smaller).
    sources = sum(f.endswith((".c", ".cc")) for d, _, fs in os.walk(sys.argv[2])
                  if not os.path.relpath(d, sys.argv[2]).startswith(("build", ".", "results")) for f in fs)
    if nfiles < sources * 3 // 4:
        print("test_tree_symbol_graph: FAIL: only %d of %d files' objects in %s" % (nfiles, sources, sys.argv[1]))
        return 1
    print("test_tree_symbol_graph: ok: %d files, no circle" % nfiles)
    return 0


if __name__ == "__main__":
    sys.exit(main())
