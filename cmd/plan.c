/* plan: the order in which a sweep runs its processes (scripts/sweep.sh
 * loops over these lines). Every process of the design, builds x repeats x
 * layout variants x processes, one line each:
 *
 *   KEY GROUP REPEAT VARIANT PROCESS BUILD
 *
 * KEY is PREFIX[b<build>_]r<repeat>_v<variant>_p<process> (the build only
 * with several builds), the name of its raw/KEY.json; GROUP is the key
 * without its variant and process (the processes that share iteration
 * counts). The order is a Fisher-Yates shuffle drawn from splitmix64(seed),
 * so a seed gives one order; with --spread the repeats come one after the
 * other, each in its shuffled order, as --spread runs them.
 *
 *   plan --seed S --repeats R --variants V --processes P [--builds B]
 *        [--prefix X] [--spread]
 *   plan --seeds --seed S --repeats R --variants V
 *
 * With --seeds it prints instead each layout variant's seed, one line per
 * repeat and variant, "r<repeat>_v<variant> SEED": a 32-bit number mixed
 * from the run's seed, the repeat and the variant (splitmix64's finaliser),
 * so every repeat has variants of its own, all drawn alike
 * (bench/link_variant SEED links each).
 *
 * Bad usage: one line on stderr, exit 2, nothing printed.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"
#include "splitmix64.h"

static const char plan_usage[] =
	"usage: plan --seed S --repeats R --variants V --processes P [--builds B] [--prefix X] [--spread]\n"
	"       plan --seeds --seed S --repeats R --variants V\n"
	"\n"
	"Prints every process of a sweep's design in the order it runs, one line\n"
	"each: KEY GROUP REPEAT VARIANT PROCESS BUILD (scripts/sweep.sh); with\n"
	"--seeds, each layout variant's seed: r<R>_v<V> SEED.\n";

struct plan_proc {
	unsigned repeat, variant, process, build;
};

/* A whole number 0..max from s, or -1. */
static long plan_num(const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	v = strtoul(s, &end, 10);
	return *end || v > max ? -1 : (long)v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "variants", required_argument, NULL, 'v' },
		{ "processes", required_argument, NULL, 'p' },
		{ "builds", required_argument, NULL, 'b' },
		{ "prefix", required_argument, NULL, 'x' },
		{ "spread", no_argument, NULL, 'S' },
		{ "seeds", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* The design's limits are run.sh's; these only keep the product small. */
	long seed = -1, n[4] = { -1, -1, -1, 1 };   /* repeats, variants, processes, builds */
	const char *prefix = "";
	int spread = 0, seeds = 0, c;
	uint64_t state;
	struct plan_proc *v;
	size_t total, k = 0;

	ic_prog = "plan";
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		const char *const names[] = { "--repeats", "--variants", "--processes", "--builds" };
		int i = c == 'r' ? 0 : c == 'v' ? 1 : c == 'p' ? 2 : c == 'b' ? 3 : -1;

		if (i >= 0) {
			if ((n[i] = plan_num(optarg, 10000)) < 1)
				return ic_bad("%s: '%s' is not a whole number 1..10000", names[i], optarg);
			continue;
		}
		switch (c) {
		case 's':
			if ((seed = plan_num(optarg, UINT32_MAX)) < 0)
				return ic_bad("--seed: '%s' is not a whole number 0..%" PRIu32, optarg,
					      UINT32_MAX);
			break;
		case 'x':
			prefix = optarg;
			break;
		case 'S':
			spread = 1;
			break;
		case 'V':
			seeds = 1;
			break;
		default:
			return ic_opt_end(c, argv, plan_usage, "--help");
		}
	}
	if (optind < argc)
		return ic_bad("unexpected argument '%s' (see --help)", argv[optind]);
	if (seeds) {
		if (seed < 0 || n[0] < 0 || n[1] < 0)
			return ic_bad("--seeds: --seed, --repeats and --variants are required (see --help)");
		for (long r = 1; r <= n[0]; r++)
			for (long va = 0; va < n[1]; va++)
				printf("r%ld_v%ld %" PRIu32 "\n", r, va,
				       (uint32_t)ic_mix64((uint64_t)seed ^ ((uint64_t)r << 40) ^ ((uint64_t)va << 20) ^
							 UINT64_C(0x6c61796f7574)));   /* "layout" */
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (seed < 0 || n[0] < 0 || n[1] < 0 || n[2] < 0)
		return ic_bad("--seed, --repeats, --variants and --processes are required (see --help)");
	total = (size_t)n[0] * (size_t)n[1] * (size_t)n[2] * (size_t)n[3];
	if (total > 1000000)
		return ic_bad("%zu processes: more than a million", total);
	v = ic_xalloc(malloc(total * sizeof(*v)));
	for (long b = 0; b < n[3]; b++)
		for (long r = 1; r <= n[0]; r++)
			for (long va = 0; va < n[1]; va++)
				for (long p = 0; p < n[2]; p++)
					v[k++] = (struct plan_proc){ (unsigned)r, (unsigned)va, (unsigned)p, (unsigned)b };
	state = (uint64_t)seed;
	for (size_t i = total; i > 1; i--) {
		size_t j = (size_t)(((unsigned __int128)ic_splitmix64_next(&state) * i) >> 64);
		struct plan_proc t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
	/* With --spread a repeat at a time, each in its shuffled order. */
	for (long r = spread ? 1 : 0; r <= (spread ? n[0] : 0); r++)
		for (size_t i = 0; i < total; i++) {
			char bp[32] = "";

			if (r && v[i].repeat != (unsigned)r)
				continue;
			if (n[3] > 1)
				snprintf(bp, sizeof(bp), "b%u_", v[i].build);
			printf("%s%sr%u_v%u_p%u %s%sr%u %u %u %u %u\n", prefix, bp, v[i].repeat, v[i].variant,
			       v[i].process, prefix, bp, v[i].repeat, v[i].repeat, v[i].variant, v[i].process,
			       v[i].build);
		}
	free(v);
	return fflush(stdout) == 0 ? 0 : 1;
}
