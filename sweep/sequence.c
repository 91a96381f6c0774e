/* The sweep's sequence (driver.h), from where run.sh hands over: the plan on
 * this machine, the trees and the results directory locked, the builds,
 * then under the machine lock the machine's state, the counters and the
 * processes; the report (cmd/summarize --run), the crossover steps or the
 * calibration's trials, results/latest, the export and the closing lines. */
#define _GNU_SOURCE
#include <dirent.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kit.h"
#include "points.h"
#include "driver.h"

/* The report's share of the time left: a guess, in seconds. */
#define SW_REPORT_S 5

static struct sweep *sw_now_running;
static const char *stop_said;

/* rm -rf what pattern matches (glob(3)), but keep. */
static void rm_glob(const char *pattern, const char *keep)
{
	glob_t g;

	if (glob(pattern, 0, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++)
			if (!keep || strcmp(g.gl_pathv[i], keep))
				ic_rm_rf(g.gl_pathv[i]);
	globfree(&g);
}

static void stop(void)
{
	struct sweep *sw = sw_now_running;
	char name[PATH_MAX];
	ssize_t n = readlink(sw_fmt("%s/report", sw->dir), name, sizeof(name) - 1);

	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	sw_signal = 0;
	rm_glob(sw_fmt("%s/raw/*.tmp", sw->dir), NULL);
	rm_glob(sw_fmt("%s/*.tmp", sw->dir), NULL);
	/* The half-made report; the one DIR/report points to stays. */
	name[n > 0 ? n : 0] = 0;
	rm_glob(sw_fmt("%s/.report.*", sw->dir), sw_fmt("%s/%s", sw->dir, name));
	sw_say("%s", stop_said);
	exit(130);
}

void sw_catch_run(struct sweep *sw, const char *said)
{
	sw_now_running = sw, stop_said = said;
	sw_catch(stop);
}

void sw_machine_state(const struct sweep *sw, const char *path)
{
	char *tmp = sw_fmt("%s.tmp", path);

	if (sw_run((char *[]){ sw_fmt("%s/cmd/machine_state", sw->tree[0].dir), NULL }, tmp, NULL, NULL) ||
	    rename(tmp, path)) {
		unlink(tmp);
		sw_say("the machine state could not be read; the JSON context still has it");
	}
}

/* The whole report of the run in place (summary, charts, repeats'
 * agreement, calibration tables): summarize's. Its closing lines are kept
 * for the end of the run, as it printed them. */
static void report(const struct sweep *sw, const char *closing)
{
	int calibrate = sw_long(sw, "calibrate") != 0;
	char *secs = sw_fmt("%ld", (long)(sw_now() - sw_started));

	if (!calibrate)
		sw_phase("report: summary and charts");
	/* (summarize says what failed) */
	if (sw_run((char *[]){ sw_fmt("%s/cmd/summarize", sw->tree[0].dir), "--run", sw->dir,
			       calibrate ? "--seconds" : NULL, secs, NULL }, closing, NULL, NULL))
		exit(1);
}

/* Measure the N inside each crossover bracket, with the same variants and
 * processes: the N the last summary names in report/refine_next.txt (the
 * engine's geometric midpoints of neighbouring measured N in each
 * bracket). A step's N are written to crossover_steps.csv before it runs,
 * so a resumed step measures the N it started with. */
static int crossover(struct sweep *sw, const char *closing)
{
	char *steps = sw_fmt("%s/crossover_steps.csv", sw->dir), *next = sw_fmt("%s/report/refine_next.txt", sw->dir);

	for (int step = 1; step <= 4; step++) {
		char *text = ic_read_path(steps, &(size_t){ 0 }), *mids = NULL, *want = sw_fmt("%d,", step), *sites, err[256];
		unsigned long *n;
		size_t nn;
		FILE *f;

		for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "")
			if (!strncmp(l, want, strlen(want)))
				mids = strndup(l + strlen(want), strcspn(l + strlen(want), "\n"));
		if (!mids || !*mids) {
			if (!(text = ic_read_path(next, &(size_t){ 0 })))
				sw_fail("no %s: the summary did not name the next N", next);
			if (!*(mids = sw_tr(text, '\n', '|'))) {
				sw_say("crossover: nothing left to refine");
				return 0;
			}
			if (!(f = fopen(steps, "a")) || fprintf(f, "%d,%s\n", step, mids) < 0 || fclose(f))
				sw_fail("cannot write %s", steps);
		}
		sw_phase("crossover step %d: new N %s", step, sw_tr(sw_fmt("%s", mids), '|', ' '));
		/* The N so far and the new ones, sorted and each once. */
		sites = sw_tr(sw_fmt("%s", mids), '|', ',');
		if (ic_plan_sites(sw_get(sw, "sites"), &n, &nn, err, sizeof(err)))
			sw_fail("--sites: %s", err);
		for (size_t i = 0; i < nn; i++)
			sites = sw_fmt("%s,%lu", sites, n[i]);
		if (ic_plan_sites(sites, &n, &nn, err, sizeof(err)))
			sw_fail("crossover: %s", err);
		sites = "";
		for (size_t i = 0; i < nn; i++)
			sites = sw_fmt("%s%s%lu", sites, i ? "," : "", n[i]);
		sw_set(sw, "sites", sites);
		sw_conf_save(sw);
		sw_build_all(sw);
		/* The new N's simulated counts, from the ordinary link as the others. */
		sw_counters(sw);
		if (sw_processes(sw, sw_fmt("x%d_", step), mids, SW_REPORT_S))
			return -1;
		report(sw, closing);
	}
	return 0;
}

