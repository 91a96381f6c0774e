/* Reading sites_bench's Google Benchmark JSON into results.h, and its first file's context. */
#ifndef IC_LOAD_H
#define IC_LOAD_H

#include <stddef.h>

#include "results.h"

/* Adds a file's repetitions (every file before the analysis); on bad input -1 with one
 * line (no newline) in err, res then fit only for freeing. */
int ic_results_load(struct ic_results *res, const char *path, char *err, size_t errlen);
/* The same from text (an archive member): name for its path, mtime its write (s; NAN unknown). */
int ic_results_load_text(struct ic_results *res, const char *name, const char *text, size_t len,
			 double mtime, char *err, size_t errlen);

/* The first file's context member as text ("" absent): a string trimmed, else printed into buf. */
#define IC_RESULTS_CONTEXT_MAX 256   /* buf size that holds any printed number or CPU name */
const char *ic_results_context(const struct ic_results *res, enum ic_ctx key, char *buf,
			       size_t cap);
/* The same as a number of bytes, count, etc.; NAN when absent or not numeric. */
double ic_results_context_num(const struct ic_results *res, enum ic_ctx key);
/* The same for a key that enum ic_ctx does not name (machine_* keys). */
const char *ic_results_context_named(const struct ic_results *res, const char *key, char *buf,
				     size_t cap);

/* The repeat in a process file's name (plan/points.c: [x<step>_|t<trial>_][b<build>_]
 * r<repeat>_v<variant>_p<process>.json); 0 for another name. */
int ic_results_name_repeat(const char *name);

/* A file's own context member as a string; NULL when absent or not a string. */
const char *ic_file_context_string(const struct ic_file *file, enum ic_ctx key);

#endif /* IC_LOAD_H */
