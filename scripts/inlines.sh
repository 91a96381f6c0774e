# Sourced by run.sh: ./run.sh inlines BINARY -- the inlined copies in a
# program's DWARF, priced on a run's curve (inlines/, docs/inlines.md).
# Builds the tool in build/ and runs it from where the user called us, so
# their paths stay theirs; the tool checks every argument itself.

sub_inlines() {
	local tool=$top/build/cmd/inlines
	# Its help without a build when it is there (the options are its own).
	[[ " $* " != *" --help "* && " $* " != *" -h "* || ! -x $tool ]] || exec "$tool" --help
	(
		# Said on the first build only: bad input is then one line.
		[ -x "$tool" ] || phase "build: inlines (log build/build.log)"
		build_program inlines
	) || exit
	# The named functions are priced on the newest run unless one is given.
	cd "$caller_pwd" && IC_INLINES_RESULTS=$top/results/latest exec "$tool" "$@"
}
