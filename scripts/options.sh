# Sourced by run.sh: the sweep's options, parsed and checked. Everything here
# reads only the command line, run.conf and the tree, so a refusal comes
# before anything is installed, built or written (one line, exit 2).

# layouts, orders and fillers stay empty when not given: the plan then runs
# its two default series (plan/points.h).
sites="" sites_given=0 forms="inline,extern,clone,inline_nolock,extern_nolock" ops="tail_dequeue" layouts="" orders=""
seed=1 fillers="" per_caller=16 codegens="" return_thunks="" ccs="" cflags_list="" lto=0 body=""
threads="" modes="private" reps="" min_time="" counters="auto" out="" resume=""
layouts_random="" layout_seed="" processes="" repeat=1 spread="" trials=20
quick=0 find_crossover=0 calibrate=0 jobs=$(nproc)
# The options given on the command line, by run.conf name: --resume must agree with them.
declare -A given=()
# The option each run.conf name comes from, where they differ.
declare -A opt_of=([fillers]=--filler [per_caller]=--per-caller [codegens]=--codegen
	[return_thunks]=--return-thunk [ccs]=--cc [cflags_list]=--cflags [min_time]=--min-time
	[layouts_random]=--layouts-random [layout_seed]=--layout-seed [find_crossover]=--find-crossover)
option_of() { echo "${opt_of[$1]:---$1}"; }

# The names CMake checks (cmake/codegen.cmake) and gen's limits
# (gen/point_name.h), read from there.
mapfile -t codegen_names < <(cache_strings IC_CODEGEN cmake/codegen.cmake)
mapfile -t thunk_names < <(cache_strings IC_RETURN_THUNK cmake/codegen.cmake)
sites_max=$(point_limit SITES) filler_max=$(point_limit FILLER)

