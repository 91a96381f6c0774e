# Sourced by run.sh: ./run.sh codesize -- bytes of call-site code per form
# from gen's accounting, beside this machine's L1i and L2 (hwloc), as the
# README's table. Builds build-codesize; runs nothing it times.

codesize_usage() {
	cat <<'USAGE'
Usage: ./run.sh codesize [--sites ..] [--ops ..] [--layouts ..] [--orders ..]
                         [--filler ..] [--per-caller C] [--codegen C] [--jobs N]
  code bytes of all N call sites per form (footprint) and bytes per site,
  and where the inline footprint passes this machine's L1i and L2; the
  options as the sweep's (./run.sh --help)
USAGE
}

codesize_main() {
	local a
	for a in "$@"; do case $a in -h | --help) codesize_usage; exit 0 ;; esac; done
	codesize_parse "$@"
	ensure_packages
	: "${sites:=1..16384}"
	mapfile -t site_list < <(expand_sites "$sites" | sort -nu)
	build_forms=inline,hint,extern,clone,inline_nolock,extern_nolock,mark
	resolve_cases
	local specs l1i l2 args
	specs=$(point_specs | paste -sd';')
	lock_build build-codesize
	mapfile -t args < <(release_args "$specs"; printf '%s' "${B_args[0]}")
	phase "build: build-codesize (log build-codesize/build.log)"
	configure build-codesize "${args[@]}"
	build build-codesize sites_codesize
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

# codesize_parse ARGS...: the sweep's options that shape points; one build.
codesize_parse() {
	while [ $# -gt 0 ]; do
		case ${1%%=*} in
		--sites | --ops | --layouts | --orders | --filler | --per-caller | --codegen | --jobs | --vectorised) ;;
		*) die "codesize: unknown option '${1%%=*}' (see ./run.sh codesize --help)" ;;
		esac
		local n=1
		[[ $1 == *=* || $1 == --vectorised ]] || n=2
		parse_args "${@:1:$n}"
		shift "$n" 2>/dev/null || die "${1} needs a value"
	done
	plan_builds
	[ "${#B_dir[@]}" -eq 1 ] || die "--codegen: codesize takes one"
}
