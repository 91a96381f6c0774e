/* The plumbing every front shares, one copy so that they say it the same way. */
#ifndef IC_KIT_H
#define IC_KIT_H

#include <stddef.h>
#include <stdio.h>
#include <unistd.h>   /* optind: where the operands start after ic_options_parse */

/* The program's name in its messages; main sets it before anything can fail. */
extern const char *ic_prog;

/* fmt into err (errlen bytes); returns -1, for `return ic_fail(...)`. */
__attribute__((format(printf, 3, 4)))
int ic_fail(char *err, size_t errlen, const char *fmt, ...);

/* "PROG: MSG\n" on stderr (PROG: ic_prog); returns 2, bad usage's or input's status. */
__attribute__((format(printf, 1, 2)))
int ic_bad(const char *fmt, ...);

/* A program's options, a row each (--NAME or --NAME=V; a one-letter NAME is -N V
 * too), ended by a NULL name. --help (-h) prints the usage and needs no row. */
enum ic_opt_kind {
	IC_OPT_FLAG,     /* no value; *(int *)dest = 1 */
	IC_OPT_STRING,   /* *(const char **)dest = the value (the program judges an empty one) */
	IC_OPT_LONG,     /* *(long *)dest = a whole number min..max */
	IC_OPT_DOUBLE,   /* *(double *)dest = a number strictly between lo and hi (hi may be INFINITY) */
	IC_OPT_CALL,     /* call(dest, value): 0, or the exit status after its one line */
};
struct ic_option {
	const char *name;
	enum ic_opt_kind kind;
	void *dest;
	long min, max;                               /* IC_OPT_LONG */
	double lo, hi;                               /* IC_OPT_DOUBLE */
	int (*call)(void *dest, const char *value);  /* IC_OPT_CALL */
};

#define IC_OPTION_FLAG(n, d) { .name = (n), .kind = IC_OPT_FLAG, .dest = (d) }
#define IC_OPTION_STRING(n, d) { .name = (n), .kind = IC_OPT_STRING, .dest = (d) }
#define IC_OPTION_LONG(n, d, lo, hi) \
	{ .name = (n), .kind = IC_OPT_LONG, .dest = (d), .min = (lo), .max = (hi) }
#define IC_OPTION_DOUBLE(n, d, l, h) \
	{ .name = (n), .kind = IC_OPT_DOUBLE, .dest = (d), .lo = (l), .hi = (h) }
#define IC_OPTION_CALL(n, d, fn) { .name = (n), .kind = IC_OPT_CALL, .dest = (d), .call = (fn) }
#define IC_OPTIONS_END { .name = NULL }

/* argv's options by getopt_long, the operands from optind. -1 when all are taken;
 * else the exit status: 0 after --help, 2 after one line naming the bad option
 * and where help is (help: "--help", "./run.sh agree --help"). */
int ic_options_parse(int argc, char **argv, const struct ic_option *opts, const char *usage,
		     const char *help);

/* ic_bad's line, then exit with code. */
__attribute__((noreturn, format(printf, 2, 3)))
void ic_die(int code, const char *fmt, ...);

/* p, or if NULL "PROG: out of memory" and exit 1 (the fronts have nothing to
 * save). Wraps any allocation: malloc, strdup, open_memstream... */
void *ic_xalloc(void *p);

/* p reallocated to n (at least one) elements of size; exits as ic_xalloc. */
void *ic_xrealloc(void *p, size_t n, size_t size);

/* The rest of f, NUL-terminated, its length in *len (a memory stream, so a pipe
 * reads too). NULL with errno ENOMEM or EIO. */
char *ic_read_all(FILE *f, size_t *len);
/* The same of the file at path; NULL with fopen's errno when it cannot open. */
char *ic_read_path(const char *path, size_t *len);

/* mkdir -p path (0777 under the umask): 0 when it is a directory now, else -1. */
int ic_mkdir_p(const char *path);
/* rm -rf path without a shell: a directory after its contents, a symbolic link
 * removed, never followed; an entry already gone is no error. 0, or -1. */
int ic_rm_rf(const char *path);

/* A CSV line split at its commas in place, the line end dropped (no quoting: the
 * tables read back here have none). The number of fields, at most max. */
size_t ic_csv_split(char *line, char **field, size_t max);

/* s as a CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
void ic_csv_quoted(FILE *f, const char *s);

#endif /* IC_KIT_H */
