#!/bin/sh
# The states on two recorded runs of the Zen 5 guest (tests/data/recorded/):
# a 4-minute watch whose chart switches between about 1.0 and 1.65 dozens of
# times (the watch of that day printed one state at 1.36) must find two
# states near those levels that switch inside the long process, and never
# say "one state"; a sweep whose chain processes sit at 0.95-1.03 and
# 1.55-1.70 at N = 256 must name two states with both levels, never one
# averaged verdict; a Xeon sweep's brief spells of a second level must
# be one state, said why, with no level of nan; 30 processes of all six forms must name the inlined
# locked sequence as what the slow state slows, the same copies called and
# the inlined code without the lock as not slowed. Each watch.json is held
# to docs/watch-json.md's table, both ways.
# The probes' wording on those processes with probes added. A one-state
# watch of the fake bench must say so, why, and that there is nothing to
# attribute. A 6-minute watch of the Zen 3 guest whose ratio wanders
# between about 1.3 and 3.7 must not say one answer nor one state: it gives
# the spread in time, says it wanders, and names inline as moving with the
# ratio and extern against it.
# usage: test_report_recorded_states.sh WATCH_REPORT SUMMARIZE DATA_DIR JSON_TABLE_CHECK DOC FAKEGB
set -u
watch_report=$1
summarize=$2
data=$3
table_check=$4
doc=$5
fakegb=$6
. "$(dirname "$0")/lib.sh"
scratch

tar xzf "$data/watch-zen5-two-states-missed.tar.gz" -C "$work" || fail "untar watch"
tar xzf "$data/sweep-zen5-two-levels.tar.gz" -C "$work" || fail "untar sweep"
tar xzf "$data/forms-zen5-two-states.tar.gz" -C "$work" || fail "untar forms"

w=$work/watch-zen5-two-states-missed
"$watch_report" --out "$work/watch" --long "$w/long.json" $(ls "$w"/s*.json | sort -V) >"$work/watch.out" ||
	fail "watch_report: exit $?"
grep -qi 'one state' "$work/watch.out" && fail "the recorded watch said one state: $(cat "$work/watch.out")"
grep -q '^Two states that switch while a process runs' "$work/watch.out" ||
	fail "not two states switching inside: $(cat "$work/watch.out")"
grep -q 'the long one among them' "$work/watch.out" || fail "the long process does not switch: $(cat "$work/watch.out")"
# Each state's level at both N, from watch.json.
for s in 0 1; do
	for j in 0 1; do
		x=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['states'][$s]['ratio_per_n'][$j])" "$work/watch/watch.json")
		if [ $s = 0 ]; then within "$x" 0.93 1.07 || fail "state 1 at N index $j: $x, want near 1.0"
		else within "$x" 1.5 1.75 || fail "state 2 at N index $j: $x, want near 1.65"; fi
	done
done

f=$work/forms-zen5-two-states
"$watch_report" --out "$work/forms" $(ls "$f"/p*.json | sort -V) >"$work/forms.out" || fail "watch_report forms: exit $?"
grep -q '^  inline         [0-9.]* -> [0-9.]* ns, +[0-9]*% \[+[0-9]*\.\.+[0-9]*%\]$' "$work/forms.out" ||
	fail "inline's change not stated: $(cat "$work/forms.out")"
grep -q '^State 2 slows the inlined locked sequence by [0-9]*%; the same copies called (clone) and the inlined code without the lock (inline_nolock) do not slow' "$work/forms.out" ||
	fail "the forms' story not told: $(cat "$work/forms.out")"
grep -q '^  inline: slower in state 2\.$' "$work/forms.out" || fail "inline not the one slower: $(cat "$work/forms.out")"
grep -q 'clone[^:]*: slower' "$work/forms.out" && fail "clone named slower: $(cat "$work/forms.out")"
# Short processes only: the units are those, with no windows of a long one.
grep -q '^Steadiness (30 short processes as units):' "$work/forms.out" || fail "the units: $(grep Steadiness "$work/forms.out")"
# The probes' wording, on the recorded processes with probes added (the
# recording has none): clock at 15.6 ns in every repetition (+-1%, seeded),
# so unchanged; locked_same_line at a third of each inline repetition's
# time, so it follows the state; call_return at 17 ns times a lognormal
# factor (SD 0.4 on the log scale), so too wide to tell. No probe may be named changed whose
# interval holds 1.
mkdir -p "$work/probes"
python3 - "$f" "$work/probes" <<'PY' || fail "adding probes"
import glob, json, math, os, random, sys
rng = random.Random(7)
for path in sorted(glob.glob(os.path.join(sys.argv[1], "p*.json"))):
    d = json.load(open(path))
    add = []
    for b in d["benchmarks"]:
        if b.get("run_type") == "aggregate" or not b["name"].startswith("sites/inline/"):
            continue
        for name, t, what in (("clock", 15.6 * (1 + rng.uniform(-0.01, 0.01)), "64 dependent adds"),
                              ("locked_same_line", b["real_time"] / 3, "a store, then a locked add on its line"),
                              ("call_return", 17 * math.exp(rng.gauss(0, 0.4)), "16 calls to a bare return")):
            add.append({"name": "probe/%s/real_time/threads:1" % name, "run_name": "probe/%s/real_time/threads:1" % name,
                        "run_type": "iteration", "repetition_index": b.get("repetition_index", 0),
                        "real_time": t, "cpu_time": t, "time_unit": "ns", "iterations": 1000,
                        "rep_start_s": b["rep_start_s"] + 0.001, "label": what})
    d["benchmarks"] += add
    json.dump(d, open(os.path.join(sys.argv[2], os.path.basename(path)), "w"))
