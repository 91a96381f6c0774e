#!/usr/bin/env bash
# Proves the forms in the object code: probe_inline contains no call at all
# (the locked body is in place), probe_extern calls ic_queue_tail_extern;
# probe_inline_nolock has no call and no locked instruction, probe_extern_nolock
# calls ic_queue_tail_extern_nolock; probe_clone calls two identical copies
# that stayed two functions, each with the locked body in place.
# probe_hint is reported, not judged: the compiler decides.
# purge's release is the same work in every form: no call through a pointer
# (nor an indirect thunk) in the inline probe, the clone copy, or the extern
# copy in QUEUE_LIB, and the inline one calls nothing.
# Usage: test_queue_forms_objcode.sh OBJECT QUEUE_LIB
set -euo pipefail
obj=$1 lib=$2
command -v objdump >/dev/null || { echo "skip: objdump (binutils) not installed"; exit 77; }

# Disassembly of one function, with relocations, from OBJECT.
body() { objdump -d -r --no-show-raw-insn "${2:-$obj}" | awk -v f="<$1>:" '$2 == f {on=1; next} on && /^$/ {on=0} on'; }
# A lock prefix, or xchg with memory (locked without one; gas pads with xchg %ax,%ax).
locked() { grep -qE $'\t(lock[ \t]|xchg[^(]*\\()' <<<"$1"; }
nocall() { ! grep -qE '\s(call|jmp)\s.*ic_' <<<"$1" && ! grep -qE '\scall\s' <<<"$1"; }

inl=$(body probe_inline); ext=$(body probe_extern); hint=$(body probe_hint)
inl_nl=$(body probe_inline_nolock); ext_nl=$(body probe_extern_nolock)
clone=$(body probe_clone); clone_a=$(body probe_clone_a); clone_b=$(body probe_clone_b)
[ -n "$inl" ] && [ -n "$ext" ] && [ -n "$inl_nl" ] && [ -n "$ext_nl" ] && [ -n "$clone" ] ||
	{ echo "FAIL: probe functions not found in $obj"; exit 1; }
if ! nocall "$inl"; then
	echo "FAIL: probe_inline calls out:"; grep -E 'call|jmp' <<<"$inl"; exit 1
fi
locked "$inl" || { echo "FAIL: probe_inline has no locked instruction: body not inlined?"; exit 1; }
grep -qE 'ic_queue_tail_extern' <<<"$ext" || { echo "FAIL: probe_extern does not call ic_queue_tail_extern:"; echo "$ext"; exit 1; }
nocall "$inl_nl" || { echo "FAIL: probe_inline_nolock calls out:"; grep -E 'call|jmp' <<<"$inl_nl"; exit 1; }
if locked "$inl_nl"; then echo "FAIL: probe_inline_nolock has a locked instruction:"; echo "$inl_nl"; exit 1; fi
grep -qE 'ic_queue_tail_extern_nolock' <<<"$ext_nl" ||
	{ echo "FAIL: probe_extern_nolock does not call ic_queue_tail_extern_nolock:"; echo "$ext_nl"; exit 1; }
grep -qE '(call|jmp).*<probe_clone_a>' <<<"$clone" && grep -qE '(call|jmp).*<probe_clone_b>' <<<"$clone" ||
	{ echo "FAIL: probe_clone does not call both copies (folded or inlined?):"; echo "$clone"; exit 1; }
for c in "$clone_a" "$clone_b"; do
	[ -n "$c" ] && nocall "$c" && locked "$c" || { echo "FAIL: a clone copy is not the locked body in place:"; echo "$c"; exit 1; }
done
indirect() { grep -qE $'\t(call|jmp)[ \t]+\\*|__x86_indirect_thunk' <<<"$1"; }
p_inl=$(body probe_purge_inline); p_clone=$(body probe_purge_clone_a); p_ext=$(body ic_purge_extern "$lib")
[ -n "$p_inl" ] && [ -n "$p_clone" ] && [ -n "$p_ext" ] || { echo "FAIL: purge probes or ic_purge_extern not found"; exit 1; }
for p in "$p_inl" "$p_clone" "$p_ext"; do
	if indirect "$p"; then echo "FAIL: a purge releases through an indirect call:"; echo "$p"; exit 1; fi
done
nocall "$p_inl" || { echo "FAIL: probe_purge_inline calls out:"; grep -E 'call|jmp' <<<"$p_inl"; exit 1; }
if grep -qE 'ic_queue_tail_hint' <<<"$hint"; then hint_says="called an out-of-line copy"; else hint_says="inlined it"; fi
echo "forms: inline has no call ($(wc -l <<<"$inl") lines), extern calls ic_queue_tail_extern, inline_nolock" \
	"has no call and no lock, extern_nolock calls ic_queue_tail_extern_nolock, clone calls two copies;" \
	"purge releases with no indirect call in any form;" \
	"hint: compiler $hint_says"
