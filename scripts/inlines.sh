# Sourced by run.sh: ./run.sh inlines BINARY -- the inlined copies in a
# program's DWARF, priced on a run's curve (inlines/, docs/inlines.md).
# Builds the tool in build/ and runs it from where the user called us, so
# their paths stay theirs; the tool checks every argument itself.

sub_inlines() {
	local a price=0 given=0 csv=0 help=0 args=("$@") tool=$top/build/cmd/inlines
	for a in "$@"; do
		case $a in
		--function | --function=*) price=1 ;;
		--results | --results=*) given=1 ;;
		--csv) csv=1 ;;
		-h | --help) help=1 ;;
		esac
	done
	[ "$help" = 1 ] && [ -x "$tool" ] && exec "$tool" --help
	# The named functions are priced on the newest run unless one is given.
	if [ "$price" = 1 ] && [ "$given" = 0 ] && [ "$csv" = 0 ] && [ -e "$top/results/latest" ]; then
		args+=(--results "$top/results/latest")
	fi
	ensure_packages
	(
		# Said on the first build only: bad input is then one line.
		[ -x "$tool" ] || phase "build: inlines (log build/build.log)"
		build_program inlines
	) || exit
	cd "$caller_pwd" && exec "$tool" "${args[@]}"
}
