# Sourced by run.sh: the Debian packages the suite needs, installed when
# missing, and what this machine has (cores).

# README.md says what each part uses them for; python3 checks the merged JSON
# the way Google Benchmark's compare.py reads it.
packages=(gcc g++ make cmake pkg-config binutils libbenchmark-dev libpapi-dev papi-tools
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

# Physical cores: threads are pinned one per core. hwloc sees only the cores
# this process may use (cpusets, containers); nproc when it is not there yet.
cores() {
	local n
	n=$(hwloc-calc --number-of core all 2>/dev/null) || n=0
	[ "$n" -gt 0 ] 2>/dev/null || n=$(nproc)
	echo "$n"
}
