# Sourced by run.sh: ./run.sh report DIR -- a run's report made anew by
# summarize --run DIR (cmd/summarize.c), as the sweep's driver makes it.

sub_report() {
	parse_sub report "operands=path" "$@"
	[ ${#operands[@]} -eq 1 ] || die "report: give one results directory (see ./run.sh report --help)"
	dir=${operands[0]}
	[ -d "$dir" ] || die "report: $dir is not a directory"
	[ -f "$dir/run.conf" ] || die "report: $dir has no run.conf: not a results directory of ./run.sh"
	compgen -G "$dir/raw/*.json" >/dev/null || die "report: $dir/raw holds no process's JSON"
	lock_take "$dir/.run.sh-lock" "$dir" refuse
	build_program summarize runs
	exec "$top/build/cmd/summarize" --run "$dir"
}
