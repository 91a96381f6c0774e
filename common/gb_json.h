#ifndef IC_GB_JSON_H
#define IC_GB_JSON_H
/* Load a Google Benchmark JSON file: the one loader of result files. NaN and Infinity (not JSON)
 * outside strings read as null (not measured). NULL with a one-line reason in err on failure. */
#include <jansson.h>
#include <stddef.h>

json_t *ic_gb_json_load(const char *path, char *err, size_t errlen);
/* The same from len bytes in memory (an archive member), named name in err. */
json_t *ic_gb_json_loadb(const char *text, size_t len, const char *name, char *err,
			 size_t errlen);

/* Nanoseconds in a library time unit ("ns", "us", "ms", "s"); NaN for any other or NULL. */
double ic_gb_unit_ns(const char *unit);

#endif
