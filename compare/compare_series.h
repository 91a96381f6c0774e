/* compare's runs, settings and series: which settings vary within a run
 * (they join the series names), each run's ratios under their series, and
 * what is not in every run (cmd/compare.c writes the tables). */
#ifndef IC_COMPARE_SERIES_H
#define IC_COMPARE_SERIES_H

#include <stddef.h>

#include "run.h"

#define CMP_MAX_INPUTS 26   /* labelled A to Z */

enum cmp_attr {
	A_COMPILER, A_CFLAGS, A_LOCK, A_CODEGEN, A_PER_CALLER, A_BODY, A_LTO, A_COUNT
};
struct cmp_input {
	struct ic_run run;
	char *vals[A_COUNT];       /* its distinct values, " + " between */
	char **seen[A_COUNT];
	size_t nseen[A_COUNT];
	size_t nser, npts;         /* series and (series, N) with a ratio */
	const char *cpu;
	char *label;               /* CPU (directory), the settings that differ */
	char ctxbuf[IC_RESULTS_CONTEXT_MAX];
};

struct cmp_series {
	char *id, *pair;
	char *idval[A_COUNT];      /* the keyed settings' values */
	const struct ic_group *g[CMP_MAX_INPUTS];   /* its group in each run */
	size_t nin;                /* runs that have a ratio in it */
	unsigned long *n;          /* its N, as first seen */
	size_t *nat;               /* runs that have a ratio at n[i] */
	size_t nn;
	int compared;              /* some N in every run */
};

struct cmp {
	struct cmp_input in[CMP_MAX_INPUTS];
	size_t k;
	int keyed[A_COUNT];
	struct cmp_series *s;
	size_t ns;
	unsigned long nmin, nmax;
};

extern const char *const cmp_attr_name[A_COUNT];
extern const int cmp_attr_build[A_COUNT];

/* Notes the settings of run k's series (those with ratios first, as the
 * tables come); a setting with two values in a run joins every series name. */
void cmp_note_settings(struct cmp *c, size_t k);

/* Run k's ratios under their series (after every run's settings). */
void cmp_add_series(struct cmp *c, size_t k);

/* What is not in every run, a line each ("- ...\n"; NULL when all is);
 * marks the series compared (some N in every run). */
char *cmp_left_out(struct cmp *c);

/* A setting of a series: its build's, else what the run recorded (its
 * first process's context, else run.conf). */
const char *cmp_setting(struct cmp_input *in, const struct ic_group *g, int a);

/* A context member of the run's first process ("" when absent). */
const char *cmp_ctx(struct cmp_input *in, const char *key);

/* The ratio of series group g at N = n, NULL where it has none. */
const struct ic_ratio *cmp_ratio_at(const struct ic_group *g, unsigned long n);

/* How many runs have a ratio of series s at N = n. */
size_t cmp_nat(const struct cmp_series *s, unsigned long n);

int cmp_ulong(const void *pa, const void *pb);   /* qsort order of N */
__attribute__((format(printf, 2, 3)))
char *cmp_append(char *s, const char *fmt, ...); /* s, then more; frees s */
char cmp_letter(size_t k);                       /* run k's label: A, B, ... */
const char *cmp_dash(const char *s);             /* s, or "—" for "" */

#endif /* IC_COMPARE_SERIES_H */
