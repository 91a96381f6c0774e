/* The markdown tables of summary.md (md_tables.c). */
#ifndef IC_MD_TABLES_H
#define IC_MD_TABLES_H

#include <stdio.h>

#include "attribution.h"
#include "results.h"
#include "states.h"

/* The counters a table can show, in column order. */
#define IC_MD_NCTR 5
struct ic_md_ctr {
	enum ic_field field;
	const char *name;
};
extern const struct ic_md_ctr ic_md_ctr[IC_MD_NCTR];

/* The per-N lines of an attribution side by side, with interval and band. */
void ic_md_attr_per_n(FILE *f, const struct ic_attribution *a);

/* How many (N, form) rows the counters table of a would have. */
size_t ic_md_counter_rows(const struct ic_attribution *a);

/* The counters of the lines' forms at the lines' N, the columns with
 * show[c] (ic_md_ctr order), labelled simulated unless papi. */
void ic_md_counters(FILE *f, const struct ic_group *g, const struct ic_attribution *a,
		    const int *show, int papi);

/* The evidence of a series: per N both times with their intervals, the
 * ratio, its band, p, noisy and the L1i misses. */
void ic_md_evidence(FILE *f, const struct ic_results *res, const struct ic_group *gr);
/* Whether any point of the series has L1i misses. */
int ic_md_any_l1i(const struct ic_group *gr);
/* A filler series' net times per N; returns how many are flagged *. */
size_t ic_md_net(FILE *f, const struct ic_results *res, const struct ic_group *gr);
/* With two states, each state's own ratio, band and faster form per N. */
void ic_md_states(FILE *f, const struct ic_results *res, const struct ic_states *st);
/* Per series the SD of the log ratio at each level of the design. */
void ic_md_variance(FILE *f, const struct ic_results *res);
/* With --planted: a series' ratios against the planted one (want); adds
 * to the counts of points that resolve it and contain it, and appends each
 * point's measured extra to extra[*k]. */
void ic_md_calibration(FILE *f, const struct ic_group *gr, double want, size_t *detected,
		       size_t *contains, double *extra, size_t *k);

#endif /* IC_MD_TABLES_H */
