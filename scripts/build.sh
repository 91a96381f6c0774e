# Sourced by run.sh: the build trees the subcommands use, through the
# driver's builder (driver build -jN DIR [TARGET...] [-- CMAKE-ARGS...]: DIR
# configured first when the arguments changed, then built; sweep/builds.c).

# lock_build DIR: a build tree has one user at a time; a sweep keeps it
# until it ends, so nothing relinks the bench it is running.
lock_build() {
	mkdir -p "$1"
	lock_take "$1/.run.sh-lock" "$1/" wait
}

# build_program TARGET...: programs of build/ for the subcommands, built
# when missing or stale; a first build configures build/ as ./run.sh test
# --all does (the quick sweep's points). build/ stays locked until the
# caller ends (a subshell lets it go before the program runs).
build_program() {
	ensure_packages
	lock_build build
	if grep -qsx 'CMAKE_GENERATOR:INTERNAL=Ninja' build/CMakeCache.txt; then
		driver build "-j$jobs" build "$@" || exit
	else
		(quick=1 && check_combinations && sweep_build --points build "$@")
	fi
}
