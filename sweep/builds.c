/* The sweep's builds and bench (driver.h): each tree configured when its arguments changed, built, its layout
 * variants linked and its bench's runs read; the bench's command line and one process. */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit.h"
#include "driver.h"

/* CMD with its output in LOG; on failure its last lines, then exit 1. */
static void sw_step(const char *log, const char *what, char *const argv[])
{
	if (sw_run(argv, log, SW_SAME, NULL)) {
		sw_tail(20, log);
		sw_fail("%s failed (log: %s)", what, log);
	}
}

/* Ninja: on these 2-core guests, where processes are dear to start, Makefiles' own processes took ~half a build's
 * time. A tree made by another generator is made anew (it holds only build output). */
void sw_configure(const struct sweep *sw, const char *points, const char *dir, const char *const *args, size_t n)
{
	char *stamp = sw_fmt("%s/.run.sh-configure", dir), *want = "-G\nNinja\n", *have = sw_read(stamp),
	     *cached = sw_read(sw_fmt("%s/CMakeCache.txt", dir));
	const char **argv = ic_xalloc(calloc(n + 11, sizeof(*argv))), **a = argv + 7;
	FILE *f;

	memcpy(argv, (const char *[]){ "cmake", "-S", sw->top, "-B", dir, "-G", "Ninja" }, 7 * sizeof(*argv));
	if (points) {
		*a++ = "-DCMAKE_BUILD_TYPE=Release";
		*a++ = sw_fmt("-DIC_POINTS=%s", points);
		*a++ = sw_fmt("-DIC_PER_CALLER=%s", sw_get(sw, "per_caller"));
	}
	for (size_t i = 0; i < n; i++)
		*a++ = args[i];
	for (a = argv + 7; *a; a++)
		want = sw_fmt("%s%s\n", want, *a);
	if (!cached || !have || strcmp(have, want)) {
		if (cached && !strstr(cached, "\nCMAKE_GENERATOR:INTERNAL=Ninja\n")) {
			sw_say("%s was made by another build tool: making it anew with Ninja", dir);
			sw_run((char *[]){ "find", (char *)dir, "-mindepth", "1", "-maxdepth", "1", "!", "-name",
					   ".run.sh-lock", "-exec", "rm", "-rf", "{}", "+", NULL },
			       NULL, NULL, NULL);
		}
		if (ic_mkdir_p(dir))
			sw_fail("cannot make %s: %s", dir, strerror(errno));
		unlink(stamp);
		sw_step(sw_fmt("%s/configure.log", dir), sw_fmt("configuring %s", dir), (char *const *)argv);
		if (!(f = fopen(stamp, "w")) || fputs(want, f) < 0 || fclose(f))
			sw_fail("cannot write %s", stamp);
	}
}

/* Ninja's last [done/total] status in the log ("starting" before one); read every few s, freed (can be big). */
static const char *build_steps(const char *log)
{
	char *t = sw_read(log);
	long k = 0, n = 0, a, b;

	for (char *p = t; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "")
		if (sscanf(p, "[%ld/%ld]", &a, &b) == 2)
			k = a, n = b;
	free(t);
	return k > 0 ? sw_fmt("%ld of %ld steps", k, n) : "starting";
}

/* No time left: steps differ too much (a scatter clones' file ~2 s on the Xeon guest, a chain file 0.08 s); a rate
 * from their count was off by four. $IC_BUILD_PROGRESS_S sets the 15 s (tests). */
void sw_build(const char *dir, const char *const *targets, size_t n, const char *label, long jobs)
{
	char *log = sw_fmt("%s/build.log", dir), took[32];
	const char *what = label ? label : sw_fmt("build of %s", dir), **argv = ic_xalloc(calloc(n + 8, sizeof(*argv)));
	double t0 = sw_now(), every = getenv("IC_BUILD_PROGRESS_S") ? atof(getenv("IC_BUILD_PROGRESS_S")) : 15;
	pid_t pid;
	int rc;

	memcpy(argv, (const char *[]){ "cmake", "--build", dir, "-j", sw_fmt("%ld", jobs), n ? "--target" : NULL },
	       6 * sizeof(*argv));
	memcpy(argv + 6, targets, n * sizeof(*targets));
	/* Ninja's status as build_steps reads it, whatever the user's. */
	pid = sw_spawn((char *const *)argv, log, SW_SAME, "NINJA_STATUS=[%f/%t] ");
	while ((rc = sw_wait_s(pid, every > 0 ? every : 15)) < 0)
		sw_phase("%s: %s, %s so far (log %s)", what, build_steps(log),
			 sw_fmt_s((long)(sw_now() - t0), took, sizeof(took)), log);
	if (rc) {
		sw_tail(20, log);
		sw_fail("building %s failed (log: %s)", dir, log);
	}
}

/* Each variant rR_vV a random layout of the same objects from its own seed (run.conf's variant_seeds); none with
 * --lto, whose code no layout moves. Earlier designs' go (each is as big as the bench). */
