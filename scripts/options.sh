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
# The run's own state, set as it goes: never taken from the environment.
cases="" variant_seeds="" counter_source_of_run=""

point_limits

# The table (scripts/options.tsv): opt_names in its order, opt_spec[OPTION]
# its "VARIABLE CHECK [ARGS]", opt_of[VARIABLE] the option; conf_opts the
# variables that are run.conf's settings, not the run's own.
run_own=" out resume jobs "
opt_names=() conf_opts=()
declare -A opt_spec=() opt_of=()
while IFS= read -r line; do
	[[ $line == --* ]] || continue
	o=${line%%[ $'\t']*} line=${line#*$'\t'} line=${line%%$'\t'*}
	opt_names+=("$o") opt_spec[$o]=$line opt_of[${line%% *}]=$o
	[[ $line == "- "* || $run_own == *" ${line%% *} "* ]] || conf_opts+=("${line%% *}")
done <"$top/scripts/options.tsv"

# check_list NAME VALUE ALLOWED...: every comma-separated item is allowed.
check_list() {
	local name=$1 item items all; IFS=, read -ra items <<<"$2"; shift 2
	all=,$(IFS=,; printf "%s" "$*"),
	for item in "${items[@]}"; do [[ $all == *",$item,"* ]] || die "$name: unknown value '$item' (one of: $*)"; done
}

# uint_ok VALUE MIN MAX: a whole number MIN..MAX (MAX: a number, SITES or FILLER).
uint_ok() {
	local max=$3
	case $max in SITES) max=$sites_max ;; FILLER) max=$filler_max ;; esac
	is_uint "$1" && [ ${#1} -le 10 ] && [ "$((10#$1))" -ge "$2" ] && [ "$((10#$1))" -le "$max" ]
}

# check_value OPTION VALUE CHECK [ARGS]: the value, checked (one line, exit
# 2 naming the option), as the variable keeps it (whole numbers without
# leading zeros, flag sets trimmed, paths absolute).
check_value() {
	local opt=$1 val=$2 check=$3 sep=, items i a b; shift 3
	case $check in
	flag) echo 1; return ;;
	uint) uint_ok "$val" "$@" || die "$opt: '$val' is not a whole number $1..${2/SITES/$sites_max}"; echo "$((10#$val))"; return ;;
	number) [[ $val =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v v="$val" -v m="$1" 'BEGIN { exit !(v > 0 && v <= m) }' ||
		die "$opt: '$val' is not a number of $2 in (0, $1]"
		printf '%s\n' "$val"; return ;;   # echo would take a value of -n or -E as its own option
	body) [ -f "$(abs_path "$val")" ] || die "$opt: $val: no such file"; abs_path "$val"; return ;;
	path) abs_path "$val"; return ;;
	cflags) sep=';' ;;
	sites) if [[ $val == *..* ]]; then   # the powers of two from A to B, as plan/points.c reads them
			a=${val%%..*} b=${val#*..}
			is_uint "$a" && is_uint "$b" && [ ${#a} -le 7 ] && [ ${#b} -le 7 ] || die "$opt: '$val' is not a range A..B of whole numbers"
			[ "$((10#$a))" -ge 1 ] && [ "$((10#$b))" -le "$sites_max" ] && [ "$((10#$a))" -le "$((10#$b))" ] ||
				die "$opt: range '$val' must lie within 1..$sites_max, low to high"
			printf '%s\n' "$val"
			return
		fi
		check=uints   # a list, its N as the plan reads them (064 is 64)
		set -- 1 SITES ;;
	esac
	# The rest are lists: each entry there, and named once (--cc gcc,gcc
	# would build and measure one tree twice, as two series).
	[[ $sep$val$sep != *$sep$sep* ]] || die "$opt: '$val' has an empty entry"
	IFS=$sep read -ra items <<<"$val"
	# shellcheck disable=SC2046 # the names are words
	case $check in
	uints) for i in "${!items[@]}"; do
			uint_ok "${items[i]}" "$@" || die "$opt: '${items[i]}' is not a whole number $1..${2/SITES/$sites_max}"
			items[i]=$((10#${items[i]}))
		done ;;
	names) check_list "$opt" "$val" $(point_names "$1" | grep -vx mark) ;;   # mark is the sweep's own baseline
	one) [[ $val != *,* ]] || die "$opt: one value, not a list" ;&
	in) check_list "$opt" "$val" ${1//,/ } ;;
	# What CMake offers for the variable: its set_property(CACHE VAR PROPERTY STRINGS ...).
	cmake) check_list "$opt" "$val" $(sed -n "s/^set_property(CACHE $1 PROPERTY STRINGS \(.*\))\$/\1/p" "$top/cmake/codegen.cmake") ;;
	filler) for i in "${!items[@]}"; do
			[ "${items[i]}" = auto ] || { uint_ok "${items[i]}" 0 FILLER && [ ${#items[i]} -le 6 ] && items[i]=$((10#${items[i]})); } ||
				die "$opt: '${items[i]}' is not a number of bytes 0..$filler_max or auto"
		done ;;
	cc) for i in "${items[@]}"; do
			[[ $i =~ ^[A-Za-z0-9._+-]+$ ]] || die "$opt: '$i' is not a compiler name"
			# clang comes from Debian when missing; any other must be here.
			[ "$i" = clang ] || command -v "$i" >/dev/null || die "$opt: '$i' not found on PATH"
		done ;;
	cflags) for i in "${!items[@]}"; do
			[[ ${items[i]} =~ ^[[:space:]]*-[^\;\"\'\`\$\\]*$ ]] || die "$opt: '${items[i]}' is not a set of flags (each set starts with -)"
			read -r 'items[i]' <<<"${items[i]}"   # trimmed
		done ;;
	*) fail "option table: $opt has an unknown check '$check'" ;;
	esac
	local -A seen=()
	for i in "${items[@]}"; do [ -z "${seen[$i]:-}" ] || die "$opt: '$i' is given twice"; seen[$i]=1; done
	(IFS=$sep; printf '%s\n' "${items[*]}")
}

# set_opt OPTION VALUE: check one option's value and keep it (also how
# run.conf's values are read back, so they pass the same checks).
set_opt() {
	local opt=$1 val=$2 row var
	read -ra row <<<"${opt_spec[$opt]}"
	[ "${row[1]}" != alias ] || { set_opt "${row[2]}" "${row[3]}"; return; }
	var=${row[0]}
	[[ $val != *$'\n'* ]] || die "$opt: a value on one line, please"
	val=$(check_value "$opt" "$val" "${row[@]:1}") || exit 2
	# The rules of one option beyond its table check. (A median of 1 or 2
	# repetitions is one of them, or their mean: too little for a process.)
	case $opt in
	--reps) [ "$val" -ge 3 ] || die "--reps: $val is too few: a process needs at least 3 repetitions for its median" ;;
	--codegen) [ "${given[codegens]:-$val}" = "$val" ] || die "--codegen: given twice (--vectorised is --codegen vectorised)" ;;
	--body) ops=${val##*/} ops=${ops%.c} ;;   # the name gen/points.cmake gives it
	esac
	printf -v "$var" '%s' "$val"
	[[ $run_own == *" $var "* ]] || given[$var]=$val
}

