/* inlines: the inlined copies in a program's DWARF, counted per function, and priced on a run's
 * measured curve (./run.sh inlines; docs/inlines.md). All that can be refused is checked before
 * anything is printed or written: bad input is one line on stderr and exit 2. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "census.h"
#include "kit.h"

#define INL_EXIT_BAD_INPUT 2
#define INL_TOP_DEFAULT 20   /* a screen of rows */

static const char inl_usage[] =
	"Usage: ./run.sh inlines [options] BINARY\n"
	"\n"
	"The inlined copies in BINARY's DWARF (a program, shared library, vmlinux or\n"
	"its .debug file), one row per inline function (name, declaration file and\n"
	"line), largest total first: copies with code, copies nested in another\n"
	"inlined copy and copies with no bytes (both apart), bytes per copy (median)\n"
	"and in all. A copy's bytes are its address ranges, the code inlined into it\n"
	"included. With --function and a run, each function's N is placed on the\n"
	"run's measured curve.\n"
	"\n"
	"Options:\n"
	"  --debug FILE      BINARY's separate debug file (its build-id must match)\n"
	"  --debug-dir DIR   where debug files are found by build-id when BINARY has no\n"
	"                    DWARF of its own: DIR/.build-id/xx/yyyy.debug [" IC_DEBUG_DIR_DEFAULT "]\n"
	"  --top K|all       rows to print, largest total first [20; --csv all]\n"
	"  --function NAME   only this inline function (repeatable); priced on --results\n"
	"  --results DIR     a run of ./run.sh (run.conf, raw/*.json) to price on,\n"
	"                    checked even without --function\n"
	"                    (./run.sh inlines: results/latest when it exists)\n"
	"  --chart FILE.png  with --function and --results: the run's ratio curves with\n"
	"                    each function's N marked, FILE.png and FILE.svg\n"
	"  --csv             the table as CSV (no pricing)\n"
	"  --help            this text\n"
	"\n"
	"Exit status: 0 done; 2 bad input (one line, nothing written); 1 the chart\n"
	"could not be drawn.\n";

struct inl_opts {
	const char *binary, *debug, *debug_dir, *results, *chart;
	const char **functions;
	size_t nfunctions;
	size_t top;                /* 0: every row */
	int top_given;
	int csv;
};

/* --top N|all: the rows to show. */
static int inl_top(void *dest, const char *v)
{
	struct inl_opts *o = dest;
	char *end;

	o->top_given = 1;
	o->top = 0;
	if (!strcmp(v, "all"))
		return 0;
	o->top = strtoul(v, &end, 10);
	if (!*v || *end || v[0] == '-' || o->top == 0)
		return ic_bad("--top: '%s' is not a count of rows (1, 2, ... or all)", v);
	return 0;
}

/* --function NAME, once per function to price. */
static int inl_function(void *dest, const char *v)
{
	struct inl_opts *o = dest;

	if (!*v)
		return ic_bad("--function needs a name");
	o->functions[o->nfunctions++] = v;
	return 0;
}

/* "12,345" */
static const char *inl_count(char *buf, size_t cap, unsigned long long n)
{
	char digits[32];
	size_t len, w = 0;

	len = (size_t)snprintf(digits, sizeof(digits), "%llu", n);
	for (size_t i = 0; i < len && w + 2 < cap; i++) {
		if (i && (len - i) % 3 == 0)
			buf[w++] = ',';
		buf[w++] = digits[i];
	}
	buf[w] = '\0';
	return buf;
}

/* A median of whole bytes is whole or a half. */
static const char *inl_median(char *buf, size_t cap, double m, int csv)
{
	char whole[32];

	if (!isfinite(m))
		snprintf(buf, cap, "%s", csv ? "" : "—");
	else if (csv)
		snprintf(buf, cap, m == floor(m) ? "%.0f" : "%.1f", m);
	else
		snprintf(buf, cap, "%s%s", inl_count(whole, sizeof(whole), (unsigned long long)m),
			 m == floor(m) ? "" : ".5");
	return buf;
}

