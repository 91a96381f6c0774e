#!/bin/sh
# sweep resolve: the default two series, filler auto from this machine's
# L1i and each series' N capped where it passes the L2 (an N list of the
# user's has no cap); a thread count without 1 leaves out the solo forms and
# the filler series, and says so; a resolved plan resolves to itself (so a
# resumed run is the run it was). sweep points: every built form at every N,
# the controls only at the powers of 4 up to 4096 on the default N; the
# mark only outside calibration; the walk seed only in random order.
# plan_order order: every process of the design once (builds x repeats x variants x
# processes), keys and groups as the sweep names them (the build only with
# several), one order per seed and another for another seed, with --spread
# each repeat in turn; --seeds a distinct 32-bit seed per repeat and
# variant, one set per run seed; bad input is one line, exit 2, nothing
# printed.
# usage: test_cmd_sweep.sh SWEEP PLAN_ORDER (cmd/sweep, the plan through the
# driver; tests/plan_order.c, the same order and seeds as text)
set -u
sweep=$1 order=$2
. "$(dirname "$0")/lib.sh"
scratch tmp
"$order" order --seed 7 --repeats 3 --variants 4 --processes 2 >"$tmp/a" || fail "plan: exit $?"
[ "$(wc -l <"$tmp/a")" -eq 24 ] || fail "want 24 processes: $(cat "$tmp/a")"
[ "$(cut -d' ' -f1 "$tmp/a" | sort -u | wc -l)" -eq 24 ] || fail "a key twice: $(cat "$tmp/a")"
awk '$1 != $2 "_v" $4 "_p" $5 || $2 != "r" $3 || $6 != 0 { exit 1 }' "$tmp/a" ||
	fail "a key or group not r<R>_v<V>_p<P>: $(cat "$tmp/a")"
for r in 1 2 3; do for v in 0 1 2 3; do for p in 0 1; do
	grep -q "^r${r}_v${v}_p$p " "$tmp/a" || fail "r${r}_v${v}_p$p missing"
done; done; done
"$order" order --seed 7 --repeats 3 --variants 4 --processes 2 | cmp -s - "$tmp/a" || fail "one seed, two orders"
"$order" order --seed 8 --repeats 3 --variants 4 --processes 2 | cmp -s - "$tmp/a" && fail "two seeds, one order"
sort "$tmp/a" | cmp -s - "$tmp/a" && fail "not shuffled: $(cat "$tmp/a")"
"$order" order --seed 7 --repeats 3 --variants 4 --processes 2 --spread >"$tmp/s" || fail "--spread: exit $?"
cut -d' ' -f3 "$tmp/s" | sort -c -n || fail "--spread: repeats not in turn: $(cat "$tmp/s")"
sort "$tmp/s" | cmp -s - "$(sort "$tmp/a" >"$tmp/as"; echo "$tmp/as")" || fail "--spread: another set"
"$order" order --seed 1 --repeats 1 --variants 2 --processes 1 --builds 2 --prefix x1_ >"$tmp/b" || fail "builds: exit $?"
[ "$(sort "$tmp/b" | tr '\n' '|')" = "x1_b0_r1_v0_p0 x1_b0_r1 1 0 0 0|x1_b0_r1_v1_p0 x1_b0_r1 1 1 0 0|x1_b1_r1_v0_p0 x1_b1_r1 1 0 0 1|x1_b1_r1_v1_p0 x1_b1_r1 1 1 0 1|" ] ||
	fail "two builds with a prefix: $(cat "$tmp/b")"
# --seeds: a seed per repeat and variant, distinct, 32-bit, one set per run seed.
"$order" seeds --seed 7 --repeats 3 --variants 4 >"$tmp/seeds" || fail "--seeds: exit $?"
[ "$(wc -l <"$tmp/seeds")" -eq 12 ] && [ "$(cut -d' ' -f2 "$tmp/seeds" | sort -u | wc -l)" -eq 12 ] ||
	fail "--seeds: want 12 distinct seeds: $(cat "$tmp/seeds")"
awk '$1 !~ /^r[1-3]_v[0-3]$/ || $2 !~ /^[0-9]+$/ || $2 > 4294967295 { exit 1 }' "$tmp/seeds" ||
	fail "--seeds: a line not r<R>_v<V> SEED (32-bit): $(cat "$tmp/seeds")"
