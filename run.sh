#!/usr/bin/env bash
# inlinecost: set up, build, sweep, summarise, plot. `./run.sh --help` for options.
# What the parts are and how they fit: README.md.
set -euo pipefail

# Paths the user gives are taken from where they ran us, before the cd.
caller_pwd=$PWD
top=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$top"
prog=./run.sh

die() { echo "$prog: $*" >&2; exit 2; }    # usage errors: nothing was done
fail() { echo "$prog: $*" >&2; exit 1; }   # a step failed (install, build, run, summary)
say() { echo "$prog: $*" >&2; }

# Debian packages the suite needs (README.md says what each part uses them for;
# python3 checks the merged JSON the way Google Benchmark's compare.py reads it).
packages=(gcc g++ make cmake pkg-config binutils libbenchmark-dev libpapi-dev papi-tools
          libhwloc-dev hwloc valgrind gnuplot-nox libjansson-dev libelf-dev python3 lld)

usage() {
	cat <<'USAGE'
Usage: ./run.sh [options]      set up what is missing, build, run the sweep,
                               write results/<UTC timestamp>/ and plots
       ./run.sh test           set up, build, run every test (release,
                               ThreadSanitizer, Address+UB sanitizer builds)
       ./run.sh micro          the queue and C API microbenchmarks (README figures)
       ./run.sh codesize [--sites ..] [--ops ..] [--layouts ..] [--orders ..] [--filler ..]
                               code bytes per form vs N beside the L1i and L2
       ./run.sh compare [--out DIR] RUN RUN...
                               runs from other machines, compilers or commits
                               side by side (RUN: a results directory or its
                               .tar.gz): brackets, ratios per N, overlaid plots
                               in results/compare-<UTC timestamp>/
       ./run.sh export DIR     DIR.tar.gz: one file holding a run (the sweep
                               writes it too)
       ./run.sh agree DIR DIR...
                               how far separate runs agree: each run's bracket,
                               ratio spread per N, intervals that hold the
                               other runs' estimates (prints, writes nothing)
       ./run.sh --help         this text

Sweep options (defaults in brackets):
  --sites LIST|A..B   call-site counts: a list 1,64,4096 or a range of powers
                      of two 1..16384                          [1..16384]
  --forms LIST        inline,hint,extern,clone,inline_nolock,extern_nolock:
                      the forms; inline/extern is the ratio compared, clone
                      and the nolock forms are the controls the summary's
                      attribution reads (nolock: 1 thread, private only);
                      the sweep adds form mark (the sites' mark and filler
                      alone, 1 thread, private), the baseline
                      [inline,extern,clone,inline_nolock,extern_nolock]
  --ops LIST          tail_dequeue,head_dequeue_tail,insert_unlink,
                      append_unlink,mixed                      [tail_dequeue]
                      (the names: gen/point_names.def)
  --layouts LIST      chain,scatter                            [chain]
  --orders LIST       seq,random                               [seq]
  --filler LIST       bytes of other straight-line code run before every
                      site (0 = none), or auto: this machine's L1i / 128,
                      so that the filler alone fills the L1i at N = 128.
                      Filler series run at 1 thread, private, and their
                      times are net of the mark-and-filler baseline    [0]
                      Default, when none of --layouts, --orders and
                      --filler is given: two series, chain/seq/0 and the
                      realistic scatter/random/auto (its N up to where the
                      filler alone passes the L2, unless --sites is given);
                      otherwise every combination of the three lists
  --seed S            walk/caller order seed for order random  [1]
  --per-caller C      call sites per chain caller function     [16]
  --cc LIST           C compilers, e.g. gcc,clang: each its own build and
                      series (clang is installed from Debian when missing)
                                                      [the system's cc]
  --cflags "LIST"     optimisation flags, ';'-separated sets, e.g. "-O2;-Os":
                      each its own build and series                 [-O2]
  --lto               link-time optimisation of the callers (gcc only; the
                      queue's out-of-line copies stay outside it); one
                      layout variant, as LTO's code no longer sits in the
                      objects a layout script places
  --body FILE         your own function instead of the queue (README: "Your
                      own body"; examples/): the forms inline, hint, extern,
                      clone and the mark are made from it
  --vectorised        let gcc use vector registers in sites and queue (a
                      user-space build); the default builds them with
                      -mgeneral-regs-only, as the kernel builds
  --threads LIST      thread counts                            [1,<physical cores>]
  --modes LIST        private,shared: one queue per thread, or one queue
                      all threads share; shared at 1 thread is the private
                      case, run only when private is not   [private,shared]
  --layouts-random L  layout variants: the ordinary link plus L-1 links of the
                      same objects in seeded random code layouts   [6; --quick 1]
  --layout-seed S     seed of the layout variants and of the order the
                      processes run in                     [drawn at random]
  --processes P       processes per layout variant             [2; --quick 3]
  --reps R            repetitions per point in each process, all forms
                      and points interleaved at random; at least 3   [3]
  --min-time S        seconds per repetition                   [0.03]
  --counters MODE     auto|papi|sim|none: hardware counters via PAPI, the
                      valgrind L1i simulation, or none; auto = PAPI where it
                      can count, else simulated                [auto]
  --out DIR           results directory            [results/<UTC timestamp>]
  --resume DIR        run only the processes missing from DIR with its
                      settings (other options must agree), then rebuild its
                      summary and plots
  --repeat K          run the whole sweep K times, interleaved, each with its
                      own layout seed; report how the bracket and each ratio
                      spread across the K runs                     [1]
  --quick             smoke sweep, under a minute: sites 1,64,1024, 1 layout,
                      3 processes of 3 reps of 0.005 s
  --find-crossover    after the sweep, measure the N between the ends of each
                      crossover bracket, same variants (up to 4 steps)
  --calibrate         coverage check: plant 0%, 1% and 3% extra cost in copies
                      of the extern form at N = 256 (1 thread, private) and
                      report, over --trials sweeps, how often each interval
                      holds the planted value
  --trials T          calibration trials                       [20]
  --jobs N            parallel build jobs                      [cores]

Results: results/<run>/summary.md, points.csv, ratios.csv, crossover.csv,
benchmark.json (Google Benchmark JSON, readable by its tools/compare.py) and
plots/*.png|svg (links into report/, replaced as a set); raw/ holds one JSON
per process. results/latest points to the newest run.
USAGE
}

# ---- set up ------------------------------------------------------------------

ensure_packages() {
	local missing=() p
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	local sudo=()
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo=(sudo -n); else
			fail "missing Debian packages (install them as root): ${missing[*]}"
		fi
	fi
	command -v apt-get >/dev/null || fail "missing Debian packages and no apt-get: ${missing[*]}"
	say "installing ${missing[*]}"
	# env after sudo: sudo drops the caller's environment.
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 ||
		fail "apt-get update failed; missing: ${missing[*]}"
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >&2 || fail "apt-get install failed; missing: ${missing[*]}"
}

cores() {
	# Physical cores: threads are pinned one per core. Called after
	# ensure_packages, so hwloc is there to count them.
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
		{ tail -n 20 "$dir/configure.log" >&2; fail "cmake configure of $dir failed (log: $dir/configure.log)"; }
	echo "$*" >"$stamp"
}
build() {
	local dir=$1; shift
	cmake --build "$dir" -j "$jobs" "$@" >&2 || fail "build in $dir failed"
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
		if [ "$dir" = build ]; then
			# The same arguments as the quick sweep's, so it builds nothing new.
			configure "$dir" $(release_args "$(quick_points)" 1 0)
		else
			configure "$dir" -DCMAKE_BUILD_TYPE=Release $san ${extra:+"$extra"}
		fi
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
	[ -f build/CMakeCache.txt ] || configure build $(release_args "$(quick_points)" 1 0)
	build build --target queue_microbench_tas queue_microbench_ticket api_overhead
	local common=(--benchmark_repetitions=10 --benchmark_report_aggregates_only=true
		--benchmark_enable_random_interleaving=true --benchmark_min_time=0.1 --benchmark_format=csv)
	local b
	for b in build/bench/queue_microbench_tas build/bench/queue_microbench_ticket build/bench/gbench/api_overhead; do
		"$b" "${common[@]}" 2>/dev/null || fail "$b failed"
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
	build_forms=inline,hint,extern,clone,inline_nolock,extern_nolock,mark
	resolve_cases
	local specs
	specs=$(point_specs | paste -sd';')
	local regs=ON
	[ "$vectorised" = 1 ] && regs=OFF
	configure build-codesize -DCMAKE_BUILD_TYPE=Release "-DIC_POINTS=$specs" \
		-DIC_PER_CALLER="$per_caller" -DIC_GENERAL_REGS_ONLY=$regs
	build build-codesize --target sites_codesize
	local l1i l2
	l1i=$(cache_bytes L1iCache) l2=$(cache_bytes L2Cache)
	awk -F, -v l1i="$((${l1i:-0} / 1024))" -v l2="$((${l2:-0} / 1024))" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			x = ("filler" in c) ? $c["filler"] + 0 : 0
			g = $c["op"] "/" $c["layout"] "/" $c["order"] (x > 0 ? ", " x " B filler per site" : "")
			n = $c["sites"] + 0; f = $c["form"]
			fp[g, f, n] = $c["footprint_bytes"]; slope[g, f] = $c["code_bytes_per_site"]
			if (f == "hint") inl[g, n] = $c["inlined_sites"]
			if (!((g, n) in seen)) { seen[g, n] = 1; ns[g] = ns[g] " " n }
			if (!(g in gs)) { gs[g] = 1; order[++ng] = g }
		}
		END {
			for (k = 1; k <= ng; k++) {
				g = order[k]; m = split(substr(ns[g], 2), list, " ")
				printf "\n%s: code bytes of all N call sites (footprint)\n\n", g
				print "| N | inline | hint (sites inlined) | extern | clone | inline_nolock | extern_nolock | mark alone |"
				print "|---:|---:|---:|---:|---:|---:|---:|---:|"
				for (i = 1; i <= m; i++) {
					n = list[i]
					printf "| %d | %s | %s (%s) | %s | %s | %s | %s | %s |\n", n, fp[g, "inline", n], fp[g, "hint", n], inl[g, n], fp[g, "extern", n],
						fp[g, "clone", n], fp[g, "inline_nolock", n], fp[g, "extern_nolock", n], fp[g, "mark", n]
				}
				printf "| bytes per site (slope over N) | %s | %s | %s | %s | %s | %s | %s |\n", slope[g, "inline"], slope[g, "hint"], slope[g, "extern"],
					slope[g, "clone"], slope[g, "inline_nolock"], slope[g, "extern_nolock"], slope[g, "mark"]
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

sites="" forms="inline,extern,clone,inline_nolock,extern_nolock" ops="tail_dequeue" layouts="chain" orders="seq" seed=1
fillers=0 cases=""
per_caller=16 vectorised=0 ccs="" cflags_list="" lto=0 body=""
threads="" modes="private,shared" reps="" min_time="" counters="auto" out="" resume=""
layouts_random="" layout_seed="" processes="" repeat=1 trials=20
quick=0 find_crossover=0 calibrate=0
# The options given on the command line, by run.conf name: --resume must agree with them.
declare -A given=()

is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }

# point_names KIND: the names of FORM, OP, LAYOUT or ORDER, from the table
# gen and CMake read too (the X(ENUM, name, ...) lines of its IC_<KIND>S list).
point_names() {
	sed -n "/^#define IC_$1S(X)/,/[^\\]\$/ s/^[[:space:]]*X([A-Z_]*, \([a-z_]*\),.*/\1/p" "$top/gen/point_names.def"
}

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

# A path the user gave, taken from their working directory.
abs_path() { case $1 in /*) echo "$1" ;; *) echo "$caller_pwd/$1" ;; esac; }

# uint_opt NAME VALUE MIN MAX
uint_opt() {
	is_uint "$2" && [ "$((10#$2))" -ge "$3" ] && [ "$((10#$2))" -le "$4" ] ||
		die "$1: '$2' is not a whole number $3..$4"
}

parse_args() {
	while [ $# -gt 0 ]; do
		local opt=$1 val=""
		case $opt in
		--*=*) val=${opt#*=}; opt=${opt%%=*} ;;
		esac
		case $opt in
		--quick | --find-crossover | --calibrate | --vectorised | --lto | --help | -h) ;;
		--sites | --forms | --ops | --layouts | --orders | --seed | --threads | --modes | --reps | \
		--min-time | --counters | --out | --resume | --jobs | --layouts-random | --layout-seed | \
		--processes | --repeat | --trials | --per-caller | --filler | --cc | --cflags | --body)
			if [ -z "$val" ]; then [ $# -ge 2 ] || die "$opt needs a value"; val=$2; shift; fi ;;
		*) die "unknown argument '$opt' (see --help)" ;;
		esac
		case $opt in
		--help | -h) usage; exit 0 ;;
		--sites) sites=$val; given[sites]=$val ;;
		# mark is the sweep's own baseline, not a form to compare.
		--forms) check_list --forms "$val" $(point_names FORM | grep -vx mark); forms=$val; given[forms]=$val ;;
		--ops) check_list --ops "$val" $(point_names OP); ops=$val; given[ops]=$val ;;
		--layouts) check_list --layouts "$val" $(point_names LAYOUT); layouts=$val; given[layouts]=$val ;;
		--orders) check_list --orders "$val" $(point_names ORDER); orders=$val; given[orders]=$val ;;
		--filler)
			IFS=, read -ra fl <<<"$val"
			[ ${#fl[@]} -gt 0 ] || die "--filler: empty list"
			for f in "${fl[@]}"; do
				[ "$f" = auto ] || { is_uint "$f" && [ "$((10#$f))" -le 65536 ]; } ||
					die "--filler: '$f' is not a number of bytes 0..65536 or auto"
			done
			fillers=$val; given[fillers]=$val ;;
		--per-caller) uint_opt --per-caller "$val" 1 1000000; per_caller=$((10#$val)); given[per_caller]=$per_caller ;;
		--vectorised) vectorised=1; given[vectorised]=1 ;;
		--lto) lto=1; given[lto]=1 ;;
		--cc)
			IFS=, read -ra cl <<<"$val"
			[ ${#cl[@]} -gt 0 ] || die "--cc: empty list"
			for c in "${cl[@]}"; do
				[[ $c =~ ^[A-Za-z0-9._+-]+$ ]] || die "--cc: '$c' is not a compiler name"
				[ "$c" = clang ] || command -v "$c" >/dev/null || die "--cc: '$c' not found on PATH"
			done
			ccs=$val; given[ccs]=$val ;;
		--cflags)
			IFS=';' read -ra fl <<<"$val"
			[ ${#fl[@]} -gt 0 ] || die "--cflags: empty list"
			for f in "${fl[@]}"; do
				[[ $f =~ ^[[:space:]]*-[^\;\"\'\`\$]*$ ]] || die "--cflags: '$f' is not a set of flags (each set starts with -)"
			done
			cflags_list=$val; given[cflags_list]=$val ;;
		--body)
			body=$(abs_path "$val")
			[ -f "$body" ] || die "--body: $val: no such file"
			[[ $(basename "$body") =~ ^[A-Za-z0-9_]+\.c$ ]] || die "--body: $val: the name must be letters, digits and _ then .c (it names the op)"
			given[body]=$body ;;
		--seed) uint_opt --seed "$val" 0 4294967295; seed=$val; given[seed]=$val ;;
		--threads)
			IFS=, read -ra tl <<<"$val"
			[ ${#tl[@]} -gt 0 ] || die "--threads: empty list"
			for t in "${tl[@]}"; do
				is_uint "$t" && [ "$t" -ge 1 ] && [ "$t" -le 256 ] || die "--threads: '$t' is not a thread count 1..256"
			done
			threads=$val; given[threads]=$val ;;
		--modes) check_list --modes "$val" private shared; modes=$val; given[modes]=$val ;;
		--reps)
			is_uint "$val" && [ "$val" -ge 1 ] && [ "$val" -le 1000 ] || die "--reps: '$val' is not a whole number 3..1000"
			# A median of 1 or 2 repetitions is one of them, or their mean:
			# too little to stand for a process.
			[ "$val" -ge 3 ] || die "--reps: $val is too few: a process needs at least 3 repetitions for its median"
			reps=$val; given[reps]=$val ;;
		--min-time) [[ $val =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v v="$val" 'BEGIN{exit !(v > 0 && v <= 60)}' ||
			die "--min-time: '$val' is not a number of seconds in (0, 60]"; min_time=$val; given[min_time]=$val ;;
		--counters) check_list --counters "$val" auto papi sim none; [[ $val != *,* ]] || die "--counters: one mode, not a list"; counters=$val; given[counters]=$val ;;
		--layouts-random) uint_opt --layouts-random "$val" 1 64; layouts_random=$((10#$val)); given[layouts_random]=$layouts_random ;;
		--layout-seed) uint_opt --layout-seed "$val" 0 4294967295; layout_seed=$((10#$val)); given[layout_seed]=$layout_seed ;;
		--processes) uint_opt --processes "$val" 1 100; processes=$((10#$val)); given[processes]=$processes ;;
		--repeat) uint_opt --repeat "$val" 1 20; repeat=$((10#$val)); given[repeat]=$repeat ;;
		--trials) uint_opt --trials "$val" 2 1000; trials=$((10#$val)); given[trials]=$trials ;;
		--out) out=$(abs_path "$val") ;;
		--resume) resume=$(abs_path "$val") ;;
		--jobs) is_uint "$val" && [ "$val" -ge 1 ] || die "--jobs: '$val' is not a positive whole number"; jobs=$val ;;
		--quick) quick=1; given[quick]=1 ;;
		--find-crossover) find_crossover=1; given[find_crossover]=1 ;;
		--calibrate) calibrate=1; given[calibrate]=1 ;;
		*) die "unknown option '$opt' (see --help)" ;;
		esac
		shift
	done
	if [ -n "$sites" ]; then expand_sites "$sites" >/dev/null; fi
	local distinct
	distinct=$(tr , '\n' <<<"$forms" | sort -u | wc -l)
	[ "$calibrate" = 1 ] || [ "$distinct" -ge 2 ] || die "--forms: give at least two different forms to compare (e.g. inline,extern)"
	# Every interval needs two independent draws: two layouts, or two processes of one.
	if [ "${layouts_random:-2}" = 1 ] && [ "${processes:-2}" = 1 ]; then
		die "--layouts-random 1 with --processes 1: one process cannot give an interval; give 2 of either"
	fi
	if [ -n "$resume" ]; then
		[ -z "$out" ] || die "--resume and --out: give one of them"
		[ -f "$resume/run.conf" ] || die "--resume: $resume has no run.conf: not a results directory of run.sh"
	fi
	if [ -n "$out" ] && [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
		die "--out: $out exists and is not empty (use --resume $out to continue it)"
	fi
	return 0
}

# The quick sweep's points (the test build holds them, so a following
# ./run.sh --quick builds nothing new): the default series and forms at
# N = 1, 64, 1024.
quick_points() {
	(
		sites=1,64,1024
		resolve_cases
		mapfile -t site_list < <(expand_sites "$sites")
		build_forms=$forms,mark
		point_specs
	) | paste -sd';'
}

# cache_bytes L1iCache|L2Cache: the first such cache's size in bytes (hwloc),
# nothing when hwloc reports none.
cache_bytes() {
	local filter=() kib
	[ "$1" = L1iCache ] && filter=(--filter icache:all)
	kib=$(lstopo-no-graphics "${filter[@]}" --only "$1" -v 2>/dev/null | sed -n 's/.*size=\([0-9]*\)KB.*/\1/p' | head -n 1)
	[ -z "$kib" ] || echo $((kib * 1024))
}

# resolve_cases: the sweep's series bodies, as layout:order:filler:max. With none
# of --layouts, --orders and --filler, the two default series: today's
# sequential chain, and the realistic case -- one function per site, walked
# in random order, each with filler that puts the code past the L1i at mid
# N, as call sites spread through a big program are. Otherwise every
# combination. Filler auto is this machine's L1i / 128 (hwloc), so that at
# N = 128, the middle of the default 1..16384 on a log scale, the filler
# alone fills the L1i; a multiple of 8, resolved here and saved in run.conf.
# max caps a filler series' N where --sites is not given: the first power of
# two at which the filler alone passes the L2 (hwloc). Beyond it every site
# comes from L3 or memory, and the points cost build time (about 5 ms of gcc
# per inlined site) without telling more; 0 is no cap.
resolve_cases() {
	local list=() l o f l1i l2 n out=()
	if [ -z "${given[layouts]:-}${given[orders]:-}${given[fillers]:-}" ]; then
		list=(chain:seq:0 scatter:random:auto)
	else
		for l in ${layouts//,/ }; do for o in ${orders//,/ }; do for f in ${fillers//,/ }; do
			list+=("$l:$o:$f")
		done; done; done
	fi
	for l in "${list[@]}"; do
		f=${l##*:}
		if [ "$f" = auto ]; then
			l1i=$(cache_bytes L1iCache)
			[ -n "$l1i" ] || fail "--filler auto: hwloc reports no L1i size on this machine; give --filler BYTES"
			f=$((l1i / 128 / 8 * 8))
		fi
		f=$((10#$f)) n=0
		if [ "$f" -gt 0 ] && [ -z "${given[sites]:-}" ]; then
			l2=$(cache_bytes L2Cache)
			if [ -n "$l2" ]; then n=1; while [ $((n * f)) -lt "$l2" ]; do n=$((n * 2)); done; fi
		fi
		out+=("${l%:*}:$f:$n")
	done
	cases=$(printf '%s\n' "${out[@]}" | awk '!seen[$0]++' | paste -sd,)
}

# release_args POINTS LAYOUTS SEEDS: the release build's configure arguments.
release_args() {
	local regs=ON
	[ "$vectorised" = 1 ] && regs=OFF
	echo "-DCMAKE_BUILD_TYPE=Release -DIC_POINTS=$1 -DIC_LAYOUTS=$2 -DIC_LAYOUT_SEEDS=$3" \
		"-DIC_PER_CALLER=$per_caller -DIC_GENERAL_REGS_ONLY=$regs"
}

# ---- the sweep ---------------------------------------------------------------

# build_forms: the forms built and run. The mark alone joins them (not in
# calibration: its planted copies are extern's); it, the nolock forms and
# every filler series run at 1 thread on a private queue only.
filler_cases() { tr , '\n' <<<"$cases" | awk -F: '$3 > 0'; }

decide_build_forms() {
	local one=0 f kept=() dropped=()
	[[ ,$threads, == *,1,* && ,$modes, == *,private,* ]] && one=1
	if [ $one = 1 ]; then
		build_forms=$forms
		[ "$calibrate" = 1 ] || build_forms+=,mark
		return 0
	fi
	for f in ${forms//,/ }; do
		if [[ $f == *_nolock ]]; then dropped+=("$f"); else kept+=("$f"); fi
	done
	build_forms=$(IFS=,; echo "${kept[*]}")
	# Refusals first: bad input gets one line and nothing else.
	[[ ,$build_forms, == *,"$compare",* && ,$build_forms, == *,"$baseline",* ]] ||
		die "--forms: $compare/$baseline cannot be compared here: the nolock forms run at 1 thread, private only"
	[ -z "$(filler_cases)" ] || [ -z "${given[fillers]:-}" ] ||
		die "--filler: filler series run at 1 thread, private (their baseline runs there); add 1 to --threads and private to --modes"
	local why="run at 1 thread, private: not in this sweep (--threads $threads --modes $modes)"
	[ ${#dropped[@]} -eq 0 ] || say "forms ${dropped[*]} $why"
	if [ -n "$(filler_cases)" ]; then
		say "the realistic series (with filler) and its baseline $why"
		cases=$(tr , '\n' <<<"$cases" | awk -F: '$3 == 0' | paste -sd,)
	fi
	[ "$calibrate" = 1 ] || say "form mark (the sites' own mark, the baseline) $why"
}

# What a run's numbers depend on besides the options: --resume refuses to
# mix them. The compiler and flags are the build's (CMakeLists.txt: -O2 -g).
build_identity() {
	local commit
	commit=$(git -C "$top" rev-parse HEAD 2>/dev/null || echo unknown)
	if [ "$commit" != unknown ] && [ -n "$(git -C "$top" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
		commit="$commit+modified"
	fi
	build_commit=$commit
	local c seen=""
	build_cc=""
	for c in $(list_builds | cut -f2 | sed 's/^$/cc/' | awk '!s[$0]++'); do
		build_cc+="${build_cc:+; }$("$c" --version 2>/dev/null | head -n 1)"
	done
	build_cflags=${cflags_list:-"-O2 -g (CMAKE_C_FLAGS_RELEASE)"}
	[ "$lto" = 1 ] && build_cflags+=" with LTO of the callers"
	# The lock CMake was configured with (CMakeLists.txt's default is tas).
	build_lock=$(sed -n 's/^IC_LOCK:STRING=//p' "$(build_field 0 1)/CMakeCache.txt" 2>/dev/null || true)
	: "${build_lock:=tas}"
}

conf_vars=(sites forms ops layouts orders fillers cases seed per_caller vectorised ccs cflags_list lto body
	threads modes reps min_time counters
	layouts_random layout_seed processes repeat trials quick find_crossover calibrate
	plant compare baseline build_commit build_cc build_cflags build_lock)

# The settings a run depends on; saved so --resume repeats them exactly.
save_conf() {
	local f=$1
	declare -p "${conf_vars[@]}" >"$f.tmp" && mv "$f.tmp" "$f"
}

# load_conf DIR: the run's settings; an option given now must say the same.
load_conf() {
	local conf=$1/run.conf name
	declare -A now=()
	for name in "${!given[@]}"; do now[$name]=${given[$name]}; done
	# declare -p wrote them; -g keeps them global when read inside this function.
	# shellcheck disable=SC1090
	. <(sed -E 's/^declare (-[^ ]*)/declare -g \1/' "$conf") || fail "--resume: cannot read $conf"
	for name in "${!now[@]}"; do
		[ "${now[$name]}" = "${!name-}" ] ||
			die "--resume: --${name//_/-} ${now[$name]} contradicts $conf (${name}=${!name-}); leave it out to resume"
	done
	local c=${build_commit-} k=${build_cc-} l=${build_lock-}
	build_identity
	[ "$c" = "$build_commit" ] ||
		fail "--resume: $1 was measured at commit $c, this tree is $build_commit: a resumed sweep must not mix builds"
	[ "$k" = "$build_cc" ] || fail "--resume: $1 was built with '$k', this machine has '$build_cc'"
	[ "$l" = "$build_lock" ] || fail "--resume: $1 used lock $l, the build has $build_lock"
}

point_specs() {   # every point of the sweep, as gen specs (filler last, when > 0)
	local f o c l r x max n s sfx
	for o in ${ops//,/ }; do for c in ${cases//,/ }; do
		IFS=: read -r l r x max <<<"$c"
		s=0; [ "$r" = random ] && s=$seed
		sfx=""; [ "$x" -gt 0 ] && sfx=":$x"
		for f in ${build_forms//,/ }; do for n in "${site_list[@]}"; do
			[ "${max:-0}" -gt 0 ] && [ "$n" -gt "$max" ] && continue
			echo "$f:$o:$l:$r:$s:$n$sfx"
		done; done
	done; done
}

# ---- builds --------------------------------------------------------------------

# The sweep's builds, one "dir<TAB>compiler<TAB>flags" line each: every
# compiler of --cc with every flag set of --cflags (empty: the defaults,
# the system's cc and -O2). The default build is build/; the others are
# named by what makes them, so each keeps its objects between runs.
list_builds() {
	local c f cl fl name
	IFS=, read -ra cl <<<"$ccs"
	[ ${#cl[@]} -gt 0 ] || cl=("")
	IFS=';' read -ra fl <<<"$cflags_list"
	[ ${#fl[@]} -gt 0 ] || fl=("")
	for c in "${cl[@]}"; do for f in "${fl[@]}"; do
		f=$(sed 's/^[[:space:]]*//; s/[[:space:]]*$//' <<<"$f")
		name=build
		[ -n "$c" ] && name+="-$c"
		[ -n "$f" ] && name+="-$(tr -cs 'A-Za-z0-9=.+\n' _ <<<"$f" | sed 's/^_*//; s/_*$//')"
		[ "$lto" = 1 ] && name+="-lto"
		[ -n "$body" ] && name+="-body-$(basename "$body" .c)"
		printf '%s\t%s\t%s\n' "$name" "$c" "$f"
	done; done
}
# build_field I FIELD: field 1 (dir), 2 (compiler) or 3 (flags) of build I (0-based).
build_field() { list_builds | sed -n "$(($1 + 1))p" | cut -f"$2"; }
build_count() { list_builds | wc -l; }

# build_args COMPILER FLAGS: what a build adds to the release arguments.
build_args() {
	local a=()
	[ -z "$1" ] || a+=("-DCMAKE_C_COMPILER=$1")
	[ -z "$2" ] || a+=("-DIC_CFLAGS=$2")
	[ "$lto" = 1 ] && a+=(-DIC_LTO=ON)
	[ -z "$body" ] || a+=("-DIC_BODY=$body")
	[ ${#a[@]} -eq 0 ] || printf '%s\n' "${a[@]}"
}

# The layout seed of repeat r (1-based); each repeat gets its own variants.
repeat_seed() { echo $(((layout_seed + $1 - 1) % 4294967296)); }

seed_list() {
	local r s=""
	for ((r = 1; r <= repeat; r++)); do s+="$(repeat_seed $r);"; done
	echo "${s%;}"
}

# variant_bin REPEAT VARIANT BUILD-DIR: the binary of variant v in repeat r.
variant_bin() {
	if [ "$2" -eq 0 ]; then echo "$3/bench/sites_bench"; else echo "$3/bench/sites_bench_l$(repeat_seed "$1")_v$2"; fi
}

build_points() {
	local specs seeds=0 d c f extra
	specs=$(point_specs | paste -sd';')
	[ "$layouts_random" -gt 1 ] && seeds=$(seed_list)
	while IFS=$'\t' read -r d c f; do
		mapfile -t extra < <(build_args "$c" "$f")
		[ "$(build_count)" -gt 1 ] && say "build $d (${c:-cc}, ${f:--O2})"
		mkdir -p "$d"
		# release_args' words split; a flag set stays one argument.
		# shellcheck disable=SC2046
		configure "$d" $(release_args "$specs" "$layouts_random" "$seeds") "${extra[@]}"
		build "$d" --target sites_bench sites_bench_layouts summarize
	done < <(list_builds)
}

# The benchmark filter of the sweep's points: every form, N, threads, mode.
sweep_filter() {   # sweep_filter [N-LIST]
	# The built forms: the compared ones, the controls and mark (sites_bench
	# registers mark and the nolock forms at 1 thread, private, only).
	local flist=${build_forms//,/|} nlist=${1:-}
	[ "$calibrate" = 1 ] && flist="extern|extern_plant[0-9.]+"
	[ -n "$nlist" ] || nlist=$(IFS='|'; echo "${site_list[*]}")
	local c l o x max m t alt="" runs="" nl
	# The (mode, threads) pairs: a shared queue with one thread measures the
	# private case again, so it runs only in a sweep without private.
	for m in ${modes//,/ }; do for t in ${threads//,/ }; do
		[ "$m" = shared ] && [ "$t" = 1 ] && [[ ,$modes, == *,private,* ]] && continue
		runs+="|$m/real_time/threads:$t"
	done; done
	# Filler series run at 1 thread, private (sites_bench registers them so).
	for c in ${cases//,/ }; do
		IFS=: read -r l o x max <<<"$c"
		nl=$nlist
		[ "${max:-0}" -gt 0 ] && nl=$(tr '|' '\n' <<<"$nlist" | awk -v m="$max" '$1 <= m' | paste -sd'|')
		[ -n "$nl" ] || continue
		if [ "$x" -gt 0 ]; then alt+="|$l/$o/($nl)/private/filler:$x/real_time/threads:1"
		else alt+="|$l/$o/($nl)/(${runs#|})"; fi
	done
	echo "^sites/($flist)/(${ops//,/|})/(${alt#|})\$"
}

# Simulated counts come from the ordinary link, once per results directory:
# every process then reads the same counts (bench/sim.h).
# Each build has its own code, so its own simulated counts.
sim_cache() { if [ "$1" -eq 0 ]; then echo "$dir/sim.csv"; else echo "$dir/sim-b$1.csv"; fi; }
counter_source=""
decide_counters() {
	[ -n "$counter_source" ] && return 0
	local b src log
	for ((b = 0; b < $(build_count); b++)); do
		log=$dir/log/counters.txt
		[ "$b" -eq 0 ] || log=$dir/log/counters-b$b.txt
		src=$("$(build_field "$b" 1)/bench/sites_bench" --counters="$counters" --threads="$threads" --modes="$modes" \
			--sim-cache="$(sim_cache "$b")" --benchmark_filter="$(sweep_filter)" --sim-only 2>"$log") ||
			{ tail -n 5 "$log" >&2; fail "deciding the counter source failed; log: $log"; }
		[ "$b" -gt 0 ] || { counter_source=$src; grep '^inlinecost:' "$log" >&2 || true; }
	done
	say "counters: $counter_source"
}

# run_process KEY REPEAT VARIANT PROCESS BUILD [N-LIST]: one process of the
# sweep, every point of one build, forms and points interleaved at random by
# Google Benchmark; under a random environment pad, which moves the stack.
run_process() {
	local key=$1 r=$2 v=$3 p=$4 b=$5 nlist=${6:-}
	local file="$dir/raw/$key.json" bin ctr=$counters
	[ -s "$file" ] && return 0
	bin=$(variant_bin "$r" "$v" "$(build_field "$b" 1)")
	# Only the ordinary link carries the simulated counts (decide_counters).
	[ "$v" -gt 0 ] && [ "$counter_source" = sim ] && ctr=none
	local args=(--counters="$ctr" --threads="$threads" --modes="$modes" --sim-cache="$(sim_cache "$b")"
		--process="$p" --benchmark_filter="$(sweep_filter "$nlist")" --benchmark_repetitions="$reps"
		--benchmark_enable_random_interleaving=true --benchmark_min_time="$min_time"
		--benchmark_out="$file.tmp" --benchmark_out_format=json --benchmark_format=console)
	[ -n "$plant" ] && args+=(--plant="$plant")
	local pad
	pad=$(head -c "$((RANDOM % 4096))" /dev/zero | tr '\0' x)
	if ! IC_ENV_PAD=$pad "$bin" "${args[@]}" >"$dir/log/$key.txt" 2>&1; then
		rm -f "$file.tmp"
		say "process $key failed; its log: $dir/log/$key.txt"
		tail -n 5 "$dir/log/$key.txt" >&2
		return 1
	fi
	mv "$file.tmp" "$file"
}

# run_processes PREFIX [N-LIST]: every process of the design not yet on disk,
# in an order shuffled from the layout seed, with progress. Keys:
# PREFIX [b<build>_]r<repeat>_v<variant>_p<process> (b only with several builds).
run_processes() {
	local prefix=$1 nlist=${2:-} r v p b bp nb list=() total i=0 done_s=0 done_n=0 start eta key
	nb=$(build_count)
	for ((b = 0; b < nb; b++)); do
		bp=""; [ "$nb" -gt 1 ] && bp="b${b}_"
		for ((r = 1; r <= repeat; r++)); do for ((v = 0; v < layouts_random; v++)); do
			for ((p = 0; p < processes; p++)); do list+=("${prefix}${bp}r${r}_v${v}_p${p} $r $v $p $b"); done
		done; done
	done
	mapfile -t list < <(printf '%s\n' "${list[@]}" |
		awk -v s="$layout_seed" 'BEGIN { srand(s % 2147483647) } { print rand() "\t" $0 }' | sort -k1,1g | cut -f2-)
	total=${#list[@]}
	for g in "${list[@]}"; do
		i=$((i + 1))
		set -- $g
		[ -s "$dir/raw/$1.json" ] && continue
		if [ $done_n -gt 0 ]; then eta="ETA $(((total - i + 1) * done_s / done_n))s"; else eta="ETA -"; fi
		printf '%s: [%d/%d] process %s (repeat %s, layout variant %s)%s %s\n' "$prog" "$i" "$total" "$1" "$2" "$3" \
			"${nlist:+, N = ${nlist//|/,}}" "$eta" >&2
		start=$SECONDS
		run_process "$1" "$2" "$3" "$4" "$5" "$nlist" || return 1
		done_s=$((done_s + SECONDS - start)); done_n=$((done_n + 1))
	done
}

# summarise_into DIR FILES...: summarize and draw into a new report
# directory, then swap it in as a set: DIR/report points to it, and the
# files users open (DIR/summary.md, DIR/plots, ...) link through it. A failed
# draw leaves the new report without charts, never with the old ones.
report_files=(benchmark.json points.csv ratios.csv crossover.csv summary.md calibration.csv plots)
summarise_into() {
	local d=$1; shift
	local args=(--compare "$compare" --baseline "$baseline") new old f
	[ -n "${planted:-}" ] && args+=(--planted "$planted")
	[ $# -gt 0 ] || fail "no finished processes to summarise in $d"
	mkdir -p "$d"
	new=$(mktemp -d "$d/.report.XXXXXX")
	"$(build_field 0 1)/plots/summarize" "${args[@]}" --out "$new" "$@" || { rm -rf "$new"; fail "summarize failed on $d"; }
	if [ -n "${no_charts:-}" ]; then
		:   # calibration trials: only their tables are read
	elif ! command -v gnuplot >/dev/null; then
		say "no gnuplot: results are written; for plots: apt-get install gnuplot-nox, then plots/draw.sh $d/report"
	elif ! plots/draw.sh "$new"; then
		rm -f "$new"/plots/*.png "$new"/plots/*.svg
		say "plots failed; the new results are in $d without charts"
	fi
	old=$(readlink "$d/report" 2>/dev/null || true)
	ln -sfn "$(basename "$new")" "$d/.report.link" && mv -T "$d/.report.link" "$d/report"
	for f in "${report_files[@]}"; do
		[ -L "$d/$f" ] || [ ! -e "$new/$f" ] || ln -sfn "report/$f" "$d/$f"
	done
	[ -n "$old" ] && [ "$old" != "$(basename "$new")" ] && rm -rf "${d:?}/$old"
	return 0
}

raw_files() {   # raw_files GLOB: the finished process files matching it
	shopt -s nullglob
	local files=("$dir"/raw/$1.json)
	shopt -u nullglob
	printf '%s\n' "${files[@]}"
}

summarise() {
	local files
	mapfile -t files < <(raw_files '*')
	summarise_into "$dir" "${files[@]}"
	if [ "$repeat" -gt 1 ]; then
		local r
		for ((r = 1; r <= repeat; r++)); do
			mapfile -t files < <(raw_files "*r${r}_v*")   # every build's
			summarise_into "$dir/repeat$r" "${files[@]}"
		done
		repeatability
	fi
}

# agreement OUT DIR...: how far K runs' answers agree (--repeat, and
# ./run.sh agree). DIR holds report/{ratios,crossover,points}.csv. Writes
# OUT/repeat.{md,csv,dat}: per series each run's verdict and bracket, per N
# each run's ratio with its interval and the ratio's spread (max / min over
# runs), and how often one run's 95% interval holds another's estimate
# (every ordered pair of runs; the same for the time per call site).
agreement() {
	local out=$1; shift
	local files=() d
	for d in "$@"; do files+=("$d/report/ratios.csv" "$d/report/crossover.csv" "$d/report/points.csv"); done
	for d in "${files[@]}"; do [ -f "$d" ] || fail "agreement: $d missing"; done
	awk -F, -v K="$#" -v csv="$out/repeat.csv" -v md="$out/repeat.md" -v dat="$out/repeat.dat" '
		FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i
			kind = ("ratio" in c) ? "r" : ("verdict" in c) ? "x" : "p"; if (kind == "r") run++; next }
		{ series = $c["op"] "/" $c["layout"] "/" $c["order"] "/" $c["threads"] "/" $c["mode"]
		  if (("filler" in c) && $c["filler"] + 0 > 0) series = series "/filler:" $c["filler"] }
		kind == "r" {
			if (!(series in seen)) { seen[series] = 1; order[++ns] = series }
			n = $c["sites"]; key = series SUBSEP n
			if (!(key in nseen)) { nseen[key] = 1; nl[series] = nl[series] " " n }
			ratio[key, run] = $c["ratio"]; lo[key, run] = $c["ratio_ci_lo"]; hi[key, run] = $c["ratio_ci_hi"]
			side[key, run] = $c["faster"]
		}
		kind == "x" { verdict[series, run] = $c["verdict"]; blo[series, run] = $c["bracket_lo"]; bhi[series, run] = $c["bracket_hi"] }
		kind == "p" { key = series SUBSEP $c["form"] SUBSEP $c["sites"]; pk[key] = 1
			pe[key, run] = $c["ns_per_op"]; pl[key, run] = $c["ns_ci_lo"]; ph[key, run] = $c["ns_ci_hi"] }
		function covers(l, h, x) { return l != "" && x != "" && l + 0 <= x + 0 && x + 0 <= h + 0 }
		END {
			print "series,sites,runs,ratio_min,ratio_max,spread,covered_pairs,pairs,sides" > csv
			printf "# Agreement of %d runs of the same sweep\n\n", K > md
			print "A pair (i, j) of runs is covered at N when run i'"'"'s 95% interval holds run j'"'"'s estimate; every ordered pair counts.\n" > md
			tc = 0; tp = 0
			for (s = 1; s <= ns; s++) {
				S = order[s]
				printf "## %s\n\nCrossover:", S > md
				for (k = 1; k <= K; k++) printf " run %d %s%s;", k, verdict[S, k], (blo[S, k] != "" ? " (" blo[S, k] ", " bhi[S, k] ")" : "") > md
				print "\n\n| N | ratio [95% CI] per run | spread | covered pairs | sides |" > md
				print "|---:|---|---:|---:|---|" > md
				m = split(substr(nl[S], 2), list, " ")
				for (i = 1; i <= m; i++) {
					n = list[i]; key = S SUBSEP n; mn = ""; mx = ""; rs = ""; sd = ""; cov = 0; pairs = 0
					for (k = 1; k <= K; k++) {
						if (ratio[key, k] == "") continue
						if (mn == "" || ratio[key, k] + 0 < mn) mn = ratio[key, k] + 0
						if (mx == "" || ratio[key, k] + 0 > mx) mx = ratio[key, k] + 0
						rs = rs sprintf("%s%.3f [%s–%s]", rs == "" ? "" : "; ", ratio[key, k], lo[key, k] == "" ? "?" : sprintf("%.3f", lo[key, k]), hi[key, k] == "" ? "?" : sprintf("%.3f", hi[key, k]))
						sd = sd (sd == "" ? "" : " ") side[key, k]
						for (j = 1; j <= K; j++) if (j != k && ratio[key, j] != "") { pairs++; cov += covers(lo[key, k], hi[key, k], ratio[key, j]) }
					}
					tc += cov; tp += pairs
					printf "%s,%s,%d,%s,%s,%s,%d,%d,%s\n", S, n, K, mn, mx, (mn > 0 ? sprintf("%.4f", mx / mn) : ""), cov, pairs, sd > csv
					printf "| %s | %s | %s | %d/%d | %s |\n", n, rs, (mn > 0 ? sprintf("%.3f", mx / mn) : "—"), cov, pairs, sd > md
					printf "%s %s %d", n, (mn > 0 ? mx / mn : "NaN"), s > dat
					for (k = 1; k <= K; k++) printf " %s", (ratio[key, k] == "" ? "NaN" : ratio[key, k]) > dat
					printf "\n" > dat
				}
				print "" > md
				printf "\n\n" > dat
			}
			pc = 0; pp = 0
			for (key in pk) for (k = 1; k <= K; k++) for (j = 1; j <= K; j++)
				if (j != k && pe[key, j] != "" && pe[key, k] != "") { pp++; pc += covers(pl[key, k], ph[key, k], pe[key, j]) }
			printf "Ratios: %d of %d pairs covered (%.0f%%). Time per call site: %d of %d pairs covered (%.0f%%).\n", tc, tp, tp ? 100 * tc / tp : 0, pc, pp, pp ? 100 * pc / pp : 0 > md
			printf "array ic_series[%d]\n", ns > (dat ".gp")
			for (s = 1; s <= ns; s++) printf "ic_series[%d] = \"%s\"\n", s, order[s] > (dat ".gp")
		}' "${files[@]}"
	if command -v gnuplot >/dev/null; then
		gnuplot -e "ic_dir='$out'; ic_k=$#" plots/repeat.gp 2>"$out/.repeat-plot.log" ||
			say "agreement plot failed: $(tail -n 1 "$out/.repeat-plot.log")"
		rm -f "$out/.repeat-plot.log"
	fi
	rm -f "$out/repeat.dat.gp"
}

# --repeat: the agreement of the K runs, next to the pooled summary.
repeatability() {
	local r runs=() tmp
	for ((r = 1; r <= repeat; r++)); do runs+=("$dir/repeat$r"); done
	tmp=$(mktemp -d "$dir/.repeat.XXXXXX")
	agreement "$tmp" "${runs[@]}"
	for f in repeat.md repeat.csv repeat.dat repeat.png; do [ -f "$tmp/$f" ] && mv "$tmp/$f" "$dir/$f"; done
	rm -rf "$tmp"
	say "repeatability: $dir/repeat.md ($(tail -n 1 "$dir/repeat.md"))"
}

# ./run.sh agree DIR DIR...: the same for separate runs; prints, writes nothing.
run_agree() {
	[ $# -ge 2 ] || die "agree: give two or more results directories"
	local d tmp
	for d in "$@"; do [ -f "$d/report/ratios.csv" ] || die "agree: $d is not a results directory of run.sh (no report/ratios.csv)"; done
	tmp=$(mktemp -d)
	agreement "$tmp" "$@"
	cat "$tmp/repeat.md"
	rm -rf "$tmp"
}

# Measure the N inside each crossover bracket: the geometric midpoints of
# neighbouring sweep points in [A, B], with the same variants and processes
# as the sweep (the same binaries, rebuilt with the new points).
refine_crossover() {
	local step
	for step in 1 2 3 4; do
		local mids=() lo hi
		while IFS=, read -r lo hi; do
			local prev="" n
			for n in "${site_list[@]}"; do
				if [ "$n" -ge "$lo" ] && [ "$n" -le "$hi" ] && [ -n "$prev" ]; then
					local mid
					mid=$(awk -v a="$prev" -v b="$n" 'BEGIN{printf "%d", sqrt(a*b) + 0.5}')
					[ "$mid" -gt "$prev" ] && [ "$mid" -lt "$n" ] && mids+=("$mid")
				fi
				[ "$n" -ge "$lo" ] && prev=$n
			done
		done < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["verdict"] == "crossover" { print $c["bracket_lo"] "," $c["bracket_hi"] }' "$dir/crossover.csv" | sort -u)
		[ ${#mids[@]} -gt 0 ] || { say "crossover: nothing left to refine"; return 0; }
		mapfile -t mids < <(printf '%s\n' "${mids[@]}" | sort -nu)
		say "crossover: step $step, new N: ${mids[*]}"
		site_list+=("${mids[@]}")
		mapfile -t site_list < <(printf '%s\n' "${site_list[@]}" | sort -nu)
		sites=$(IFS=,; echo "${site_list[*]}")
		save_conf "$dir/run.conf"
		build_points
		run_processes "x${step}_" "$(IFS='|'; echo "${mids[*]}")" || return 1
		summarise
	done
}

# --calibrate: every trial is a whole design (variants x processes) with
# extern and three copies of it planted with 0%, 1% and 3% more time per
# pass. Each trial is summarised per planted copy; over the trials, how often
# the 95% interval holds the planted ratio (coverage) and how often it
# excludes 1 (for 0%: a false positive).
calibrate_plants=(0 0.01 0.03)
run_calibration() {
	local t
	for ((t = 1; t <= trials; t++)); do
		say "calibration: trial $t of $trials"
		run_processes "t${t}_" || return 1
	done
	local rows="$dir/.calibration.rows" pct f
	: >"$rows"
	for ((t = 1; t <= trials; t++)); do
		local files
		mapfile -t files < <(raw_files "t${t}_*")
		for f in "${calibrate_plants[@]}"; do
			pct=$(awk -v f="$f" 'BEGIN { printf "%g", f * 100 }')
			compare=extern_plant$pct baseline=extern planted=$f
			no_charts=1 summarise_into "$dir/trial$t/plant$pct" "${files[@]}" >/dev/null
			awk -F, -v t="$t" -v f="$f" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				{ print t "," f "," $c["ratio"] "," $c["ratio_ci_lo"] "," $c["ratio_ci_hi"] "," $c["excludes_1"] "," $c["contains_planted"] }' \
				"$dir/trial$t/plant$pct/report/calibration.csv" >>"$rows"
		done
	done
	{
		echo "trial,planted,ratio,ratio_ci_lo,ratio_ci_hi,excludes_1,contains_planted"
		cat "$rows"
	} >"$dir/calibration_trials.csv.tmp" && mv "$dir/calibration_trials.csv.tmp" "$dir/calibration_trials.csv"
	rm -f "$rows"
	awk -F, -v T="$trials" -v secs="$((SECONDS - calib_start))" -v design="$layouts_random variants x $processes processes x $reps reps of $min_time s" '
		NR == 1 { next }
		{ n[$2]++; cov[$2] += $7; ex[$2] += $6; sum[$2] += $3; w[$2] += $5 - $4 }
		END {
			print "# Calibration: coverage of the 95% interval\n"
			printf "%d trials at N = 256, 1 thread, private queue; each trial %s; %d s in all.\n\n", T, design, secs
			print "| planted | trials | mean ratio | mean width | holds the planted ratio | excludes 1 |"
			print "|---:|---:|---:|---:|---:|---:|"
			for (p in n) printf "| %g%% | %d | %.4f | %.4f | %d (%.0f%%) | %d (%.0f%%)%s |\n", p * 100, n[p], sum[p] / n[p], w[p] / n[p],
				cov[p], 100 * cov[p] / n[p], ex[p], 100 * ex[p] / n[p], p == 0 ? " false positives" : ""
		}' "$dir/calibration_trials.csv" >"$dir/calibration.md.tmp" && mv "$dir/calibration.md.tmp" "$dir/calibration.md"
	cat "$dir/calibration.md"
}

run_sweep() {
	plant="" compare=inline baseline=extern planted=""
	# clang comes from Debian when asked for.
	[[ ,$ccs, != *,clang,* ]] || packages+=(clang)
	ensure_packages   # first: the thread default counts cores with hwloc
	if [ -n "$resume" ]; then
		dir=$resume
		load_conf "$dir"
		planted=""
	else
		if [ "$quick" = 1 ]; then
			: "${sites:=1,64,1024}" "${reps:=3}" "${min_time:=0.005}" "${layouts_random:=1}" "${processes:=3}"
		fi
		if [ "$calibrate" = 1 ]; then
			: "${sites:=256}" "${threads:=1}"
			[ -z "${given[modes]:-}" ] || [ "$modes" = private ] || die "--calibrate runs 1 thread on a private queue only"
			modes=private forms=extern plant=$(IFS=,; echo "${calibrate_plants[*]}")
			compare=extern_plant3 baseline=extern
			# The planted copies are extern's at N = 256 in the chain, no filler.
			[ -z "${given[fillers]:-}" ] || [ "$fillers" = 0 ] || die "--calibrate runs without filler"
			given[fillers]=0
		fi
		resolve_cases
		if [ "$(build_count)" -gt 1 ] && [ "$calibrate" = 1 ]; then
			die "--calibrate runs one build: leave out the second --cc or --cflags"
		fi
		if [ "$lto" = 1 ]; then
			[[ ,$ccs, != *,clang,* ]] || die "--lto: gcc only (clang's LTO objects hold no machine code, so codesize cannot prove the forms)"
			# LTO writes the code in its own partitions: a layout script
			# that places the objects' sections would move nothing.
			[ -z "${layouts_random:-}" ] || [ "$layouts_random" = 1 ] ||
				die "--lto: one layout variant only (--layouts-random 1): LTO's code is not in the objects a layout places"
			: "${layouts_random:=1}" "${processes:=6}"
		fi
		if [ -n "$body" ]; then
			[ -z "${given[ops]:-}" ] || die "--ops: a --body run has one op, the body's own"
			ops=$(basename "$body" .c)
			[ -n "${given[forms]:-}" ] || forms=inline,extern,clone
			[[ ,$forms, != *_nolock* ]] || die "--forms: a body has no lock for the nolock forms to replace"
			# A body that does not compile: its first error, exit 1, nothing written.
			local b err
			for ((b = 0; b < $(build_count); b++)); do
				local bflags codegen=-mgeneral-regs-only
				bflags=$(build_field "$b" 3)
				[ "$vectorised" = 1 ] && codegen=""
				# shellcheck disable=SC2086 # a flag set is several words
				err=$(gen/body_check.sh "$body" "$(build_field "$b" 2 | sed 's/^$/cc/')" ${bflags:--O2} $codegen 2>&1) ||
					fail "--body: $(head -n 1 <<<"$err")"
			done
		fi
		# Defaults from this machine (README, "Time budget"): 6 variants x 2
		# processes x 3 reps of 0.03 s keep the sweep within 10 minutes.
		: "${sites:=1..16384}" "${reps:=3}" "${min_time:=0.03}" "${threads:=1,$(cores)}"
		: "${layouts_random:=6}" "${processes:=2}"
		[ "$threads" = "1,1" ] && threads=1
		[ -n "$layout_seed" ] || layout_seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
		if [ "$compare" = inline ] && [[ ",$forms," != *,inline,* || ",$forms," != *,extern,* ]]; then
			compare=${forms%%,*} baseline=${forms##*,}
		fi
	fi
	[ "$layouts_random" -gt 1 ] || [ "$processes" -gt 1 ] ||
		die "--layouts-random 1 with --processes 1: one process cannot give an interval; give 2 of either"
	mapfile -t site_list < <(expand_sites "$sites" | sort -nu)
	decide_build_forms
	# The environment pads follow the layout seed too.
	RANDOM=$((layout_seed % 32768))

	build_points

	if [ -z "$resume" ]; then
		build_identity
		dir=${out:-$top/results/$(date -u +%Y%m%dT%H%M%SZ)}
		# Not -p for the default: two runs in the same second must not share.
		if [ -n "$out" ]; then mkdir -p "$dir"; else mkdir -p results && mkdir "$dir" || die "$dir exists already; try again"; fi
		save_conf "$dir/run.conf"
	fi
	mkdir -p "$dir/raw" "$dir/log"
	trap 'rm -f "$dir"/raw/*.tmp; say "interrupted: finished processes are in $dir; continue with $prog --resume $dir"; exit 130' INT TERM
	say "results: $dir"
	say "series: $(tr , '\n' <<<"$cases" | awk -F: '{ printf "%s%s/%s%s", (NR > 1 ? ", " : ""), $1, $2, ($3 > 0 ? " with " $3 " B filler per site (1 thread, private" ($4 > 0 ? ", N up to " $4 : "") ")" : "") }'); forms: $build_forms"
	say "design: $layouts_random layout variant(s) (seed $layout_seed) x $processes process(es) x $reps reps of $min_time s$([ "$repeat" -gt 1 ] && echo ", $repeat repeats")"
	decide_counters
	if [ "$calibrate" = 1 ]; then
		calib_start=$SECONDS
		run_calibration || { say "stopped; finished processes are in $dir; continue with $prog --resume $dir"; exit 1; }
		return 0
	fi
	run_processes "" || { say "stopped; finished processes are in $dir; continue with $prog --resume $dir"; exit 1; }
	summarise
	if [ "$find_crossover" = 1 ]; then
		refine_crossover || { say "stopped; finished processes are in $dir; continue with $prog --resume $dir"; exit 1; }
	fi
	if [[ $dir == "$top"/results/* ]]; then
		ln -sfn "$(basename "$dir")" results/.latest.tmp && mv -T results/.latest.tmp results/latest
	fi
	# One file that holds the run, to copy to another machine for compare.
	compare/export.sh "$dir" >/dev/null || say "export of $dir failed; the results directory is complete"
	say "done: $dir/summary.md (all of it in one file: $dir.tar.gz)"
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
if [ "${1:-}" = compare ]; then
	shift
	cmp_out="" inputs=()
	while [ $# -gt 0 ]; do
		case $1 in
		--out) [ $# -ge 2 ] || die "--out needs a value"; cmp_out=$(abs_path "$2"); shift 2 ;;
		--out=*) cmp_out=$(abs_path "${1#--out=}"); shift ;;
		-*) die "compare: unknown option '$1'" ;;
		*) inputs+=("$(abs_path "$1")"); shift ;;
		esac
	done
	[ ${#inputs[@]} -ge 2 ] || die "compare: give two or more results directories or exported .tar.gz files"
	[ -n "$cmp_out" ] || cmp_out=$top/results/compare-$(date -u +%Y%m%dT%H%M%SZ)
	[ ! -e "$cmp_out" ] || die "compare: --out $cmp_out exists already"
	exec "$top/compare/compare.sh" --out "$cmp_out" "${inputs[@]}"
fi
if [ "${1:-}" = export ]; then
	shift
	[ $# -eq 1 ] || die "export: give one results directory"
	exec "$top/compare/export.sh" "$(abs_path "$1")"
fi
if [ "${1:-}" = agree ]; then
	shift
	dirs=()
	for d in "$@"; do dirs+=("$(abs_path "$d")"); done
	run_agree "${dirs[@]}"
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
