/* Opening a run (directory or export) in memory with libarchive (no tar, nothing unpacked). */
#define _GNU_SOURCE   /* asprintf, strndup */
#include "run.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kit.h"

/* A file of the run with its text: run.conf, verdict.json or PREFIX raw/NAME.json. */
struct run_member {
	char *name, *text;
	size_t len;
	double mtime;
};

static int run_cmp_member(const void *pa, const void *pb)
{
	return strcmp(((const struct run_member *)pa)->name, ((const struct run_member *)pb)->name);
}

/* A process's file: NAME.json, not hidden (a sweep writes NAME.json.tmp, renamed at its end). */
static int run_is_process(const char *name)
{
	return !fnmatch("*.json", name, FNM_PATHNAME | FNM_PERIOD);
}

/* In the selection: its repeat key r<K>_v<V>_p<P>.json (after any x/t/b prefix), trial t<T>_. */
static int run_selected(const struct ic_run_select *sel, const char *name)
{
	if (sel->trial) {
		int t = 0, n = 0;

		if (sscanf(name, "t%d_%n", &t, &n) != 1 || !n || t != sel->trial)
			return 0;
	}
	return !sel->repeat || ic_results_name_repeat(name) == sel->repeat;
}

/* Member e's data, whole and NUL-terminated (read to the size asked or the member's end). */
static char *run_archive_data(struct archive *a, struct archive_entry *e, size_t *len)
{
	la_int64_t size = archive_entry_size(e);
	char *text = ic_xalloc(malloc((size_t)size + 1));

	if (archive_read_data(a, text, (size_t)size) != size) {
		free(text);
		return NULL;
	}
	text[*len = (size_t)size] = '\0';
	return text;
}

/* Depth of a member path: "a" 1, "a/b" 2. */
static size_t run_depth(const char *p)
{
	size_t d = 1;

	for (; *p; p++)
		d += *p == '/';
	return d;
}

/* The files at path that can be a run's, read by libarchive (a directory's top and raw/ by
 * its disk reader, an export by its archive reader): each run.conf or verdict.json at most
 * one level down, the selected processes of raw/ beside one. */
static int run_read(const char *path, int dir, const struct ic_run_select *sel,
		    struct run_member **m, size_t *n, char *err, size_t errlen)
{
	struct archive *a = ic_xalloc(dir ? archive_read_disk_new() : archive_read_new());
	struct archive_entry *e;
	size_t top = 0;   /* a directory's own path's length: its files' names follow */
	int r;

	if (dir) {
		archive_read_disk_set_symlink_logical(a);   /* followed, as open() does */
		r = archive_read_disk_open(a, path);
	} else {
		archive_read_support_filter_all(a);
		archive_read_support_format_all(a);
		r = archive_read_open_filename(a, path, 65536);
	}
	if (r != ARCHIVE_OK)
		goto bad;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(e), *base;
		size_t depth, len = 0;
		char *text;

		if (!name)
			continue;
		if (dir && !top) {   /* the directory itself comes first */
			top = strlen(name);
			archive_read_disk_descend(a);
			continue;
		}
		name += dir ? top + (name[top] == '/') : 2 * !strncmp(name, "./", 2);
		if (dir && !strcmp(name, "raw"))
			archive_read_disk_descend(a);
		if (archive_entry_filetype(e) != AE_IFREG)
			continue;
		base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
		depth = run_depth(name);
		if (!((!strcmp(base, "run.conf") || !strcmp(base, "verdict.json")) && depth <= 2) &&
		    !(run_is_process(base) && run_selected(sel, base) && depth <= 3 &&
		      base - name >= 4 && !strncmp(base - 4, "raw/", 4)))
			continue;
		if (!(text = run_archive_data(a, e, &len))) {
			r = ARCHIVE_FATAL;
			break;
		}
		*m = ic_xrealloc(*m, *n + 1, sizeof(**m));
		(*m)[(*n)++] = (struct run_member){ ic_xalloc(strdup(name)), text, len,
			archive_entry_mtime_is_set(e) ? (double)archive_entry_mtime(e) +
			1e-9 * (double)archive_entry_mtime_nsec(e) : NAN };
	}
	if (r != ARCHIVE_EOF)
		goto bad;
	archive_read_free(a);
	return 0;
bad:
	snprintf(err, errlen, "%s is not a readable %s (%s)", path, dir ? "directory" : "export",
		 archive_error_string(a) ? archive_error_string(a) : "out of memory");
	archive_read_free(a);
	return -1;
}

/* The run among members m[0..n-1] of path (sep "/" for a directory, ":" an export): its
 * run.conf, the verdict.json beside it, its selected processes in name order as summarize
 * is given them (the first speaks for the run; layout variants numbered as they appear). */