static size_t raw_count(const struct sweep *sw, const char *start)
{
	glob_t g;
	size_t n = glob(sw_fmt("%s/raw/%s*.json", sw->dir, start), 0, NULL, &g) == 0 ? g.gl_pathc : 0;

	globfree(&g);
	return n;
}

/* --calibrate: every trial is a whole design (variants x processes) with
 * extern and three copies of it planted with 0%, 1% and 3% more time per
 * pass; the report reads how often each interval holds the planted ratio. */
static int calibration(struct sweep *sw, const char *closing)
{
	long trials = sw_long(sw, "trials"), ran_s = 0, ran_n = 0;
	long guess = sw_design_s(sw, sw_long(sw, "repeat") * (long)sw->n_tree, sw_guess_s(sw, NULL));

	for (long t = 1; t <= trials; t++) {
		char *prefix = sw_fmt("t%ld_", t);
		size_t before = raw_count(sw, prefix);
		double start = sw_now();

		sw_phase("calibration: trial %ld of %ld", t, trials);
		/* The trials after this one take what those run so far took (the
		 * design's guess before one has run; a resume's trials on disk
		 * took nothing), for the time left. */
		if (sw_processes(sw, prefix, NULL, (trials - t) * (ran_n ? ran_s / ran_n : guess) + SW_REPORT_S))
			return -1;
		if (raw_count(sw, prefix) != before)
			ran_s += (long)(sw_now() - start), ran_n++;
	}
	report(sw, closing);
	return 0;
}

/* The time now as results/ names runs and a resume its machine state. */
static const char *stamp(void)
{
	static char s[32];
	time_t now = time(NULL);

	strftime(s, sizeof(s), "%Y%m%dT%H%M%SZ", gmtime(&now));
	return s;
}

void sw_results_dir(struct sweep *sw, const char *prefix)
{
	const char *out = sw_get(sw, "out");
	char *results = sw_fmt("%s/results", sw->top);
	DIR *d;
	struct dirent *e;

	sw->dir = *out ? sw_fmt("%s", out) : sw_fmt("%s/%s%s", results, prefix, stamp());
	if (*out ? ic_mkdir_p(sw->dir) != 0 : ic_mkdir_p(results) || mkdir(sw->dir, 0777))
		sw_fail(*out ? "cannot make %s" : "cannot make %s (made by another run in the same second? try again)",
			sw->dir);
	sw_lock(sw_fmt("%s/.run.sh-lock", sw->dir), sw->dir, 0, sw->cmdline);
	/* Another run may have filled it between the check and the lock. */
	if ((d = opendir(sw->dir))) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, ".run.sh-lock"))
				sw_fail("--out: %s is no longer empty", sw->dir);
		closedir(d);
	}
}

/* In name order, so two sweeps that share trees cannot wait for each
 * other: each time the first name after the last locked, each once. */
void sw_lock_trees(const struct sweep *sw)
{
	for (const char *last = "", *next = NULL;; last = next, next = NULL) {
		for (size_t b = 0; b < sw->n_tree; b++)
			if (strcmp(sw->tree[b].dir, last) > 0 && (!next || strcmp(sw->tree[b].dir, next) < 0))
				next = sw->tree[b].dir;
		if (!next)
			return;
		ic_mkdir_p(next);
		sw_lock(sw_fmt("%s/.run.sh-lock", next), sw_fmt("%s/", next), 1, sw->cmdline);
	}
}

