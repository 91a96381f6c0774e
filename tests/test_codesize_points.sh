#!/bin/sh
# codesize on the test points: inline, inline_nolock and mark sites call no
# queue operation, extern, extern_nolock and clone sites call two each, hint
# reports what the compiler inlined; footprints agree with `size`; the slope
# is the least-squares one, per group with its filler; usage errors exit 2.
# usage: test_codesize_points.sh CODESIZE CSV ARGFILE
codesize=$1 csv=$2 args=$3
. "$(dirname "$0")/lib.sh"
scratch tmp

[ -s "$csv" ] || { echo "FAIL: $csv missing (build the gen_test_codesize target)" >&2; exit 1; }
header='form,op,layout,order,seed,sites,footprint_bytes,code_bytes_per_site,queue_calls,ops_per_site,inlined_sites,site_functions,filler'
[ "$(head -n 1 "$csv")" = "$header" ] || bad "header is $(head -n 1 "$csv")"

# Per-row checks by form; hint only reports.
tail -n +2 "$csv" | awk -F, '
	{ name = $1 "/" $2 "/" $3 "/" $4 "/" $6 "/filler:" $13 }
	($1 == "inline" || $1 == "inline_nolock") && ($9 != 0 || $11 != $6) { print "FAIL: " name ": " $9 " queue calls, " $11 " inlined sites"; bad = 1 }
	($1 == "extern" || $1 == "extern_nolock" || $1 == "clone") && ($9 != $10 * $6 || $11 != 0) { print "FAIL: " name ": " $9 " queue calls, expected " $10 * $6; bad = 1 }
	$1 == "mark" && $9 != 0 { print "FAIL: " name ": the mark form made " $9 " queue calls"; bad = 1 }
	$1 == "hint" { print "hint " name ": compiler inlined " $11 " of " $6 " sites (" $9 " queue calls)" }
	$3 == "scatter" && $12 != $6 { print "FAIL: " name ": " $12 " site functions"; bad = 1 }
	$7 <= 0 { print "FAIL: " name ": footprint " $7; bad = 1 }
	END { exit bad }' >&2 || fail=1

# Footprint == sum of .text* section sizes that `size -A` reports, for the
# points at their series' largest N (the _m<N>_ of the point's directory),
# whose objects hold their sites and no others; a point of fewer sites has
# less than its objects hold, and more than nothing.
awk '$0 == "--point" { getline spec; split(spec, f, ":"); first = 1; next }
	first { first = 0; whole = match($0, /_m[0-9]+_k/) && substr($0, RSTART + 2, RLENGTH - 4) == f[6] }
	{ print spec, whole, $0 }' "$args" >"$tmp/objs"
while read -r spec whole obj; do
	echo "$spec $whole $(size -A "$obj" | awk '$1 ~ /^\.text/ { s += $2 } END { print s + 0 }')"
done <"$tmp/objs" | awk '!($1 in sum) { order[++n] = $1 } { sum[$1] += $3; whole[$1] = $2 }
	END { for (i = 1; i <= n; i++) print order[i], whole[order[i]], sum[order[i]] }' >"$tmp/size"
tail -n +2 "$csv" | awk -F, '{ print $1 ":" $2 ":" $3 ":" $4 ":" $5 ":" $6 ($13 > 0 ? ":" $13 : ""), $7 }' >"$tmp/fp"
awk 'NR == FNR { fp[$1] = $2; next }
	$2 == 1 && fp[$1] != $3 { print "FAIL: " $1 ": footprint " fp[$1] ", size -A " $3; bad = 1 }
	$2 == 0 && !(fp[$1] > 0 && fp[$1] < $3) { print "FAIL: " $1 ": footprint " fp[$1] ", objects " $3; bad = 1 }
	$2 == 1 { whole++ } END { if (!whole) { print "FAIL: no point at its series largest N"; bad = 1 } exit bad }' \
	"$tmp/fp" "$tmp/size" >&2 || fail=1

