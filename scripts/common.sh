# Sourced by run.sh: messages, paths, locks, progress lines, and the tables
# several parts read (the point names, where the controls run). Needs $top,
# $prog and $caller_pwd.

# Every line starts with the suite's name, as the programs' own notices do.
tag=inlinecost
die() { echo "$tag: $*" >&2; exit 2; }    # bad input: nothing was done
fail() { echo "$tag: $*" >&2; exit 1; }   # a step failed (install, build, run, summary)
say() { echo "$tag: $*" >&2; }
# show_tail N FILE: a log's last N lines on stderr, each under the prefix.
show_tail() { tail -n "$1" "$2" | sed "s/^/$tag: | /" >&2; }

# help_text NAME: what ./run.sh NAME --help prints, scripts/help/NAME.txt,
# its line @options.tsv the sweep's options from their table.
help_text() {
	local line
	while IFS= read -r line || [ -n "$line" ]; do
		[ "$line" = @options.tsv ] || { printf '%s\n' "$line"; continue; }
		while IFS= read -r line; do
			case $line in
			--*) printf '  %-19s %s\n' "${line%%$'\t'*}" "${line##*$'\t'}" ;;
			$'\t'*) printf '%22s%s\n' "" "${line#$'\t'}" ;;
			esac
		done <"$top/scripts/options.tsv"
	done <"$top/scripts/help/$1.txt"
}

is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }

# A path the user gave, taken from their working directory, without the
# trailing slash a shell's completion adds (DIR/.tar.gz is no name).
abs_path() {
	local p=$1
	[[ $p == /* ]] || p=$caller_pwd/$p
	while [[ $p == */ && $p != / ]]; do p=${p%/}; done
	printf '%s\n' "$p"
}

# point_limits: gen's limits (written once, in gen/point_name.h) into
# sites_max and filler_max, without a process: every run reads them.
point_limits() {
	local line re='^#define IC_POINT_(SITES|FILLER)_MAX ([0-9]+)u'
	while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		if [ "${BASH_REMATCH[1]}" = SITES ]; then sites_max=${BASH_REMATCH[2]}; else filler_max=${BASH_REMATCH[2]}; fi
	done <"$top/gen/point_name.h"
}
# point_names KIND [COLUMNS]: the names of FORM, OP, LAYOUT or ORDER, from
# the table gen and CMake read too (the X(ENUM, name, ...) lines of its
# IC_<KIND>S list); with COLUMNS, the rows whose next columns begin so.
point_names() {
	sed -n "/^#define IC_$1S(X)/,/[^\\]\$/ s/^[[:space:]]*X([A-Z_]*, \([a-z_]*\),${2-}.*/\1/p" "$top/gen/point_names.def"
}

# Solo points run at 1 thread on a private queue only: the forms whose solo
# column in gen/point_names.def is 1 (point_names FORM ' 1,') and, as its
# IC_FILLER_SOLO says, every filler series. has_solo THREADS MODES: there?
solo="1 thread, private"
has_solo() { [[ ,$1, == *,1,* && ,$2, == *,private,* ]]; }

# lock_take FILE WHAT wait|refuse: one user at a time of what FILE guards
# (a build tree, a results directory), held until this shell exits, as the
# driver's sw_lock (sweep/console.c) takes it: the holder's pid and command
# in FILE, a second run names it, then waits or refuses (exit 1). The
# descriptor stays open in what we start, so a running bench keeps its tree.
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

# One line per phase on the terminal, with the time so far.
run_start=$SECONDS
phase() {
	local s=$((SECONDS - run_start))
	if [ $s -ge 60 ]; then s=$(printf '%dm%02ds' $((s / 60)) $((s % 60))); else s=${s}s; fi
	echo "$tag: [$s] $*" >&2
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