static int run_open_members(struct ic_run *run, const char *path, const char *sep,
			    struct run_member *m, size_t n, char *err, size_t errlen)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char prefix[PATH_MAX] = "", file[PATH_MAX + 300];
	struct run_member *conf = NULL;
	size_t np = 0, plen;
	int rc = 0;

	/* The run's own run.conf: at the top, else in the one directory there. */
	for (size_t i = 0; i < n; i++) {
		if (strcmp(strrchr(m[i].name, '/') ? strrchr(m[i].name, '/') + 1 : m[i].name,
			   "run.conf"))
			continue;
		if (conf && run_depth(conf->name) == run_depth(m[i].name))
			return ic_fail(err, errlen, "%s holds more than one run (%s and %s)", path,
				       conf->name, m[i].name);
		if (!conf || run_depth(m[i].name) < run_depth(conf->name))
			conf = &m[i];
	}
	if (!conf)
		return ic_fail(err, errlen, "%s is not %s (no run.conf%s)", path, *sep == ':' ?
			       "an export of a results directory" : "a results directory of run.sh",
			       *sep == ':' ? " inside" : "");
	plen = strlen(conf->name) - strlen("run.conf");
	snprintf(prefix, sizeof(prefix), "%.*s", (int)plen, conf->name);
	/* An export is named by its directory; packed without one, by the file. */
	if (*sep == ':') {
		run->name = ic_xalloc(plen ? strndup(prefix, plen - 1)
				: strndup(base, strlen(base) - (fnmatch("*.tgz", base, 0) ? 7 : 4)));
		if (asprintf(&run->from, "export %s", base) < 0)
			ic_die(1, "out of memory");
	}
	snprintf(file, sizeof(file), "%s%s%s", path, sep, conf->name);
	if (ic_settings_parse(&run->conf, conf->text, conf->len, file, err, errlen))
		return -1;
	/* Its verdict, PREFIX verdict.json, and its processes, PREFIX raw/NAME.json. */
	for (size_t i = 0; i < n; i++) {
		const char *rest = strncmp(m[i].name, prefix, plen) ? "" : m[i].name + plen;
		struct run_member t = m[np];

		if (!strcmp(rest, "verdict.json")) {
			run->verdict_json = m[i].text;
			m[i].text = NULL;
		} else if (!strncmp(rest, "raw/", 4) && run_is_process(rest + 4)) {
			m[np++] = m[i];
			m[i] = t;
		}
	}
	/* " of repeat 2", " of trial 3" or "": %.0d prints nothing for 0. */
	if (!np)
		return ic_fail(err, errlen, "%s has no finished process%s%.0d%s%.0d in %sraw/", path,
			       run->sel.repeat ? " of repeat " : "", run->sel.repeat,
			       run->sel.trial ? " of trial " : "", run->sel.trial, prefix);
	qsort(m, np, sizeof(*m), run_cmp_member);
	for (size_t i = 0; i < np && !rc; i++) {
		snprintf(file, sizeof(file), "%s%s%s", path, sep, m[i].name);
		rc = ic_results_load_text(&run->res, file, m[i].text, m[i].len, m[i].mtime, err, errlen);
		free(m[i].text);   /* parsed: the text is not needed again */
		m[i].text = NULL;
	}
	return rc;
}

int ic_run_open(struct ic_run *run, const char *path, char *err, size_t errlen)
{
	return ic_run_open_select(run, path, NULL, NULL, err, errlen);
}

int ic_run_open_select(struct ic_run *run, const char *path, const struct ic_run_select *sel,
		       const struct ic_analysis_opts *given, char *err, size_t errlen)
{
	/* A run records neither noise limit nor family-wise error: its summary used these. */
	struct ic_analysis_opts opts = given ? *given : ic_analysis_defaults;
	struct run_member *m = NULL;
	char why[1024], real[PATH_MAX];
	struct stat st;
	size_t n = 0;
	int rc;

	*run = (struct ic_run){ .sel = sel ? *sel : (struct ic_run_select){ 0 } };
	if (stat(path, &st))
		return ic_fail(err, errlen, "%s: no such results directory or export", path);
	if (!S_ISDIR(st.st_mode) &&
	    !(S_ISREG(st.st_mode) && (!fnmatch("?*.tar.gz", path, 0) || !fnmatch("?*.tgz", path, 0))))
		return ic_fail(err, errlen, "%s is neither a results directory of run.sh nor an export (.tar.gz)",
			       path);
	/* A directory is named by its own name; an export by run_open_members. */
	if (S_ISDIR(st.st_mode)) {
		if (!realpath(path, real))
			return ic_fail(err, errlen, "%s: %s", path, strerror(errno));
		run->name = ic_xalloc(strdup(strrchr(real, '/')[1] ? strrchr(real, '/') + 1 : real));
		run->from = ic_xalloc(strdup("directory"));
	}
	rc = run_read(path, S_ISDIR(st.st_mode), &run->sel, &m, &n, err, errlen) ||
	     run_open_members(run, path, S_ISDIR(st.st_mode) ? "/" : ":", m, n, err, errlen);
	for (size_t i = 0; i < n; i++) {
		free(m[i].name);
		free(m[i].text);
	}
	free(m);
	if (rc)
		return -1;
	/* The forms the run's summary compared; summarize's default for an older run.conf. */
	if (!given && *ic_run_conf(run, "compare"))
		opts.compare = ic_run_conf(run, "compare");
	if (!given && *ic_run_conf(run, "baseline"))
		opts.baseline = ic_run_conf(run, "baseline");
	if (!strcmp(opts.compare, opts.baseline))
		return ic_fail(err, errlen, "%s: run.conf compares form %s with itself", path,
			       opts.compare);
	if (ic_analyse(&run->an, &run->res, &opts, why, sizeof(why)))
		return ic_fail(err, errlen, "%s: %s", path, why);
	return 0;
}

const char *ic_run_conf(const struct ic_run *run, const char *key)
{
	return ic_settings_get(&run->conf, key);
}

void ic_run_free(struct ic_run *run)
{
	ic_analysis_free(&run->an);
	ic_results_free(&run->res);
	ic_settings_free(&run->conf);
	free(run->verdict_json);
	free(run->name);
	free(run->from);
	memset(run, 0, sizeof(*run));
}
