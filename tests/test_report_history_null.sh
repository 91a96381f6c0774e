#!/bin/sh
# History's false alarms: pairs of runs of one machine with no difference
# between them (the fake bench, the same truth, other seeds; 8 layout
# variants x 2 processes, two series, layout noise as on a real machine)
# must say "Differs" in at most 5% of pairs. Holm over the series is what
# holds it there: one series at p < 0.05 of several would not.
# usage: test_report_history_null.sh SUMMARIZE FAKEGB [PAIRS]
set -eu
summarize=$1 fakegb=$2 pairs=${3:-40}
. "$(dirname "$0")/lib.sh"
scratch tmp

# run DIR SEED: one run of the same shape, seeded.
run() {
	mkdir -p "$1/raw"
	printf 'build_source=f00d\nbuild_cc=cc 12\nbuild_cflags=-O2\nbuild_lock=tas\nlayouts_random=8\nprocesses=2\ncompare=inline\nbaseline=extern\n' \
		>"$1/run.conf"
	for v in 0 1 2 3 4 5 6 7; do for p in 0 1; do
		"$fakegb" --shape crossover --crossover 64 --seed "$(($2 * 100 + v * 10 + p))" --noise 0.02 \
			--layout-noise 0.01 --sites-min 1 --sites-max 4096 --threads 1,2 --modes private \
			--variant "$v" --process "$p" >"$1/raw/r1_v${v}_p$p.json"
	done; done
}

differs=0 agrees=0 k=1
while [ "$k" -le "$pairs" ]; do
	res=$tmp/results$k
	run "$res/20261205T100000Z" $((2 * k))
	run "$res/20261205T110000Z" $((2 * k + 1))
	for r in 20261205T100000Z 20261205T110000Z; do
		"$summarize" --out "$res/$r/report" "$res/$r"/raw/*.json >/dev/null
		ln -sfn report/summary.md "$res/$r/summary.md"
	done
	l=$(grep -E '^(Agrees|Differs|Cannot tell|History)' "$res/20261205T110000Z/report/summary.md" || true)
	case $l in
	Differs*) differs=$((differs + 1)) ;;
	Agrees*) agrees=$((agrees + 1)) ;;
	"Cannot tell"*) ;;
	*) fail "no history line in pair $k: $l" ;;
	esac
	rm -rf "$res"
	k=$((k + 1))
done
echo "test_report_history_null: $pairs pairs with no difference: Differs $differs, Agrees $agrees"
[ $((differs * 100)) -le $((pairs * 5)) ] || fail "Differs in $differs of $pairs pairs (at most 5%)"
