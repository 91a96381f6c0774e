# Sourced by run.sh: what a sweep builds, from its checked options (the
# builds and run.conf's settings), and the one hand-over to the driver
# (cmd/sweep), which does the rest of the sweep, the run's identity first.

name_part() { tr -cs 'A-Za-z0-9=.+\n' _ <<<"$1" | sed 's/^_*//; s/_*$//'; }

# plan_builds: B_dir, B_cc, B_cflags, B_codegen and B_args (CMake arguments,
# one a line) of each combination of --cc, --cflags, --codegen and
# --return-thunk: a tree each, named by what makes it (build-clang-Os, ...;
# a default names nothing), so each keeps its objects and is its own series.
plan_builds() {
	local l_cc l_cf l_cg l_rt cc cf cg rt name args
	IFS=, read -ra l_cc <<<"$ccs"
	IFS=';' read -ra l_cf <<<"$cflags_list"
	IFS=, read -ra l_cg <<<"${codegens:-user}"
	IFS=, read -ra l_rt <<<"$return_thunks"
	B_dir=() B_cc=() B_cflags=() B_codegen=() B_args=()
	for cc in "${l_cc[@]:-}"; do
		for cf in "${l_cf[@]:-}"; do
			for cg in "${l_cg[@]}"; do
				for rt in "${l_rt[@]:-}"; do
					name=build${cc:+-$cc} args=${cc:+-DCMAKE_C_COMPILER=$cc$'\n'}
					[ -z "$cf" ] || name+=-$(name_part "$cf") args+=-DIC_CFLAGS=$cf$'\n'
					[ "$cg" = user ] || name+=-$(name_part "$cg")
					args+=-DIC_CODEGEN=$cg$'\n'
					[ -z "$rt" ] || name+=-$(name_part "$rt") args+=-DIC_RETURN_THUNK=$rt$'\n'
					[ "$lto" != 1 ] || name+=-lto args+=-DIC_LTO=ON$'\n'
					[ -z "$body" ] || name+=-body-$ops args+=-DIC_BODY=$body$'\n'
					B_dir+=("$name") B_cc+=("$cc") B_cflags+=("$cf") B_codegen+=("$cg") B_args+=("$args")
				done
			done
		done
	done
}

# sweep_build --points DIR [TARGET...]: DIR configured as a release build
# of the first build's arguments with this run's points (the settings
# resolved on this machine by the driver), then built (sweep build).
sweep_build() {
	local a=()
	plan_builds
	mapfile -t a <<<"${B_args[0]%$'\n'}"   # (never empty: it names the codegen)
	conf_text | driver build "-j$jobs" "$@" -- "${a[@]}" || exit
}

# The settings a run depends on, one key=value a line (read back as data by
# load_conf, never run as code): every option's but the run's own, then
# what the plan and the build add.
conf_vars=("${conf_opts[@]}" sites_given cases variant_seeds plant compare baseline build_source build_cc build_cflags
	build_lock counter_source_of_run)
conf_text() { local v; for v in "${conf_vars[@]}"; do printf '%s=%s\n' "$v" "${!v-}"; done; }

# load_conf DIR: the run's settings; an option given now must say the same.
load_conf() {
	local conf=$1/run.conf line key val n=0 name opt var check
	# As common/run_conf.c reads it: blank lines and # comments pass, a
	# line may end in CRLF.
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%$'\r'}
		[[ -n $line && $line != \#* ]] || continue
		[[ $line =~ ^([a-z_]+)=(.*)$ ]] || die "--resume: $conf line $n is not key=value (a run.conf of an older run.sh cannot be resumed)"
		key=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
		[[ " ${conf_vars[*]} " == *" $key "* ]] || die "--resume: $conf line $n: unknown setting '$key'"
		printf -v "$key" '%s' "$val"
	done <"$conf"
	for key in sites sites_given forms build_source layout_seed; do
		[ -n "${!key-}" ] || die "--resume: $conf has no $key (a run.conf of an older run.sh cannot be resumed)"
	done
	# Read back through the options' checks, without the command line's
	# (ops: a body's name is not a queue op; the body must still be there).
	declare -A now=()
	for name in "${!given[@]}"; do now[$name]=${given[$name]}; done
	given=()
	for opt in "${opt_names[@]}"; do
		read -r var check _ <<<"${opt_spec[$opt]}"
		[[ " ${conf_opts[*]} " == *" $var "* ]] && [ -n "${!var}" ] || continue
		case $check in
		flag) [[ ${!var} =~ ^[01]$ ]] || die "--resume: $conf: $var=${!var}" ;;
		body) [ -f "$body" ] || die "--resume: the run's body $body is gone" ;;
		*) [ "$var" = ops ] && [ -n "$body" ] || set_opt "$opt" "${!var}" ;;
		esac
	done
	[[ $sites_given =~ ^[01]$ ]] || die "--resume: $conf: sites_given=$sites_given"
	[[ $cases =~ ^[a-z]+:[a-z]+:[0-9]+:[0-9]+(,[a-z]+:[a-z]+:[0-9]+:[0-9]+)*$ ]] || die "--resume: $conf: cases=$cases"
	given=()   # the command line's again, not the read-back's
	for name in "${!now[@]}"; do
		[ "${now[$name]}" = "${!name-}" ] ||
			die "--resume: ${opt_of[$name]} ${now[$name]} contradicts $conf ($name=${!name-}); leave it out to resume"
		given[$name]=${now[$name]}
	done
}

# sweep_main ARGS...: every option checked (nothing done yet), set-up, the
# checks that needed it, then one hand-over to the driver (cmd/sweep run):
# the settings on its stdin, the locks taken here held across exec.
sweep_main() {
	# The load before anything started, and our pid, whose descendants are
	# this run's processes (common/machine_state_read.h).
	export IC_RUN_LOADAVG=$run_loadavg IC_RUN_PID=$$
	parse_sub "" "${opt_names[*]}" "$@"
	check_options
	[ -z "${IC_STOP_AFTER_CHECKS:-}" ] || exit 0   # (tests of refusals end here, not in a sweep)
	# A results directory has one user: a second --resume is refused before any install.
	[ -z "$resume" ] || lock_take "$resume/.run.sh-lock" "$resume" refuse
	[[ ,$ccs, != *,clang,* ]] || packages+=(clang)   # from Debian when asked for
	ensure_packages
	check_body after
	local b
	driver exec run <<<"$(
		conf_text
		printf 'out=%s\nresume=%s\njobs=%s\ncmdline=%s\n' "$out" "$resume" "$jobs" "$cmdline"
		for b in "${!B_dir[@]}"; do
			printf 'tree=%s\ntree_cc=%s\ntree_cflags=%s\ntree_codegen=%s\n' "${B_dir[b]}" "${B_cc[b]}" \
				"${B_cflags[b]}" "${B_codegen[b]}"
			printf '%s' "${B_args[b]}" | sed 's/^/tree_arg=/'
		done
	)"
}
