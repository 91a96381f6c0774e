# Sourced by run.sh: ./run.sh watch -- whether this machine can give one
# answer: a fixed sentinel measured as many short processes and one long
# one under the machine lock, analysed by cmd/watch_report
# (engine/watch_analysis.h) and drawn by plots/watch.gp.

# The sentinel: the pair and the controls that tell what a state changes
# (the report reads each form's time per state), as gen's specs from the
# plan (cmd/sweep sentinel); watch_runs BENCH their runs in BENCH's plan, by
# the names the bench gives them.
watch_specs() { local bin; bin=$(sweep_tool) || exit 1; "$bin" sentinel; }
watch_runs() {
	"$1" --plan --threads=1 --modes=private 2>/dev/null | awk -F'\t' -v specs="$(watch_specs | paste -sd' ')" '
		BEGIN { n = split(specs, s, " "); for (i = 1; i <= n; i++) want[s[i]] = 1 }
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["filler"] == 0 && ($c["form"] ":" $c["op"] ":" $c["layout"] ":" $c["order"] ":0:" $c["sites"]) in want { print $c["name"] }'
}
# A short process: 3 rounds of the 12 runs and 6 probes at 0.05 s each,
# about 3 s with the process's start (the states are read at each repetition, so no
# median is needed); then a pause, so that samples spread over the time as
# a sweep's processes do.
watch_reps=3 watch_min_time=0.05 watch_pause_s=2

# watch_tree: the build tree whose bench runs the sentinel: build/ when its
# plan has every sentinel run, else build-watch/ with those points only.
watch_tree() {
	if [ -x build/bench/sites_bench ] && [ "$(watch_runs build/bench/sites_bench | wc -l)" -eq "$(watch_specs | wc -l)" ]; then
		echo build
	else
		echo build-watch
	fi
}

# watch_process BIN RUNS OUT REPS PROCESS: one sentinel process into OUT.
watch_process() {
	local bin=$1 runs=$2 out=$3 reps=$4 p=$5 log
	log=$wdir/log/$(basename "$out" .json).txt
	"$bin" --counters=none --threads=1 --modes=private --process="$p" --layout-variant=0 \
		--run-list="$runs" --benchmark_repetitions="$reps" --benchmark_enable_random_interleaving=true \
		--benchmark_min_time="$watch_min_time" --benchmark_out="$out.tmp" --benchmark_out_format=json \
		--benchmark_format=console >"$log" 2>&1 || { rm -f "$out.tmp"; show_tail 5 "$log"; return 1; }
	mv "$out.tmp" "$out"
}

sub_watch() {
	parse_sub watch "--minutes= --out=path" "$@"
	local minutes=${opt[--minutes]:-2} wout=${opt[--out]:-} tree
	[[ $minutes =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v m="$minutes" 'BEGIN { exit !(m >= 0.1 && m <= 60) }' ||
		die "watch: --minutes must be a number of minutes from 0.1 to 60, not '$minutes'"
	[ -z "$wout" ] || check_out "watch: --out" "$wout"
	[ -z "${IC_STOP_AFTER_CHECKS:-}" ] || exit 0   # (as the sweep's)
	ensure_packages
	sweep_bin=$(sweep_tool) || exit 1
	tree=$(watch_tree)
	lock_build "$tree"
	if [ "$tree" = build-watch ]; then
		phase "build: the sentinel in build-watch (log build-watch/build.log)"
		sweep_build --sentinel build-watch sites_bench watch_report draw machine_state
	else
		build build watch_report draw machine_state
	fi
	wdir=${wout:-$top/results/watch-$(date -u +%Y%m%dT%H%M%SZ)}
	mkdir -p "$wdir" || fail "cannot make $wdir"
	lock_take "$wdir/.run.sh-lock" "$wdir" refuse
	mkdir -p "$wdir/raw" "$wdir/log"
	trap 'rm -f "$wdir"/raw/*.tmp; say "interrupted: nothing analysed; the processes so far are in $wdir/raw"; exit 130' INT TERM
	# The sentinel's runs and the bench's probes (bench/probes.h: the
	# machine in its own terms), in the same processes.
	{ watch_runs "$tree/bench/sites_bench"; "$tree/bench/sites_bench" --list --threads=1 --modes=private | grep '^probe/' || true; } \
		>"$wdir/log/sentinel.runs"
	say "results: $wdir"
	measured "./run.sh watch" watch_measure "$tree" "$minutes"
	phase "watch: the report"
	local shorts=()
	mapfile -t shorts < <(ls -v "$wdir"/raw/s*.json)
	"$tree/cmd/watch_report" --out "$wdir" --long "$wdir/raw/long.json" "${shorts[@]}" >/dev/null ||
		fail "the watch report failed on $wdir"
	watch_draw "$wdir" "$tree"
	# The report last: its last lines say whether this machine gives one answer.
	cat "$wdir/watch.txt"
}

# watch_measure TREE MINUTES: the measuring part, under the machine lock
# (measured): the machine's state, short processes for half the time, then
# one long process for about as long, into $wdir.
watch_measure() {
	local tree=$1 minutes=$2 k=0 half end per_s long_reps
	"$tree/cmd/machine_state" >"$wdir/machine_state.txt" || say "the machine state could not be read"
	half=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 30 + 0.5 }')
	phase "watch: short processes for $(fmt_s "$half"), then one long process for about as long"
	end=$((SECONDS + half))
	while [ "$SECONDS" -lt "$end" ] || [ "$k" -lt 2 ]; do
		watch_process "$tree/bench/sites_bench" "$wdir/log/sentinel.runs" "$wdir/raw/s$k.json" \
			"$watch_reps" "$k" || fail "a sentinel process failed; its log is in $wdir/log"
		k=$((k + 1))
		[ "$SECONDS" -ge "$end" ] || sleep "$watch_pause_s"
	done
	# Rounds for the long process: a repetition of min_time takes about 1.1
	# times it (Google Benchmark overshoots a little), a round one per run.
	per_s=$(awk -v n="$(wc -l <"$wdir/log/sentinel.runs")" -v t="$watch_min_time" 'BEGIN { printf "%.4f", n * t * 1.1 }')
	long_reps=$(awk -v h="$half" -v s="$per_s" 'BEGIN { n = int(h / s); printf "%d", (n < 6 ? 6 : n) }')
	phase "watch: $k short processes done; the long process ($long_reps rounds)"
	watch_process "$tree/bench/sites_bench" "$wdir/log/sentinel.runs" "$wdir/raw/long.json" \
		"$long_reps" "$k" || fail "the long sentinel process failed; its log is in $wdir/log"
}

# watch_draw DIR TREE: DIR/plots/watch.png and .svg from plots/watch.gp
# (TREE/cmd/draw).
watch_draw() {
	command -v gnuplot >/dev/null || { say "no gnuplot: no chart (apt-get install gnuplot-nox)"; return 0; }
	if ! "$2/cmd/draw" "$1" watch 2>"$1/plots/.draw.log"; then
		say "the chart failed: $(tail -n 1 "$1/plots/.draw.log")"
	else
		sed "s/^/$tag: /" "$1/plots/.draw.log" >&2
		say "chart: $1/plots/watch.png"
	fi
	rm -f "$1/plots/.draw.log"
}
