#!/bin/sh
# gen/body_check.c, compiled as run.sh compiles it: every example compiles
# in every form (exit 0, nothing printed); a body that does not compile
# (tests/data/body/broken.c), one that cannot link (a global in every site file) and a missing file each
# print exactly one line containing "error" and exit 1; bad usage exits 2.
# Nothing is left in TMPDIR either way.
# usage: test_gen_body_check.sh BODY_CHECK.c CC TOP
src=$1 cc=$2 top=$3
. "$(dirname "$0")/lib.sh"
scratch tmp
mkdir "$tmp/t"
check=$tmp/body_check
"$cc" -O1 -w -o "$check" "$src" || bad "$src does not compile"
flags="-O2 -mgeneral-regs-only"

# expect RC FILE: body_check FILE exits RC, one line with "error" on stderr
# (none when RC is 0), TMPDIR left empty.
expect() {
	want=$1 file=$2
	# shellcheck disable=SC2086
	TMPDIR=$tmp/t "$check" "$top" "$file" "$cc" $flags >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq "$want" ] || bad "$file: exit $rc, want $want: $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && bad "$file: wrote to stdout"
	if [ "$want" -eq 0 ]; then
		[ -s "$tmp/err" ] && bad "$file: said $(cat "$tmp/err")"
	else
		[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q error "$tmp/err" ||
			bad "$file: not one error line: $(cat "$tmp/err")"
	fi
	[ -z "$(ls -A "$tmp/t")" ] || bad "$file: left $(ls -A "$tmp/t") in TMPDIR"
}

for ex in "$top"/examples/*.c; do
	expect 0 "$ex"
done
expect 1 "$top/tests/data/body/broken.c"
grep -q 'broken\.c:[0-9]*:[0-9]*: error: .*cuont' "$tmp/err" || bad "broken.c: not the compiler's line: $(cat "$tmp/err")"
expect 1 "$top/tests/data/body/global.c"
grep -q "multiple definition of .calls'" "$tmp/err" || bad "global.c: the symbol is not named: $(cat "$tmp/err")"
expect 1 "$tmp/missing.c"
# A name that is not one: gen's reason, as one error line.
cp "$top/examples/minimal.c" "$tmp/my-body.c"
expect 1 "$tmp/my-body.c"
grep -q "letters, digits" "$tmp/err" || bad "my-body.c: not gen's reason: $(cat "$tmp/err")"
# No function: the inline form has nothing to inline.
printf '#include <stdint.h>\nstruct ic_body_state { int x; };\n' >"$tmp/nofn.c"
expect 1 "$tmp/nofn.c"
# No set-up (or a misspelt one): the link names it.
cat >"$tmp/nosetup.c" <<'EOF'
#include <stdint.h>

struct ic_body_state {
	uint64_t count;
};

uint64_t IC_BODY_FN(struct ic_body_state *s, uint32_t c)
{
	s->count += c;
	return s->count;
}
EOF
expect 1 "$tmp/nosetup.c"
grep -q 'IC_BODY_SETUP is not defined' "$tmp/err" || bad "nosetup.c: set-up not named: $(cat "$tmp/err")"

TMPDIR=$tmp/t "$check" "$top" "$top/examples/minimal.c" >/dev/null 2>&1
[ $? -eq 2 ] || bad "no arguments: not exit 2"

[ $fail -eq 0 ] && echo "ok: body_check passes the examples and names the first error of bad bodies"
exit $fail
