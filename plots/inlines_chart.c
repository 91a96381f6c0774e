/* The chart of priced copies (census.h): data into a temporary
 * directory, then gnuplot draws plots/inlines.gp twice, PNG and SVG. */
#define _GNU_SOURCE
#include "census.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "gnuplot_run.h"
#include "kit.h"

int ic_chart_check(const char *png, const char *results_dir, char *err, size_t errlen)
{
	char copy[PATH_MAX], dir[PATH_MAX], res[PATH_MAX];
	size_t n = strlen(png);

	if (n <= 4 || strcmp(png + n - 4, ".png") || png[n - 5] == '/')
		return ic_fail(err, errlen, "--chart %s: give a file name ending in .png (the SVG goes beside it)", png);
	snprintf(copy, sizeof(copy), "%s", png);
	if (!realpath(dirname(copy), dir))
		return ic_fail(err, errlen, "--chart %s: its directory cannot be used: %s", png, strerror(errno));
	if (access(dir, W_OK))
		return ic_fail(err, errlen, "--chart %s: cannot write in %s: %s", png, dir, strerror(errno));
	if (results_dir && realpath(results_dir, res)) {
		n = strlen(res);
		if (!strncmp(dir, res, n) && (dir[n] == '/' || dir[n] == '\0'))
			return ic_fail(err, errlen, "--chart %s is inside the results directory %s, which holds its run's files only: write it elsewhere",
				       png, results_dir);
	}
	return 0;
}

static void chart_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, "%.6g", x);
	else
		fputs("NaN", f);
}

/* "name[k] = " (k 0: "name = ") text, quoted for gnuplot, or (text NULL) x. */
static void chart_set(FILE *gp, const char *name, size_t k, const char *text, double x)
{
	fprintf(gp, k ? "%s[%zu] = " : "%s = ", name, k);
	if (text)
		ic_gnuplot_quote(gp, text);
	else
		chart_num(gp, x);
	fputc('\n', gp);
}

/* dir is mkdtemp's, far shorter than PATH_MAX. */
static FILE *chart_open(const char *dir, const char *name)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return NULL;
	return fopen(path, "w");
}

static int chart_write_data(const char *dir, const char *binary, const struct ic_price_run *run,
			    const struct ic_inline_fn *const *fns, size_t nfns)
{
	char what[4200], title[1024], verdict[256], cpu[IC_RESULTS_CONTEXT_MAX], caption[4600];
	const char *c;
	double xmin = INFINITY, xmax = -INFINITY;
	size_t ns = run->run.an.nseries, k = 0;
	FILE *dat = chart_open(dir, "ratio.dat"), *gp = dat ? chart_open(dir, "data.gp") : NULL;
	int bad;

	if (!gp) {
		if (dat)
			fclose(dat);
		return -1;
	}
	/* The arrays hold every series and function (one at least: the run has
	 * a ratio, the caller a function); the counts say how many are set. */
	fprintf(gp, "array ic_title[%zu]\narray ic_verdict[%zu]\narray ic_xo_lo[%zu]\narray ic_xo_hi[%zu]\n"
		"array ic_mark_n[%zu]\narray ic_mark_label[%zu]\n", ns, ns, ns, ns, nfns, nfns);
	for (size_t g = 0; g < run->run.an.nseries; g++) {
		const struct ic_group *gr = &run->run.an.series[g].group;
		int xo = gr->xo.verdict == IC_VERDICT_CROSSOVER;

		if (!gr->nratios)
			continue;
		k++;
		fprintf(dat, "# %s\n", ic_fmt_series(title, sizeof(title), &run->run.an, gr));
		for (size_t i = 0; i < gr->nratios; i++) {
			const struct ic_ratio *r = &gr->ratios[i];
			const double col[] = { r->ratio, r->lo, r->hi, r->band_lo, r->band_hi };

			fprintf(dat, "%lu", r->sites);
			for (size_t j = 0; j < sizeof(col) / sizeof(col[0]); j++) {
				fputc(' ', dat);
				chart_num(dat, col[j]);
			}
			fputc('\n', dat);
			xmin = fmin(xmin, (double)r->sites);
			xmax = fmax(xmax, (double)r->sites);
		}
		fputs("\n\n", dat);
		chart_set(gp, "ic_title", k, title, 0);
		chart_set(gp, "ic_verdict", k, ic_price_verdict(verdict, sizeof(verdict), run, gr), 0);
		chart_set(gp, "ic_xo_lo", k, NULL, xo ? gr->xo.bracket_lo : NAN);
		chart_set(gp, "ic_xo_hi", k, NULL, xo ? gr->xo.bracket_hi : NAN);
	}
	fprintf(gp, "ic_npanels = %zu\n", k);
	k = 0;
	for (size_t i = 0; i < nfns; i++) {
		char label[512], b[32];
		size_t n = ic_inline_fn_places(fns[i]);

		if (!n)
			continue;
		k++;
		snprintf(label, sizeof(label), "%s: N = %zu copies of %s", fns[i]->name, n,
			 ic_fmt_bytes(b, sizeof(b), fns[i]->median_all));
		fprintf(gp, "ic_mark_n[%zu] = %zu\n", k, n);
		chart_set(gp, "ic_mark_label", k, label, 0);
		xmin = fmin(xmin, (double)n);
		xmax = fmax(xmax, (double)n);
	}
	snprintf(what, sizeof(what), "%s", binary);
	fprintf(gp, "ic_nmarks = %zu\nic_x_min = %g\nic_x_max = %g\n", k, xmin, xmax);
	chart_set(gp, "ic_binary", 0, basename(what), 0);
	chart_set(gp, "ic_compare", 0, run->compare, 0);
	chart_set(gp, "ic_baseline", 0, run->baseline, 0);
	c = ic_results_context(&run->run.res, IC_CTX_CPU_MODEL, cpu, sizeof(cpu));
	snprintf(caption, sizeof(caption), "measured: %s%s%s. A copy that never runs costs space, not time.",
		 run->name, *c ? ", " : "", c);
	chart_set(gp, "ic_caption", 0, caption, 0);
	bad = ferror(dat) | ferror(gp);
	bad |= fclose(dat) | fclose(gp);
	return bad ? -1 : 0;
}

int ic_chart_draw(const char *png, const char *binary, const struct ic_price_run *run,
		  const struct ic_inline_fn *const *fns, size_t nfns, char *err, size_t errlen)
{
	char tmpl[PATH_MAX], base[PATH_MAX], why[2048];
	const char *tmpdir = getenv("TMPDIR");
	int rc = -1;

	if ((size_t)snprintf(tmpl, sizeof(tmpl), "%s/inlines-chart.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") >= sizeof(tmpl))
		return ic_fail(err, errlen, "no chart: its path is too long");
	if (!mkdtemp(tmpl))
		return ic_fail(err, errlen, "no chart: cannot make a temporary directory: %s", strerror(errno));
	/* png ends in ".png" (ic_chart_check). */
	snprintf(base, sizeof(base), "%.*s", (int)strlen(png) - 4, png);
	if (chart_write_data(tmpl, binary, run, fns, nfns))
		ic_fail(err, errlen, "no chart: cannot write its data in %s: %s", tmpl, strerror(errno));
	else if ((rc = ic_gnuplot_draw_pair("inlines", tmpl, base, why, sizeof(why))) > 0)
		rc = ic_fail(err, errlen, "no chart: gnuplot cannot be run (not installed): apt-get install gnuplot-nox");
	else if (rc)
		ic_fail(err, errlen, "no chart: %s", why);
	ic_rm_rf(tmpl);
	return rc;
}