/* The directory every shown row's file is under (the table shows the paths
 * below it); "" when they share none but the root. */
static size_t inl_common_dir(struct ic_inline_fn *const *rows, size_t n, const char **dir)
{
	const char *first = NULL;
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		const char *f = rows[i]->file;
		size_t k = 0;

		if (!*f)
			continue;
		if (!first) {
			first = f;
			len = strlen(f);
			continue;
		}
		while (k < len && f[k] == first[k])
			k++;
		len = k;
	}
	while (len > 0 && first[len - 1] != '/')
		len--;
	*dir = first;
	return len > 1 ? len : 0;
}

static void inl_table_csv(struct ic_inline_fn *const *rows, size_t n)
{
	char m[32];

	puts("function,decl_file,decl_line,copies,nested,no_bytes,bytes_median,bytes_total");
	for (size_t i = 0; i < n; i++) {
		const struct ic_inline_fn *r = rows[i];

		/* Names and paths hold no comma or quote in practice; quote anyway. */
		printf("\"%s\",\"%s\",%d,%zu,%zu,%zu,%s,%llu\n", r->name, r->file, r->line, r->copies, r->nested,
		       r->no_bytes, inl_median(m, sizeof(m), r->median, 1), (unsigned long long)r->total);
	}
}

enum { INL_COLS = 7 };

static void inl_table_text(struct ic_inline_fn *const *rows, size_t n, size_t strip)
{
	static const char *const head[INL_COLS] = {
		"inline function", "declared at", "copies", "nested (apart)", "no bytes (apart)",
		"bytes per copy (median)", "total bytes",
	};
	char cell[INL_COLS][1024];
	int w[INL_COLS] = { 0 };

	/* Widths first, then the table; line 0 is the head. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i <= n; i++) {
			const struct ic_inline_fn *r = i ? rows[i - 1] : NULL;

			for (int c = 0; !r && c < INL_COLS; c++)
				snprintf(cell[c], sizeof(cell[c]), "%s", head[c]);
			if (r) {
				snprintf(cell[0], sizeof(cell[0]), "%s", *r->name ? r->name : "(no name)");
				snprintf(cell[1], sizeof(cell[1]), !*r->file ? "—" : r->line ? "%s:%d" : "%s",
					 r->file + (*r->file ? strip : 0), r->line);
				inl_count(cell[2], sizeof(cell[2]), r->copies);
				inl_count(cell[3], sizeof(cell[3]), r->nested);
				inl_count(cell[4], sizeof(cell[4]), r->no_bytes);
				inl_median(cell[5], sizeof(cell[5]), r->median, 0);
				inl_count(cell[6], sizeof(cell[6]), r->total);
			}
			for (int c = 0; c < INL_COLS; c++) {
				/* Width in characters: "—" is one, three bytes. */
				int len = (int)strlen(cell[c]) - (strstr(cell[c], "—") ? 2 : 0);

				if (!pass && len > w[c])
					w[c] = len;
				if (pass)
					printf(c < 2 ? "| %-*s " : "| %*s ", w[c] + (int)strlen(cell[c]) - len, cell[c]);
			}
			if (pass)
				puts("|");
			for (int c = 0; pass && !r && c < INL_COLS; c++)
				printf(c < 2 ? "|:%.*s" : "|%.*s:", w[c] + 1,
				       "------------------------------------------------------------------------"
				       "------------------------------------------------------------------------"
				       "------------------------------------------------------------------------");
			if (pass && !r)
				puts("|");
		}
}

