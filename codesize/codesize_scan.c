/* codesize's accounting of a point: the code its pass reaches, the calls
 * it makes to queue operations (or a body's function, or clone's copies),
 * and its site functions, told apart by their names (point_name.h).
 */
#include <stdlib.h>
#include <string.h>

#include "codesize_util.h"

struct cs_def {                /* a global function: name -> object, section */
	const char *name;
	uint32_t obj, shndx;
};

static const char *const cs_ops[] = {
	"queue_init", "queue_head", "queue_tail", "dequeue", "dequeue_tail",
	"insert", "append", "unlink", "purge",
};

/* Is s one of the queue operations, whole or with a gcc suffix (.constprop.0 ...)? */
static int cs_is_op_name(const char *s)
{
	for (size_t i = 0; i < sizeof cs_ops / sizeof cs_ops[0]; i++) {
		size_t len = strlen(cs_ops[i]);

		if (strncmp(s, cs_ops[i], len) == 0 && (s[len] == '\0' || s[len] == '.'))
			return 1;
	}
	return 0;
}

/* The form whose name rest is, alone or with a gcc suffix (.constprop.0 ...);
 * -1 if none. */
static int cs_form_suffix(const char *rest)
{
	for (int f = 0; f < IC_FORM_COUNT; f++) {
		size_t flen = strlen(ic_form_names[f]);

		if (strncmp(rest, ic_form_names[f], flen) == 0 && (rest[flen] == '\0' || rest[flen] == '.'))
			return f;
	}
	return -1;
}

/* The form of a queue operation ic_<op>_<form> or a body's function
 * ic_body_<form> (queue/body.h), or of a gcc clone of one (name.constprop.0
 * ...); -1 if name is none. */
static int cs_queue_op_form(const char *name)
{
	if (!name || strncmp(name, "ic_", 3) != 0)
		return -1;
	name += 3;
	if (strncmp(name, "body_", 5) == 0)
		return cs_form_suffix(name + 5);
	for (size_t i = 0; i < sizeof cs_ops / sizeof cs_ops[0]; i++) {
		size_t len = strlen(cs_ops[i]);

		int f;

		/* dequeue_tail_extern starts with dequeue_ too: try every op. */
		if (strncmp(name, cs_ops[i], len) == 0 && name[len] == '_' &&
		    (f = cs_form_suffix(name + len + 1)) >= 0)
			return f;
	}
	return -1;
}

/* Does name, less any gcc suffix (.cold, .constprop.0 ...), equal base? */
static int cs_same_function(const char *name, const char *base, size_t blen)
{
	return strncmp(name, base, blen) == 0 && (name[blen] == '\0' || name[blen] == '.');
}

/* Is name a clone site's own copy, <prefix>_k<k>_<op> (op the body's name
 * for a body's point), or a part gcc split off one (.cold)? */
static int cs_is_clone_of(const char *name, const struct cs_point *pt, const char *prefix)
{
	size_t plen = strlen(prefix);
	const char *p;

	if (!name || strncmp(name, prefix, plen) != 0 || strncmp(name + plen, "_k", 2) != 0)
		return 0;
	p = name + plen + 2;
	if (*p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p != '_')
		return 0;
	return pt->id.body ? cs_same_function(p + 1, pt->id.body, strlen(pt->id.body))
			   : cs_is_op_name(p + 1);
}

/* The series' copies, or the point's own (its tail caller's, point.c). */
static int cs_is_clone(const char *name, const struct cs_point *pt)
{
	return cs_is_clone_of(name, pt, pt->sprefix) || cs_is_clone_of(name, pt, pt->prefix);
}

/* Length of name without its gcc suffix (from the first '.'). */
static size_t cs_base_len(const char *name)
{
	return strcspn(name, ".");
}

