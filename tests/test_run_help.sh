#!/usr/bin/env bash
# Every --help names commands as the user types them: ./run.sh and each
# subcommand's --help exits 0, prints on stdout only, starts "Usage:
# ./run.sh[ SUB]", names no path of a build tree (the checkout's or this
# tree's absolute path, or a program inside a tree: build/cmd/runs),
# and its last line ends a sentence. inlines' text is its program's
# (run.sh execs it): checked from this tree's program, and through run.sh
# when the checkout's build/ holds this very program.
# Usage: test_run_help.sh PATH/TO/run.sh INLINES-PROGRAM BUILD-DIR
set -u
run=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
inlines=$2 tree=$(cd "$3" && pwd)
top=$(dirname "$run")
. "$(dirname "$0")/lib.sh"
scratch tmp

# check NAME WANT-PREFIX CMD...: NAME's help by CMD against the rules.
check() {
	local name=$1 want=$2 rc last; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
	[ $rc -eq 0 ] || bad "$name --help exited $rc: $(head -n 1 "$tmp/err")"
	[ ! -s "$tmp/err" ] || bad "$name --help wrote on stderr: $(head -n 1 "$tmp/err")"
	[ -s "$tmp/out" ] || { bad "$name --help printed nothing"; return; }
	case $(head -n 1 "$tmp/out") in
	"$want "* | "$want") ;;
	*) bad "$name --help starts '$(head -n 1 "$tmp/out")', want '$want'" ;;
	esac
	! grep -qF -- "$top/" "$tmp/out" || bad "$name --help names the checkout's path: $(grep -F -- "$top/" "$tmp/out" | head -n 1)"
	! grep -qF -- "$tree" "$tmp/out" || bad "$name --help names the build tree's path"
	! grep -qE 'build[^ ]*/(bench|compare|common|report|gen|inlines)/' "$tmp/out" ||
		bad "$name --help names a program inside a build tree: $(grep -E 'build[^ ]*/(bench|compare|common|report|gen|inlines)/' "$tmp/out" | head -n 1)"
	last=$(grep -v '^[[:space:]]*$' "$tmp/out" | tail -n 1)
	[[ $last =~ [.!?]\)?$ ]] || bad "$name --help ends mid-sentence: '$last'"
}

check "./run.sh" "Usage: ./run.sh" "$run" --help
# Every subcommand: those with a help file, and export, whose help is one line.
for sub in $(cd "$top/scripts/help" && ls ./*.txt | sed 's|^\./||; s|\.txt$||' | grep -vx run) export; do
	check "./run.sh $sub" "Usage: ./run.sh $sub" "$run" "$sub" --help
done
# Both test commands named: the fast default and --all, what CI runs.
"$run" test --help | grep -q -- '^  --all ' || bad "./run.sh test --help does not document --all"
"$run" --help | grep -q -- 'run.sh test --all' || bad "./run.sh --help does not name ./run.sh test --all"
# The sweep's options: each row of the option table has its help, and the
# help names no option the table lacks.
table=$(sed -n 's/^\(--[a-z-]*\).*/\1/p' "$top/scripts/options.tsv" | sort)
[ -n "$table" ] || bad "no option table in scripts/options.tsv"
helped=$("$run" --help | sed -n 's/^  \(--[a-z-]*\).*/\1/p' | sort)
# Each row: the option, its check, and a help line that says something.
awk -F'\t' '/^--/ && (NF < 3 || $3 !~ /[a-z]/) { print $1 }' "$top/scripts/options.tsv" | while read -r o; do
	echo "FAIL: scripts/options.tsv: $o has no help"
done | grep . && fail=1
[ "$table" = "$helped" ] || bad "the option table and ./run.sh --help differ: $(diff <(echo "$table") <(echo "$helped") | grep '^[<>]' | tr '\n' ' ')"
# docs/options.md names each of them too (as `--name`).
for o in $table; do grep -q -- "\`$o" "$top/docs/options.md" || bad "docs/options.md does not name $o"; done
check "inlines (the program run.sh execs)" "Usage: ./run.sh inlines" "$inlines" --help
grep -q 'exec "$tool" --help' "$top/scripts/inlines.sh" || bad "run.sh inlines --help no longer execs the program's help"
if [ "$top/build/cmd/inlines" -ef "$inlines" ]; then
	check "./run.sh inlines" "Usage: ./run.sh inlines" "$run" inlines --help
fi
[ $fail -eq 0 ] && echo "test_run_help: every --help starts 'Usage: ./run.sh', names no build path and ends its sentences"
exit $fail
