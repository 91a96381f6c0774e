/* A file written atomically: under a temporary name in its directory, renamed into place once
 * whole, so a reader sees the old file or the whole new one; on failure the old one stays. Open,
 * write to af.f, commit; files that belong together: finish each, then rename each, abort the rest
 * on a failure. On failure (-1) errno says why, err "cannot <step> <name>: <strerror>", and the
 * temporary file is gone. Not while another thread creates files: ic_atomic_open reads the umask by
 * setting it. */
#ifndef IC_ATOMIC_FILE_H
#define IC_ATOMIC_FILE_H

#include <limits.h>
#include <stdio.h>

/* ic_atomic_finish: fsync, for outputs that must survive a crash once renamed. */
#define IC_ATOMIC_SYNC 1u
/* ic_atomic_rename: keep the final file (and mtime) when it holds the same bytes,
 * so a build regenerating its sources recompiles only those that changed. */
#define IC_ATOMIC_KEEP_SAME 2u

struct ic_atomic_file {
	FILE *f;                /* write here; NULL once finished or aborted */
	char path[PATH_MAX];    /* final name */
	char tmp[PATH_MAX];     /* temporary name; "" when there is none (any more) */
	unsigned flags;
	char err[PATH_MAX + 96];
};

/* Create path's temporary file (dir/.name.tmp.XXXXXX) with fopen's mode. To setvbuf af->f larger,
 * give a buffer living until finish or abort (glibc ignores the size when buf is NULL). */
int ic_atomic_open(struct ic_atomic_file *af, const char *path, unsigned flags);

/* Flush, check for write errors, fsync if IC_ATOMIC_SYNC, close; EIO when an
 * earlier write failed (stdio keeps only its error flag). */
int ic_atomic_finish(struct ic_atomic_file *af);

/* Rename a finished file to its final name; commit: finish, then rename. */
int ic_atomic_rename(struct ic_atomic_file *af);
int ic_atomic_commit(struct ic_atomic_file *af);

/* Close and remove the temporary file (harmless after a failure). Keeps errno. */
void ic_atomic_abort(struct ic_atomic_file *af);

#endif
