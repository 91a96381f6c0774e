#!/bin/sh
# plan: every process of the design once (builds x repeats x variants x
# processes), keys and groups as sweep.sh names them (the build only with
# several), one order per seed and another for another seed, with --spread
# each repeat in turn; --seeds a distinct 32-bit seed per repeat and
# variant, one set per run seed; bad input is one line, exit 2, nothing
# printed.
# usage: test_cmd_plan.sh PLAN
set -u
plan=$1
. "$(dirname "$0")/lib.sh"
scratch tmp
"$plan" --seed 7 --repeats 3 --variants 4 --processes 2 >"$tmp/a" || fail "plan: exit $?"
[ "$(wc -l <"$tmp/a")" -eq 24 ] || fail "want 24 processes: $(cat "$tmp/a")"
[ "$(cut -d' ' -f1 "$tmp/a" | sort -u | wc -l)" -eq 24 ] || fail "a key twice: $(cat "$tmp/a")"
awk '$1 != $2 "_v" $4 "_p" $5 || $2 != "r" $3 || $6 != 0 { exit 1 }' "$tmp/a" ||
	fail "a key or group not r<R>_v<V>_p<P>: $(cat "$tmp/a")"
for r in 1 2 3; do for v in 0 1 2 3; do for p in 0 1; do
	grep -q "^r${r}_v${v}_p$p " "$tmp/a" || fail "r${r}_v${v}_p$p missing"
done; done; done
"$plan" --seed 7 --repeats 3 --variants 4 --processes 2 | cmp -s - "$tmp/a" || fail "one seed, two orders"
"$plan" --seed 8 --repeats 3 --variants 4 --processes 2 | cmp -s - "$tmp/a" && fail "two seeds, one order"
sort "$tmp/a" | cmp -s - "$tmp/a" && fail "not shuffled: $(cat "$tmp/a")"
"$plan" --seed 7 --repeats 3 --variants 4 --processes 2 --spread >"$tmp/s" || fail "--spread: exit $?"
cut -d' ' -f3 "$tmp/s" | sort -c -n || fail "--spread: repeats not in turn: $(cat "$tmp/s")"
sort "$tmp/s" | cmp -s - "$(sort "$tmp/a" >"$tmp/as"; echo "$tmp/as")" || fail "--spread: another set"
"$plan" --seed 1 --repeats 1 --variants 2 --processes 1 --builds 2 --prefix x1_ >"$tmp/b" || fail "builds: exit $?"
[ "$(sort "$tmp/b" | tr '\n' '|')" = "x1_b0_r1_v0_p0 x1_b0_r1 1 0 0 0|x1_b0_r1_v1_p0 x1_b0_r1 1 1 0 0|x1_b1_r1_v0_p0 x1_b1_r1 1 0 0 1|x1_b1_r1_v1_p0 x1_b1_r1 1 1 0 1|" ] ||
	fail "two builds with a prefix: $(cat "$tmp/b")"
# --seeds: a seed per repeat and variant, distinct, 32-bit, one set per run seed.
"$plan" --seeds --seed 7 --repeats 3 --variants 4 >"$tmp/seeds" || fail "--seeds: exit $?"
[ "$(wc -l <"$tmp/seeds")" -eq 12 ] && [ "$(cut -d' ' -f2 "$tmp/seeds" | sort -u | wc -l)" -eq 12 ] ||
	fail "--seeds: want 12 distinct seeds: $(cat "$tmp/seeds")"
awk '$1 !~ /^r[1-3]_v[0-3]$/ || $2 !~ /^[0-9]+$/ || $2 > 4294967295 { exit 1 }' "$tmp/seeds" ||
	fail "--seeds: a line not r<R>_v<V> SEED (32-bit): $(cat "$tmp/seeds")"
"$plan" --seeds --seed 7 --repeats 3 --variants 4 | cmp -s - "$tmp/seeds" || fail "--seeds: one run seed, two sets"
"$plan" --seeds --seed 8 --repeats 3 --variants 4 | cmp -s - "$tmp/seeds" && fail "--seeds: two run seeds, one set"
for args in "--seeds --seed 1 --repeats 1" "--repeats 1 --variants 1 --processes 1" "--seed x --repeats 1 --variants 1 --processes 1" \
	"--seed 1 --repeats 0 --variants 1 --processes 1" "--seed 1 --repeats 1 --variants 1 --processes 1 --bogus" \
	"--seed 1 --repeats 1 --variants 1 --processes 1 extra" "--seed 4294967296 --repeats 1 --variants 1 --processes 1"; do
	# shellcheck disable=SC2086
	"$plan" $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "'$args': exit $rc, $(cat "$tmp/err")"
done
echo "test_cmd_plan: ok"
