#!/bin/sh
# Form clone: every site calls copies of its own. In each clone
# point's objects the sites call N x 2 distinct functions <prefix>_k<k>_<op>
# and no ic_<op>_<form>; in the linked program the copies sit at N x 2
# distinct addresses (nothing folded at link time either). Then codesize's
# proof: it passes these points, and refuses (exit 3, one line) copies that
# gcc folded once noipa is dropped, and extern objects given as clone.
# usage: test_gen_clone.sh CODESIZE ARGFILE PROGRAM [GEN CC GEN_DIR QUEUE_DIR]
codesize=$1 args=$2 prog=$3 gen=${4:-} cc=${5:-} gen_dir=${6:-} queue_dir=${7:-}
command -v objdump >/dev/null || { echo "skip: objdump (binutils) not installed"; exit 77; }
. "$(dirname "$0")/lib.sh"
scratch tmp

# The symbol prefix of a spec's series, as gen/point_name.h's
# ic_series_prefix(): the copies are the series' sites'.
prefix_of() {
	echo "$1" | awk -F: '{ p = "ic_sr_" $1 "_" $2 "_" $3; if ($7 > 0) p = p "_f" $7; print p }'
}

# Points at their series' largest N (the _m<N>_ of the point's directory):
# there the point's objects hold its sites and no others.
awk '$0 == "--point" { getline spec; split(spec, f, ":"); first = 1; next }
	first { first = 0; keep = match($0, /_m[0-9]+_k/) && substr($0, RSTART + 2, RLENGTH - 4) == f[6] }
	keep { print spec, $0 }' "$args" >"$tmp/objs"
nm "$prog" >"$tmp/nm" || { bad "nm $prog"; exit 1; }
seen=""
for spec in $(awk '$1 ~ /^clone:/ { print $1 }' "$tmp/objs" | uniq); do
	prefix=$(prefix_of "$spec")
	sites=$(echo "$spec" | cut -d: -f6)
	want=$((sites * 2))
	: >"$tmp/calls"
	awk -v s="$spec" '$1 == s { print $2 }' "$tmp/objs" | while read -r obj; do
		# Call (or tail-call jmp) relocations, with the function they are in.
		objdump -dr --no-show-raw-insn "$obj" | awk '
			/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
			/\t(call|jmp) / { call = 1; next }
			call && /R_X86_64_/ { t = $NF; sub(/^\.text\./, "", t); sub(/[-+]0x[0-9a-f]+$/, "", t); print fn, t }
			{ call = 0 }'
	done >"$tmp/calls"
	copies=$(awk -v p="$prefix" '$1 !~ "^" p "_k[0-9]+_" && $2 ~ "^" p "_k[0-9]+_[a-z_]+$" { print $2 }' "$tmp/calls" | sort -u | wc -l)
	[ "$copies" -eq "$want" ] || bad "$spec: the sites call $copies distinct copies, expected $want"
	if grep -qE ' ic_[a-z_]+_(inline|hint|extern|inline_nolock|extern_nolock)$' "$tmp/calls"; then
		bad "$spec: calls a queue operation, not its own copy:"; grep -E ' ic_' "$tmp/calls" | head -3 >&2
	fi
	# A copy calls nothing of the point (a folded copy would be a thunk to another).
	awk -v p="$prefix" '$1 ~ "^" p "_k[0-9]+_" && $2 ~ "^" p { print }' "$tmp/calls" | grep -q . &&
		bad "$spec: a copy calls into the point (folded into a thunk?)"
	addrs=$(grep -E " [tT] ${prefix}_k[0-9]+_[a-z_]+\$" "$tmp/nm" | cut -d' ' -f1 | sort -u | wc -l)
	[ "$addrs" -eq "$want" ] || bad "$spec: $addrs copies at distinct addresses in $prog, expected $want"
	echo "$spec: $copies distinct copies called, $addrs linked apart"
	seen="$seen $spec"
done
for need in clone:tail_dequeue:chain:seq:0:64 clone:mixed:chain:seq:0:64; do
	case " $seen " in *" $need "*) ;; *) bad "$need is not in the test points" ;; esac
done

# codesize accepts them (the build ran it), and refuses what is not clone.
ext=$(awk '$1 == "extern:tail_dequeue:chain:seq:0:64" { print $2 }' "$tmp/objs")
"$codesize" --point clone:tail_dequeue:chain:seq:0:64 $ext >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] || bad "codesize took extern objects as clone: exit $rc"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'ic_queue_tail_extern' "$tmp/err" ||
	bad "codesize on extern as clone: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && bad "codesize wrote a CSV for a refused point"

# Without noipa gcc folds the identical copies into one per op: codesize
# must see it (gcc only; clang does no compile-time folding).
fold_check "$gen_dir" "$queue_dir" tail_dequeue

[ $fail -eq 0 ] && echo "ok: every clone site calls its own copies, and codesize proves it"
exit $fail
