/* ./run.sh export: a results directory packed into one file to carry to
 * another machine, DIR.tar.gz beside DIR. It holds DIR with every link
 * resolved (DIR/summary.md -> report/summary.md and the like become plain
 * files, report/ a real directory) and no hidden entry (old report sets,
 * temporary files), so nothing in it dangles once unpacked elsewhere; a link
 * to nothing is named and left out. compare and agree read the file in place
 * of DIR (engine/run.c). It packs; it reads nothing it packs.
 */
#define _GNU_SOURCE
#include "runs.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit.h"

/* The archive while it is written: a hidden name beside DIR, renamed into
 * place once whole, removed if we are stopped. */
static char export_tmp[PATH_MAX];

static void export_stop(int sig)
{
	(void)sig;
	unlink(export_tmp);
	_exit(130);
}

struct export_walk {
	struct archive *a;
	char path[PATH_MAX];   /* on disk */
	char name[PATH_MAX];   /* in the archive: DIR's name, then the path below it */
	size_t top;            /* the length of DIR's name */
	struct stat above[64]; /* the directories walked into, against a loop of links */
	size_t len[64];        /* and their names' lengths */
	int depth, packed;     /* how many; how many of them are in the archive */
};

static int export_visible(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* tar --sort=name's order: bytes, whatever the locale. */
static int export_by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The entry at w's path as a plain directory or file (st: the link's
 * target), owned by root: the header, and a file's bytes. */
static int export_entry(struct export_walk *w, const struct stat *st)
{
	struct archive_entry *e = archive_entry_new();
	char buf[65536];
	ssize_t got = 0;
	int fd = -1, bad;

	if (!e)
		ic_xalloc(NULL);
	archive_entry_copy_stat(e, st);
	archive_entry_set_pathname(e, w->name);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	bad = (S_ISREG(st->st_mode) && (fd = open(w->path, O_RDONLY)) < 0) ||
	      archive_write_header(w->a, e) != ARCHIVE_OK;
	while (!bad && fd >= 0 && (got = read(fd, buf, sizeof(buf))) > 0)
		bad = archive_write_data(w->a, buf, (size_t)got) != got;
	bad |= got < 0;
	if (bad)
		fprintf(stderr, "%s: cannot pack %s: %s\n", ic_prog, w->path,
			fd < 0 || got < 0 ? strerror(errno) : archive_error_string(w->a));
	if (fd >= 0)
		close(fd);
	archive_entry_free(e);
	return bad ? -1 : 0;
}

/* The directories above w's entry that are not yet in the archive: each
 * goes in with its first file, as tar packs what find -type f lists. */
static int export_dirs_above(struct export_walk *w)
{
	for (; w->packed < w->depth; w->packed++) {
		char *end = w->name + w->len[w->packed], keep = *end;
		int rc;

		*end = '\0';
		rc = export_entry(w, &w->above[w->packed]);
		*end = keep;
		if (rc)
			return -1;
	}
	return 0;
}

/* w's directory, its entries in name order, links followed. */
static int export_dir(struct export_walk *w)
{
	size_t pl = strlen(w->path), nl = strlen(w->name);
	struct dirent **list;
	int n = scandir(w->path, &list, export_visible, export_by_name), rc = 0;

	if (n < 0) {
		fprintf(stderr, "%s: cannot read %s: %s\n", ic_prog, w->path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct stat st, link;
		int loop = 0;

		snprintf(w->path + pl, sizeof(w->path) - pl, "/%s", list[i]->d_name);
		snprintf(w->name + nl, sizeof(w->name) - nl, "/%s", list[i]->d_name);
		free(list[i]);
		if (rc)
			continue;
		if (stat(w->path, &st)) {
			if (lstat(w->path, &link) || !S_ISLNK(link.st_mode)) {
				fprintf(stderr, "%s: cannot read %s: %s\n", ic_prog, w->path, strerror(errno));
				rc = -1;
			} else {
				fprintf(stderr, "%s: left out %s: a link to nothing\n", ic_prog, w->name + w->top + 1);
			}
			continue;
		}
		for (int d = 0; d < w->depth; d++)
			loop |= w->above[d].st_dev == st.st_dev && w->above[d].st_ino == st.st_ino;
		if (S_ISDIR(st.st_mode) && (loop || w->depth == 64)) {
			fprintf(stderr, "%s: left out %s: a link into a directory above it\n", ic_prog,
				w->name + w->top + 1);
		} else if (S_ISDIR(st.st_mode)) {
			w->len[w->depth] = strlen(w->name);
			w->above[w->depth++] = st;
			rc = export_dir(w);
			w->packed = --w->depth < w->packed ? w->depth : w->packed;
		} else if (S_ISREG(st.st_mode)) {
			rc = export_dirs_above(w) || export_entry(w, &st) ? -1 : 0;
		}
	}
	free(list);
	w->path[pl] = w->name[nl] = '\0';
	return rc;
}

int ic_export_run(const char *dir)
{
	static struct export_walk w;
	char out[PATH_MAX + 16], *slash;
	struct stat st, conf, raw;
	int fd, bad;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || !realpath(dir, w.path))
		return ic_bad("%s: no such results directory.", dir);
	/* A run is its settings and its processes' raw JSON (what compare reads). */
	snprintf(out, sizeof(out), "%s/run.conf", w.path);
	bad = stat(out, &conf) || !S_ISREG(conf.st_mode);
	snprintf(out, sizeof(out), "%s/raw", w.path);
	if (bad || stat(out, &raw) || !S_ISDIR(raw.st_mode))
		return ic_bad("%s is not a results directory of ./run.sh (no run.conf and raw/).", dir);
	slash = strrchr(w.path, '/');
	snprintf(w.name, sizeof(w.name), "%s", slash + 1);
	w.top = strlen(w.name);
	snprintf(out, sizeof(out), "%s.tar.gz", w.path);
	snprintf(export_tmp, sizeof(export_tmp), "%.*s/.%s.tar.gz.XXXXXX", (int)(slash - w.path),
		 w.path, w.name);
	if ((fd = mkstemp(export_tmp)) < 0)
		ic_die(1, "cannot write in %.*s: %s", (int)(slash - w.path), w.path, strerror(errno));
	signal(SIGINT, export_stop);
	signal(SIGTERM, export_stop);
	w.a = ic_xalloc(archive_write_new());
	/* GNU tar's format and gzip, as tar -czf writes them. */
	bad = archive_write_add_filter_gzip(w.a) != ARCHIVE_OK ||
	      archive_write_set_format_gnutar(w.a) != ARCHIVE_OK ||
	      archive_write_open_fd(w.a, fd) != ARCHIVE_OK;
	if (bad)
		fprintf(stderr, "%s: cannot write %s: %s\n", ic_prog, export_tmp, archive_error_string(w.a));
	w.len[0] = w.top;
	w.above[w.depth++] = st;
	bad = bad || export_dir(&w);
	if (!bad && archive_write_close(w.a) != ARCHIVE_OK) {
		fprintf(stderr, "%s: cannot write %s: %s\n", ic_prog, export_tmp, archive_error_string(w.a));
		bad = 1;
	}
	archive_write_free(w.a);
	if (!bad && (fchmod(fd, 0644) || rename(export_tmp, out))) {
		fprintf(stderr, "%s: cannot move the archive to %s: %s\n", ic_prog, out, strerror(errno));
		bad = 1;
	}
	close(fd);
	if (bad) {
		unlink(export_tmp);
		return 1;
	}
	printf("%s\n", out);
	return 0;
}
