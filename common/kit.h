/* The plumbing every front shares: an error line into a buffer, a usage
 * line on stderr, allocations that exit when memory runs out, mkdir -p and
 * a CSV field. One copy here, so the fronts say it the same way. */
#ifndef IC_KIT_H
#define IC_KIT_H

#include <stddef.h>
#include <stdio.h>

/* The program's name in its messages ("compare: out of memory"); main sets
 * it before anything can fail. */
extern const char *ic_prog;

/* fmt into err (errlen bytes); returns -1, for `return ic_fail(...)`. */
__attribute__((format(printf, 3, 4)))
int ic_fail(char *err, size_t errlen, const char *fmt, ...);

/* "PROG: MSG\n" on stderr (PROG is ic_prog); returns 2, the exit status
 * of bad usage or input. */
__attribute__((format(printf, 1, 2)))
int ic_bad(const char *fmt, ...);

/* The end of every program's getopt switch (optstring starting ':',
 * option 'h' for --help): --help prints usage and gives 0; a missing value
 * or an unknown option is one line naming it and where help is (help:
 * "--help", or "./run.sh agree --help") and gives 2. Call it for every
 * case the program does not handle itself, and return what it gives. */
int ic_opt_end(int c, char *const *argv, const char *usage, const char *help);

/* "PROG: MSG\n" on stderr (PROG is ic_prog), then exit with code: for the
 * programs that stop at the first error. */
__attribute__((noreturn, format(printf, 2, 3)))
void ic_die(int code, const char *fmt, ...);

/* p itself; when it is NULL (its allocation failed), "PROG: out of
 * memory" on stderr and exit 1: for the fronts, which have nothing to
 * save. Wraps any allocation: malloc, strdup, open_memstream... */
void *ic_xalloc(void *p);

/* p reallocated to n elements of size (at least one, so that NULL always
 * means out of memory); exits as ic_xalloc. */
void *ic_xrealloc(void *p, size_t n, size_t size);

/* mkdir -p path (mode 0777 under the umask): 0 when it is a directory
 * now, else -1 with errno set, for the caller's own message. */
int ic_mkdir_p(const char *path);

/* A CSV line split at its commas in place (the line end dropped; no
 * quoting, as the tables read back here have none): the fields in field,
 * their number returned (at most max). */
size_t ic_csv_split(char *line, char **field, size_t max);

/* s as a CSV field (RFC 4180): as it is, or in double quotes with each
 * quote doubled when it holds a comma, a quote or a line break. */
void ic_csv_quoted(FILE *f, const char *s);

#endif /* IC_KIT_H */
