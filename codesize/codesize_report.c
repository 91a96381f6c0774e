/* codesize_report: ./run.sh codesize's report from codesize's CSV (usage: --help, in main). Per
 * series (op, layout, order, filler; in the CSV's order) a table of every form's footprint at
 * each N (hint's inlined sites beside it) and bytes per site, then where the inline footprint
 * passes the L1i and the L2 (common/cache_pass.h's rule): "between N = A and B", the last N
 * within and the first past (--machine: this machine's, from hwloc as the bench reads them; a
 * size of 0 or none is unknown). Values are the CSV's text; a form or N the CSV lacks is an
 * empty cell. Bad usage or CSV: one line on stderr, exit 2. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_pass.h"
#include "kit.h"
#include "point_name.h"
#include "topology.h"

#define REPORT_EXIT_USAGE 2

enum { COL_FORM, COL_OP, COL_LAYOUT, COL_ORDER, COL_SITES, COL_FOOT, COL_SLOPE, COL_INLINED,
       COL_FILLER, COL_COUNT };
static const char *const report_cols[COL_COUNT] = {
	"form", "op", "layout", "order", "sites", "footprint_bytes", "code_bytes_per_site",
	"inlined_sites", "filler",
};

struct report_row {
	char *line;                 /* the CSV's line, split in place */
	const char *field[COL_COUNT];   /* its text; filler "0" when the column is absent */
	unsigned long sites;
	size_t series;              /* index into the series */
};

struct report_series {
	char name[256];             /* op/layout/order[, B B filler per site] */
	unsigned long *sites;       /* its N, ascending */
	size_t nsites;
};

/* Decimal digits only, as codesize writes them. */
static unsigned long report_number(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno)
		ic_die(REPORT_EXIT_USAGE, "%s: '%s' is not a number", what, s);
	return v;
}

/* The rows of the CSV at path, and the series they make. */
static void report_read(const char *path, struct report_row **rows, size_t *nrows,
			struct report_series **series, size_t *nseries)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *field[64];
	size_t cap = 0, n;
	int col[COL_COUNT];

	if (!f)
		ic_die(REPORT_EXIT_USAGE, "%s: %s", path, strerror(errno));
	if (getline(&line, &cap, f) < 0)
		ic_die(REPORT_EXIT_USAGE, "%s: empty, not codesize's CSV", path);
	n = ic_csv_split(line, field, 64);
	for (int c = 0; c < COL_COUNT; c++) {
		col[c] = -1;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(field[i], report_cols[c]))
				col[c] = (int)i;
		if (col[c] < 0 && c != COL_FILLER)
			ic_die(REPORT_EXIT_USAGE, "%s: no column %s, not codesize's CSV", path, report_cols[c]);
	}
	*rows = NULL;
	*series = NULL;
	*nrows = *nseries = 0;
	while (getline(&line, &cap, f) >= 0) {
		struct report_row r = { 0 };
		struct report_series *se;
		unsigned long filler;
		size_t s, k;

		r.line = ic_xalloc(strdup(line));
		n = ic_csv_split(r.line, field, 64);
		for (int c = 0; c < COL_COUNT; c++) {
			if (col[c] >= 0 && (size_t)col[c] >= n)
				ic_die(REPORT_EXIT_USAGE, "%s: row %zu has %zu fields", path, *nrows + 2, n);
			r.field[c] = col[c] < 0 ? "0" : field[col[c]];
		}
		r.sites = report_number(r.field[COL_SITES], "sites");
		filler = report_number(r.field[COL_FILLER], "filler");
		/* The name in the next slot, a new series when no other has it. */
		*series = ic_xrealloc(*series, *nseries + 1, sizeof **series);
		se = memset(&(*series)[*nseries], 0, sizeof **series);
		snprintf(se->name, sizeof se->name, filler ? "%s/%s/%s, %lu B filler per site" : "%s/%s/%s",
			 r.field[COL_OP], r.field[COL_LAYOUT], r.field[COL_ORDER], filler);
		for (s = 0; strcmp((*series)[s].name, se->name); s++)
			;
		*nseries += s == *nseries;
		se = &(*series)[s];
		/* Kept ascending: inserted in place. */
		for (k = 0; k < se->nsites && se->sites[k] < r.sites; k++)
			;
		if (k == se->nsites || se->sites[k] != r.sites) {
			se->sites = ic_xrealloc(se->sites, se->nsites + 1, sizeof *se->sites);
			memmove(se->sites + k + 1, se->sites + k, (se->nsites - k) * sizeof *se->sites);
			se->sites[k] = r.sites;
			se->nsites++;
		}
		r.series = s;
		*rows = ic_xrealloc(*rows, *nrows + 1, sizeof **rows);
		(*rows)[(*nrows)++] = r;
	}
	free(line);
	fclose(f);
}

/* Column c of form's row in series s at N = sites (any N: sites 0), the
 * last such row as the CSV has them; "" when there is none. */
static const char *report_cell(const struct report_row *rows, size_t nrows, size_t s,
			       const char *form, unsigned long sites, int c)
{
	const char *v = "";

	for (size_t i = 0; i < nrows; i++)
		if (rows[i].series == s && !strcmp(rows[i].field[COL_FORM], form) &&
		    (!sites || rows[i].sites == sites))
			v = rows[i].field[c];
	return v;
}

