# Sourced by run.sh: the processes of a sweep -- the counters, the design's
# processes in a seeded order, the crossover steps and the calibration.

# What a sweep runs is the bench's to say (sites_bench --plan; the rule is
# bench/sites_cases.h's): plan_file BUILD is what BUILD's bench runs with the
# sweep's threads, modes and planted copies, one line per run, written after
# each build (build_points); run_list BUILD [N-LIST] the full names one
# process runs, every run or those at the N in N-LIST (a|b|c: a crossover
# step's), selected by the plan's sites column.
plan_file() { if [ "$1" -eq 0 ]; then echo "$dir/plan.tsv"; else echo "$dir/plan-b$1.tsv"; fi; }
write_plan() {
	local b=$1 f log=$dir/log/plan.txt args=(--plan --threads="$threads" --modes="$modes")
	f=$(plan_file "$b")
	[ -z "$plant" ] || args+=(--plant="$plant")
	"${B_dir[$b]}/bench/sites_bench" "${args[@]}" >"$f.tmp" 2>"$log" ||
		{ rm -f "$f.tmp"; show_tail 5 "$log"; fail "${B_dir[$b]}/bench/sites_bench --plan failed; log: $log"; }
	mv "$f.tmp" "$f"
}
run_list() {
	awk -F'\t' -v want="|${2:-}|" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		want == "||" || index(want, "|" $c["sites"] "|") { print $c["name"] }' "$(plan_file "$1")"
}

