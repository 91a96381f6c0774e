/* inlines' library (cmd/inlines.c is its program): a binary's DWARF opened
 * and its census of inlined copies (census.c), each priced on a measured run
 * (price.c), and their chart (plots/inlines_chart.c). */
#ifndef IC_CENSUS_H
#define IC_CENSUS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "run.h"

/* census.c: a binary's DWARF, its own or its separate debug file's (given, or named by its
 * build-id under DEBUG_DIR/.build-id/), opened with libdw (with libdwfl for an object file such
 * as a kernel module, whose DWARF needs its relocations applied). Every refusal is one line
 * saying what to do; the caller exits 2 on it (bad input, nothing done). */
/* Where separate debug files live on Debian (-dbg and -dbgsym packages). */
#define IC_DEBUG_DIR_DEFAULT "/usr/lib/debug"

struct ic_debug_file {
	int fd, debug_fd;          /* -1 when not open */
	Elf *elf, *debug_elf;      /* debug_elf NULL: the DWARF is the binary's own */
	Dwarf *dw;
	Dwfl *dwfl;                /* an object file's: relocates its DWARF */
	char debug_path[4096];     /* the file the DWARF comes from */
	uint64_t info_bytes;       /* .debug_info, uncompressed */
	int build_id_checked;      /* a separate debug file's build-id was compared */
};

/* Opens path's DWARF; debug (or NULL) is its debug file, debug_dir where to
 * look one up by build-id when path has no DWARF of its own. Returns 0, or -1
 * with one line (no newline) in err; call ic_debug_file_close either way. */
int ic_debug_file_open(struct ic_debug_file *f, const char *path, const char *debug,
		       const char *debug_dir, char *err, size_t errlen);
void ic_debug_file_close(struct ic_debug_file *f);

/* The bytes of elf's .debug_info once uncompressed, 0 when there is none with
 * content: a stripped file keeps none, a -dbg file's sections of code are
 * NOBITS but its .debug_info is there. zdebug: .zdebug_info counts too. */
uint64_t ic_debug_info_bytes(Elf *elf, int zdebug);

/* census.c, then: the census of inlined copies, every DW_TAG_inlined_subroutine in a file's DWARF,
 * counted per inline function: its name, declaration file and line (a `static inline` in a
 * header, compiled into many units, is one).
 *
 * A copy's bytes are the sum of its address ranges (DW_AT_low_pc/high_pc or DW_AT_ranges), the
 * code inlined into it included: the code the call site holds because of it. Each copy falls in
 * one of three counts:
 *   copies    not inside another inlined copy, with bytes;
 *   nested    inside another inlined copy (its bytes are in its parent's, so they count in no
 *             total of its own);
 *   no_bytes  not nested, no address range (its code optimised away or merged into the caller's).
 * A nested copy is still code of its own: moved out of line, the function would be called there
 * too. So its code sits in copies + nested_code places, pricing's N. */
struct ic_inline_fn {
	const char *name;          /* DW_AT_name, "" when it has none */
	const char *file;          /* declaration file, normalised: absolute, or relative to
	                            * the build's root if mapped (-fdebug-prefix-map); "" unknown */
	int line;                  /* declaration line, 0 unknown */
	size_t copies, nested, no_bytes;
	size_t nested_code;        /* nested copies with bytes */
	uint64_t total;            /* bytes of the copies */
	uint32_t *bytes;           /* each copy's bytes, then (once read) nested_bytes[] too, sorted */
	uint32_t *nested_bytes;
	double median;             /* of the copies' bytes; NAN without copies */
	double median_all;         /* of theirs and the nested copies'; NAN without either */
};

struct ic_census {
	struct ic_inline_fn **fns; /* largest total first */
	size_t nfns;
	size_t units;              /* compilation (and partial) units read */
	size_t missing_split;      /* -gsplit-dwarf units whose .dwo was not found: not read */
	size_t all_copies;         /* every inlined_subroutine, nested and bare included */
	void *by_key, *files;      /* search trees while reading */
};

/* The places fn's code sits (pricing's N). */
static inline size_t ic_inline_fn_places(const struct ic_inline_fn *fn)
{
	return fn->copies + fn->nested_code;
}

/* Reads every unit of dw. Returns 0, or -1 with one line in err (malformed
 * DWARF); exits when memory runs out. */
int ic_census_read(struct ic_census *c, Dwarf *dw, char *err, size_t errlen);
void ic_census_free(struct ic_census *c);

/* price.c: a census row priced on a measured run, its copy count N placed on each series of a
 * results directory, analysed as summarize does (engine/run.h, with its compare/baseline). */
struct ic_price_run {
	char name[4200];                  /* dir, and the run it links to if it is a link */
	struct ic_run run;                /* run.conf and the processes, analysed */
	const char *compare, *baseline;   /* the forms its analysis compared */
};

/* Loads and analyses DIR (a run: run.conf, and a JSON per process in raw/).
 * Returns 0, or -1 with one line in err (not a run, unreadable, nothing to
 * price on); call ic_price_run_free either way. */
int ic_price_run_load(struct ic_price_run *run, const char *dir, char *err, size_t errlen);
void ic_price_run_free(struct ic_price_run *run);

/* One line naming the run: its directory, ratio, CPU and processes. */
void ic_price_run_line(FILE *f, const struct ic_price_run *run);

/* Where fn's N sits on every series of the run, and what its copies' size
 * says next to the measured site's. */
void ic_price_write(FILE *f, const struct ic_price_run *run, const struct ic_inline_fn *fn);

/* A series' verdict in a few words: "crossover bracket (4, 8): inline
 * ahead below it", "extern ahead wherever resolved", ... */
const char *ic_price_verdict(char *buf, size_t cap, const struct ic_price_run *run, const struct ic_group *g);

/* plots/inlines_chart.c: the chart of priced copies, each series' measured ratio against N with
 * its interval, band and crossover bracket, a line at each function's N (plots/inlines.gp draws
 * it, PNG and SVG beside it). png must end in ".png"; ic_chart_check returns 0, or -1 with one
 * line in err naming what is wrong with the path (bad input). */
int ic_chart_check(const char *png, const char *results_dir, char *err, size_t errlen);

/* Writes png and its SVG, each renamed into place once whole: binary's
 * functions fns marked on run's curves. Returns 0, or -1 with one line in
 * err (gnuplot missing or failed; nothing is left). */
int ic_chart_draw(const char *png, const char *binary, const struct ic_price_run *run,
		  const struct ic_inline_fn *const *fns, size_t nfns, char *err, size_t errlen);

#endif /* IC_CENSUS_H */