PY
"$watch_report" --out "$work/probes/out" $(ls "$work"/probes/p*.json | sort -V) >"$work/probes.out" ||
	fail "watch_report probes: exit $?"
grep -q '^  clock             [0-9.]* -> [0-9.]* ns (64 dependent adds), ' "$work/probes.out" ||
	fail "the clock probe's row: $(cat "$work/probes.out")"
grep -q '^  locked_same_line: slower in state 2\.$' "$work/probes.out" ||
	fail "locked_same_line not the one slower: $(cat "$work/probes.out")"
grep -q '^In the machine.s terms, state 2 has: clock unchanged (within ±5%); locked_same_line [0-9.]*x slower \[[0-9.]*-[0-9.]*x\]; call_return not told apart' "$work/probes.out" ||
	fail "the probes' sentence: $(cat "$work/probes.out")"
python3 - "$work/probes/out/watch.json" <<'PY' || fail "a probe named changed with an interval holding 1"
import json, sys
for p in json.load(open(sys.argv[1]))["probes"]:
    c = p["change"]
    if c["verdict"] in ("slower", "faster") and c["lo"] <= 1 <= c["hi"]:
        sys.exit("%s: %s" % (p["probe"], c))
PY
mkdir -p "$work/one"
for p in 0 1 2 3 4 5 6 7; do
	"$fakegb" --start $((1764720000 + 20 * p)) --reps 5 --threads 1 --modes private --sites-max 16 \
		--process $p --seed $((p + 1)) --noise 0.02 >"$work/one/s$p.json" || fail "fakegb"
done
"$watch_report" --out "$work/one/out" "$work"/one/s*.json >"$work/one.out" || fail "watch_report one: exit $?"
grep -q '^One state for these [0-9.]* min (.*noise scales apart): this machine gave one answer while watched, and there is nothing to attribute' "$work/one.out" ||
	fail "one state not said with its reason: $(cat "$work/one.out")"
grep -q '^State 2\|^Two states\|^Switching' "$work/one.out" && fail "a one-state watch names two: $(cat "$work/one.out")"
python3 - "$work/one/out/watch.json" <<'PY' || fail "the steady fake's steadiness in watch.json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["where"] == "one state" and d["one_answer"], d["where"]
assert all(s["steady"] and s["tau_hi"] * 1.645 <= 0.0488 for s in d["steadiness"]), d["steadiness"]
assert d["elasticity_site"] is None
PY

tar xzf "$data/watch-zen3-wander.tar.gz" -C "$work" || fail "untar zen3"
z=$work/watch-zen3-wander
"$watch_report" --out "$work/zen3" --long "$z/long.json" $(ls "$z"/s*.json | sort -V) >"$work/zen3.out" ||
	fail "watch_report zen3: exit $?"
grep -qi 'one state\|one answer while' "$work/zen3.out" && fail "the wandering watch said one answer: $(cat "$work/zen3.out")"
grep -q '^inline/extern at N = 16 moved between 1\.[3-6][0-9] and 3\.[2-8][0-9], at N = 1024 between [0-9.]* and [0-9.]* (10th-90th percentile of its 1\.5 s windows and processes) in 6\.4 min: no one answer now\.$' "$work/zen3.out" ||
	fail "the spread in time not given: $(cat "$work/zen3.out")"
grep -q '^It wanders: two states do not describe it' "$work/zen3.out" || fail "not said to wander: $(cat "$work/zen3.out")"
grep -q '^As inline/extern at N = 16 moved from [0-9.]* to [0-9.]*: inline slowed [0-9.]*x \[[0-9.]*-[0-9.]*x\], extern ran [0-9.]*x faster \[' "$work/zen3.out" ||
	fail "the elasticities' sentence: $(cat "$work/zen3.out")"
