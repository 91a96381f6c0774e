/* Text helpers shared by summarize's writers; see format.h. */
#include "format.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *ic_fmt_bytes(char *buf, size_t cap, double bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	for (; bytes >= 1024.0 && u < 4; u++)
		bytes /= 1024.0;
	snprintf(buf, cap, !isfinite(bytes) ? "unknown" : bytes == floor(bytes) ? "%.0f %s" : "%.1f %s",
		 bytes, unit[u]);
	return buf;
}

void ic_fmt_add(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, cap - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + (size_t)n < cap ? *len + (size_t)n : cap - 1;
}

/* Toolchain first, then what was compiled, then the lock. */
static const enum ic_build_key build_part[IC_B_COUNT] = { IC_B_COMPILER, IC_B_CFLAGS, IC_B_LTO,
							  IC_B_CODEGEN, IC_B_BODY, IC_B_LOCK };

const char *ic_fmt_build(char *buf, size_t cap, const struct ic_results *res, size_t build)
{
	size_t len = 0;

	buf[0] = '\0';
	if (res->nbuilds < 2 || build >= res->nbuilds)
		return buf;
	for (int i = 0; i < IC_B_COUNT; i++) {
		enum ic_build_key k = build_part[i];
		const char *v = res->builds[build].v[k];
		const char *sep = !len ? "" : k == IC_B_CFLAGS || k == IC_B_LTO ? ", " : "; ";
		int differs = 0;

		for (size_t b = 1; b < res->nbuilds && !differs; b++)
			differs = strcmp(res->builds[b].v[k], res->builds[0].v[k]) != 0;
		/* Absent (an older run): nothing said; no separator first, whichever part leads. */
		if (differs && *v)
			ic_fmt_add(buf, cap, &len, "%s%s%s%s", sep, k == IC_B_LTO ? "LTO " : "", v,
				   k == IC_B_LOCK ? " lock" : k == IC_B_CODEGEN ? " codegen" : "");
	}
	return buf;
}

const char *ic_fmt_build_keys(char *buf, size_t cap, const struct ic_build *b)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < IC_B_COUNT; i++)
		if (*b->v[build_part[i]])
			ic_fmt_add(buf, cap, &len, "%s%s %s", len ? "; " : "",
				   ic_ctx_word(ic_ctx_of_build(build_part[i])), b->v[build_part[i]]);
	return buf;
}

/* More than one op/layout/order in the run: series labels must say which. */
static int fmt_many_bodies(const struct ic_analysis *an)
{
	const struct ic_group *g0 = &an->series[0].group;

	for (size_t s = 1; s < an->nseries; s++) {
		const struct ic_group *g = &an->series[s].group;

		if (strcmp(g->op, g0->op) || strcmp(g->layout, g0->layout) || strcmp(g->order, g0->order))
			return 1;
	}
	return 0;
}

const char *ic_fmt_series(char *buf, size_t cap, const struct ic_analysis *an,
			  const struct ic_group *gr)
{
	char fb[32], body[320] = "", build[256];
	int many = fmt_many_bodies(an);
	size_t len = 0;

	ic_fmt_build(build, sizeof(build), an->res, gr->build);
	if (many)
		ic_fmt_add(body, sizeof(body), &len, "%s, %s layout, %s order", gr->op, gr->layout, gr->order);
	if (gr->filler)
		ic_fmt_add(body, sizeof(body), &len, "%s%s filler per site", many ? ", " : "",
			   ic_fmt_bytes(fb, sizeof(fb), (double)gr->filler));
	snprintf(buf, cap, "%s%s%s%s%lu thread%s, %s queue", build, *build ? "; " : "", body,
		 *body ? "; " : "", gr->threads, gr->threads == 1 ? "" : "s", gr->mode);
	return buf;
}

const char *ic_fmt_nset(char *buf, size_t cap, const struct ic_ratio *r, const unsigned char *in,
			size_t n, const char *last)
{
	size_t len = 0, runs = 0, k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		runs += in[i] && (i == 0 || !in[i - 1]);
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		if (!in[i])
			continue;
		while (j + 1 < n && in[j + 1])
			j++;
		k++;
		ic_fmt_add(buf, cap, &len, "%s%lu", k == 1 ? "" : k == runs ? last : ", ", r[i].sites);
		if (j > i)
			ic_fmt_add(buf, cap, &len, "..%lu", r[j].sites);
		i = j;
	}
	return buf;
}

const char *ic_fmt_runs(char *buf, size_t cap, const struct ic_ratio *ratios, size_t n,
			enum ic_point_side side)
{
	unsigned char in[n ? n : 1];

	for (size_t i = 0; i < n; i++)
		in[i] = ratios[i].side == side;
	return ic_fmt_nset(buf, cap, ratios, in, n, ", ");
}

const char *ic_fmt_sig3(char *buf, size_t cap, double x)
{
	snprintf(buf, cap, !isfinite(x) ? "—" : fabs(x) >= 1000.0 ? "%.0f" : "%#.3g", x);
	return buf;
}

const char *ic_fmt_side(const struct ic_analysis *an, enum ic_point_side s, const char *unresolved)
{
	return s == IC_SIDE_COMPARE ? an->opts.compare : s == IC_SIDE_BASELINE ? an->opts.baseline
					       : unresolved;
}

const char *ic_fmt_crossover(char *buf, size_t cap, const struct ic_crossover *xo,
			     const struct ic_analysis_opts *opts, const char *const words[5])
{
	if (xo->verdict == IC_VERDICT_CROSSOVER)
		snprintf(buf, cap, words[xo->verdict], xo->bracket_lo, xo->bracket_hi);
	else
		snprintf(buf, cap, words[xo->verdict],
			 xo->verdict == IC_VERDICT_BASELINE_WINS ? opts->baseline : opts->compare);
	return buf;
}
