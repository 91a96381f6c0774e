/* CSV tables: one row per point, per ratio, per series and per calibration
 * point; see report.h. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decision.h"
#include "kit.h"
#include "series.h"
#include "stats.h"

/* A number field (empty when not measured), then sep unless sep is 0. */
static void tables_num(FILE *f, double x, const char *fmt, char sep)
{
	if (isfinite(x))
		fprintf(f, fmt, x);
	if (sep)
		fputc(sep, f);
}

/* The build columns every table ends with (enum ic_build_key order), each
 * after a comma; empty where the process's context did not say (older
 * runs). Then the newline. */
static void tables_build_header(FILE *f)
{
	for (int k = 0; k < IC_B_COUNT; k++)
		fprintf(f, ",%s", ic_ctx_name(ic_ctx_of_build(k)));
	fputc('\n', f);
}

/* A row's end: its build's columns, then the newline. */
static void tables_row_end(FILE *f, const struct ic_results *res, size_t build)
{
	for (int k = 0; k < IC_B_COUNT; k++) {
		fputc(',', f);
		ic_csv_quoted(f, build < res->nbuilds ? res->builds[build].v[k] : "");
	}
	fputc('\n', f);
}

static const char *tables_side_form(const struct ic_analysis *an, enum ic_point_side s)
{
	if (s == IC_SIDE_COMPARE)
		return an->opts.compare;
	if (s == IC_SIDE_BASELINE)
		return an->opts.baseline;
	return "unresolved";
}

int ic_tables_points_write(FILE *f, const struct ic_analysis *an)
{
	const struct ic_results *res = an->res;

	fputs("form,op,layout,order,sites,threads,mode,ns_per_op,ns_ci_lo,ns_ci_hi,cv,ops_per_s,"
	      "cycles_per_op,l1i_miss_per_op,counter_source,code_bytes_per_site,footprint_bytes,"
	      "variants,processes,reps,filler,instr_per_op,branch_miss_per_op,itlb_miss_per_op", f);
	tables_build_header(f);
	for (size_t i = 0; i < res->npoints; i++) {
		const struct ic_point *p = res->points[i];

		fprintf(f, "%s,%s,%s,%s,%lu,%lu,%s,", p->form, p->op, p->layout, p->order,
			p->sites, p->threads, p->mode);
		tables_num(f, p->med[IC_F_NS], "%.10g", ',');
		tables_num(f, p->ci_lo, "%.10g", ',');
		tables_num(f, p->ci_hi, "%.10g", ',');
		tables_num(f, p->cv, "%.6g", ',');
		tables_num(f, p->med[IC_F_IPS], "%.10g", ',');
		tables_num(f, p->med[IC_F_CYCLES], "%.10g", ',');
		tables_num(f, p->med[IC_F_L1I], "%.10g", ',');
		ic_csv_quoted(f, ic_point_source(p));
		fputc(',', f);
		tables_num(f, p->med[IC_F_CODE], "%.10g", ',');
		tables_num(f, p->med[IC_F_FOOT], "%.10g", 0);
		fprintf(f, ",%zu,%zu,%zu,%lu,", p->nvariants, p->nunits, p->nreps, p->filler);
		tables_num(f, p->med[IC_F_INSTR], "%.10g", ',');
		tables_num(f, p->med[IC_F_BRANCH], "%.10g", ',');
		tables_num(f, p->med[IC_F_ITLB], "%.10g", 0);
		tables_row_end(f, res, p->build);
	}
	return ferror(f) ? -1 : 0;
}

