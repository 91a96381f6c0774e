/* The verdict's clauses that the end-to-end tests do not reach, on
 * hand-made runs of six layout variants (one process each, so not a smoke
 * design) whose sides are plain: every ratio is exp(a) times 1 +- 2%, so
 * |a| = 0.3 resolves at every N.
 *   - sides that switch twice (inline faster, then extern, then inline):
 *     no crossover is stated, and the verdict says the faster form
 *     switches 2 times;
 *   - a pair that is not inline vs extern (clone, extern): the forms'
 *     names, not "pays" or "calls";
 *   - a series where one of the forms is never measured: not compared;
 *   - a side with an unresolved N inside it: no claim on "every N";
 *   - a side resolved but with a 95% range wider than +-50% (the
 *     variants' noise 40 times as large): named, but too variable to
 *     size, and no range printed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "check.h"
#include "gbench_doc.h"
#include "report.h"

#define VARIANTS 6

static double noise_scale = 1.0;

/* One process of layout variant v: form num at exp(a[i] + noise) x 10 ns
 * and form den at 10 ns, at N = 1, 2, 4 (k of them); den NULL: num only. */
static void load_process(struct ic_results *res, int v, const char *num, const char *den,
			 const double *a, size_t k)
{
	static const double noise[VARIANTS] = { -0.02, -0.01, 0.0, 0.0, 0.01, 0.02 };
	static const char *const sites[] = { "1", "2", "4" };
	struct gbench_entry e[6];
	char name[6][128];
	size_t n = 0;

	for (size_t i = 0; i < k; i++)
		for (int f = 0; f < 2; f++) {
			if (f && !den)
				continue;
			snprintf(name[n], sizeof(name[n]), "sites/%s/tail_dequeue/chain/seq/%s/private/threads:1",
				 f ? den : num, sites[i]);
			e[n] = (struct gbench_entry){ name[n], f ? 10.0 : 10.0 * exp(a[i] + noise_scale * noise[v]) };
			n++;
		}
	gbench_process_load(res, v, e, n);
}

/* The verdict of the one series of a run of num over den (opts' pair
 * compare/baseline), into v. */
static void verdict(char *v, const char *compare, const char *baseline, const char *num,
		    const char *den, const double *a, size_t k)
{
	const struct ic_analysis_opts opts = {
		.compare = compare, .baseline = baseline, .noise_ci = 0.03, .family = 0.05,
		.planted = NAN,
	};
	struct ic_analysis an;
	struct ic_results res;
	char err[512];

	ic_results_init(&res);
	for (int u = 0; u < VARIANTS; u++)
		load_process(&res, u, num, den, a, k);
	CHECK(ic_analyse(&an, &res, &opts, err, sizeof(err)) == 0, "analyse: %s", err);
	CHECK(an.nseries == 1, "one series, got %zu", an.nseries);
	ic_verdict_series(v, IC_VERDICT_MAX, &an, &an.series[0]);
	printf("%s/%s: %s\n", compare, baseline, v);
	ic_analysis_free(&an);
	ic_results_free(&res);
}

int main(void)
{
	static const double conflict[] = { -0.3, 0.3, -0.3 }, faster[] = { -0.3, -0.3 },
			    slower[] = { 0.3, 0.3 }, wide[] = { 1.5 }, gap[] = { -0.3, 0.0, -0.3 };
	char *v = malloc(IC_VERDICT_MAX);

	CHECK(v, "out of memory");
	verdict(v, "inline", "extern", "inline", "extern", conflict, 3);
	CHECK(strstr(v, "switches 2 times") && !strstr(v, "up to N"),
	      "sides switching twice: the count, and no crossover: %s", v);
	/* Inline faster at N = 1 and 4, N = 2 unresolved between: never "every N". */
	verdict(v, "inline", "extern", "inline", "extern", gap, 3);
	CHECK(!strstr(v, "every N") && strstr(v, "Unresolved at N = 2"),
	      "an unresolved N between: no claim on every N: %s", v);
	verdict(v, "clone", "extern", "clone", "extern", faster, 2);
	CHECK(!strncmp(v, "Prefer clone: it is faster at every N", 37) &&
	      strstr(v, " Clone is faster at N = 1..2") && !strstr(v, "Inline"),
	      "another pair, compare faster: its name: %s", v);
	verdict(v, "clone", "extern", "clone", "extern", slower, 2);
	CHECK(!strncmp(v, "Prefer extern from N = 1", 24) && strstr(v, " Extern is faster at N = 1..2") &&
	      !strstr(v, "calls") && !strstr(v, "out of line"),
	      "another pair, baseline faster: its name: %s", v);
	/* Offsets of +-0.8 about 1.5 over six variants: the mean is 6 of its
	 * standard errors from 0 (resolved), and t(5) at 97.5% times that
	 * error is 0.59 on the log scale, a range of 1.8x each way. */
	noise_scale = 40.0;
	verdict(v, "inline", "extern", "inline", "extern", wide, 1);
	CHECK(strstr(v, "Extern calls are faster at N = 1, too variable to size here") && !strchr(v, '[') &&
	      strstr(v, "Keep it out of line: the calls are faster at every N, by a margin too variable to size"),
	      "a resolved side with a range over +-50%%: %s", v);
	noise_scale = 1.0;
	verdict(v, "inline", "extern", "inline", NULL, faster, 2);
	CHECK(!strncmp(v, "Not compared", 12) && strstr(v, "extern"), "extern never measured: %s", v);
	free(v);
	puts("report verdict clauses: ok");
	return 0;
}
