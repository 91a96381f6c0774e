#!/bin/sh
# The tree's include graph has no circle: every #include "..." of every .c
# and .h file is an edge from the including file's part to the included
# one's, a part being folder/file without its extension (x.c and x.h are
# one part, so a .c that includes a header whose part includes the .c's own
# header closes a circle). Fails, printing the circle, when the graph has
# one, when a file of engine/ includes one of report/ (the analysis
# never calls its fronts), and when two C files share a name (a debugger's
# file:line or a search by name would find both). A name that resolves to
# no file of the tree (a system or generated header) is no edge; one that
# resolves to two is an error. First it plants a circle, an upward include
# and a name twice in a scratch tree and checks that all are caught.
# usage: test_tree_include_graph.sh TOP
set -u
. "$(dirname "$0")/lib.sh"
args 'top' "$@"
scratch

# check_tree DIR: exit 0 when DIR's graph is clean, else 1 with the
# problems on stdout.
check_tree() {
	(cd "$1" && find . \( -name 'build*' -o -name results -o -name .git \) -prune -o \
		-type f \( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||' | sort) |
	awk -v top="$1" '
	function part(path) { sub(/\.[ch]$/, "", path); return path }
	function dirof(path) { return path ~ /\// ? substr(path, 1, match(path, /\/[^\/]*$/) - 1) : "" }
	function norm(path,    n, i, k, out, seg) {   # a/b/../c -> a/c
		n = split(path, seg, "/"); k = 0
		for (i = 1; i <= n; i++) {
			if (seg[i] == "." || seg[i] == "") continue
			if (seg[i] == ".." && k > 0) { k--; continue }
			st[++k] = seg[i]
		}
		out = ""
		for (i = 1; i <= k; i++) out = out (i > 1 ? "/" : "") st[i]
		return out
	}
	function visit(u,    i, v) {   # depth first; colour 1 on the stack, 2 done
		colour[u] = 1; stack[++depth] = u
		for (i = 1; i <= nout[u]; i++) {
			v = out[u, i]
			if (colour[v] == 1) { cycle(v); bad = 1 }
			else if (!colour[v]) visit(v)
		}
		depth--; colour[u] = 2
	}
	function cycle(v,    i, s) {
		for (i = depth; stack[i] != v; i--) ;
		s = ""
		for (; i <= depth; i++) s = s stack[i] " -> "
		print "circle: " s v
	}
	{ file[++nf] = $0; base = $0; sub(/.*\//, "", base); byname[base] = byname[base] " " $0; exists[$0] = 1 }
	END {
		for (base in byname)
			if (base ~ /\.c$/ && split(byname[base], cand, " ") > 1) { print "same name:" byname[base]; bad = 1 }
		for (f = 1; f <= nf; f++) {
			path = top "/" file[f]; dir = dirof(file[f])
			while ((getline line < path) > 0) {
				if (line !~ /^[ \t]*#[ \t]*include[ \t]*"/) continue
				name = line; sub(/^[^"]*"/, "", name); sub(/".*$/, "", name)
				target = norm((dir != "" ? dir "/" : "") name)
				if (!(target in exists)) {
					target = ""
					if (name !~ /\//) {
						n = split(byname[name], cand, " ")
						if (n > 1) { print "ambiguous: " file[f] " includes \"" name "\":" byname[name]; bad = 1; continue }
						if (n == 1) target = cand[1]
					}
					if (target == "") continue
				}
				if (file[f] ~ /^engine\// && target ~ /^report\//) {
					print "upward: " file[f] " includes " target " (engine/ never includes report/)"; bad = 1
				}
				u = part(file[f]); v = part(target)
				if (u == v || ((u, v) in edge)) continue
				edge[u, v] = 1; out[u, ++nout[u]] = v
			}
			close(path)
		}
		for (f = 1; f <= nf; f++) if (!colour[part(file[f])]) visit(part(file[f]))
		exit bad
	}'
}

# --- it catches what it is for ------------------------------------------------
p=$work/planted
mkdir -p "$p/engine" "$p/report"
printf '#include "b.h"\n' >"$p/engine/a.h"
printf '#include "c.h"\n' >"$p/engine/b.h"
printf '/* c.h includes nothing: the circle closes through c.c */\n' >"$p/engine/c.h"
printf '#include "c.h"\n#include "a.h"\n#include "report.h"\n' >"$p/engine/c.c"
printf '#include <stdio.h>\n' >"$p/report/report.h"
printf '#include "report.h"\n#include "generated.h"\n' >"$p/report/report.c"
printf '#include "../engine/a.h"\n#include "report.h"\n' >"$p/report/front.c"
printf '/* the front of engine/c.c: one name twice */\n' >"$p/report/c.c"
planted=$work/planted.out
if check_tree "$p" >"$planted"; then
	fail "a planted circle, an upward include and a name twice passed"
fi
holds "$planted" "planted circle not printed" -x 'circle: engine/a -> engine/b -> engine/c -> engine/a'
holds "$planted" "planted upward include not printed" '^upward: engine/c.c includes report/report.h'
holds "$planted" "planted C files of one name not printed" -x 'same name: engine/c.c report/c.c'
[ "$(grep -c '^circle' "$planted")" -eq 1 ] || fail "report/front -> engine/a is no circle: $(cat "$planted")"

# --- the tree -------------------------------------------------------------------
if ! check_tree "$top" >"$work/tree.out"; then
	fail "$(cat "$work/tree.out")"
fi
echo "test_tree_include_graph: ok ($(cd "$top" && find . \( -name 'build*' -o -name results -o -name .git \) -prune -o -type f \( -name '*.c' -o -name '*.h' \) -print | wc -l) files)"
