/* plan: what a sweep builds and runs, and in which order: the one home of
 * the sweep's plan (plan/). run.sh checks the options, writes the settings
 * (run.conf's key=value lines) and loops over what this prints:
 *
 *   plan resolve < SETTINGS   the settings left to the plan, with the
 *                             machine's say (points.h: defaults, series,
 *                             N cap, filler auto), as key=value lines
 *   plan points < SETTINGS    every point, as gen's specs, one a line
 *   plan sentinel             the watch's sentinel, as gen's specs
 *   plan machine              what hwloc says of this machine, key=value:
 *                             cores, pus, smt, l1i_size, l1i_assoc,
 *                             l1i_line, l1d_size, l2_size, l3_size (bytes,
 *                             ways; empty where hwloc does not say)
 *   plan --seed S --repeats R --variants V --processes P [--builds B]
 *        [--prefix X] [--spread]
 *                             the processes in their order (order.h):
 *                             KEY GROUP REPEAT VARIANT PROCESS BUILD
 *   plan --seeds --seed S --repeats R --variants V
 *                             each layout variant's seed: r<R>_v<V> SEED
 *
 * run.sh builds it with cc before anything is configured (the points are
 * the build's configuration). Bad usage or settings: one line on stderr,
 * exit 2, nothing printed; 1 when the machine lacks what is asked.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit.h"
#include "order.h"
#include "points.h"
#include "topology.h"

static const char plan_usage[] =
	"usage: plan resolve|points < SETTINGS\n"
	"       plan sentinel|machine\n"
	"       plan --seed S --repeats R --variants V --processes P [--builds B] [--prefix X] [--spread]\n"
	"       plan --seeds --seed S --repeats R --variants V\n"
	"\n"
	"The sweep's plan (cmd/plan.c says what each prints): its settings resolved\n"
	"on this machine, its points, this machine's topology, the order of its\n"
	"processes and the seeds of its layout variants.\n";

/* What hwloc says, or the cores this process may use and no sizes. */
static struct ic_topo_info plan_topology(int *known)
{
	struct ic_topo_info t = { .l1i_size = -1, .l1i_assoc = -1, .l1i_line = -1, .l1d_size = -1,
				  .l2_size = -1, .l3_size = -1 };

	*known = ic_topo_open() == 0 && ic_topo_describe(&t) == 0;
	if (!*known) {
		t.cores = t.pus = (int)sysconf(_SC_NPROCESSORS_ONLN);
		t.smt = 0;
	}
	return t;
}

static void plan_size(const char *key, long v)
{
	if (v > 0)
		printf("%s=%ld\n", key, v);
	else
		printf("%s=\n", key);
}

/* resolve or points, on the settings from stdin. */
static int plan_settings(const char *what)
{
	struct ic_settings s = { 0 };
	char err[512];
	int rc;

	if (ic_settings_read(&s, stdin, "the settings on stdin", err, sizeof(err))) {
		ic_settings_free(&s);
		return ic_bad("%s", err);
	}
	if (!strcmp(what, "resolve")) {
		int known;
		struct ic_topo_info t = plan_topology(&known);
		struct ic_plan_machine m = { t.cores, t.l1i_size, t.l2_size };

		rc = ic_plan_resolve(&s, &m, stdout, err, sizeof(err));
	} else {
		rc = ic_plan_points(&s, stdout, err, sizeof(err));
	}
	ic_settings_free(&s);
	if (rc) {
		fprintf(stderr, "%s: %s\n", ic_prog, err);
		return rc;
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	/* The design's limits are run.sh's; these only keep the product small. */
	long seed = -1, n[4] = { -1, -1, -1, 1 };   /* repeats, variants, processes, builds */
	const char *prefix = "";
	int spread = 0, seeds = 0;
	const struct ic_option opts[] = {
		IC_OPTION_LONG("seed", &seed, 0, UINT32_MAX),
		IC_OPTION_LONG("repeats", &n[0], 1, 10000),
		IC_OPTION_LONG("variants", &n[1], 1, 10000),
		IC_OPTION_LONG("processes", &n[2], 1, 10000),
		IC_OPTION_LONG("builds", &n[3], 1, 10000),
		IC_OPTION_STRING("prefix", &prefix),
		IC_OPTION_FLAG("spread", &spread),
		IC_OPTION_FLAG("seeds", &seeds),
		IC_OPTIONS_END,
	};
	int rc;

	ic_prog = "plan";
	if (argc >= 2 && (!strcmp(argv[1], "resolve") || !strcmp(argv[1], "points") ||
			  !strcmp(argv[1], "machine") || !strcmp(argv[1], "sentinel"))) {
		int known;
		struct ic_topo_info t;

		if (argc > 2)
			return ic_bad("%s takes no arguments, not '%s'", argv[1], argv[2]);
		if (!strcmp(argv[1], "sentinel")) {
			ic_plan_sentinel(stdout);
			return fflush(stdout) == 0 ? 0 : 1;
		}
		if (strcmp(argv[1], "machine"))
			return plan_settings(argv[1]);
		t = plan_topology(&known);
		if (!known)
			ic_die(1, "hwloc could not read this machine's topology");
		printf("cores=%d\npus=%d\nsmt=%d\n", t.cores, t.pus, t.smt);
		plan_size("l1i_size", t.l1i_size);
		plan_size("l1i_assoc", t.l1i_assoc);
		plan_size("l1i_line", t.l1i_line);
		plan_size("l1d_size", t.l1d_size);
		plan_size("l2_size", t.l2_size);
		plan_size("l3_size", t.l3_size);
		ic_topo_close();
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if ((rc = ic_options_parse(argc, argv, opts, plan_usage, "--help")) >= 0)
		return rc;
	if (optind < argc)
		return ic_bad("unexpected argument '%s' (see --help)", argv[optind]);
	if (seeds) {
		if (seed < 0 || n[0] < 0 || n[1] < 0)
			return ic_bad("--seeds: --seed, --repeats and --variants are required (see --help)");
		for (long r = 1; r <= n[0]; r++)
			for (long va = 0; va < n[1]; va++)
				printf("r%ld_v%ld %" PRIu32 "\n", r, va,
				       ic_plan_variant_seed((uint32_t)seed, (unsigned)r, (unsigned)va));
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (seed < 0 || n[0] < 0 || n[1] < 0 || n[2] < 0)
		return ic_bad("--seed, --repeats, --variants and --processes are required (see --help)");
	if ((unsigned long)n[0] * (unsigned long)n[1] * (unsigned long)n[2] * (unsigned long)n[3] > 1000000)
		return ic_bad("more than a million processes");
	if (ic_plan_order((uint32_t)seed, (unsigned)n[0], (unsigned)n[1], (unsigned)n[2], (unsigned)n[3],
			  prefix, spread, stdout))
		ic_die(1, "out of memory");
	return fflush(stdout) == 0 ? 0 : 1;
}
