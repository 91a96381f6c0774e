# Sourced by run.sh: ./run.sh compare, agree and export -- runs side by
# side, how far they agree, and one file that holds a run.

# compare and agree are programs of the build tree (cmd/, built by
# build_program); export is a script (compare/). Their arguments are
# checked here first, paths taken from where the user ran us, so that bad
# usage builds nothing.

# compare_args NAME SPEC ARGS...: ARGS by SPEC (parse_sub), paths made
# absolute, into cargs; two or more runs.
compare_args() {
	local name=$1 k
	parse_sub "$name" "$2 operands=path" "${@:3}"
	[ ${#operands[@]} -ge 2 ] || die "$name: give two or more results directories or their .tar.gz exports (see ./run.sh $name --help)"
	cargs=()
	for k in "${!opt[@]}"; do cargs+=("$k" "${opt[$k]}"); done
	cargs+=("${operands[@]}")
}

sub_compare() {
	compare_args compare "--out=path" "$@"
	[ -n "${opt[--out]:-}" ] || cargs=(--out "$top/results/compare-$(date -u +%Y%m%dT%H%M%SZ)" "${cargs[@]}")
	(build_program compare) || exit   # build/ is let go once it is built
	exec "$top/build/cmd/compare" "${cargs[@]}"
}
sub_agree() {
	compare_args agree "--out=path --margin=" "$@"
	(build_program agree) || exit
	exec "$top/build/cmd/agree" "${cargs[@]}"
}
sub_export() {
	parse_sub export "operands=path" "$@"
	[ ${#operands[@]} -eq 1 ] || die "export: give one results directory (see ./run.sh export --help)"
	exec "$top/compare/export.sh" "${operands[0]}"
}
