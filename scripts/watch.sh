# Sourced by run.sh: ./run.sh watch -- whether this machine can give one
# answer: its options checked here, then the driver runs it (sweep watch,
# cmd/sweep.c).

sub_watch() {
	parse_sub watch "--minutes=text --out=path" "$@"
	local minutes=${opt[--minutes]:-2} wout=${opt[--out]:-}
	[[ $minutes =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v m="$minutes" 'BEGIN { exit !(m >= 0.1 && m <= 60) }' ||
		die "watch: --minutes must be a number of minutes from 0.1 to 60, not '$minutes'"
	[ -z "$wout" ] || check_out "watch: --out" "$wout"
	[ -z "${IC_STOP_AFTER_CHECKS:-}" ] || exit 0   # (as the sweep's)
	ensure_packages
	driver exec watch "-j$jobs" "--minutes=$minutes" ${wout:+"--out=$wout"} \
		"--cmdline=$cmdline" <<<"$(conf_text)"
}
