/* codesize's objects, read once each with libelf (per section its size,
 * whether it is code, the function it holds, and its relocations), and the
 * accounting of a point: the code its pass reaches, the calls it makes to
 * queue operations (or a body's function, or clone's copies), and its site
 * functions, told apart by their names (point_name.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codesize.h"

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

void *cs_grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	if (*cap < need)
		*cap = need;
	return ic_xrealloc(p, *cap, size);
}

/* Section name without its .text / .text.unlikely ... prefix: with
 * -ffunction-sections, the function it holds. */
static const char *cs_section_function(const char *sname)
{
	static const char *const pre[] = {
		".text.unlikely.", ".text.hot.", ".text.startup.", ".text.exit.", ".text.",
	};

	for (size_t i = 0; sname && i < sizeof pre / sizeof pre[0]; i++)
		if (strncmp(sname, pre[i], strlen(pre[i])) == 0)
			return sname + strlen(pre[i]);
	return sname;
}

static struct cs_obj *cs_objs;
static size_t cs_nobjs, cs_objcap;

static void cs_elf_fail(const char *path, const char *what)
{
	ic_die(CS_EXIT_USAGE, "%s: %s (%s)", path, what, elf_errmsg(-1));
}

/* An object's symbol table: its data, string section and count. */
struct cs_symtab {
	Elf_Data *data;
	size_t strndx, n;
};

/* Each section's size, whether it is code and the function its name says
 * it holds; the symbol table. */
static void cs_read_sections(struct cs_obj *o, const char *path, size_t shstrndx,
			     struct cs_symtab *st)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(o->elf, scn)) != NULL) {
		GElf_Shdr sh;
		size_t idx = elf_ndxscn(scn);

		if (!gelf_getshdr(scn, &sh))
			cs_elf_fail(path, "bad section header");
		o->secs[idx].size = sh.sh_type == SHT_NOBITS ? 0 : sh.sh_size;
		if ((sh.sh_flags & SHF_EXECINSTR) && (sh.sh_flags & SHF_ALLOC)) {
			o->secs[idx].code = 1;
			o->secs[idx].size = sh.sh_size;
			o->secs[idx].fn = cs_section_function(elf_strptr(o->elf, shstrndx, sh.sh_name));
		}
		if (sh.sh_type == SHT_SYMTAB) {
			st->data = elf_getdata(scn, NULL);
			st->strndx = sh.sh_link;
			st->n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		}
	}
	if (!st->data)
		ic_die(CS_EXIT_USAGE, "%s: no symbol table", path);
	/* A function symbol names its section better than the section name. */
	for (size_t i = 0; i < st->n; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(st->data, (int)i, &sym))
			cs_elf_fail(path, "bad symbol");
		if (GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx != SHN_UNDEF &&
		    sym.st_shndx < o->shnum && sym.st_value == 0 && o->secs[sym.st_shndx].code)
			o->secs[sym.st_shndx].fn = elf_strptr(o->elf, st->strndx, sym.st_name);
	}
}

/* The relocations of one SHT_REL(A) section, onto the section they apply to. */
static void cs_read_relocs(struct cs_obj *o, const char *path, Elf_Scn *scn, const GElf_Shdr *sh,
			   const struct cs_symtab *st)
{
	struct cs_sec *from = &o->secs[sh->sh_info];
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	from->rel = ic_xalloc(calloc(n ? n : 1, sizeof *from->rel));
	for (size_t i = 0; d && i < n; i++) {
		GElf_Rela rela = { 0 };
		GElf_Rel rel;
		GElf_Sym sym;
		size_t symi;
		struct cs_reloc *r;

		if (sh->sh_type == SHT_RELA ? !gelf_getrela(d, (int)i, &rela) : !gelf_getrel(d, (int)i, &rel))
			cs_elf_fail(path, "bad relocation");
		symi = GELF_R_SYM(sh->sh_type == SHT_RELA ? rela.r_info : rel.r_info);
		if (symi == 0 || symi >= st->n || !gelf_getsym(st->data, (int)symi, &sym))
			continue;
		r = &from->rel[from->nrel++];
		/* The assembler points calls to local functions (static
		 * hint copies, clone's copies) at their section's symbol;
		 * a call's addend is -4 (pc-relative): the section's start. */
		if (GELF_ST_TYPE(sym.st_info) == STT_SECTION) {
			r->shndx = sym.st_shndx < o->shnum ? sym.st_shndx : 0;
			r->name = r->shndx ? o->secs[r->shndx].fn : NULL;
			r->value = (uint64_t)(rela.r_addend + 4);
		} else {
			r->name = elf_strptr(o->elf, st->strndx, sym.st_name);
			r->shndx = sym.st_shndx != SHN_UNDEF && sym.st_shndx < o->shnum ? sym.st_shndx : 0;
			r->value = sym.st_value;
			r->global = sym.st_shndx == SHN_UNDEF;
		}
	}
}