static void inl_header(const struct inl_opts *o, const struct ic_debug_file *df, const struct ic_census *c,
		       size_t shown, size_t strip, const char *dir)
{
	char a[32], b[32], d[32], info[32];

	printf("# Inlined copies in %s\n\n", o->binary);
	printf("DWARF: %s", df->debug_path);
	if (df->debug_elf)
		printf(" (%s%s)", o->debug ? "the debug file given" : "its debug file, found by build-id",
		       df->build_id_checked ? ", build-id checked" : ", no build-id to check");
	printf(", %s of .debug_info in %s unit%s: %s inlined cop%s of %s function%s.\n",
	       ic_fmt_bytes(info, sizeof(info), (double)df->info_bytes), inl_count(a, sizeof(a), c->units),
	       c->units == 1 ? "" : "s", inl_count(b, sizeof(b), c->all_copies), c->all_copies == 1 ? "y" : "ies",
	       inl_count(d, sizeof(d), c->nfns), c->nfns == 1 ? "" : "s");
	puts("Bytes: a copy's address ranges in DWARF (DW_TAG_inlined_subroutine), the code of functions "
	     "inlined into it included. Copies nested in another inlined copy are counted apart (their "
	     "bytes are in their parent's), and so are copies DWARF gives no address range.");
	if (c->missing_split)
		printf("Missing: %zu split unit%s (-gsplit-dwarf) whose .dwo was not found (libdw looks in "
		       "each unit's compilation directory): its copies are not counted.\n", c->missing_split,
		       c->missing_split == 1 ? "" : "s");
	if (o->nfunctions)
		printf("The functions named (%zu rows).\n", shown);
	else if (shown < c->nfns)
		printf("The %zu largest by total bytes (--top K for more).\n", shown);
	if (strip)
		printf("Paths below %.*s\n", (int)strip, dir);
	putchar('\n');
}

/* The rows named by --function (none: all), in table order; 0, or -1 with
 * the first name that has no row in err. */
static int inl_select(const struct inl_opts *o, const struct ic_census *c, struct ic_inline_fn **rows,
		      size_t *n, char *err, size_t errlen)
{
	*n = 0;
	for (size_t i = 0; i < c->nfns; i++) {
		size_t f = 0;

		while (f < o->nfunctions && strcmp(c->fns[i]->name, o->functions[f]))
			f++;
		if (!o->nfunctions || f < o->nfunctions)
			rows[(*n)++] = c->fns[i];
	}
	for (size_t f = 0; f < o->nfunctions; f++) {
		size_t i = 0;

		while (i < *n && strcmp(rows[i]->name, o->functions[f]))
			i++;
		if (i == *n)
			return ic_fail(err, errlen, "no inlined copy of '%s' in %s's DWARF: give a name from its table "
				       "(./run.sh inlines %s)", o->functions[f], o->binary, o->binary);
	}
	return 0;
}