# Simulated counts are a property of the ordinary link's code: each build
# simulates them once with BUILD/bench/sites_bench into its cache in the
# build tree (BUILD/sim, kept across runs), and hands this run's points to
# the run in sim.csv (sim-b<k>.csv for build k > 0); the processes of
# variant 0 of every repeat report them.
sim_file() { if [ "$1" -eq 0 ]; then echo "$dir/sim.csv"; else echo "$dir/sim-b$1.csv"; fi; }
counter_source=""
decide_counters() {
	local b src out sentence="" log nb=${#B_dir[@]} plant_args=()
	[ -z "$plant" ] || plant_args=(--plant="$plant")
	phase "counters: deciding the source$([ "$counters" = none ] || echo "; a simulation, when it comes to that, is cached in BUILD/sim")"
	measure_begin "the counter source (a simulation, when it comes to that)"
	for ((b = 0; b < nb; b++)); do
		log=$dir/log/counters.txt
		[ "$b" -eq 0 ] || log=$dir/log/counters-b$b.txt
		run_list "$b" >"${log%.txt}.runs"
		# Its first line the source, its second where the columns come from,
		# in words, its third (with sim) the file the counts are in.
		out=$("${B_dir[$b]}/bench/sites_bench" --counters="$counters" --threads="$threads" --modes="$modes" \
			--sim-cache-dir="${B_dir[$b]}/sim" "${plant_args[@]}" --run-list="${log%.txt}.runs" --sim-only 2>"$log") ||
			{ show_tail 5 "$log"; fail "deciding the counter source failed; log: $log"; }
		src=$(sed -n 1p <<<"$out")
		[ "$b" -gt 0 ] || sentence=$(sed -n 2p <<<"$out")
		# The ordinary link's counts, marked "*" so variant 0 reports them
		# although its own binary differs.
		if [ "$src" = sim ]; then
			local cache
			cache=$(sed -n 3p <<<"$out")
			[ -s "$cache" ] || fail "the simulation wrote no cache in ${B_dir[$b]}/sim; log: $log"
			awk -F, -v OFS=, 'NR > 1 { $1 = "*" } 1' "$cache" >"$(sim_file "$b").tmp" && mv "$(sim_file "$b").tmp" "$(sim_file "$b")"
		fi
		[ "$b" -gt 0 ] || counter_source=$src
	done
	# One source per run: a resume on a machine that now counts otherwise
	# (--counters auto) would mix counted and simulated figures.
	if [ -z "${counter_source_of_run:-}" ]; then
		counter_source_of_run=$counter_source
		save_conf "$dir/run.conf"
	elif [ "$counter_source" != "$counter_source_of_run" ]; then
		fail "the run's counters came from $counter_source_of_run, this machine now gives $counter_source: a resumed run must not mix them; start a new run"
	fi
	measure_end
	say "counters: $sentence"
}

# first_of GROUP: the first finished process file of a group (same build,
# repeat and step): the later processes take its iteration counts.
first_of() { ls -tr "$dir"/raw/"$1"_v*_p*.json 2>/dev/null | head -n 1 || true; }

# run_process KEY FROM REPEAT VARIANT PROCESS BUILD [N-LIST]: one process
# of the sweep (FROM: its group's first process file, or empty), every run of one build's plan (at the N in N-LIST), forms
# and points interleaved at random by Google Benchmark, under a random
# environment pad (it moves the stack). The names it was given are in
# log/KEY.runs, beside its log.
run_process() {
	local key=$1 from=$2 r=$3 v=$4 p=$5 b=$6 nlist=${7:-}
	local file="$dir/raw/$key.json" bin ctr=$counters pad runs=$dir/log/$key.runs
	bin=${B_dir[$b]}/bench/variants/r${r}_v$v   # the layout variant (build.sh)
	[ "$lto" = 0 ] || bin=${B_dir[$b]}/bench/sites_bench   # LTO's code no layout moves
	run_list "$b" "$nlist" >"$runs"
	# The simulated counts travel with variant 0's processes (decide_counters).
	[ "$v" -gt 0 ] && [ "$counter_source" = sim ] && ctr=none
	local args=(--counters="$ctr" --threads="$threads" --modes="$modes" --sim-cache="$(sim_file "$b")"
		--process="$p" --layout-variant="$v" --run-list="$runs" --benchmark_repetitions="$reps"
		--benchmark_enable_random_interleaving=true --benchmark_min_time="$min_time"
		--benchmark_out="$file.tmp" --benchmark_out_format=json --benchmark_format=console)
	[ -n "$plant" ] && args+=(--plant="$plant")
	[ -z "$from" ] || args+=(--iterations-from="$from")
	# Its length from the layout seed and the key: a resumed process gets the same.
	local n=$(($(printf '%s %s' "$layout_seed" "$key" | cksum | cut -d' ' -f1) % 4096))
	printf -v pad '%*s' "$n" ''
	pad=${pad// /x}
	if ! IC_ENV_PAD=$pad "$bin" "${args[@]}" >"$dir/log/$key.txt" 2>&1; then
		rm -f "$file.tmp"
		say "process $key failed; its log: $dir/log/$key.txt"
		show_tail 5 "$dir/log/$key.txt"
		return 1
	fi
	mv "$file.tmp" "$file"
}

# run_processes PREFIX [N-LIST]: every process of the design not yet on
# disk, in an order shuffled from the layout seed, one line each with the
# time the run has left, all under the machine lock. Keys: PREFIX
# [b<build>_]r<repeat>_v<variant>_p<process> (b only with several builds).
# With --spread the repeats run one after the other, each shuffled, and
# the machine is left to others while the next repeat waits its turn.
run_processes() {
	local prefix=$1 nlist=${2:-} nb=${#B_dir[@]} list=() total i=0 todo=0 done_ms=0 done_n=0 start g guess
	local cur_r="" r_began="" per first from firsts=0 prev_eta="" why bin
	local -A fresh_group=()
	# The design's processes in their order (plan/order.h): shuffled from
	# the layout seed, each repeat in turn with --spread.
	bin=$(plan_tool) || return 1
	mapfile -t list < <("$bin" --seed "$layout_seed" --repeats "$repeat" --variants "$layouts_random" \
		--processes "$processes" --builds "$nb" --prefix "$prefix" ${spread:+--spread}) &&
		[ ${#list[@]} -gt 0 ] || fail "$bin failed"
	total=${#list[@]}
	# A group's first process estimates its iterations and runs about 1.4
	# times as long as the later ones (guess_process_s).
	for g in "${list[@]}"; do
		set -- $g
		[ -s "$dir/raw/$1.json" ] || todo=$((todo + 1))
		[ -n "${fresh_group[$2]:-}" ] || [ -n "$(first_of "$2")" ] || { fresh_group[$2]=1; firsts=$((firsts + 1)); }
	done
	guess=$(guess_process_s "$nlist")
	local gap=0
	[ -z "$spread" ] || gap=$(spread_gap_s)
	measure_begin "the measurement"
	for g in "${list[@]}"; do
		i=$((i + 1))
		set -- $g
		[ -s "$dir/raw/$1.json" ] && continue
		if [ -n "$spread" ] && [ "$3" != "$cur_r" ]; then
			[ -z "$r_began" ] || spread_wait "$(awk -v b="$r_began" -v g="$gap" -v now="$(date +%s.%N)" \
				'BEGIN { printf "%.3f", b + g - now }')" "$3"
			cur_r=$3 r_began=$(date +%s.%N)
		fi
		# What is left: the later processes at their mean so far (the
		# design's guess before one has run), the groups' first processes
		# at 1.4 times that, and the report. It rises only with a reason.
		per=$((guess * 1000))
		[ $done_n -eq 0 ] || per=$((done_ms / done_n))
		eta_s=$((((todo - firsts) * per + firsts * per * 4 / 3) / 1000 + ${after_s:-$report_s}))
		# --spread: the last repeat starts no sooner than its turn, then
		# takes a repeat's processes.
		if [ -n "$spread" ] && [ "$3" -lt "$repeat" ]; then
			local wait_eta=$((${r_began%.*} + (repeat - $3) * gap - $(date +%s) +
				$(design_s "$nb" "$per") / 1000 + ${after_s:-$report_s}))
			[ "$wait_eta" -le "$eta_s" ] || eta_s=$wait_eta
		fi
		why=""
		[ -z "$prev_eta" ] || [ "$eta_s" -le $((prev_eta + 5 + prev_eta / 10)) ] ||
			why=" (the estimate rose: a process takes $(awk -v m="$per" 'BEGIN { printf "%.1f", m / 1000 }') s here, not the ${guess} s guessed)"
		prev_eta=$eta_s
		phase "measurement $i/$total: process $1 (repeat $3, layout variant $4)${nlist:+, N = ${nlist//|/,}}$why"
		from=$(first_of "$2") first=0
		[ -n "$from" ] || first=1
		start=$(date +%s%3N)
		run_process "$1" "$from" "$3" "$4" "$5" "$6" "$nlist" || { measure_end; return 1; }
		if [ $first = 1 ]; then
			firsts=$((firsts - 1))
		else
			done_ms=$((done_ms + $(date +%s%3N) - start)); done_n=$((done_n + 1))
		fi
		todo=$((todo - 1))
		# The time left shrinks by the time just spent.
		prev_eta=$((prev_eta - ($(date +%s%3N) - start) / 1000))
		# The main design's verdict so far, at a quarter, half and three quarters.
		if [ -z "$prefix" ] && [ "$total" -ge 8 ] && [ "$i" -lt "$total" ] &&
			[ $(((i - 1) * 4 / total)) -lt $((i * 4 / total)) ]; then
			provisional "$total"
		fi
	done
	measure_end
	eta_s=${after_s:-$report_s}
}

# --spread MINUTES: the seconds from one repeat's start to the next's.
spread_gap_s() { awk -v m="$spread" -v k="$repeat" 'BEGIN { printf "%d", m * 60 / (k - 1) + 0.5 }'; }

# spread_wait SECONDS REPEAT: sleep (a fraction too) until repeat REPEAT's turn with the
# machine lock let go (however deep it is held), so that others may measure
# meanwhile; then take it again, waiting for them if need be. A lock handed
# down by `flock FILE ./run.sh` stays its giver's and stays held.
spread_wait() {
	local s=$1 r=$2 depth=$measure_depth k whole
	awk -v s="$s" 'BEGIN { exit !(s > 0) }' || return 0
	whole=${s%.*}
	phase "spread: repeat $r of $repeat starts at $(date -u -d "@$(($(date +%s) + whole))" +%H:%M:%S) UTC, in $((whole / 60)) min $((whole % 60)) s; the machine is free to others until then"
	for ((k = 0; k < depth; k++)); do measure_end; done
	sleep "$s"
	for ((k = 0; k < depth; k++)); do measure_begin "the measurement (repeat $r)"; done
}

# guess_process_s [N-LIST]: a process's time for the ETA until one has run,
# from what it runs (build 0's plan): every run's repetitions of min_time
# (the first process's estimate runs each about 1.4 times that, the later
# ones' fixed counts about 1.05 times: sites_bench --iterations-from), and a
# second to start.
guess_process_s() {
	run_list 0 "${1:-}" | awk -v r="$reps" -v t="$min_time" 'END { printf "%d", NR * r * t * 1.05 + 1 }'
}
report_s=5

# design_s GROUPS PER: the time of GROUPS groups (a build's repeat, of a
# trial or step), each of the design's processes at PER (any unit), its
# first at 4/3 of that: the first estimates the iterations the later ones
# take.
design_s() { echo $(($1 * (layouts_random * processes * $2 + $2 / 3))); }

# Measure the N inside each crossover bracket, with the same variants and
# processes: the N the last summary names in refine_next.txt (the engine's
# geometric midpoints of neighbouring measured N in each bracket). A step's
# N are written to crossover_steps.csv before it runs, so a resumed step
# measures the N it started with.
refine_crossover() {
	local step steps=$dir/crossover_steps.csv
	for step in 1 2 3 4; do
		local mids=() s list
		if [ -f "$steps" ]; then
			while IFS=, read -r s list; do
				[ "$s" = "$step" ] && IFS='|' read -ra mids <<<"$list"
			done <"$steps"
		fi
		if [ ${#mids[@]} -eq 0 ]; then
			[ -f "$dir/report/refine_next.txt" ] || fail "no $dir/report/refine_next.txt: the summary did not name the next N"
			mapfile -t mids <"$dir/report/refine_next.txt"
			[ ${#mids[@]} -gt 0 ] || { say "crossover: nothing left to refine"; return 0; }
			echo "$step,$(IFS='|'; echo "${mids[*]}")" >>"$steps"
		fi
		phase "crossover step $step: new N ${mids[*]}"
		sites=$({ expand_sites "$sites"; printf '%s\n' "${mids[@]}"; } | sort -nu | paste -sd,)
		save_conf "$dir/run.conf"
		build_points
		# The new N's simulated counts, from the ordinary link as the others.
		decide_counters
		run_processes "x${step}_" "$(IFS='|'; echo "${mids[*]}")" || return 1
		summarise
	done
}

# --calibrate: every trial is a whole design (variants x processes) with
# extern and three copies of it planted with 0%, 1% and 3% more time per
# pass; report.sh reads how often each interval holds the planted ratio.
run_calibration() {
	local t after_s per guess start ran_s=0 ran_n=0 before
	guess=$(design_s $((repeat * ${#B_dir[@]})) "$(guess_process_s)")
	for ((t = 1; t <= trials; t++)); do
		phase "calibration: trial $t of $trials"
		# The trials after this one take what those run so far took (the
		# design's guess before one has run; a resume's trials on disk
		# took nothing), for the time left.
		per=$guess
		[ "$ran_n" -eq 0 ] || per=$((ran_s / ran_n))
		after_s=$(((trials - t) * per + report_s))
		before=$(raw_files "t${t}_*" | wc -l) start=$SECONDS
		run_processes "t${t}_" || return 1
		[ "$(raw_files "t${t}_*" | wc -l)" -eq "$before" ] || { ran_s=$((ran_s + SECONDS - start)); ran_n=$((ran_n + 1)); }
	done
	calibration_report
}

# sweep_main ARGS...: the sweep, in this order: every option checked
# (nothing done yet), set-up, the checks that needed it, the build trees
# locked, the results directory made and locked, build and the bench's plan,
# then under the machine lock the machine's state, counters and
# measurement, and the report.
sweep_main() {
	# To every program of the sweep (common/machine_state_read.h): the load
	# sampled before anything started, and our pid, whose descendants are
	# this run's processes and never "other busy processes".
	export IC_RUN_LOADAVG=$run_loadavg IC_RUN_PID=$$
	parse_args "$@"
	check_options
	# For tests of refusals: an input that should have been refused ends
	# here, not in a sweep.
	[ -z "${IC_STOP_AFTER_CHECKS:-}" ] || exit 0
	# A results directory has one user: a second --resume of it is refused
	# here, before anything is installed.
	[ -z "$resume" ] || { dir=$resume; lock_take "$dir/.run.sh-lock" "$dir" refuse; }
	# clang comes from Debian when asked for.
	[[ ,$ccs, != *,clang,* ]] || packages+=(clang)
	ensure_packages
	check_after_setup
	# A resume of other code is refused before the plan is compiled.
	[ -z "$resume" ] || check_resume_identity
	plan_bin=$(plan_tool) || exit 1
	resolve_machine
	# In name order, so two sweeps that share trees cannot wait for each other.
	local t
	for t in $(printf '%s\n' "${B_dir[@]}" | sort -u); do lock_build "$t"; done
	if [ -z "$resume" ]; then
		[ "$lto" = 1 ] || variant_seeds=$(variant_seeds)
		build_identity
		dir=${out:-$top/results/$(date -u +%Y%m%dT%H%M%SZ)}
		# Not -p for the default: two runs in the same second must not share.
		if [ -n "$out" ]; then mkdir -p "$dir" 2>/dev/null || fail "cannot make $dir"
		else mkdir -p results 2>/dev/null && mkdir "$dir" 2>/dev/null || fail "cannot make $dir (made by another run in the same second? try again)"; fi
		lock_take "$dir/.run.sh-lock" "$dir" refuse
		# Another run may have filled it between the check and the lock.
		[ -z "$(ls -A "$dir" | grep -vx .run.sh-lock)" ] || fail "--out: $dir is no longer empty"
		save_conf "$dir/run.conf"
	fi
	mkdir -p "$dir/raw" "$dir/log"
	trap 'rm -rf "$dir"/raw/*.tmp "$dir"/*.tmp ${report_new:+"$report_new"}; say "interrupted: finished processes are in $dir; continue with $prog --resume $dir"; exit 130' INT TERM
	say "results: $dir"
	say "$series_text"
	# The time left is known once the bench has said what it runs.
	eta_s=""
	build_points
	# Each repeat (of every trial) a design; with --spread each but the last
	# takes its gap, or its own time if longer.
	local one_s gap_s=0
	one_s=$(design_s $((${#B_dir[@]} * (calibrate ? trials : 1))) "$(guess_process_s)")
	[ -z "$spread" ] || gap_s=$(spread_gap_s)
	eta_s=$(((repeat - 1) * (gap_s > one_s ? gap_s : one_s) + one_s + report_s))
	say "design: $layouts_random layout variant(s) (seed $layout_seed) x $processes process(es) x $reps reps of $min_time s$([ "$repeat" -gt 1 ] && echo ", $repeat repeats")$([ -z "$spread" ] || echo " spread over $spread min"); $(run_list 0 | wc -l) runs per process ($(plan_file 0))"
	[ "$find_crossover" = 0 ] || say "the time left counts the design above; each crossover step after it is a design of its own"
	[ -n "$resume" ] || { build_identity; save_conf "$dir/run.conf"; }
	# One measurement at a time on this machine, from here to the last process.
	measure_begin "the sweep"
	# The machine's state as the measurement starts (read only; nothing is
	# changed); each resume's beside the first, none overwritten.
	local ms=$dir/machine_state.txt
	[ -z "$resume" ] || ms=$dir/machine_state-resumed-$(date -u +%Y%m%dT%H%M%SZ).txt
	if "${B_dir[0]}/cmd/machine_state" >"$ms.tmp"; then mv "$ms.tmp" "$ms"; else
		rm -f "$ms.tmp"; say "the machine state could not be read; the JSON context still has it"
	fi
	decide_counters
	local stopped="stopped; finished processes are in $dir; continue with $prog --resume $dir"
	if [ "$calibrate" = 1 ]; then
		# Each trial's processes take the lock again; the report needs none.
		measure_end
		run_calibration || fail "$stopped"
		return 0
	fi
	run_processes "" || fail "$stopped"
	measure_end
	summarise
	[ "$find_crossover" = 0 ] || refine_crossover || fail "$stopped"
	if [ "$(dirname "$dir")" = "$top/results" ]; then
		ln -sfn "$(basename "$dir")" results/.latest.tmp && mv -T results/.latest.tmp results/latest
	fi
	# One file that holds the run, to copy to another machine for compare.
	local tar=" (all of it in one file: $dir.tar.gz)"
	"${B_dir[0]}/cmd/runs" export "$dir" >/dev/null 2>"$dir/log/export.txt" ||
		{ tar=""; say "export of $dir failed (log: $dir/log/export.txt); the results directory is complete"; }
	eta_s=""   # nothing is left
	phase "done: $dir/summary.md$tar"
	closing_block
}
