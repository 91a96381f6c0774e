/* Opening a run: a results directory or its export, read in memory with
 * libarchive (no tar, nothing unpacked); see run.h. */
#define _GNU_SOURCE   /* open_memstream */
#include "run.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kit.h"

/* A file of the run: run.conf, verdict.json or a process's JSON (PREFIX
 * raw/NAME.json), with its text; a directory's processes have none (read
 * when loaded). */
struct run_member {
	char *name, *text;
	size_t len;
	double mtime;
};

/* Appends a member named name (copied) that owns text. */
static void run_member_add(struct run_member **m, size_t *n, const char *name, char *text,
			   size_t len, double mtime)
{
	*m = ic_xrealloc(*m, *n + 1, sizeof(**m));
	(*m)[(*n)++] = (struct run_member){ ic_xalloc(strdup(name)), text, len, mtime };
}

static int run_cmp_member(const void *pa, const void *pb)
{
	return strcmp(((const struct run_member *)pa)->name, ((const struct run_member *)pb)->name);
}

static int run_ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n > t && !strcmp(s + n - t, tail);
}

/* A process's file: NAME.json, not hidden (a sweep writes NAME.json.tmp
 * first and renames it when the process has finished). */
static int run_is_process(const char *name)
{
	return name[0] != '.' && !strchr(name, '/') && run_ends_with(name, ".json");
}

/* A process file of the selection: its repeat's key r<K>_v<V>_p<P>.json
 * (after a step's, trial's or build's prefix), its trial's prefix t<T>_. */
static int run_selected(const struct ic_run_select *sel, const char *name)
{
	if (sel->trial) {
		int t = 0, n = 0;

		if (sscanf(name, "t%d_%n", &t, &n) != 1 || !n || t != sel->trial)
			return 0;
	}
	return !sel->repeat || ic_results_name_repeat(name) == sel->repeat;
}

/* A results directory's members: run.conf and verdict.json with their
 * text, raw/NAME.json of every process without. */
static int run_dir_read(struct ic_run *run, const char *path, struct run_member **m, size_t *n,
			char *err, size_t errlen)
{
	char real[PATH_MAX], file[PATH_MAX + 300];
	size_t len = 0;
	struct dirent *e;
	char *text;
	DIR *d;

	if (!realpath(path, real))
		return ic_fail(err, errlen, "%s: %s", path, strerror(errno));
	run->name = ic_xalloc(strdup(strrchr(real, '/')[1] ? strrchr(real, '/') + 1 : real));
	run->from = ic_xalloc(strdup("directory"));
	snprintf(file, sizeof(file), "%s/run.conf", path);
	if (access(file, F_OK))
		return ic_fail(err, errlen, "%s is not a results directory of run.sh (no run.conf)", path);
	if (!(text = ic_read_path(file, &len)))
		return ic_fail(err, errlen, "%s: %s", file, strerror(errno));
	run_member_add(m, n, "run.conf", text, len, NAN);
	snprintf(file, sizeof(file), "%s/verdict.json", path);
	if ((text = ic_read_path(file, &len)))
		run_member_add(m, n, "verdict.json", text, len, NAN);
	snprintf(file, sizeof(file), "%s/raw", path);
	if (!(d = opendir(file)))
		return ic_fail(err, errlen, "%s is not a results directory of run.sh (no raw/)", path);
	while ((e = readdir(d))) {
		snprintf(file, sizeof(file), "raw/%s", e->d_name);
		if (run_is_process(e->d_name))
			run_member_add(m, n, file, NULL, 0, NAN);
	}
	closedir(d);
	return 0;
}

/* The member's data, whole. */
static char *run_archive_data(struct archive *a, size_t *len)
{
	char chunk[65536], *text = NULL;
	FILE *mem = ic_xalloc(open_memstream(&text, len));
	la_ssize_t got;
	int bad = 0;

	while (!bad && (got = archive_read_data(a, chunk, sizeof(chunk))) > 0)
		bad = fwrite(chunk, 1, (size_t)got, mem) != (size_t)got;
	bad |= got < 0;
	if (fclose(mem) || bad) {
		free(text);
		return NULL;
	}
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

/* The export's members that can belong to a run, read into memory: each
 * run.conf or verdict.json at most one level down, and raw/ beside one. */
static int run_archive_read(const char *path, struct run_member **m, size_t *n, char *err,
			    size_t errlen)
{
	struct archive *a = ic_xalloc(archive_read_new());
	struct archive_entry *e;
	int r = ARCHIVE_FATAL;

	archive_read_support_filter_all(a);
	archive_read_support_format_all(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK)
		goto bad;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(e), *base;
		size_t depth, len = 0;
		char *text;

		if (!name || archive_entry_filetype(e) != AE_IFREG)
			continue;
		if (!strncmp(name, "./", 2))
			name += 2;
		base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
		depth = run_depth(name);
		if (!((!strcmp(base, "run.conf") || !strcmp(base, "verdict.json")) && depth <= 2) &&
		    !(run_is_process(base) && depth <= 3 && base - name >= 4 &&
		      !strncmp(base - 4, "raw/", 4)))
			continue;
		if (!(text = run_archive_data(a, &len))) {
			r = ARCHIVE_FATAL;
			break;
		}
		run_member_add(m, n, name, text, len, archive_entry_mtime_is_set(e)
			       ? (double)archive_entry_mtime(e) + 1e-9 * (double)archive_entry_mtime_nsec(e)
			       : NAN);
	}
	if (r != ARCHIVE_EOF)
		goto bad;
	archive_read_free(a);
	return 0;
bad:
	snprintf(err, errlen, "%s is not a readable export (%s)", path,
		 archive_error_string(a) ? archive_error_string(a) : "out of memory");
	archive_read_free(a);
	return -1;
}

