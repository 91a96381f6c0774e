#!/bin/sh
# The answer as a person reads it, on every recorded sweep (tests/data/
# recorded/): each series opens with what to do, no ratio carries a ±, no
# size is printed whose 95% range is wider than ±50%, no sentence of the
# first section or of the console's verdict runs past 35 words, and the
# model's terms ("deciding interval", "band", "wholly") stay in Method; the
# ratio chart's title names the bracket it shades.
# Then the Zen 3 sweep, whose machine wandered (inline/extern between 1.2
# and 3.8 per repetition): every N from 8 to 4096 of the 1-thread chain on
# extern's side from the time average, the crossover bracketed at (1, 4),
# each side sized with its spread in time and its paired repetitions, no
# state that "decides no N", and the 2-thread chain's wander named.
# usage: test_report_recorded_reading.sh SUMMARIZE DATA_DIR
set -u
. "$(dirname "$0")/lib.sh"
args 'summarize data' "$@"
scratch

for t in sweep-zen3-default sweep-zen5-two-levels sweep-xeon-brief-spells sweep-xeon-layout-at-one-n; do
	tar xzf "$data/$t.tar.gz" -C "$work" || fail "untar $t"
	"$summarize" --out "$work/out-$t" $(find "$work/$t" -name '*.json' | sort) >/dev/null ||
		fail "summarize $t: exit $?"
	# The ratio chart's title and its shaded bracket: one decision.
	python3 - "$work/out-$t/plots/data.gp" <<'PY' || fail "$t: the chart's title and shading disagree"
import re, sys
gp = open(sys.argv[1]).read()
title = dict(re.findall(r"ic_verdict\[(\d+)\] = '([^']*)'", gp))
lo = dict(re.findall(r"ic_xo_lo\[(\d+)\] = ([^;\n]+)", gp))
hi = dict(re.findall(r"ic_xo_hi\[(\d+)\] = ([^;\n]+)", gp))
if not title:
    sys.exit("no panel titles")
for p, t in title.items():
    m = re.match(r"crossover in \((\d+), (\d+)\)", t)
    shaded = (lo[p].strip(), hi[p].strip())
    if (m.groups() if m else ("NaN", "NaN")) != shaded:
        sys.exit("panel %s: title %r, shaded %s" % (p, t, shaded))
PY
	python3 - "$work/out-$t/summary.md" "$work/out-$t/verdict.txt" <<'PY' || fail "$t: the answer's reading"
import re, sys
md, vt = open(sys.argv[1]).read(), open(sys.argv[2]).read()
first = md.split("## The answer", 1)[1].split("\n## ", 1)[0]
bad = []
opens = ("Inline it", "Keep it out of line", "Call it out of line", "No one rule", "This run cannot tell",
         "Prefer ", "Smoke test")
for line in first.splitlines():
    if not line.startswith("- **"):
        continue
    text = re.sub(r"^- \*\*[^*]*\*\*: (A whole program, [^.]*\. )?", "", line)
    if not text.startswith(opens):
        bad.append("no line of what to do first: " + text[:120])
for text in (first, vt):
    if re.search(r"±\s*[0-9]", text):
        bad.append("a ± on a ratio: " + re.search(r".{60}±\s*[0-9].{20}", text).group(0))
    for word in ("deciding interval", "band", "wholly"):
        if re.search(r"\b%s\b" % word, text):
            bad.append("the model's term %r on the first screen" % word)
    for para in text.splitlines():
        para = re.sub(r"^- (\*\*[^*]*\*\*|[^:]*): ", "", para)
        for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(`])", para):
            if len(s.split()) > 35:
                bad.append("%d words: %s" % (len(s.split()), s[:100]))
# Every size printed: its range no wider than ±50% (a factor 1.5 either side).
for lo, hi in re.findall(r"\[([0-9.]+)-([0-9.]+)x\]", md + vt):
    if (float(hi) / float(lo)) ** 0.5 > 1.5 + 1e-9:
        bad.append("a size with a range over ±50%%: [%s-%sx]" % (lo, hi))
if bad:
    sys.exit("\n".join(bad))
PY
done

# The Zen 3 sweep: the side from every moment.
o=$work/out-sweep-zen3-default
r=$o/ratios.csv
side() {   # side THREADS N: the faster form of the chain at N
	awk -F, -v th="$1" -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["layout"] == "chain" && $c["threads"] == th && $c["sites"] == n { print $c["faster"] }' "$r"
}
for n in 8 16 32 64 128 256 512 1024 2048 4096; do
	[ "$(side 1 $n)" = extern ] || fail "1-thread chain at N = $n: $(side 1 $n), want extern"
done
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["layout"] == "chain" && $c["threads"] == 1 { exit !($c["bracket_lo"] == 1 && $c["bracket_hi"] == 4) }' \
	"$o/crossover.csv" || fail "crossover bracket: $(sed -n 2p "$o/crossover.csv")"
line=$(grep '^- \*\*tail_dequeue, chain layout, seq order; 1 thread' "$o/summary.md")
echo "$line" | grep -Eq ': Inline it only where it has at most 1 call site; from 4, calling it is faster, about [0-9.]+x \(N = [0-9]+: [0-9.]+ against [0-9.]+ ns a site\)\.' ||
	fail "what to do: $line"
echo "$line" | grep -Eq 'From N = 4 extern calls are faster, by [0-9.]+x to [0-9.]+x; at N = [0-9]+: [0-9.]+x on average \[[0-9.]+-[0-9.]+x\], [0-9.]+x to [0-9.]+x as the machine varied\. Extern was the faster in ([0-9]+) of ([0-9]+) paired repetitions there\.' ||
	fail "extern's side sized with its spread and its repetitions: $line"
# Paired repetitions from N = 4: 11 N x 48, nearly all for extern.
won=$(echo "$line" | sed -E 's/.*Extern was the faster in ([0-9]+) of ([0-9]+) paired.*/\1 \2/')
set -- $won
[ "$2" -eq 528 ] && [ "$1" -ge 500 ] || fail "extern's repetitions: $won, want 500 or more of 528"
echo "$line" | grep -q 'The crossover lies between N = 1 and 4\.' || fail "no bracket said: $line"
echo "$line" | grep -q 'The L1i does not explain the crossover: inlined code fills it only at N ≈ [0-9]*; the copies do (clone/extern [0-9.]*x at N = 4096)\.' ||
	fail "capacity named as the cause: $line"
grep -q 'decides no N' "$o/summary.md" "$o/verdict.txt" && fail "a state decides no N"
# The 2-thread chain's processes wander between about 1.4 and 2.6: said,
# not "one state throughout".
sed -n '/^### tail_dequeue, chain layout, seq order; 2 threads/,/^### /p' "$o/summary.md" >"$work/two"
grep -q "The machine's level moved: at N = [0-9]* the processes ran inline/extern [0-9.]* to [0-9.]* (10th-90th percentile), and those of one layout differ beyond their noise (p < 0\.001)\. It wanders" "$work/two" ||
	fail "the 2-thread chain's wander: $(grep '^States' "$work/two")"
grep -q '^In time: one state throughout' "$work/two" && fail "a wander read as one state throughout"
# The Xeon's brief spells: one state, and its processes differ by layout only.
grep -q 'two states' "$work/out-sweep-xeon-brief-spells/summary.md" && fail "Xeon brief spells read as two states"
echo "test_report_recorded_reading: ok"
