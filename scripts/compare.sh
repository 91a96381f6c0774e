# Sourced by run.sh: ./run.sh compare, agree and export -- runs side by
# side, how far they agree, and one file that holds a run.

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
		-*) [[ " $valued " == *" $1 "* ]] || die "$name: unknown option '$1' (see ./run.sh $name --help)"
			[ $# -ge 2 ] && [ -n "$2" ] || die "$name: $1 needs a value"
			cargs+=("$1" "$2"); shift 2; continue ;;
		esac
		cargs+=("$(abs_path "$1")"); runs=$((runs + 1)); shift
	done
	[ $runs -ge 2 ] || die "$name: give two or more results directories or their .tar.gz exports (see ./run.sh $name --help)"
	local i
	for i in "${!cargs[@]}"; do
		[ "${cargs[$i]}" != --out ] || cargs[i + 1]=$(abs_path "${cargs[i + 1]}")
	done
}

sub_compare() {
	compare_args compare "--out" "$@"
	[[ " ${cargs[*]} " == *" --out "* ]] || cargs=(--out "$top/results/compare-$(date -u +%Y%m%dT%H%M%SZ)" "${cargs[@]}")
	local prog_path
	prog_path=$(compare_program compare)
	exec "$prog_path" "${cargs[@]}"
}
sub_agree() {
	compare_args agree "--out --margin" "$@"
	local prog_path
	prog_path=$(compare_program agree)
	exec "$prog_path" "${cargs[@]}"
}
sub_export() {
	case ${1:-} in -h | --help) echo "Usage: ./run.sh export DIR   writes DIR.tar.gz beside DIR: one file holding the run, links resolved, for ./run.sh compare and agree on another machine."; exit 0 ;; esac
	[ $# -eq 1 ] || die "export: give one results directory (see ./run.sh export --help)"
	exec "$top/compare/export.sh" "$(abs_path "$1")"
}
