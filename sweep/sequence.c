/* The sweep's sequence (driver.h) from run.sh's handover: plan, trees and results dir locked, builds, then under the
 * machine lock machine state, counters, processes; the report (cmd/summarize --run), crossover steps or calibration
 * trials, results/latest, export, closing. The bench decides the counter source (sites_bench --sim-only: source, the
 * columns' origin in words, with sim the counts' file). Simulated counts belong to the ordinary link's code: each
 * build caches them in BUILD/sim (kept across runs) and hands this run's over in sim.csv (sim-b<k>.csv for build k >
 * 0), first column "*" so variant 0 of every repeat reports them although its binary differs. */
#define _GNU_SOURCE
#include <dirent.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
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

static void stop(void)
{
	struct sweep *sw = sw_now_running;
	char name[PATH_MAX];
	ssize_t n = readlink(sw_fmt("%s/report", sw->dir), name, sizeof(name) - 1);
	glob_t g;

	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	sw_signal = 0;
	/* The .tmp files and the half-made report; the one DIR/report points to stays. */
	name[n > 0 ? n : 0] = 0;
	/* Three plain patterns: a brace in them would expand the run's own name too. */
	for (int k = 0; k < 3; k++)
		if (glob(sw_fmt("%s/%s", sw->dir, (const char *[]){ "raw/*.tmp", "*.tmp", ".report.*" }[k]), 0, NULL,
			 &g) == 0)
			for (size_t i = 0; i < g.gl_pathc; i++)
				if (strcmp(g.gl_pathv[i], sw_fmt("%s/%s", sw->dir, name)))
					ic_rm_rf(g.gl_pathv[i]);
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

/* summarize's report in place (summary, charts, repeats' agreement, calibration tables); closing lines kept for last. */
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

/* Whether run i of build t runs at an N in nlist (a|b|c); NULL or "" holds every N. */
static int in_nlist(const char *nlist, const struct sw_tree *t, size_t i)
{
	for (const char *p = nlist; p && *p; p = strchr(p, '|') ? strchr(p, '|') + 1 : "")
		if (strtoul(p, NULL, 10) == strtoul(t->runs[2 * i + 1], NULL, 10))
			return 1;
	return !nlist || !*nlist;
}

/* Build b's runs (at the N in nlist) into path, one a line: the bench's --run-list. */
static void write_runs(const struct sweep *sw, size_t b, const char *nlist, const char *path)
{
	const struct sw_tree *t = &sw->tree[b];
	FILE *f = fopen(path, "w");

	if (!f)
		sw_fail("cannot write %s", path);
	for (size_t i = 0; i < t->n_runs; i++)
		if (in_nlist(nlist, t, i))
			fprintf(f, "%s\n", t->runs[2 * i]);
	if (fclose(f))
		sw_fail("cannot write %s", path);
}

/* A process's time until one has run, from build 0's plan: every run's reps of min_time at ~1.05 times it
 * (sites_bench --iterations-from's fixed counts), plus a second to start. */
static long guess_s(const struct sweep *sw, const char *nlist)
{
	size_t n = 0;

	for (size_t i = 0; i < sw->tree[0].n_runs; i++)
		n += (size_t)in_nlist(nlist, &sw->tree[0], i);
	return (long)((double)n * (double)sw_long(sw, "reps") * sw_double(sw, "min_time") * 1.05 + 1);
}

/* Time of groups groups (a build's repeat, of a trial or step), each process at per (any unit), the first at 4/3 of
 * that: it estimates the iterations the later ones take. */
static long design_s(const struct sweep *sw, long groups, long per)
{
	return groups * (sw_long(sw, "layouts_random") * sw_long(sw, "processes") * per + per / 3);
}

/* POSIX cksum's CRC: a process's environment pad, the same as run.sh drew it. */
static uint32_t posix_cksum(const char *s)
{
	uint32_t crc = 0;
	size_t n = strlen(s);

	for (size_t i = 0, len = n; i < n || len; i < n ? i++ : (len >>= 8)) {
		crc ^= (uint32_t)(i < n ? (unsigned char)s[i] : (len & 0xff)) << 24;
		for (int k = 0; k < 8; k++)
			crc = crc & 0x80000000u ? (crc << 1) ^ 0x04C11DB7u : crc << 1;
	}
	return ~crc;
}

/* A group's (build, repeat, step) first finished process file, whose iteration counts the later ones take; or NULL. */
static char *first_of(const struct sweep *sw, const char *group)
{
	char *best = NULL;
	long long when = 0, t;
	struct stat st;
	glob_t g;

	if (glob(sw_fmt("%s/raw/%s_v*_p*.json", sw->dir, group), 0, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++)
			if (stat(g.gl_pathv[i], &st) == 0 &&
			    ((t = st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec) < when || !best))
				best = g.gl_pathv[i], when = t;
	best = best ? sw_fmt("%s", best) : NULL;
	globfree(&g);
	return best;
}

static int done(const struct sweep *sw, const char *key)
{
	struct stat st;
	char *path = sw_fmt("%s/raw/%s.json", sw->dir, key);
	int yes = stat(path, &st) == 0 && st.st_size > 0;

	free(path);
	return yes;
}

/* One process: every run of one build's plan (at the N in nlist), interleaved at random by Google Benchmark, under a
 * random environment pad (it moves the stack). */
static int run_process(const struct sweep *sw, const char *key, const char *from, const struct ic_plan_proc *p,
		       const char *nlist)
{
	const struct sw_tree *t = &sw->tree[p->build];
	char *runs = sw_fmt("%s/log/%s.runs", sw->dir, key), pad[16 + 4096];
	/* The simulated counts travel with variant 0's processes (counters). */
	const char *ctr = p->variant > 0 && !strcmp(sw->counter_source, "sim") ? "none" : sw_get(sw, "counters");
	char *seed_key = sw_fmt("%s %s", sw_get(sw, "layout_seed"), key), *sim = sw_file(sw, "sim", p->build, ".csv");
	size_t n = posix_cksum(seed_key) % 4096;
	int rc;

	write_runs(sw, p->build, nlist, runs);
	snprintf(pad, sizeof(pad), "IC_ENV_PAD=%*s", (int)n, "");
	memset(pad + 11, 'x', n);
	rc = sw_bench_process(sw,
		sw_long(sw, "lto") ? sw_fmt("%s/bench/sites_bench", t->dir)   /* LTO's code no layout moves */
				   : sw_fmt("%s/bench/variants/r%u_v%u", t->dir, p->repeat, p->variant),
		key, runs, pad, (char *[]){ sw_fmt("--counters=%s", ctr), sw_fmt("--sim-cache=%s", sim),
		sw_fmt("--process=%u", p->process), sw_fmt("--layout-variant=%u", p->variant),
		from ? sw_fmt("--iterations-from=%s", from) : NULL, NULL });
	free(runs), free(seed_key), free(sim);
	return rc;
}

/* --spread: sleep until repeat r's turn with the machine lock let go (however deep) so others may measure, then
 * retake it. A lock handed down by `flock FILE ./run.sh` stays its giver's, held. */
static void spread_wait(const struct sweep *sw, double s, unsigned r)
{
	int depth = sw_measure_depth;
	time_t at = time(NULL) + (time_t)s;
	char when[16], *what = sw_fmt("the measurement (repeat %u)", r);

	if (s <= 0)
		return;
	strftime(when, sizeof(when), "%H:%M:%S", gmtime(&at));
	sw_phase("spread: repeat %u of %ld starts at %s UTC, in %ld min %ld s; the machine is free to others until then",
		 r, sw_long(sw, "repeat"), when, (long)s / 60, (long)s % 60);
	for (int k = 0; k < depth; k++)
		sw_measure_end();
	sw_sleep(s);
	for (int k = 0; k < depth; k++)
		sw_measure_begin(what, sw->cmdline, sw->top);
}

/* A design's processes (prefix "", t<T>_, x<S>_) not on disk, at nlist's N (a|b; NULL: all); 0, -1 if one failed. */
static int processes(struct sweep *sw, const char *prefix, const char *nlist, long after_s)
{
	long repeat = sw_long(sw, "repeat"), nb = (long)sw->n_tree, spread_gap = 0;
	size_t total, todo = 0, firsts = 0;
	struct ic_plan_proc *list = ic_plan_order_list((uint32_t)sw_long(sw, "layout_seed"), (unsigned)repeat,
						       (unsigned)sw_long(sw, "layouts_random"),
						       (unsigned)sw_long(sw, "processes"), (unsigned)nb,
						       *sw_get(sw, "spread") != 0, &total);
	char **key = ic_xalloc(calloc(total, sizeof(*key))), **group = ic_xalloc(calloc(total, sizeof(*group))), *ns;
	long guess, per, done_ms = 0, done_n = 0, prev_eta = -1;
	unsigned cur_r = 0;
	double r_began = 0;
	int rc = 0;

	/* A group's first process estimates its iterations and runs ~1.4 times as long as the later ones (guess_s).
	 * Each group counted once, at its process v0_p0. */
	for (size_t i = 0; i < total; i++) {
		key[i] = ic_plan_key(&list[i], (unsigned)nb, prefix, &group[i]);
		todo += !done(sw, key[i]);
		if (!list[i].variant && !list[i].process) {
			char *first = first_of(sw, group[i]);

			firsts += !first;
			free(first);
		}
	}
	guess = guess_s(sw, nlist);
	ns = sw_tr(sw_fmt(nlist ? ", N = %s" : "", nlist), '|', ',');
	if (*sw_get(sw, "spread"))
		spread_gap = (long)(sw_double(sw, "spread") * 60 / (double)(repeat - 1) + 0.5);
	sw_measure_begin("the measurement", sw->cmdline, sw->top);
	for (size_t i = 0; i < total && rc == 0; i++) {
		const struct ic_plan_proc *p = &list[i];
		char *from, why[160] = "";
		double start;

		if (done(sw, key[i]))
			continue;
		if (spread_gap && p->repeat != cur_r) {
			if (cur_r)
				spread_wait(sw, r_began + (double)spread_gap - sw_now(), p->repeat);
			cur_r = p->repeat, r_began = sw_now();
		}
		/* Left: later processes at their mean so far (the design's guess before one ran), groups' first
		 * processes at 4/3 of that, and the report. It rises only with a reason. */
		per = done_n ? done_ms / done_n : guess * 1000;
		sw_eta = (((long)todo - (long)firsts) * per + (long)firsts * per * 4 / 3) / 1000 + after_s;
		/* --spread: the last repeat starts no sooner than its turn, then takes a repeat's processes. */
		if (spread_gap && p->repeat < repeat) {
			long wait_eta = (long)r_began + (repeat - p->repeat) * spread_gap - (long)time(NULL) +
					design_s(sw, nb, per) / 1000 + after_s;

			if (wait_eta > sw_eta)
				sw_eta = wait_eta;
		}
		if (prev_eta >= 0 && sw_eta > prev_eta + 5 + prev_eta / 10)
			snprintf(why, sizeof(why), " (the estimate rose: a process takes %.1f s here, not the %ld s guessed)",
				 (double)per / 1000, guess);
		prev_eta = sw_eta;
		sw_phase("measurement %zu/%zu: process %s (repeat %u, layout variant %u)%s%s", i + 1, total, key[i],
			 p->repeat, p->variant, ns, why);
		from = first_of(sw, group[i]);
		start = sw_now();
		rc = run_process(sw, key[i], from, p, nlist);
		if (!from)
			firsts--;
		else
			done_ms += (long)((sw_now() - start) * 1000), done_n++;
		free(from);
		todo--;
		prev_eta -= (long)(sw_now() - start);
		/* The main design's verdict so far at 1/4, 1/2, 3/4 from the processes on disk (summarize writes
		 * nothing of the run's; a failure is silent: the final report speaks). */
		if (rc == 0 && !*prefix && total >= 8 && i + 1 < total && i * 4 / total < (i + 1) * 4 / total)
			sw_run((char *[]){ sw_fmt("%s/cmd/summarize", sw->tree[0].dir), "--run", sw->dir, "--so-far",
					   sw_fmt("%zu", total), NULL }, NULL, "/dev/null", NULL);
	}
	sw_measure_end();
	sw_eta = after_s;
	return rc;
}

static void sim_copy(const char *cache, const char *to, const char *dir, const char *log)
{
	FILE *in = fopen(cache, "r"), *out;
	char *line = NULL, *tmp = sw_fmt("%s.tmp", to);
	size_t cap = 0;

	if (!in || fgetc(in) == EOF)
		sw_fail("the simulation wrote no cache in %s/sim; log: %s", dir, log);
	rewind(in);
	if (!(out = fopen(tmp, "w")))
		sw_fail("cannot write %s", tmp);
	for (int k = 0; getline(&line, &cap, in) > 0; k++)
		if (k)
			fprintf(out, "*%s", strchr(line, ',') ? strchr(line, ',') : "\n");
		else
			fputs(line, out);
	free(line);
	fclose(in);
	if (fclose(out) || rename(tmp, to))
		sw_fail("cannot write %s", to);
}

/* The counter source of every build (sites_bench --sim-only), one for the run. */
static void counters(struct sweep *sw)
{
	const char *counters = sw_get(sw, "counters");
	char *sentence = NULL;

	sw_phase("counters: deciding the source%s",
		 strcmp(counters, "none") ? "; a simulation, when it comes to that, is cached in BUILD/sim" : "");
	sw_measure_begin("the counter source (a simulation, when it comes to that)", sw->cmdline, sw->top);
	for (size_t b = 0; b < sw->n_tree; b++) {
		const char *d = sw->tree[b].dir;
		char *log = sw_file(sw, "log/counters", b, ".txt"), *runs = sw_file(sw, "log/counters", b, ".runs"),
		     *said = sw_file(sw, "log/counters", b, ".said"), *text, *line[3];
		char **argv = sw_bench_argv(sw, sw_fmt("%s/bench/sites_bench", d), (char *[]){ sw_fmt("--counters=%s", counters),
					    sw_fmt("--sim-cache-dir=%s/sim", d), sw_fmt("--run-list=%s", runs), "--sim-only", NULL },
					    NULL);
		size_t n = 0;

		write_runs(sw, b, NULL, runs);
		if (sw_run(argv, said, log, NULL) || !(text = sw_read(said))) {
			sw_tail(5, log);
			sw_fail("deciding the counter source failed; log: %s", log);
		}
		for (char *p = text; p && *p && n < 3;)   /* its first three lines, split in place */
			line[n++] = strsep(&p, "\n");
		if (n < 2)
			sw_fail("%s --sim-only said no source; log: %s", argv[0], log);
		if (!strcmp(line[0], "sim"))
			sim_copy(n > 2 ? line[2] : "", sw_file(sw, "sim", b, ".csv"), d, log);
		if (b == 0)   /* again at a crossover step */
			sw->counter_source = line[0], sentence = line[1];
	}
	/* One source per run: a resume on a machine now counting otherwise (--counters auto) would mix figures. */
	if (!*sw_get(sw, "counter_source_of_run")) {
		sw_set(sw, "counter_source_of_run", sw->counter_source);
		sw_conf_save(sw);
	} else if (strcmp(sw->counter_source, sw_get(sw, "counter_source_of_run"))) {
		sw_fail("the run's counters came from %s, this machine now gives %s: a resumed run must not mix "
			"them; start a new run", sw_get(sw, "counter_source_of_run"), sw->counter_source);
	}
	sw_measure_end();
	sw_say("counters: %s", sentence);
}

/* Measure the N inside each crossover bracket (same variants, processes): the engine's midpoints the last summary
 * names in report/refine_next.txt, put in crossover_steps.csv before a step runs so its resume measures the same N. */
static int crossover(struct sweep *sw, const char *closing)
{
	char *steps = sw_fmt("%s/crossover_steps.csv", sw->dir), *next = sw_fmt("%s/report/refine_next.txt", sw->dir);

	for (int step = 1; step <= 4; step++) {
		char *text = sw_read(steps), *mids = NULL, *want = sw_fmt("%d,", step), *sites, err[256];
		unsigned long *n;
		size_t nn;
		FILE *f;

		for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "")
			if (!strncmp(l, want, strlen(want)))
				mids = strndup(l + strlen(want), strcspn(l + strlen(want), "\n"));
		if (!mids || !*mids) {
			if (!(text = sw_read(next)))
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
		counters(sw);
		if (processes(sw, sw_fmt("x%d_", step), mids, SW_REPORT_S))
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

/* --calibrate: each trial is a whole design (variants x processes) with extern and three copies planted with 0%, 1%
 * and 3% more time per pass; the report reads how often each interval holds the planted ratio. */
static int calibration(struct sweep *sw, const char *closing)
{
	long trials = sw_long(sw, "trials"), ran_s = 0, ran_n = 0;
	long guess = design_s(sw, sw_long(sw, "repeat") * (long)sw->n_tree, guess_s(sw, NULL));

	for (long t = 1; t <= trials; t++) {
		char *prefix = sw_fmt("t%ld_", t);
		size_t before = raw_count(sw, prefix);
		double start = sw_now();

		sw_phase("calibration: trial %ld of %ld", t, trials);
		/* Time left: later trials at the mean so far (guess before any ran; a resume's trials on disk: 0 s). */
		if (processes(sw, prefix, NULL, (trials - t) * (ran_n ? ran_s / ran_n : guess) + SW_REPORT_S))
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

/* In name order (the first name after the last locked, each once), so two sweeps sharing trees cannot wait for each other. */
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
	/* Each repeat (of every trial) a design; with --spread each but the last takes its gap, or its time if longer. */
	one_s = design_s(sw, nb * (sw_long(sw, "calibrate") ? sw_long(sw, "trials") : 1), guess_s(sw, NULL));
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
	counters(sw);
	if (sw_long(sw, "calibrate")) {
		/* Each trial's processes take the lock again; the report needs none. */
		sw_measure_end();
		if (calibration(sw, closing))
			sw_fail("stopped; %s", stopped);
		sw_cat(closing);
		return;
	}
	if (processes(sw, "", NULL, SW_REPORT_S))
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