"$order" seeds --seed 7 --repeats 3 --variants 4 | cmp -s - "$tmp/seeds" || fail "--seeds: one run seed, two sets"
"$order" seeds --seed 8 --repeats 3 --variants 4 | cmp -s - "$tmp/seeds" && fail "--seeds: two run seeds, one set"
for args in "seeds --seed 1 --repeats 1" "order --repeats 1 --variants 1 --processes 1" "order --seed x --repeats 1 --variants 1 --processes 1" \
	"order --seed 1 --repeats 0 --variants 1 --processes 1" "order --seed 1 --repeats 1 --variants 1 --processes 1 --bogus" \
	"order --seed 1 --repeats 1 --variants 1 --processes 1 extra" "order --seed 4294967296 --repeats 1 --variants 1 --processes 1" \
	"plan" "run extra" "build"; do
	case $args in order* | seeds*) prog=$order ;; *) prog=$sweep ;; esac
	# shellcheck disable=SC2086
	"$prog" $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "'$args': exit $rc, $(cat "$tmp/err")"
done

# ---- resolve and points ----
base='forms=inline,extern,clone,inline_nolock
ops=tail_dequeue
seed=7
modes=private'
l1i=$("$sweep" machine | sed -n 's/^l1i_size=//p') l2=$("$sweep" machine | sed -n 's/^l2_size=//p')
if [ -n "$l1i" ] && [ -n "$l2" ]; then
	printf '%s\nthreads=1\n' "$base" >"$tmp/s"
	"$sweep" resolve <"$tmp/s" >"$tmp/r" || fail "resolve: exit $?"
	f=$((l1i / 128 / 8 * 8))
	cap() { local n=1; while [ $((n * ($1 + 128))) -lt "$l2" ]; do n=$((n * 2)); done; echo $n; }
	want="cases=chain:seq:0:$(cap 0),scatter:random:$f:$(cap $f)"
	grep -qx "$want" "$tmp/r" || fail "resolve: want $want: $(cat "$tmp/r")"
	grep -qx 'sites=1..16384' "$tmp/r" && grep -qx 'layouts=chain' "$tmp/r" && grep -qx 'fillers=0' "$tmp/r" ||
		fail "resolve: the defaults as run.conf records them: $(cat "$tmp/r")"
	grep -q '^note=' "$tmp/r" && fail "resolve: a note where nothing is left out: $(cat "$tmp/r")"
	grep -qE '^layout_seed=[0-9]+$' "$tmp/r" || fail "resolve: no layout seed drawn: $(cat "$tmp/r")"
	# A resolved plan resolves to itself.
	{ cat "$tmp/s"; grep -v '^series=' "$tmp/r"; } >"$tmp/s2"
	"$sweep" resolve <"$tmp/s2" | cmp -s - "$tmp/r" || fail "resolve: a resolved plan resolves to another"
	"$sweep" points <"$tmp/s2" >"$tmp/p" || fail "points: exit $?"
	grep -q '^inline:tail_dequeue:chain:seq:0:8:' "$tmp/p" && fail "points: a filler suffix on the chain"
	grep -qx 'inline:tail_dequeue:chain:seq:0:8' "$tmp/p" || fail "points: inline at N = 8 missing"
	grep -qx 'clone:tail_dequeue:chain:seq:0:8' "$tmp/p" && fail "points: a control at N = 8 on the default N"
	grep -qx 'clone:tail_dequeue:chain:seq:0:16' "$tmp/p" || fail "points: clone at N = 16 missing"
	grep -qx "mark:tail_dequeue:scatter:random:7:4:$f" "$tmp/p" || fail "points: the scatter mark at N = 4 missing"
	awk -F: -v c="$(cap 0)" '$3 == "chain" && $6 > c { exit 1 }' "$tmp/p" || fail "points: the chain past its cap"
else
	echo "note: hwloc reports no L1i or L2 here; the cap and filler auto are not checked"
fi
# On the default N, whatever this machine's caches: the controls stop at
# 4096 while inline goes on to the series' cap, and a cap stops every form.
printf '%s\nsites=1..16384\nsites_given=0\nthreads=1\nlayout_seed=1\ncases=chain:seq:0:0\n' "$base" |
	"$sweep" points >"$tmp/p" || fail "points, no cap: exit $?"
[ "$(awk -F: '$1 == "clone" && $6 > m { m = $6 } END { print m }' "$tmp/p")" = 4096 ] ||
	fail "points: clone's largest N is not 4096: $(grep '^clone:' "$tmp/p" | tr '\n' ' ')"
grep -qx 'inline:tail_dequeue:chain:seq:0:16384' "$tmp/p" || fail "points: inline at N = 16384 missing"
printf '%s\nsites=1..16384\nsites_given=0\nthreads=1\nlayout_seed=1\ncases=chain:seq:0:64\n' "$base" |
	"$sweep" points >"$tmp/p" || fail "points, cap 64: exit $?"
[ "$(awk -F: '$6 > m { m = $6 } END { print m }' "$tmp/p")" = 64 ] && grep -qx 'clone:tail_dequeue:chain:seq:0:64' "$tmp/p" ||
	fail "points: the cap 64 not kept: $(tr '\n' ' ' <"$tmp/p")"
