#!/usr/bin/env bash
# inlinecost: set up, build, sweep, summarise, plot. `./run.sh --help` for options.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$top"
prog=./run.sh

die() { echo "$prog: $*" >&2; exit 2; }
say() { echo "$prog: $*" >&2; }

# Debian packages the suite needs (DESIGN.md lists what each is for).
packages=(gcc g++ make cmake pkg-config binutils libbenchmark-dev libpapi-dev papi-tools
          libhwloc-dev hwloc valgrind gnuplot-nox libjansson-dev libelf-dev)

usage() {
	cat <<'EOF'
Usage: ./run.sh [options]      set up what is missing, build, run the sweep,
                               write results/<UTC timestamp>/ and plots
       ./run.sh test           set up, build, run every test (release,
                               ThreadSanitizer, Address+UB sanitizer builds)
       ./run.sh micro          the queue and C API microbenchmarks (README figures)
       ./run.sh codesize [--sites ..] [--ops ..] [--layouts ..] [--orders ..]
                               code bytes per form vs N beside the L1i and L2
       ./run.sh --help         this text

Sweep options (defaults in brackets):
  --sites LIST|A..B   call-site counts: a list 1,64,4096 or a range of powers
                      of two 1..16384                          [1..16384]
  --forms LIST        inline,hint,extern                       [inline,extern]
  --ops LIST          tail_dequeue,head_dequeue_tail,insert_unlink,
                      append_unlink,mixed                      [tail_dequeue]
  --layouts LIST      chain,scatter                            [chain]
  --orders LIST       seq,random                               [seq]
  --seed S            walk/caller order seed for order random  [1]
  --threads LIST      thread counts                            [1,<cores>]
  --modes LIST        private,shared                           [private,shared]
  --reps N            repetitions per point, forms interleaved [10]
  --min-time S        seconds per repetition                   [0.05]
  --counters MODE     auto|papi|sim|none: hardware counters via PAPI, the
                      valgrind L1i simulation, or none; auto = PAPI where it
                      can count, else simulated                [auto]
  --out DIR           results directory            [results/<UTC timestamp>]
  --resume DIR        run only the points missing from DIR (same settings as
                      when it started), then rebuild its summary and plots
  --quick             smoke sweep, under a minute: sites 1,64,1024, 3 reps
  --find-crossover    after the sweep, bisect on N between the sweep points
                      around each crossover (up to 4 steps)
  --calibrate         resolution check: plant a 3% extra cost in a copy of the
                      extern form and show the suite reports it (--sites 256,
                      1 thread, private, 20 reps of 0.1 s unless given)
  --jobs N            parallel build jobs                      [cores]

Results: results/<run>/benchmark.json (Google Benchmark JSON, readable by its
tools/compare.py), points.csv, ratios.csv, crossover.csv, summary.md and
plots/*.png|svg; results/latest points to the newest run.
EOF
}

# ---- set up ------------------------------------------------------------------

ensure_packages() {
	local missing=() p
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	local sudo=""
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
			die "missing Debian packages (install them as root): ${missing[*]}"
		fi
	fi
	command -v apt-get >/dev/null || die "missing Debian packages and no apt-get: ${missing[*]}"
	say "installing ${missing[*]}"
	$sudo apt-get update -q >&2 || die "apt-get update failed; missing: ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
		die "apt-get install failed; missing: ${missing[*]}"
}

cores() {
	# Physical cores: threads are pinned one per core.
	local n
	# hwloc sees only the cores this process may use (cpusets, containers).
	n=$(hwloc-calc --number-of core all 2>/dev/null) || n=0
	[ "$n" -gt 0 ] 2>/dev/null || n=$(nproc)
	echo "$n"
}

jobs=$(nproc)

# configure DIR [cmake args...]: configure only when the arguments changed.
configure() {
	local dir=$1; shift
	local stamp="$dir/.run.sh-configure"
	if [ -f "$dir/CMakeCache.txt" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$*" ]; then return 0; fi
	mkdir -p "$dir"
	cmake -S "$top" -B "$dir" "$@" >"$dir/configure.log" 2>&1 ||
		{ tail -n 20 "$dir/configure.log" >&2; die "cmake configure of $dir failed (log: $dir/configure.log)"; }
	echo "$*" >"$stamp"
}

build() {
	local dir=$1; shift
	cmake --build "$dir" -j "$jobs" "$@" >&2 || die "build in $dir failed"
}

# ---- tests -------------------------------------------------------------------

run_tests() {
	ensure_packages
	local failed=0 b
	# The release build holds the quick sweep's points, so a following
	# ./run.sh --quick builds nothing new.
	for b in "build::-DIC_POINTS=$(quick_points)" "build-tsan:-DIC_SANITIZE=thread:" "build-asan:-DIC_SANITIZE=address:"; do
		local dir=${b%%:*} rest=${b#*:}
		local san=${rest%%:*} extra=${rest#*:}
		mkdir -p "$dir"
		say "test: building $dir"
		configure "$dir" -DCMAKE_BUILD_TYPE=Release $san ${extra:+"$extra"}
		build "$dir"
		say "test: running the tests of $dir"
		(cd "$dir" && ctest --output-on-failure -j "$jobs" --timeout 600) || failed=1
	done
	[ $failed -eq 0 ] || { say "some tests failed"; exit 1; }
	say "every test passed in build, build-tsan and build-asan"
}

# ---- microbenchmarks ------------------------------------------------------------

# The figures the README quotes for the queue and the C API, in one run:
# medians of 10 interleaved repetitions and their ratios.
run_micro() {
	ensure_packages
	[ -f build/CMakeCache.txt ] || configure build -DCMAKE_BUILD_TYPE=Release "-DIC_POINTS=$(quick_points)"
	build build --target queue_microbench_tas queue_microbench_ticket api_overhead
	local common=(--benchmark_repetitions=10 --benchmark_report_aggregates_only=true
		--benchmark_enable_random_interleaving=true --benchmark_min_time=0.1 --benchmark_format=csv)
	local b
	for b in build/bench/queue_microbench_tas build/bench/queue_microbench_ticket build/bench/gbench/api_overhead; do
		"$b" "${common[@]}" 2>/dev/null || die "$b failed"
	done | awk -F, '
		{ gsub(/"/, "", $1) }
		$1 ~ /_median$/ { sub(/_median$/, "", $1); t[$1] = $3 }
		function r(a, b) { return (a in t && b in t) ? sprintf("%.3f", t[a] / t[b]) : "n/a" }
		END {
			print "Uncontended locked operation, ns (median of 10 interleaved repetitions):"
			printf "  %-7s %7s %7s %7s %7s   %-13s %-11s %-13s\n", "lock", "floor", "inline", "hint", "extern", "inline/floor", "hint/floor", "extern/floor"
			for (i = 1; i <= 2; i++) {
				l = i == 1 ? "tas" : "ticket"
				# Each lock binary measures the floor beside its own forms.
				fl = "floor/" l "/xchg+release"; f = t[fl]
				printf "  %-7s %7.2f %7.2f %7.2f %7.2f   %-13s %-11s %-13s\n", l, f,
					t["queue/" l "/inline"], t["queue/" l "/hint"], t["queue/" l "/extern"],
					r("queue/" l "/inline", fl), r("queue/" l "/hint", fl), r("queue/" l "/extern", fl)
			}
			print "C API over Google Benchmark vs native C++, ns per item (ratio C/native; goal <= 1.01):"
			n = split("empty/1000 queue/1000 empty/1 queue/1", k, " ")
			for (i = 1; i <= n; i++)
				printf "  %-11s native %7.3f  C %7.3f  ratio %s\n", k[i], t["api/native/" k[i]], t["api/c/" k[i]],
					r("api/c/" k[i], "api/native/" k[i])
		}'
}

# ---- code size ---------------------------------------------------------------------

# Bytes of call-site code per form from gen's accounting, beside this
# machine's L1i and L2 sizes (hwloc), as the README's table.
run_codesize() {
	ensure_packages
	: "${sites:=1..16384}"
	mapfile -t site_list < <(expand_sites "$sites" | sort -nu)
	build_forms=inline,hint,extern
	local specs
	specs=$(point_specs | paste -sd';')
	configure build-codesize -DCMAKE_BUILD_TYPE=Release "-DIC_POINTS=$specs"
	build build-codesize --target sites_codesize
	local l1i l2
	l1i=$(lstopo-no-graphics --filter icache:all --only L1iCache -v 2>/dev/null | sed -n 's/.*size=\([0-9]*\)KB.*/\1/p' | head -n 1)
	l2=$(lstopo-no-graphics --only L2Cache -v 2>/dev/null | sed -n 's/.*size=\([0-9]*\)KB.*/\1/p' | head -n 1)
	awk -F, -v l1i="${l1i:-0}" -v l2="${l2:-0}" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			g = $c["op"] "/" $c["layout"] "/" $c["order"]; n = $c["sites"] + 0; f = $c["form"]
			fp[g, f, n] = $c["footprint_bytes"]; slope[g, f] = $c["code_bytes_per_site"]
			if (f == "hint") inl[g, n] = $c["inlined_sites"]
			if (!((g, n) in seen)) { seen[g, n] = 1; ns[g] = ns[g] " " n }
			if (!(g in gs)) { gs[g] = 1; order[++ng] = g }
		}
		END {
			for (k = 1; k <= ng; k++) {
				g = order[k]; m = split(substr(ns[g], 2), list, " ")
				printf "\n%s: code bytes of all N call sites (footprint)\n\n", g
				print "| N | inline | hint (sites inlined) | extern |"
				print "|---:|---:|---:|---:|"
				for (i = 1; i <= m; i++) {
					n = list[i]
					printf "| %d | %s | %s (%s) | %s |\n", n, fp[g, "inline", n], fp[g, "hint", n], inl[g, n], fp[g, "extern", n]
				}
				printf "| bytes per site (slope over N) | %s | %s | %s |\n", slope[g, "inline"], slope[g, "hint"], slope[g, "extern"]
				for (j = 1; j <= 2; j++) {
					cap = (j == 1 ? l1i : l2) * 1024; name = j == 1 ? "L1i" : "L2"
					if (cap <= 0) { printf "\n%s size unknown (hwloc)\n", name; continue }
					for (i = 1; i <= m; i++)
						if (fp[g, "inline", list[i]] > cap) {
							printf "\nThe inline footprint passes this machine'"'"'s %s (%d KiB, hwloc) between N = %d and %d.", name, cap / 1024, list[i - 1], list[i]
							break
						}
					if (i > m) printf "\nThe inline footprint stays within the %s (%d KiB) up to N = %d.", name, cap / 1024, list[m]
				}
				print ""
			}
		}' build-codesize/bench/sites_codesize.csv
}