# parse_sub NAME SPEC ARGS...: ARGS by SPEC, each checked before anything
# is installed or built. SPEC's words: a sweep option (options.tsv, kept by
# set_opt); --X=flag, --X=text or --X=path a subcommand's own, into opt[--X]
# (a flag 1, a path made absolute); operands=text or operands=path what
# comes without a dash, into operands. NAME: the command (empty: the sweep).
parse_sub() {
	local name=$1 spec=" $2 " who=${1:+$1: } arg a v has kind; shift 2
	declare -gA opt=()
	operands=()
	while [ $# -gt 0 ]; do
		arg=$1 a=$1 v="" has=0
		shift
		case $a in -h | --help) help_text "${name:-run}"; exit 0 ;; --*=*) v=${a#*=} a=${a%%=*} has=1 ;; esac
		if [[ $a != -* && $spec == *" operands="* ]]; then
			[[ $spec != *" operands=path "* ]] || a=$(abs_path "$a")
			operands+=("$a")
			continue
		fi
		# A word where an option belongs (an empty one too, which would
		# match the spec's spaces); the sweep calls it an unknown option.
		[[ $a == -?* ]] || { [ -z "$name" ] && [ -n "$a" ]; } ||
			die "${who}unexpected argument '$a' (see ./run.sh${name:+ $name} --help)"
		if [[ $spec == *" $a "* ]]; then kind=${opt_spec[$a]#* }
		elif [[ $spec == *" $a="* ]]; then kind=${spec#*" $a="}
		else die "${who}unknown option '$a' (see ./run.sh${name:+ $name} --help)"
		fi
		kind=${kind%% *}
		if [ "$kind" = flag ] || [ "$kind" = alias ]; then
			[ $has = 0 ] || die "$who$arg: $a takes no value"
		else
			if [ $has = 0 ]; then [ $# -ge 1 ] || die "$who$a needs a value"; v=$1; shift; fi
			[ -n "$v" ] || die "$who$a: empty value"
		fi
		if [[ $spec == *" $a "* ]]; then
			set_opt "$a" "$v"
		else
			[ "$kind" != path ] || v=$(abs_path "$v")
			opt[$a]=${v:-1}
		fi
	done
}

# check_out WHO DIR: a new results directory can be made there (probed in
# the nearest existing parent: /proc/x is refused here, not after the
# build), and holds nothing yet. WHO: the option, as messages name it.
check_out() {
	local who=$1 d=$2 p probe hint=""
	[ "$who" != --out ] || hint=" (use --resume $d to continue it)"
	if [ -e "$d" ]; then
		[ -d "$d" ] || die "$who: $d exists and is not a directory"
		[ -z "$(ls -A "$d" 2>/dev/null)" ] || die "$who: $d exists and is not empty$hint"
	fi
	p=$d
	while [ ! -e "$p" ]; do p=$(dirname "$p"); done
	[ -d "$p" ] || die "$who: $p is not a directory"
	probe=$(mktemp -d "$p/.inlinecost-probe.XXXXXX" 2>/dev/null) || die "$who: cannot write in $p"
	rmdir "$probe"
}

# check_combinations: options that are fine alone and not together, and the
# defaults that depend on them (those that need the machine: the driver's).
check_combinations() {
	# An N list of the user's has every form at every N, and no cap.
	[ -z "$sites" ] || sites_given=1
	if [ "$quick" = 1 ]; then
		: "${sites:=1,64,1024}" "${reps:=3}" "${min_time:=0.005}" "${layouts_random:=1}" "${processes:=3}"
	fi
	# A body's forms (calibration's, below, come after).
	if [ -n "$body" ]; then
		[ -z "${given[ops]:-}" ] || die "--ops: a --body run has one op, the body's own"
		[ -n "${given[forms]:-}" ] || forms=inline,extern,clone
		[[ ,$forms, != *_nolock* ]] || die "--forms: a body has no lock for the nolock forms to replace"
	fi
	plant=""
	if [ "$calibrate" = 1 ]; then
		: "${sites:=256}" "${threads:=1}"
		[ "$modes" = private ] || die "--modes: --calibrate runs $solo only"
		# The planted copies are extern's at N = 256 in the chain, no filler.
		[ "${given[forms]:-extern}" = extern ] || die "--forms: --calibrate runs extern and its planted copies only"
		[ -z "${fillers//[0,]}" ] || die "--filler: --calibrate runs without filler"
		modes=private forms=extern plant=0,0.01,0.03 fillers=0
		plan_builds
		[ ${#B_dir[@]} -eq 1 ] || die "--calibrate runs one build: leave out the second --cc, --cflags, --codegen or --return-thunk"
	elif [[ $forms != *,* ]]; then   # (a list names each form once)
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
	# The ratio the summary reads: inline/extern, or the first form given over the last.
	compare=inline baseline=extern
	if [ "$calibrate" = 1 ]; then
		compare=extern_plant3
	elif [[ ",$forms," != *,inline,* || ",$forms," != *,extern,* ]]; then
		compare=${forms%%,*} baseline=${forms##*,}
	fi
	# Without 1 thread on a private queue the solo points (common.sh) cannot run.
	if ! has_solo "${threads:-1}" "$modes"; then
		local f
		for f in "$compare" "$baseline"; do
			! point_names FORM ' 1,' | grep -qx -- "$f" || die "--forms: $compare/$baseline cannot be compared here: $f runs at $solo only"
		done
		! grep -q '^#define IC_FILLER_SOLO 1$' "$top/gen/point_names.def" || [ -z "${fillers//[0,]}" ] ||
			die "--filler: filler series run at $solo (their baseline runs there); add 1 to --threads and private to --modes"
	fi
}

# check_options: every check that needs nothing installed.
check_options() {
	if [ -n "$resume" ]; then
		[ -z "$out" ] || die "--resume and --out: give one of them"
		[ -f "$resume/run.conf" ] || die "--resume: $resume has no run.conf: not a results directory of run.sh"
		load_conf "$resume"
	else
		check_combinations
		[ -z "$out" ] || check_out --out "$out"
	fi
	plan_builds
	check_body before
}

# check_body before|after: a new run's body, once: its name by CMake's
# rules (gen/points.cmake: a configure would refuse it), in CMake's words,
# when cmake is there; compiled with each build's compiler and flags
# (gen/body_check.c, compiled here into a temporary directory: nothing may
# be built yet; its one line) before set-up when they and cmake are there,
# else after it.
body_checked=0
check_body() {
	local b regs err tmp
	[ -n "$body" ] && [ -z "$resume" ] && [ "$body_checked" = 0 ] || return 0
	! command -v cmake >/dev/null ||
		err=$(cmake -DPOINTS_CMAKE="$top/gen/points.cmake" -DBODY_FILE="$body" -P "$top/scripts/body_name.cmake" 2>&1) ||
		die "--body: $(sed -n '/(message):/,/^Call Stack/p' <<<"$err" | sed '1d;$d' | tr -s ' \n' ' ' | sed 's/^ *IC_BODY: //; s/ *$//')"
	for ((b = 0; b < ${#B_dir[@]}; b++)); do
		command -v cmake >/dev/null && command -v "${B_cc[$b]:-cc}" >/dev/null && continue
		[ "$1" = before ] && return 0
		command -v cmake >/dev/null || fail "--body: cmake still missing after the install"
		fail "--body: the compiler ${B_cc[$b]:-cc} still missing after the install"
	done
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/ic-body.XXXXXX") || fail "--body: cannot make a temporary directory"
	for ((b = 0; b < ${#B_dir[@]}; b++)); do
		regs=-mgeneral-regs-only   # as the codegen builds it: vectorised code may use the vector registers
		[ "${B_codegen[$b]}" != vectorised ] || regs=""
		# shellcheck disable=SC2086 # a flag set is several words
		"${B_cc[$b]:-cc}" -O1 -w -o "$tmp/check" "$top/gen/body_check.c" >/dev/null 2>&1 ||
			{ rm -rf "$tmp"; fail "--body: ${B_cc[$b]:-cc} cannot compile gen/body_check.c"; }
		err=$("$tmp/check" "$top" "$body" "${B_cc[$b]:-cc}" ${B_cflags[$b]:--O2} $regs 2>&1) ||
			{ rm -rf "$tmp"; die "--body: $err"; }
	done
	rm -rf "$tmp"
	body_checked=1
}
