/* The JSON context of a sites_bench process: every key of
 * common/context_keys.def, written through its table, then the machine's
 * state (machine_* keys). */
#ifndef IC_SITES_CONTEXT_H
#define IC_SITES_CONTEXT_H

#include <stddef.h>

#include "site.h"
#include "sites_options.h"
#include "topology.h"

/* What main knows that the context records. */
struct ic_context_in {
	const char *counter_source, *counter_note;
	const struct ic_topo_info *topo;
	const struct ic_opts *opts;              /* threads, plant, process, ... */
	const struct ic_point *const *points;    /* the build's; points[0] names the body */
	size_t n_points;
};

/* The process's start (process_start): call first thing in main. */
void ic_context_begin(void);

/* Every key that is known before the run, for the library to write. */
void ic_context_write(const struct ic_context_in *in);

/* The process's end (process_end): call when the last benchmark has run. */
void ic_context_end(void);

/* Rewrite the --benchmark_out JSON at path: process_end into its context
 * and, with strip, the library's /iterations:N out of the names. 0, or -1
 * with a one-line reason in why. */
int ic_context_finish(const char *path, int strip, char *why, size_t why_len);

#endif
