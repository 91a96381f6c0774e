# Sourced by run.sh: the report of a run -- summarize and the charts into a
# new report directory swapped in as a set, the agreement of --repeat runs,
# and the calibration's tables.

# summarise_into DIR [--repeat K | --trial T]: summarize the run's
# processes (summarize --run: the engine opens the run, these select in
# it) and draw into a new report directory, then swap it in as a set:
# DIR/report points to it, and the files users open (DIR/summary.md,
# DIR/plots, ...) link through it. A failed draw leaves the new report
# without charts, never with the old ones.
report_files=(benchmark.json points.csv ratios.csv crossover.csv process_ratios.csv summary.md verdict.txt verdict.json calibration.csv plots)
summarise_into() {
	local d=$1; shift
	local args=(--compare "$compare" --baseline "$baseline") new old f
	[ -n "${planted:-}" ] && args+=(--planted "$planted")
	mkdir -p "$d"
	new=$(mktemp -d "$d/.report.XXXXXX")
	report_new=$new   # the trap's to remove, if we are stopped here
	if ! "${B_dir[0]}/cmd/summarize" "${args[@]}" --out "$new" --run "$dir" "$@" >"$new.log" 2>&1; then
		show_tail 20 "$new.log"
		rm -rf "$new"
		fail "summarize failed on $d (log: $new.log)"
	fi
	rm -f "$new.log"
	if [ -n "${no_charts:-}" ]; then
		:   # calibration trials: only their tables are read
	elif ! command -v gnuplot >/dev/null; then
		say "no gnuplot: results are written; for plots: apt-get install gnuplot-nox, then ${B_dir[0]}/cmd/draw $d/report"
	elif ! "${B_dir[0]}/cmd/draw" "$new" >"$new/draw.log" 2>&1; then
		show_tail 5 "$new/draw.log"
		rm -f "$new"/plots/*.png "$new"/plots/*.svg
		say "plots failed; the new results are in $d without charts"
	fi
	rm -f "$new/draw.log"
	old=$(readlink "$d/report" 2>/dev/null || true)
	ln -sfn "$(basename "$new")" "$d/.report.link" && mv -T "$d/.report.link" "$d/report"
	for f in "${report_files[@]}"; do
		[ -L "$d/$f" ] || [ ! -e "$new/$f" ] || ln -sfn "report/$f" "$d/$f"
	done
	[ -n "$old" ] && [ "$old" != "$(basename "$new")" ] && rm -rf "${d:?}/$old"
	report_new=""
	return 0
}

raw_files() {   # raw_files GLOB: the finished process files matching it
	shopt -s nullglob
	local files=("$dir"/raw/$1.json)
	shopt -u nullglob
	[ ${#files[@]} -eq 0 ] || printf '%s\n' "${files[@]}"
}

summarise() {
	local r
	phase "report: summary and charts"
	summarise_into "$dir"
	if [ "$repeat" -gt 1 ]; then
		for ((r = 1; r <= repeat; r++)); do
			summarise_into "$dir/repeat$r" --repeat "$r"   # every build's
		done
		repeatability
	fi
}

# --repeat: how far the K runs agree (./run.sh agree on them), beside the
# pooled summary. Each repeat<k>/ becomes a run of its own, which agree and
# compare read: run.conf and its processes, links into the run's.
repeatability() {
	local r runs=() tmp f files
	for ((r = 1; r <= repeat; r++)); do
		mkdir -p "$dir/repeat$r/raw"
		ln -sfn ../run.conf "$dir/repeat$r/run.conf"
		mapfile -t files < <(raw_files "*r${r}_v*")
		for f in "${files[@]}"; do ln -sfn "../../raw/$(basename "$f")" "$dir/repeat$r/raw/"; done
		runs+=("$dir/repeat$r")
	done
	# Its own log: the tree's build.log keeps the sweep's build.
	step "${B_dir[0]}/agree-build.log" "building runs in ${B_dir[0]}" cmake --build "${B_dir[0]}" -j "$jobs" --target runs
	tmp=$(mktemp -d "$dir/.repeat.XXXXXX")
	"${B_dir[0]}/cmd/runs" agree --out "$tmp/out" "${runs[@]}" >"$tmp/log" 2>&1 ||
		{ show_tail 5 "$tmp/log"; rm -rf "$tmp"; fail "the agreement of the repeats failed"; }
	for f in repeat.md repeat.csv repeat.dat repeat.png; do [ ! -f "$tmp/out/$f" ] || mv "$tmp/out/$f" "$dir/$f"; done
	rm -rf "$tmp"
	[ -s "$dir/repeat.md" ] || fail "the agreement of the repeats wrote no $dir/repeat.md"
	say "repeatability: $dir/repeat.md ($(tail -n 1 "$dir/repeat.md"))"
}

# calibration_report: each trial summarised per planted copy (trial<t>/);
# over the trials, the calibration front's calibration_trials.csv and
# calibration.md: how often the 95% interval holds the planted ratio
# (coverage) and how often it excludes 1 (for 0%: a false positive).
calibration_report() {
	local t f pct
	for ((t = 1; t <= trials; t++)); do
		for f in ${plant//,/ }; do
			pct=$(awk -v f="$f" 'BEGIN { printf "%g", f * 100 }')
			compare=extern_plant$pct baseline=extern planted=$f
			no_charts=1 summarise_into "$dir/trial$t/plant$pct" --trial "$t" >/dev/null
		done
	done
	step "$dir/log/calibration.txt" "the calibration report" "${B_dir[0]}/cmd/calibration" --run "$dir" \
		--seconds "$((SECONDS - run_start))"
	plain_text <"$dir/calibration.md"
}


# sub_report DIR: the report of a run made anew (scripts/help/report.txt).
sub_report() {
	parse_sub report "operands=path" "$@"
	[ ${#operands[@]} -eq 1 ] || die "report: give one results directory (see ./run.sh report --help)"
	dir=${operands[0]}
	[ -d "$dir" ] || die "report: $dir is not a directory"
	[ -f "$dir/run.conf" ] || die "report: $dir has no run.conf: not a results directory of ./run.sh"
	compgen -G "$dir/raw/*.json" >/dev/null || die "report: $dir/raw holds no process's JSON"
	local k v
	for k in compare baseline repeat; do
		v=$(sed -n "s/^$k=//p" "$dir/run.conf") || die "report: cannot read $dir/run.conf"
		printf -v "$k" '%s' "$v"
	done
	: "${compare:=inline}" "${baseline:=extern}" "${repeat:=1}"
	is_uint "$repeat" && [ "$repeat" -ge 1 ] || die "report: $dir/run.conf: repeat=$repeat is not a whole number"
	lock_take "$dir/.run.sh-lock" "$dir" refuse
	build_program summarize draw
	B_dir=("$top/build")
	summarise
	closing_block
}
