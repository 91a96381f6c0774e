/* sweep: the sweep's driver and its plan (sweep/, plan/); its commands are
 * sweep_usage's, below. run.sh checks every option, installs what is
 * missing, compiles this program with cc before any tree is configured
 * (scripts/setup.sh: the points are the trees' configuration) and hands
 * over once. Bad usage or settings: one line on stderr, exit 2, nothing
 * printed; 1 when the machine lacks what is asked or a step of the sweep
 * fails. */
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit.h"
#include "points.h"
#include "driver.h"
#include "topology.h"

static const char sweep_usage[] =
	"usage: sweep run < SETTINGS\n"
	"         the sweep (sweep/sequence.c): run.conf's settings as the options checked\n"
	"         them, then the run's own (out or resume, jobs, cmdline, and per build\n"
	"         tree=DIR with its tree_cc, tree_cflags, tree_codegen, tree_arg lines)\n"
	"       sweep build [-jN] [--points] DIR [TARGET...] [-- CMAKE-ARGS...]\n"
	"         a tree built (configured first with the arguments after --, only when\n"
	"         they changed), its output in DIR/build.log, for ./run.sh's subcommands;\n"
	"         --points: a release build of the points of the settings on stdin\n"
	"       sweep watch [-jN] [--minutes=M] [--out=DIR] [--cmdline=TEXT] < SETTINGS\n"
	"         ./run.sh watch (sweep/watch.c)\n"
	"       sweep micro [--cmdline=TEXT]\n"
	"         ./run.sh micro's measurement (micro, below)\n"
	"       sweep resolve < SETTINGS\n"
	"         the settings left to the plan, with the machine's say (plan/points.h)\n"
	"       sweep points < SETTINGS\n"
	"         every point, as gen's specs, one a line\n"
	"       sweep machine\n"
	"         what hwloc says of this machine, key=value: cores, pus, smt, l1i_size,\n"
	"         l1i_assoc, l1i_line, l1d_size, l2_size, l3_size (bytes, ways; empty\n"
	"         where hwloc does not say)\n";

