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
#   tests.sh, micro.sh, codesize.sh   ./run.sh test, micro, codesize
set -euo pipefail

# Paths the user gives are taken from where they ran us, before the cd.
caller_pwd=$PWD
top=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$top"
prog=./run.sh
# Recorded in every lock we hold, so a second run can name us.
cmdline="$prog $*"

for f in common setup options plan build sweep report tests micro codesize; do
	# shellcheck disable=SC1090
	. "$top/scripts/$f.sh"
done

usage() {
	cat <<'USAGE'
Usage: ./run.sh [options]      set up what is missing, build, run the sweep,
                               write results/<UTC timestamp>/ and plots
       ./run.sh test           set up, build, run every test (release,
                               ThreadSanitizer, Address+UB sanitizer builds)
       ./run.sh SUBCOMMAND --help   what a subcommand takes
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
       ./run.sh agree RUN RUN...
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

The terminal gets one line per phase (setup, build k/n, counters,
measurement k/n, report) with the time the run has left, once the built
bench has said what it runs (results/<run>/plan.tsv); build output goes to
BUILD/build.log. A build tree and a results directory have one user at a
time: a second run waits for the tree, and refuses a results directory in use.
One measurement at a time on a machine, whatever the tree or user: the
counters, the processes and ./run.sh micro hold the machine lock
(/tmp/inlinecost-measure.lock; builds do not), and a run that has to wait
says for whom.

Results: results/<run>/summary.md, points.csv, ratios.csv, crossover.csv,
benchmark.json (Google Benchmark JSON, readable by its tools/compare.py) and
plots/*.png|svg (links into report/, replaced as a set); raw/ holds one JSON
per process. results/latest points to the newest run.
USAGE
}
sweep_usage() { usage; }

# The subcommands that only hand over to compare/ check their arguments
# here: paths are the caller's.
compare_main() {
	local out="" inputs=()
	while [ $# -gt 0 ]; do
		case $1 in
		-h | --help) exec "$top/compare/compare.sh" --help ;;
		--out) [ $# -ge 2 ] && [ -n "$2" ] || die "compare: --out needs a directory"; out=$(abs_path "$2"); shift 2 ;;
		--out=*) [ -n "${1#--out=}" ] || die "compare: --out needs a directory"; out=$(abs_path "${1#--out=}"); shift ;;
		-*) die "compare: unknown option '$1' (see ./run.sh compare --help)" ;;
		*) inputs+=("$(abs_path "$1")"); shift ;;
		esac
	done
	[ ${#inputs[@]} -ge 2 ] || die "compare: give two or more results directories or exported .tar.gz files"
	[ -n "$out" ] || out=$top/results/compare-$(date -u +%Y%m%dT%H%M%SZ)
	[ ! -e "$out" ] || die "compare: --out $out exists already"
	exec "$top/compare/compare.sh" --out "$out" "${inputs[@]}"
}
export_main() {
	case ${1:-} in -h | --help) echo "Usage: ./run.sh export DIR   DIR.tar.gz beside DIR: one file holding a run (links resolved)"; exit 0 ;; esac
	[ $# -eq 1 ] || die "export: give one results directory"
	exec "$top/compare/export.sh" "$(abs_path "$1")"
}
agree_main() {
	local d dirs=()
	for d in "$@"; do
		case $d in
		-h | --help) exec "$top/compare/compare.sh" --help ;;
		-*) die "agree: unknown option '$d' (see ./run.sh agree --help)" ;;
		esac
		dirs+=("$(abs_path "$d")")
	done
	[ ${#dirs[@]} -ge 2 ] || die "agree: give two or more results directories or exported .tar.gz files"
	exec "$top/compare/compare.sh" --agree "${dirs[@]}"
}

main() {
	case ${1:-} in
	test) shift; tests_main "$@" ;;
	micro) shift; micro_main "$@" ;;
	codesize) shift; codesize_main "$@" ;;
	compare) shift; compare_main "$@" ;;
	export) shift; export_main "$@" ;;
	agree) shift; agree_main "$@" ;;
	help) usage ;;
	*) sweep_main "$@" ;;
	esac
}
# One line: bash has read all of it before it runs, so editing this file
# during a long sweep cannot feed the running shell a stray line.
main "$@"; exit
