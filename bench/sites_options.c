/* sites_bench's own flags, checked and taken out of argv. */
#define _GNU_SOURCE
#include "sites_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit.h"
#include "sim.h"

static const char *opt_value(const char *arg, const char *name)
{
	size_t n = strlen(name);
	return strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

static int parse_threads(const char *s, int *out, int max)
{
	int n = 0;
	char *copy = strdup(s), *save, *tok;
	for (tok = strtok_r(copy, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long v = strtol(tok, &end, 10);
		if (*end || v < 1 || v > IC_OPTS_THREAD_COUNT_MAX) {
			free(copy);
			return -1;
		}
		out[n++] = (int)v;
	}
	free(copy);
	return n;
}

static int parse_plant(const char *v, struct ic_opts *o)
{
	char *end = NULL;
	const char *s = v;
	for (o->n_plant = 0; o->n_plant < IC_OPTS_PLANT_MAX; s = end + 1) {
		double f = strtod(s, &end);
		if (end == s || (*end && *end != ',') || !(f >= 0 && f < 1))
			return ic_bad("--plant must list fractions in [0, 1), not '%s'", v);
		o->plant[o->n_plant++] = f;
		if (!*end)
			return 0;
	}
	return ic_bad("--plant takes at most %d fractions", IC_OPTS_PLANT_MAX);
}

/* One of our flags into o: 0 ok, 2 bad, -1 not ours. */
static int parse_one(const char *a, struct ic_opts *o, const char **sim_dir, const char **iters_from)
{
	const char *v;
	char *end;

	if ((v = opt_value(a, "--counters"))) {
		static const char *const names[] = { "auto", "papi", "sim", "none" };
		for (int m = 0; m < 4; m++)
			if (!strcmp(v, names[m])) {
				o->counters = (enum ic_counters_mode)m;
				return 0;
			}
		return ic_bad("--counters must be auto, papi, sim or none, not '%s'", v);
	}
	if ((v = opt_value(a, "--threads"))) {
		o->n_threads = parse_threads(v, o->threads, IC_OPTS_THREADS_MAX);
		return o->n_threads > 0 ? 0 : ic_bad("--threads must be a list of counts 1..256, not '%s'", v);
	}
	if ((v = opt_value(a, "--modes"))) {
		o->modes_private = strstr(v, "private") != NULL;
		o->modes_shared = strstr(v, "shared") != NULL;
		return o->modes_private || o->modes_shared ? 0
			: ic_bad("--modes must list private and/or shared, not '%s'", v);
	}
	if ((v = opt_value(a, "--sim-passes"))) {
		unsigned long p = strtoul(v, &end, 10);
		if (*v < '0' || *v > '9' || *end || p < 1 || p > 100000)
			return ic_bad("--sim-passes must be 1..100000, not '%s'", v);
		o->sim_passes = (unsigned)p;
		return 0;
	}
	if ((v = opt_value(a, "--layout-variant"))) {
		if (!*v || strspn(v, "0123456789") != strlen(v) || strlen(v) > 9)
			return ic_bad("--layout-variant must be a whole number, not '%s'", v);
		o->layout_variant = v;
		return 0;
	}
	if ((v = opt_value(a, "--process"))) {
		long k = strtol(v, &end, 10);
		if (*end || end == v || k < 0 || k > 1000000)
			return ic_bad("--process must be a whole number, not '%s'", v);
		o->process = v;
		return 0;
	}
	if ((v = opt_value(a, "--sim-cache-dir"))) {
		*sim_dir = v;
		return *v ? 0 : ic_bad("--sim-cache-dir: empty directory name");
	}
	if ((v = opt_value(a, "--run-list"))) {
		o->run_list = v;
		return *v ? 0 : ic_bad("--run-list: empty file name");
	}
	if ((v = opt_value(a, "--plant")))
		return parse_plant(v, o);
	if ((v = opt_value(a, "--codesize")))
		o->codesize_path = v;
	else if ((v = opt_value(a, "--sim-cache")))
		o->sim_cache = v;
	else if ((v = opt_value(a, "--iterations-from")))
		*iters_from = v;
	else if (!strcmp(a, "--list"))
		o->print = IC_PRINT_LIST;
	else if (!strcmp(a, "--plan"))
		o->print = IC_PRINT_PLAN;
	else if (!strcmp(a, "--sim-only"))
		o->sim_only = 1;
	else
		return -1;
	return 0;
}

/* --sim-cache-dir=DIR: DIR/<this binary's id>.csv, DIR made when missing. */
static int sim_cache_in(const char *dir, struct ic_opts *o)
{
	char id[32];
	struct stat st;

	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return ic_bad("--sim-cache-dir: %s: %s", dir, strerror(errno));
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK) != 0)
		return ic_bad("--sim-cache-dir: %s: not a writable directory", dir);
	if (ic_sim_binary_id(id, sizeof(id)) != 0) {
		fprintf(stderr, "sites_bench: cannot read this program (/proc/self/exe)\n");
		return 1;
	}
	snprintf(o->sim_cache_buf, sizeof(o->sim_cache_buf), "%s/%s.csv", dir, id);
	o->sim_cache = o->sim_cache_buf;
	return 0;
}

int ic_opts_parse(int *argc, char **argv, struct ic_opts *o)
{
	const char *sim_dir = NULL, *iters_from = NULL, *out_format = "json", *v;
	double min_time = 0.0;
	int kept = 1, rc;

	memset(o, 0, sizeof(*o));
	o->counters = IC_CTR_AUTO;
	o->modes_private = o->modes_shared = 1;
	o->codesize_path = IC_CODESIZE_CSV;
	o->process = o->layout_variant = "0";
	for (int i = 1; i < *argc; i++) {
		rc = parse_one(argv[i], o, &sim_dir, &iters_from);
		if (rc > 0)
			return rc;
		if (rc == 0) {
			argv[i] = NULL;   /* ours: not the library's */
			continue;
		}
		if ((v = opt_value(argv[i], "--benchmark_filter")))
			o->filter = v;
		if ((v = opt_value(argv[i], "--benchmark_out")))
			o->bench_out = v;
		if ((v = opt_value(argv[i], "--benchmark_out_format")))
			out_format = v;
		if ((v = opt_value(argv[i], "--benchmark_min_time"))) {
			/* Seconds ("0.015" or "0.015s"); an iteration count ("100x")
			 * asks for no rescaling. */
			char *end;

			min_time = strtod(v, &end);
			if (end == v || (*end && strcmp(end, "s")))
				min_time = 0.0;
		}
	}
	/* The end time is written into a JSON file only. */
	if (strcmp(out_format, "json") != 0)
		o->bench_out = NULL;
	if (o->sim_cache && sim_dir)
		return ic_bad("--sim-cache and --sim-cache-dir: give one of them");
	if (sim_dir && (rc = sim_cache_in(sim_dir, o)) != 0)
		return rc;
	char why[512];
	if (iters_from && !(o->iters = ic_gb_iters_load(iters_from, min_time, why, sizeof(why))))
		return ic_bad("--iterations-from: %s", why);
	/* With fixed counts the library adds /iterations:N to the names its
	 * filter would see: the cases apply the filter instead. */
	for (int i = 1; i < *argc; i++)
		if (argv[i] && !(o->iters && opt_value(argv[i], "--benchmark_filter")))
			argv[kept++] = argv[i];
	*argc = kept;
	argv[kept] = NULL;
	return 0;
}
