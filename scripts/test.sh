# Sourced by run.sh: ./run.sh test -- the tests of behaviour, fast, in the
# release tree; ./run.sh test --all -- every test, in three trees: the
# release build (those that measure too; it holds the quick sweep's points,
# so a following ./run.sh --quick builds nothing new), and ThreadSanitizer
# and Address+UB sanitizer builds of the code their tests exercise. Which
# tests each runs are their labels' (tests/CMakeLists.txt says which):
# default leaves out measures and slow, a sanitizer tree runs its label's.

sub_test() {
	parse_sub test "--all=flag" "$@"
	local failed=0 a passed logs="build/"
	packages+=(python3)   # some tests read JSON with it
	ensure_packages
	if [ -z "${opt[--all]:-}" ]; then
		# No IC_POINTS: build/ keeps the points it has (a sweep's; the
		# default's in a new tree), none of them built here. Another set
		# would make the next sweep regenerate, relink and re-count its own.
		mapfile -t a < <(plan_builds; printf '%s' "${B_args[0]}")
		test_tree build default -DCMAKE_BUILD_TYPE=Release "-DIC_PER_CALLER=$per_caller" "${a[@]}" || failed=1
		passed="every test of behaviour passed in build (./run.sh test --all runs those that measure and the sanitizer builds too)"
	else
		test_tree build "" --points || failed=1
		test_tree build-tsan tsan -DCMAKE_BUILD_TYPE=Release -DIC_SANITIZE=thread || failed=1
		test_tree build-asan sanitize -DCMAKE_BUILD_TYPE=Release -DIC_SANITIZE=address || failed=1
		passed="every test passed in build, build-tsan and build-asan" logs="each tree's "
	fi
	say "times: ${test_times[*]}"
	[ $failed -eq 0 ] || fail "some tests failed (their output is above; logs in ${logs}Testing/Temporary)"
	say "$passed"
}

# test_tree DIR LABEL CMAKE-ARGS...: configure, build (all, or for a label
# the target tests_LABEL), run the tests (all, those with the label, or for
# default those labelled neither measures nor slow; --no-tests=error: a
# label that selects nothing fails). The tree stays locked while its tests
# run. --points for CMAKE-ARGS: the quick sweep's points.
test_times=()
test_tree() {
	local dir=$1 label=$2 t; shift 2
	local sel=() targets=()
	case $label in
	"") ;;
	default) sel=(-LE '^(measures|slow)$'); targets=(tests_default) ;;
	*) sel=(-L "^${label}\$"); targets=("tests_$label") ;;
	esac
	local rc=0 times
	# Its times on stdout, the rest to the terminal and logs.
	times=$(
		lock_build "$dir"
		t=$SECONDS
		phase "test: building $dir (log $dir/build.log)"
		if [ "$1" = --points ]; then
			(quick=1 && check_combinations && sweep_build --points "$dir" "${targets[@]}")
		else
			driver build "-j$jobs" "$dir" "${targets[@]}" -- "$@" || exit
		fi
		printf 'build %ss' $((SECONDS - t))
		t=$SECONDS
		phase "test: running the tests of $dir (log $dir/ctest.log)"
		# One test more than the cores: several wait on stand-ins that sleep,
		# and a core would idle while they do.
		if ! (cd "$dir" && ctest --output-on-failure --no-tests=error -j $((jobs + 1)) --timeout 900 "${sel[@]}") >"$dir/ctest.log" 2>&1; then
			show_tail 40 "$dir/ctest.log"
			printf ' tests %ss' $((SECONDS - t))
			exit 1
		fi
		grep -E 'tests passed|Skipped|\*\*\*Skipped' "$dir/ctest.log" | sed "s/^/$tag: /" >&2 || true
		printf ' tests %ss' $((SECONDS - t))
	) || rc=$?
	test_times+=("$dir ${times:-build failed};")
	return $rc
}
