# Sourced by run.sh: ./run.sh compare, agree and export -- runs side by
# side, how far they agree, and one file that holds a run.

# compare and agree are programs of the build tree (cmd/); export is a
# script (compare/). Their arguments are checked here first, paths taken
# from where the user ran us, so that bad usage builds nothing.

# compare_program NAME: build/cmd/NAME, built when missing or stale (a
# first build configures build/ as ./run.sh test --all does).
compare_program() {
	ensure_packages
	build_tree_ready
	build build "$1"
	echo "$top/build/cmd/$1"
}

# compare_args NAME SPEC ARGS...: ARGS by SPEC (sub_args), paths made
# absolute, into cargs; two or more runs.
compare_args() {
	local name=$1 k
	sub_args "$name" "$2 operands=path" "${@:3}"
	[ ${#operands[@]} -ge 2 ] || die "$name: give two or more results directories or their .tar.gz exports (see ./run.sh $name --help)"
	cargs=()
	for k in "${!opt[@]}"; do cargs+=("$k" "${opt[$k]}"); done
	cargs+=("${operands[@]}")
}

sub_compare() {
	compare_args compare "--out=path" "$@"
	[ -n "${opt[--out]:-}" ] || cargs=(--out "$top/results/compare-$(date -u +%Y%m%dT%H%M%SZ)" "${cargs[@]}")
	local prog_path
	prog_path=$(compare_program compare)
	exec "$prog_path" "${cargs[@]}"
}
sub_agree() {
	compare_args agree "--out=path --margin=" "$@"
	local prog_path
	prog_path=$(compare_program agree)
	exec "$prog_path" "${cargs[@]}"
}
sub_export() {
	sub_args export "operands=path" "$@"
	[ ${#operands[@]} -eq 1 ] || die "export: give one results directory (see ./run.sh export --help)"
	exec "$top/compare/export.sh" "${operands[0]}"
}
