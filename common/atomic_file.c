#define _GNU_SOURCE
#include "atomic_file.h"
#include "kit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Fail with errno e: message, temporary file closed and removed. */
static int ic_atomic_fail(struct ic_atomic_file *af, int e, const char *what, const char *name)
{
	snprintf(af->err, sizeof af->err, "cannot %s %s: %s", what, name, strerror(e));
	ic_atomic_abort(af);
	errno = e;
	return -1;
}

int ic_atomic_open(struct ic_atomic_file *af, const char *path, unsigned flags)
{
	const char *slash = strrchr(path, '/');
	size_t len = strlen(path);
	mode_t mask;
	int fd, n;

	*af = (struct ic_atomic_file){ .flags = flags };
	/* In the final name's directory: rename() is atomic only within a file
	 * system; the dot keeps it out of globs and ls. When it fits, path does. */
	n = snprintf(af->tmp, sizeof af->tmp, "%.*s.%s.tmp.XXXXXX", slash ? (int)(slash - path + 1) : 0,
		     path, slash ? slash + 1 : path);
	if (n < 0 || (size_t)n >= sizeof af->tmp) {
		af->tmp[0] = '\0';
		return ic_atomic_fail(af, ENAMETOOLONG, "create", path);
	}
	memcpy(af->path, path, len + 1);
	if ((fd = mkstemp(af->tmp)) < 0) {
		/* Nothing to remove; name the template (mkstemp may change its X's). */
		memcpy(af->tmp + n - 6, "XXXXXX", 6);
		snprintf(af->err, sizeof af->err, "cannot create %s: %s", af->tmp, strerror(errno));
		af->tmp[0] = '\0';
		return -1;
	}
	/* mkstemp creates mode 0600; give the file the mode fopen would. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0 || !(af->f = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		return ic_atomic_fail(af, e, "open", af->tmp);
	}
	return 0;
}

int ic_atomic_finish(struct ic_atomic_file *af)
{
	int e = 0;

	if (!af->f)
		return ic_atomic_fail(af, EBADF, "write", af->tmp[0] ? af->tmp : af->path);
	/* fclose alone would flush, but a write error seen earlier only shows in
	 * ferror; errno may be stale then, hence EIO. */
	errno = 0;
	if (fflush(af->f) != 0 || ferror(af->f))
		e = errno ? errno : EIO;
	else if ((af->flags & IC_ATOMIC_SYNC) && fsync(fileno(af->f)) != 0)
		e = errno;
	if (fclose(af->f) != 0 && !e)
		e = errno ? errno : EIO;
	af->f = NULL;
	return e ? ic_atomic_fail(af, e, "write", af->tmp) : 0;
}

/* Whether files a and b hold the same bytes (0 on any doubt). */
static int ic_atomic_same(const char *a, const char *b)
{
	size_t na = 0, nb = 0;
	char *ta = ic_read_path(a, &na), *tb = ta ? ic_read_path(b, &nb) : NULL;
	int same = ta && tb && na == nb && memcmp(ta, tb, na) == 0;

	free(ta);
	free(tb);
	return same;
}

int ic_atomic_rename(struct ic_atomic_file *af)
{
	if (af->f || !af->tmp[0])
		return ic_atomic_fail(af, EBADF, "rename to", af->path);
	if ((af->flags & IC_ATOMIC_KEEP_SAME) && ic_atomic_same(af->tmp, af->path))
		unlink(af->tmp);
	else if (rename(af->tmp, af->path) != 0)
		return ic_atomic_fail(af, errno, "rename to", af->path);
	af->tmp[0] = '\0';   /* gone, or the final file now: abort must not remove it */
	return 0;
}

int ic_atomic_commit(struct ic_atomic_file *af)
{
	return ic_atomic_finish(af) ? -1 : ic_atomic_rename(af);
}

void ic_atomic_abort(struct ic_atomic_file *af)
{
	int e = errno;

	if (af->f)
		fclose(af->f);
	af->f = NULL;
	if (af->tmp[0])
		unlink(af->tmp);
	af->tmp[0] = '\0';
	errno = e;
}
