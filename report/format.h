/* Text helpers summarize's writers share (summary.md's, chart_data.c), so that summary.md and a
 * chart label say a thing the same way. The ones that fill a buffer return it. */
#ifndef IC_FORMAT_H
#define IC_FORMAT_H

#include <stddef.h>

#include "analysis.h"

/* printf onto the end of buf, its length *len: the text is cut where it
 * would overflow, *len at most cap - 1. */
__attribute__((format(printf, 4, 5)))
void ic_fmt_add(char *buf, size_t cap, size_t *len, const char *fmt, ...);

/* 1 B, 32 KiB, 1 MiB, 1.5 MiB; "unknown" when not finite. */
const char *ic_fmt_bytes(char *buf, size_t cap, double bytes);

/* The series as a title, "512 B filler per site; 1 thread, private queue",
 * after "op, L layout, O order" when the run has several bodies and, first,
 * the build (ic_fmt_build) when it has several builds. */
const char *ic_fmt_series(char *buf, size_t cap, const struct ic_analysis *an,
			  const struct ic_group *gr);

/* A build as a series label, naming only the keys that differ between the
 * run's builds: "Clang 14.0.6, -Os; kref" (compiler, cflags, "LTO on",
 * then the body, then "ticket lock"); "" with one build. */
const char *ic_fmt_build(char *buf, size_t cap, const struct ic_results *res, size_t build);

/* Every key a build has: "compiler GNU 12.2.0; flags -O2 -g; LTO off;
 * body queue; lock tas", absent keys left out; "" when it has none. */
const char *ic_fmt_build_keys(char *buf, size_t cap, const struct ic_build *b);

/* "1..256, 1024, 4096..16384": the N of the ratios on `side`; "" for none. */
const char *ic_fmt_runs(char *buf, size_t cap, const struct ic_ratio *ratios, size_t n,
			enum ic_point_side side);

/* x to 3 significant digits: "1.70", "37.4", "1250". */
const char *ic_fmt_sig3(char *buf, size_t cap, double x);

/* The N of r[0..n-1] with in[i] set as runs of neighbours, joined by ", "
 * and the last by `last`: "1..16, 256 and 4096"; "" when none. */
const char *ic_fmt_nset(char *buf, size_t cap, const struct ic_ratio *r, const unsigned char *in,
			size_t n, const char *last);

/* A crossover in words[xo->verdict] (enum ic_verdict order; each page has its
 * own), a printf format given the bracket's ends or, for a WINS, the winner. */
const char *ic_fmt_crossover(char *buf, size_t cap, const struct ic_crossover *xo,
			     const struct ic_analysis_opts *opts, const char *const words[5]);

/* The form on side s: compare, baseline, or `unresolved` (may be NULL). */
const char *ic_fmt_side(const struct ic_analysis *an, enum ic_point_side s, const char *unresolved);

#endif /* IC_FORMAT_H */