/* The run among the members m[0..n-1] of path (sep "/" for a directory,
 * ":" for an export): its run.conf, the verdict.json beside it, and its
 * selected processes in name order, as summarize is given them (the first
 * speaks for the run; layout variants are numbered as they appear). */
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
		return ic_fail(err, errlen, "%s is not an export of a results directory (no run.conf inside)",
			       path);
	plen = strlen(conf->name) - strlen("run.conf");
	memcpy(prefix, conf->name, plen);
	prefix[plen] = '\0';
	/* An export is named by its directory; packed without one, by the file. */
	if (*sep == ':') {
		run->name = ic_xalloc(plen ? strndup(prefix, plen - 1)
				: strndup(base, strlen(base) - (run_ends_with(base, ".tgz") ? 4 : 7)));
		if (asprintf(&run->from, "export %s", base) < 0)
			ic_die(1, "out of memory");
	}
	snprintf(file, sizeof(file), "%s%s%s", path, sep, conf->name);
	if (ic_settings_parse(&run->conf, conf->text, conf->len, file, err, errlen))
		return -1;
	/* Its verdict: PREFIX verdict.json. */
	for (size_t i = 0; i < n; i++)
		if (!strncmp(m[i].name, prefix, plen) && !strcmp(m[i].name + plen, "verdict.json")) {
			run->verdict_json = m[i].text;
			m[i].text = NULL;
		}
	/* Its processes: PREFIX raw/NAME.json. */
	for (size_t i = 0; i < n; i++)
		if (!strncmp(m[i].name, prefix, plen) && !strncmp(m[i].name + plen, "raw/", 4) &&
		    run_is_process(m[i].name + plen + 4) && run_selected(&run->sel, m[i].name + plen + 4)) {
			struct run_member t = m[np];

			m[np++] = m[i];
			m[i] = t;
		}
	/* " of repeat 2", " of trial 3" or "": %.0d prints nothing for 0. */
	if (!np)
		return ic_fail(err, errlen, "%s has no finished process%s%.0d%s%.0d in %sraw/", path,
			       run->sel.repeat ? " of repeat " : "", run->sel.repeat,
			       run->sel.trial ? " of trial " : "", run->sel.trial, prefix);
	qsort(m, np, sizeof(*m), run_cmp_member);
	for (size_t i = 0; i < np && !rc; i++) {
		snprintf(file, sizeof(file), "%s%s%s", path, sep, m[i].name);
		rc = m[i].text ? ic_results_load_text(&run->res, file, m[i].text, m[i].len, m[i].mtime,
						      err, errlen)
			       : ic_results_load(&run->res, file, err, errlen);
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
	/* The analysis summarize runs by default: a run records neither the
	 * noise limit nor the family-wise error, so its summary used these. */
	struct ic_analysis_opts opts = given ? *given : ic_analysis_defaults;
	struct run_member *m = NULL;
	struct stat st;
	char why[1024];
	size_t n = 0;
	int rc;

	memset(run, 0, sizeof(*run));
	if (sel)
		run->sel = *sel;
	ic_results_init(&run->res);
	if (stat(path, &st))
		return ic_fail(err, errlen, "%s: no such results directory or export", path);
	if (S_ISDIR(st.st_mode))
		rc = run_dir_read(run, path, &m, &n, err, errlen);
	else if (S_ISREG(st.st_mode) && (run_ends_with(path, ".tar.gz") || run_ends_with(path, ".tgz")))
		rc = run_archive_read(path, &m, &n, err, errlen);
	else
		return ic_fail(err, errlen, "%s is neither a results directory of run.sh nor an export (.tar.gz)",
			       path);
	rc = rc || run_open_members(run, path, S_ISDIR(st.st_mode) ? "/" : ":", m, n, err, errlen);
	for (size_t i = 0; i < n; i++) {
		free(m[i].name);
		free(m[i].text);
	}
	free(m);
	if (rc)
		return -1;
	/* The forms the run's summary compared; summarize's own default when
	 * run.conf is older than the setting. */
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