int ic_tables_ratios_write(FILE *f, const struct ic_analysis *an)
{
	fputs("op,layout,order,sites,threads,mode,compare,baseline,ns_compare,ns_baseline,ratio,"
	      "ratio_ci_lo,ratio_ci_hi,p_value,cv_compare,cv_baseline,reps_compare,reps_baseline,"
	      "noisy,faster,band_lo,band_hi,variants,processes,df,p_holm,deciding_lo,deciding_hi,log_se,t_975,"
	      "replicate_cover,"
	      "filler", f);
	tables_build_header(f);
	for (size_t s = 0; s < an->nseries; s++) {
		const struct ic_group *gr = &an->series[s].group;

		for (size_t i = 0; i < gr->nratios; i++) {
			const struct ic_ratio *r = &gr->ratios[i];

			fprintf(f, "%s,%s,%s,%lu,%lu,%s,%s,%s,", gr->op, gr->layout, gr->order,
				r->cmp->sites, gr->threads, gr->mode, r->cmp->form, r->base->form);
			tables_num(f, r->cmp->med[IC_F_NS], "%.10g", ',');
			tables_num(f, r->base->med[IC_F_NS], "%.10g", ',');
			tables_num(f, r->ratio, "%.6f", ',');
			tables_num(f, r->lo, "%.6f", ',');
			tables_num(f, r->hi, "%.6f", ',');
			tables_num(f, r->p, "%.4g", ',');
			tables_num(f, r->cmp->cv, "%.6g", ',');
			tables_num(f, r->base->cv, "%.6g", 0);
			fprintf(f, ",%zu,%zu,%d,%s,", r->cmp->nreps, r->base->nreps, r->noisy,
				tables_side_form(an, r->side));
			tables_num(f, r->band_lo, "%.6f", ',');
			tables_num(f, r->band_hi, "%.6f", ',');
			fprintf(f, "%zu,%zu,", r->nvariants, r->nunits);
			tables_num(f, r->df, "%g", ',');
			tables_num(f, r->p_holm, "%.4g", ',');
			/* the interval that decides the side (Holm's), as summary.md's ± */
			tables_num(f, r->holm_lo, "%.6f", ',');
			tables_num(f, r->holm_hi, "%.6f", ',');
			/* For agree: z of two runs' log ratios, its t limit, and how
			 * often a replicate's estimate falls in this interval when
			 * both runs have this spread, 2 F(t / sqrt 2) - 1 (87% at
			 * df = 5). */
			tables_num(f, r->se, "%.6g", ',');
			tables_num(f, ic_stats_t_quantile(0.975, r->df), "%.6g", ',');
			tables_num(f, 2.0 * ic_stats_t_cdf(ic_stats_t_quantile(0.975, r->df) / sqrt(2.0), r->df) - 1.0,
				   "%.4f", ',');
			fprintf(f, "%lu", gr->filler);
			tables_row_end(f, an->res, gr->build);
		}
	}
	return ferror(f) ? -1 : 0;
}

/* ",states,<state 1 x 5>,<state 2 x 5>,follows": state 2 empty with one. */
static void tables_states(FILE *f, const struct ic_states *s)
{
	static const char *const follows[] = {
		[IC_FOLLOWS_NEITHER] = "neither",
		[IC_FOLLOWS_VARIANT] = "layout_variant",
		[IC_FOLLOWS_TIME] = "time_order",
	};

	fprintf(f, ",%zu", s ? s->nstates : 0);
	for (int k = 0; k < 2; k++) {
		const struct ic_state *st = s && (size_t)k < s->nstates ? &s->st[k] : NULL;

		if (!st) {
			fputs(",,,,,", f);
			continue;
		}
		fprintf(f, ",%zu,", st->nproc);
		tables_num(f, st->level, "%.6f", ',');
		tables_num(f, st->lo, "%.6f", ',');
		tables_num(f, st->hi, "%.6f", ',');
		if (s->nstates == 2)
			fputs(ic_verdict_name(st->xo.verdict), f);
	}
	fprintf(f, ",%s", s && s->nstates == 2 ? follows[s->follows] : "");
}

/* The process's file name without directory and .json. */
static void tables_process(FILE *f, const struct ic_results *res, unsigned unit)
{
	const char *path = unit < res->nfiles ? res->files[unit]->path : "", *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".json"))
		n -= 5;
	fprintf(f, "%.*s", (int)n, b);
}

int ic_tables_process_ratios_write(FILE *f, const struct ic_analysis *an)
{
	const struct ic_results *res = an->res;

	fputs("op,layout,order,threads,mode,filler,compare,baseline,sites,process,variant,time_rank,"
	      "state,states,ratio", f);
	tables_build_header(f);
	for (size_t g = 0; g < an->nseries; g++) {
		const struct ic_group *gr = &an->series[g].group;
		const struct ic_process_ratios *pr = &an->series[g].procs;
		const struct ic_states *s = an->series[g].states;

		for (size_t i = 0; s && i < pr->nsites; i++)
			for (size_t p = 0; p < pr->nproc; p++) {
				double y = pr->logr[i * pr->nproc + p];

				if (!isfinite(y))
					continue;
				fprintf(f, "%s,%s,%s,%lu,%s,%lu,%s,%s,%lu,", gr->op, gr->layout, gr->order,
					gr->threads, gr->mode, gr->filler, an->opts.compare,
					an->opts.baseline, pr->sites[i]);
				tables_process(f, res, pr->unit[p]);
				fprintf(f, ",%d,%zu,%d,%zu,%.6f", pr->variant[p], pr->time_rank[p],
					s->state[p] + 1, s->nstates, exp(y));
				tables_row_end(f, res, gr->build);
			}
	}
	return ferror(f) ? -1 : 0;
}

