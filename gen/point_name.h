/* The names of a point's parts (from point_names.def) and the symbol prefix
 * built from them, which keeps every point's symbols apart so many points link
 * into one program. gen writes a point's symbols under it, codesize finds a
 * point's site functions by it; gen/points.cmake spells the same rule in CMake
 * (keep the two in step). */
#ifndef IC_POINT_NAME_H
#define IC_POINT_NAME_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Enums and name arrays, from the one table (point_names.def). */
#include "point_names.def"
/* Forms carry one more column (solo) than the other kinds: hence "...". */
#define IC_NAME_STRING(e, n, ...) #n,
#define IC_FORM_ENUM(e, n, ...) IC_FORM_##e,
#define IC_FORM_SOLO(e, n, solo, h) solo,
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
/* 1: the form runs at 1 thread on a private queue only (point_names.def). */
static const unsigned char ic_form_solo[IC_FORM_COUNT] = { IC_FORMS(IC_FORM_SOLO) };

#define IC_POINT_SITES_MAX 1000000u

/* Every op, mixed included, makes two queue calls per site. */
#define IC_POINT_OPS_PER_SITE 2u

/* Most filler bytes per site (gen --filler): 64 KiB, twice a 32 KiB L1i, so
 * one site can push the code out of it on its own. */
#define IC_POINT_FILLER_MAX 65536u

/* The adds in a site's filler block of about BYTES bytes: round(B / 7), an
 * add of a 32-bit immediate to a 64-bit register being 7 bytes (6 to rax);
 * the four 5-byte moves and four 3-byte adds into acc about make up the rest
 * (256 asked: 259-269 bytes a site in every form). At least one when asked. */
static inline uint32_t ic_filler_adds(uint32_t bytes)
{
	return bytes == 0 ? 0 : bytes < 4 ? 1 : (bytes + 3) / 7;
}

/* A body's name is its file's basename without .c (queue/body.h). */
#define IC_BODY_NAME_MAX 64u

/* Index of s in names[0..count), or -1. */
static inline int ic_name_find(const char *const *names, int count, const char *s)
{
	for (int i = 0; i < count; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

/* Why name cannot be a body's name, or NULL when it can: letters, digits
 * and _, and neither a queue op's name (the op field would be ambiguous) nor
 * "queue" (the built-in's name in the bench's context). */
static inline const char *ic_body_name_why(const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len > IC_BODY_NAME_MAX)
		return "must be 1 to 64 characters";
	if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != len)
		return "may hold only letters, digits and _";
	if (ic_name_find(ic_op_names, IC_OP_COUNT, name) >= 0 || strcmp(name, "queue") == 0)
		return "is the built-in queue's (rename the file)";
	return NULL;
}

/* Is form one of the queue's nolock controls (no body has a lock)? */
static inline int ic_form_is_nolock(enum ic_form form)
{
	return form == IC_FORM_INLINE_NOLOCK || form == IC_FORM_EXTERN_NOLOCK;
}

/* One point: what gen is asked to write. seed is 0 but for order random, so
 * a seq point has one name whatever seed was given. body: a body's name
 * (queue/body.h), in the op's place in every name; NULL for the queue. */
struct ic_point_id {
	enum ic_form form;
	enum ic_op op;
	const char *body;
	enum ic_layout layout;
	enum ic_order order;
	uint32_t seed;
	uint32_t sites;
	uint32_t filler;           /* bytes of filler before each site; 0 = none */
};

/* The op field of a point's names: the op's, or the body's. */
static inline const char *ic_point_op_name(const struct ic_point_id *p)
{
	return p->body ? p->body : ic_op_names[p->op];
}

/* ic_pt_<form>_<op>_<layout>_<order>[_s<seed>]_<sites>[_f<filler>], op being
 * ic_point_op_name(); returns snprintf's count. A precision of 0 prints no
 * 0: the seed's digits only for order random, the filler's only when some. */
static inline int ic_point_prefix(char *buf, size_t len, const struct ic_point_id *p)
{
	int random = p->order == IC_ORDER_RANDOM;

	return snprintf(buf, len, "ic_pt_%s_%s_%s_%s%s%.*u_%u%s%.0u", ic_form_names[p->form],
			ic_point_op_name(p), ic_layout_names[p->layout], ic_order_names[p->order],
			random ? "_s" : "", random, random ? (unsigned)p->seed : 0u, (unsigned)p->sites,
			p->filler ? "_f" : "", (unsigned)p->filler);
}

/* ic_sr_<form>_<op>_<layout>[_f<filler>]: the prefix of a series' site
 * functions. A site's code depends on its index, form, op, layout and filler,
 * not on N, order or seed: every point of a series calls the first N of the
 * same compiled sites (gen --part). */
static inline int ic_series_prefix(char *buf, size_t len, const struct ic_point_id *p)
{
	return snprintf(buf, len, "ic_sr_%s_%s_%s%s%.0u", ic_form_names[p->form], ic_point_op_name(p),
			ic_layout_names[p->layout], p->filler ? "_f" : "", (unsigned)p->filler);
}

#endif /* IC_POINT_NAME_H */
