#!/usr/bin/env bash
# inlinecost: set up, build, sweep, summarise, plot. `./run.sh --help` for
# options; README.md for what the parts are. This file only dispatches: the
# work is in scripts/ (one job each):
#   common.sh   messages, locks, progress lines, rules several parts share
#   setup.sh    the Debian packages, installed when missing
#   options.sh  the sweep's options, every one checked before anything is done
#   plan.sh     the builds, series, points and run.conf of a sweep
#   build.sh    configure and build a tree (output to its logs), layout variants
#   sweep.sh    the sweep: counters, processes, crossover steps, calibration
#   report.sh   summary and charts, --repeat agreement, calibration tables
#   tests.sh, micro.sh, codesize.sh, inlines.sh, watch.sh
#               ./run.sh test, micro, codesize, inlines, watch and history
set -euo pipefail
# One locale for everything we run, whatever the user's (a fresh machine has
# none): sort, awk and the programs then say the same everywhere. gnuplot
# alone runs under C.UTF-8 (report/draw.sh, common/gnuplot_run.h).
export LC_ALL=C
unset LANGUAGE

# Paths the user gives are taken from where they ran us, before the cd.
caller_pwd=$PWD
top=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$top"
# The load before this run starts anything (set-up, build), for the
# machine's state (sweep_main hands it on): its own build is not other work.
run_loadavg=$(head -n 1 /proc/loadavg 2>/dev/null || true)
prog=./run.sh
# Recorded in every lock we hold, so a second run can name us.
cmdline="$prog $*"

for f in common setup options plan build sweep report tests micro codesize inlines watch; do
	# shellcheck disable=SC1090
	. "$top/scripts/$f.sh"
done

usage() {
	cat <<'USAGE'
Usage: ./run.sh [options]      set up what is missing, build, run the sweep,
                               write results/<UTC timestamp>/ and plots
       ./run.sh test           set up, build, run the tests of behaviour
                               (release build, in parallel; fast)
       ./run.sh test --all     every test: those that measure too, and the
                               ThreadSanitizer and Address+UB sanitizer
                               builds (what CI runs)
       ./run.sh SUBCOMMAND --help   what a subcommand takes
       ./run.sh micro          the queue and C API microbenchmarks (README figures)
       ./run.sh codesize [--sites ..] [--ops ..] [--layouts ..] [--orders ..] [--filler ..]
                               code bytes per form vs N beside the L1i and L2
       ./run.sh inlines BINARY [--function NAME ...]
                               the inlined copies in a program's DWARF per
                               function, each named one priced on
                               results/latest's curve (docs/inlines.md)
       ./run.sh compare [--out DIR] RUN RUN...
                               runs from other machines, compilers or commits
                               side by side (RUN: a results directory or its
                               .tar.gz): brackets, ratios per N, overlaid plots
                               in results/compare-<UTC timestamp>/
       ./run.sh export DIR     DIR.tar.gz: one file holding a run (the sweep
                               writes it too)
       ./run.sh agree [--margin PCT] [--out DIR] RUN RUN...
                               whether separate runs agree: per series and N
                               equivalent (within 3%), differ or cannot tell,
                               and each run's bracket (prints; --out DIR also
                               writes the detail)
       ./run.sh watch [--minutes M] [--out DIR]
                               whether this machine can give one answer: a
                               sentinel's states over M minutes (default 2),
                               in short processes and one long one
       ./run.sh history [--results DIR]
                               this machine's runs, newest first: design,
                               each series' crossover bracket and states
       ./run.sh report DIR     a run's summary and charts made anew from its
                               processes with this tree's code
       ./run.sh --help         this text

