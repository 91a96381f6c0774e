/* What gen's files share: the arguments of one run and the calls between
 * them. gen.c says what gen writes and writes the files; gen_options.c
 * reads and checks the arguments; gen_site.c writes the sites' code. gen's
 * sources are gen.c and gen_*.c (body_check.sh compiles them so).
 */
#ifndef GEN_H
#define GEN_H

#include <stdint.h>
#include <stdio.h>

#include "point_name.h"

/* Filler constants: indices 2^29 .. 2^30-1 of the marks' bijection
 * (gen_filler_const). */
#define GEN_FILLER_BASE UINT32_C(0x20000000)
#define GEN_FILLER_CONSTS 0x20000000u

enum gen_part { GEN_PART_ALL, GEN_PART_SITES, GEN_PART_POINT };

struct gen_args {
	struct ic_point_id id;
	uint32_t per_file;
	uint32_t per_caller;        /* chain: sites per caller function */
	uint32_t filler_adds;       /* constants per site's filler block; 0 without --filler */
	const char *dir;
	enum gen_part part;
	uint32_t series_sites;      /* the series' largest N: the sites compiled */
	char prefix[192];           /* the point's symbols: ic_pt_... */
	char sprefix[192];          /* the series' site functions: ic_sr_... */
	const char *cur;            /* the prefix of the functions being written */
	char *body_path;            /* --body: FILE's absolute path, or NULL */
	char body_name[IC_BODY_NAME_MAX + 1];
};

/* gen_options.c: the arguments, every one checked; bad input is one line
 * on stderr naming the option (ic_die, common/kit.h) and exit 2, before
 * anything is written. */
void gen_parse_args(int argc, char **argv, struct gen_args *a);

/* gen_site.c: the sites' code. */
/* What one pass over the point's N sites adds to acc (mod 2^64). */
uint64_t gen_acc_per_pass(const struct gen_args *a);
/* One function of sites [k0, k1), clone's copies before it: chain's caller
 * <a->cur>_caller_<j>, or scatter's site function <a->cur>_site_<j> (j = k0,
 * one site). */
void gen_function(FILE *f, const struct gen_args *a, uint32_t j, uint32_t k0, uint32_t k1);

#endif /* GEN_H */
