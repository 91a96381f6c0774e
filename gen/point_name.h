/* The names of a point's parts and the symbol prefix built from them.
 *
 * gen writes a point's symbols under this prefix; codesize finds the site
 * functions of a point by it; gen/points.cmake spells the same rule in CMake
 * (keep the two in step). The names themselves come from point_names.def. The prefix keeps every point's symbols apart, so
 * many points link into one program.
 */
#ifndef IC_POINT_NAME_H
#define IC_POINT_NAME_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Enums and name arrays, from the one table (point_names.def). */
#include "point_names.def"
#define IC_NAME_STRING(e, n, h) #n,
#define IC_FORM_ENUM(e, n, h) IC_FORM_##e,
#define IC_OP_ENUM(e, n, h) IC_OP_##e,
#define IC_LAYOUT_ENUM(e, n, h) IC_LAYOUT_##e,
#define IC_ORDER_ENUM(e, n, h) IC_ORDER_##e,
enum ic_form { IC_FORMS(IC_FORM_ENUM) IC_FORM_COUNT };
enum ic_op { IC_OPS(IC_OP_ENUM) IC_OP_COUNT };
enum ic_layout { IC_LAYOUTS(IC_LAYOUT_ENUM) IC_LAYOUT_COUNT };
enum ic_order { IC_ORDERS(IC_ORDER_ENUM) IC_ORDER_COUNT };
static const char *const ic_form_names[IC_FORM_COUNT] = { IC_FORMS(IC_NAME_STRING) };
static const char *const ic_op_names[IC_OP_COUNT] = { IC_OPS(IC_NAME_STRING) };
static const char *const ic_layout_names[IC_LAYOUT_COUNT] = { IC_LAYOUTS(IC_NAME_STRING) };
static const char *const ic_order_names[IC_ORDER_COUNT] = { IC_ORDERS(IC_NAME_STRING) };

/* Most sites a point may have (issue 3). */
#define IC_POINT_SITES_MAX 1000000u

/* Every op, mixed included, makes two queue calls per site. */
#define IC_POINT_OPS_PER_SITE 2u

/* Most filler bytes per site (gen --filler): 64 KiB, twice a 32 KiB L1i, so
 * one site can push the code out of it on its own. */
#define IC_POINT_FILLER_MAX 65536u

/* Index of s in names[0..count), or -1. */
static inline int ic_name_find(const char *const *names, int count, const char *s)
{
	for (int i = 0; i < count; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

/* One point: what gen is asked to write. seed matters only for order random
 * and is 0 otherwise, so a seq point has one name whatever seed was given. */
struct ic_point_id {
	enum ic_form form;
	enum ic_op op;
	enum ic_layout layout;
	enum ic_order order;
	uint32_t seed;
	uint32_t sites;
	uint32_t filler;           /* bytes of filler before each site; 0 = none */
};

/* ic_pt_<form>_<op>_<layout>_<order>[_s<seed>]_<sites>[_f<filler>];
 * returns snprintf's count. */
static inline int ic_point_prefix(char *buf, size_t len, const struct ic_point_id *p)
{
	char seed[16] = "", filler[16] = "";

	if (p->order == IC_ORDER_RANDOM)
		snprintf(seed, sizeof seed, "_s%u", (unsigned)p->seed);
	if (p->filler > 0)
		snprintf(filler, sizeof filler, "_f%u", (unsigned)p->filler);
	return snprintf(buf, len, "ic_pt_%s_%s_%s_%s%s_%u%s", ic_form_names[p->form],
			ic_op_names[p->op], ic_layout_names[p->layout],
			ic_order_names[p->order], seed, (unsigned)p->sites, filler);
}

#endif /* IC_POINT_NAME_H */