/* Where the inline footprint passes a cache of kib KiB (0: unknown). */
static void report_pass(const struct report_row *rows, size_t nrows, size_t s,
			const struct report_series *se, const char *name, unsigned long kib)
{
	struct ic_footprint *fp;
	double size = (double)kib * 1024;
	long i;

	if (kib == 0) {
		printf("\n%s size unknown (hwloc)\n", name);
		return;
	}
	fp = ic_xrealloc(NULL, se->nsites, sizeof *fp);
	for (size_t k = 0; k < se->nsites; k++) {
		const char *v = report_cell(rows, nrows, s, ic_form_names[IC_FORM_INLINE], se->sites[k], COL_FOOT);
		char *end;

		fp[k].sites = se->sites[k];
		fp[k].bytes = strtod(v, &end);
		if (end == v || *end)
			fp[k].bytes = NAN;
	}
	i = ic_cache_pass(fp, se->nsites, size, NULL);
	if (i >= 0)
		printf("\nThe inline footprint passes this machine's %s (%lu KiB, hwloc) between N = %lu "
		       "and %lu.", name, kib, i ? se->sites[i - 1] : 0, se->sites[i]);
	else
		printf("\nThe inline footprint stays within the %s (%lu KiB) up to N = %lu.", name, kib,
		       se->sites[se->nsites - 1]);
	free(fp);
}

static void report_series(const struct report_row *rows, size_t nrows, size_t s,
			  const struct report_series *se, unsigned long l1i_kib, unsigned long l2_kib)
{
	printf("\n%s: code bytes of all N call sites (footprint)\n\n", se->name);
	puts("| N | inline | hint (sites inlined) | extern | clone | inline_nolock | extern_nolock | "
	     "mark alone |");
	puts("|---:|---:|---:|---:|---:|---:|---:|---:|");
	for (size_t k = 0; k < se->nsites; k++) {
		unsigned long n = se->sites[k];

		printf("| %lu", n);
		for (size_t f = 0; f < IC_FORM_COUNT; f++) {
			printf(" | %s", report_cell(rows, nrows, s, ic_form_names[f], n, COL_FOOT));
			if (!strcmp(ic_form_names[f], "hint"))
				printf(" (%s)", report_cell(rows, nrows, s, "hint", n, COL_INLINED));
		}
		puts(" |");
	}
	printf("| bytes per site (slope over N)");
	for (size_t f = 0; f < IC_FORM_COUNT; f++)
		printf(" | %s", report_cell(rows, nrows, s, ic_form_names[f], 0, COL_SLOPE));
	puts(" |");
	report_pass(rows, nrows, s, se, "L1i", l1i_kib);
	report_pass(rows, nrows, s, se, "L2", l2_kib);
	putchar('\n');
}

static unsigned long report_bytes[2];   /* the L1i's and the L2's size; 0 unknown */
static int report_machine;     /* --machine given since the last --l1i or --l2 */

/* --machine: this machine's sizes, as hwloc says them (and the bench reads them). */
static void report_use_machine(void)
{
	struct ic_topo_info t = { .l1i_size = -1, .l2_size = -1 };

	if (ic_topo_open() == 0 && ic_topo_describe(&t) == 0) {
		report_bytes[0] = t.l1i_size > 0 ? t.l1i_size : 0;
		report_bytes[1] = t.l2_size > 0 ? t.l2_size : 0;
	}
	report_machine = 0;
}

/* --l1i or --l2 BYTES into dest, after a --machine given before it: the last given wins. */
static int report_size(void *dest, const char *v)
{
	if (report_machine)
		report_use_machine();
	*(unsigned long *)dest = report_number(v, "--l1i or --l2");
	return 0;
}

int main(int argc, char **argv)
{
	static const char usage[] =
		"usage: codesize_report [--machine | --l1i BYTES --l2 BYTES] CSV\n"
		"Prints, per series of codesize's CSV, every form's code bytes at each N and per\n"
		"site, and where the inline footprint passes the L1i and the L2 (--machine:\n"
		"this machine's, from hwloc; BYTES: the cache's size; 0 or none: unknown).\n";
	const struct ic_option opts[] = {
		IC_OPTION_FLAG("machine", &report_machine),
		IC_OPTION_CALL("l1i", &report_bytes[0], report_size),
		IC_OPTION_CALL("l2", &report_bytes[1], report_size),
		IC_OPTIONS_END,
	};
	int rc;
	struct report_row *rows;
	struct report_series *series;
	size_t nrows, nseries;

	ic_prog = "codesize_report";
	if ((rc = ic_options_parse(argc, argv, opts, usage, "--help")) >= 0)
		return rc;
	if (optind >= argc)
		return ic_bad("no CSV given (see --help)");
	if (optind + 1 < argc)
		return ic_bad("%s: one CSV only (see --help)", argv[optind + 1]);
	if (report_machine)
		report_use_machine();
	report_read(argv[optind], &rows, &nrows, &series, &nseries);
	/* Whole KiB, as hwloc reports them. */
	for (size_t s = 0; s < nseries; s++)
		report_series(rows, nrows, s, &series[s], report_bytes[0] / 1024, report_bytes[1] / 1024);
	if (fflush(stdout) != 0)
		ic_die(REPORT_EXIT_USAGE, "cannot write stdout: %s", strerror(errno));
	for (size_t i = 0; i < nrows; i++)
		free(rows[i].line);
	for (size_t s = 0; s < nseries; s++)
		free(series[s].sites);
	free(rows);
	free(series);
	return 0;
}
