/* Benchmark results as summarize sees them: Google Benchmark JSON files
 * from sites_bench, grouped into points (one per build, form, op, layout,
 * order, filler, sites, threads, mode), with per-point statistics,
 * compare/baseline ratios per N and a crossover per series.
 *
 * A build is what one process's context says it ran: compiler, cflags,
 * lto, body and lock ("" when absent, as in older runs). Files
 * of different builds hold the same benchmark names, so the build is part
 * of every point and series: they are never pooled, and a ratio, being
 * formed within a process, is always within one build.
 *
 * Each input file is one process of one layout variant (its context's
 * layout_variant; files without one count as variant 0). A process
 * contributes the median of its repetitions; every interval is the nested t
 * interval of stats.h over layout variants (over processes when only one
 * variant was run), so it holds the spread between layouts and processes,
 * not only between repetitions.
 *
 * A series with filler F > 0 (every site also runs F bytes of other code)
 * is a whole program: every estimate, ratio and verdict is of the gross
 * time, filler included.
 */
#ifndef IC_RESULTS_H
#define IC_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "crossover.h"

/* What one repetition carries; NAN where the entry had no such member. */
enum ic_field {
	IC_F_NS,       /* real_time per iteration (one call site), in ns */
	IC_F_IPS,      /* items_per_second */
	IC_F_CYCLES,   /* cycles_per_op */
	IC_F_L1I,      /* l1i_miss_per_op */
	IC_F_CODE,     /* code_bytes_per_site */
	IC_F_FOOT,     /* footprint_bytes */
	IC_F_INSTR,    /* instr_per_op */
	IC_F_BRANCH,   /* branch_miss_per_op */
	IC_F_ITLB,     /* itlb_miss_per_op */
	IC_F_COUNT
};

struct ic_rep {
	double v[IC_F_COUNT];
	unsigned unit;             /* the file (process) it came from */
	int variant;               /* that file's layout variant */
};

/* The context keys that make a build, in the order of the CSV columns. */
enum ic_build_key {
	IC_B_COMPILER,   /* "GNU 12.2.0" */
	IC_B_CFLAGS,     /* "-O2 -g" */
	IC_B_BODY,       /* "queue", or the user's own body ("kref") */
	IC_B_LOCK,       /* "tas" | "ticket" */
	IC_B_LTO,        /* "on" | "off" */
	IC_B_CODEGEN,    /* "user", "vectorised", "kernel-ret", ...: how calls are built */
	IC_B_COUNT
};

/* The context key (and CSV column) of each enum ic_build_key. */
extern const char *const ic_build_key_name[IC_B_COUNT];

struct ic_build {
	char *v[IC_B_COUNT];       /* "" when the context lacks the key */
	size_t nfiles;             /* processes that ran it */
};

struct ic_file {
	char *path;
	json_t *doc;               /* owns everything below */
	json_t *context;           /* may be NULL */
	const char *counter_source;   /* "papi" | "sim" | "none" | "" when absent */
	char layout[96];           /* "<layout_seed>/<layout_variant>", "/0" when absent */
	int variant;               /* its layout's number, in order of first appearance */
	size_t build;              /* index in ic_results.builds */
	double mtime;              /* when it was written (s): the processes' time order */
};

/* A process's share of one point: the median of its repetitions' time
 * and their cv. */
struct ic_unit {
	unsigned unit;
	int variant;
	double med, cv;
};

struct ic_point {
	char key[512];             /* sites/<form>/.../<mode>[/filler:<F>]/threads:<T> */
	char form[64], op[64], layout[64], order[64], mode[64];
	size_t build;              /* index in ic_results.builds; part of the point */
	unsigned long sites, threads;
	unsigned long filler;      /* bytes of other code per site; 0 without */
	struct ic_rep *reps;
	size_t nreps, capreps;
	const struct ic_file *file;   /* first file holding this point that counted
	                               * (counter_source not "none"), else the first */
	int source_mixed;          /* counting files with different counter_source */
	size_t nerrors;            /* repetitions Google Benchmark skipped */
	const char *error;         /* the first skip message */

	/* Filled by ic_results_analyse. */
	double med[IC_F_COUNT];    /* median over repetitions that have it; for
	                            * IC_F_NS the nested estimate: the geometric
	                            * mean over variants of the process medians */
	double ci_lo, ci_hi;       /* 95% interval of med[IC_F_NS]; NAN with < 2 draws */
	double cv;                 /* of IC_F_NS within a process, median over processes */
	size_t nunits, nvariants;  /* processes and layout variants that count */
	struct ic_unit *units;     /* per-process medians, ascending by unit */
};

/* A ratio at one N of one series, from the processes that ran every form
 * in it: compare/baseline, any pair, or a ratio of ratios. */
struct ic_ratio {
	const struct ic_point *cmp, *base;   /* numerator and denominator (of a
	                                      * ratio of ratios: the two outer ones) */
	unsigned long sites;
	double ratio;              /* geometric mean over variants of each process's
	                            * ratio of the forms' medians */
	double lo, hi;             /* its 95% interval (this N alone) */
	double band_lo, band_hi;   /* family-wise 95% band over the series' N
	                            * (Holm's step-down): what decides the side */
	double p;                  /* two-sided, from the t statistic of the log
	                            * ratio; this N alone (uncorrected) */
	double p_holm;             /* p adjusted by Holm over the series' N */
	int resolved;              /* Holm resolves this N (band excludes 1) */
	double df;                 /* degrees of freedom of the interval */
	double se;                 /* standard error of the log ratio */
	size_t nunits, nvariants;
	int noisy;                 /* the band is wider than +-noise_ci */
	enum ic_point_side side;   /* from the band */
};