/* resolve or points, on the settings from stdin. */
static int plan_settings(const char *what)
{
	struct sweep sw = { 0 };
	struct ic_topo_info t;
	char err[512];
	int known, rc;

	sw_conf_read_settings(&sw);
	if (!strcmp(what, "resolve")) {
		sw_topology(&t, &known);
		rc = ic_plan_resolve(&sw.s, &(struct ic_plan_machine){ t.cores, t.l1i_size, t.l2_size }, stdout, err,
				     sizeof(err));
	} else {
		rc = ic_plan_points(&sw.s, stdout, err, sizeof(err));
	}
	if (rc) {
		ic_bad("%s", err);
		return rc;
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

static int machine(void)
{
	static const char *const name[] = { "l1i_size", "l1i_assoc", "l1i_line", "l1d_size", "l2_size", "l3_size" };
	int known;
	struct ic_topo_info t;

	sw_topology(&t, &known);
	if (!known)
		ic_die(1, "hwloc could not read this machine's topology");
	printf("cores=%d\npus=%d\nsmt=%d\n", t.cores, t.pus, t.smt);
	for (int i = 0; i < 6; i++) {
		long v = (long[]){ t.l1i_size, t.l1i_assoc, t.l1i_line, t.l1d_size, t.l2_size, t.l3_size }[i];

		printf(v > 0 ? "%s=%ld\n" : "%s=\n", name[i], v);
	}
	ic_topo_close();
	return fflush(stdout) == 0 ? 0 : 1;
}

/* build: --points reads the settings on stdin and puts the release
 * build's arguments with their points before the rest (after --, which
 * the options end before). */
static int build(int argc, char **argv)
{
	long jobs = sysconf(_SC_NPROCESSORS_ONLN);
	int dd = 0, points = 0, rc;
	char top[4096];
	struct sweep sw = { .top = getcwd(top, sizeof(top)) ? top : "." };
	const struct ic_option opts[] = { IC_OPTION_LONG("j", &jobs, 1, LONG_MAX), IC_OPTION_FLAG("points", &points),
					  IC_OPTIONS_END };

	ic_prog = "inlinecost";
	while (dd < argc && strcmp(argv[dd], "--"))
		dd++;
	if ((rc = ic_options_parse(dd, argv, opts, sweep_usage, "sweep --help")) >= 0)
		return rc;
	if (optind >= dd)
		return ic_bad("usage: sweep build [-jN] [--points] DIR [TARGET...] [-- CMAKE-ARGS...]");
	if (points) {
		sw_conf_read_settings(&sw);
		sw_resolve(&sw);
	}
	if (points || dd < argc)
		sw_configure(&sw, points ? sw_points(&sw) : NULL, argv[optind], (const char *const *)argv + dd + 1,
			     (size_t)(argc - dd - (dd < argc)));
	sw_build(argv[optind], (const char *const *)argv + optind + 1, (size_t)(dd - optind - 1), NULL, jobs);
	return 0;
}

/* ./run.sh micro: the figures docs/internals.md quotes for the queue and
 * the C API, in one run under the machine lock: medians of 10 interleaved
 * repetitions and their ratios. run.sh has built the three
 * microbenchmarks in build/. */
static const char *const micro_bench[] = { "build/bench/queue_microbench_tas", "build/bench/queue_microbench_ticket",
					   "build/bench/gbench/api_overhead" };

static char *csv, *medians = "";   /* the running benchmark's CSV, and the text of all so far */

/* The median of name from Google Benchmark's CSV (the name quoted,
 * real_time third), or -1 when the benchmarks did not give it. */
static double ns(const char *fmt, const char *a)
{
	char *at = strstr(medians, sw_fmt("\n\"%s_median\",", sw_fmt(fmt, a))), *f[4];

	if (!at)
		return -1;
	at = sw_fmt("%.*s", (int)strcspn(at + 1, "\n"), at + 1);
	return ic_csv_split(at, f, 4) >= 3 ? atof(f[2]) : -1;
}

/* a/b to places decimals (b = 1: a itself), "n/a" when the benchmarks
 * did not give either. */
static const char *cell(double a, double b, int places)
{
	return a < 0 || b <= 0 ? "n/a" : sw_fmt("%.*f", places, a / b);
}

/* An interrupt: the table goes, the benchmark running has been stopped
 * (sw_wait_s), the lock goes with us. */
static void micro_stopped(void)
{
	if (csv)
		unlink(csv);
	sw_say("interrupted: nothing measured is kept");
	exit(128 + sw_signal);
}

static int micro(int argc, char **argv)
{
	const char *cmdline = argc == 1 && !strncmp(argv[0], "--cmdline=", 10) ? argv[0] + 10 : "./run.sh micro";
	char top[4096];
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
		char *text;

		csv = sw_fmt("build/micro-%d.csv", b);
		if (sw_run((char *[]){ (char *)micro_bench[b], "--benchmark_repetitions=10",
				       "--benchmark_report_aggregates_only=true",
				       "--benchmark_enable_random_interleaving=true", "--benchmark_min_time=0.1",
				       "--benchmark_format=csv", NULL },
			   csv, log, NULL)) {
			sw_tail(5, log);
			unlink(csv);
			sw_fail("%s failed (log: %s)", micro_bench[b], log);
		}
		if (!(text = ic_read_path(csv, &(size_t){ 0 })))
			sw_fail("cannot read %s", csv);
		medians = sw_fmt("%s%s", medians, text);
		unlink(csv);
	}
	sw_measure_end();

	printf("Uncontended locked operation, ns (median of 10 interleaved repetitions):\n");
	printf("  %-7s %8s %7s %7s %7s   %-12s %-10s %-12s\n", "lock", "xchg+rel", "inline", "hint", "extern",
	       "inline/xchg", "hint/xchg", "extern/xchg");
	for (int l = 0; l < 2; l++) {
		/* Each lock's binary measures the bare exchange beside its own forms. */
		double floor = ns("floor/%s/xchg+release", locks[l]), in = ns("queue/%s/inline", locks[l]),
		       hint = ns("queue/%s/hint", locks[l]), ext = ns("queue/%s/extern", locks[l]);

		printf("  %-7s %8s %7s %7s %7s   %-12s %-10s %-12s\n", locks[l], cell(floor, 1, 2), cell(in, 1, 2),
		       cell(hint, 1, 2), cell(ext, 1, 2), cell(in, floor, 3), cell(hint, floor, 3), cell(ext, floor, 3));
	}
	printf("  xchg+rel: one exchange and a release store back to back, no critical section; not a lower\n"
	       "  bound (a whole operation can measure faster).\n"
	       "C API over Google Benchmark vs native C++, ns per item (ratio C/native). A batch of 1 crosses into\n"
	       "the library once per item, as a sweep pass does at N = 1, alike for every form (the mark measures it):\n");
	for (int k = 0; k < 4; k++) {
		double native = ns("api/native/%s", api[k]), cv = ns("api/c/%s", api[k]);

		printf("  %-11s native %7s  C %7s  ratio %s\n", api[k], cell(native, 1, 3), cell(cv, 1, 3),
		       cell(cv, native, 3));
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *cmd = argc >= 2 ? argv[1] : "";

	ic_prog = "sweep";
	/* The progress lines count from run.sh's start, as its own do: it
	 * hands every command the seconds so far. */
	sw_started = sw_now() - (getenv("IC_RUN_ELAPSED_S") ? atof(getenv("IC_RUN_ELAPSED_S")) : 0);
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help"))
		return fputs(sweep_usage, stdout), 0;
	if (!strcmp(cmd, "build"))
		return build(argc - 1, argv + 1);
	if (!strcmp(cmd, "watch"))
		return sw_watch(argc - 1, argv + 1);
	if (!strcmp(cmd, "micro"))
		return micro(argc - 2, argv + 2);
	if (argc > 2)
		return ic_bad("%s takes no arguments, not '%s'", cmd, argv[2]);
	if (!strcmp(cmd, "run")) {
		struct sweep sw = { 0 };
		char top[4096];

		ic_prog = "inlinecost";
		sw.top = getenv("PWD") && *getenv("PWD") == '/' ? getenv("PWD") : getcwd(top, sizeof(top));
		if (!sw.top)
			ic_die(1, "cannot tell the current directory");
		sw_conf_read(&sw);
		sw_sweep(&sw);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (!strcmp(cmd, "resolve") || !strcmp(cmd, "points"))
		return plan_settings(cmd);
	if (!strcmp(cmd, "machine"))
		return machine();
	return ic_bad("unknown command '%s' (see --help)", cmd);
}
