/* common/atomic_file: commit puts the whole file under its name, abort and
 * every failure leave no temporary file and the old file untouched. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "check.h"

static char root[] = "/tmp/test_common_atomic_file.XXXXXX";

/* Entries of dir, dot files (the temporary ones) included. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	CHECK(d, "opendir %s: %s", dir, strerror(errno));
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* The file's content, or NULL when it does not exist. */
static char *slurp(const char *path)
{
	static char buf[1 << 17];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0, "write %s", path);
}

static void mkdir_in(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", root, name);
	CHECK(mkdir(out, 0777) == 0, "mkdir %s: %s", out, strerror(errno));
}

static int rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

static void test_commit(void)
{
	struct ic_atomic_file af;
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct stat st;

	mkdir_in(dir, sizeof(dir), "commit");
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	umask(022);
	CHECK(ic_atomic_open(&af, path, 0) == 0, "open: %s", af.err);
	/* Being written: only the temporary file, hidden, in the same directory. */
	CHECK(!slurp(path), "the final name exists before commit");
	CHECK(entries(dir) == 1, "%d entries while writing", entries(dir));
	CHECK(strncmp(af.tmp, dir, strlen(dir)) == 0 && af.tmp[strlen(dir) + 1] == '.',
	      "temporary name %s", af.tmp);
	setvbuf(af.f, NULL, _IOFBF, 1 << 20);
	fputs("first\n", af.f);
	CHECK(ic_atomic_commit(&af) == 0, "commit: %s", af.err);
	CHECK(slurp(path) && !strcmp(slurp(path), "first\n"), "content '%s'", slurp(path));
	CHECK(entries(dir) == 1, "%d entries after commit (temporary file left?)", entries(dir));
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644, "mode %o, umask 022",
	      (unsigned)(st.st_mode & 0777));

	/* Replacing, synced, with another umask. */
	umask(077);
	CHECK(ic_atomic_open(&af, path, IC_ATOMIC_SYNC) == 0, "open: %s", af.err);
	fputs("second\n", af.f);
	CHECK(!strcmp(slurp(path), "first\n"), "the old file changed while writing");
	CHECK(ic_atomic_commit(&af) == 0, "commit: %s", af.err);
	CHECK(!strcmp(slurp(path), "second\n"), "content '%s'", slurp(path));
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600, "mode %o, umask 077",
	      (unsigned)(st.st_mode & 0777));
	umask(022);

	/* A name without a directory: the temporary file is in the current one. */
	CHECK(chdir(dir) == 0, "chdir %s", dir);
	CHECK(ic_atomic_open(&af, "rel.txt", 0) == 0, "open: %s", af.err);
	CHECK(af.tmp[0] == '.' && !strchr(af.tmp, '/'), "temporary name %s", af.tmp);
	fputs("rel\n", af.f);
	CHECK(ic_atomic_commit(&af) == 0, "commit: %s", af.err);
	CHECK(!strcmp(slurp("rel.txt"), "rel\n"), "content '%s'", slurp("rel.txt"));
	CHECK(chdir("/") == 0, "chdir /");
	CHECK(entries(dir) == 2, "%d entries", entries(dir));
}

/* IC_ATOMIC_KEEP_SAME: the same bytes keep the old file (its inode, so
 * its mtime too) and leave no temporary one; other bytes replace it. */
static void test_keep_same(void)
{
	struct ic_atomic_file af;
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct stat before, after;

	mkdir_in(dir, sizeof(dir), "keep");
	snprintf(path, sizeof(path), "%s/gen.c", dir);
	put(path, "int x;\n");
	CHECK(stat(path, &before) == 0, "stat %s", path);
	for (int k = 0; k < 3; k++) {
		const char *text = (const char *[]){ "int x;\n", "int y;\n", "int y;\nint z;\n" }[k];

		CHECK(ic_atomic_open(&af, path, IC_ATOMIC_KEEP_SAME) == 0, "open: %s", af.err);
		fputs(text, af.f);
		CHECK(ic_atomic_commit(&af) == 0, "commit: %s", af.err);
		CHECK(!strcmp(slurp(path), text) && entries(dir) == 1, "content '%s', %d entries", slurp(path),
		      entries(dir));
		CHECK(stat(path, &after) == 0 && (after.st_ino == before.st_ino) == (k == 0),
		      "write %d: the file %s", k, k ? "was kept though it changed" : "was replaced by the same bytes");
		before = after;
	}
}

/* A set of files (summarize's way): finish all, then rename all; abort after
 * a rename leaves the renamed file alone. */
static void test_set(void)
{
	struct ic_atomic_file a, b;
	char dir[PATH_MAX], pa[PATH_MAX + 16], pb[PATH_MAX + 16];

	mkdir_in(dir, sizeof(dir), "set");
	snprintf(pa, sizeof(pa), "%s/a", dir);
	snprintf(pb, sizeof(pb), "%s/b", dir);
	CHECK(ic_atomic_open(&a, pa, IC_ATOMIC_SYNC) == 0, "open a: %s", a.err);
	CHECK(ic_atomic_open(&b, pb, IC_ATOMIC_SYNC) == 0, "open b: %s", b.err);
	fputs("A", a.f);
	fputs("B", b.f);
	CHECK(ic_atomic_finish(&a) == 0 && ic_atomic_finish(&b) == 0, "finish: %s%s", a.err, b.err);
	CHECK(!slurp(pa) && !slurp(pb) && entries(dir) == 2, "finished files appeared early");
	CHECK(ic_atomic_rename(&a) == 0, "rename a: %s", a.err);
	ic_atomic_abort(&a);
	ic_atomic_abort(&b);
	CHECK(slurp(pa) && !strcmp(slurp(pa), "A"), "a after abort: '%s'", slurp(pa));
	CHECK(!slurp(pb), "b appeared although aborted");
	CHECK(entries(dir) == 1, "%d entries (temporary file left?)", entries(dir));
}

