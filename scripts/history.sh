# Sourced by run.sh: ./run.sh history -- this machine's runs, newest first
# (cmd/history, engine/run_history.h).

sub_history() {
	parse_sub history "--results=path --all" "$@"
	local rdir=${opt[--results]:-$top/results} all=()
	[ -z "${opt[--all]:-}" ] || all=(--all)
	if [ ! -d "$rdir" ]; then
		[ -n "${opt[--results]:-}" ] || { echo "No runs yet: $rdir does not exist."; exit 0; }
		die "history: --results $rdir is not a directory"
	fi
	build_program history
	exec build/cmd/history --results "$rdir" "${all[@]}"
}
