/* Writing an output directory as a whole; see out_dir.h. */
#define _GNU_SOURCE
#include "out_dir.h"

#include "gnuplot_run.h"
#include "kit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ic_out_dir_check(const char *out, char *err, size_t errlen)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int empty = 1;

	if (!*out || !strcmp(out, "/"))
		return ic_fail(err, errlen, "--out: '%s' is not a directory to write", out);
	if (stat(out, &st))
		return 0;
	if (S_ISDIR(st.st_mode) && (d = opendir(out))) {
		while (empty && (e = readdir(d)))
			empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
		closedir(d);
		if (empty)
			return 0;
	}
	return ic_fail(err, errlen, "--out: %s exists and is not an empty directory", out);
}

int ic_out_dir_begin(struct ic_out_dir *d, const char *out, const char *prog, char *err,
		     size_t errlen)
{
	char *slash;
	size_t n = strlen(out);

	while (n > 1 && out[n - 1] == '/')
		n--;
	d->stage = NULL;
	d->out = strndup(out, n);
	if (!d->out)
		return ic_fail(err, errlen, "out of memory");
	slash = strrchr(d->out, '/');
	/* Beside out, on its file system, so that the rename is one step. */
	if (asprintf(&d->stage, "%.*s/.%s.XXXXXX", slash ? (int)(slash - d->out) : 1,
		     slash ? d->out : ".", prog) < 0) {
		d->stage = NULL;
		return ic_fail(err, errlen, "out of memory");
	}
	if (slash && slash != d->out) {
		*slash = '\0';
		if (ic_mkdir_p(d->out)) {
			ic_fail(err, errlen, "cannot create %s: %s", d->out, strerror(errno));
			*slash = '/';
			return -1;
		}
		*slash = '/';
	}
	if (!mkdtemp(d->stage)) {
		ic_fail(err, errlen, "cannot write beside %s: %s", d->out, strerror(errno));
		free(d->stage);
		d->stage = NULL;
		return -1;
	}
	return 0;
}

const char *ic_out_dir_path(struct ic_out_dir *d, const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", d->stage, name);
	return path;
}

FILE *ic_out_dir_open(struct ic_out_dir *d, const char *name)
{
	char path[PATH_MAX];
	const char *slash = strchr(name, '/');

	if (slash) {
		snprintf(path, sizeof(path), "%s/%.*s", d->stage, (int)(slash - name), name);
		if (mkdir(path, 0777) && errno != EEXIST)
			return NULL;
	}
	return fopen(ic_out_dir_path(d, name), "w");
}

void ic_out_dir_remove(struct ic_out_dir *d, const char *name)
{
	unlink(ic_out_dir_path(d, name));
}

int ic_out_dir_gnuplot(struct ic_out_dir *d, const char *chart, const char *data, const char *term,
		       const char *out, char *err, size_t errlen)
{
	char log[PATH_MAX], dir[PATH_MAX], path[PATH_MAX];

	snprintf(log, sizeof(log), "%s/.gnuplot.log", d->stage);
	snprintf(dir, sizeof(dir), "%s%s%s", d->stage, *data ? "/" : "", data);
	snprintf(path, sizeof(path), "%s/%s", d->stage, out);
	return ic_gnuplot_draw(chart, dir, term, path, log, err, errlen);
}

static int out_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void ic_out_dir_abort(struct ic_out_dir *d)
{
	if (d->stage)
		nftw(d->stage, out_rm, 16, FTW_DEPTH | FTW_PHYS);
	free(d->stage);
	free(d->out);
	d->stage = d->out = NULL;
}

int ic_out_dir_finish(struct ic_out_dir *d, char *err, size_t errlen)
{
	mode_t mask = umask(0);

	umask(mask);
	/* mkdtemp made it private; rename() replaces an empty directory and
	 * refuses any other. */
	if (chmod(d->stage, 0777 & ~mask) || rename(d->stage, d->out)) {
		ic_fail(err, errlen, "cannot move the results into %s: %s", d->out, strerror(errno));
		ic_out_dir_abort(d);
		return -1;
	}
	free(d->stage);
	free(d->out);
	d->stage = d->out = NULL;
	return 0;
}
