/* summary.md on the sweep's repeats; see report.h. */
#include "report.h"

#include <math.h>

#include "format.h"
#include "load.h"

int ic_repeats_disagree(FILE *f, const struct ic_analysis *an, const struct ic_series *se)
{
	static const char *const words[] = { "no N resolved", "crossover in (%.0f, %.0f)",
		"%s faster wherever resolved", "%s faster wherever resolved", "sides switching, no crossover" };
	const struct ic_repeats *rp = se->repeats;
	char w[160];

	if (!rp || rp->nrepeats < 2 || rp->agree || !se->group.nratios)
		return 0;
	fprintf(f, "the %zu repeats disagree, so no verdict is stated:", rp->nrepeats);
	for (size_t k = 0; k < rp->nrepeats; k++)
		fprintf(f, "%s repeat %d %s", k ? ";" : "", rp->repeat[k],
			ic_fmt_crossover(w, sizeof(w), &rp->xo[k], &an->opts, words));
	return 1;
}

/* Said only where the pooled verdict resolves some N: that nothing is
 * resolved in each repeat alone adds nothing. */
void ic_repeats_agree_note(FILE *f, const struct ic_series *se)
{
	const struct ic_repeats *rp = se->repeats;

	if (rp && rp->nrepeats >= 2 && rp->agree && se->group.nratios &&
	    se->group.xo.n_compare + se->group.xo.n_baseline > 0)
		fprintf(f, " None of the %zu repeats alone puts an N on the other side.", rp->nrepeats);
}

static void sd_cell(FILE *f, double sd, size_t df)
{
	fprintf(f, isfinite(sd) ? " | %.1f%% (%zu)" : " | —", 100.0 * sd, df);
}

void ic_repeats_method(FILE *f, const struct ic_analysis *an)
{
	int any = 0;
	char t[512];

	for (size_t s = 0; s < an->nseries; s++)
		any |= an->series[s].repeats && an->series[s].group.nratios;
	if (!any)
		return;
	fprintf(f, "- Spread at each level: the SD of the log ratio %s/%s (about a %% of the "
		"ratio), pooled over each series' N, with its degrees of freedom; — where a level "
		"has none (one run, one process, one repetition). The runs are the sweep's repeats; "
		"a process's ratio is the ratio of its medians, a repetition's is paired with the "
		"other form's repetition of the same round.\n\n", an->opts.compare, an->opts.baseline);
	fputs("| series | runs | between runs | between processes in a run | between repetitions "
	      "in a process |\n|:---|---:|---:|---:|---:|\n", f);
	for (size_t s = 0; s < an->nseries; s++) {
		const struct ic_series *se = &an->series[s];

		if (!se->repeats || !se->group.nratios)
			continue;
		fprintf(f, "| %s | %zu", ic_fmt_series(t, sizeof(t), an, &se->group),
			se->repeats->nrepeats);
		sd_cell(f, se->repeats->lv.sd_run, se->repeats->lv.df_run);
		sd_cell(f, se->repeats->lv.sd_proc, se->repeats->lv.df_proc);
		sd_cell(f, se->repeats->lv.sd_rep, se->repeats->lv.df_rep);
		fputs(" |\n", f);
	}
	fputc('\n', f);
}
