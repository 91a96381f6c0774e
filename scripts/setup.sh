# Sourced by run.sh: the Debian packages the suite needs, installed when
# missing, and what this machine has (cores, caches: hwloc).

# README.md says what each part uses them for; python3 checks the merged JSON
# the way Google Benchmark's compare.py reads it.
packages=(gcc g++ make cmake ninja-build pkg-config binutils libbenchmark-dev libpapi-dev papi-tools
	libhwloc-dev hwloc valgrind gnuplot-nox libjansson-dev libelf-dev libgsl-dev libarchive-dev libdw-dev python3 lld)

# missing_packages: those of $packages not installed, one per line.
missing_packages() {
	local p
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || echo "$p"
	done
}

# ensure_packages: install what is missing (apt-get, through sudo -n when
# not root). Its output goes to a log; the terminal gets one line.
ensure_packages() {
	local missing sudo=() log
	mapfile -t missing < <(missing_packages)
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo=(sudo -n); else
			fail "missing Debian packages (install them as root): ${missing[*]}"
		fi
	fi
	command -v apt-get >/dev/null || fail "missing Debian packages and no apt-get: ${missing[*]}"
	log=$(mktemp "${TMPDIR:-/tmp}/inlinecost-apt.XXXXXX")
	phase "setup: installing ${missing[*]} (log: $log)"
	# env after sudo: sudo drops the caller's environment.
	step "$log" "apt-get update" "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
	step "$log.install" "apt-get install ${missing[*]}" "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends "${missing[@]}"
	rm -f "$log" "$log.install"
}

# ---- what this machine has (hwloc) ------------------------------------------

# topology KEY: one line of bench/hw/topology_cli.c's key=value output (cores,
# pus, l1i_size, l2_size, ...: hwloc through bench/hw/topology.c, as the
# bench reads it); empty when hwloc does not say or is not installed yet.
# It is needed before any tree is configured (the L2 caps a series' N), so
# the program is compiled straight with cc into build-tools/, once per
# content of its sources.
topology() {
	local hw=$top/bench/hw dir=$top/build-tools id bin flags f
	id=$(cat "$hw/topology_cli.c" "$hw/topology.c" "$hw/topology.h" | sha256sum | cut -c1-16)
	bin=$dir/topology-$id
	if [ ! -x "$bin" ]; then
		flags=$(pkg-config --cflags --libs hwloc 2>/dev/null) && command -v cc >/dev/null && mkdir -p "$dir" || return 0
		# shellcheck disable=SC2086 # pkg-config's flags are several words
		cc -O2 -o "$bin.$$" "$hw/topology_cli.c" "$hw/topology.c" $flags -pthread 2>"$dir/topology.log" ||
			{ rm -f "$bin.$$"; return 0; }
		mv -f "$bin.$$" "$bin"
		for f in "$dir"/topology-*; do [ "$f" = "$bin" ] || [[ $f == *.* ]] || rm -f "$f"; done
	fi
	"$bin" 2>/dev/null | sed -n "s/^$1=//p"
}

# Physical cores: threads are pinned one per core. hwloc sees only the cores
# this process may use (cpusets, containers); nproc when it is not there yet.
cores() {
	local n
	n=$(topology cores)
	[ "${n:-0}" -gt 0 ] 2>/dev/null || n=$(nproc)
	echo "$n"
}

# cache_bytes L1iCache|L2Cache: the first such cache's size in bytes, from
# hwloc; nothing when hwloc reports none (or is not installed).
cache_bytes() {
	case $1 in
	L1iCache) topology l1i_size ;;
	L2Cache) topology l2_size ;;
	esac
}