Sweep options (defaults in brackets):
  --sites LIST|A..B   call-site counts: a list 1,64,4096 or a range of powers
                      of two 1..16384                          [1..16384]
  --forms LIST        inline,hint,extern,clone,inline_nolock,extern_nolock:
                      the forms; inline/extern is the ratio compared, clone
                      and the nolock forms are the controls the summary's
                      attribution reads (nolock: 1 thread, private only;
                      unless --sites is given, the controls and the mark
                      run at the powers of 4 up to 4096 only:
                      1, 4, 16, ... 4096);
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
                      Filler series run at 1 thread, private, and are
                      judged as whole programs (gross times)       [0]
                      Default, when none of --layouts, --orders and
                      --filler is given: two series, chain/seq/0 and the
                      realistic scatter/random/auto; otherwise every
                      combination of the three lists. Unless --sites is
                      given, a series' N stops at the first power of two
                      where N x (filler + 128 B) passes the L2
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
  --codegen LIST      user,vectorised,kernel: how sites and queue are
                      compiled, each its own build and series: user (no
                      vector registers, -mgeneral-regs-only), vectorised
                      (gcc may use vector registers, as a user-space -O2
                      build does), kernel (as the kernel builds)      [user]
  --vectorised        the same as --codegen vectorised
  --return-thunk LIST ret,retbleed,srso: how functions return (the kernel's
                      mitigations), each its own build and series
                                                       [the build's default]
  --threads LIST      thread counts                            [1,<physical cores>]
  --modes LIST        private,shared: one queue per thread, or one queue
                      all threads share; shared at 1 thread is the private
                      case, run only when private is not. Not shared by
                      default: on a VM its answer moved between runs more
                      than its intervals allow (README)          [private]
  --layouts-random L  layout variants: L links of the same objects, each in
                      a seeded random code layout                  [8; --quick 1]
  --layout-seed S     seed of the layout variants and of the order the
                      processes run in                     [drawn at random]
  --processes P       processes per layout variant             [2; --quick 3]
  --reps R            repetitions per point in each process, all forms
                      and points interleaved at random; at least 3   [3]
  --min-time S        seconds per repetition                   [0.015]
  --counters MODE     auto|papi|sim|none: hardware counters via PAPI, the
                      valgrind L1i simulation, or none; auto = PAPI where it
                      can count, else simulated                [auto]
  --out DIR           results directory            [results/<UTC timestamp>]
  --resume DIR        run only the processes missing from DIR with its
                      settings (other options must agree), then rebuild its
                      summary and plots
  --repeat K          run the whole sweep K times, interleaved, each with its
                      own layout seed; report how the bracket and each ratio
                      spread across the K runs; from K = 3 the run is the
                      top level of every interval (with 2, the layout
                      variant stays the cluster)                   [1]
  --spread MINUTES    with --repeat K: run the repeats one after the other,
                      their starts MINUTES apart from first to last (each
                      --find-crossover step too), the machine free to
                      others between them                          [off]
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

The terminal gets one line per phase (setup, build k/n, counters,
measurement k/n, report) with the time the run has left, once the built
bench has said what it runs (results/<run>/plan.tsv); build output goes to
BUILD/build.log. A build tree and a results directory have one user at a
time: a second run waits for the tree, and refuses a results directory in use.
One measurement at a time on a machine, whatever the tree or user: the
counters, the processes and ./run.sh micro hold the machine lock
(/tmp/inlinecost-measure.lock; builds do not), and a run that has to wait
says for whom.

Results: results/<run>/summary.md, verdict.txt and verdict.json (the
verdict per series, also printed last; docs/verdict-json.md), points.csv,
ratios.csv, crossover.csv,
benchmark.json (Google Benchmark JSON, readable by its tools/compare.py) and
plots/*.png|svg (links into report/, replaced as a set); raw/ holds one JSON
per process. results/latest points to the newest run.
USAGE
}
sweep_usage() { usage; }

# compare and agree are programs of the build tree (compare/); export is a
# script there. Their arguments are checked here first, paths taken from
# where the user ran us, so that bad usage builds nothing.

compare_usage() {
	cat <<'USAGE'
Usage: ./run.sh compare [--out DIR] RUN RUN...

Puts runs from other machines, compilers or commits side by side. RUN is a
results directory of ./run.sh or its .tar.gz (./run.sh export DIR; every
sweep writes one beside its directory). Each run is read from its run.conf
and its processes' raw JSON and analysed as its own summary was.

Writes, into DIR (default results/compare-<UTC timestamp>), whole or not at all:
  compare.md    what differs between the runs, what is not in all of them,
                and per series each run's crossover bracket and its ratio
                per N with the 95% interval
  compare.csv   the same ratios, one row per series, N and run
  compare.png, compare.svg   the ratios overlaid, one panel per series
                (with gnuplot), from plots/data.gp and plots/compare.dat
A setting that defines a point (lock, codegen, sites per caller, compiler,
flags) keeps the runs' series apart and labelled, never averaged.

Exit status: 0 written; 2 bad usage or a RUN that is not a run (nothing
written); 1 no series and N in common, or the output could not be written.
USAGE
}
agree_usage() {
	cat <<'USAGE'
Usage: ./run.sh agree [--margin PCT] [--out DIR] RUN RUN...

How far separate runs of the same sweep agree. RUN is a results directory of
./run.sh or its .tar.gz export. Per series (one build's) and N, each pair of
runs gets a verdict on the ratio of their ratios: equivalent when its 90%
interval lies within the margin, differ when its 95% interval excludes 1,
else cannot tell (too noisy to say). Over a series' N: equivalent at every N,
and a test of any difference (the largest |t| over N against its permutation
distribution). A series whose processes split into two states is compared
state by state too, and each run's crossover bracket is shown.

Options:
  --margin PCT   the equivalence margin on the ratio, in percent      [3]
  --out DIR      also write DIR/repeat.md (the detail; its last line the
                 summary), repeat.csv, repeat.dat and repeat.png, whole or
                 not at all; without it nothing is written

Exit status: 0 done; 2 bad usage or a RUN that is not a run (nothing
written); 1 no series in two of the runs, or the output could not be
written.
USAGE
}

# compare_program NAME: build/cmd/NAME, built when missing or stale (a
# first build configures build/ as ./run.sh test --all does).
compare_program() {
	ensure_packages
	build_tree_ready
	build build "$1"
	echo "$top/build/cmd/$1"
}

# compare_args NAME VALUED-OPTIONS ARGS...: ARGS with every path made
# absolute, into cargs; exits 2 on an unknown option or fewer than two runs.
compare_args() {
	local name=$1 valued=$2 runs=0; shift 2
	cargs=()
	while [ $# -gt 0 ]; do
		case $1 in
		-h | --help) "${name}_usage"; exit 0 ;;
		--*=*) set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
		esac
		case $1 in
		-*) [[ " $valued " == *" $1 "* ]] || die "$name: unknown option '$1' (see ./run.sh $name --help)."
			[ $# -ge 2 ] && [ -n "$2" ] || die "$name: $1 needs a value."
			cargs+=("$1" "$2"); shift 2; continue ;;
		esac
		cargs+=("$(abs_path "$1")"); runs=$((runs + 1)); shift
	done
	[ $runs -ge 2 ] || die "$name: give two or more results directories or their .tar.gz exports (see ./run.sh $name --help)."
	local i
	for i in "${!cargs[@]}"; do
		[ "${cargs[$i]}" != --out ] || cargs[i + 1]=$(abs_path "${cargs[i + 1]}")
	done
}

compare_main() {
	compare_args compare "--out" "$@"
	[[ " ${cargs[*]} " == *" --out "* ]] || cargs=(--out "$top/results/compare-$(date -u +%Y%m%dT%H%M%SZ)" "${cargs[@]}")
	local prog_path
	prog_path=$(compare_program compare)
	exec "$prog_path" "${cargs[@]}"
}
agree_main() {
	compare_args agree "--out --margin" "$@"
	local prog_path
	prog_path=$(compare_program agree)
	exec "$prog_path" "${cargs[@]}"
}
export_main() {
	case ${1:-} in -h | --help) echo "Usage: ./run.sh export DIR   writes DIR.tar.gz beside DIR: one file holding the run, links resolved, for ./run.sh compare and agree on another machine."; exit 0 ;; esac
	[ $# -eq 1 ] || die "export: give one results directory (see ./run.sh export --help)."
	exec "$top/compare/export.sh" "$(abs_path "$1")"
}

main() {
	case ${1:-} in
	test) shift; tests_main "$@" ;;
	micro) shift; micro_main "$@" ;;
	codesize) shift; codesize_main "$@" ;;
	inlines) shift; inlines_main "$@" ;;
	compare) shift; compare_main "$@" ;;
	export) shift; export_main "$@" ;;
	agree) shift; agree_main "$@" ;;
	watch) shift; watch_main "$@" ;;
	history) shift; history_main "$@" ;;
	report) shift; report_main "$@" ;;
	help) usage ;;
	*) sweep_main "$@" ;;
	esac
}
# One line: bash has read all of it before it runs, so editing this file
# during a long sweep cannot feed the running shell a stray line.
main "$@"; exit
