#!/bin/sh
# verdict.json against docs/verdict-json.md's table, both ways: written
# from the recorded Zen 5 run (tests/data/report/zen5: a smoke design, no
# N resolved) and from a fake run of two builds, one with a series in two
# states and a crossover; every field is in the table with its type, and
# every row of the table is in these files. Then the verdict lines in it
# are summary.md's.
# usage: test_report_verdict_json.sh SUMMARIZE FAKEGB DATADIR DOC VALIDATOR
set -u
. "$(dirname "$0")/lib.sh"
args 'summarize fakegb data doc validate' "$@"
scratch

"$summarize" --out "$work/zen5" "$data"/zen5/*.json >/dev/null || fail "zen5: exit $?"
# two_builds: this process of both builds; the first four of build a are slow.
two_builds() {
	s=1.0
	[ $k -le 4 ] && s=1.6
	"$fakegb" --shape crossover --crossover 64 --variant $v --process $p --seed $k --threads 1 \
		--modes private --sites-max 1024 --reps 3 --noise 0.02 --state $s \
		--compiler "GNU 12.2.0" > "$work/in/a_v${v}_p$p.json" || fail "fakegb a"
	"$fakegb" --shape crossover --crossover 64 --variant $v --process $p --seed $((k + 50)) \
		--threads 1 --modes private --sites-max 1024 --reps 3 --noise 0.02 \
		--compiler "Clang 14.0.6" > "$work/in/b_v${v}_p$p.json" || fail "fakegb b"
}
mkdir -p "$work/in"
each_process two_builds
"$summarize" --out "$work/fake" "$work"/in/*.json >/dev/null || fail "fake: exit $?"
"$validate" "$doc" "$work/zen5/verdict.json" "$work/fake/verdict.json" || fail "the shape"

# The verdict strings are summary.md's, series by series.
for d in zen5 fake; do
	grep -o '"verdict": "[^"]*\.",' "$work/$d/verdict.json" | sed 's/^"verdict": "//; s/",$//' > "$work/$d.json.txt"
	grep '^- \*\*' "$work/$d/summary.md" | sed -E 's/^- \*\*[^*]*\*\*: //; s/ [^.]*code (outgrows|stays) .*$//' > "$work/$d.md.txt"
	cmp -s "$work/$d.json.txt" "$work/$d.md.txt" ||
		fail "$d: verdict.json's verdicts are not summary.md's: $(diff "$work/$d.md.txt" "$work/$d.json.txt")"
done
grep -q '"smoke": true' "$work/zen5/verdict.json" && grep -q '"smoke": false' "$work/fake/verdict.json" ||
	fail "smoke flags"
echo "test_report_verdict_json: ok"