static void test_abort(void)
{
	struct ic_atomic_file af;
	char dir[PATH_MAX], path[PATH_MAX + 16];

	mkdir_in(dir, sizeof(dir), "abort");
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	CHECK(ic_atomic_open(&af, path, 0) == 0, "open: %s", af.err);
	fputs("never\n", af.f);
	errno = EDOM;
	ic_atomic_abort(&af);
	CHECK(errno == EDOM, "abort changed errno");
	CHECK(entries(dir) == 0, "%d entries after abort", entries(dir));
	ic_atomic_abort(&af);   /* twice is harmless */

	/* Over an existing file: it stays as it was. */
	put(path, "old\n");
	CHECK(ic_atomic_open(&af, path, 0) == 0, "open: %s", af.err);
	fputs("new\n", af.f);
	ic_atomic_abort(&af);
	CHECK(!strcmp(slurp(path), "old\n"), "old file changed: '%s'", slurp(path));
	CHECK(entries(dir) == 1, "%d entries after abort", entries(dir));
}

static void test_failures(void)
{
	struct ic_atomic_file af;
	static char buf[1 << 20];
	char dir[PATH_MAX], path[PATH_MAX + 16], big[1 << 16];
	struct rlimit old, small;

	mkdir_in(dir, sizeof(dir), "fail");
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	put(path, "old\n");

	/* The directory is missing. */
	snprintf(path, sizeof(path), "%s/missing/out.txt", dir);
	CHECK(ic_atomic_open(&af, path, 0) == -1 && errno == ENOENT, "open in a missing directory");
	CHECK(!strncmp(af.err, "cannot create ", 14) && strstr(af.err, "/missing/.out.txt.tmp.XXXXXX: "),
	      "message '%s'", af.err);
	CHECK(!af.f, "a FILE after a failure");
	ic_atomic_abort(&af);   /* harmless after a failure */

	/* The directory is not writable (root may write anyway: skip then). */
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	if (geteuid() != 0) {
		CHECK(chmod(dir, 0555) == 0, "chmod %s", dir);
		CHECK(ic_atomic_open(&af, path, 0) == -1 && errno == EACCES, "open in a read-only directory");
		CHECK(chmod(dir, 0755) == 0, "chmod %s", dir);
		CHECK(!strcmp(slurp(path), "old\n") && entries(dir) == 1, "read-only directory changed");
	}

	/* Writing fails (a file size limit: EFBIG, the ENOSPC of this test). */
	CHECK(ic_atomic_open(&af, path, 0) == 0, "open: %s", af.err);
	/* A buffer larger than the data: all is written, and fails, at commit's
	 * flush, whose errno comes through. */
	setvbuf(af.f, buf, _IOFBF, sizeof(buf));
	memset(big, 'x', sizeof(big));
	CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0, "getrlimit");
	small = old;
	small.rlim_cur = 4096;
	signal(SIGXFSZ, SIG_IGN);
	CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0, "setrlimit");
	fwrite(big, 1, sizeof(big), af.f);
	CHECK(ic_atomic_commit(&af) == -1 && errno == EFBIG, "commit past the size limit: %s", af.err);
	CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0, "setrlimit");
	CHECK(!strncmp(af.err, "cannot write ", 13), "message '%s'", af.err);
	CHECK(!strcmp(slurp(path), "old\n"), "old file changed: '%.20s'", slurp(path));
	CHECK(entries(dir) == 1, "%d entries (temporary file left?)", entries(dir));

	/* The same failing in fwrite, before commit: stdio keeps only the error
	 * flag, so the errno is EIO then. */
	CHECK(ic_atomic_open(&af, path, 0) == 0, "open: %s", af.err);
	CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0, "setrlimit");
	fwrite(big, 1, sizeof(big), af.f);
	CHECK(ic_atomic_commit(&af) == -1 && (errno == EIO || errno == EFBIG),
	      "commit after a failed fwrite: %s", af.err);
	CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0, "setrlimit");
	CHECK(!strcmp(slurp(path), "old\n"), "old file changed: '%.20s'", slurp(path));
	CHECK(entries(dir) == 1, "%d entries (temporary file left?)", entries(dir));

	/* The rename fails: the final name is a non-empty directory. */
	snprintf(path, sizeof(path), "%s/sub", dir);
	CHECK(mkdir(path, 0777) == 0, "mkdir %s", path);
	snprintf(path, sizeof(path), "%s/sub/keep", dir);
	put(path, "keep\n");
	snprintf(path, sizeof(path), "%s/sub", dir);
	CHECK(ic_atomic_open(&af, path, 0) == 0, "open: %s", af.err);
	fputs("x\n", af.f);
	CHECK(ic_atomic_commit(&af) == -1, "rename over a directory succeeded");
	CHECK(!strncmp(af.err, "cannot rename to ", 17), "message '%s'", af.err);
	snprintf(path, sizeof(path), "%s/sub/keep", dir);
	CHECK(slurp(path) && !strcmp(slurp(path), "keep\n"), "directory's file changed");
	CHECK(entries(dir) == 2, "%d entries (temporary file left?)", entries(dir));
}

static void cleanup(void)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/fail", root);
	chmod(dir, 0755);   /* if a check failed while it was read-only */
	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
	CHECK(mkdtemp(root), "mkdtemp: %s", strerror(errno));
	atexit(cleanup);
	test_commit();
	test_set();
	test_keep_same();
	test_abort();
	test_failures();
	puts("test_common_atomic_file: ok");
	return 0;
}