void sw_sweep(struct sweep *sw)
{
	long repeat = sw_long(sw, "repeat"), nb = (long)sw->n_tree, one_s, gap_s = 0;
	char *closing, *stopped, *results = sw_fmt("%s/results", sw->top), *tmp;
	const char *tar = "";
	size_t nr = strlen(results);

	sw_resolve(sw);
	sw_identity(sw);   /* before anything is locked, made or built */
	sw_lock_trees(sw);
	if (!sw->resume) {
		if (!sw_long(sw, "lto"))
			sw_variant_seeds(sw);
		sw_results_dir(sw, "");
		sw_conf_save(sw);
	} else {
		sw->dir = sw_fmt("%s", sw_get(sw, "resume"));   /* run.sh holds its lock */
	}
	if (ic_mkdir_p(sw_fmt("%s/raw", sw->dir)) || ic_mkdir_p(sw_fmt("%s/log", sw->dir)))
		sw_fail("cannot make %s/raw", sw->dir);
	stopped = sw_fmt("finished processes are in %s; continue with ./run.sh --resume %s", sw->dir, sw->dir);
	sw_catch_run(sw, sw_fmt("interrupted: %s", stopped));
	closing = sw_fmt("%s/log/closing.txt", sw->dir);
	sw_say("results: %s", sw->dir);
	sw_say("%s", sw->series ? sw->series : "");
	/* The time left is known once the bench has said what it runs. */
	sw_eta = -1;
	sw_build_all(sw);
	/* Each repeat (of every trial) a design; with --spread each but the
	 * last takes its gap, or its own time if longer. */
	one_s = sw_design_s(sw, nb * (sw_long(sw, "calibrate") ? sw_long(sw, "trials") : 1), sw_guess_s(sw, NULL));
	if (*sw_get(sw, "spread"))
		gap_s = (long)(sw_double(sw, "spread") * 60 / (double)(repeat - 1) + 0.5);
	sw_eta = (repeat - 1) * (gap_s > one_s ? gap_s : one_s) + one_s + SW_REPORT_S;
	sw_say("design: %s layout variant(s) (seed %s) x %s process(es) x %s reps of %s s%s%s; %zu runs per process (%s)",
	       sw_get(sw, "layouts_random"), sw_get(sw, "layout_seed"), sw_get(sw, "processes"), sw_get(sw, "reps"),
	       sw_get(sw, "min_time"), repeat > 1 ? sw_fmt(", %ld repeats", repeat) : "",
	       *sw_get(sw, "spread") ? sw_fmt(" spread over %s min", sw_get(sw, "spread")) : "", sw->tree[0].n_runs,
	       sw_file(sw, "plan", 0, ".tsv"));
	if (sw_long(sw, "find_crossover"))
		sw_say("the time left counts the design above; each crossover step after it is a design of its own");
	if (!sw->resume) {
		sw_read_build_lock(sw);
		sw_conf_save(sw);
	}
	/* One measurement at a time on this machine, from here to the last process. */
	sw_measure_begin("the sweep", sw->cmdline, sw->top);
	/* Each resume's machine state beside the first, none overwritten. */
	sw_machine_state(sw, sw->resume ? sw_fmt("%s/machine_state-resumed-%s.txt", sw->dir, stamp())
				       : sw_fmt("%s/machine_state.txt", sw->dir));
	sw_counters(sw);
	if (sw_long(sw, "calibrate")) {
		/* Each trial's processes take the lock again; the report needs none. */
		sw_measure_end();
		if (calibration(sw, closing))
			sw_fail("stopped; %s", stopped);
		sw_cat(closing);
		return;
	}
	if (sw_processes(sw, "", NULL, SW_REPORT_S))
		sw_fail("stopped; %s", stopped);
	sw_measure_end();
	report(sw, closing);
	if (sw_long(sw, "find_crossover") && crossover(sw, closing))
		sw_fail("stopped; %s", stopped);
	if (!strncmp(sw->dir, results, nr) && strrchr(sw->dir, '/') == sw->dir + nr) {   /* results/NAME */
		char *latest = sw_fmt("%s/latest", results);

		unlink(tmp = sw_fmt("%s/.latest.tmp", results));
		if (symlink(strrchr(sw->dir, '/') + 1, tmp) || rename(tmp, latest))
			sw_say("cannot point %s at %s", latest, sw->dir);
	}
	/* One file that holds the run, to copy to another machine for compare. */
	if (sw_run((char *[]){ sw_fmt("%s/cmd/runs", sw->tree[0].dir), "export", sw->dir, NULL }, "/dev/null",
		   sw_fmt("%s/log/export.txt", sw->dir), NULL))
		sw_say("export of %s failed (log: %s/log/export.txt); the results directory is complete", sw->dir, sw->dir);
	else
		tar = sw_fmt(" (all of it in one file: %s.tar.gz)", sw->dir);
	sw_eta = -1;   /* nothing is left */
	sw_phase("done: %s/summary.md%s", sw->dir, tar);
	/* The answer, last on the terminal. */
	sw_cat(closing);
}
