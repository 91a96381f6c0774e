#!/usr/bin/env bash
# Proves the forms in the object code: probe_inline contains no call at all
# (the locked body is in place), probe_extern calls ic_queue_tail_extern.
# probe_hint is reported, not judged: the compiler decides.
# Usage: check_forms.sh OBJECT
set -euo pipefail
obj=$1
command -v objdump >/dev/null || { echo "skip: objdump (binutils) not installed"; exit 77; }

# Disassembly of one function, with relocations, from OBJECT.
body() { objdump -d -r --no-show-raw-insn "$obj" | awk -v f="<$1>:" '$2 == f {on=1; next} on && /^$/ {exit} on'; }

inl=$(body probe_inline); ext=$(body probe_extern); hint=$(body probe_hint)
[ -n "$inl" ] && [ -n "$ext" ] || { echo "FAIL: probe functions not found in $obj"; exit 1; }
if grep -qE '\s(call|jmp)\s.*ic_' <<<"$inl" || grep -qE '\scall\s' <<<"$inl"; then
	echo "FAIL: probe_inline calls out:"; grep -E 'call|jmp' <<<"$inl"; exit 1
fi
grep -q 'xchg\|lock ' <<<"$inl" || { echo "FAIL: probe_inline has no locked instruction: body not inlined?"; exit 1; }
grep -qE 'ic_queue_tail_extern' <<<"$ext" || { echo "FAIL: probe_extern does not call ic_queue_tail_extern:"; echo "$ext"; exit 1; }
if grep -qE 'ic_queue_tail_hint' <<<"$hint"; then hint_says="called an out-of-line copy"; else hint_says="inlined it"; fi
echo "forms: inline has no call ($(wc -l <<<"$inl") lines), extern calls ic_queue_tail_extern; hint: compiler $hint_says"