# ---- sweep options -----------------------------------------------------------

sites="" forms="inline,extern" ops="tail_dequeue" layouts="chain" orders="seq" seed=1
threads="" modes="private,shared" reps="" min_time="" counters="auto" out="" resume=""
quick=0 find_crossover=0 calibrate=0

is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }

# check_list NAME VALUE ALLOWED...: every comma-separated item is allowed.
check_list() {
	local name=$1 value=$2 item; shift 2
	[ -n "$value" ] || die "$name: empty list"
	IFS=, read -ra items <<<"$value"
	for item in "${items[@]}"; do
		local ok=0 a
		for a in "$@"; do [ "$item" = "$a" ] && ok=1; done
		[ $ok -eq 1 ] || die "$name: unknown value '$item' (one of: $*)"
	done
}

# expand_sites SPEC: a list, or A..B as the powers of two from A to B.
expand_sites() {
	local spec=$1 n
	if [[ $spec == *..* ]]; then
		local a=${spec%%..*} b=${spec##*..}
		is_uint "$a" && is_uint "$b" || die "--sites: '$spec' is not a range A..B of whole numbers"
		[ "$a" -ge 1 ] && [ "$b" -le 1000000 ] && [ "$a" -le "$b" ] || die "--sites: range '$spec' must lie within 1..1000000, low to high"
		for ((n = a; n <= b; n *= 2)); do printf '%s\n' "$n"; done
	else
		IFS=, read -ra list <<<"$spec"
		[ ${#list[@]} -gt 0 ] || die "--sites: empty list"
		for n in "${list[@]}"; do
			is_uint "$n" || die "--sites: '$n' is not a whole number"
			[ "$n" -ge 1 ] && [ "$n" -le 1000000 ] || die "--sites: $n is outside 1..1000000"
			printf '%s\n' "$((10#$n))"
		done
	fi
}

parse_args() {
	while [ $# -gt 0 ]; do
		local opt=$1 val=""
		case $opt in
		--*=*) val=${opt#*=}; opt=${opt%%=*} ;;
		esac
		case $opt in
		--quick | --find-crossover | --calibrate | --help | -h) ;;
		--sites | --forms | --ops | --layouts | --orders | --seed | --threads | --modes | --reps | \
		--min-time | --counters | --out | --resume | --jobs)
			if [ -z "$val" ]; then [ $# -ge 2 ] || die "$opt needs a value"; val=$2; shift; fi ;;
		*) die "unknown argument '$opt' (see --help)" ;;
		esac
		case $opt in
		--help | -h) usage; exit 0 ;;
		--sites) sites=$val ;;
		--forms) check_list --forms "$val" inline hint extern; forms=$val ;;
		--ops) check_list --ops "$val" tail_dequeue head_dequeue_tail insert_unlink append_unlink mixed; ops=$val ;;
		--layouts) check_list --layouts "$val" chain scatter; layouts=$val ;;
		--orders) check_list --orders "$val" seq random; orders=$val ;;
		--seed) is_uint "$val" && [ "$val" -le 4294967295 ] || die "--seed: '$val' is not a whole number 0..4294967295"; seed=$val ;;
		--threads)
			IFS=, read -ra tl <<<"$val"
			[ ${#tl[@]} -gt 0 ] || die "--threads: empty list"
			for t in "${tl[@]}"; do
				is_uint "$t" && [ "$t" -ge 1 ] && [ "$t" -le 256 ] || die "--threads: '$t' is not a thread count 1..256"
			done
			threads=$val ;;
		--modes) check_list --modes "$val" private shared; modes=$val ;;
		--reps) is_uint "$val" && [ "$val" -ge 1 ] && [ "$val" -le 1000 ] || die "--reps: '$val' is not a whole number 1..1000"; reps=$val ;;
		--min-time) [[ $val =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v v="$val" 'BEGIN{exit !(v > 0 && v <= 60)}' ||
			die "--min-time: '$val' is not a number of seconds in (0, 60]"; min_time=$val ;;
		--counters) check_list --counters "$val" auto papi sim none; [[ $val != *,* ]] || die "--counters: one mode, not a list"; counters=$val ;;
		--out) out=$val ;;
		--resume) resume=$val ;;
		--jobs) is_uint "$val" && [ "$val" -ge 1 ] || die "--jobs: '$val' is not a positive whole number"; jobs=$val ;;
		--quick) quick=1 ;;
		--find-crossover) find_crossover=1 ;;
		--calibrate) calibrate=1 ;;
		*) die "unknown option '$opt' (see --help)" ;;
		esac
		shift
	done
	if [ -n "$sites" ]; then expand_sites "$sites" >/dev/null; fi
	local distinct
	distinct=$(tr , '\n' <<<"$forms" | sort -u | wc -l)
	[ "$calibrate" = 1 ] || [ "$distinct" -ge 2 ] || die "--forms: give at least two different forms to compare (e.g. inline,extern)"
	if [ -n "$resume" ]; then
		[ -z "$out" ] || die "--resume and --out: give one of them"
		[ -f "$resume/run.conf" ] || die "--resume: $resume has no run.conf: not a results directory of run.sh"
	fi
	if [ -n "$out" ] && [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
		die "--out: $out exists and is not empty (use --resume $out to continue it)"
	fi
	return 0
}

