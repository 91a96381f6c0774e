# Sourced by run.sh: ./run.sh codesize -- bytes of call-site code per form
# from codesize's accounting, beside this machine's L1i and L2 (hwloc), as
# the README's table: codesize/codesize_report prints it from codesize's
# CSV. Builds build-codesize; runs nothing it times.

sub_codesize() {
	# The sweep's options that shape points, each through its check; one build.
	parse_sub codesize "--sites --ops --layouts --orders --filler --per-caller --codegen --jobs --vectorised" "$@"
	plan_builds
	[ "${#B_dir[@]}" -eq 1 ] || die "--codegen: codesize takes one"
	ensure_packages
	# Every form, as the plan draws them (the mark joins), on one thread.
	[ -z "${given[sites]:-}" ] || sites_given=1
	forms=inline,hint,extern,clone,inline_nolock,extern_nolock threads=1
	lock_build build-codesize
	phase "build: build-codesize (log build-codesize/build.log)"
	sweep_build --points build-codesize sites_codesize codesize_report
	build-codesize/codesize/codesize_report --machine build-codesize/bench/sites_codesize.csv
}
