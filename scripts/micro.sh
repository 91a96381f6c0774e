# Sourced by run.sh: ./run.sh micro -- the figures docs/internals.md quotes
# for the queue and the C API: the microbenchmarks built here, measured and
# tabled by the driver (sweep micro, cmd/sweep.c) under the machine lock.

sub_micro() {
	parse_sub micro "" "$@"
	phase "build: the microbenchmarks (log build/build.log)"
	build_program queue_microbench_tas queue_microbench_ticket api_overhead
	driver exec micro "--cmdline=$cmdline"
}
