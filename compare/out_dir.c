/* Writing an output directory as a whole; see across_runs.h. */
#define _GNU_SOURCE
#include "across_runs.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gnuplot_run.h"
#include "kit.h"

int ic_out_dir_check(const char *out)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int empty = 1;

	if (!*out || !strcmp(out, "/"))
		return ic_bad("--out: '%s' is not a directory to write.", out);
	if (stat(out, &st))
		return 0;
	if (S_ISDIR(st.st_mode) && (d = opendir(out))) {
		while (empty && (e = readdir(d)))
			empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
		closedir(d);
		if (empty)
			return 0;
	}
	return ic_bad("--out: %s exists and is not an empty directory.", out);
}

/* One line (errno's words after it), the stage removed, exit 1. */
__attribute__((noreturn)) static void out_fail(struct ic_out_dir *d, const char *what, const char *path)
{
	int e = errno;

	if (d->stage)
		ic_rm_rf(d->stage);
	ic_die(1, "%s %s: %s", what, path, strerror(e));
}

void ic_out_dir_begin(struct ic_out_dir *d, const char *out, const char *const *name, FILE **const *f,
		      size_t n)
{
	size_t len = strlen(out);
	char *copy, *parent;

	if (n > sizeof(d->f) / sizeof(*d->f))
		abort();   /* a caller's bug: d holds this many files */

	while (len > 1 && out[len - 1] == '/')
		len--;
	d->out = ic_xalloc(strndup(out, len));
	parent = dirname(copy = ic_xalloc(strdup(d->out)));   /* may be a static "." */
	/* Beside out, on its file system, so that the rename is one step. */
	if (asprintf(&d->stage, "%s/.%s.XXXXXX", parent, ic_prog) < 0)
		ic_xalloc(NULL);
	if (ic_mkdir_p(parent))
		ic_die(1, "cannot create %s: %s", parent, strerror(errno));
	free(copy);
	if (!mkdtemp(d->stage))
		ic_die(1, "cannot write beside %s: %s", d->out, strerror(errno));
	for (d->nf = 0; d->nf < n; d->nf++) {
		const char *slash = strchr(name[d->nf], '/');
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%.*s", d->stage, slash ? (int)(slash - name[d->nf]) : 0, name[d->nf]);
		if (slash && mkdir(path, 0777) && errno != EEXIST)
			out_fail(d, "cannot write the tables beside", d->out);
		snprintf(path, sizeof(path), "%s/%s", d->stage, name[d->nf]);
		if (!(*f[d->nf] = d->f[d->nf] = fopen(path, "w")))
			out_fail(d, "cannot write the tables beside", d->out);
	}
}

int ic_out_dir_finish(struct ic_out_dir *d, const char *chart, const char *data, const char *base,
		      const char *const *term, int nterm, const char *drop, char *err, size_t errlen)
{
	char log[PATH_MAX], dir[PATH_MAX], path[PATH_MAX];
	int bad = 0, rc = 0, t;
	mode_t mask = umask(0);

	umask(mask);
	for (size_t i = 0; i < d->nf; i++)
		bad |= ferror(d->f[i]) | fclose(d->f[i]);
	if (bad)
		out_fail(d, "cannot write the tables beside", d->out);
	snprintf(log, sizeof(log), "%s/.gnuplot.log", d->stage);
	snprintf(dir, sizeof(dir), "%s%s%s", d->stage, *data ? "/" : "", data);
	for (t = 0; t < nterm && !rc; t++) {
		snprintf(path, sizeof(path), "%s/%s.%s", d->stage, base, term[t]);
		rc = ic_gnuplot_draw(chart, dir, term[t], path, log, err, errlen);
	}
	for (int i = 0; rc && i < nterm; i++) {
		snprintf(path, sizeof(path), "%s/%s.%s", d->stage, base, term[i]);
		unlink(path);
	}
	if (drop) {
		snprintf(path, sizeof(path), "%s/%s", d->stage, drop);
		unlink(path);
	}
	/* mkdtemp made it private; rename() replaces an empty directory and
	 * refuses any other. */
	if (chmod(d->stage, 0777 & ~mask) || rename(d->stage, d->out))
		out_fail(d, "cannot move the results into", d->out);
	free(d->stage);
	free(d->out);
	d->stage = d->out = NULL;
	return rc == 1 ? -1 : rc ? t - 1 : nterm;
}

char *ic_out_append(char *s, const char *fmt, ...)
{
	char *more, *t;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&more, fmt, ap) < 0)
		more = NULL;
	va_end(ap);
	if (!more || asprintf(&t, "%s%s", s ? s : "", more) < 0)
		t = NULL;
	free(more);
	free(s);
	return ic_xalloc(t);
}

char *ic_out_series_id(const struct ic_group *g)
{
	char *id = ic_out_append(NULL, "%s/%s/%s/%lu/%s", g->op, g->layout, g->order, g->threads, g->mode);

	return g->filler ? ic_out_append(id, "/filler:%lu", g->filler) : id;
}

const char *ic_out_winner(const struct ic_analysis *an, const struct ic_crossover *xo, const char *neither)
{
	return xo->direction > 0 ? an->opts.compare : xo->direction < 0 ? an->opts.baseline : neither;
}

void ic_out_num(FILE *f, double x, const char *fmt, const char *none)
{
	if (isfinite(x))
		fprintf(f, fmt, x);
	else
		fputs(none, f);
}

void ic_out_ratio(FILE *f, const struct ic_ratio *r)
{
	ic_out_num(f, r->ratio, "%.4f", "?");
	ic_out_num(f, r->lo, " [%.4f", " [?");
	ic_out_num(f, r->hi, "–%.4f]", "–?]");
}
