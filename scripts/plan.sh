# Sourced by run.sh: what a sweep builds and runs, from its checked options:
# the builds, the series and points, the defaults that need the machine, the
# layout seeds, and run.conf (the settings --resume repeats).

# ---- builds ------------------------------------------------------------------

# The build dimensions, one line each: the option's variable, the separator
# of its list, the CMake variable it sets and the value it has when not
# given (that value names no tree). Every combination is one build, in a
# tree of its own named by what makes it (build, build-clang-Os, ...), so
# each keeps its objects between runs and runs as its own series.
build_dims=(
	"ccs , CMAKE_C_COMPILER"
	"cflags_list ; IC_CFLAGS"
	"codegens , IC_CODEGEN user"
	"return_thunks , IC_RETURN_THUNK"
)

trim() { sed 's/^[[:space:]]*//; s/[[:space:]]*$//' <<<"$1"; }
name_part() { tr -cs 'A-Za-z0-9=.+\n' _ <<<"$1" | sed 's/^_*//; s/_*$//'; }

# plan_builds: B_dir, B_cc, B_cflags, B_codegen, B_regs (the codegen's flags
# for gen/body_check.sh) and B_args (CMake arguments, one per line), one
# entry per build.
plan_builds() {
	local combos=("") new d var sep cvar def vals v c part
	for d in "${build_dims[@]}"; do
		read -r var sep cvar def <<<"$d"
		IFS="$sep" read -ra vals <<<"${!var}"
		[ ${#vals[@]} -gt 0 ] || vals=("${def:-}")
		new=()
		for c in "${combos[@]}"; do for v in "${vals[@]}"; do
			new+=("$c$var|$cvar|${def:-}|$(trim "$v")"$'\n')
		done; done
		combos=("${new[@]}")
	done
	B_dir=() B_cc=() B_cflags=() B_codegen=() B_regs=() B_args=()
	for c in "${combos[@]}"; do
		local name=build args="" cc="" cflags="" codegen=user
		while IFS='|' read -r var cvar def v; do
			[ -n "$var" ] || continue
			[ -z "$v" ] || args+="-D$cvar=$v"$'\n'
			if [ -n "$v" ] && [ "$v" != "$def" ]; then
				part=$v; [ "$var" = ccs ] || part=$(name_part "$v")
				name+="-$part"
			fi
			case $var in ccs) cc=$v ;; cflags_list) cflags=$v ;; codegens) codegen=$v ;; esac
		done <<<"$c"
		[ "$lto" = 1 ] && { name+="-lto"; args+="-DIC_LTO=ON"$'\n'; }
		[ -z "$body" ] || { name+="-body-$ops"; args+="-DIC_BODY=$body"$'\n'; }
		B_dir+=("$name") B_cc+=("$cc") B_cflags+=("$cflags") B_codegen+=("$codegen") B_args+=("$args")
		if [ "$codegen" = vectorised ]; then B_regs+=(""); else B_regs+=(-mgeneral-regs-only); fi
	done
}
build_count() { plan_builds; echo "${#B_dir[@]}"; }

# release_args POINTS: the configure arguments every sweep build shares.
release_args() {
	printf '%s\n' -DCMAKE_BUILD_TYPE=Release "-DIC_POINTS=$1" "-DIC_PER_CALLER=$per_caller"
}

# ---- series and points -------------------------------------------------------