quick_points() {
	local f n p=""
	for f in inline extern; do for n in 1 64 1024; do p+="$f:tail_dequeue:chain:seq:0:$n;"; done; done
	echo "${p%;}"
}

# ---- the sweep ---------------------------------------------------------------

# The settings a run depends on; saved so --resume repeats them exactly.
save_conf() {
	local f=$1
	{
		declare -p sites forms ops layouts orders seed threads modes reps min_time counters \
			find_crossover calibrate plant compare baseline
	} >"$f.tmp" && mv "$f.tmp" "$f"
}

point_specs() {   # every point of the sweep, as gen specs
	local f o l r n s
	for o in ${ops//,/ }; do for l in ${layouts//,/ }; do for r in ${orders//,/ }; do
		s=0; [ "$r" = random ] && s=$seed
		for f in ${build_forms//,/ }; do for n in "${site_list[@]}"; do
			echo "$f:$o:$l:$r:$s:$n"
		done; done
	done; done; done
}

# run_group OP LAYOUT ORDER N T MODE: all forms of one point, interleaved.
run_group() {
	local o=$1 l=$2 r=$3 n=$4 t=$5 m=$6
	local key="${o}_${l}_${r}_${n}_${m}_t${t}"
	local file="$dir/raw/$key.json"
	[ -s "$file" ] && return 0
	local flist=${forms//,/|}
	[ "$calibrate" = 1 ] && flist="extern|extern_plant[0-9.]+"
	local filter="^sites/($flist)/$o/$l/$r/$n/$m/real_time/threads:$t\$"
	local args=(--counters="$counters" --threads="$t" --modes="$m" --sim-cache="$dir/sim.csv"
		--benchmark_filter="$filter" --benchmark_repetitions="$reps"
		--benchmark_enable_random_interleaving=true --benchmark_min_time="$min_time"
		--benchmark_out="$file.tmp" --benchmark_out_format=json --benchmark_format=console)
	[ -n "$plant" ] && args+=(--plant="$plant")
	if ! build/bench/sites_bench "${args[@]}" >"$dir/log/$key.txt" 2>&1; then
		rm -f "$file.tmp"
		say "point $key failed; its log: $dir/log/$key.txt"
		tail -n 5 "$dir/log/$key.txt" >&2
		return 1
	fi
	mv "$file.tmp" "$file"
	# The bench's one-time notices (counters, pinning) reach the terminal once.
	if [ -z "${noticed:-}" ]; then
		grep '^inlinecost:' "$dir/log/$key.txt" >&2 || true
		noticed=1
	fi
}

# run_groups: every group of the sweep not yet on disk, with progress.
run_groups() {
	local groups=() o l r n t m
	for o in ${ops//,/ }; do for l in ${layouts//,/ }; do for r in ${orders//,/ }; do
		for t in ${threads//,/ }; do for m in ${modes//,/ }; do for n in "${site_list[@]}"; do
			groups+=("$o $l $r $n $t $m")
		done; done; done
	done; done; done
	local total=${#groups[@]} i=0 done_s=0 done_n=0 g start eta
	for g in "${groups[@]}"; do
		i=$((i + 1))
		set -- $g
		if [ -s "$dir/raw/${1}_${2}_${3}_${4}_${6}_t${5}.json" ]; then continue; fi
		if [ $done_n -gt 0 ]; then eta="ETA $(((total - i + 1) * done_s / done_n))s"; else eta="ETA -"; fi
		printf '%s: [%d/%d] %s/%s/%s N=%s threads=%s %s (%s) %s\n' "$prog" "$i" "$total" "$1" "$2" "$3" "$4" "$5" "$6" \
			"$([ "$calibrate" = 1 ] && echo "extern vs extern+${plant}" || echo "${forms//,/ vs }")" "$eta" >&2
		start=$SECONDS
		run_group "$@" || return 1
		done_s=$((done_s + SECONDS - start)); done_n=$((done_n + 1))
	done
}

summarise() {
	local args=(--out "$dir" --compare "$compare" --baseline "$baseline")
	[ -n "$plant" ] && args+=(--planted "$plant")
	shopt -s nullglob
	local files=("$dir"/raw/*.json)
	shopt -u nullglob
	[ ${#files[@]} -gt 0 ] || die "no finished points in $dir to summarise"
	build/plots/summarize "${args[@]}" "${files[@]}" || die "summarize failed on $dir"
	if command -v gnuplot >/dev/null; then
		plots/draw.sh "$dir" || say "plots failed; results are in $dir"
	else
		say "no gnuplot: results are written; for plots: apt-get install gnuplot-nox, then plots/draw.sh $dir"
	fi
}

# Bisection on N around each crossover, between the sweep's points.
refine_crossover() {
	local step
	for step in 1 2 3 4; do
		[ -f "$dir/crossover.csv" ] || return 0
		# Every bracket summarize gives: a crossover, or where a one-sided
		# win ends. lo,hi.
		local mids=() line
		while IFS=, read -r lo hi; do
			local mid
			mid=$(awk -v a="$lo" -v b="$hi" 'BEGIN{printf "%d", sqrt(a*b) + 0.5}')
			[ "$mid" -gt "$lo" ] && [ "$mid" -lt "$hi" ] && mids+=("$mid")
		done < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["bracket_lo"] != "" && $c["bracket_hi"] != "" { print $c["bracket_lo"] "," $c["bracket_hi"] }' "$dir/crossover.csv" | sort -u)
		[ ${#mids[@]} -gt 0 ] || { say "crossover: nothing left to refine"; return 0; }
		say "crossover: bisection step $step, new N: ${mids[*]}"
		site_list+=("${mids[@]}")
		mapfile -t site_list < <(printf '%s\n' "${site_list[@]}" | sort -nu)
		sites=$(IFS=,; echo "${site_list[*]}")
		save_conf "$dir/run.conf"
		build_points
		run_groups || return 1
		summarise
	done
}

build_points() {
	local specs
	specs=$(point_specs | paste -sd';')
	mkdir -p build
	configure build -DCMAKE_BUILD_TYPE=Release "-DIC_POINTS=$specs"
	build build --target sites_bench summarize
}

run_sweep() {
	plant="" compare=inline baseline=extern
	if [ -n "$resume" ]; then
		dir=$resume
		# shellcheck disable=SC1090
		. "$dir/run.conf"
	else
		if [ "$quick" = 1 ]; then
			: "${sites:=1,64,1024}" "${reps:=3}" "${min_time:=0.005}"
		fi
		if [ "$calibrate" = 1 ]; then
			: "${sites:=256}" "${reps:=20}" "${min_time:=0.1}" "${threads:=1}"
			modes=private forms=extern plant=0.03
			compare=extern_plant3 baseline=extern
		fi
		: "${sites:=1..16384}" "${reps:=10}" "${min_time:=0.05}" "${threads:=1,$(cores)}"
		[ "$threads" = "1,1" ] && threads=1
		if [ "$compare" = inline ] && [[ ",$forms," != *,inline,* || ",$forms," != *,extern,* ]]; then
			compare=${forms%%,*} baseline=${forms##*,}
		fi
	fi
	mapfile -t site_list < <(expand_sites "$sites" | sort -nu)
	build_forms=$forms

	ensure_packages
	build_points

	if [ -z "$resume" ]; then
		dir=${out:-results/$(date -u +%Y%m%dT%H%M%SZ)}
		# Not -p for the default: two runs in the same second must not share.
		if [ -n "$out" ]; then mkdir -p "$dir"; else mkdir -p results && mkdir "$dir" || die "$dir exists already; try again"; fi
		save_conf "$dir/run.conf"
	fi
	mkdir -p "$dir/raw" "$dir/log"
	trap 'rm -f "$dir"/raw/*.tmp; say "interrupted: finished points are in $dir; continue with $prog --resume $dir"; exit 130' INT TERM
	say "results: $dir"
	run_groups || { say "stopped; finished points are in $dir; continue with $prog --resume $dir"; exit 1; }
	summarise
	if [ "$find_crossover" = 1 ]; then
		refine_crossover || { say "stopped; finished points are in $dir; continue with $prog --resume $dir"; exit 1; }
	fi
	if [[ $dir == results/* ]] || [[ $dir == "$top"/results/* ]]; then
		ln -sfn "$(basename "$dir")" results/.latest.tmp && mv -T results/.latest.tmp results/latest
	fi
	say "done: $dir/summary.md"
	# The recommendation: the summary's first section.
	awk '/^## / { n++ } n == 1' "$dir/summary.md"
}

if [ "${1:-}" = codesize ]; then
	shift
	parse_args "$@"
	run_codesize
	exit 0
fi
if [ "${1:-}" = micro ]; then
	shift
	[ $# -eq 0 ] || die "micro takes no options"
	run_micro
	exit 0
fi
if [ "${1:-}" = test ]; then
	shift
	[ $# -eq 0 ] || die "test takes no options"
	run_tests
	exit 0
fi
parse_args "$@"
run_sweep
