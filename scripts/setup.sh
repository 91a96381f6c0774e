# Sourced by run.sh: the Debian packages the suite needs, installed when
# missing, and the driver (cmd/sweep), compiled before any tree.

# README.md says what each part uses them for. (The tests add python3.)
packages=(gcc g++ make cmake ninja-build pkg-config binutils libbenchmark-dev libpapi-dev libhwloc-dev valgrind
	gnuplot-nox libjansson-dev libelf-dev libgsl-dev libarchive-dev libdw-dev lld)

# ensure_packages: install what is missing (apt-get, through sudo -n when
# not root). Its output goes to a log; the terminal gets one line.
ensure_packages() {
	local missing=() sudo=() log p
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || { command -v sudo >/dev/null && sudo -n true 2>/dev/null && sudo=(sudo -n); } ||
		fail "missing Debian packages (install them as root): ${missing[*]}"
	command -v apt-get >/dev/null || fail "missing Debian packages and no apt-get: ${missing[*]}"
	log=$(mktemp "${TMPDIR:-/tmp}/inlinecost-apt.XXXXXX")
	phase "setup: installing ${missing[*]} (log: $log)"
	# env after sudo: sudo drops the caller's environment.
	step "$log" "apt-get update" "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
	step "$log.install" "apt-get install ${missing[*]}" "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends "${missing[@]}"
	rm -f "$log" "$log.install"
}

# driver [exec] MODE ARGS...: cmd/sweep, the sweep's driver and plan, run
# with the time run.sh has used (exec: in our place). It decides what the
# trees are configured with, so it comes before them: compiled with cc into
# build-tools/, once per content of its sources.
driver() {
	local dir=$top/build-tools id bin f src how=""
	[ "$1" != exec ] || { how=exec; shift; }
	src=$(cd "$top" && echo cmd/sweep.c sweep/*.c plan/points.c common/run_conf.c common/kit.c \
		common/measure_lock.c hw/topology.c)
	# shellcheck disable=SC2086 # the sources' names are words
	id=$(cd "$top" && cat $src {sweep,plan,common,hw,gen}/*.h gen/*.def engine/*.def | sha256sum | cut -c1-16)
	bin=$dir/sweep-$id
	if [ ! -x "$bin" ]; then
		mkdir -p "$dir" || fail "cannot make $dir"
		# shellcheck disable=SC2046,SC2086 # pkg-config's flags and the sources are several words
		(cd "$top" && cc -std=gnu11 -O2 -Icommon -Iplan -Isweep -Ihw -Igen -Iengine -o "$bin.$$" \
			$src $(pkg-config --cflags --libs hwloc) -pthread) >"$dir/sweep.log" 2>&1 ||
			{ rm -f "$bin.$$"; show_tail 5 "$dir/sweep.log"; fail "compiling the driver failed (log: $dir/sweep.log)"; }
		mv -f "$bin.$$" "$bin"
		# Older drivers, and the plan and topology tools that came before.
		for f in "$dir"/sweep-* "$dir"/plan-* "$dir"/topology-*; do [ "$f" = "$bin" ] || [[ $f == *.* ]] || rm -f "$f"; done
	fi
	IC_RUN_ELAPSED_S=$((SECONDS - run_start)) $how "$bin" "$@"
}
