/* What codesize's two files share: the points of one run and the objects
 * read once each. codesize.c reads the arguments, proves the forms and
 * writes the CSV; codesize_scan.c reads the objects (libelf) and accounts
 * a point's code from what its pass reaches. Calls run one way: codesize.c
 * to codesize_scan.c.
 */
#ifndef CODESIZE_H
#define CODESIZE_H

#include <stddef.h>
#include <stdint.h>

#include "kit.h"
#include "point_name.h"

#define CS_EXIT_USAGE 2
#define CS_EXIT_PROOF 3   /* the objects are not what the point's form says */

/* A function a clone site calls: object, section, offset. */
struct cs_target {
	uint32_t obj;
	uint32_t shndx;
	uint64_t value;
};

struct cs_point {
	struct ic_point_id id;
	char prefix[192];
	char sprefix[192];          /* its series' site functions (point_name.h) */
	const char **objs;
	size_t nobjs, cap;
	uint64_t footprint;
	uint64_t queue_calls;
	uint64_t functions;
	struct cs_target *targets;  /* clone: every call to a copy */
	size_t ntargets, tcap;
	char wrong[256];            /* the first call the form does not allow */
	char first_call[128];       /* the first queue call seen, for inline's refusal */
};

/* Errors: one line on stderr (ic_prog, which main sets), then exit with
 * the code (common/kit.h). */
#define cs_fail ic_die
/* p grown to hold need items of size bytes (*cap items); exits when out of memory. */
void *cs_grow(void *p, size_t *cap, size_t need, size_t size);

/* codesize_scan.c: the objects, read once each (a series' objects serve
 * every point of the series). 1 the first time path's object is asked
 * for its proof of no lock (the nolock forms), 0 after. */
int cs_lock_proof_first(const char *path);
/* A point's footprint, queue calls, site functions and clone targets. */
void cs_scan_point(struct cs_point *pt);

#endif /* CODESIZE_H */
