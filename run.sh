#!/usr/bin/env bash
# inlinecost: set up, build, sweep, summarise, plot. `./run.sh --help` for
# options; README.md for what the parts are. This file only dispatches: the
# work is in scripts/, one job a file (docs/layout.md): ./run.sh NAME runs
# the sub_NAME defined there, anything else is a sweep (plan.sh's sweep_main).
set -euo pipefail
# One locale for everything we run, whatever the user's (a fresh machine has
# none): sort, awk and the programs then say the same everywhere. gnuplot
# alone runs under C.UTF-8 (plots/gnuplot_run.h).
export LC_ALL=C
unset LANGUAGE

# Paths the user gives are taken from where they ran us, before the cd.
caller_pwd=$PWD
top=$(cd "${BASH_SOURCE[0]%/*}" 2>/dev/null && pwd || pwd)
cd "$top"
# The load before this run starts anything (set-up, build), for the
# machine's state (sweep_main hands it on): its own build is not other work.
run_loadavg=""
read -r run_loadavg </proc/loadavg 2>/dev/null || true
prog=./run.sh
# Recorded in every lock we hold, so a second run can name us: one line,
# whatever the arguments hold.
cmdline="$prog ${*//$'\n'/ }"

# common.sh first: the others' top levels use it (and plan.sh reads
# options.sh's table, which comes before it by name).
. "$top/scripts/common.sh"
for f in "$top"/scripts/*.sh; do
	# shellcheck disable=SC1090
	[ "$f" = "$top/scripts/common.sh" ] || . "$f"
done

main() {
	if [ $# -gt 0 ] && [[ $1 =~ ^[a-z]+$ ]] && declare -F "sub_$1" >/dev/null; then
		"sub_$1" "${@:2}"
	else
		sweep_main "$@"
	fi
}
sub_help() { help_text run; }
# One line: bash has read all of it before it runs, so editing this file
# during a long sweep cannot feed the running shell a stray line.
main "$@"; exit
