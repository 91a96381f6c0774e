/* plan_order: the plan's process order and layout seeds (plan/points.h)
 * as text, for test_cmd_sweep.sh; the driver calls the same functions
 * in-process. Bad usage: one line on stderr, exit 2, nothing printed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit.h"
#include "points.h"

static const char usage[] =
	"usage: plan_order order --seed S --repeats R --variants V --processes P [--builds B]\n"
	"                  [--prefix X] [--spread]\n"
	"         the processes in their order: KEY GROUP REPEAT VARIANT PROCESS BUILD\n"
	"       plan_order seeds --seed S --repeats R --variants V\n"
	"         each layout variant's seed: r<R>_v<V> SEED\n";

static int order(int argc, char **argv, int seeds)
{
	/* The design's limits are run.sh's; these only keep the product small. */
	long seed = -1, n[4] = { -1, -1, -1, 1 };   /* repeats, variants, processes, builds */
	const char *prefix = "";
	int spread = 0, rc;
	const struct ic_option opts[] = {
		IC_OPTION_LONG("seed", &seed, 0, UINT32_MAX),
		IC_OPTION_LONG("repeats", &n[0], 1, 10000),
		IC_OPTION_LONG("variants", &n[1], 1, 10000),
		IC_OPTION_LONG("processes", &n[2], 1, 10000),
		IC_OPTION_LONG("builds", &n[3], 1, 10000),
		IC_OPTION_STRING("prefix", &prefix),
		IC_OPTION_FLAG("spread", &spread),
		IC_OPTIONS_END,
	};
	struct ic_plan_proc *list;
	size_t total;

	if ((rc = ic_options_parse(argc, argv, opts, usage, "--help")) >= 0)
		return rc;
	if (optind < argc)
		return ic_bad("unexpected argument '%s' (see --help)", argv[optind]);
	if (seed < 0 || n[0] < 0 || n[1] < 0 || (!seeds && n[2] < 0))
		return ic_bad("%s: --seed, --repeats, --variants%s are required (see --help)", argv[0],
			      seeds ? "" : " and --processes");
	if (seeds) {
		for (long r = 1; r <= n[0]; r++)
			for (long va = 0; va < n[1]; va++)
				printf("r%ld_v%ld %" PRIu32 "\n", r, va,
				       ic_plan_variant_seed((uint32_t)seed, (unsigned)r, (unsigned)va));
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if ((unsigned long)n[0] * (unsigned long)n[1] * (unsigned long)n[2] * (unsigned long)n[3] > 1000000)
		return ic_bad("more than a million processes");
	list = ic_plan_order_list((uint32_t)seed, (unsigned)n[0], (unsigned)n[1], (unsigned)n[2], (unsigned)n[3],
				  spread, &total);
	for (size_t i = 0; i < total; i++) {
		char *group, *key = ic_plan_key(&list[i], (unsigned)n[3], prefix, &group);

		printf("%s %s %u %u %u %u\n", key, group, list[i].repeat, list[i].variant, list[i].process,
		       list[i].build);
		free(key);
		free(group);
	}
	free(list);
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *cmd = argc >= 2 ? argv[1] : "";

	ic_prog = "plan_order";
	if (!strcmp(cmd, "order") || !strcmp(cmd, "seeds"))
		return order(argc - 1, argv + 1, !strcmp(cmd, "seeds"));
	return ic_bad("unknown command '%s' (see --help)", cmd);
}
