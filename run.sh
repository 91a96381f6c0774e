#!/usr/bin/env bash
# inlinecost: set up, build, sweep, summarise, plot. `./run.sh --help` for
# options; README.md for what the parts are. This file only dispatches: the
# work is in scripts/ (one job each):
#   common.sh   messages, locks, progress lines, rules several parts share
#   setup.sh    the Debian packages, installed when missing
#   options.sh  the sweep's options, every one checked before anything is done
#   plan.sh     the builds, run.conf, and the plan program (cmd/plan) on them
#   build.sh    configure and build a tree (output to its logs), layout variants
#   sweep.sh    the sweep: counters, processes, crossover steps, calibration
#   report.sh   summary and charts, --repeat agreement, calibration tables
#   tests.sh, micro.sh, codesize.sh, inlines.sh, watch.sh
#               ./run.sh test, micro, codesize, inlines, watch and history
#   help/       what each --help prints
set -euo pipefail
# One locale for everything we run, whatever the user's (a fresh machine has
# none): sort, awk and the programs then say the same everywhere. gnuplot
# alone runs under C.UTF-8 (report/draw.sh, common/gnuplot_run.h).
export LC_ALL=C
unset LANGUAGE

# Paths the user gives are taken from where they ran us, before the cd.
caller_pwd=$PWD
top=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$top"
# The load before this run starts anything (set-up, build), for the
# machine's state (sweep_main hands it on): its own build is not other work.
run_loadavg=$(head -n 1 /proc/loadavg 2>/dev/null || true)
prog=./run.sh
# Recorded in every lock we hold, so a second run can name us.
cmdline="$prog $*"

for f in common setup options plan build sweep report tests micro codesize inlines watch; do
	# shellcheck disable=SC1090
	. "$top/scripts/$f.sh"
done

# compare and agree are programs of the build tree (compare/); export is a
# script there. Their arguments are checked here first, paths taken from
# where the user ran us, so that bad usage builds nothing.

# compare_program NAME: build/cmd/NAME, built when missing or stale (a
# first build configures build/ as ./run.sh test --all does).
compare_program() {
	ensure_packages
	build_tree_ready
	build build "$1"
	echo "$top/build/cmd/$1"
}

# compare_args NAME VALUED-OPTIONS ARGS...: ARGS with every path made
# absolute, into cargs; exits 2 on an unknown option or fewer than two runs.
compare_args() {
	local name=$1 valued=$2 runs=0; shift 2
	cargs=()
	while [ $# -gt 0 ]; do
		case $1 in
		-h | --help) help_text "$name"; exit 0 ;;
		--*=*) set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
		esac
		case $1 in
		-*) [[ " $valued " == *" $1 "* ]] || die "$name: unknown option '$1' (see ./run.sh $name --help)."
			[ $# -ge 2 ] && [ -n "$2" ] || die "$name: $1 needs a value."
			cargs+=("$1" "$2"); shift 2; continue ;;
		esac
		cargs+=("$(abs_path "$1")"); runs=$((runs + 1)); shift
	done
	[ $runs -ge 2 ] || die "$name: give two or more results directories or their .tar.gz exports (see ./run.sh $name --help)."
	local i
	for i in "${!cargs[@]}"; do
		[ "${cargs[$i]}" != --out ] || cargs[i + 1]=$(abs_path "${cargs[i + 1]}")
	done
}

compare_main() {
	compare_args compare "--out" "$@"
	[[ " ${cargs[*]} " == *" --out "* ]] || cargs=(--out "$top/results/compare-$(date -u +%Y%m%dT%H%M%SZ)" "${cargs[@]}")
	local prog_path
	prog_path=$(compare_program compare)
	exec "$prog_path" "${cargs[@]}"
}
agree_main() {
	compare_args agree "--out --margin" "$@"
	local prog_path
	prog_path=$(compare_program agree)
	exec "$prog_path" "${cargs[@]}"
}
export_main() {
	case ${1:-} in -h | --help) echo "Usage: ./run.sh export DIR   writes DIR.tar.gz beside DIR: one file holding the run, links resolved, for ./run.sh compare and agree on another machine."; exit 0 ;; esac
	[ $# -eq 1 ] || die "export: give one results directory (see ./run.sh export --help)."
	exec "$top/compare/export.sh" "$(abs_path "$1")"
}

main() {
	case ${1:-} in
	test) shift; tests_main "$@" ;;
	micro) shift; micro_main "$@" ;;
	codesize) shift; codesize_main "$@" ;;
	inlines) shift; inlines_main "$@" ;;
	compare) shift; compare_main "$@" ;;
	export) shift; export_main "$@" ;;
	agree) shift; agree_main "$@" ;;
	watch) shift; watch_main "$@" ;;
	history) shift; history_main "$@" ;;
	report) shift; report_main "$@" ;;
	help) help_text run ;;
	*) sweep_main "$@" ;;
	esac
}
# One line: bash has read all of it before it runs, so editing this file
# during a long sweep cannot feed the running shell a stray line.
main "$@"; exit
