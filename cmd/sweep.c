/* sweep: the sweep's driver and plan (sweep/, plan/); commands in sweep_usage. run.sh compiles it with cc before any
 * tree is configured (scripts/setup.sh: the points are the trees' configuration). Bad usage or settings: one line on
 * stderr, exit 2, nothing printed; 1 when the machine lacks what is asked or a sweep step fails. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
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
	"         ./run.sh watch (watch, below)\n"
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
	long v[6];

	sw_topology(&t, &known);
	memcpy(v, (long[]){ t.l1i_size, t.l1i_assoc, t.l1i_line, t.l1d_size, t.l2_size, t.l3_size }, sizeof(v));
	if (!known)
		ic_die(1, "hwloc could not read this machine's topology");
	printf("cores=%d\npus=%d\nsmt=%d\n", t.cores, t.pus, t.smt);
	for (int i = 0; i < 6; i++)
		printf(v[i] > 0 ? "%s=%ld\n" : "%s=\n", name[i], v[i]);
	ic_topo_close();
	return fflush(stdout) == 0 ? 0 : 1;
}

/* build: --points reads the settings on stdin for the release build's points; options end before --. */
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

/* ./run.sh watch: can this machine give one answer? The sentinel (ic_plan_sentinel, the bench's probes) measured as
 * many short processes and one long one under the machine lock; cmd/watch_report analyses, plots/watch.gp draws. */
/* A short process: 3 rounds of every run at 0.05 s each, ~3 s with its start (states are read at each repetition: no
 * median needed); then a pause, so samples spread over time as a sweep's processes do. */
#define WATCH_REPS "3"
#define WATCH_MIN_TIME "0.05"
#define WATCH_PAUSE_S 2.0

/* The sentinel's runs (its nspecs specs, "\n"-wrapped) in bench's plan by the bench's names, one a line, the probes
 * after them (malloc'd); NULL when a spec is missing or the bench could not say (its plan and errors then kept in
 * STEM.plan and STEM.log). Never exits: build/'s bench may be older code. */
static char *sentinel_runs(const struct sweep *sw, const char *specs, size_t nspecs, char *bench, const char *stem)
{
	static const char *const col[] = { "name", "form", "op", "layout", "order", "filler", "sites" };
	char *plan = sw_fmt("%s.plan", stem), *list = sw_fmt("%s.list", stem), *log = sw_fmt("%s.log", stem),
	     *text = NULL, *names = NULL, **r = NULL, *save = NULL;
	size_t len, found = 0;
	long n = -1;
	FILE *out = ic_xalloc(open_memstream(&names, &len));

	if (!sw_run(sw_bench_argv(sw, bench, (char *[]){ "--plan", NULL }, NULL), plan, log, NULL) &&
	    !sw_run(sw_bench_argv(sw, bench, (char *[]){ "--list", NULL }, NULL), list, SW_SAME, NULL) &&
	    (text = ic_read_path(plan, &len)))
		n = sw_plan_rows(text, col, 7, &r);   /* -1: a plan of other code */
	for (long i = 0; i < n; i++) {
		char **f = r + 7 * i, key[512];

		snprintf(key, sizeof(key), "\n%s:%s:%s:%s:0:%s\n", f[1], f[2], f[3], f[4], f[6]);
		if (!strcmp(f[5], "0") && strstr(specs, key)) {
			fprintf(out, "%s\n", f[0]);
			found++;
		}
	}
	/* The probes: the machine in its own terms (bench/sites_cases.c). */
	if ((text = ic_read_path(list, &len)))
		for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (!strncmp(line, "probe/", 6))
				fprintf(out, "%s\n", line);
	fclose(out);
	if (found == nspecs && n >= 0)
		unlink(plan), unlink(log);
	else
		names = NULL;
	unlink(list);
	return names;
}

/* One sentinel process into DIR/raw/NAME.json, its output in DIR/log. */
static int watch_process(const struct sweep *sw, const char *runs, const char *name, long process)
{
	return sw_bench_process(sw, sw_fmt("%s/bench/sites_bench", sw->tree[0].dir), name, runs, NULL,
				(char *[]){ sw_fmt("--counters=none"), sw_fmt("--process=%ld", process),
					    sw_fmt("--layout-variant=0"), NULL });
}

/* The measuring, under the machine lock: machine state, short processes for half the time, then one long process for
 * about as long; runs is the file of names, one a line. How many short ones ran. */
