# Sourced by compare.sh, agree.sh and export.sh: their errors, options and
# where a run keeps summarize's tables.

prog=$(basename "$0")
die() { echo "$prog: $*" >&2; exit 2; }
fail() { echo "$prog: $*" >&2; exit 1; }
say() { echo "$prog: $*" >&2; }

# parse_args "$@": --out into out, the rest into args; --help prints the
# script's opening comment.
parse_args() {
	out=""
	args=()
	while [ $# -gt 0 ]; do
		case $1 in
		-h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
		--out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift ;;
		--out=*) out=${1#--out=} ;;
		--) shift; args+=("$@"); break ;;
		-*) die "unknown option '$1' (see --help)" ;;
		*) args+=("$1") ;;
		esac
		shift
	done
}

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