static int inl_run(const struct inl_opts *o)
{
	struct ic_debug_file df;
	struct ic_census census = { 0 };
	struct ic_price_run run = { 0 };
	struct ic_inline_fn **rows = NULL;
	size_t nrows, strip;
	const char *dir = NULL;
	char err[8192];
	int rc = INL_EXIT_BAD_INPUT;   /* until everything is checked: err says why */

	if (o->chart && ic_chart_check(o->chart, o->results, err, sizeof(err)))
		return ic_bad("%s", err);
	if (ic_debug_file_open(&df, o->binary, o->debug, o->debug_dir, err, sizeof(err)) ||
	    ic_census_read(&census, df.dw, err, sizeof(err)) ||
	    (!census.units && ic_fail(err, sizeof(err), "%s: its DWARF has no compilation unit: build it with -g",
				      df.debug_path)))
		goto out;
	rows = ic_xalloc(malloc((census.nfns + 1) * sizeof(*rows)));
	if (inl_select(o, &census, rows, &nrows, err, sizeof(err)) ||
	    (o->results && ic_price_run_load(&run, o->results, err, sizeof(err))))
		goto out;
	/* Everything is checked: only output from here. */
	rc = 0;
	if (o->top && nrows > o->top)
		nrows = o->top;
	if (o->csv) {
		if (census.missing_split)
			fprintf(stderr, "inlines: %zu split unit%s (-gsplit-dwarf) without its .dwo: its copies are missing from the table\n",
				census.missing_split, census.missing_split == 1 ? "" : "s");
		inl_table_csv(rows, nrows);
		goto out;
	}
	strip = inl_common_dir(rows, nrows, &dir);
	inl_header(o, &df, &census, nrows, strip, dir);
	if (!census.nfns)
		puts("No inlined copies: built without optimisation (-O0), or with nothing to inline.");
	else
		inl_table_text(rows, nrows, strip);
	if (!o->results) {
		if (o->nfunctions)
			puts("\nNo run to price these on: run ./run.sh first, or give --results DIR.");
		goto out;
	}
	if (!o->nfunctions) {
		printf("\nTo price a row on %s: --function NAME.\n", run.name);
		goto out;
	}
	putchar('\n');
	ic_price_run_line(stdout, &run);
	for (size_t i = 0; i < nrows; i++)
		ic_price_write(stdout, &run, rows[i]);
	puts("\nWhat a static count cannot know: how often each copy runs. A copy that never runs costs "
	     "space (bytes, cache lines it shares), not time; the measured sites all run, one after another.");
	fflush(stdout);
	if (o->chart) {
		if (ic_chart_draw(o->chart, o->binary, &run, (const struct ic_inline_fn *const *)rows, nrows, err,
				  sizeof(err))) {
			fprintf(stderr, "inlines: %s\n", err);
			rc = 1;
		} else {
			printf("\nChart: %s (and .svg)\n", o->chart);
		}
	}
out:
	if (rc == INL_EXIT_BAD_INPUT)
		ic_bad("%s", err);
	free(rows);
	if (o->results)
		ic_price_run_free(&run);
	ic_census_free(&census);
	ic_debug_file_close(&df);
	return rc;
}

int main(int argc, char **argv)
{
	const char *functions[argc];   /* --function NAME at most once per argument */
	struct inl_opts o = { .debug_dir = IC_DEBUG_DIR_DEFAULT, .functions = functions };
	const struct ic_option opts[] = {
		IC_OPTION_STRING("debug", &o.debug),
		IC_OPTION_STRING("debug-dir", &o.debug_dir),
		IC_OPTION_CALL("top", &o, inl_top),
		IC_OPTION_CALL("function", &o, inl_function),
		IC_OPTION_STRING("results", &o.results),
		IC_OPTION_STRING("chart", &o.chart),
		IC_OPTION_FLAG("csv", &o.csv),
		IC_OPTIONS_END,
	};
	int rc;

	ic_prog = "inlines";
	if ((rc = ic_options_parse(argc, argv, opts, inl_usage, "--help")) >= 0)
		return rc;
	if (optind >= argc)
		return ic_bad("give the BINARY whose inlined copies to count (see --help)");
	if (optind + 1 < argc)
		return ic_bad("one BINARY at a time: '%s' is one too many", argv[optind + 1]);
	o.binary = argv[optind];
	/* ./run.sh inlines prices the named functions on its newest run
	 * (IC_INLINES_RESULTS) unless one is given; --csv prices nothing. */
	if (o.nfunctions && !o.results && !o.csv && getenv("IC_INLINES_RESULTS") &&
	    !access(getenv("IC_INLINES_RESULTS"), F_OK))
		o.results = getenv("IC_INLINES_RESULTS");
	/* A screen of text; CSV is for programs, which want every row. */
	if (!o.top_given)
		o.top = o.csv ? 0 : INL_TOP_DEFAULT;
	if (o.csv && (o.results || o.chart))
		return ic_bad("--csv prints the table only: price in text, without --csv");
	if (o.chart && (!o.nfunctions || !o.results))
		return ic_bad("--chart marks the N of each --function NAME on a run's curve: give both, and --results DIR");
	return inl_run(&o);
}
