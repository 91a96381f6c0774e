#!/bin/sh
# codesize on the example bodies' points: inline sites call no
# ic_body_*, extern sites call ic_body_extern once each, clone sites call N
# distinct copies (codesize proved it at build time), mark calls nothing,
# hint is reported; every form has its bytes per site. Then codesize's
# refusals, one line and exit 3 each: extern objects given as inline (not
# inlined), inline objects given as extern (extern inlined), and clone
# copies that gcc folded once noipa is dropped.
# usage: test_examples_codesize.sh CODESIZE GEN CC TOP [CSV ARGFILE]...
codesize=$1 gen=$2 cc=$3 top=$4
shift 4
command -v objdump >/dev/null || { echo "skip: objdump (binutils) not installed"; exit 77; }
. "$(dirname "$0")/lib.sh"
scratch tmp

# objs_of ARGFILE SPEC: the objects of SPEC (the file may start with --body NAME).
objs_of() {
	awk -v s="$2" '$0 == "--body" { getline; next } $0 == "--point" { getline spec; next }
		spec == s { print }' "$1"
}

printf '%-8s %s\n' body "bytes per site, chain, N 16..64: inline hint extern clone mark" >&2
while [ $# -ge 2 ]; do
	csv=$1 args=$2
	shift 2
	[ -s "$csv" ] || { bad "$csv missing (build the body_test_* targets)"; continue; }
	body=$(sed -n 2p "$args")
	[ "$(sed -n 1p "$args")" = "--body" ] && [ -n "$body" ] || bad "$args does not start with --body NAME"
	tail -n +2 "$csv" | awk -F, -v b="$body" '
		{ name = $1 "/" $2 "/" $3 "/" $4 "/" $6 "/filler:" $13 }
		$2 != b { print "FAIL: " name ": op is not the body " b; bad = 1 }
		$10 != 1 { print "FAIL: " name ": " $10 " ops per site, a body has 1"; bad = 1 }
		($1 == "inline" || $1 == "mark") && ($9 != 0 || ($1 == "inline" && $11 != $6)) {
			print "FAIL: " name ": " $9 " calls, " $11 " inlined sites"; bad = 1 }
		($1 == "extern" || $1 == "clone") && ($9 != $6 || $11 != 0) {
			print "FAIL: " name ": " $9 " calls, expected " $6; bad = 1 }
		$1 == "hint" && $6 == 64 { hint = $11 " of 64 inlined" }
		$7 <= 0 { print "FAIL: " name ": footprint " $7; bad = 1 }
		$3 == "chain" && $13 == 0 && $6 == 64 { if ($8 == "") { print "FAIL: " name ": no slope"; bad = 1 } slope[$1] = $8 }
		END {
			# A copy per site and a call each: more than the extern call alone
			# (inline may be less: a small body folds into its callers).
			if (!(slope["clone"] > slope["extern"])) { print "FAIL: " b ": clone bytes per site not above extern"; bad = 1 }
			printf "%-8s %s %s %s %s %s (hint: %s)\n", b, slope["inline"], slope["hint"], slope["extern"],
				slope["clone"], slope["mark"], hint
			exit bad }' >&2 || fail=1

	# Refusals: the objects of one form given as another.
	ext=$(objs_of "$args" "extern:$body:chain:seq:0:16")
	inl=$(objs_of "$args" "inline:$body:chain:seq:0:16")
	[ -n "$ext" ] && [ -n "$inl" ] || { bad "$body: no inline or extern objects in $args"; continue; }
	for case in "inline $ext:could not be inlined" "extern $inl:some were inlined" \
		"clone $ext:not a copy of its own"; do
		form=${case%% *} rest=${case#* }
		objs=${rest%%:*} want=${rest#*:}
		# shellcheck disable=SC2086
		"$codesize" --body "$body" --point "$form:$body:chain:seq:0:16" $objs >"$tmp/out" 2>"$tmp/err"
		rc=$?
		[ $rc -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "$want" "$tmp/err" ||
			bad "$body: codesize took the wrong objects as $form: exit $rc, $(cat "$tmp/err")"
		[ -s "$tmp/out" ] && bad "$body: codesize wrote a CSV for a refused point"
	done
done

# Usage: a body's name only before the first --point, and never a queue op's;
# no nolock form for a body; a body's op unknown without --body.
obj=$(objs_of "$args" "extern:$body:chain:seq:0:16" | head -n 1)
for case in "--point extern:$body:chain:seq:0:16 $obj --body $body" "--body tail_dequeue" "--body a-b" \
	"--body $body --point inline_nolock:$body:chain:seq:0:16 $obj" "--point extern:$body:chain:seq:0:16 $obj"; do
	# shellcheck disable=SC2086
	"$codesize" $case >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "codesize $case: exit $rc, $(cat "$tmp/err")"
done

# Without noipa gcc folds identical copies: codesize must see it (gcc only).
fold_check "$top/gen" "$top/queue" kref "$top/examples/kref.c"

[ $fail -eq 0 ] && echo "ok: codesize proves every example's forms and refuses what they are not"
exit $fail
