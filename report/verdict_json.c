/* verdict.json: the verdict of every series as data, for compare and for
 * scripts; its shape is the table of docs/verdict-json.md, which
 * tests/test_report_verdict_json.c checks the file against. A figure not
 * measured is null, never 0. */
#include "report.h"

#include <jansson.h>
#include <math.h>

#include "format.h"
#include "load.h"

/* The version of the shape: bumped when a field changes meaning. */
#define IC_VERDICT_FORMAT "inlinecost-verdict 1"

static json_t *vj_num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* A count or a size in bytes. */
static json_t *vj_int(double x)
{
	return isfinite(x) ? json_integer((json_int_t)x) : json_null();
}

static json_t *vj_pair(double lo, double hi)
{
	return isfinite(lo) && isfinite(hi) ? json_pack("[o,o]", json_real(lo), json_real(hi))
					    : json_null();
}

static json_t *vj_str(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *vj_crossover(const struct ic_crossover *xo)
{
	return json_pack("{s:s,s:i,s:o,s:I}", "verdict", ic_verdict_name(xo->verdict), "direction",
			 xo->direction, "bracket",
			 xo->verdict == IC_VERDICT_CROSSOVER ? vj_pair(xo->bracket_lo, xo->bracket_hi)
							     : json_null(),
			 "switches", (json_int_t)xo->switches);
}

/* Per N: its side, the faster form, the ratio with interval and band. */
static json_t *vj_points(const struct ic_analysis *an, const struct ic_ratio *r, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++) {
		const char *side = r[i].side == IC_SIDE_COMPARE ? "compare"
				   : r[i].side == IC_SIDE_BASELINE ? "baseline" : "unresolved";

		if (json_array_append_new(a, json_pack("{s:I,s:s,s:o,s:o,s:o,s:o,s:b}", "sites",
						       (json_int_t)r[i].sites, "side", side, "faster",
						       vj_str(ic_fmt_side(an, r[i].side, NULL)), "ratio",
						       vj_num(r[i].ratio), "ci", vj_pair(r[i].lo, r[i].hi),
						       "band", vj_pair(r[i].band_lo, r[i].band_hi),
						       "noisy", r[i].noisy)))
			goto fail;
	}
	return a;
fail:
	json_decref(a);
	return NULL;
}

static json_t *vj_states(const struct ic_analysis *an, const struct ic_states *st)
{
	static const char *const follows[] = { "neither", "variant", "time" };
	json_t *o, *a = st ? json_array() : NULL;

	if (!a)
		return json_null();
	for (size_t k = 0; k < st->nstates; k++) {
		const struct ic_state *s = &st->st[k];
		int two = st->nstates == 2;

		if (json_array_append_new(a, json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:o}", "processes",
						       (json_int_t)s->nproc, "share", vj_num(s->share),
						       "share_ci", vj_pair(s->share_lo, s->share_hi),
						       "level", vj_num(s->level), "level_ci",
						       vj_pair(s->lo, s->hi), "crossover",
						       two ? vj_crossover(&s->xo) : json_null(), "points",
						       two ? vj_points(an, s->ratios, s->nratios)
							   : json_null())))
			goto fail;
	}
	o = json_pack("{s:I,s:I,s:o,s:o}", "count", (json_int_t)st->nstates, "processes",
		      (json_int_t)st->nproc, "follows",
		      st->nstates == 2 ? json_string(follows[st->follows]) : json_null(), "states", a);
	return o ? o : json_null();
fail:
	json_decref(a);
	return NULL;
}

static json_t *vj_series(const struct ic_analysis *an, const struct ic_series *se)
{
	const struct ic_group *g = &se->group;
	char label[512], build[256], v[IC_VERDICT_MAX];

	ic_fmt_series(label, sizeof(label), an, g);
	ic_fmt_build(build, sizeof(build), an->res, g->build);
	return json_pack("{s:s,s:o,s:s,s:s,s:s,s:s,s:I,s:I,s:s,s:o,s:o,s:o}", "label", label, "build",
			 vj_str(build), "op", g->op, "layout", g->layout, "order", g->order, "mode", g->mode,
			 "threads", (json_int_t)g->threads, "filler_bytes", (json_int_t)g->filler,
			 "verdict", ic_verdict_series(v, sizeof(v), an, se), "crossover",
			 vj_crossover(&g->xo), "points", vj_points(an, g->ratios, g->nratios), "states",
			 vj_states(an, se->states));
}

static json_t *vj_machine(const struct ic_results *res)
{
	char buf[IC_RESULTS_CONTEXT_MAX];
	double cores = ic_results_context_num(res, IC_CTX_CORES);

	if (!isfinite(cores))
		cores = ic_results_context_num(res, IC_CTX_NUM_CPUS);
	return json_pack("{s:o,s:o,s:o,s:o,s:o}", "cpu_model",
			 vj_str(ic_results_context(res, IC_CTX_CPU_MODEL, buf, sizeof(buf))), "cores",
			 vj_int(cores), "l1i_bytes", vj_int(ic_results_context_num(res, IC_CTX_L1I_SIZE)),
			 "l2_bytes", vj_int(ic_results_context_num(res, IC_CTX_L2_SIZE)), "l3_bytes",
			 vj_int(ic_results_context_num(res, IC_CTX_L3_SIZE)));
}

static json_t *vj_design(const struct ic_results *res)
{
	struct ic_design d = ic_results_design(res);

	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "layout_variants", (json_int_t)d.variants_max,
			 "processes_min", (json_int_t)d.units_min, "processes_max", (json_int_t)d.units_max,
			 "repetitions_min", (json_int_t)d.reps_min, "repetitions_max", (json_int_t)d.reps_max,
			 "files", (json_int_t)res->nfiles, "builds", (json_int_t)res->nbuilds);
}

int ic_verdict_json_write(FILE *f, const struct ic_analysis *an)
{
	char why[256], mark[320];
	int smoke = ic_analysis_smoke(an, why, sizeof(why)), rc = -1;
	json_t *series = json_array(), *doc;

	ic_verdict_smoke(mark, sizeof(mark), an);
	for (size_t s = 0; series && s < an->nseries; s++)
		if (json_array_append_new(series, vj_series(an, &an->series[s])))
			goto out;
	doc = json_pack("{s:s,s:s,s:s,s:b,s:o,s:o,s:o,s:o,s:O}", "format", IC_VERDICT_FORMAT,
			"compare", an->opts.compare, "baseline", an->opts.baseline, "smoke", smoke,
			"smoke_reason", smoke ? json_string(why) : json_null(), "smoke_mark",
			smoke ? json_string(mark) : json_null(), "machine", vj_machine(an->res),
			"design", vj_design(an->res), "series", series);
	if (doc && !json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6)) && fputc('\n', f) != EOF)
		rc = 0;
	json_decref(doc);
out:
	json_decref(series);
	return rc || ferror(f) ? -1 : 0;
}
