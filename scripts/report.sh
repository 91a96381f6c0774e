# Sourced by run.sh: the report of a run. summarize --run DIR does all of
# it (cmd/summarize.c): the summary and charts swapped in as a set, the
# agreement of --repeat runs, the calibration's tables, and the closing
# lines; these functions only call it, in the sweep's order.

# summarise: the run's report in place; its closing lines come last, from
# closing_block.
summarise() {
	phase "report: summary and charts"
	"${B_dir[0]}/cmd/summarize" --run "$dir" >/dev/null || exit 1
}

# provisional TOTAL: the verdict so far from the processes on disk, while
# the rest run (nothing of the run's is written; a failure says nothing:
# the report at the end speaks).
provisional() { "${B_dir[0]}/cmd/summarize" --run "$dir" --so-far "$1" 2>/dev/null || true; }

# closing_block: the answer, last on the terminal: summary.md's smoke mark
# and first section in plain text under the prefix.
closing_block() { "${B_dir[0]}/cmd/summarize" --run "$dir" --closing; }

# calibration_report: each trial summarised per planted copy, and over the
# trials how often the 95% interval holds the planted ratio; calibration.md
# printed.
calibration_report() { "${B_dir[0]}/cmd/summarize" --run "$dir" --seconds "$((SECONDS - run_start))" || exit 1; }

raw_files() {   # raw_files GLOB: the finished process files matching it
	shopt -s nullglob
	local files=("$dir"/raw/$1.json)
	shopt -u nullglob
	[ ${#files[@]} -eq 0 ] || printf '%s\n' "${files[@]}"
}

# sub_report DIR: the report of a run made anew (scripts/help/report.txt).
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