/* Is name <prefix>_site_<k> or <prefix>_caller_<j>? */
static int cs_is_site_function(const char *name, const char *prefix)
{
	size_t plen = strlen(prefix);
	const char *p;

	if (!name || strncmp(name, prefix, plen) != 0)
		return 0;
	p = name + plen;
	if (strncmp(p, "_site_", 6) == 0)
		p += 6;
	else if (strncmp(p, "_caller_", 8) == 0)
		p += 8;
	else
		return 0;
	if (*p == '\0')
		return 0;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

static void cs_wrong(struct cs_point *pt, const char *fmt, const char *name)
{
	if (!pt->wrong[0])
		snprintf(pt->wrong, sizeof pt->wrong, fmt, name);
}

static int cs_def_cmp(const void *a, const void *b)
{
	return strcmp(((const struct cs_def *)a)->name, ((const struct cs_def *)b)->name);
}

/* The relocations of one reachable section, as the point's form sees them. */
static void cs_count_relocs(struct cs_point *pt, uint32_t obj, const struct cs_sec *s)
{
	/* A hint copy's own calls (purge's dequeue) are not the sites'. */
	int from_copy = cs_queue_op_form(s->fn) >= 0;
	int from_clone = cs_is_clone(s->fn, pt);

	for (size_t i = 0; i < s->nrel; i++) {
		const struct cs_reloc *r = &s->rel[i];
		const char *name = r->name;
		int form = cs_queue_op_form(name);

		if (form >= 0) {
			if (pt->id.form == IC_FORM_CLONE)
				cs_wrong(pt, "calls %s, not a copy of its own", name);
			if (from_copy)
				continue;
			if ((pt->id.form == IC_FORM_EXTERN_NOLOCK || pt->id.form == IC_FORM_EXTERN) &&
			    form != (int)pt->id.form)
				cs_wrong(pt, pt->id.form == IC_FORM_EXTERN ? "calls %s, not the extern copy"
					 : "calls %s, not ic_<op>_extern_nolock", name);
			if (!pt->first_call[0])
				snprintf(pt->first_call, sizeof pt->first_call, "%s", name);
			pt->queue_calls++;
		} else if (pt->id.form == IC_FORM_CLONE && cs_is_clone(name, pt)) {
			if (from_clone) {
				/* A copy and its own split-off part (.cold) jump between them. */
				if (cs_same_function(name, s->fn, cs_base_len(s->fn)))
					continue;
				cs_wrong(pt, "a copy calls another, %s (folded into a thunk?)", name);
				continue;
			}
			pt->targets = cs_grow(pt->targets, &pt->tcap, pt->ntargets + 1, sizeof *pt->targets);
			pt->targets[pt->ntargets++] = (struct cs_target){
				.obj = obj, .shndx = r->shndx, .value = r->value,
			};
			pt->queue_calls++;
		}
	}
}

/* A point's code is what its pass reaches through relocations in its
 * objects (the point's own and its series'): the pass, the callers or site
 * functions of its first N sites, their clone copies, the out-of-line hint
 * copies and .cold parts they call, and data in between (a scatter walk
 * table). Sites past N in the series' objects are not the point's. */
/* Global functions by name, sorted: a section of every code symbol at 0
 * (obj[j]: the index of the point's object j). */
static struct cs_def *cs_defs(const struct cs_point *pt, const uint32_t *obj, size_t *ndefs)
{
	struct cs_def *defs = NULL;
	size_t dcap = 0;

	*ndefs = 0;
	for (size_t j = 0; j < pt->nobjs; j++) {
		const struct cs_obj *o = cs_obj_at(obj[j]);

		for (size_t s = 1; s < o->shnum; s++)
			if (o->secs[s].code && o->secs[s].fn) {
				defs = cs_grow(defs, &dcap, *ndefs + 1, sizeof *defs);
				defs[(*ndefs)++] = (struct cs_def){ o->secs[s].fn, (uint32_t)j, (uint32_t)s };
			}
	}
	qsort(defs, *ndefs, sizeof *defs, cs_def_cmp);
	return defs;
}

/* Where the walk starts, pushed on *stack (*scap its room); how many. */
static size_t cs_roots(const struct cs_point *pt, const struct cs_def *defs, size_t ndefs,
		       struct cs_def **stack, size_t *scap)
{
	size_t nstack = 0;
	char pass[256];

	/* The pass: <prefix>_pass, or else the one pass of the first object
	 * (objects given under another point's spec are judged as that point,
	 * so a mislabelled point fails its form's proof). */
	snprintf(pass, sizeof pass, "%s_pass", pt->prefix);
	for (size_t d = 0; d < ndefs; d++)
		if (strcmp(defs[d].name, pass) == 0) {
			*stack = cs_grow(*stack, scap, 1, sizeof **stack);
			(*stack)[nstack++] = defs[d];
			return nstack;
		}
	for (size_t d = 0; d < ndefs; d++) {
		size_t len = strlen(defs[d].name);

		if (defs[d].obj == 0 && strncmp(defs[d].name, "ic_pt_", 6) == 0 && len > 5 &&
		    strcmp(defs[d].name + len - 5, "_pass") == 0) {
			if (nstack)
				cs_fail(CS_EXIT_USAGE, "point %s: no %s, and more than one other pass in %s",
					pt->prefix, pass, pt->objs[0]);
			*stack = cs_grow(*stack, scap, 1, sizeof **stack);
			(*stack)[nstack++] = defs[d];
		}
	}
	/* No pass at all (sites files compiled alone, as the tests do): the
	 * point is all the code of its objects. */
	if (!nstack)
		for (size_t e = 0; e < ndefs; e++) {
			*stack = cs_grow(*stack, scap, nstack + 1, sizeof **stack);
			(*stack)[nstack++] = defs[e];
		}
	return nstack;
}

void cs_scan_point(struct cs_point *pt)
{
	uint32_t *obj = calloc(pt->nobjs, sizeof *obj);
	size_t *base = calloc(pt->nobjs + 1, sizeof *base);
	struct cs_def *defs, *stack = NULL;
	size_t ndefs, nstack, scap = 0;
	unsigned char *seen;

	if (!obj || !base)
		cs_fail(1, "out of memory");
	for (size_t j = 0; j < pt->nobjs; j++) {
		obj[j] = cs_load(pt->objs[j]);
		base[j + 1] = base[j] + cs_obj_at(obj[j])->shnum;
	}
	seen = calloc(base[pt->nobjs] ? base[pt->nobjs] : 1, 1);
	if (!seen)
		cs_fail(1, "out of memory");
	defs = cs_defs(pt, obj, &ndefs);
	nstack = cs_roots(pt, defs, ndefs, &stack, &scap);
	while (nstack) {
		struct cs_def at = stack[--nstack];
		const struct cs_obj *o = cs_obj_at(obj[at.obj]);
		const struct cs_sec *s = &o->secs[at.shndx];

		if (seen[base[at.obj] + at.shndx])
			continue;
		seen[base[at.obj] + at.shndx] = 1;
		if (s->code) {
			const char *fn = s->fn;

			pt->footprint += s->size;
			if (fn && (cs_is_site_function(fn, pt->prefix) || cs_is_site_function(fn, pt->sprefix)))
				pt->functions++;
			cs_count_relocs(pt, obj[at.obj], s);
		}
		for (size_t i = 0; i < s->nrel; i++) {
			const struct cs_reloc *r = &s->rel[i];
			struct cs_def key = { r->name, 0, 0 }, *hit;

			if (r->shndx) {
				stack = cs_grow(stack, &scap, nstack + 1, sizeof *stack);
				stack[nstack++] = (struct cs_def){ NULL, at.obj, r->shndx };
			} else if (r->global && r->name &&
				   (hit = bsearch(&key, defs, ndefs, sizeof *defs, cs_def_cmp))) {
				stack = cs_grow(stack, &scap, nstack + 1, sizeof *stack);
				stack[nstack++] = *hit;
			}
		}
	}
	free(stack);
	free(seen);
	free(defs);
	free(base);
	free(obj);
}