# Slope: groups (form, op, layout, order, filler) with two or more N have
# the least-squares slope through their points, others none.
tail -n +2 "$csv" | awk -F, '
	{ g = $1 "/" $2 "/" $3 "/" $4 "/" $13; k[g]++; x[g, k[g]] = $6; y[g, k[g]] = $7; s[g] = $8 }
	END {
		for (g in k) {
			if (k[g] == 1 && s[g] != "") { print "FAIL: " g ": slope " s[g] " from one N"; bad = 1 }
			if (k[g] >= 2) {
				sx = sy = sxx = sxy = 0
				for (i = 1; i <= k[g]; i++) {
					sx += x[g, i]; sy += y[g, i]; sxx += x[g, i] * x[g, i]; sxy += x[g, i] * y[g, i]
				}
				want = (k[g] * sxy - sx * sy) / (k[g] * sxx - sx * sx)
				if (s[g] == "" || s[g] - want > 0.01 || want - s[g] > 0.01) {
					print "FAIL: " g ": slope " s[g] ", expected " want; bad = 1
				}
				slope[g] = want
			}
		}
		if (!(slope["inline/tail_dequeue/chain/seq/0"] > slope["extern/tail_dequeue/chain/seq/0"])) {
			print "FAIL: inline bytes per site not above extern"; bad = 1
		}
		printf "bytes per site, tail_dequeue chain: inline %.1f, extern %.1f\n",
			slope["inline/tail_dequeue/chain/seq/0"], slope["extern/tail_dequeue/chain/seq/0"]
		exit bad
	}' >&2 || fail=1

# Usage errors: exit 2, one line on stderr, no output file.
obj=$(sed -n 3p "$args")
for case in "" "--point inline:tail_dequeue:chain:seq:0" "--point inline:tail_dequeue:chain:seq:0:0 $obj" \
	"--point bogus:tail_dequeue:chain:seq:0:4 $obj" "$obj" "--point inline:tail_dequeue:chain:seq:0:4" \
	"--point inline:tail_dequeue:chain:seq:0:4 $tmp/missing.o" "--point inline:tail_dequeue:chain:seq:0:4 $args" \
	"--point inline:tail_dequeue:chain:seq:0:4:65537 $obj" "--point inline:tail_dequeue:chain:seq:0:4:x $obj" \
	"--point inline:tail_dequeue:chain:seq:0:4: $obj" "--point inline:tail_dequeue:chain:seq:0:4:1:2 $obj" \
	"--point inline:tail_dequeue:chain:seq:0::4 $obj" \
	"--bogus" "@$tmp/missing.args"; do
	# shellcheck disable=SC2086
	"$codesize" -o "$tmp/out.csv" $case 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || bad "codesize $case: exit $rc, expected 2"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "codesize $case: not one line on stderr"
	[ -e "$tmp/out.csv" ] && bad "codesize $case: wrote output"
done
# @ARGS with CRLF line ends, the first point's object named with a CR
# inside: only the CR that ends a line goes.
cr=$(printf '\r')
cp "$obj" "$tmp/a${cr}b.o"
awk -v o="$tmp/a${cr}b.o" 'NR == 3 { $0 = o } NR > 1 && /^--point$/ { exit } { printf "%s\r\n", $0 }' "$args" >"$tmp/crlf.args"
"$codesize" -o "$tmp/cr.csv" "@$tmp/crlf.args" 2>"$tmp/err" || bad "@ARGS with CRs: exit $?: $(cat "$tmp/err")"
[ "$(cut -d, -f7,9 "$tmp/cr.csv" | sed -n 2p)" = "$(cut -d, -f7,9 "$csv" | sed -n 2p)" ] ||
	bad "@ARGS with CRs: $(sed -n 2p "$tmp/cr.csv"), not $(sed -n 2p "$csv")"
ls -A "$tmp" | grep -q '\.tmp\.' && bad "temporary file left behind"

[ $fail -eq 0 ] && echo "ok: codesize agrees with the forms and with size"
exit $fail
