# Sourced by run.sh: ./run.sh history -- this machine's runs, newest first
# (cmd/history, engine/run_history.h).

sub_history() {
	local rdir=$top/results all=() given=0
	while [ $# -gt 0 ]; do
		case $1 in
		-h | --help) help_text history; exit 0 ;;
		--*=*) set -- "${1%%=*}" "${1#*=}" "${@:2}"; continue ;;
		--results) [ $# -ge 2 ] && [ -n "$2" ] || die "history: --results needs a value"
			rdir=$(abs_path "$2") given=1; shift 2 ;;
		--all) all=(--all); shift ;;
		*) die "history: unknown option '$1' (see ./run.sh history --help)" ;;
		esac
	done
	if [ ! -d "$rdir" ]; then
		[ "$given" = 1 ] || { echo "No runs yet: $rdir does not exist."; exit 0; }
		die "history: --results $rdir is not a directory"
	fi
	ensure_packages
	build_tree_ready
	build build history
	exec build/cmd/history --results "$rdir" "${all[@]}"
}
