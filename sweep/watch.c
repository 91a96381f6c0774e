/* ./run.sh watch as the driver runs it (driver.h): whether this machine can
 * give one answer. The sentinel (plan/points.h: the watch's forms at N = 16
 * and 1024, beside the bench's probes) measured as many short processes
 * and one long one under the machine lock, then analysed by
 * cmd/watch_report and drawn by plots/watch.gp. run.sh has checked the
 * options and installed what is missing. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit.h"
#include "points.h"
#include "driver.h"

/* A short process: 3 rounds of every run at 0.05 s each, about 3 s with
 * its start (the states are read at each repetition, so no median is
 * needed); then a pause, so the samples spread over the time as a sweep's
 * processes do. */
#define WATCH_REPS "3"
#define WATCH_MIN_TIME "0.05"
#define WATCH_PAUSE_S 2.0

/* The sentinel's specs, "\n"-wrapped one a line (malloc'd). */
static char *sentinel_specs(void)
{
	char *specs;
	size_t len;
	FILE *f = ic_xalloc(open_memstream(&specs, &len));

	fputc('\n', f);
	ic_plan_sentinel(f);
	fclose(f);
	return specs;
}

/* The sentinel's runs in bench's plan, by the names the bench gives them,
 * one a line, the probes after them (malloc'd); NULL when some spec of the
 * sentinel is not there or the bench could not say (its plan and errors
 * are then kept in STEM.plan and STEM.log). Never exits: build/'s bench
 * may be of older code. */
static char *sentinel_runs(const struct sweep *sw, char *bench, const char *stem)
{
	static const char *const col[] = { "name", "form", "op", "layout", "order", "filler", "sites" };
	char *specs = sentinel_specs(), *plan = sw_fmt("%s.plan", stem), *list = sw_fmt("%s.list", stem),
	     *log = sw_fmt("%s.log", stem), *text = NULL, *names = NULL, **r = NULL, *save = NULL;
	size_t len, nspecs = 0, found = 0;
	long n = -1;
	FILE *out = ic_xalloc(open_memstream(&names, &len));

	for (char *p = specs; *p; p++)
		nspecs += *p == '\n' && p[1];
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
	/* The probes: the machine in its own terms (bench/probes.h). */
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

/* The measuring part, under the machine lock: the machine's state, short
 * processes for half the time, then one long process for about as long.
 * runs is the file of names, one a line. How many short processes ran. */
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
	/* The long process's rounds: a repetition of min_time takes about 1.1
	 * times it (Google Benchmark overshoots a little), a round one per run. */
	long_reps = (long)((double)half / ((double)nruns * sw_double(sw, "min_time") * 1.1));
	if (long_reps < 6)
		long_reps = 6;
	sw_phase("watch: %ld short processes done; the long process (%ld rounds)", k, long_reps);
	sw_set(sw, "reps", sw_fmt("%ld", long_reps));
	if (watch_process(sw, runs, "long", k))
		sw_fail("the long sentinel process failed; its log is in %s/log", sw->dir);
	return k;
}

int sw_watch(int argc, char **argv)
{
	double minutes = 2;
	const char *out = NULL;
	long k;
	char top[4096], *names = NULL, *runs, *log, *report, **args;
	FILE *f;
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

	/* build/ when its plan has every sentinel run (its bench is the
	 * sweep's, as it is: never rebuilt for a watch), else build-watch/ with
	 * those points only. Read first without build/'s lock, so a watch
	 * beside a sweep of other points does not wait for it; then again
	 * under the lock, as a sweep may have rebuilt it in between. */
	if (!access("build/bench/sites_bench", X_OK)) {
		char *probe = sw_fmt("%s/inlinecost-watch.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp"), *runs;

		if (!mkdtemp(probe))
			sw_fail("cannot make a folder like %s: %s", probe, strerror(errno));
		runs = sw_fmt("%s/runs", probe);
		if ((names = sentinel_runs(&sw, "build/bench/sites_bench", runs))) {
			int fd = sw_lock("build/.run.sh-lock", "build/", 1, sw.cmdline);

			if (!(names = sentinel_runs(&sw, "build/bench/sites_bench", runs)))
				close(fd);
		}
		ic_rm_rf(probe);
	}
	if (!names) {
		char *specs = sentinel_specs();

		tree.dir = "build-watch";
		sw_lock_trees(&sw);
		sw_phase("build: the sentinel in build-watch (log build-watch/build.log)");
		sw_configure(&sw, sw_tr(specs + 1, '\n', ';'), tree.dir, NULL, 0);
	}
	sw_build(tree.dir, (const char *const[]){ "sites_bench", "watch_report", "draw", "machine_state" } + !!names,
		 names ? 3 : 4, NULL, sw.jobs);

	sw_results_dir(&sw, "watch-");   /* named when the measuring starts, after the build */
	if (ic_mkdir_p(sw_fmt("%s/raw", sw.dir)) || ic_mkdir_p(sw_fmt("%s/log", sw.dir)) ||
	    ic_mkdir_p(sw_fmt("%s/plots", sw.dir)))
		sw_fail("cannot make the folders of %s", sw.dir);
	sw_catch_run(&sw, sw_fmt("interrupted: nothing analysed; the processes so far are in %s/raw", sw.dir));
	runs = sw_fmt("%s/log/sentinel.runs", sw.dir);
	if (!names && !(names = sentinel_runs(&sw, "build-watch/bench/sites_bench", runs)))
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
		char *text = ic_read_path(log, &(size_t){ 0 }), *save = NULL;

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