python3 - "$work/zen3/watch.json" <<'PY' || fail "the wandering watch's watch.json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["where"] == "wanders" and not d["one_answer"], d["where"]
s = d["steadiness"][0]
assert not s["steady"] and s["p"] < 1e-6 and s["tau_lo"] > 0.15, s
assert d["elasticity_site"] == 16
v = {f["form"]: f["elasticity_per_n"][0] for f in d["forms"]}
assert v["inline"]["verdict"] == "with the ratio" and v["extern"]["verdict"] == "against it", v
for e in list(v.values()) + [p["elasticity"] for p in d["probes"]]:
    assert e["units"] > 80 and e["lo"] <= e["slope"] <= e["hi"], e
PY
"$table_check" "$doc" "$work/watch/watch.json" "$work/forms/watch.json" "$work/probes/out/watch.json" \
	"$work/one/out/watch.json" "$work/zen3/watch.json" ||
	fail "watch.json against $doc"

s=$work/sweep-zen5-two-levels
"$summarize" --out "$work/sweep" "$s"/raw/*.json >/dev/null || fail "summarize: exit $?"
md=$work/sweep/summary.md
line=$(grep '^- \*\*tail_dequeue, chain layout' "$md")
echo "$line" | grep -q 'The machine ran in two states: inline/extern 1\.0[0-9] (state 1, .*) and 1\.[56][0-9] (state 2, .*) at N = ' ||
	fail "the sweep's verdict is not per state: $line"
grep -q '^\*\*Two states\*\*: inline/extern at N = ' "$md" || fail "no two-state evidence: $(grep -n 'States' "$md")"
# One process per variant: a real state keeps each process in one level at
# an N, so the variants look pure there; that alone is no layout's effect.
mkdir -p "$work/one-per-variant"
cp "$s"/raw/*_p0.json "$work/one-per-variant/"
"$summarize" --out "$work/sweep1" "$work"/one-per-variant/*.json >/dev/null || fail "summarize one per variant: exit $?"
grep -q '^\*\*Two states\*\*: inline/extern at N = ' "$work/sweep1/summary.md" ||
	fail "one process per variant: two states lost: $(grep -n '^States' "$work/sweep1/summary.md")"
# The chart draws what decides: at every N of every series, its deciding
# interval (plots/ratio.dat's holm_lo, holm_hi) excludes 1 exactly where
# ratios.csv names a faster form.
awk '/^# / { b++ } NF == 11 && $1 !~ /^#/ { print b, $1, ($10 > 1 || $11 < 1) ? "resolved" : "unresolved" }' \
	"$work/sweep/plots/ratio.dat" >"$work/drawn"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ k = $c["op"] "/" $c["layout"] "/" $c["order"] "/" $c["threads"] "/" $c["mode"] "/" $c["filler"]
	  if (k != last) { b++; last = k }
	  print b, $c["sites"], $c["faster"] == "unresolved" ? "unresolved" : "resolved" }' \
	"$work/sweep/ratios.csv" >"$work/decided"
[ -s "$work/drawn" ] && cmp -s "$work/drawn" "$work/decided" ||
	fail "the chart's deciding marks and ratios.csv disagree: $(diff "$work/drawn" "$work/decided" | head -n 5)"
# Brief spells of a second level are no state: one state, said why, and
# no level printed as nan.
tar xzf "$data/sweep-xeon-brief-spells.tar.gz" -C "$work" || fail "untar brief"
"$summarize" --out "$work/brief" "$work"/sweep-xeon-brief-spells/*.json >/dev/null || fail "summarize brief: exit $?"
md=$work/brief/summary.md
grep -qi 'nan' "$md" && fail "a level printed as nan: $(grep -i nan "$md" | head -n 3)"
grep -q 'two states' "$md" && fail "brief spells called two states: $(grep 'two states' "$md" | head -n 2)"
grep -q '^States: one read, a second not ruled out, .*a second level came in brief spells, [0-9]*% of the time, in which no process ran two repetitions' "$md" ||
	fail "brief spells not said: $(grep '^States' "$md")"
# A layout slow at one N is no state of the machine: one variant's six
# repetitions at N = 512, at two times a minute apart, sit at 0.55-0.62 and
# every other variant's at 0.84; its processes "switch" at every other N.
tar xzf "$data/sweep-xeon-layout-at-one-n.tar.gz" -C "$work" || fail "untar layout"
"$summarize" --out "$work/layout" "$work"/sweep-xeon-layout-at-one-n/*.json >/dev/null || fail "summarize layout: exit $?"
md=$work/layout/summary.md
grep -q 'two states\|^\*\*Two states' "$md" && fail "one layout's slow N called two states: $(grep -i 'two states' "$md" | head -n 2)"
grep -q "^States: one, .*at N = 512, where the two levels part most, each layout variant's repetitions sit in one level only" "$md" ||
	fail "the layout's effect not said: $(grep '^States' "$md")"
echo "test_report_recorded_states: ok"