# check_list NAME VALUE ALLOWED...: every comma-separated item is allowed.
check_list() {
	local name=$1 value=$2 item a ok items; shift 2
	[ -n "$value" ] || die "$name: empty list"
	IFS=, read -ra items <<<"$value"
	[ ${#items[@]} -gt 0 ] || die "$name: empty list"
	for item in "${items[@]}"; do
		ok=0
		for a in "$@"; do [ "$item" = "$a" ] && ok=1; done
		[ $ok -eq 1 ] || die "$name: unknown value '$item' (one of: $*)"
	done
}

# expand_sites SPEC: a list, or A..B as the powers of two from A to B.
expand_sites() {
	local spec=$1 n list
	if [[ $spec == *..* ]]; then
		local a=${spec%%..*} b=${spec##*..}
		is_uint "$a" && is_uint "$b" || die "--sites: '$spec' is not a range A..B of whole numbers"
		a=$((10#$a)) b=$((10#$b))
		[ "$a" -ge 1 ] && [ "$b" -le "$sites_max" ] && [ "$a" -le "$b" ] || die "--sites: range '$spec' must lie within 1..$sites_max, low to high"
		for ((n = a; n <= b; n *= 2)); do printf '%s\n' "$n"; done
	else
		IFS=, read -ra list <<<"$spec"
		[ ${#list[@]} -gt 0 ] || die "--sites: empty list"
		for n in "${list[@]}"; do
			is_uint "$n" || die "--sites: '$n' is not a whole number"
			[ "$((10#$n))" -ge 1 ] && [ "$((10#$n))" -le "$sites_max" ] || die "--sites: $n is outside 1..$sites_max"
			printf '%s\n' "$((10#$n))"
		done
	fi
}

# uint_opt NAME VALUE MIN MAX
uint_opt() {
	is_uint "$2" && [ ${#2} -le 10 ] && [ "$((10#$2))" -ge "$3" ] && [ "$((10#$2))" -le "$4" ] ||
		die "$1: '$2' is not a whole number $3..$4"
}

# set_opt OPTION VALUE: check one option's value and keep it (also how
# run.conf's values are read back, so they pass the same checks).
set_opt() {
	local opt=$1 val=$2 f c t items
	case $opt in
	--sites) expand_sites "$val" >/dev/null; sites=$val; given[sites]=$val ;;
	# mark is the sweep's own baseline, not a form to compare.
	--forms) check_list --forms "$val" $(point_names FORM | grep -vx mark); forms=$val; given[forms]=$val ;;
	--ops) check_list --ops "$val" $(point_names OP); ops=$val; given[ops]=$val ;;
	--layouts) check_list --layouts "$val" $(point_names LAYOUT); layouts=$val; given[layouts]=$val ;;
	--orders) check_list --orders "$val" $(point_names ORDER); orders=$val; given[orders]=$val ;;
	--filler)
		IFS=, read -ra items <<<"$val"
		[ ${#items[@]} -gt 0 ] || die "--filler: empty list"
		for f in "${items[@]}"; do
			[ "$f" = auto ] || { is_uint "$f" && [ ${#f} -le 6 ] && [ "$((10#$f))" -le "$filler_max" ]; } ||
				die "--filler: '$f' is not a number of bytes 0..$filler_max or auto"
		done
		fillers=$val; given[fillers]=$val ;;
	--per-caller) uint_opt --per-caller "$val" 1 "$sites_max"; per_caller=$((10#$val)); given[per_caller]=$per_caller ;;
	--codegen) check_list --codegen "$val" "${codegen_names[@]}"
		[ -z "${given[codegens]:-}" ] || [ "${given[codegens]}" = "$val" ] ||
			die "--codegen: given twice (--vectorised is --codegen vectorised)"
		codegens=$val; given[codegens]=$val ;;
	--return-thunk) check_list --return-thunk "$val" "${thunk_names[@]}"; return_thunks=$val; given[return_thunks]=$val ;;
	--lto) lto=$val; given[lto]=$val ;;
	--cc)
		IFS=, read -ra items <<<"$val"
		[ ${#items[@]} -gt 0 ] || die "--cc: empty list"
		for c in "${items[@]}"; do
			[[ $c =~ ^[A-Za-z0-9._+-]+$ ]] || die "--cc: '$c' is not a compiler name"
			# clang comes from Debian when missing; any other must be here.
			[ "$c" = clang ] || command -v "$c" >/dev/null || die "--cc: '$c' not found on PATH"
		done
		ccs=$val; given[ccs]=$val ;;
	--cflags)
		IFS=';' read -ra items <<<"$val"
		[ ${#items[@]} -gt 0 ] || die "--cflags: empty list"
		for f in "${items[@]}"; do
			[[ $f =~ ^[[:space:]]*-[^\;\"\'\`\$\\]*$ ]] || die "--cflags: '$f' is not a set of flags (each set starts with -)"
		done
		cflags_list=$val; given[cflags_list]=$val ;;
	--body)
		body=$(abs_path "$val")
		[ -f "$body" ] || die "--body: $val: no such file"
		given[body]=$body ops=$(basename "$body" .c) ;;
	--seed) uint_opt --seed "$val" 0 4294967295; seed=$((10#$val)); given[seed]=$seed ;;
	--threads)
		IFS=, read -ra items <<<"$val"
		[ ${#items[@]} -gt 0 ] || die "--threads: empty list"
		for t in "${items[@]}"; do
			is_uint "$t" && [ ${#t} -le 3 ] && [ "$((10#$t))" -ge 1 ] && [ "$((10#$t))" -le 256 ] ||
				die "--threads: '$t' is not a thread count 1..256"
		done
		threads=$val; given[threads]=$val ;;
	--modes) check_list --modes "$val" private shared; modes=$val; given[modes]=$val ;;
	--reps)
		uint_opt --reps "$val" 1 1000
		# A median of 1 or 2 repetitions is one of them, or their mean:
		# too little to stand for a process.
		[ "$((10#$val))" -ge 3 ] || die "--reps: $val is too few: a process needs at least 3 repetitions for its median"
		reps=$((10#$val)); given[reps]=$reps ;;
	--min-time) [[ $val =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v v="$val" 'BEGIN{exit !(v > 0 && v <= 60)}' ||
		die "--min-time: '$val' is not a number of seconds in (0, 60]"; min_time=$val; given[min_time]=$val ;;
	--counters) check_list --counters "$val" auto papi sim none; [[ $val != *,* ]] || die "--counters: one mode, not a list"
		counters=$val; given[counters]=$val ;;
	--layouts-random) uint_opt --layouts-random "$val" 1 64; layouts_random=$((10#$val)); given[layouts_random]=$layouts_random ;;
	--layout-seed) uint_opt --layout-seed "$val" 0 4294967295; layout_seed=$((10#$val)); given[layout_seed]=$layout_seed ;;
	--processes) uint_opt --processes "$val" 1 100; processes=$((10#$val)); given[processes]=$processes ;;
	--repeat) uint_opt --repeat "$val" 1 20; repeat=$((10#$val)); given[repeat]=$repeat ;;
	# Minutes (a fraction too) from the first repeat's start to the last's;
	# a week at most.
	--spread) [[ $val =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v v="$val" 'BEGIN { exit !(v > 0 && v <= 10080) }' ||
		die "--spread: '$val' is not a number of minutes in (0, 10080]"; spread=$val; given[spread]=$val ;;
	--trials) uint_opt --trials "$val" 2 1000; trials=$((10#$val)); given[trials]=$trials ;;
	--quick) quick=$val; given[quick]=$val ;;
	--find-crossover) find_crossover=$val; given[find_crossover]=$val ;;
	--calibrate) calibrate=$val; given[calibrate]=$val ;;
	*) die "unknown option '$opt' (see --help)" ;;
	esac
}

# parse_args ARGS...: every option checked on its own.
parse_args() {
	while [ $# -gt 0 ]; do
		local opt=$1 val="" has=0
		case $opt in
		--*=*) val=${opt#*=}; opt=${opt%%=*}; has=1 ;;
		esac
		case $opt in
		--help | -h) sweep_usage; exit 0 ;;
		--quick | --find-crossover | --calibrate | --lto)
			[ $has = 0 ] || die "$opt takes no value"; set_opt "$opt" 1 ;;
		--vectorised) [ $has = 0 ] || die "$opt takes no value"; set_opt --codegen vectorised ;;
		--out | --resume | --jobs | --sites | --forms | --ops | --layouts | --orders | --seed | --threads | \
		--modes | --reps | --min-time | --counters | --layouts-random | --layout-seed | --processes | \
		--repeat | --spread | --trials | --per-caller | --filler | --cc | --cflags | --body | --codegen | --return-thunk)
			if [ $has = 0 ]; then [ $# -ge 2 ] || die "$opt needs a value"; val=$2; shift; fi
			[ -n "$val" ] || die "$opt: empty value"
			[[ $val != *$'\n'* ]] || die "$opt: a value on one line, please"
			case $opt in
			--out) out=$(abs_path "$val") ;;
			--resume) resume=$(abs_path "$val") ;;
			--jobs) uint_opt --jobs "$val" 1 256; jobs=$((10#$val)) ;;
			*) set_opt "$opt" "$val" ;;
			esac ;;
		*) die "unknown option '$opt' (see --help)" ;;
		esac
		shift
	done
}

# check_out DIR: a new results directory can be made there, and holds
# nothing yet. Probed with a directory made and removed at once in the
# nearest existing parent (so /proc/x is refused here, not after the build).
check_out() {
	local d=$1 p probe
	if [ -e "$d" ]; then
		[ -d "$d" ] || die "--out: $d exists and is not a directory"
		[ -z "$(ls -A "$d" 2>/dev/null)" ] || die "--out: $d exists and is not empty (use --resume $d to continue it)"
	fi
	p=$d
	while [ ! -e "$p" ]; do p=$(dirname "$p"); done
	[ -d "$p" ] || die "--out: $p is not a directory"
	probe=$(mktemp -d "$p/.inlinecost-probe.XXXXXX" 2>/dev/null) || die "--out: cannot write in $p"
	rmdir "$probe"
}

# compare_baseline: the ratio the summary reads, from the forms.
compare_baseline() {
	compare=inline baseline=extern
	if [ "$calibrate" = 1 ]; then
		compare=extern_plant3 baseline=extern
	elif [[ ",$forms," != *,inline,* || ",$forms," != *,extern,* ]]; then
		compare=${forms%%,*} baseline=${forms##*,}
	fi
}

# check_combinations: options that are fine alone and not together. The
# defaults that depend on them are set here; those that need the machine
# (cores, caches) come after set-up, from the plan (cmd/plan resolve).
check_combinations() {
	# An N list of the user's has every form at every N, and no cap.
	if [ -n "$sites" ]; then expand_sites "$sites" >/dev/null; sites_given=1; fi
	if [ "$quick" = 1 ]; then
		: "${sites:=1,64,1024}" "${reps:=3}" "${min_time:=0.005}" "${layouts_random:=1}" "${processes:=3}"
	fi
	plant=""
	if [ "$calibrate" = 1 ]; then
		: "${sites:=256}" "${threads:=1}"
		[ -z "${given[modes]:-}" ] || [ "$modes" = private ] || die "--modes: --calibrate runs $solo only"
		# The planted copies are extern's at N = 256 in the chain, no filler.
		[ -z "${given[fillers]:-}" ] || [ "$fillers" = 0 ] || die "--filler: --calibrate runs without filler"
		modes=private forms=extern plant=0,0.01,0.03 fillers=0 given[fillers]=0
		[ "$(build_count)" -eq 1 ] || die "--calibrate runs one build: leave out the second --cc, --cflags, --codegen or --return-thunk"
	elif [ "$(tr , '\n' <<<"$forms" | sort -u | wc -l)" -lt 2 ]; then
		die "--forms: give at least two different forms to compare (e.g. inline,extern)"
	fi
	if [ "$lto" = 1 ]; then
		[[ ,$ccs, != *clang* ]] || die "--lto: gcc only (clang's LTO objects hold no machine code, so codesize cannot prove the forms)"
		# LTO writes the code in its own partitions: a layout drawn from
		# the objects' sections would move nothing.
		[ -z "$layouts_random" ] || [ "$layouts_random" = 1 ] ||
			die "--layouts-random: --lto runs one layout (LTO's code is not in the objects a layout places)"
		: "${layouts_random:=1}" "${processes:=6}"
	fi
	if [ -n "$body" ]; then
		[ -z "${given[ops]:-}" ] || die "--ops: a --body run has one op, the body's own"
		[ -n "${given[forms]:-}" ] || forms=inline,extern,clone
		[[ ,$forms, != *_nolock* ]] || die "--forms: a body has no lock for the nolock forms to replace"
	fi
	# The kernel's codegen is gcc's (cmake/codegen.cmake says why): refused
	# here, before clang would be installed for it.
	[[ ,$codegens, != *,kernel,* || ,$ccs, != *clang* ]] ||
		die "--codegen kernel: gcc only (clang lacks -mfunction-return=thunk-extern, -mharden-sls=all and the ftrace nops); drop --cc clang or the kernel codegen"
	# Every interval needs two independent draws: two layouts, or two processes of one.
	[ "${layouts_random:-8}" != 1 ] || [ "${processes:-2}" != 1 ] ||
		die "--processes: one layout with one process cannot give an interval; give 2 of --layouts-random or --processes"
	if [ -n "$spread" ]; then
		[ "$repeat" -ge 2 ] || die "--spread: spaces the repeats of --repeat K; give K of 2 or more"
		[ "$calibrate" = 0 ] || die "--spread: --calibrate's trials are not repeats to space"
	fi
	compare_baseline
	# Without 1 thread on a private queue the solo points (common.sh) cannot run.
	if ! has_solo "${threads:-1}" "$modes"; then
		local f
		for f in "$compare" "$baseline"; do
			! is_solo_form "$f" || die "--forms: $compare/$baseline cannot be compared here: $f runs at $solo only"
		done
		! filler_is_solo || [ -z "${given[fillers]:-}" ] || [ -z "$(tr , '\n' <<<"$fillers" | grep -vx 0)" ] ||
			die "--filler: filler series run at $solo (their baseline runs there); add 1 to --threads and private to --modes"
	fi
}

# check_body_name: the name rules are CMake's (gen/points.cmake, which
# refuses a bad IC_BODY at configure): asked here first, when cmake is.
check_body_name() {
	local err
	command -v cmake >/dev/null || return 1
	err=$(cmake -DPOINTS_CMAKE="$top/gen/points.cmake" -DBODY_FILE="$body" -P "$top/scripts/body_name.cmake" 2>&1) ||
		die "--body: $(sed -n '/(message):/,/^Call Stack/p' <<<"$err" | sed '1d;$d' | tr -s ' \n' ' ' | sed 's/^ *IC_BODY: //; s/ *$//')"
	ops=$(sed -n 's/^name=//p' <<<"$err")
}

# check_body_compiles: gen/body_check.sh with each build's compiler and
# flags; its first error, one line, exit 2. Returns 1 (nothing checked)
# while a compiler is still to be installed.
check_body_compiles() {
	local b cc err
	for ((b = 0; b < ${#B_dir[@]}; b++)); do command -v "${B_cc[$b]:-cc}" >/dev/null || return 1; done
	for ((b = 0; b < ${#B_dir[@]}; b++)); do
		cc=${B_cc[$b]:-cc}
		# shellcheck disable=SC2086 # a flag set is several words
		err=$("$top/gen/body_check.sh" "$body" "$cc" ${B_cflags[$b]:--O2} ${B_regs[$b]} 2>&1) ||
			die "--body: $(head -n 1 <<<"$err")"
	done
}

# check_options: every check that needs nothing installed. The body checks
# that need cmake or a compiler not yet installed are left to
# check_after_setup, which runs after the install and before any build.
body_checked=0
check_options() {
	if [ -n "$resume" ]; then
		[ -z "$out" ] || die "--resume and --out: give one of them"
		[ -f "$resume/run.conf" ] || die "--resume: $resume has no run.conf: not a results directory of run.sh"
		load_conf "$resume"
		plan_builds
		return 0
	fi
	check_combinations
	[ -z "$out" ] || check_out "$out"
	plan_builds
	if [ -n "$body" ]; then
		check_body_name && check_body_compiles && body_checked=1
	fi
	return 0
}
check_after_setup() {
	if [ -n "$body" ] && [ -z "$resume" ] && [ "$body_checked" = 0 ]; then
		check_body_name || fail "cmake is still missing after the install"
		check_body_compiles || fail "--body: compiler ${B_cc[*]} still missing after the install"
	fi
	return 0
}
