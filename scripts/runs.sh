# Sourced by run.sh: ./run.sh compare, agree, history and export, the modes
# of cmd/runs, which parses their options; what must be refused before
# anything is built (names, the number of runs) is checked here first.
sub_compare() { runs_mode compare "--out=path operands=path" "$@"; }
sub_agree() { runs_mode agree "--out=path --margin=text operands=path" "$@"; }
sub_history() { runs_mode history "--results=path --all=flag" "$@"; }
sub_export() { runs_mode export "operands=path" "$@"; }

runs_mode() {
	local mode=$1 spec=" $2 " k args=()
	parse_sub "$mode" "$2" "${@:3}"
	case $mode in
	compare | agree)
		[ ${#operands[@]} -ge 2 ] || die "$mode: give two or more results directories or their .tar.gz exports (see ./run.sh $mode --help)"
		[ "$mode" = agree ] || [ -n "${opt[--out]:-}" ] || opt[--out]=$top/results/compare-$(date -u +%Y%m%dT%H%M%SZ) ;;
	export) [ ${#operands[@]} -eq 1 ] || die "export: give one results directory (see ./run.sh export --help)" ;;
	history)
		if [ -z "${opt[--results]:-}" ]; then
			opt[--results]=$top/results
			[ -d "$top/results" ] || { echo "No runs yet: $top/results does not exist."; exit 0; }
		fi
		[ -d "${opt[--results]}" ] || die "history: --results ${opt[--results]} is not a directory" ;;
	esac
	for k in "${!opt[@]}"; do [[ $spec == *" $k=flag "* ]] && args+=("$k") || args+=("$k=${opt[$k]}"); done
	(build_program runs) || exit   # build/ is let go once it is built
	exec "$top/build/cmd/runs" "$mode" "${args[@]}" "${operands[@]}"
}