static void link_variants(const struct sweep *sw, const struct sw_tree *t)
{
	char *link = sw_fmt("%s/bench/link_variant", t->dir), *vdir = sw_fmt("%s/bench/variants", t->dir),
	     *log = sw_fmt("%s/link.log", t->dir), *seeds = sw_fmt("%s", sw_get(sw, "variant_seeds")), *save = NULL;
	glob_t g;

	if (sw_long(sw, "lto"))
		return;
	if (access(link, X_OK))
		sw_fail("%s missing: the build does not make layout variants", link);
	if (!*sw_get(sw, "variant_seeds"))
		sw_fail("no layout variant seeds in the run's settings");
	ic_mkdir_p(vdir);
	for (char *rv = strtok_r(seeds, " ", &save); rv; rv = strtok_r(NULL, " ", &save)) {
		char *seed = strchr(rv, ':');

		if (!seed)
			sw_fail("variant_seeds: '%s' is not rR_vV:SEED", rv);
		*seed++ = 0;
		sw_step(log, sw_fmt("linking layout variant %s in %s", rv, t->dir),
			(char *[]){ link, seed, sw_fmt("%s/%s", vdir, rv), NULL });
	}
	if (glob(sw_fmt("%s/r*_v*", vdir), 0, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++) {
			const char *name = strrchr(g.gl_pathv[i], '/') + 1;
			size_t n = strlen(name);

			if (!strstr(sw_fmt(" %s", sw_get(sw, "variant_seeds")),
				    sw_fmt(" %.*s:", (int)(n > 5 && !strcmp(name + n - 5, ".seed") ? n - 5 : n), name)))
				unlink(g.gl_pathv[i]);
		}
	globfree(&g);
}

long sw_plan_rows(char *text, const char *const *col, size_t n, char ***rows)
{
	int at[8];
	long k = -1;
	char *save = NULL;

	*rows = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), k++) {
		char *f[64];
		size_t nf = 0;

		for (char *p = line; p && nf < 64;)
			f[nf++] = strsep(&p, "\t");
		for (size_t c = 0; c < n && k < 0; c++) {   /* the first line names the columns */
			at[c] = -1;
			for (size_t i = 0; i < nf; i++)
				if (!strcmp(f[i], col[c]))
					at[c] = (int)i;
			if (at[c] < 0)
				return -1;
		}
		if (k < 0)
			continue;
		*rows = ic_xrealloc(*rows, (size_t)(k + 1) * n, sizeof(**rows));
		for (size_t c = 0; c < n; c++) {
			if ((size_t)at[c] >= nf)
				return -1;
			(*rows)[(size_t)k * n + c] = f[at[c]];
		}
	}
	return k < 0 ? 0 : k;
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
	/* Freed, unlike the driver's other strings: a calibration runs thousands of processes. */
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
	free(file), free(log), free(tmp);
	return rc ? -1 : 0;
}

/* What a sweep runs is the bench's to say: each run's name and N. */
static void bench_plan(struct sweep *sw, size_t b)
{
	struct sw_tree *t = &sw->tree[b];
	char *file = sw_file(sw, "plan", b, ".tsv"), *log = sw_file(sw, "log/plan", 0, ".txt"),
	     *bench = sw_fmt("%s/bench/sites_bench", t->dir), *tmp = sw_fmt("%s.tmp", file), *text;
	long n;

	if (sw_run(sw_bench_argv(sw, bench, (char *[]){ "--plan", NULL }, NULL), tmp, log, NULL)) {
		unlink(tmp);
		sw_tail(5, log);
		sw_fail("%s --plan failed; log: %s", bench, log);
	}
	if (rename(tmp, file) || !(text = sw_read(file)))
		sw_fail("cannot write %s", file);
	if ((n = sw_plan_rows(text, (const char *const[]){ "name", "sites" }, 2, &t->runs)) < 0)
		sw_fail("%s: not a plan with name and sites columns", file);
	t->n_runs = (size_t)n;
}

void sw_build_all(struct sweep *sw)
{
	char *points = sw_points(sw), label[64], then[64] = "", left[32];
	long after = sw_eta;
	/* summarize draws the charts itself; runs, beside it, weighs the repeats' agreement and exports the run. */
	const char *targets[4] = { "sites_bench", "summarize", "machine_state", "runs" };

	/* The time left is known only after the builds: said as what follows them. */
	sw_eta = -1;
	if (after >= 0)
		snprintf(then, sizeof(then), "; then about %s", sw_fmt_s(after, left, sizeof(left)));
	for (size_t b = 0; b < sw->n_tree; b++) {
		struct sw_tree *t = &sw->tree[b];

		snprintf(label, sizeof(label), "build %zu/%zu", b + 1, sw->n_tree);
		sw_phase("%s: %s (%s, %s, %s codegen; log %s/build.log)%s", label, t->dir, *t->cc ? t->cc : "cc",
			 *t->cflags ? t->cflags : "-O2", t->codegen, t->dir, then);
		sw_configure(sw, points, t->dir, t->args, t->n_args);
		sw_build(t->dir, targets, b == 0 ? 4 : 3, label, sw->jobs);
		link_variants(sw, t);
		bench_plan(sw, b);
	}
	sw_eta = after;
}