/* The object at path, read on first use; its index in cs_objs. */
static uint32_t cs_load(const char *path)
{
	struct cs_obj *o;
	struct cs_symtab st = { NULL, 0, 0 };
	GElf_Ehdr eh;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	int fd;

	for (size_t i = 0; i < cs_nobjs; i++)
		if (strcmp(cs_objs[i].path, path) == 0)
			return (uint32_t)i;
	cs_objs = cs_grow(cs_objs, &cs_objcap, cs_nobjs + 1, sizeof *cs_objs);
	o = &cs_objs[cs_nobjs];
	memset(o, 0, sizeof *o);
	o->path = strdup(path);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		ic_die(CS_EXIT_USAGE, "%s: %s", path, strerror(errno));
	o->elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!o->elf || elf_kind(o->elf) != ELF_K_ELF)
		ic_die(CS_EXIT_USAGE, "%s: not an ELF object", path);
	if (!gelf_getehdr(o->elf, &eh))
		cs_elf_fail(path, "no ELF header");
	if (eh.e_type != ET_REL)
		ic_die(CS_EXIT_USAGE, "%s: not a relocatable object (.o)", path);
	if (elf_getshdrnum(o->elf, &o->shnum) != 0 || elf_getshdrstrndx(o->elf, &shstrndx) != 0)
		cs_elf_fail(path, "no section headers");
	/* Everything in memory: thousands of objects need no open files. */
	if (elf_cntl(o->elf, ELF_C_FDREAD) != 0)
		cs_elf_fail(path, "cannot read");
	close(fd);
	o->secs = ic_xalloc(calloc(o->shnum ? o->shnum : 1, sizeof *o->secs));
	cs_read_sections(o, path, shstrndx, &st);
	while ((scn = elf_nextscn(o->elf, scn)) != NULL) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			cs_elf_fail(path, "bad section header");
		if ((sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL) && sh.sh_info < o->shnum)
			cs_read_relocs(o, path, scn, &sh, &st);
	}
	return (uint32_t)cs_nobjs++;
}

int cs_lock_proof_first(const char *path)
{
	uint32_t i = cs_load(path);   /* may move cs_objs */
	struct cs_obj *o = &cs_objs[i];
	int first = !o->lock_free;

	o->lock_free = 1;
	return first;
}

struct cs_def {                /* a global function: name -> object, section */
	const char *name;
	uint32_t obj, shndx;
};

static const char *const cs_ops[] = {
	"queue_init", "queue_head", "queue_tail", "dequeue", "dequeue_tail",
	"insert", "append", "unlink", "purge",
};
#define CS_NOPS ((int)(sizeof cs_ops / sizeof cs_ops[0]))

/* Does name, less any gcc suffix (.cold, .constprop.0 ...), equal base? */
static int cs_same_function(const char *name, const char *base, size_t blen)
{
	return strncmp(name, base, blen) == 0 && (name[blen] == '\0' || name[blen] == '.');
}

