/* The census of inlined copies: every DW_TAG_inlined_subroutine in a
 * file's DWARF, counted per inline function. A function is its name, the
 * file and the line it is declared at: a `static inline` in a header,
 * compiled into many units, is one function, not one per unit.
 *
 * A copy's bytes are the sum of its address ranges (DW_AT_low_pc/high_pc
 * or DW_AT_ranges), the code of functions inlined into it included: that
 * is the code the call site holds because of it. Each copy falls in one of
 * three counts:
 *   copies    not inside another inlined copy, with bytes;
 *   nested    inside another inlined copy (its bytes are already in its
 *             parent's, so they count in no total of its own);
 *   no_bytes  not nested, and DWARF gives it no address range (its code
 *             was optimised away or merged into the caller's).
 * A nested copy is still code of its own in the binary: moved out of
 * line, the function would be called there too. So the places its code
 * sits are copies + nested_code, which is what pricing takes as N.
 */
#ifndef IC_CENSUS_H
#define IC_CENSUS_H

#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

struct ic_inline_fn {
	const char *name;          /* DW_AT_name, "" when it has none */
	const char *file;          /* declaration file, normalised: absolute, or relative
	                            * to the build's root where the compiler mapped
	                            * it (-fdebug-prefix-map); "" unknown */
	int line;                  /* declaration line, 0 unknown */
	size_t copies, nested, no_bytes;
	size_t nested_code;        /* nested copies with bytes */
	uint64_t total;            /* bytes of the copies */
	uint32_t *bytes;           /* each copy's bytes, ascending once read */
	uint32_t *nested_bytes;    /* each nested copy's with bytes */
	size_t cap, nested_cap;
	double median;             /* of bytes[]; NAN without copies */
	double median_all;         /* of bytes[] and nested_bytes[]; NAN without either */
};

struct ic_census {
	struct ic_inline_fn **fns; /* largest total first */
	size_t nfns;
	size_t units;              /* compilation (and partial) units read */
	size_t missing_split;      /* -gsplit-dwarf units whose .dwo was not found: not read */
	size_t all_copies;         /* every inlined_subroutine, nested and bare included */
	void *by_key, *files;      /* search trees while reading */
};

/* The places fn's code sits: copies + nested_code (pricing's N). */
size_t ic_inline_fn_places(const struct ic_inline_fn *fn);

/* Reads every unit of dw. Returns 0, or -1 with one line in err (malformed
 * DWARF, or memory ran out). */
int ic_census_read(struct ic_census *c, Dwarf *dw, char *err, size_t errlen);
void ic_census_free(struct ic_census *c);

#endif /* IC_CENSUS_H */
