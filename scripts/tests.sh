# Sourced by run.sh: ./run.sh test -- every test, in three trees: the
# release build (every test; it holds the quick sweep's points, so a
# following ./run.sh --quick builds nothing new), ThreadSanitizer and
# Address+UB sanitizer builds of the code their tests exercise.

tests_usage() {
	cat <<'USAGE'
Usage: ./run.sh test      set up what is missing, build, run every test:
                          build/ (release: every test), build-tsan/ (the
                          queue's tests under ThreadSanitizer), build-asan/
                          (queue, gen and common under Address+UB
                          sanitizer). Prints the time of each build and
                          test run.
USAGE
}

# The sanitizer trees build and run only the tests labelled for them
# (tests/CMakeLists.txt): sanitize (Address+UB: the queue's model and stress
# tests, gen's tests that need no generated points, the atomic file writer)
# and tsan (the queue's model and stress tests: threads, TSan's business).
# The target tests_<label> builds what those tests run; the release tree
# runs every test, on code the sanitizers would not change.

tests_main() {
	case ${1:-} in -h | --help) tests_usage; exit 0 ;; esac
	[ $# -eq 0 ] || die "test: takes no options (see ./run.sh test --help)"
	ensure_packages
	local failed=0 t0 times=() a
	mapfile -t a < <(release_args "$(quick_points)"; plan_builds; printf '%s' "${B_args[0]}")
	test_tree build "" "${a[@]}" || failed=1
	test_tree build-tsan tsan -DCMAKE_BUILD_TYPE=Release -DIC_SANITIZE=thread || failed=1
	test_tree build-asan sanitize -DCMAKE_BUILD_TYPE=Release -DIC_SANITIZE=address || failed=1
	say "times: ${test_times[*]}"
	[ $failed -eq 0 ] || fail "some tests failed (their output is above; logs in each tree's Testing/Temporary)"
	say "every test passed in build, build-tsan and build-asan"
}

# test_tree DIR LABEL CMAKE-ARGS...: configure, build (all, or for a label
# the target tests_LABEL), run the tests (all, or those with the label). The
# tree stays locked while its tests run.
test_times=()
test_tree() {
	local dir=$1 label=$2 t; shift 2
	local sel=() targets=()
	[ -z "$label" ] || { sel=(-L "^${label}\$"); targets=("tests_$label"); }
	(
		lock_build "$dir"
		t=$SECONDS
		phase "test: building $dir (log $dir/build.log)"
		configure "$dir" "$@"
		build "$dir" "${targets[@]}"
		echo "$((SECONDS - t))" >"$dir/.run.sh-build-s"
		t=$SECONDS
		phase "test: running the tests of $dir (log $dir/ctest.log)"
		if ! (cd "$dir" && ctest --output-on-failure -j "$jobs" --timeout 900 "${sel[@]}") >"$dir/ctest.log" 2>&1; then
			show_tail 40 "$dir/ctest.log"
			echo "$((SECONDS - t))" >"$dir/.run.sh-test-s"
			exit 1
		fi
		grep -E 'tests passed|Skipped|\*\*\*Skipped' "$dir/ctest.log" | sed "s/^/$tag: /" >&2 || true
		echo "$((SECONDS - t))" >"$dir/.run.sh-test-s"
	)
	local rc=$?
	test_times+=("$dir build $(cat "$dir/.run.sh-build-s" 2>/dev/null || echo -)s tests $(cat "$dir/.run.sh-test-s" 2>/dev/null || echo -)s;")
	return $rc
}