static long watch_measure(struct sweep *sw, const char *runs, const char *names, double minutes)
{
	char half_s[32];
	long half = (long)(minutes * 30 + 0.5), k = 0, nruns = 0, long_reps;
	double end;

	for (const char *p = names; *p; p++)
		nruns += *p == '\n';
	sw_machine_state(sw, sw_fmt("%s/machine_state.txt", sw->dir));
	sw_phase("watch: short processes for %s, then one long process for about as long",
		 sw_fmt_s(half, half_s, sizeof(half_s)));
	end = sw_now() + (double)half;
	while (sw_now() < end || k < 2) {
		if (watch_process(sw, runs, sw_fmt("s%ld", k), k))
			sw_fail("a sentinel process failed; its log is in %s/log", sw->dir);
		k++;
		if (sw_now() < end)
			sw_sleep(WATCH_PAUSE_S);
	}
	/* Long process's rounds: a rep of min_time takes ~1.1x (Google Benchmark overshoots), a round one per run. */
	long_reps = (long)((double)half / ((double)nruns * sw_double(sw, "min_time") * 1.1));
	if (long_reps < 6)
		long_reps = 6;
	sw_phase("watch: %ld short processes done; the long process (%ld rounds)", k, long_reps);
	sw_set(sw, "reps", sw_fmt("%ld", long_reps));
	if (watch_process(sw, runs, "long", k))
		sw_fail("the long sentinel process failed; its log is in %s/log", sw->dir);
	return k;
}

static int watch(int argc, char **argv)
{
	double minutes = 2;
	const char *out = NULL;
	long k;
	char top[4096], *names = NULL, *runs, *log, *report, **args, *specs;
	size_t len, nspecs;
	FILE *f = ic_xalloc(open_memstream(&specs, &len));
	struct sw_tree tree = { .dir = "build" };
	struct sweep sw = { .top = top, .cmdline = "./run.sh watch", .jobs = sysconf(_SC_NPROCESSORS_ONLN), .tree = &tree,
			    .n_tree = 1 };
	const struct ic_option opts[] = {
		IC_OPTION_LONG("j", &sw.jobs, 1, LONG_MAX), IC_OPTION_DOUBLE("minutes", &minutes, 0, INFINITY),
		IC_OPTION_STRING("out", &out), IC_OPTION_STRING("cmdline", &sw.cmdline), IC_OPTIONS_END
	};
	int rc = ic_options_parse(argc, argv, opts,
				  "usage: sweep watch [-jN] [--minutes=M] [--out=DIR] [--cmdline=TEXT] < SETTINGS\n",
				  "sweep --help");

	if (rc >= 0)
		return rc;
	if (optind < argc || !(minutes >= 0.1 && minutes <= 60) || (out && !*out))
		return ic_bad("watch: --minutes from 0.1 to 60, an --out not empty, no operands (see sweep --help)");
	ic_prog = "inlinecost";
	if (!getcwd(top, sizeof(top)))
		sw_fail("cannot tell the current directory");
	sw_conf_read_settings(&sw);
	/* The sentinel's processes: one thread, private, nothing planted. */
	sw_set(&sw, "threads", "1"), sw_set(&sw, "modes", "private"), sw_set(&sw, "plant", "");
	sw_set(&sw, "reps", WATCH_REPS), sw_set(&sw, "min_time", WATCH_MIN_TIME);
	sw_set(&sw, "out", out ? out : "");
	fputc('\n', f);
	nspecs = ic_plan_sentinel(f);
	fclose(f);

	/* build/ when its plan has every sentinel run (its bench is the sweep's, as is: never rebuilt for a watch),
	 * else build-watch/ with those points only. Read first without build/'s lock, so a watch beside a sweep of
	 * other points does not wait; then again under it, as a sweep may have rebuilt it. */
	if (!access("build/bench/sites_bench", X_OK)) {
		char *probe = sw_fmt("%s/inlinecost-watch.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp"), *runs;

		if (!mkdtemp(probe))
			sw_fail("cannot make a folder like %s: %s", probe, strerror(errno));
		runs = sw_fmt("%s/runs", probe);
		if ((names = sentinel_runs(&sw, specs, nspecs, "build/bench/sites_bench", runs))) {
			int fd = sw_lock("build/.run.sh-lock", "build/", 1, sw.cmdline);

			if (!(names = sentinel_runs(&sw, specs, nspecs, "build/bench/sites_bench", runs)))
				close(fd);
		}
		ic_rm_rf(probe);
	}
	if (!names) {
		tree.dir = "build-watch";
		sw_lock_trees(&sw);
		sw_phase("build: the sentinel in build-watch (log build-watch/build.log)");
		sw_configure(&sw, sw_tr(sw_fmt("%s", specs + 1), '\n', ';'), tree.dir, NULL, 0);
	}
	sw_build(tree.dir, (const char *const[]){ "sites_bench", "watch_report", "draw", "machine_state" } + !!names,
		 names ? 3 : 4, NULL, sw.jobs);

	sw_results_dir(&sw, "watch-");   /* named when the measuring starts, after the build */
	if (ic_mkdir_p(sw_fmt("%s/raw", sw.dir)) || ic_mkdir_p(sw_fmt("%s/log", sw.dir)) ||
	    ic_mkdir_p(sw_fmt("%s/plots", sw.dir)))
		sw_fail("cannot make the folders of %s", sw.dir);
	sw_catch_run(&sw, sw_fmt("interrupted: nothing analysed; the processes so far are in %s/raw", sw.dir));
	runs = sw_fmt("%s/log/sentinel.runs", sw.dir);
	if (!names && !(names = sentinel_runs(&sw, specs, nspecs, "build-watch/bench/sites_bench", runs)))
		sw_fail("build-watch/bench/sites_bench does not run the whole sentinel (its plan and errors: %s.plan, "
			"%s.log)", runs, runs);
	if (!(f = fopen(runs, "w")) || fputs(names, f) < 0 || fclose(f))
		sw_fail("cannot write %s", runs);
	sw_say("results: %s", sw.dir);
	sw_measure_begin("./run.sh watch", sw.cmdline, top);
	k = watch_measure(&sw, runs, names, minutes);
	sw_measure_end();

	sw_phase("watch: the report");
	args = ic_xalloc(calloc((size_t)k + 6, sizeof(*args)));
	args[0] = sw_fmt("%s/cmd/watch_report", tree.dir), args[1] = "--out", args[2] = sw.dir, args[3] = "--long";
	args[4] = sw_fmt("%s/raw/long.json", sw.dir);
	for (long i = 0; i < k; i++)
		args[5 + i] = sw_fmt("%s/raw/s%ld.json", sw.dir, i);
	if (sw_run(args, "/dev/null", NULL, NULL))
		sw_fail("the watch report failed on %s", sw.dir);
	log = sw_fmt("%s/plots/.draw.log", sw.dir);
	if (sw_run((char *[]){ sw_fmt("%s/cmd/draw", tree.dir), sw.dir, "watch", NULL }, NULL, log, NULL)) {
		sw_tail(1, log);
		sw_say("the chart failed (above)");
	} else {
		/* gnuplot's warnings, each under the prefix */
		char *text = sw_read(log), *save = NULL;

		for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
			sw_say("%s", line);
		sw_say("chart: %s/plots/watch.png", sw.dir);
	}
	unlink(log);
	/* The report last: its last lines say whether this machine gives one answer. */
	report = sw_fmt("%s/watch.txt", sw.dir);
	if (access(report, R_OK))
		sw_fail("the watch report wrote no %s", report);
	sw_cat(report);
	return fflush(stdout) == 0 ? 0 : 1;
}

