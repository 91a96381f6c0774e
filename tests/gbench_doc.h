/* Hand-made Google Benchmark processes for the analysis tests, loaded as
 * if read from their files. */
#ifndef IC_TEST_GBENCH_DOC_H
#define IC_TEST_GBENCH_DOC_H

#include <jansson.h>
#include <stddef.h>

#include "results.h"

/* A benchmark and its time, one repetition. */
struct gbench_entry {
	const char *name;
	double ns;
};

/* doc (freed here) into res as the file name, written at mtime (s since
 * the epoch; NAN when unknown). */
void gbench_doc_load(struct ic_results *res, const char *name, json_t *doc, double mtime);

/* A process of layout variant v (layout seed 7, no counters): one
 * repetition of each of the n entries, so each one's median is its ns.
 * Into res as p<k>.json written at k s, k counting the calls from 0. */
void gbench_process_load(struct ic_results *res, int variant, const struct gbench_entry *e,
			 size_t n);

#endif