int ic_tables_crossover_write(FILE *f, const struct ic_analysis *an)
{
	fputs("op,layout,order,threads,mode,compare,baseline,verdict,small_n_winner,"
	      "bracket_lo,bracket_hi,"
	      "points,compare_faster,baseline_faster,unresolved,sites_min,sites_max,states,"
	      "state1_processes,state1_ratio,state1_ci_lo,state1_ci_hi,state1_verdict,"
	      "state2_processes,state2_ratio,state2_ci_lo,state2_ci_hi,state2_verdict,"
	      "states_follow,switches,filler", f);
	tables_build_header(f);
	for (size_t g = 0; g < an->nseries; g++) {
		const struct ic_group *gr = &an->series[g].group;
		const struct ic_crossover *xo = &gr->xo;
		const char *first = xo->direction > 0 ? an->opts.compare
				    : xo->direction < 0 ? an->opts.baseline : "";

		fprintf(f, "%s,%s,%s,%lu,%s,%s,%s,%s,%s,", gr->op, gr->layout, gr->order, gr->threads,
			gr->mode, an->opts.compare, an->opts.baseline, ic_verdict_name(xo->verdict),
			first);
		/* No point estimate: the data place a crossover in its bracket only. */
		tables_num(f, xo->bracket_lo, "%.0f", ',');
		tables_num(f, xo->bracket_hi, "%.0f", 0);
		fprintf(f, ",%zu,%zu,%zu,%zu,", gr->nratios, xo->n_compare, xo->n_baseline,
			xo->n_unresolved);
		if (gr->nratios)
			fprintf(f, "%lu,%lu", gr->ratios[0].cmp->sites,
				gr->ratios[gr->nratios - 1].cmp->sites);
		else
			fputc(',', f);
		tables_states(f, an->series[g].states);
		fprintf(f, ",%zu,%lu", xo->switches, gr->filler);
		tables_row_end(f, an->res, gr->build);
	}
	return ferror(f) ? -1 : 0;
}

int ic_tables_calibration_write(FILE *f, const struct ic_analysis *an)
{
	double want = 1.0 + an->opts.planted;

	fputs("op,layout,order,sites,threads,mode,compare,baseline,planted,ratio,ratio_ci_lo,"
	      "ratio_ci_hi,measured_extra,excludes_1,contains_planted,noisy", f);
	tables_build_header(f);
	for (size_t g = 0; g < an->nseries; g++) {
		const struct ic_group *gr = &an->series[g].group;

		for (size_t i = 0; i < gr->nratios; i++) {
			const struct ic_ratio *r = &gr->ratios[i];

			fprintf(f, "%s,%s,%s,%lu,%lu,%s,%s,%s,%g,", gr->op, gr->layout, gr->order,
				r->cmp->sites, gr->threads, gr->mode, r->cmp->form, r->base->form,
				an->opts.planted);
			tables_num(f, r->ratio, "%.6f", ',');
			tables_num(f, r->lo, "%.6f", ',');
			tables_num(f, r->hi, "%.6f", ',');
			tables_num(f, r->ratio - 1.0, "%.6f", 0);
			/* Detected where Holm resolves it, as the verdict would. */
			fprintf(f, ",%d,%d,%d", ic_ratio_resolved(r), ic_ratio_holds(r, want), r->noisy);
			tables_row_end(f, an->res, gr->build);
		}
	}
	return ferror(f) ? -1 : 0;
}

int ic_tables_refine_next_write(FILE *f, const struct ic_analysis *an)
{
	unsigned long *mid;
	size_t n;

	if (ic_analysis_refine_next(an, &mid, &n))
		return -1;
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%lu\n", mid[i]);
	free(mid);
	return ferror(f) ? -1 : 0;
}
