# Sourced by run.sh: messages, paths, locks, progress lines, and the tables
# several parts of run.sh read (the point names, where the controls run).
# Needs $top, $prog and $caller_pwd.

# Every line run.sh and its scripts print starts with one prefix, the
# suite's name, as the programs' own notices do ("inlinecost: ..."); $prog
# is the command, as the user types it.
tag=inlinecost
die() { echo "$tag: $*" >&2; exit 2; }    # bad input: nothing was done
fail() { echo "$tag: $*" >&2; exit 1; }   # a step failed (install, build, run, summary)
say() { echo "$tag: $*" >&2; }
# show_tail N FILE: a log's last N lines on stderr, each under the prefix.
show_tail() { tail -n "$1" "$2" | sed "s/^/$tag: | /" >&2; }

# help_text NAME: what ./run.sh NAME --help prints (scripts/help/NAME.txt;
# run: the sweep's options).
help_text() { cat "$top/scripts/help/$1.txt"; }

is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }

# parse_sub NAME SPEC ARGS...: a subcommand's ARGS by SPEC, checked before
# anything is installed or built. SPEC's words: --X a flag, --X= an option
# with a value, --X=path one whose value is a path; operands= or
# operands=path what comes without a dash. Into opt[--X] (a flag 1) and
# operands (paths made absolute); --help prints NAME's help.
parse_sub() {
	local name=$1 spec=" $2 " a v; shift 2
	declare -gA opt=()
	operands=()
	while [ $# -gt 0 ]; do
		a=$1 v=""
		case $a in -h | --help) help_text "$name"; exit 0 ;; --*=*) v=${a#*=} a=${a%%=*} ;; esac
		if [[ $a != -* ]]; then
			[[ $spec == *" operands"* ]] || die "$name: unexpected argument '$a' (see ./run.sh $name --help)"
			[[ $spec != *" operands=path "* ]] || a=$(abs_path "$a")
			operands+=("$a"); shift; continue
		fi
		if [[ $spec == *" $a "* ]]; then
			[ "$1" = "$a" ] || die "$name: $1: $a takes no value"
			opt[$a]=1; shift; continue
		fi
		[[ $spec == *" $a="* ]] || die "$name: unknown option '$a' (see ./run.sh $name --help)"
		if [ "$1" = "$a" ]; then [ $# -ge 2 ] || die "$name: $a needs a value"; v=$2; shift; fi
		[ -n "$v" ] || die "$name: $a needs a value"
		[[ $spec != *" $a=path "* ]] || v=$(abs_path "$v")
		opt[$a]=$v; shift
	done
}

# A path the user gave, taken from their working directory, without the
# trailing slash a shell's completion adds (DIR/.tar.gz is no name).
abs_path() {
	local p=$1
	[[ $p == /* ]] || p=$caller_pwd/$p
	while [[ $p == */ && $p != / ]]; do p=${p%/}; done
	printf '%s\n' "$p"
}

# point_limits: gen's limits (gen/point_name.h's IC_POINT_SITES_MAX and
# IC_POINT_FILLER_MAX) into sites_max and filler_max, which the options
# check against: the limit is written once, there. (Read without a
# process: every run.sh reads them, a refusal too.)
point_limits() {
	local line re='^#define IC_POINT_(SITES|FILLER)_MAX ([0-9]+)u'
	while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		if [ "${BASH_REMATCH[1]}" = SITES ]; then sites_max=${BASH_REMATCH[2]}; else filler_max=${BASH_REMATCH[2]}; fi
	done <"$top/gen/point_name.h"
}
# cache_strings VAR FILE: the values CMake offers for a cache variable
# (its set_property(CACHE VAR PROPERTY STRINGS ...)), one per line.
cache_strings() {
	sed -n "s/^set_property(CACHE $1 PROPERTY STRINGS \(.*\))\$/\1/p" "$top/$2" | tr ' ' '\n'
}
# point_names KIND [COLUMNS]: the names of FORM, OP, LAYOUT or ORDER, from
# the table gen and CMake read too (the X(ENUM, name, ...) lines of its
# IC_<KIND>S list); with COLUMNS, the rows whose next columns begin so.
point_names() {
	sed -n "/^#define IC_$1S(X)/,/[^\\]\$/ s/^[[:space:]]*X([A-Z_]*, \([a-z_]*\),${2-}.*/\1/p" "$top/gen/point_names.def"
}

# Solo points run at 1 thread on a private queue only: the forms whose solo
# column in gen/point_names.def is 1 (point_names FORM ' 1,': the mark, the
# nolock forms) and, as its IC_FILLER_SOLO says, every filler series.
# sites_bench reads the same table and decides the runs; run.sh reads it
# only where it must decide before anything is built (options.sh refuses;
# the plan, cmd/sweep, drops). solo is how the messages say it; has_solo
# THREADS MODES whether a sweep runs there.
solo="1 thread, private"
has_solo() { [[ ,$1, == *,1,* && ,$2, == *,private,* ]]; }
filler_is_solo() { grep -q '^#define IC_FILLER_SOLO 1$' "$top/gen/point_names.def"; }

# ---- locks -------------------------------------------------------------------

# lock_take FILE WHAT wait|refuse: one user at a time of what FILE guards
# (a build tree, a results directory), held until this shell exits. The
# holder writes its pid and command into FILE; a second run names it, then
# waits for it or refuses (exit 1). The descriptor stays open in the
# processes we start, so a bench still running keeps its build locked.
lock_take() {
	local file=$1 what=$2 mode=$3 fd holder
	exec {fd}>>"$file" || fail "cannot open the lock $file"
	if ! flock -n "$fd"; then
		holder=$(head -n 1 "$file" 2>/dev/null || true)
		[ "$mode" = wait ] || fail "$what is in use by ${holder:-another run}; try again when it has finished"
		say "$what is in use by ${holder:-another run}; waiting for it"
		flock "$fd" || fail "cannot lock $file"
	fi
	printf 'pid %s (%s)\n' "$$" "${cmdline:-$prog}" >"$file"
}

# ---- progress ----------------------------------------------------------------

# One line per phase on the terminal, with the time so far and, once there
# is something to go by, the time the whole run has left (eta_s, set by
# the phases that can estimate it). The phases' own output goes to logs.
run_start=$SECONDS
eta_s=""
fmt_s() { local s=$1; if [ "$s" -ge 60 ]; then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi; }
phase() {
	local left=""
	[ -z "$eta_s" ] || left=", about $(fmt_s "$eta_s") left"
	echo "$tag: [$(fmt_s $((SECONDS - run_start)))$left] $*" >&2
}

# step LOG WHAT CMD...: CMD with its output in LOG; on failure its last
# lines, then exit 1 naming WHAT and the log.
step() {
	local log=$1 what=$2; shift 2
	if ! "$@" >"$log" 2>&1; then
		show_tail 20 "$log"
		fail "$what failed (log: $log)"
	fi
}
