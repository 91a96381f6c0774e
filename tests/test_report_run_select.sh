#!/bin/sh
# summarize --run RUN: a run's processes opened by the engine give the same
# report as the file list in name order; --repeat K reads repeat K's
# processes only (their keys r<K>_v<V>_p<P>, after any prefix) and --trial T
# trial T's (t<T>_...), each the same as the matching file list; a
# selection with no process, --repeat without --run, and --run beside files
# are refused with one line and exit 2, nothing written.
# usage: test_report_run_select.sh SUMMARIZE FAKEGB
set -u
summarize=$1
fakegb=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/test_report_run_select.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() {
	echo "test_report_run_select: FAIL: $*" >&2
	exit 1
}
run=$work/run
mkdir -p "$run/raw"
printf 'compare=inline\nbaseline=extern\nrepeat=2\n' >"$run/run.conf"
for r in 1 2; do for v in 0 1 2; do for p in 0 1; do
	"$fakegb" --variant $v --process $p --seed $((r * 100 + v * 10 + p)) --threads 1 --modes private \
		--sites-max 64 >"$run/raw/r${r}_v${v}_p$p.json" || fail "fakegb"
	cp "$run/raw/r${r}_v${v}_p$p.json" "$run/raw/t${r}_r1_v${v}_p$p.json"
done; done; done
# A crossover step's processes of repeat 2 (prefix x1_): repeat 2's too.
for v in 0 1 2; do cp "$run/raw/r2_v${v}_p0.json" "$run/raw/x1_r2_v${v}_p0.json"; done
same() {   # same NAME [ARGS...] -- FILES...: --run with ARGS equals the file list
	name=$1; shift
	args=""
	while [ "$1" != -- ]; do args="$args $1"; shift; done
	shift
	# shellcheck disable=SC2086
	"$summarize" --out "$work/$name-run" --run "$run" $args >/dev/null 2>"$work/err" || fail "$name --run: $(cat "$work/err")"
	"$summarize" --out "$work/$name-files" "$@" >/dev/null 2>"$work/err" || fail "$name files: $(cat "$work/err")"
	for f in summary.md ratios.csv points.csv verdict.json process_ratios.csv; do
		cmp -s "$work/$name-run/$f" "$work/$name-files/$f" || fail "$name: $f differs between --run and the file list"
	done
}
same all -- "$run"/raw/*.json
same repeat2 --repeat 2 -- "$run"/raw/r2_v*.json "$run"/raw/x1_r2_v*.json
same trial1 --trial 1 -- "$run"/raw/t1_*.json
# The repeat selection really selects: repeat 2's verdict is not the whole run's.
cmp -s "$work/repeat2-run/process_ratios.csv" "$work/all-run/process_ratios.csv" &&
	fail "--repeat 2 read every process"
bad() {   # bad WHY ARGS...: exit 2, one line, nothing written
	why=$1; shift
	"$summarize" --out "$work/bad" "$@" >/dev/null 2>"$work/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -e "$work/bad" ] ||
		fail "$why: exit $rc, $(cat "$work/err")"
}
bad "a repeat with no process" --run "$run" --repeat 3
bad "--repeat without --run" --repeat 2 "$run/raw/r1_v0_p0.json"
bad "--run beside files" --run "$run" "$run/raw/r1_v0_p0.json"
bad "--trial 0" --run "$run" --trial 0
echo "test_report_run_select: ok"
