#!/bin/sh
# The nolock forms have no locked instruction: no lock prefix and
# no xchg with memory (locked without a prefix) in the objects of the
# inline_nolock and extern_nolock points, nor in ic_<op>_extern_nolock in
# either lock's queue library; the locked forms do have them (inline and
# clone point objects, ic_<op>_extern), so the check can fail. And codesize
# refuses locked objects given as a nolock point (exit 3, one line).
# usage: test_gen_nolock.sh CODESIZE ARGFILE QUEUE_LIB...
codesize=$1 args=$2
shift 2
command -v objdump >/dev/null || { echo "skip: objdump (binutils) not installed"; exit 77; }
. "$(dirname "$0")/lib.sh"
scratch tmp

# locked FILE: the locked instructions in FILE's disassembly, one per line,
# after the function they are in. (gas pads with `xchg %ax,%ax`: no memory.)
locked() {
	objdump -d --no-show-raw-insn "$1" | awk '
		/^[0-9a-f]+ <.*>:$/ { fn = $2; next }
		/:\t/ { i = $0; sub(/^[^\t]*\t/, "", i)
			if (i ~ /^lock([ \t]|$)/ || (i ~ /^xchg/ && i ~ /\(/)) print fn, i }'
}

# Points at their series' largest N (the _m<N>_ of the point's directory):
# there the point's objects hold its sites and no others.
awk '$0 == "--point" { getline spec; split(spec, f, ":"); first = 1; next }
	first { first = 0; keep = match($0, /_m[0-9]+_k/) && substr($0, RSTART + 2, RLENGTH - 4) == f[6] }
	keep { print spec, $0 }' "$args" >"$tmp/objs"
n_nolock=0 n_locked=0
while read -r spec obj; do
	case $obj in */point.c.o) continue ;; esac
	case $spec in
	inline_nolock:* | extern_nolock:*)
		n_nolock=$((n_nolock + 1))
		locked "$obj" >"$tmp/l"
		[ -s "$tmp/l" ] && { bad "$spec: locked instructions in $(basename "$obj"):"; head -3 "$tmp/l" >&2; }
		;;
	inline:* | clone:*)
		n_locked=$((n_locked + 1))
		[ -n "$(locked "$obj")" ] || bad "$spec: no locked instruction in $(basename "$obj")"
		;;
	esac
done <"$tmp/objs"
[ $n_nolock -gt 0 ] && [ $n_locked -gt 0 ] || bad "no nolock ($n_nolock) or locked ($n_locked) objects in $args"

# The libraries: per function, nolock copies none, locked copies some
# (init takes no lock; purge's lock is in the dequeue it calls).
for lib in "$@"; do
	locked "$lib" | awk '{ print $1 }' | sort -u >"$tmp/lf"
	objdump -d "$lib" | sed -n 's/^[0-9a-f]* <\(ic_[a-z_]*_extern\(_nolock\)\{0,1\}\)>:$/\1/p' | sort -u >"$tmp/fns"
	grep -c . "$tmp/fns" | grep -qx 18 || bad "$(basename "$lib"): $(grep -c . "$tmp/fns") extern functions, expected 2 x 9"
	while read -r f; do
		case $f in
		*_extern_nolock) grep -qx "<$f>:" "$tmp/lf" && bad "$(basename "$lib"): $f has a locked instruction" ;;
		ic_queue_init_extern | ic_purge_extern) ;;
		*) grep -qx "<$f>:" "$tmp/lf" || bad "$(basename "$lib"): $f has no locked instruction" ;;
		esac
	done <"$tmp/fns"
done

# codesize proves it too: locked objects named nolock are refused.
for pair in inline_nolock:inline extern_nolock:extern; do
	nl=${pair%%:*} lk=${pair#*:}
	objs=$(awk -v s="$lk:tail_dequeue:chain:seq:0:64" '$1 == s { print $2 }' "$tmp/objs")
	[ -n "$objs" ] || { bad "no $lk:tail_dequeue:chain:seq:0:64 in $args"; continue; }
	# shellcheck disable=SC2086
	"$codesize" --point "$nl:tail_dequeue:chain:seq:0:64" $objs >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 3 ] || bad "codesize took $lk objects as $nl: exit $rc"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "codesize $lk as $nl: not one line: $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && bad "codesize $lk as $nl: wrote a CSV"
	echo "codesize on $lk as $nl: $(cat "$tmp/err")"
done

# An objdump that cannot run (not an executable file) is codesize's one
# line, not the shell's beside it.
objs=$(awk -v s="extern:tail_dequeue:chain:seq:0:64" '$1 == s { print $2 }' "$tmp/objs")
# shellcheck disable=SC2086
"$codesize" --objdump /etc/passwd --point "extern_nolock:tail_dequeue:chain:seq:0:64" $objs >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "codesize --objdump /etc/passwd: exit $rc, $(cat "$tmp/err")"

[ $fail -eq 0 ] && echo "ok: $n_nolock nolock objects and the nolock copies lock-free, $n_locked locked objects locked"
exit $fail
