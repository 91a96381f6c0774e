# Sourced by compare.sh and export.sh: their errors and where a run keeps
# summarize's tables.

prog=$(basename "$0")
die() { echo "$prog: $*" >&2; exit 2; }
fail() { echo "$prog: $*" >&2; exit 1; }
say() { echo "$prog: $*" >&2; }

# results_file DIR NAME: the run's file, in its report (the set summarize
# writes) or beside it; prints nothing and fails when it has none.
results_file() {
	local f
	for f in "$1/report/$2" "$1/$2"; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}
is_results_dir() { results_file "$1" ratios.csv >/dev/null && results_file "$1" crossover.csv >/dev/null; }
