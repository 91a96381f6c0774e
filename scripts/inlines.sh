# Sourced by run.sh: ./run.sh inlines BINARY -- the inlined copies in a
# program's DWARF, priced on a run's curve (inlines/, docs/inlines.md).
# Builds the tool in build/ and runs it from where the user called us, so
# their paths stay theirs; the tool checks every argument itself.

sub_inlines() {
	local a fn=0 own=0 args=("$@") tool=$top/build/cmd/inlines
	for a in "$@"; do
		case $a in
		-h | --help) [ ! -x "$tool" ] || exec "$tool" --help ;;
		--function | --function=*) fn=1 ;;
		--results | --results=* | --csv) own=1 ;;
		esac
	done
	# The named functions are priced on the newest run unless one is given
	# (--csv prices nothing).
	[ "$fn$own" != 10 ] || [ ! -e "$top/results/latest" ] || args+=(--results "$top/results/latest")
	ensure_packages
	(
		# Said on the first build only: bad input is then one line.
		[ -x "$tool" ] || phase "build: inlines (log build/build.log)"
		build_program inlines
	) || exit
	cd "$caller_pwd" && exec "$tool" "${args[@]}"
}
