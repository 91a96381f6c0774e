#!/bin/sh
# The kernel's call, proven in the object code. In the kernel build
# (IC_CODEGEN=kernel) every function of the sites and the queue starts with
# endbr64 (the static ones only called directly excepted, as gcc does in
# the kernel) and then the 5-byte nop ftrace patches (recorded in __mcount_loc),
# returns by `jmp __x86_return_thunk` and never by `ret`, makes every indirect
# branch through __x86_indirect_thunk_<reg> with int3 after each indirect jump,
# and touches no vector register; the thunks themselves follow every ret and
# indirect jump with int3. In the user and vectorised builds none of that is
# there: plain rets, no endbr64, no entry nop, no thunk.
# usage: test_gen_kernel_codegen.sh kernel|user|vectorised ARGFILE QUEUE_LIB [THUNK_LIB]
codegen=$1 args=$2 queue=$3 thunks=$4
command -v objdump >/dev/null || { echo "skip: objdump (binutils) not installed"; exit 77; }
. "$(dirname "$0")/lib.sh"
scratch tmp

# Every object: the generated sites of every point, and the queue library.
grep -v -e '^--' -e ':' "$args" >"$tmp/objs"
echo "$queue" >>"$tmp/objs"
[ "$(wc -l <"$tmp/objs")" -gt 1 ] || { echo "FAIL: no objects in $args" >&2; exit 1; }
# One objdump, readelf and nm for all of them (hundreds of objects).
tr '\n' '\0' <"$tmp/objs" | xargs -0 objdump -d -r >"$tmp/all" || bad "objdump failed"
tr '\n' '\0' <"$tmp/objs" | xargs -0 readelf -S -W >"$tmp/sections" 2>/dev/null
tr '\n' '\0' <"$tmp/objs" | xargs -0 nm --defined-only | awk '$2 == "T" { print $3 }' >"$tmp/globals"

# Per function: its first two instructions' bytes, its rets, thunk jumps.
awk '
	FILENAME != ARGV[2] { global["<" $1 ">:"] = 1; next }
	/^[0-9a-f]+ <[^>]+>:$/ { funcs++; n = 0; e = 0; g = $2 in global; globals += g; next }
	/^ +[0-9a-f]+:\t/ && funcs {
		split($0, c, "\t")
		bytes = c[2]; gsub(/ +$/, "", bytes); ins = c[3]
		# endbr64 where the function may be reached indirectly (gcc
		# leaves it out of static functions only called directly, as in
		# the kernel), then the nop.
		if (++n == 1 && bytes == "f3 0f 1e fa") { e = 1; if (g) endbr++ }
		if (n == 1 + e && bytes == "0f 1f 44 00 00") nop++
		if (ins ~ /^(ret|retq)( |$)/) rets++
		next
	}
	/R_X86_64_PLT32[ \t]+__x86_return_thunk/ { thunk_rets++ }
	/R_X86_64_PLT32[ \t]+__x86_indirect_thunk_/ { ind++ }
	END {
		printf "functions %d globals %d endbr %d entry_nop %d ret %d thunk_ret %d indirect_thunk %d\n",
			funcs, globals + 0, endbr + 0, nop + 0, rets + 0, thunk_rets + 0, ind + 0
	}' "$tmp/globals" "$tmp/all" >"$tmp/count"
read -r _ funcs _ globals _ endbr _ nop _ rets _ thunk_rets _ ind <"$tmp/count"
echo "objects: $(cat "$tmp/count")"
# int3 right after every indirect jump (through a thunk or not).
awk '/^ +[0-9a-f]+:\t/ { split($0, c, "\t"); ins = c[3]
		if (want) { if (ins !~ /^int3/) miss++; want = 0 }
		if (ins ~ /^jmp +\*/) want = 1; next }
	/R_X86_64_PLT32[ \t]+__x86_indirect_thunk_/ && last ~ /^jmp/ { want = 1 }
	{ if ($0 ~ /^ +[0-9a-f]+:\t/) last = ins }
	END { print miss + 0 }' "$tmp/all" >"$tmp/sls"
mcount=$(grep -c '__mcount_loc' "$tmp/sections")

case $codegen in
kernel)
	[ "$funcs" -gt 0 ] || bad "no functions found"
	[ "$globals" -gt 0 ] && [ "$endbr" -eq "$globals" ] || bad "endbr64 starts $endbr of $globals global functions"
	[ "$nop" -eq "$funcs" ] || bad "the 5-byte entry nop follows endbr64 in $nop of $funcs functions"
	[ "$rets" -eq 0 ] || bad "$rets ret instructions: returns must jump to __x86_return_thunk"
	[ "$thunk_rets" -gt 0 ] || bad "no jmp __x86_return_thunk"
	[ "$mcount" -gt 0 ] || bad "no __mcount_loc section: the entry nops are not recorded"
	[ "$(cat "$tmp/sls")" -eq 0 ] || bad "$(cat "$tmp/sls") indirect jumps without int3 after them"
	grep -qE '%[xyz]mm[0-9]' "$tmp/all" && bad "vector registers in the kernel build"
	# The thunks: int3 after every ret and indirect jump; the return thunk
	# itself is there.
	[ -n "$thunks" ] || { bad "no thunk library given"; exit 1; }
	objdump -d "$thunks" >"$tmp/th" || bad "objdump $thunks"
	grep -q '<__x86_return_thunk>:' "$tmp/th" || bad "no __x86_return_thunk in $thunks"
	for r in rax rbx rcx rdx rsi rdi rbp r8 r9 r10 r11 r12 r13 r14 r15; do
		grep -q "<__x86_indirect_thunk_$r>:" "$tmp/th" || bad "no __x86_indirect_thunk_$r"
	done
	n=$(awk '/^ +[0-9a-f]+:\t/ { split($0, c, "\t"); ins = c[3]
			if (want && ins !~ /^int3/) miss++; want = ins ~ /^(ret|jmp +\*)/ }
		END { print miss + 0 }' "$tmp/th")
	[ "$n" -eq 0 ] || bad "$n rets or indirect jumps in the thunks without int3 after them"
	;;
user | vectorised)
	[ "$endbr" -eq 0 ] || bad "endbr64 at $endbr function entries in the $codegen build"
	[ "$nop" -eq 0 ] || bad "an entry nop in $nop functions of the $codegen build"
	[ "$thunk_rets" -eq 0 ] && [ "$ind" -eq 0 ] || bad "thunk jumps in the $codegen build"
	[ "$rets" -gt 0 ] || bad "no ret in the $codegen build"
	[ "$mcount" -eq 0 ] || bad "__mcount_loc in the $codegen build"
	;;
*) echo "usage: test_gen_kernel_codegen.sh kernel|user|vectorised ARGFILE QUEUE_LIB [THUNK_LIB]" >&2; exit 2 ;;
esac
[ $fail -eq 0 ] && echo "ok: the $codegen build's calls and returns are as it says"
exit $fail