struct ic_attribution;
struct ic_states;

/* One series: every form of one build, op, layout, order, filler, threads
 * and mode. */
struct ic_group {
	size_t build;
	const char *op, *layout, *order, *mode;
	unsigned long threads, filler;
	struct ic_point **points;  /* sorted like the whole points list */
	size_t npoints;
	struct ic_ratio *ratios;   /* ascending sites */
	size_t nratios;
	struct ic_crossover xo;
	double code_cmp, code_base;   /* median code_bytes_per_site over the series */
	struct ic_attribution *attr;  /* attribution.h; NULL only on failure */
	struct ic_states *states;     /* states.h; NULL only on failure */
};

struct ic_analysis_opts {
	const char *compare, *baseline;
	double noise_ci;           /* flag a ratio whose band half-width exceeds this */
	double family;             /* family-wise error of each series' band (0.05) */
	double planted;            /* NAN unless --planted */
};

struct ic_results {
	struct ic_file **files;    /* in command-line order */
	size_t nfiles;
	struct ic_point **points;  /* by key while loading, by series once analysed */
	size_t npoints, cappoints;
	size_t n_aggregates, n_other, n_errors;
	size_t nlayouts;           /* distinct ic_file.layout */
	struct ic_build *builds;   /* in order of first appearance */
	size_t nbuilds;
	int64_t next_family;       /* family_index offset for the next file */

	struct ic_group *groups;
	size_t ngroups;
	struct ic_analysis_opts opts;
};

void ic_results_init(struct ic_results *res);
void ic_results_free(struct ic_results *res);

/* load.c. Reads one Google Benchmark JSON file and adds its repetitions; all files
 * are loaded before ic_results_analyse. On bad input returns -1 with one
 * line (no newline) in err naming the problem; res is then fit only for
 * ic_results_free. */
int ic_results_load(struct ic_results *res, const char *path, char *err, size_t errlen);
/* The same from a file's text in memory (an archive member): name stands
 * for its path, mtime is when it was written (s; NAN when unknown). */
int ic_results_load_text(struct ic_results *res, const char *name, const char *text, size_t len,
			 double mtime, char *err, size_t errlen);

/* results.c. Sorts points, computes statistics, ratios and crossovers. -1 (with err)
 * when there is no sites/ benchmark at all or memory runs out. */
int ic_results_analyse(struct ic_results *res, const struct ic_analysis_opts *opts,
		       char *err, size_t errlen);

/* A context member of the first file as text ("" when absent): a string
 * member itself, a number or boolean printed into buf. */
#define IC_RESULTS_CONTEXT_MAX 256   /* buf size that holds any printed number or CPU name */
const char *ic_results_context(const struct ic_results *res, const char *key, char *buf,
			       size_t cap);
/* The same as a number of bytes, count, etc.; NAN when absent or not numeric. */
double ic_results_context_num(const struct ic_results *res, const char *key);

/* The ratio num/den of one series at every N where both forms have a time,
 * with the machinery of compare/baseline: per process the ratio of the two
 * medians, the nested t interval over variants, and the Holm band
 * over the series' N (at opts->family), its noisy flag and side. *out is
 * malloc'd (NULL with *n = 0 when no N has both). Returns 0, or -1 when
 * memory runs out. */
int ic_results_ratio_series(const struct ic_group *g, const char *num, const char *den,
			    const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n);

/* The same from the processes (units, file indices) with keep[unit] != 0
 * only: e.g. the processes of one state (states.h). */
int ic_results_ratio_series_keep(const struct ic_group *g, const char *num, const char *den,
				 const unsigned char *keep, const struct ic_analysis_opts *opts,
				 struct ic_ratio **out, size_t *n);

/* The ratio of ratios (a/a0)/(b/b0) per N, formed within each process that
 * ran all four forms, with the same interval and band: e.g. how much more
 * the lock costs inlined, (inline/inline_nolock)/(extern/extern_nolock). */
int ic_results_interaction_series(const struct ic_group *g, const char *a, const char *a0,
				  const char *b, const char *b0,
				  const struct ic_analysis_opts *opts, struct ic_ratio **out,
				  size_t *n);

/* The first measured N at which `form`'s footprint in the series exceeds
 * `size` bytes, 0 when none does; *at_about (may be NULL) the N where the
 * footprint per site there reaches `size`. */
unsigned long ic_group_cache_pass(const struct ic_group *gr, const char *form, double size,
				  double *at_about);

/* The counter source of a point: its file's, "mixed" when its files disagree. */
const char *ic_point_source(const struct ic_point *p);

/* The point of form at sites in a series, NULL when not measured. */
const struct ic_point *ic_group_point(const struct ic_group *g, const char *form,
				      unsigned long sites);

#endif /* IC_RESULTS_H */