/* ./run.sh micro: docs/internals.md's figures for the queue and the C API, under the machine lock: medians of 10
 * interleaved reps and their ratios, of the microbenchmarks run.sh built in build/. */
static const char *const micro_bench[] = { "build/bench/queue_microbench_tas", "build/bench/queue_microbench_ticket",
					   "build/bench/api_overhead" };

static char *csv, *medians = "";   /* the running benchmark's CSV, and the text of all so far */

/* name's median from Google Benchmark's CSV (name quoted, real_time third), or -1 when not given. */
static double ns(const char *fmt, const char *a)
{
	char *key = sw_fmt("\n\"%s_median\",", sw_fmt(fmt, a)), *at = strstr(medians, key);
	double v;

	return at && sscanf(at + strlen(key), "%*[^,\n],%lf", &v) == 1 ? v : -1;
}

/* a/b to places decimals (b = 1: a itself), "n/a" when the benchmarks did not give either. */
static const char *cell(double a, double b, int places)
{
	return a < 0 || b <= 0 ? "n/a" : sw_fmt("%.*f", places, a / b);
}

/* An interrupt: the table goes, the running benchmark was stopped (sw_wait_s), the lock goes with us. */
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
		if (!(text = sw_read(csv)))
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
	/* Progress lines count from run.sh's start, as its own do: it hands every command the seconds so far. */
	sw_started = sw_now() - (getenv("IC_RUN_ELAPSED_S") ? atof(getenv("IC_RUN_ELAPSED_S")) : 0);
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help"))
		return fputs(sweep_usage, stdout), 0;
	if (!strcmp(cmd, "build"))
		return build(argc - 1, argv + 1);
	if (!strcmp(cmd, "watch"))
		return watch(argc - 1, argv + 1);
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