# resolve_cases: the sweep's series, as layout:order:filler:max. With none
# of --layouts, --orders and --filler, the two default series: the
# sequential chain, and the realistic case -- one function per site, walked
# in random order, each with filler that puts the code past the L1i at mid
# N, as call sites spread through a big program are. Otherwise every
# combination. Filler auto is this machine's L1i / 128, so that at N = 128,
# the middle of the default 1..16384 on a log scale, the filler alone fills
# the L1i; a multiple of 8, resolved here and saved in run.conf. max caps a
# series' N where --sites is not given: the first power of two at which N
# sites of its filler and 128 B (about what a locked queue operation
# inlines to) pass the L2. Beyond it every site comes from L3 or memory,
# and the points cost build time without telling more; 0 is no cap.
resolve_cases() {
	local list=() l o f l1i l2 n res=()
	if [ -z "${given[layouts]:-}${given[orders]:-}${given[fillers]:-}" ]; then
		list=(chain:seq:0 scatter:random:auto)
	else
		for l in ${layouts//,/ }; do for o in ${orders//,/ }; do for f in ${fillers//,/ }; do
			list+=("$l:$o:$f")
		done; done; done
	fi
	l2=""
	[ -n "${given[sites]:-}" ] || l2=$(cache_bytes L2Cache)
	for l in "${list[@]}"; do
		f=${l##*:}
		if [ "$f" = auto ]; then
			l1i=$(cache_bytes L1iCache)
			[ -n "$l1i" ] || fail "--filler auto: hwloc reports no L1i size on this machine; give --filler BYTES"
			f=$((l1i / 128 / 8 * 8))
		fi
		f=$((10#$f)) n=0
		if [ -n "$l2" ]; then n=1; while [ $((n * (f + 128))) -lt "$l2" ]; do n=$((n * 2)); done; fi
		res+=("${l%:*}:$f:$n")
	done
	cases=$(printf '%s\n' "${res[@]}" | awk '!seen[$0]++' | paste -sd,)
}

# decide_build_forms: the forms built and run. The mark alone joins them
# (not in calibration: its planted copies are extern's). A sweep without 1
# thread on a private queue leaves out the solo forms and, when filler is
# solo, the filler series (common.sh), and says so; check_combinations
# refused what it was asked for and cannot run.
decide_build_forms() {
	local f kept=() dropped=() why
	build_forms=$forms
	[ "$calibrate" = 1 ] || build_forms+=,mark
	has_solo "$threads" "$modes" && return 0
	for f in ${build_forms//,/ }; do
		if is_solo_form "$f"; then dropped+=("$f"); else kept+=("$f"); fi
	done
	build_forms=$(IFS=,; echo "${kept[*]}")
	why="run at $solo: not in this sweep (--threads $threads --modes $modes)"
	[ ${#dropped[@]} -eq 0 ] || say "forms ${dropped[*]} (mark: the sites' own mark, the baseline) $why"
	if filler_is_solo && [ -n "$(filler_cases)" ]; then
		say "the realistic series (with filler) and its baseline $why"
		cases=$(tr , '\n' <<<"$cases" | awk -F: '$3 == 0' | paste -sd,)
	fi
}
filler_cases() { tr , '\n' <<<"$cases" | awk -F: '$3 > 0'; }

# The controls (every form but the compared pair and hint) are what the
# attribution reads across N; on the default N list they run at the powers
# of 4 up to 4096 (1, 4, 16, ... 4096), which the attribution's ranges and
# its chart need: a third less measuring, and the clones' sites (the
# costliest to compile) stop at 4096 where the chain goes to 8192 or 16384
# (as the L2 decides). N the user lists get every form.
control_top=4096
point_specs() {   # every point of the sweep, as gen specs (filler last, when > 0)
	local f o c l r x max n s sfx thin=1 control
	[ -z "${given[sites]:-}" ] || thin=0
	for o in ${ops//,/ }; do for c in ${cases//,/ }; do
		IFS=: read -r l r x max <<<"$c"
		s=0; [ "$r" = random ] && s=$seed
		sfx=""; [ "$x" -gt 0 ] && sfx=":$x"
		for f in ${build_forms//,/ }; do for n in "${site_list[@]}"; do
			[ "${max:-0}" -gt 0 ] && [ "$n" -gt "$max" ] && continue
			case $f in inline | extern | hint | "${compare:-inline}" | "${baseline:-extern}") control=0 ;; *) control=$thin ;; esac
			# a power of 4 (one bit set, at an even place) up to control_top
			[ "$control" = 0 ] || { (((n & (n - 1)) == 0 && (n & 0x5555555555555555) != 0)) && [ "$n" -le "$control_top" ]; } || continue
			echo "$f:$o:$l:$r:$s:$n$sfx"
		done; done
	done; done
}

# The quick sweep's points (./run.sh test --all builds them into build/, so a
# following ./run.sh --quick builds nothing new): the default series and
# forms at N = 1, 64, 1024.
quick_points() {
	(
		sites=1,64,1024
		resolve_cases
		mapfile -t site_list < <(expand_sites "$sites")
		build_forms=$forms,mark
		point_specs
	) | paste -sd';'
}

# resolve_machine: the defaults that depend on this machine (after set-up:
# hwloc counts the cores and reports the caches). The design follows where
# the variance was on this machine (README, "Time budget"): processes
# differed most, repetitions within one little and layouts not measurably,
# so many short processes (8 variants x 2 processes: 7 degrees of freedom)
# of 3 short repetitions (0.015 s; 3 for a median).
resolve_machine() {
	if [ -z "$resume" ]; then
		resolve_cases
		: "${sites:=1..16384}" "${reps:=3}" "${min_time:=0.015}" "${threads:=1,$(cores)}"
		: "${layouts_random:=8}" "${processes:=2}"
		[ "$threads" = "1,1" ] && threads=1
		[ -n "$layout_seed" ] || layout_seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	fi
	mapfile -t site_list < <(expand_sites "$sites" | sort -nu)
	decide_build_forms
}

# variant_seed REPEAT VARIANT: the seed of one layout variant, drawn from the
# run's layout seed by the build's cmd/plan --seeds, so every repeat has
# variants of its own, all drawn alike; variant_seeds all of them, as
# run.conf records them (r1_v0:SEED ...). Both after the first build.
variant_seed() {
	"${B_dir[0]}/cmd/plan" --seeds --seed "$layout_seed" --repeats "$repeat" --variants "$layouts_random" |
		awk -v k="r$1_v$2" '$1 == k { print $2 }'
}
variant_seeds() {
	"${B_dir[0]}/cmd/plan" --seeds --seed "$layout_seed" --repeats "$repeat" --variants "$layouts_random" |
		awk '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $1, $2 }'
}

# ---- identity and run.conf ---------------------------------------------------

# source_hash: what the bench is built from, by content: the tracked files
# of the directories that build it (uncommitted edits included), and the
# body. A README edit leaves it alone; any change to the code does not.
source_hash() {
	local parts=(CMakeLists.txt common queue gen codesize bench cmd)
	{
		if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
			git -C "$top" ls-files -z -- "${parts[@]}"
		else
			(cd "$top" && find "${parts[@]}" -type f -print0 | sort -z)
		fi | (cd "$top" && xargs -0 sha256sum 2>&1 || true)
		[ -z "$body" ] || sha256sum <"$body"
	} | sha256sum | cut -c1-16
}

# build_identity: what a run's numbers depend on besides the options;
# --resume refuses to mix them.
build_identity() {
	local c seen=" " b
	build_source=$(source_hash)
	build_cc=""
	for b in "${B_cc[@]}"; do
		c=${b:-cc}
		[[ $seen == *" $c "* ]] && continue
		seen+="$c "
		build_cc+="${build_cc:+; }$("$c" --version 2>/dev/null | head -n 1)"
	done
	build_cflags=${cflags_list:-"-O2 -g (CMAKE_C_FLAGS_RELEASE)"}
	[ "$lto" = 1 ] && build_cflags+=" with LTO of the callers"
	# The lock CMake was configured with (CMakeLists.txt's default is tas).
	build_lock=$(sed -n 's/^IC_LOCK:STRING=//p' "${B_dir[0]}/CMakeCache.txt" 2>/dev/null || true)
	: "${build_lock:=tas}"
}

# The settings a run depends on, one key=value a line: read back as data by
# load_conf, never run as code.
conf_vars=(sites forms ops layouts orders fillers cases seed per_caller codegens return_thunks ccs
	cflags_list lto body threads modes reps min_time counters layouts_random layout_seed variant_seeds
	processes repeat spread trials quick find_crossover calibrate plant compare baseline
	build_source build_cc build_cflags build_lock)
# Those read back through the option checks.
conf_options=(sites forms ops layouts orders fillers seed per_caller codegens return_thunks ccs cflags_list
	threads modes reps min_time counters layouts_random layout_seed processes repeat spread trials)

save_conf() {
	local f=$1 v
	for v in "${conf_vars[@]}"; do printf '%s=%s\n' "$v" "${!v-}"; done >"$f.tmp" && mv "$f.tmp" "$f"
}

# load_conf DIR: the run's settings; an option given now must say the same.
load_conf() {
	local conf=$1/run.conf line key val n=0 name
	declare -A now=() known=()
	for name in "${!given[@]}"; do now[$name]=${given[$name]}; done
	for key in "${conf_vars[@]}"; do known[$key]=1; done
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		[[ $line =~ ^([a-z_]+)=(.*)$ ]] || die "--resume: $conf line $n is not key=value (a run.conf of an older run.sh cannot be resumed)"
		key=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
		[ -n "${known[$key]:-}" ] || die "--resume: $conf line $n: unknown setting '$key'"
		printf -v "$key" '%s' "$val"
	done <"$conf"
	for key in sites forms build_source layout_seed; do
		[ -n "${!key-}" ] || die "--resume: $conf has no $key"
	done
	# Read back through the same checks as options (ops: a body's name is
	# not a queue op).
	for key in "${conf_options[@]}"; do
		[ -n "${!key}" ] || continue
		[ "$key" = ops ] && [ -n "$body" ] && continue
		set_opt "$(option_of "$key")" "${!key}"
	done
	for key in lto quick find_crossover calibrate; do [[ ${!key} =~ ^[01]$ ]] || die "--resume: $conf: $key=${!key}"; done
	[[ $cases =~ ^[a-z]+:[a-z]+:[0-9]+:[0-9]+(,[a-z]+:[a-z]+:[0-9]+:[0-9]+)*$ ]] || die "--resume: $conf: cases=$cases"
	[ -z "$body" ] || [ -f "$body" ] || die "--resume: the run's body $body is gone"
	for name in "${!now[@]}"; do
		[ "${now[$name]}" = "${!name-}" ] ||
			die "--resume: $(option_of "$name") ${now[$name]} contradicts $conf ($name=${!name-}); leave it out to resume"
	done
	given=()
	for name in "${!now[@]}"; do given[$name]=${now[$name]}; done
	resume_source=${build_source-} resume_cc=${build_cc-} resume_lock=${build_lock-}
}

# check_resume_identity: after set-up (the compilers are there to ask).
check_resume_identity() {
	build_identity
	[ "$resume_source" = "$build_source" ] ||
		fail "--resume: $resume was measured from other code (source $resume_source, this tree $build_source): a resumed sweep must not mix builds"
	[ "$resume_cc" = "$build_cc" ] || fail "--resume: $resume was built with '$resume_cc', this machine has '$build_cc'"
	[ "$resume_lock" = "$build_lock" ] || fail "--resume: $resume used lock $resume_lock, the build has $build_lock"
}
