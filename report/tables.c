/* CSV tables: one row per point, per ratio, per series and per calibration point; see report.h. */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "decision.h"
#include "format.h"
#include "kit.h"
#include "series.h"
#include "stats.h"

/* n number fields in fmt, each after a comma (empty when not measured). */
static void tables_nums(FILE *f, const char *fmt, int n, ...)
{
	va_list ap;

	va_start(ap, n);
	while (n-- > 0) {
		double x = va_arg(ap, double);

		fputc(',', f);
		if (isfinite(x))
			fprintf(f, fmt, x);
	}
	va_end(ap);
}

/* The build columns every table ends with (enum ic_build_key order), then the
 * newline; a row's are empty where its context did not say (older runs). */
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

int ic_tables_points_write(FILE *f, const struct ic_analysis *an)
{
	const struct ic_results *res = an->res;

	fputs("form,op,layout,order,sites,threads,mode,ns_per_op,ns_ci_lo,ns_ci_hi,cv,ops_per_s,"
	      "cycles_per_op,l1i_miss_per_op,counter_source,code_bytes_per_site,footprint_bytes,"
	      "variants,processes,reps,filler,instr_per_op,branch_miss_per_op,itlb_miss_per_op", f);
	tables_build_header(f);
	for (size_t i = 0; i < res->npoints; i++) {
		const struct ic_point *p = res->points[i];

		fprintf(f, "%s,%s,%s,%s,%lu,%lu,%s", p->form, p->op, p->layout, p->order, p->sites,
			p->threads, p->mode);
		tables_nums(f, "%.10g", 3, p->med[IC_F_NS], p->ci_lo, p->ci_hi);
		tables_nums(f, "%.6g", 1, p->cv);
		tables_nums(f, "%.10g", 3, p->med[IC_F_IPS], p->med[IC_F_CYCLES], p->med[IC_F_L1I]);
		fputc(',', f);
		ic_csv_quoted(f, ic_point_source(p));
		tables_nums(f, "%.10g", 2, p->med[IC_F_CODE], p->med[IC_F_FOOT]);
		fprintf(f, ",%zu,%zu,%zu,%lu", p->nvariants, p->nunits, p->nreps, p->filler);
		tables_nums(f, "%.10g", 3, p->med[IC_F_INSTR], p->med[IC_F_BRANCH], p->med[IC_F_ITLB]);
		tables_row_end(f, res, p->build);
	}
	return ferror(f) ? -1 : 0;
}

/* A table of one row per ratio of every series: "op,layout,order,sites,
 * threads,mode,compare,baseline", then what row adds, then the build. */
static int tables_per_ratio(FILE *f, const struct ic_analysis *an, const char *cols,
			    void (*row)(FILE *, const struct ic_analysis *, const struct ic_group *,
					const struct ic_ratio *))
{
	fprintf(f, "op,layout,order,sites,threads,mode,compare,baseline,%s", cols);
	tables_build_header(f);
	for (size_t s = 0; s < an->nseries; s++) {
		const struct ic_group *gr = &an->series[s].group;

		for (size_t i = 0; i < gr->nratios; i++) {
			const struct ic_ratio *r = &gr->ratios[i];

			fprintf(f, "%s,%s,%s,%lu,%lu,%s,%s,%s", gr->op, gr->layout, gr->order,
				r->cmp->sites, gr->threads, gr->mode, r->cmp->form, r->base->form);
			row(f, an, gr, r);
			tables_row_end(f, an->res, gr->build);
		}
	}
	return ferror(f) ? -1 : 0;
}

