# Sourced by run.sh: ./run.sh report DIR -- a run's report made anew by
# the driver (sweep report, sweep/report.c): summary, charts, the repeats'
# agreement, the closing lines.

# sub_report DIR: the report of a run made anew (scripts/help/report.txt).
sub_report() {
	parse_sub report "operands=path" "$@"
	[ ${#operands[@]} -eq 1 ] || die "report: give one results directory (see ./run.sh report --help)"
	dir=${operands[0]}
	[ -d "$dir" ] || die "report: $dir is not a directory"
	[ -f "$dir/run.conf" ] || die "report: $dir has no run.conf: not a results directory of ./run.sh"
	compgen -G "$dir/raw/*.json" >/dev/null || die "report: $dir/raw holds no process's JSON"
	local repeat bin
	repeat=$(sed -n 's/^repeat=//p' "$dir/run.conf" | tail -n 1) || die "report: cannot read $dir/run.conf"
	is_uint "${repeat:=1}" && [ "$repeat" -ge 1 ] || die "report: $dir/run.conf: repeat=$repeat is not a whole number"
	lock_take "$dir/.run.sh-lock" "$dir" refuse
	build_program summarize draw agree
	bin=$(sweep_tool) || exit 1
	exec "$bin" report "$dir" "$top/build"
}
