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

/* A file of the run: a process's JSON or run.conf, with its text when it
 * came from an archive. */
struct run_member {
	char *name;      /* the archive member's path, or the file name in raw/ */
	char *text;
	size_t len;
	double mtime;
};

static void run_members_free(struct run_member *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(m[i].name);
		free(m[i].text);
	}
	free(m);
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

/* " of repeat 2", " of trial 3" or "": what the selection adds to "no
 * finished process". */
static const char *run_sel_words(const struct ic_run_select *sel, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (sel->repeat)
		snprintf(buf, cap, " of repeat %d", sel->repeat);
	if (sel->trial)
		snprintf(buf + strlen(buf), cap - strlen(buf), " of trial %d", sel->trial);
	return buf;
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

/* The selected processes m[0..n-1] loaded in name order, as summarize is
 * given them: the first process's context speaks for the run, and layout
 * variants are numbered in order of first appearance. Each is an export's
 * member PREFIX raw/NAME with its text, or without a text the directory's
 * raw/NAME. */
static int run_load(struct ic_run *run, const char *path, const char *prefix,
		    struct run_member *m, size_t n, char *err, size_t errlen)
{
	char file[PATH_MAX + 300], w[64];
	int rc = 0;

	if (!n)
		return ic_fail(err, errlen, "%s has no finished process%s in %sraw/", path,
			       run_sel_words(&run->sel, w, sizeof(w)), prefix);
	qsort(m, n, sizeof(*m), run_cmp_member);
	for (size_t i = 0; i < n && !rc; i++) {
		if (!m[i].text) {
			snprintf(file, sizeof(file), "%s/raw/%s", path, m[i].name);
			rc = ic_results_load(&run->res, file, err, errlen);
			continue;
		}
		snprintf(file, sizeof(file), "%s:%s", path, m[i].name);
		rc = ic_results_load_text(&run->res, file, m[i].text, m[i].len, m[i].mtime, err, errlen);
		free(m[i].text);   /* parsed: the text is not needed again */
		m[i].text = NULL;
	}
	return rc;
}

static int run_open_dir(struct ic_run *run, const char *path, char *err, size_t errlen)
{
	char real[PATH_MAX], file[PATH_MAX + 300];
	struct run_member *m = NULL;
	size_t n = 0;
	struct dirent *e;
	DIR *d;
	int rc;

	if (!realpath(path, real))
		return ic_fail(err, errlen, "%s: %s", path, strerror(errno));
	run->name = strdup(strrchr(real, '/')[1] ? strrchr(real, '/') + 1 : real);
	run->from = strdup("directory");
	snprintf(file, sizeof(file), "%s/run.conf", path);
	if (access(file, F_OK))
		return ic_fail(err, errlen, "%s is not a results directory of run.sh (no run.conf)", path);
	if (ic_settings_load(&run->conf, file, err, errlen))
		return -1;
	snprintf(file, sizeof(file), "%s/verdict.json", path);
	run->verdict_json = ic_read_path(file, &(size_t){ 0 });   /* NULL when absent */
	snprintf(file, sizeof(file), "%s/raw", path);
	if (!(d = opendir(file)))
		return ic_fail(err, errlen, "%s is not a results directory of run.sh (no raw/)", path);
	while ((e = readdir(d))) {
		struct run_member *nm;

		if (!run_is_process(e->d_name) || !run_selected(&run->sel, e->d_name))
			continue;
		nm = realloc(m, (n + 1) * sizeof(*m));
		if (!nm || !(nm[n].name = strdup(e->d_name))) {
			m = nm ? nm : m;
			closedir(d);
			run_members_free(m, n);
			return ic_fail(err, errlen, "%s: out of memory", path);
		}
		m = nm;
		m[n++].text = NULL;
	}
	closedir(d);
	rc = run_load(run, path, "", m, n, err, errlen);
	run_members_free(m, n);
	return rc;
}

/* The member's data, whole. */
static char *run_archive_data(struct archive *a, size_t *len)
{
	char chunk[65536], *text = NULL;
	FILE *mem = open_memstream(&text, len);
	la_ssize_t got;
	int bad = !mem;

	while (!bad && (got = archive_read_data(a, chunk, sizeof(chunk))) > 0)
		bad = fwrite(chunk, 1, (size_t)got, mem) != (size_t)got;
	bad |= got < 0;
	if (!mem || fclose(mem) || bad) {
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

/* The export's members that can belong to a run, read into memory: every
 * run.conf at the top or one level down and every raw/ file beside one. */
static int run_archive_read(const char *path, struct run_member **out, size_t *nout, char *err,
			    size_t errlen)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	struct run_member *m = NULL;
	size_t n = 0;
	int r = ARCHIVE_FATAL;

	if (!a)
		return ic_fail(err, errlen, "%s: out of memory", path);
	archive_read_support_filter_all(a);
	archive_read_support_format_all(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK)
		goto bad;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(e), *base;
		struct run_member *nm;
		size_t depth;

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
		nm = realloc(m, (n + 1) * sizeof(*m));
		if (!nm)
			break;
		m = nm;
		m[n] = (struct run_member){ .name = strdup(name),
					    .mtime = archive_entry_mtime_is_set(e)
						     ? (double)archive_entry_mtime(e) +
						       1e-9 * (double)archive_entry_mtime_nsec(e)
						     : NAN };
		m[n].text = run_archive_data(a, &m[n].len);
		n++;
		if (!m[n - 1].name || !m[n - 1].text) {
			r = ARCHIVE_FATAL;
			break;
		}
	}
	if (r != ARCHIVE_EOF)
		goto bad;
	archive_read_free(a);
	*out = m;
	*nout = n;
	return 0;
bad:
	snprintf(err, errlen, "%s is not a readable export (%s)", path,
		 archive_error_string(a) ? archive_error_string(a) : "out of memory");
	archive_read_free(a);
	run_members_free(m, n);
	return -1;
}

static int run_open_export(struct ic_run *run, const char *path, char *err, size_t errlen)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct run_member *m = NULL, *conf = NULL;
	char prefix[PATH_MAX] = "", name[PATH_MAX + 300];
	size_t n = 0, np = 0, plen;
	int rc;

	if (run_archive_read(path, &m, &n, err, errlen))
		return -1;
	/* The run's own run.conf: at the top, else in the one directory there. */
	for (size_t i = 0; i < n; i++) {
		if (strcmp(strrchr(m[i].name, '/') ? strrchr(m[i].name, '/') + 1 : m[i].name,
			   "run.conf"))
			continue;
		if (conf && run_depth(conf->name) == run_depth(m[i].name)) {
			run_members_free(m, n);
			return ic_fail(err, errlen, "%s holds more than one run (%s and %s)", path,
				       conf->name, m[i].name);
		}
		if (!conf || run_depth(m[i].name) < run_depth(conf->name))
			conf = &m[i];
	}
	if (!conf) {
		run_members_free(m, n);
		return ic_fail(err, errlen, "%s is not an export of a results directory (no run.conf inside)",
			       path);
	}
	plen = strlen(conf->name) - strlen("run.conf");
	memcpy(prefix, conf->name, plen);
	prefix[plen] = '\0';
	if (plen)
		run->name = strndup(prefix, plen - 1);
	else   /* packed without its directory: named by the file */
		run->name = strndup(base, strlen(base) - (run_ends_with(base, ".tgz") ? 4 : 7));
	if (asprintf(&run->from, "export %s", base) < 0)
		run->from = NULL;
	snprintf(name, sizeof(name), "%s:%s", path, conf->name);
	if (!run->name || !run->from || ic_settings_parse(&run->conf, conf->text, conf->len, name, err, errlen)) {
		if (!run->name || !run->from)
			ic_fail(err, errlen, "%s: out of memory", path);
		run_members_free(m, n);
		return -1;
	}
	/* Its verdict: PREFIX verdict.json. */
	for (size_t i = 0; i < n; i++)
		if (!strncmp(m[i].name, prefix, plen) && !strcmp(m[i].name + plen, "verdict.json")) {
			run->verdict_json = m[i].text;
			m[i].text = NULL;
		}
	/* Its processes: PREFIX raw/NAME.json, in name order. */
	for (size_t i = 0; i < n; i++)
		if (!strncmp(m[i].name, prefix, plen) && !strncmp(m[i].name + plen, "raw/", 4) &&
		    run_is_process(m[i].name + plen + 4) && run_selected(&run->sel, m[i].name + plen + 4)) {
			struct run_member t = m[np];

			m[np++] = m[i];
			m[i] = t;
		}
	rc = run_load(run, path, prefix, m, np, err, errlen);
	run_members_free(m, n);
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
	struct stat st;
	char why[1024];

	memset(run, 0, sizeof(*run));
	if (sel)
		run->sel = *sel;
	ic_results_init(&run->res);
	if (stat(path, &st))
		return ic_fail(err, errlen, "%s: no such results directory or export", path);
	if (S_ISDIR(st.st_mode)) {
		if (run_open_dir(run, path, err, errlen))
			return -1;
	} else if (S_ISREG(st.st_mode) && (run_ends_with(path, ".tar.gz") || run_ends_with(path, ".tgz"))) {
		if (run_open_export(run, path, err, errlen))
			return -1;
	} else {
		return ic_fail(err, errlen, "%s is neither a results directory of run.sh nor an export (.tar.gz)",
			       path);
	}
	if (!run->name || !run->from)
		return ic_fail(err, errlen, "%s: out of memory", path);
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