/* Which of words[0..n) name is, less any gcc suffix; -1 if none. */
static int cs_word(const char *name, const char *const *words, int n)
{
	for (int i = 0; i < n; i++)
		if (cs_same_function(name, words[i], strlen(words[i])))
			return i;
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
		return cs_word(name + 5, ic_form_names, IC_FORM_COUNT);
	for (int i = 0; i < CS_NOPS; i++) {
		size_t len = strlen(cs_ops[i]);
		int f;

		/* dequeue_tail_extern starts with dequeue_ too: try every op. */
		if (strncmp(name, cs_ops[i], len) == 0 && name[len] == '_' &&
		    (f = cs_word(name + len + 1, ic_form_names, IC_FORM_COUNT)) >= 0)
			return f;
	}
	return -1;
}

/* Is name a clone site's own copy, <prefix>_k<k>_<op> (op the body's name
 * for a body's point), or a part gcc split off one (.cold)? */
static int cs_is_clone_of(const char *name, const struct cs_point *pt, const char *prefix)
{
	size_t plen = strlen(prefix), digits;
	const char *p;

	if (!name || strncmp(name, prefix, plen) != 0 || strncmp(name + plen, "_k", 2) != 0)
		return 0;
	p = name + plen + 2;
	digits = strspn(p, "0123456789");
	if (!digits || p[digits] != '_')
		return 0;
	p += digits + 1;
	return pt->id.body ? cs_word(p, &pt->id.body, 1) >= 0 : cs_word(p, cs_ops, CS_NOPS) >= 0;
}

/* The series' copies, or the point's own (its tail caller's, point.c). */
static int cs_is_clone(const char *name, const struct cs_point *pt)
{
	return cs_is_clone_of(name, pt, pt->sprefix) || cs_is_clone_of(name, pt, pt->prefix);
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
	return *p && strspn(p, "0123456789") == strlen(p);
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
				if (cs_same_function(name, s->fn, strcspn(s->fn, ".")))
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
		const struct cs_obj *o = &cs_objs[obj[j]];

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
	char pass[256];
	struct cs_def key = { pass, 0, 0 }, *hit;
	size_t nstack = 0;

	/* The pass: <prefix>_pass, or else the one pass of the first object
	 * (objects given under another point's spec are judged as that point,
	 * so a mislabelled point fails its form's proof). */
	snprintf(pass, sizeof pass, "%s_pass", pt->prefix);
	*stack = cs_grow(*stack, scap, ndefs, sizeof **stack);
	hit = bsearch(&key, defs, ndefs, sizeof *defs, cs_def_cmp);
	if (hit) {
		(*stack)[0] = *hit;
		return 1;
	}
	for (size_t d = 0; d < ndefs; d++) {
		size_t len = strlen(defs[d].name);

		if (defs[d].obj == 0 && strncmp(defs[d].name, "ic_pt_", 6) == 0 && len > 5 &&
		    strcmp(defs[d].name + len - 5, "_pass") == 0) {
			if (nstack)
				ic_die(CS_EXIT_USAGE, "point %s: no %s, and more than one other pass in %s",
					pt->prefix, pass, pt->objs[0]);
			(*stack)[nstack++] = defs[d];
		}
	}
	/* No pass at all (sites files compiled alone, as the tests do): the
	 * point is all the code of its objects. */
	if (!nstack && ndefs) {
		memcpy(*stack, defs, ndefs * sizeof *defs);
		nstack = ndefs;
	}
	return nstack;
}

void cs_scan_point(struct cs_point *pt)
{
	uint32_t *obj = ic_xalloc(calloc(pt->nobjs, sizeof *obj));
	size_t *base = ic_xalloc(calloc(pt->nobjs + 1, sizeof *base));
	struct cs_def *defs, *stack = NULL;
	size_t ndefs, nstack, scap = 0;
	unsigned char *seen;

	for (size_t j = 0; j < pt->nobjs; j++) {
		obj[j] = cs_load(pt->objs[j]);
		base[j + 1] = base[j] + cs_objs[obj[j]].shnum;
	}
	seen = ic_xalloc(calloc(base[pt->nobjs] ? base[pt->nobjs] : 1, 1));
	defs = cs_defs(pt, obj, &ndefs);
	nstack = cs_roots(pt, defs, ndefs, &stack, &scap);
	while (nstack) {
		struct cs_def at = stack[--nstack];
		const struct cs_obj *o = &cs_objs[obj[at.obj]];
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
