/* What codesize's files share: the points of one run, the objects read
 * once each, and the calls between the files. codesize.c reads the
 * arguments; codesize_elf.c the objects (libelf); codesize_scan.c accounts
 * a point's code from what its pass reaches; codesize_prove.c proves the
 * forms; codesize_csv.c writes the CSV; codesize_util.c holds what they
 * all use. Calls run one way: codesize.c to the parts, the parts to
 * codesize_elf.c and codesize_util.c, which call no other part.
 */
#ifndef CODESIZE_UTIL_H
#define CODESIZE_UTIL_H

#include <gelf.h>
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

struct cs_run {
	struct cs_point *pts;
	size_t npts, cap;
	const char *out;
	const char *objdump;
	const char *body;           /* --body NAME, or NULL */
};

/* Errors: one line on stderr (ic_prog, which main sets), then exit with
 * the code (common/kit.h). */
#define cs_fail ic_die
/* p grown to hold need items of size bytes (*cap items); exits when out of memory. */
void *cs_grow(void *p, size_t *cap, size_t need, size_t size);
/* Calls each site makes: two queue operations, or one body function. */
unsigned cs_ops_per_site(const struct cs_point *pt);

/* Objects, read once each: a series' objects serve every point of the
 * series. Per section what the accounting needs: its size, whether it is
 * code, the function it holds, and its relocations. */
struct cs_reloc {
	const char *name;      /* the target function's name (NULL: unknown) */
	uint32_t shndx;        /* target section in the same object; 0: none */
	uint64_t value;        /* clone: the target's offset in its section */
	int global;            /* an undefined global symbol: found by name */
};

struct cs_sec {
	uint64_t size;
	int code;              /* SHF_EXECINSTR and SHF_ALLOC */
	const char *fn;        /* code: the function it holds */
	struct cs_reloc *rel;
	size_t nrel;
};

struct cs_obj {
	char *path;
	Elf *elf;
	size_t shnum;
	struct cs_sec *secs;
	int lock_free;         /* objdump proved it (the nolock forms) */
};

/* codesize_elf.c: the object at path, read on first use; its index. */
uint32_t cs_load(const char *path);
/* The object of an index cs_load returned (valid until the next cs_load). */
struct cs_obj *cs_obj_at(uint32_t i);

/* codesize_scan.c: footprint, queue calls, site functions, clone targets. */
void cs_scan_point(struct cs_point *pt);

/* codesize_prove.c: a point whose objects are not what its form says is
 * refused (exit 3). */
void cs_prove_objects(const struct cs_point *pt, const char *objdump);
void cs_prove(struct cs_point *pt);

/* codesize_csv.c: the CSV to run->out (stdout when NULL or "-"). */
void cs_write(const struct cs_run *run);

#endif /* CODESIZE_UTIL_H */
