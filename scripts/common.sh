# Sourced by run.sh: messages, paths, locks, progress lines, and the tables
# several parts of run.sh read (the point names, where the controls run).
# Needs $top, $prog and $caller_pwd.

die() { echo "$prog: $*" >&2; exit 2; }    # bad input: nothing was done
fail() { echo "$prog: $*" >&2; exit 1; }   # a step failed (install, build, run, summary)
say() { echo "$prog: $*" >&2; }

is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }

# A path the user gave, taken from their working directory.
abs_path() { case $1 in /*) echo "$1" ;; *) echo "$caller_pwd/$1" ;; esac; }

# point_names KIND: the names of FORM, OP, LAYOUT or ORDER, from the table
# gen and CMake read too (the X(ENUM, name, ...) lines of its IC_<KIND>S list).
point_names() {
	sed -n "/^#define IC_$1S(X)/,/[^\\]\$/ s/^[[:space:]]*X([A-Z_]*, \([a-z_]*\),.*/\1/p" "$top/gen/point_names.def"
}

# Solo points run at 1 thread on a private queue only: the forms whose solo
# column in gen/point_names.def is 1 (the mark, the nolock forms) and, as
# its IC_FILLER_SOLO says, every filler series. sites_bench reads the same
# table and decides the runs; run.sh reads it only where it must decide
# before anything is built (options.sh refuses, plan.sh drops). solo is how
# the messages say it; has_solo THREADS MODES whether a sweep runs there.
solo="1 thread, private"
has_solo() { [[ ,$1, == *,1,* && ,$2, == *,private,* ]]; }
is_solo_form() {
	sed -n "/^#define IC_FORMS(X)/,/[^\\]\$/ s/^[[:space:]]*X([A-Z_]*, \([a-z_]*\), 1,.*/\1/p" \
		"$top/gen/point_names.def" | grep -qx -- "$1"
}
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
	echo "$prog: [$(fmt_s $((SECONDS - run_start)))$left] $*" >&2
}

# step LOG WHAT CMD...: CMD with its output in LOG; on failure its last
# lines, then exit 1 naming WHAT and the log.
step() {
	local log=$1 what=$2; shift 2
	if ! "$@" >"$log" 2>&1; then
		tail -n 20 "$log" >&2
		fail "$what failed (log: $log)"
	fi
}
