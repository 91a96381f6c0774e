#!/bin/sh
# gen: each bad input exits 2 with one line on stderr naming the option, and
# writes nothing: an existing directory stays as it was, a new one is not made.
# usage: test_gen_bad_input.sh GEN
gen=$1
tmp=$(mktemp -d) || exit 1
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

# expect_bad OPTION DIR ARGS...: gen ARGS -o DIR must fail as described.
expect_bad() {
	opt=$1 dir=$2
	shift 2
	before=$(ls -lA --time-style=+%s.%N "$tmp" "$tmp/empty" 2>&1)
	"$gen" "$@" -o "$dir" >"$tmp.out" 2>"$tmp.err"
	rc=$?
	lines=$(wc -l <"$tmp.err")
	[ $rc -eq 2 ] || bad "$* -o $dir: exit $rc, expected 2"
	[ "$lines" -eq 1 ] || bad "$* -o $dir: $lines lines on stderr, expected 1"
	grep -q -- "$opt" "$tmp.err" || bad "$* -o $dir: stderr does not name $opt: $(cat "$tmp.err")"
	[ -s "$tmp.out" ] && bad "$* -o $dir: wrote to stdout"
	after=$(ls -lA --time-style=+%s.%N "$tmp" "$tmp/empty" 2>&1)
	[ "$before" = "$after" ] || bad "$* -o $dir: something was written"
	[ -e "$tmp/new" ] && bad "$* -o $dir: created the output directory"
	rm -f "$tmp.out" "$tmp.err"
}

mkdir "$tmp/empty"
ok="--form inline --op tail_dequeue --layout chain --order seq"
for dir in "$tmp/empty" "$tmp/new"; do
	for n in 0 -1 abc 1000001 "" 12x 99999999999999999999; do
		expect_bad --sites "$dir" --sites "$n" $ok
	done
	expect_bad --form "$dir" --sites 8 --form bogus
	expect_bad --op "$dir" --sites 8 --form inline --op bogus
	expect_bad --layout "$dir" --sites 8 --form inline --layout bogus
	expect_bad --order "$dir" --sites 8 --form inline --order bogus
	expect_bad --seed "$dir" --sites 8 --form inline --order random --seed -3
	expect_bad --per-file "$dir" --sites 8 --form inline --per-file 0
	for b in x -1 65537 "" 1e3 99999999999; do
		expect_bad --filler "$dir" --sites 8 --form inline --filler "$b"
	done
	# More filler constants than gen has distinct ones (2^29).
	expect_bad --filler "$dir" --sites 1000000 --form mark --filler 65536
	expect_bad --form "$dir" --sites 8 --form inline_lock
	expect_bad --sites "$dir" --form inline
	expect_bad --form "$dir" --sites 8
	expect_bad --bogus "$dir" --sites 8 --form inline --bogus
done

# --body FILE: a file that is not one, a name that is not a
# body's, a form a body has not, and --op beside it.
mkdir "$tmp/bodies"
for f in kref.c tail_dequeue.c queue.c my-body.c x.h; do
	printf 'struct ic_body_state { int x; };\n' >"$tmp/bodies/$f"
done
for dir in "$tmp/empty" "$tmp/new"; do
	expect_bad --body "$dir" --sites 8 --form inline --body "$tmp/bodies/missing.c"
	expect_bad --body "$dir" --sites 8 --form inline --body "$tmp/bodies"
	for f in tail_dequeue.c queue.c my-body.c x.h; do
		expect_bad --body "$dir" --sites 8 --form inline --body "$tmp/bodies/$f"
	done
	expect_bad --form "$dir" --sites 8 --form inline_nolock --body "$tmp/bodies/kref.c"
	expect_bad --form "$dir" --sites 8 --form extern_nolock --body "$tmp/bodies/kref.c"
	expect_bad --op "$dir" --sites 8 --form inline --op mixed --body "$tmp/bodies/kref.c"
done

# DIR not writable: under a regular file, or a regular file itself.
: >"$tmp/file"
expect_bad -o "$tmp/file/new" --sites 8 --form inline
expect_bad -o "$tmp/file" --sites 8 --form inline
[ -s "$tmp/file" ] && bad "-o FILE: the file was written"
# A read-only directory stops everyone but root.
mkdir "$tmp/ro"
chmod 0555 "$tmp/ro"
if [ "$(id -u)" -ne 0 ]; then
	expect_bad -o "$tmp/ro" --sites 8 --form inline
	expect_bad -o "$tmp/ro/new" --sites 8 --form inline
	[ -z "$(ls -A "$tmp/ro")" ] || bad "-o read-only dir: something was written"
else
	echo "note: running as root, so the read-only directory case is not checked"
fi

[ $fail -eq 0 ] && echo "ok: every bad input exits 2, names its option and writes nothing"
exit $fail