# An N list of the user's: every form at every N, no cap.
printf '%s\nsites=3,5000\nsites_given=1\nthreads=1\nlayouts=chain\nfillers=0,100\nlayout_seed=1\n' "$base" >"$tmp/s"
"$sweep" resolve <"$tmp/s" >"$tmp/r" || fail "resolve, a list: exit $?"
grep -qx 'cases=chain:seq:0:0,chain:seq:100:0' "$tmp/r" || fail "resolve, a list: $(cat "$tmp/r")"
{ cat "$tmp/s"; grep -v '^series=' "$tmp/r"; } | "$sweep" points >"$tmp/p" || fail "points, a list: exit $?"
[ "$(wc -l <"$tmp/p")" -eq 20 ] || fail "points, a list: want 5 forms x 2 N x 2 fillers: $(cat "$tmp/p")"
grep -qx 'clone:tail_dequeue:chain:seq:0:3:100' "$tmp/p" || fail "points, a list: clone at N = 3 missing"
# Long lists are kept whole: a thread list whose 1 comes last, and every
# series of 2 layouts x 2 orders x 41 fillers.
printf '%s\nthreads=2,4,6,8,10,12,14,16,18,20,22,24,1\nlayout_seed=1\nlayouts=chain,scatter\norders=seq,random\nfillers=%s\n' \
	"$base" "$(seq -s, 0 8 320)" | "$sweep" resolve >"$tmp/r" || fail "resolve, long lists: exit $?"
grep -qx 'threads=2,4,6,8,10,12,14,16,18,20,22,24,1' "$tmp/r" || fail "resolve: the thread list cut: $(grep threads "$tmp/r")"
grep -q '^note=' "$tmp/r" && fail "resolve: a note where 1 thread is in the list"
[ "$(grep '^cases=' "$tmp/r" | tr ',' '\n' | wc -l)" -eq 164 ] || fail "resolve: want 164 series: $(grep '^cases=' "$tmp/r" | cut -c1-200)"
# No 1 thread: the solo forms and the filler series left out, and said.
printf '%s\nthreads=2\n' "$base" >"$tmp/s"
"$sweep" resolve <"$tmp/s" >"$tmp/r" 2>"$tmp/err" || fail "resolve, 2 threads: exit $?"
grep -qx 'note=forms inline_nolock mark (mark: .*) run at 1 thread, private: not in this sweep (--threads 2 --modes private)' "$tmp/r" &&
	grep -q '^note=the realistic series (with filler)' "$tmp/r" || fail "resolve, 2 threads: notes: $(cat "$tmp/r")"
grep -qE '^cases=chain:seq:0:[0-9]+$' "$tmp/r" || fail "resolve, 2 threads: the filler series kept: $(cat "$tmp/r")"
{ cat "$tmp/s"; grep -v '^series=' "$tmp/r"; } | "$sweep" points >"$tmp/p" || fail "points, 2 threads: exit $?"
grep -qE '^(mark|inline_nolock):' "$tmp/p" && fail "points, 2 threads: a solo form: $(grep -E '^(mark|inline_nolock):' "$tmp/p" | head -n 2)"
# Calibration: no mark.
printf 'forms=extern\nops=tail_dequeue\nsites=256\nthreads=1\nmodes=private\ncalibrate=1\nfillers=0\nlayout_seed=1\n' >"$tmp/s"
{ cat "$tmp/s"; "$sweep" resolve <"$tmp/s" | grep -v '^series='; } | "$sweep" points >"$tmp/p" || fail "points, calibrate: exit $?"
[ "$(cat "$tmp/p")" = 'extern:tail_dequeue:chain:seq:0:256' ] || fail "points, calibrate: $(cat "$tmp/p")"
# Bad settings: one line, exit 2, nothing printed.
for bad_s in 'sites=0' 'sites=8..2' 'sites=1,x' 'not a setting' 'layouts=diagonal' 'fillers=0,x'; do
	printf '%s\n%s\n' "$base" "$bad_s" | "$sweep" resolve >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "resolve '$bad_s': exit $rc, $(cat "$tmp/err")"
done
printf '%s\nsites=4\ncases=chain:seq\n' "$base" | "$sweep" points >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "points, a bad case: exit $rc, $(cat "$tmp/err")"
# A bad case given to resolve: nothing printed, not even a note.
printf '%s\nthreads=2\ncases=chain:seq\n' "$base" | "$sweep" resolve >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "resolve, a bad case: exit $rc, $(cat "$tmp/out") $(cat "$tmp/err")"
echo "test_cmd_sweep: ok"