static void tables_ratio_row(FILE *f, const struct ic_analysis *an, const struct ic_group *gr,
			     const struct ic_ratio *r)
{
	double t = ic_stats_t_quantile(0.975, r->df);

	tables_nums(f, "%.10g", 2, r->cmp->med[IC_F_NS], r->base->med[IC_F_NS]);
	tables_nums(f, "%.6f", 3, r->ratio, r->lo, r->hi);
	tables_nums(f, "%.4g", 1, r->p);
	tables_nums(f, "%.6g", 2, r->cmp->cv, r->base->cv);
	fprintf(f, ",%zu,%zu,%d,%s", r->cmp->nreps, r->base->nreps, r->noisy,
		ic_fmt_side(an, r->side, "unresolved"));
	tables_nums(f, "%.6f", 2, r->band_lo, r->band_hi);
	fprintf(f, ",%zu,%zu", r->nvariants, r->nunits);
	tables_nums(f, "%g", 1, r->df);
	tables_nums(f, "%.4g", 1, r->p_holm);
	/* the interval that decides the side (Holm's), as summary.md's ± */
	tables_nums(f, "%.6f", 2, r->holm_lo, r->holm_hi);
	/* For agree: z of two runs' log ratios, its t limit, and how often a
	 * replicate's estimate falls in this interval when both runs have this
	 * spread, 2 F(t / sqrt 2) - 1 (87% at df = 5). */
	tables_nums(f, "%.6g", 2, r->se, t);
	tables_nums(f, "%.4f", 1, 2.0 * ic_stats_t_cdf(t / sqrt(2.0), r->df) - 1.0);
	fprintf(f, ",%lu", gr->filler);
}

int ic_tables_ratios_write(FILE *f, const struct ic_analysis *an)
{
	return tables_per_ratio(f, an, "ns_compare,ns_baseline,ratio,ratio_ci_lo,ratio_ci_hi,p_value,"
				"cv_compare,cv_baseline,reps_compare,reps_baseline,noisy,faster,band_lo,"
				"band_hi,variants,processes,df,p_holm,deciding_lo,deciding_hi,log_se,t_975,"
				"replicate_cover,filler", tables_ratio_row);
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
		fprintf(f, ",%zu", st->nproc);
		tables_nums(f, "%.6f", 3, st->level, st->lo, st->hi);
		fputc(',', f);
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

		fprintf(f, "%s,%s,%s,%lu,%s,%s,%s,%s,%s", gr->op, gr->layout, gr->order, gr->threads,
			gr->mode, an->opts.compare, an->opts.baseline, ic_verdict_name(xo->verdict),
			first);
		/* No point estimate: the data place a crossover in its bracket only. */
		tables_nums(f, "%.0f", 2, xo->bracket_lo, xo->bracket_hi);
		fprintf(f, ",%zu,%zu,%zu,%zu", gr->nratios, xo->n_compare, xo->n_baseline,
			xo->n_unresolved);
		tables_nums(f, "%.0f", 2, gr->nratios ? (double)gr->ratios[0].cmp->sites : NAN,
			    gr->nratios ? (double)gr->ratios[gr->nratios - 1].cmp->sites : NAN);
		tables_states(f, an->series[g].states);
		fprintf(f, ",%zu,%lu", xo->switches, gr->filler);
		tables_row_end(f, an->res, gr->build);
	}
	return ferror(f) ? -1 : 0;
}

static void tables_calibration_row(FILE *f, const struct ic_analysis *an, const struct ic_group *gr,
				   const struct ic_ratio *r)
{
	(void)gr;
	fprintf(f, ",%g", an->opts.planted);
	tables_nums(f, "%.6f", 4, r->ratio, r->lo, r->hi, r->ratio - 1.0);
	/* Detected where Holm resolves it, as the verdict would. */
	fprintf(f, ",%d,%d,%d", ic_ratio_resolved(r), ic_ratio_holds(r, 1.0 + an->opts.planted),
		r->noisy);
}

int ic_tables_calibration_write(FILE *f, const struct ic_analysis *an)
{
	return tables_per_ratio(f, an, "planted,ratio,ratio_ci_lo,ratio_ci_hi,measured_extra,"
				"excludes_1,contains_planted,noisy", tables_calibration_row);
}

int ic_tables_refine_next_write(FILE *f, const struct ic_analysis *an)
{
	unsigned long *mid;
	size_t n;

	ic_analysis_refine_next(an, &mid, &n);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%lu\n", mid[i]);
	free(mid);
	return ferror(f) ? -1 : 0;
}
