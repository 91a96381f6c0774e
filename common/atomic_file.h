/* Write a file atomically: under a temporary name in the final name's
 * directory (so rename() replaces it in one step), renamed into place only
 * once every byte is written. A reader sees the old file or the whole new
 * one, never half of one; on any failure the temporary file is removed and
 * the old file stays as it was.
 *
 *   struct ic_atomic_file af;
 *   if (ic_atomic_open(&af, "out/data.csv", 0) != 0)
 *           die("%s", af.err);
 *   fprintf(af.f, ...);
 *   if (ic_atomic_commit(&af) != 0)
 *           die("%s", af.err);
 *
 * Several files that belong together (summarize's outputs): ic_atomic_finish
 * each, then ic_atomic_rename each, ic_atomic_abort the rest on a failure.
 *
 * Every function that can fail returns 0 or -1. On -1, errno says why, err
 * holds "cannot <step> <name>: <strerror>" for the caller to print after its
 * own "prog: ", and the temporary file is already closed and removed (abort
 * after a failure is harmless). Not for use while another thread creates
 * files: ic_atomic_open reads the umask by setting it.
 */
#ifndef IC_ATOMIC_FILE_H
#define IC_ATOMIC_FILE_H

#include <limits.h>
#include <stdio.h>

/* ic_atomic_finish: fsync the data before closing, for outputs that must
 * survive a crash once renamed. */
#define IC_ATOMIC_SYNC 1u
/* ic_atomic_rename: when the final file already holds the same bytes, keep
 * it (and its mtime) and drop the new one, so a build regenerating its
 * sources recompiles only those that changed. */
#define IC_ATOMIC_KEEP_SAME 2u

struct ic_atomic_file {
	FILE *f;                /* write here; NULL once finished or aborted */
	char path[PATH_MAX];    /* final name */
	char tmp[PATH_MAX];     /* temporary name; "" when there is none (any more) */
	unsigned flags;
	char err[PATH_MAX + 96];
};

/* Create path's temporary file (dir/.name.tmp.XXXXXX) with mode 0666 less
 * the umask, as fopen would, and open af->f on it. The caller may setvbuf
 * af->f before writing; for a larger buffer, with a buffer of its own that
 * lives until finish or abort (glibc ignores the size when buf is NULL). */
int ic_atomic_open(struct ic_atomic_file *af, const char *path, unsigned flags);

/* Flush, check for write errors, fsync if IC_ATOMIC_SYNC, close. The file
 * keeps its temporary name until ic_atomic_rename. errno is the flush's;
 * EIO when an earlier write failed (stdio keeps only its error flag). */
int ic_atomic_finish(struct ic_atomic_file *af);

/* Rename a finished file to its final name. */
int ic_atomic_rename(struct ic_atomic_file *af);

/* ic_atomic_finish, then ic_atomic_rename. */
int ic_atomic_commit(struct ic_atomic_file *af);

/* Close and remove the temporary file; the final name is not touched.
 * Keeps errno. */
void ic_atomic_abort(struct ic_atomic_file *af);

#endif
