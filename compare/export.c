/* ./run.sh export: a results directory packed into one file to carry to
 * another machine, DIR.tar.gz beside DIR. It holds DIR with every link
 * resolved (DIR/summary.md -> report/summary.md and the like become plain
 * files, report/ a real directory) and no hidden entry (old report sets,
 * temporary files), so nothing in it dangles once unpacked elsewhere; a link
 * to nothing is named and left out. compare and agree read the file in place
 * of DIR (engine/run.c). It packs; it reads nothing it packs.
 */
#define _GNU_SOURCE
#include "across_runs.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit.h"

/* The archive while it is written: a hidden name beside DIR, renamed into
 * place once whole; removed on any failure (ic_die's exit) or stop. */
static char export_tmp[2 * PATH_MAX + 32];

static void export_remove(void)
{
	if (*export_tmp)
		unlink(export_tmp);
}

static void export_stop(int sig)
{
	(void)sig;
	export_remove();
	_exit(130);
}

/* The walk: where it is on disk and in the archive, the directories above. */
static struct {
	struct archive *a;
	char path[PATH_MAX];   /* on disk */
	char name[PATH_MAX];   /* in the archive: DIR's name, then the path below it */
	size_t top;            /* the length of DIR's name */
	struct stat above[64]; /* the directories walked into, against a loop of links */
	size_t len[64];        /* and their names' lengths */
	int depth, packed;     /* how many; how many of them are in the archive */
} ew;

static void export_bad_archive(void)
{
	ic_die(1, "cannot write %s: %s", export_tmp, archive_error_string(ew.a));
}

static int export_visible(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* The entry at the walk's path as a plain directory or file (st: the
 * link's target), owned by root: the header, and a file's bytes. */
static void export_entry(const struct stat *st)
{
	struct archive_entry *e = ic_xalloc(archive_entry_new());
	size_t len = 0;
	char *data = S_ISREG(st->st_mode) ? ic_read_path(ew.path, &len) : NULL;

	if (S_ISREG(st->st_mode) && !data)
		ic_die(1, "cannot read %s: %s", ew.path, strerror(errno));
	archive_entry_copy_stat(e, st);
	archive_entry_set_pathname(e, ew.name);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	if (archive_write_header(ew.a, e) != ARCHIVE_OK ||
	    (data && archive_write_data(ew.a, data, len) != (la_ssize_t)len))
		export_bad_archive();
	free(data);
	archive_entry_free(e);
}

/* The walk's directory, its entries in name order, links followed. In
 * tar --sort=name's order, bytes: alphasort in the C locale (runs never
 * calls setlocale). */
static void export_dir(void)
{
	size_t pl = strlen(ew.path), nl = strlen(ew.name);
	struct dirent **list;
	int n = scandir(ew.path, &list, export_visible, alphasort);

	if (n < 0)
		ic_die(1, "cannot read %s: %s", ew.path, strerror(errno));
	for (int i = 0; i < n; i++) {
		const char *rel = ew.name + ew.top + 1;
		struct stat st, link;
		int loop = 0;

		snprintf(ew.path + pl, sizeof(ew.path) - pl, "/%s", list[i]->d_name);
		snprintf(ew.name + nl, sizeof(ew.name) - nl, "/%s", list[i]->d_name);
		free(list[i]);
		if (stat(ew.path, &st)) {
			if (lstat(ew.path, &link) || !S_ISLNK(link.st_mode))
				ic_die(1, "cannot read %s: %s", ew.path, strerror(errno));
			fprintf(stderr, "%s: left out %s: a link to nothing\n", ic_prog, rel);
			continue;
		}
		for (int d = 0; d < ew.depth; d++)
			loop |= ew.above[d].st_dev == st.st_dev && ew.above[d].st_ino == st.st_ino;
		if (S_ISDIR(st.st_mode) && (loop || ew.depth == 64)) {
			fprintf(stderr, "%s: left out %s: a link into a directory above it\n", ic_prog, rel);
		} else if (S_ISDIR(st.st_mode)) {
			ew.len[ew.depth] = strlen(ew.name);
			ew.above[ew.depth++] = st;
			export_dir();
			ew.packed = --ew.depth < ew.packed ? ew.depth : ew.packed;
		} else if (S_ISREG(st.st_mode)) {
			/* The directories above not yet in the archive go in with
			 * its first file, as tar packs what find -type f lists. */
			for (; ew.packed < ew.depth; ew.packed++) {
				char *end = ew.name + ew.len[ew.packed], keep = *end;

				*end = '\0';
				export_entry(&ew.above[ew.packed]);
				*end = keep;
			}
			export_entry(&st);
		}
	}
	free(list);
	ew.path[pl] = ew.name[nl] = '\0';
}

int ic_export_run(const char *dir)
{
	char out[PATH_MAX + 16], *slash;
	struct stat st, conf, raw;
	int fd, bad;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || !realpath(dir, ew.path))
		return ic_bad("%s: no such results directory.", dir);
	/* A run is its settings and its processes' raw JSON (what compare reads). */
	snprintf(out, sizeof(out), "%s/run.conf", ew.path);
	bad = stat(out, &conf) || !S_ISREG(conf.st_mode);
	snprintf(out, sizeof(out), "%s/raw", ew.path);
	if (bad || stat(out, &raw) || !S_ISDIR(raw.st_mode))
		return ic_bad("%s is not a results directory of ./run.sh (no run.conf and raw/).", dir);
	slash = strrchr(ew.path, '/');
	ew.top = (size_t)snprintf(ew.name, sizeof(ew.name), "%s", slash + 1);
	snprintf(out, sizeof(out), "%s.tar.gz", ew.path);
	snprintf(export_tmp, sizeof(export_tmp), "%.*s/.%s.tar.gz.XXXXXX", (int)(slash - ew.path),
		 ew.path, ew.name);
	if ((fd = mkstemp(export_tmp)) < 0)
		ic_die(1, "cannot write in %.*s: %s", (int)(slash - ew.path), ew.path, strerror(errno));
	atexit(export_remove);
	signal(SIGINT, export_stop);
	signal(SIGTERM, export_stop);
	/* GNU tar's format and gzip, as tar -czf writes them. */
	ew.a = ic_xalloc(archive_write_new());
	if (archive_write_add_filter_gzip(ew.a) != ARCHIVE_OK ||
	    archive_write_set_format_gnutar(ew.a) != ARCHIVE_OK || archive_write_open_fd(ew.a, fd) != ARCHIVE_OK)
		export_bad_archive();
	ew.len[0] = ew.top;
	ew.above[ew.depth++] = st;
	export_dir();
	if (archive_write_close(ew.a) != ARCHIVE_OK)
		export_bad_archive();
	archive_write_free(ew.a);
	if (fchmod(fd, 0644) || close(fd) || rename(export_tmp, out))
		ic_die(1, "cannot move the archive to %s: %s", out, strerror(errno));
	*export_tmp = '\0';
	printf("%s\n", out);
	return 0;
}
