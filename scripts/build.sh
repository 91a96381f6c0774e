# Sourced by run.sh: configure and build a tree, its output in logs, and the
# layout variants a sweep runs.

# configure DIR ARGS...: cmake, only when the arguments changed. Ninja (from
# Debian's ninja-build): on these 2-core guests, where starting a process
# is dear, the Makefiles' own processes took about half of a build's time.
# A tree made by another generator is made anew (it holds only build output).
configure() {
	local dir=$1; shift
	local stamp="$dir/.run.sh-configure" want
	set -- -G Ninja "$@"
	want=$(printf '%s\n' "$@")
	if [ -f "$dir/CMakeCache.txt" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then return 0; fi
	if [ -f "$dir/CMakeCache.txt" ] && ! grep -qx 'CMAKE_GENERATOR:INTERNAL=Ninja' "$dir/CMakeCache.txt"; then
		say "$dir was made by another build tool: making it anew with Ninja"
		find "$dir" -mindepth 1 -maxdepth 1 ! -name '.run.sh-lock' -exec rm -rf {} +
	fi
	mkdir -p "$dir"
	rm -f "$stamp"
	step "$dir/configure.log" "configuring $dir" cmake -S "$top" -B "$dir" "$@"
	printf '%s\n' "$want" >"$stamp"
}

# build DIR [TARGET...]: Ninja's lines go to DIR/build.log, not the
# terminal; a build that takes a while says how far it is every 15 s
# (build_progress, from a watcher that ends with the build or with us).
build_label=""
build() {
	local dir=$1; shift
	local t=() watcher rc=0
	[ $# -eq 0 ] || t=(--target "$@")
	build_progress "$dir" >&2 &
	watcher=$!
	# Ninja's status as build_steps reads it, whatever the user's NINJA_STATUS.
	NINJA_STATUS='[%f/%t] ' cmake --build "$dir" -j "$jobs" "${t[@]}" >"$dir/build.log" 2>&1 || rc=$?
	kill "$watcher" 2>/dev/null
	wait "$watcher" 2>/dev/null || true
	if [ $rc -ne 0 ]; then
		show_tail 20 "$dir/build.log"
		fail "building $dir failed (log: $dir/build.log)"
	fi
}

# build_progress DIR: every 15 s while the build runs, one line: Ninja's
# steps done of those it has to run (what is up to date is not among them)
# and the time this build has taken. No time left: the steps differ too
# much (on the Xeon guest a file of the scatter series' clones took about
# 2 s, a chain file 0.08 s), and a rate from their count was off by four.
build_progress() {
	local dir=$1 t0=$SECONDS k n steps what=${build_label:-"build of $1"}
	while :; do
		for _ in {1..15}; do
			sleep 1
			kill -0 $$ 2>/dev/null || exit 0
		done
		read -r k n < <(build_steps "$dir/build.log") || k=0 n=0
		steps=starting
		[ "${k:-0}" -le 0 ] || steps="$k of $n steps"
		phase "$what: $steps, $(fmt_s $((SECONDS - t0))) so far (log $dir/build.log)"
	done
}
# build_steps LOG: Ninja's last [done/total] status in LOG as "done total".
build_steps() { grep -o '^\[[0-9]*/[0-9]*\]' "$1" 2>/dev/null | tail -n 1 | tr '[]/' '  '; }

# lock_build DIR: a build tree has one user at a time; a sweep keeps it
# until it ends, so nothing relinks the bench it is running.
lock_build() {
	mkdir -p "$1"
	lock_take "$1/.run.sh-lock" "$1/" wait
}

# link_variants BUILD: the design's variants of one build, by
# BUILD/bench/link_variant SEED OUT (a no-op when OUT is up to date for
# SEED). Every variant is a random layout of the same objects, drawn from
# its own seed (run.conf's variant_seeds), named by number (rR_vV); with
# --lto, whose code no layout moves, the processes run the ordinary link.
# Variants of earlier designs that this one does not run are removed
# (each is as big as the bench).
link_variants() {
	local b=$1 d=${B_dir[$1]} rv seed keep=" " f v
	[ "$lto" = 1 ] && return 0
	[ -x "$d/bench/link_variant" ] || fail "$d/bench/link_variant missing: the build does not make layout variants"
	[ -n "${variant_seeds:-}" ] || fail "no layout variant seeds in the run's settings"
	mkdir -p "$d/bench/variants"
	for rv in ${variant_seeds:-}; do
		seed=${rv#*:} rv=${rv%%:*}
		keep+="$rv "
		step "$d/link.log" "linking layout variant $rv in $d" "$d/bench/link_variant" "$seed" "$d/bench/variants/$rv"
	done
	for f in "$d"/bench/variants/r*_v*; do
		[ -e "$f" ] || continue
		v=$(basename "${f%.seed}")
		[[ $keep == *" $v "* ]] || rm -f "$f"
	done
}

# build_points: configure and build every build of the sweep with its
# points, link its variants and write what its bench runs (write_plan).
# One line per build on the terminal.
build_points() {
	local specs b nb=${#B_dir[@]} extra targets
	specs=$(plan points | paste -sd';') && [ -n "$specs" ] || fail "the plan has no points (cmd/plan points)"
	# The time left is known only after the builds: said as what follows them.
	local after=$eta_s
	eta_s=""
	for ((b = 0; b < nb; b++)); do
		build_label="build $((b + 1))/$nb"
		phase "$build_label: ${B_dir[$b]} (${B_cc[$b]:-cc}, ${B_cflags[$b]:--O2}, ${B_codegen[$b]} codegen; log ${B_dir[$b]}/build.log)${after:+; then about $(fmt_s "$after")}"
		mapfile -t extra < <(release_args "$specs"; printf '%s' "${B_args[$b]}")
		configure "${B_dir[$b]}" "${extra[@]}"
		# summarize draws the charts itself; runs weighs the repeats' agreement
		# and exports the run.
		targets=(sites_bench summarize machine_state)
		[ "$b" -gt 0 ] || targets+=(runs)
		build "${B_dir[$b]}" "${targets[@]}"
		link_variants "$b"
		write_plan "$b"
	done
	build_label=""
	eta_s=$after
}

# build_tree_ready: build/ locked and configured by Ninja, as ./run.sh
# test --all configures it (the quick sweep's points), when it is not yet:
# for the subcommands that build one program there.
build_tree_ready() {
	lock_build build
	# A tree of another build tool is made anew (configure says so).
	! grep -qsx 'CMAKE_GENERATOR:INTERNAL=Ninja' build/CMakeCache.txt || return 0
	quick_args
	configure build "${qargs[@]}"
}

# build_program TARGET...: programs of build/ (cmd/NAME, the
# microbenchmarks) for the subcommands, built when missing or stale; a
# first build configures build/ as ./run.sh test --all does. build/ stays
# locked until the caller ends (compare and agree call this in a subshell,
# to let it go before they run).
build_program() {
	ensure_packages
	build_tree_ready
	build build "$@"
}
