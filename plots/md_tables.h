/* The markdown tables of summary.md (md_tables.c). */
#ifndef IC_MD_TABLES_H
#define IC_MD_TABLES_H

#include <stdio.h>

#include "attribution.h"
#include "results.h"

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

#endif /* IC_MD_TABLES_H */
