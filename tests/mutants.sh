#!/usr/bin/env bash
# The kept mutants (tests/mutants.txt) must all be killed: each is a small
# wrong change to one file, and the tests it names must fail on it. The
# changes go to a copy of the source tree with one build tree of its own
# (SCRATCH/src, SCRATCH/build), kept between runs so a mutant rebuilds only
# the objects its file feeds and the tests it names need (the targets
# needs_<test>). First the named tests must pass on the code as it is, so a
# kill means the change, not a broken test. The tree is never touched.
# usage: mutants.sh TOP SCRATCH [NAME...]   (NAME: only those mutants)
#        mutants.sh TOP --patterns [NAME...]: only check that each pattern is
#        found exactly once (seconds, no build: the fast tests' check)
# Exit 0 when every mutant is killed; 1 when one survives, does not
# build, or its pattern is not found exactly once.
set -u
top=$(cd "$1" && pwd) scratch=$2; shift 2
list=$top/tests/mutants.txt src=$scratch/src bld=$scratch/build
only=" $* "
say() { printf 'mutants: %s\n' "$*"; }
die() { say "$*" >&2; exit 1; }

# The list as records: mutant NAME / file PATH / tests T... / "- FROM" and
# "+ TO" pairs (TO may be empty). Parsed into parallel arrays; the k-th
# change of mutant i is from[i,k] -> to[i,k].
names=() files=() tests=() nchanges=()
declare -A from=() to=()
i=-1 lineno=0
while IFS= read -r line || [ -n "$line" ]; do
	lineno=$((lineno + 1))
	case $line in
	'' | '#'*) continue ;;
	'mutant '*) i=$((i + 1)) names[i]=${line#mutant } files[i]="" tests[i]="" nchanges[i]=0 ;;
	'file '*) files[i]=${line#file } ;;
	'tests '*) tests[i]=${line#tests } ;;
	'- '*) from[$i,${nchanges[i]}]=${line#- } ;;
	'+ '* | '+') to[$i,${nchanges[i]}]=${line#+}; to[$i,${nchanges[i]}]=${to[$i,${nchanges[i]}]# }
		nchanges[i]=$((nchanges[i] + 1)) ;;
	*) die "$list:$lineno: not a mutant line: $line" ;;
	esac
done <"$list"
for i in "${!names[@]}"; do
	[ -n "${files[i]}" ] && [ -n "${tests[i]}" ] && [ "${nchanges[i]}" -gt 0 ] ||
		die "${names[i]}: wants a file, tests and at least one - / + pair"
done

# The mutants to run: all, or those named.
run=()
for i in "${!names[@]}"; do
	[ "$only" = "  " ] || [[ $only == *" ${names[i]} "* ]] && run+=("$i")
done
[ ${#run[@]} -gt 0 ] || die "no mutant named $*"

# count_in TEXT PATTERN: how many times PATTERN occurs in TEXT, literally.
count_in() {
	local rest=${1//"$2"/}
	echo $(((${#1} - ${#rest}) / ${#2}))
}

# apply I: mutant I's changes to $text, each pattern found there exactly
# once.
apply() {
	local i=$1 k n
	for ((k = 0; k < nchanges[i]; k++)); do
		n=$(count_in "$text" "${from[$i,$k]}")
		[ "$n" -eq 1 ] || die "${names[i]}: '${from[$i,$k]}' is in ${files[i]} $n times, want once"
		text=${text/"${from[$i,$k]}"/"${to[$i,$k]}"}
	done
}

# mutate I DIR: mutant I's changes to DIR's copy of its file.
mutate() {
	local f=$2/${files[$1]}
	[ -f "$f" ] || die "${names[$1]}: no file ${files[$1]}"
	text=$(cat "$f"; printf x) text=${text%x}
	apply "$1"
	printf '%s' "$text" >"$f"
}

# Every pattern first, on the tree itself (in memory): a stale list fails
# before any build.
for i in "${run[@]}"; do
	[ -f "$top/${files[i]}" ] || die "${names[i]}: no file ${files[i]}"
	text=$(cat "$top/${files[i]}")
	apply "$i"
done
[ "$scratch" != --patterns ] || { say "every pattern of ${#run[@]} mutants found once"; exit 0; }

# The copy: a file is copied only when its content differs, so make's
# times stay right (a copied file is newer than what was built from it).
mkdir -p "$src" "$bld" || exit 1
# The build trees are the top's own (sweep/builds.c is source).
(cd "$top" && find . \( -path './build*' -o -name results -o -name .git \) -prune -o -type f -print) |
while IFS= read -r f; do
	cmp -s "$top/$f" "$src/$f" && continue
	mkdir -p "$(dirname "$src/$f")" && cp "$top/$f" "$src/$f" || exit 1
done || die "copying the tree to $src failed"
# A file gone from the tree goes from the copy too (run.sh sources every
# scripts/*.sh).
(cd "$src" && find . -type f -print) | while IFS= read -r f; do [ -e "$top/$f" ] || rm -f "$src/$f"; done

if [ ! -f "$bld/CMakeCache.txt" ]; then
	cmake -S "$src" -B "$bld" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$scratch/configure.log" 2>&1 ||
		die "configuring $bld failed (log $scratch/configure.log)"
fi

# check TESTS...: build what they need, run them. 0 all pass, 1 one
# fails (its name in $failed), 2 the build fails.
check() {
	local t targets=() re
	for t in "$@"; do targets+=("needs_$t"); done
	cmake --build "$bld" --target "${targets[@]}" >"$scratch/build.log" 2>&1 || return 2
	re="^($(IFS='|'; printf '%s' "$*"))\$"
	# A test may stop at its first failure (IC_TEST_FIRST_FAILURE): one
	# is all a kill needs.
	(cd "$bld" && IC_TEST_FIRST_FAILURE=1 ctest --no-tests=error --timeout 600 -R "$re") \
		>"$scratch/ctest.log" 2>&1 && return 0
	failed=$(sed -n 's/^[[:space:]]*[0-9]* - \([a-z0-9_]*\) .*/\1/p' "$scratch/ctest.log" | tr '\n' ' ')
	return 1
}

# Their tests on the code as it is.
all=()
for i in "${run[@]}"; do
	for t in ${tests[i]}; do [[ " ${all[*]} " == *" $t "* ]] || all+=("$t"); done
done
t0=$SECONDS
check "${all[@]}"
case $? in
1) die "on the code as it is, these fail: $failed (log $scratch/ctest.log)" ;;
2) die "the build failed (log $scratch/build.log)" ;;
esac
say "${#all[@]} tests pass on the code as it is ($((SECONDS - t0)) s)"

# Each mutant in turn, its file put back (with a new time) whatever happens.
restore() { [ -z "${cur:-}" ] || cp "$top/$cur" "$src/$cur"; cur=""; }
trap restore EXIT
trap 'exit 1' INT TERM
bad=0
for i in "${run[@]}"; do
	t0=$SECONDS
	cur=${files[i]}
	mutate "$i" "$src"
	# shellcheck disable=SC2086 # the tests are words
	check ${tests[i]}
	rc=$?
	restore
	case $rc in
	0) say "SURVIVED: ${names[i]} (${files[i]}): ${tests[i]} passed"; bad=1 ;;
	1) say "killed: ${names[i]} by $failed($((SECONDS - t0)) s)" ;;
	2) say "DOES NOT BUILD: ${names[i]} (log $scratch/build.log)"; bad=1 ;;
	esac
done
[ $bad -eq 0 ] || die "some mutants were not killed (above)"
say "every one of ${#run[@]} mutants killed"
