# Sourced by run.sh: ./run.sh micro -- the figures the README quotes for the
# queue and the C API, in one run: medians of 10 interleaved repetitions and
# their ratios, measured under the machine lock (common.sh).


sub_micro() {
	parse_sub micro "" "$@"
	phase "build: the microbenchmarks (log build/build.log)"
	build_program queue_microbench_tas queue_microbench_ticket api_overhead
	phase "measurement: the microbenchmarks"
	local csv
	csv=$(measured "./run.sh micro" micro_runs)
	awk -F, '
		{ gsub(/"/, "", $1) }
		$1 ~ /_median$/ { sub(/_median$/, "", $1); t[$1] = $3 }
		function r(a, b) { return (a in t && b in t) ? sprintf("%.3f", t[a] / t[b]) : "n/a" }
		END {
			print "Uncontended locked operation, ns (median of 10 interleaved repetitions):"
			printf "  %-7s %8s %7s %7s %7s   %-12s %-10s %-12s\n", "lock", "xchg+rel", "inline", "hint", "extern", "inline/xchg", "hint/xchg", "extern/xchg"
			for (i = 1; i <= 2; i++) {
				l = i == 1 ? "tas" : "ticket"
				# Each lock binary measures the bare exchange beside its own forms.
				fl = "floor/" l "/xchg+release"; f = t[fl]
				printf "  %-7s %8.2f %7.2f %7.2f %7.2f   %-12s %-10s %-12s\n", l, f,
					t["queue/" l "/inline"], t["queue/" l "/hint"], t["queue/" l "/extern"],
					r("queue/" l "/inline", fl), r("queue/" l "/hint", fl), r("queue/" l "/extern", fl)
			}
			print "  xchg+rel: one exchange and a release store back to back, no critical section; not a lower"
			print "  bound (a whole operation can measure faster)."
			print "C API over Google Benchmark vs native C++, ns per item (ratio C/native). A batch of 1 crosses into"
			print "the library once per item, as a sweep pass does at N = 1, alike for every form (the mark measures it):"
			n = split("empty/1000 queue/1000 empty/1 queue/1", k, " ")
			for (i = 1; i <= n; i++)
				printf "  %-11s native %7.3f  C %7.3f  ratio %s\n", k[i], t["api/native/" k[i]], t["api/c/" k[i]],
					r("api/c/" k[i], "api/native/" k[i])
		}' <<<"$csv"
}

# micro_runs: the three microbenchmarks' CSV, all three first: a table is
# printed only when each has run.
micro_runs() {
	local common=(--benchmark_repetitions=10 --benchmark_report_aggregates_only=true
		--benchmark_enable_random_interleaving=true --benchmark_min_time=0.1 --benchmark_format=csv)
	local b log=build/micro.log
	for b in build/bench/queue_microbench_tas build/bench/queue_microbench_ticket build/bench/gbench/api_overhead; do
		"$b" "${common[@]}" 2>"$log" || { show_tail 5 "$log"; fail "$b failed (log: $log)"; }
	done
}
