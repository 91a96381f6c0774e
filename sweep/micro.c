/* ./run.sh micro as the driver runs it (driver.h): the figures
 * docs/internals.md quotes for the queue and the C API, in one run under
 * the machine lock: medians of 10 interleaved repetitions and their
 * ratios. run.sh has built the three microbenchmarks in build/. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit.h"
#include "driver.h"

static const char *const micro_bench[] = { "build/bench/queue_microbench_tas", "build/bench/queue_microbench_ticket",
					   "build/bench/gbench/api_overhead" };

struct median {
	char *name;
	double ns;
};
static struct median *med;
static size_t n_med;

/* The medians of one benchmark's CSV (Google Benchmark's: the name quoted,
 * real_time third). */
static void read_medians(char *csv)
{
	char *save = NULL;

	for (char *line = strtok_r(csv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[4], *name;
		size_t len;

		if (ic_csv_split(line, f, 4) < 3)
			continue;
		name = f[0] + (f[0][0] == '"');
		len = strcspn(name, "\"");
		if (len < 7 || strncmp(name + len - 7, "_median", 7))
			continue;
		med = ic_xrealloc(med, n_med + 1, sizeof(*med));
		med[n_med].name = ic_xalloc(strndup(name, len - 7));
		med[n_med++].ns = atof(f[2]);
	}
}

/* The median of name, or -1 when the benchmarks did not give it. */
static double ns(const char *fmt, const char *a)
{
	char *name = sw_fmt(fmt, a);
	double v = -1;

	for (size_t i = 0; i < n_med; i++)
		if (!strcmp(med[i].name, name))
			v = med[i].ns;
	free(name);
	return v;
}

/* a/b to places decimals in buf (b = 1: a itself), "n/a" when the
 * benchmarks did not give either. */
static const char *cell(double a, double b, int places, char buf[32])
{
	if (a < 0 || b <= 0)
		return "n/a";
	snprintf(buf, 32, "%.*f", places, a / b);
	return buf;
}

static char *csv[3];

/* An interrupt: the tables so far go, the benchmark running has been
 * stopped (sw_wait_s), the lock goes with us. */
static void micro_stopped(void)
{
	for (int b = 0; b < 3; b++)
		if (csv[b])
			unlink(csv[b]);
	sw_say("interrupted: nothing measured is kept");
	exit(128 + sw_signal);
}

int sw_micro(int argc, char **argv)
{
	const char *cmdline = argc == 1 && !strncmp(argv[0], "--cmdline=", 10) ? argv[0] + 10 : "./run.sh micro";
	char top[4096], c[7][32];
	const char *log = "build/micro.log", *locks[] = { "tas", "ticket" }, *api[] = { "empty/1000", "queue/1000",
											   "empty/1", "queue/1" };

	if (argc > 1 || (argc == 1 && strncmp(argv[0], "--cmdline=", 10)))
		return ic_bad("usage: sweep micro [--cmdline=TEXT]");
	ic_prog = "inlinecost";
	if (!getcwd(top, sizeof(top)))
		sw_fail("cannot tell the current directory");
	sw_catch(micro_stopped);
	sw_phase("measurement: the microbenchmarks");
	/* All three first: a table is printed only when each has run. */
	sw_measure_begin("./run.sh micro", cmdline, top);
	for (int b = 0; b < 3; b++) {
		csv[b] = sw_fmt("build/micro-%d.csv", b);
		if (sw_run((char *[]){ (char *)micro_bench[b], "--benchmark_repetitions=10",
				       "--benchmark_report_aggregates_only=true",
				       "--benchmark_enable_random_interleaving=true", "--benchmark_min_time=0.1",
				       "--benchmark_format=csv", NULL },
			   csv[b], log, NULL)) {
			sw_tail(5, log);
			for (int k = 0; k <= b; k++)
				unlink(csv[k]);
			sw_fail("%s failed (log: %s)", micro_bench[b], log);
		}
	}
	sw_measure_end();
	for (int b = 0; b < 3; b++) {
		char *text = ic_read_path(csv[b], &(size_t){ 0 });

		if (!text)
			sw_fail("cannot read %s", csv[b]);
		read_medians(text);
		unlink(csv[b]);
		free(text), free(csv[b]);
	}

	printf("Uncontended locked operation, ns (median of 10 interleaved repetitions):\n");
	printf("  %-7s %8s %7s %7s %7s   %-12s %-10s %-12s\n", "lock", "xchg+rel", "inline", "hint", "extern",
	       "inline/xchg", "hint/xchg", "extern/xchg");
	for (int l = 0; l < 2; l++) {
		/* Each lock's binary measures the bare exchange beside its own forms. */
		double floor = ns("floor/%s/xchg+release", locks[l]), in = ns("queue/%s/inline", locks[l]),
		       hint = ns("queue/%s/hint", locks[l]), ext = ns("queue/%s/extern", locks[l]);

		printf("  %-7s %8s %7s %7s %7s   %-12s %-10s %-12s\n", locks[l], cell(floor, 1, 2, c[0]),
		       cell(in, 1, 2, c[1]), cell(hint, 1, 2, c[2]), cell(ext, 1, 2, c[3]), cell(in, floor, 3, c[4]),
		       cell(hint, floor, 3, c[5]), cell(ext, floor, 3, c[6]));
	}
	printf("  xchg+rel: one exchange and a release store back to back, no critical section; not a lower\n"
	       "  bound (a whole operation can measure faster).\n"
	       "C API over Google Benchmark vs native C++, ns per item (ratio C/native). A batch of 1 crosses into\n"
	       "the library once per item, as a sweep pass does at N = 1, alike for every form (the mark measures it):\n");
	for (int k = 0; k < 4; k++) {
		double native = ns("api/native/%s", api[k]), cv = ns("api/c/%s", api[k]);

		printf("  %-11s native %7s  C %7s  ratio %s\n", api[k], cell(native, 1, 3, c[0]), cell(cv, 1, 3, c[1]),
		       cell(cv, native, 3, c[2]));
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
