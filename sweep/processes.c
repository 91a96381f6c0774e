/* The sweep's processes (driver.h): the design's, in the plan's order
 * (plan/points.h), each one run of the bench under the machine lock, one
 * line each with the time the run has left; with --spread the repeats one
 * after the other, the machine left to others between them; the verdict so
 * far at each quarter. Before them, the counter source: the bench decides
 * it (sites_bench --sim-only: its first line the source, its second where
 * the columns come from in words, its third, with sim, the file the counts
 * are in). Simulated counts are a property of the ordinary link's code:
 * each build simulates them once into its cache in the build tree
 * (BUILD/sim, kept across runs) and hands this run's points to the run in
 * sim.csv (sim-b<k>.csv for build k > 0), the first column "*" so that
 * variant 0 of every repeat reports them although its binary differs. */
#define _GNU_SOURCE
#include <glob.h>
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

/* A process's time for the time left until one has run, from what it runs
 * (build 0's plan): every run's repetitions of min_time (the first
 * process's estimate runs each about 1.4 times that, the later ones' fixed
 * counts about 1.05 times: sites_bench --iterations-from), and a second to
 * start. */
long sw_guess_s(const struct sweep *sw, const char *nlist)
{
	size_t n = 0;

	for (size_t i = 0; i < sw->tree[0].n_runs; i++)
		n += (size_t)in_nlist(nlist, &sw->tree[0], i);
	return (long)((double)n * (double)sw_long(sw, "reps") * sw_double(sw, "min_time") * 1.05 + 1);
}

/* The time of groups groups (a build's repeat, of a trial or step), each
 * of the design's processes at per (any unit), its first at 4/3 of that:
 * the first estimates the iterations the later ones take. */
long sw_design_s(const struct sweep *sw, long groups, long per)
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

/* A group's (same build, repeat and step) first finished process file: the
 * later processes take its iteration counts. NULL when none. */
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

char **sw_bench_argv(const struct sweep *sw, char *bin, char *const *args, char *const *more)
{
	char *const head[] = { bin, sw_fmt("--threads=%s", sw_get(sw, "threads")), sw_fmt("--modes=%s", sw_get(sw, "modes")),
			       *sw_get(sw, "plant") ? sw_fmt("--plant=%s", sw_get(sw, "plant")) : NULL, NULL };
	char *const *list[] = { head, args, more }, **argv = NULL;
	size_t n = 0;

	for (int l = 0; l < 3; l++)
		for (char *const *a = list[l]; a && *a; a++) {
			argv = ic_xrealloc(argv, n + 2, sizeof(*argv));
			argv[n++] = *a;
			argv[n] = NULL;
		}
	return argv;
}

int sw_bench_process(const struct sweep *sw, char *bin, const char *key, const char *runs, const char *env,
		     char *const *more)
{
	char *file = sw_fmt("%s/raw/%s.json", sw->dir, key), *log = sw_fmt("%s/log/%s.txt", sw->dir, key),
	     *tmp = sw_fmt("%s.tmp", file);
	/* (every argv entry its own string: all are freed below) */
	char **argv = sw_bench_argv(sw, bin, (char *[]){ sw_fmt("--run-list=%s", runs),
				    sw_fmt("--benchmark_repetitions=%s", sw_get(sw, "reps")),
				    sw_fmt("--benchmark_enable_random_interleaving=true"),
				    sw_fmt("--benchmark_min_time=%s", sw_get(sw, "min_time")), sw_fmt("--benchmark_out=%s", tmp),
				    sw_fmt("--benchmark_out_format=json"), sw_fmt("--benchmark_format=console"), NULL }, more);
	int rc;

	if ((rc = sw_run(argv, log, SW_SAME, env))) {
		unlink(tmp);
		sw_say("process %s failed; its log: %s", key, log);
		sw_tail(5, log);
	} else if (rename(tmp, file)) {
		sw_fail("cannot write %s", file);
	}
	/* Freed, unlike the driver's other strings: a calibration runs
	 * thousands of processes. */
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
	free(file), free(log), free(tmp);
	return rc ? -1 : 0;
}

/* One process: every run of one build's plan (at the N in nlist), forms
 * and points interleaved at random by Google Benchmark, under a random
 * environment pad (it moves the stack). */
static int run_process(const struct sweep *sw, const char *key, const char *from, const struct ic_plan_proc *p,
		       const char *nlist)
{
	const struct sw_tree *t = &sw->tree[p->build];
	char *runs = sw_fmt("%s/log/%s.runs", sw->dir, key), pad[16 + 4096];
	/* The simulated counts travel with variant 0's processes (sw_counters). */
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

/* --spread: sleep until repeat r's turn with the machine lock let go
 * (however deep it is held), so that others may measure meanwhile; then
 * take it again, waiting for them if need be. A lock handed down by
 * `flock FILE ./run.sh` stays its giver's and stays held. */
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

int sw_processes(struct sweep *sw, const char *prefix, const char *nlist, long after_s)
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

	/* A group's first process estimates its iterations and runs about 1.4
	 * times as long as the later ones (sw_guess_s). Each group once: at
	 * its one process v0_p0. */
	for (size_t i = 0; i < total; i++) {
		key[i] = ic_plan_key(&list[i], (unsigned)nb, prefix, &group[i]);
		todo += !done(sw, key[i]);
		if (!list[i].variant && !list[i].process) {
			char *first = first_of(sw, group[i]);

			firsts += !first;
			free(first);
		}
	}
	guess = sw_guess_s(sw, nlist);
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
		/* What is left: the later processes at their mean so far (the
		 * design's guess before one has run), the groups' first
		 * processes at 4/3 of that, and the report. It rises only with
		 * a reason. */
		per = done_n ? done_ms / done_n : guess * 1000;
		sw_eta = (((long)todo - (long)firsts) * per + (long)firsts * per * 4 / 3) / 1000 + after_s;
		/* --spread: the last repeat starts no sooner than its turn, then
		 * takes a repeat's processes. */
		if (spread_gap && p->repeat < repeat) {
			long wait_eta = (long)r_began + (repeat - p->repeat) * spread_gap - (long)time(NULL) +
					sw_design_s(sw, nb, per) / 1000 + after_s;

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
		/* The time left shrinks by the time just spent. */
		prev_eta -= (long)(sw_now() - start);
		/* The main design's verdict so far, at a quarter, half and three
		 * quarters, from the processes on disk (summarize writes nothing of
		 * the run's; a failure says nothing: the report at the end speaks). */
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

void sw_counters(struct sweep *sw)
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
		if (sw_run(argv, said, log, NULL) || !(text = ic_read_path(said, &(size_t){ 0 }))) {
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
	/* One source per run: a resume on a machine that now counts otherwise
	 * (--counters auto) would mix counted and simulated figures. */
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
