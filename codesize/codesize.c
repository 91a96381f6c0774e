/* codesize: the code-size accounting of generated points, from their objects (usage: --help, in
 * cs_parse_args).
 *
 * --body NAME (before the first --point): points whose op is NAME are your own body's
 * (queue/body.h): their sites call ic_body_<form>, one per site (ops_per_site 1), and clone's
 * copies are <prefix>_k<k>_<NAME>.
 *
 * For each point, from its relocatable objects (read with libelf):
 *   footprint_bytes  bytes of all executable sections (.text*): the sites, the pass(), and any
 *                    out-of-line copies of `hint` operations;
 *   queue_calls      relocations, in code outside those copies, against a queue operation
 *                    (ic_<op>_<form>, gcc clones such as .constprop/.isra/.part included), a
 *                    body's function (ic_body_<form>, the same) or, in form clone, a site's own
 *                    copy <prefix>_k<k>_<op>. Needs -ffunction-sections: else a call to a local
 *                    copy in the same section needs no relocation;
 *   site_functions   functions named <prefix>_site_<k> or <prefix>_caller_<j>;
 *   inlined_sites    sites - ceil(queue_calls / ops_per_site), an estimate: a site with one of
 *                    two ops inlined counts as not inlined, and purge's inner dequeue, should
 *                    purge be inlined without it, as a call of that site;
 *   filler           the filler bytes asked for before each site (gen --filler);
 * and per group (form, op, layout, order, filler) code_bytes_per_site: the least-squares slope of
 * footprint_bytes over sites across the group's points (empty when the group has one N; the
 * filler is in it, as in the footprint). Rows in the order the points were given.
 *
 * The forms the compiler could undo are proved from the objects, and a point that fails is
 * refused (one line naming it, exit 3, no CSV):
 *   clone          the sites call N x ops_per_site distinct copies (none folded or inlined), and
 *                  nothing calls an ic_<op>_<form>;
 *   inline, inline_nolock  no queue call (a body's function was not inlined);
 *   extern, extern_nolock  ops_per_site calls per site, every one to the form's own
 *                  ic_<op>_<form> (fewer: some were inlined);
 *   both nolock    no locked instruction (a lock prefix, or xchg with memory) in the objects'
 *                  objdump -d (--objdump, default objdump).
 * Bad usage or input: one line on stderr, exit 2; the CSV is written under a temporary name and
 * renamed. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <inttypes.h>
#include <libelf.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic_file.h"
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
	size_t nobjs;
	uint64_t footprint;
	uint64_t queue_calls;
	uint64_t functions;
	struct cs_target *targets;  /* clone: every call to a copy */
	size_t ntargets;
	char wrong[256];            /* the first call the form does not allow */
	char first_call[128];       /* the first queue call seen, for inline's refusal */
};

/* The objects, read once each with libelf (a series' serve all its points):
 * per section its size, whether it is code, its function, its relocations. */
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
	uint32_t seen;         /* the point scan that last walked it */
};

struct cs_obj {
	char *path;
	Elf *elf;
	size_t shnum;
	struct cs_sec *secs;
	int lock_free;         /* objdump proved it (the nolock forms) */
};

/* The function a section holds (-ffunction-sections): its name less .text. ... */
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
static size_t cs_nobjs;

static void cs_elf_fail(const char *path, const char *what)
{
	ic_die(CS_EXIT_USAGE, "%s: %s (%s)", path, what, elf_errmsg(-1));
}

/* The object at path, read on first use; its index in cs_objs. */
static uint32_t cs_load(const char *path)
{
	struct cs_obj *o;
	Elf_Data *symtab = NULL;
	GElf_Ehdr eh;
	size_t shstrndx, strndx = 0, nsyms = 0;
	Elf_Scn *scn = NULL;
	int fd;

	for (size_t i = 0; i < cs_nobjs; i++)
		if (strcmp(cs_objs[i].path, path) == 0)
			return (uint32_t)i;
	cs_objs = ic_xrealloc(cs_objs, cs_nobjs + 1, sizeof *cs_objs);
	o = &cs_objs[cs_nobjs];
	*o = (struct cs_obj){ .path = ic_xalloc(strdup(path)) };
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
	/* Each section's size, whether it is code, its name's function; the symbols. */
	while ((scn = elf_nextscn(o->elf, scn)) != NULL) {
		GElf_Shdr sh;
		size_t idx = elf_ndxscn(scn);

		if (!gelf_getshdr(scn, &sh))
			cs_elf_fail(path, "bad section header");
		o->secs[idx].size = sh.sh_type == SHT_NOBITS ? 0 : sh.sh_size;
		o->secs[idx].code = (sh.sh_flags & SHF_EXECINSTR) && (sh.sh_flags & SHF_ALLOC);
		if (o->secs[idx].code)
			o->secs[idx].fn = cs_section_function(elf_strptr(o->elf, shstrndx, sh.sh_name));
		if (sh.sh_type == SHT_SYMTAB) {
			symtab = elf_getdata(scn, NULL);
			strndx = sh.sh_link;
			nsyms = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		}
	}
	if (!symtab)
		ic_die(CS_EXIT_USAGE, "%s: no symbol table", path);
	/* A function symbol names its section better than the section name. */
	for (size_t i = 0; i < nsyms; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(symtab, (int)i, &sym))
			cs_elf_fail(path, "bad symbol");
		if (GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx != SHN_UNDEF &&
		    sym.st_shndx < o->shnum && sym.st_value == 0 && o->secs[sym.st_shndx].code)
			o->secs[sym.st_shndx].fn = elf_strptr(o->elf, strndx, sym.st_name);
	}
	/* Each SHT_REL(A) section's relocations, onto the section they apply to. */
	while ((scn = elf_nextscn(o->elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		struct cs_sec *from;
		size_t n;

		if (!gelf_getshdr(scn, &sh))
			cs_elf_fail(path, "bad section header");
		if ((sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) || sh.sh_info >= o->shnum)
			continue;
		from = &o->secs[sh.sh_info];
		d = elf_getdata(scn, NULL);
		n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		from->rel = ic_xalloc(calloc(n ? n : 1, sizeof *from->rel));
		for (size_t i = 0; d && i < n; i++) {
			GElf_Rela rela = { 0 };
			GElf_Rel rel;
			GElf_Sym sym;
			size_t symi;
			struct cs_reloc *r;

			if (sh.sh_type == SHT_RELA ? !gelf_getrela(d, (int)i, &rela) : !gelf_getrel(d, (int)i, &rel))
				cs_elf_fail(path, "bad relocation");
			symi = GELF_R_SYM(sh.sh_type == SHT_RELA ? rela.r_info : rel.r_info);
			if (symi == 0 || symi >= nsyms || !gelf_getsym(symtab, (int)symi, &sym))
				continue;
			r = &from->rel[from->nrel++];
			/* The assembler points calls to local functions (hint's and
			 * clone's static copies) at their section's symbol, addend -4
			 * (pc-relative): the section's start. */
			if (GELF_ST_TYPE(sym.st_info) == STT_SECTION) {
				r->shndx = sym.st_shndx < o->shnum ? sym.st_shndx : 0;
				r->name = r->shndx ? o->secs[r->shndx].fn : NULL;
				r->value = (uint64_t)(rela.r_addend + 4);
			} else {
				r->name = elf_strptr(o->elf, strndx, sym.st_name);
				r->shndx = sym.st_shndx != SHN_UNDEF && sym.st_shndx < o->shnum ? sym.st_shndx : 0;
				r->value = sym.st_value;
				r->global = sym.st_shndx == SHN_UNDEF;
			}
		}
	}
	return (uint32_t)cs_nobjs++;
}

/* A point's accounting: the code its pass reaches, its calls to queue operations
 * (a body's function, clone's copies), its site functions, told apart by name (point_name.h). */
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

/* The form of a queue operation ic_<op>_<form>, a body's function
 * ic_body_<form> (queue/body.h) or a gcc clone of one (.constprop.0 ...); else -1. */
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

/* name past "<prefix><infix><digits>", or NULL when it does not start so. */
static const char *cs_numbered(const char *name, const char *prefix, const char *infix)
{
	size_t plen = strlen(prefix), ilen = strlen(infix), digits;

	if (!name || strncmp(name, prefix, plen) != 0 || strncmp(name + plen, infix, ilen) != 0)
		return NULL;
	name += plen + ilen;
	digits = strspn(name, "0123456789");
	return digits ? name + digits : NULL;
}

/* Under the series' prefix or the point's own (its tail caller's, point.c),
 * is name (clone set) a clone site's copy <prefix>_k<k>_<op> (op a body's
 * name for a body's point) or a part gcc split off one (.cold); or (clone 0)
 * a site function, <prefix>_site_<k> or <prefix>_caller_<j>? */
static int cs_is_named(const char *name, const struct cs_point *pt, int clone)
{
	for (int i = 0; i < 2; i++) {
		const char *prefix = i ? pt->prefix : pt->sprefix, *p;

		if (clone && (p = cs_numbered(name, prefix, "_k")) && *p == '_' &&
		    (pt->id.body ? cs_word(p + 1, &pt->id.body, 1) : cs_word(p + 1, cs_ops, CS_NOPS)) >= 0)
			return 1;
		if (!clone && (((p = cs_numbered(name, prefix, "_site_")) && !*p) ||
			       ((p = cs_numbered(name, prefix, "_caller_")) && !*p)))
			return 1;
	}
	return 0;
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
	int from_clone = cs_is_named(s->fn, pt, 1);

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
		} else if (pt->id.form == IC_FORM_CLONE && cs_is_named(name, pt, 1)) {
			if (from_clone) {
				/* A copy and its own split-off part (.cold) jump between them. */
				if (cs_same_function(name, s->fn, strcspn(s->fn, ".")))
					continue;
				cs_wrong(pt, "a copy calls another, %s (folded into a thunk?)", name);
				continue;
			}
			pt->targets = ic_xrealloc(pt->targets, pt->ntargets + 1, sizeof *pt->targets);
			pt->targets[pt->ntargets++] = (struct cs_target){
				.obj = obj, .shndx = r->shndx, .value = r->value,
			};
			pt->queue_calls++;
		}
	}
}

/* Is this objdump instruction locked: a lock prefix, or xchg with a memory
 * operand (locked without one)? Not xchg of registers (gas pads with
 * `xchg %ax,%ax`). */
static int cs_insn_locked(const char *insn)
{
	if (strncmp(insn, "lock", 4) == 0 && (insn[4] == '\0' || insn[4] == ' ' || insn[4] == '\t'))
		return 1;
	return strncmp(insn, "xchg", 4) == 0 && strchr(insn, '(') != NULL;
}

/* The nolock forms' proof: no locked instruction in objdump -d of the object;
 * the first one found fails the point (one line). */
static void cs_prove_lock_free(const struct cs_point *pt, const char *objdump, const char *path)
{
	char fn[256] = "?", *line = NULL;
	size_t cap = 0;
	int status;
	FILE *f;

	/* The paths reach the shell as variables, never as its words; an objdump
	 * missing or not an executable file is exit 127 (a failed exec), without
	 * the shell's own line. */
	setenv("CS_OBJDUMP", objdump, 1);
	setenv("CS_OBJECT", path, 1);
	f = popen("p=$(command -v -- \"$CS_OBJDUMP\" 2>/dev/null) && [ -f \"$p\" ] && [ -x \"$p\" ] || exit 127; "
		  "exec \"$p\" -d --no-show-raw-insn \"$CS_OBJECT\"", "r");
	if (!f)
		ic_die(1, "cannot run %s: %s", objdump, strerror(errno));
	while (getline(&line, &cap, f) >= 0) {
		char *p = strchr(line, '\t'), *lt = strrchr(line, '>');

		line[strcspn(line, "\n")] = '\0';
		/* "0000000000000000 <name>:" starts a function; "   1c:\tlock xadd
		 * %eax,(%rdi)" is an instruction (without raw bytes, the one tab). */
		if (!p && isxdigit((unsigned char)line[0]) && lt && lt[1] == ':' && (p = strchr(line, '<')))
			snprintf(fn, sizeof fn, "%.*s", (int)(lt - p - 1), p + 1);
		else if (p && cs_insn_locked(++p)) {
			while ((lt = strchr(p, '\t')))
				*lt = ' ';
			ic_die(CS_EXIT_PROOF, "point %s: %s: a locked instruction in %s, '%s', but form "
				"%s has no lock", pt->prefix, path, fn, p, ic_form_names[pt->id.form]);
		}
	}
	free(line);
	status = pclose(f);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		ic_die(CS_EXIT_PROOF, "point %s: %s -d %s failed (exit %d): cannot prove form %s "
			"lock-free", pt->prefix, objdump, path,
			WIFEXITED(status) ? WEXITSTATUS(status) : -1, ic_form_names[pt->id.form]);
}

/* A point's code is what its pass reaches through relocations in its
 * objects (its own and its series'): the pass, the callers or site functions
 * of its first N sites (not those past N), their clone copies, the hint
 * copies and .cold parts they call, and data between (a scatter walk table).
 * Where the walk starts, pushed on stack (room for ndefs); how many. */
static size_t cs_roots(const struct cs_point *pt, const struct cs_def *defs, size_t ndefs,
		       struct cs_def *stack)
{
	char pass[256];
	struct cs_def key = { pass, 0, 0 }, *hit;
	size_t nstack = 0;
	uint32_t first = cs_load(pt->objs[0]);

	/* The pass: <prefix>_pass, or else the first object's one pass (objects
	 * under another point's spec are judged as that point: a mislabelled
	 * point fails its form's proof). */
	snprintf(pass, sizeof pass, "%s_pass", pt->prefix);
	hit = bsearch(&key, defs, ndefs, sizeof *defs, cs_def_cmp);
	if (hit) {
		stack[0] = *hit;
		return 1;
	}
	for (size_t d = 0; d < ndefs; d++) {
		size_t len = strlen(defs[d].name);

		if (defs[d].obj == first && strncmp(defs[d].name, "ic_pt_", 6) == 0 && len > 5 &&
		    strcmp(defs[d].name + len - 5, "_pass") == 0) {
			if (nstack)
				ic_die(CS_EXIT_USAGE, "point %s: no %s, and more than one other pass in %s",
					pt->prefix, pass, pt->objs[0]);
			stack[nstack++] = defs[d];
		}
	}
	/* No pass at all (sites files compiled alone, as the tests do): the
	 * point is all the code of its objects. */
	if (!nstack && ndefs) {
		memcpy(stack, defs, ndefs * sizeof *defs);
		nstack = ndefs;
	}
	return nstack;
}

/* A point's footprint, queue calls, site functions and clone targets; for
 * the nolock forms first the proof of no locked instruction, once per
 * object (a series object serves many points). */
static void cs_scan_point(struct cs_point *pt, const char *objdump)
{
	static uint32_t scan;      /* the mark of a section this scan walked */
	struct cs_def *defs = NULL, *stack;
	size_t ndefs = 0, nstack, nrel = 0;

	scan++;
	for (size_t j = 0; j < pt->nobjs; j++) {
		uint32_t obj = cs_load(pt->objs[j]);
		struct cs_obj *o = &cs_objs[obj];

		if (ic_form_is_nolock(pt->id.form) && !o->lock_free) {
			o->lock_free = 1;
			cs_prove_lock_free(pt, objdump, pt->objs[j]);
		}
		/* Global functions by name: the section of every code symbol at 0. */
		defs = ic_xrealloc(defs, ndefs + o->shnum, sizeof *defs);
		for (size_t s = 1; s < o->shnum; s++) {
			nrel += o->secs[s].nrel;
			if (o->secs[s].code && o->secs[s].fn)
				defs[ndefs++] = (struct cs_def){ o->secs[s].fn, obj, (uint32_t)s };
		}
	}
	qsort(defs, ndefs, sizeof *defs, cs_def_cmp);
	/* Each section is walked once and pushes at most its relocations. */
	stack = ic_xrealloc(NULL, ndefs + nrel, sizeof *stack);
	nstack = cs_roots(pt, defs, ndefs, stack);
	while (nstack) {
		struct cs_def at = stack[--nstack];
		struct cs_sec *s = &cs_objs[at.obj].secs[at.shndx];

		if (s->seen == scan)
			continue;
		s->seen = scan;
		if (s->code) {
			pt->footprint += s->size;
			pt->functions += cs_is_named(s->fn, pt, 0);
			cs_count_relocs(pt, at.obj, s);
		}
		for (size_t i = 0; i < s->nrel; i++) {
			const struct cs_reloc *r = &s->rel[i];
			struct cs_def key = { r->name, 0, 0 }, *hit = NULL;

			if (!r->shndx && r->global && r->name)
				hit = bsearch(&key, defs, ndefs, sizeof *defs, cs_def_cmp);
			if (!r->shndx && !hit)
				continue;
			stack[nstack++] = hit ? *hit : (struct cs_def){ NULL, at.obj, r->shndx };
		}
	}
	free(stack);
	free(defs);
}

struct cs_run {
	struct cs_point *pts;
	size_t npts;
	const char *out;
	const char *objdump;
	const char *body;           /* --body NAME, or NULL */
};

/* Calls each site makes: two queue operations, or one body function. */
static unsigned cs_ops_per_site(const struct cs_point *pt)
{
	return pt->id.body ? 1u : IC_POINT_OPS_PER_SITE;
}

/* "form:op:layout:order:seed:sites[:filler]"; op may be body (NULL: none). */
static void cs_parse_spec(const char *spec, const char *body, struct ic_point_id *id)
{
	const char *const *names[4] = { ic_form_names, ic_op_names, ic_layout_names, ic_order_names };
	const int counts[4] = { IC_FORM_COUNT, IC_OP_COUNT, IC_LAYOUT_COUNT, IC_ORDER_COUNT };
	char buf[256], *field[8], *rest = buf;
	unsigned long long num[3] = { 0, 0, 0 };
	int n = 0, v[4];

	if (strlen(spec) >= sizeof buf)
		ic_die(CS_EXIT_USAGE, "--point: '%.40s...' is too long", spec);
	strcpy(buf, spec);
	/* An empty field (a doubled, leading or trailing ':') stops it short. */
	while (n < 8 && (field[n] = strsep(&rest, ":")) && *field[n])
		n++;
	if ((n != 6 && n != 7) || field[n])
		ic_die(CS_EXIT_USAGE, "--point: '%s' is not form:op:layout:order:seed:sites[:filler]",
			spec);
	id->body = body && strcmp(field[1], body) == 0 ? body : NULL;
	for (int i = 0; i < 4; i++)
		if ((v[i] = i == 1 && id->body ? 0 : ic_name_find(names[i], counts[i], field[i])) < 0)
			ic_die(CS_EXIT_USAGE, "--point: '%s': unknown name '%s'", spec, field[i]);
	if (id->body && ic_form_is_nolock((enum ic_form)v[0]))
		ic_die(CS_EXIT_USAGE, "--point: '%s': a body has no lock, so no form %s", spec, field[0]);
	for (int i = 4; i < n; i++) {
		char *end;

		errno = 0;
		num[i - 4] = strtoull(field[i], &end, 10);
		if (*field[i] < '0' || *field[i] > '9' || *end || errno)
			ic_die(CS_EXIT_USAGE, "--point: '%s': '%s' is not a number", spec, field[i]);
	}
	if (num[0] > UINT32_MAX || num[1] < 1 || num[1] > IC_POINT_SITES_MAX)
		ic_die(CS_EXIT_USAGE, "--point: '%s': seed or sites out of range", spec);
	if (num[2] > IC_POINT_FILLER_MAX)
		ic_die(CS_EXIT_USAGE, "--point: '%s': filler out of range (0..%u)", spec,
			IC_POINT_FILLER_MAX);
	*id = (struct ic_point_id){
		.form = (enum ic_form)v[0], .op = (enum ic_op)v[1], .body = id->body,
		.layout = (enum ic_layout)v[2], .order = (enum ic_order)v[3],
		.seed = v[3] == IC_ORDER_RANDOM ? (uint32_t)num[0] : 0,
		.sites = (uint32_t)num[1], .filler = (uint32_t)num[2],
	};
}

/* @FILE arguments become the file's lines, one argument each (less a trailing
 * CR; empty lines dropped), each a copy of its own, for one way to free them. */
static char **cs_expand_args(int argc, char **argv, int *nargc)
{
	char **out = ic_xrealloc(NULL, 1, sizeof *out);
	size_t n = 0;

	for (int i = 0; i < argc; i++) {
		int at = i > 0 && argv[i][0] == '@';
		char *text = at ? ic_read_path(argv[i] + 1, &(size_t){ 0 }) : NULL, *save, *arg;

		if (at && !text)
			ic_die(CS_EXIT_USAGE, "%s: %s", argv[i], strerror(errno));
		for (arg = at ? strtok_r(text, "\n", &save) : argv[i]; arg;
		     arg = at ? strtok_r(NULL, "\n", &save) : NULL) {
			size_t len = strlen(arg);

			len -= at && len && arg[len - 1] == '\r';
			if (at && !len)
				continue;
			out = ic_xrealloc(out, n + 2, sizeof *out);
			out[n++] = ic_xalloc(strndup(arg, len));
		}
		free(text);
	}
	out[n] = NULL;
	*nargc = (int)n;
	return out;
}

static void cs_parse_args(int argc, char **argv, struct cs_run *run)
{
	enum { OPT_POINT = 256, OPT_OBJDUMP, OPT_BODY };
	static const struct option longopts[] = {
		{ "point", required_argument, NULL, OPT_POINT },
		{ "objdump", required_argument, NULL, OPT_OBJDUMP },
		{ "body", required_argument, NULL, OPT_BODY },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	/* Leading '-': objects come back in order, as the argument of code 1. */
	while ((c = getopt_long(argc, argv, "-:o:h", longopts, NULL)) != -1) {
		struct cs_point *pt;

		switch (c) {
		case OPT_POINT:
			run->pts = ic_xrealloc(run->pts, run->npts + 1, sizeof *run->pts);
			pt = &run->pts[run->npts++];
			memset(pt, 0, sizeof *pt);
			cs_parse_spec(optarg, run->body, &pt->id);
			ic_point_prefix(pt->prefix, sizeof pt->prefix, &pt->id);
			ic_series_prefix(pt->sprefix, sizeof pt->sprefix, &pt->id);
			break;
		case OPT_BODY: {
			const char *why = ic_body_name_why(optarg);

			if (run->npts)
				ic_die(CS_EXIT_USAGE, "--body: must come before the first --point");
			if (why)
				ic_die(CS_EXIT_USAGE, "--body: '%s' %s", optarg, why);
			run->body = optarg;
			break;
		}
		case 1:
			if (run->npts == 0)
				ic_die(CS_EXIT_USAGE, "%s: object before the first --point", optarg);
			pt = &run->pts[run->npts - 1];
			pt->objs = ic_xrealloc(pt->objs, pt->nobjs + 1, sizeof *pt->objs);
			pt->objs[pt->nobjs++] = optarg;
			break;
		case 'o':
			run->out = optarg;
			break;
		case OPT_OBJDUMP:
			if (!*optarg)
				ic_die(CS_EXIT_USAGE, "--objdump: empty path");
			run->objdump = optarg;
			break;
		case 'h':
			printf("usage: %s [-o OUT.csv] [--objdump PATH] [--body NAME]\n"
			       "           --point form:op:layout:order:seed:sites[:filler] OBJ... [--point ...]\n"
			       "       %s [-o OUT.csv] [--objdump PATH] @ARGS   (arguments read from ARGS, one per line)\n"
			       "Writes, per point, the code footprint, queue calls and inlined sites of its\n"
			       "objects (built with -ffunction-sections), and per form/op/layout/order/filler\n"
			       "the bytes of code per site (slope over N), as CSV to OUT.csv (default stdout).\n"
			       "Refuses (exit 3) a clone or nolock point whose objects are not what the form\n"
			       "says; the nolock forms' disassembly comes from PATH (default objdump).\n"
			       "--body NAME: points with op NAME are your own body's (queue/body.h).\n",
			       ic_prog, ic_prog);
			exit(0);
		case ':':
			ic_die(CS_EXIT_USAGE, "%s: needs an argument", argv[optind - 1]);
		default:
			ic_die(CS_EXIT_USAGE, "%s: unknown option (see --help)", argv[optind - 1]);
		}
	}
	if (run->npts == 0)
		ic_die(CS_EXIT_USAGE, "--point: none given (see --help)");
	for (size_t i = 0; i < run->npts; i++)
		if (run->pts[i].nobjs == 0)
			ic_die(CS_EXIT_USAGE, "--point: %s has no objects", run->pts[i].prefix);
}

/* Any total order serves to count the distinct targets (no padding). */
static int cs_target_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct cs_target));
}

/* What the point's form promises (codesize.c's comment), from what its objects call. */
static void cs_prove(struct cs_point *pt)
{
	uint64_t want = (uint64_t)pt->id.sites * cs_ops_per_site(pt);
	size_t distinct = 0;

	/* Set for clone and extern forms only (cs_count_relocs). */
	if (pt->wrong[0])
		ic_die(CS_EXIT_PROOF, "point %s: %s", pt->prefix, pt->wrong);
	switch (pt->id.form) {
	case IC_FORM_CLONE:
		qsort(pt->targets, pt->ntargets, sizeof *pt->targets, cs_target_cmp);
		for (size_t i = 0; i < pt->ntargets; i++)
			distinct += i == 0 || cs_target_cmp(&pt->targets[i - 1], &pt->targets[i]) != 0;
		if (distinct != want)
			ic_die(CS_EXIT_PROOF, "point %s: the sites call %zu distinct copies, not %" PRIu64
				" (sites x ops): copies folded or inlined", pt->prefix, distinct, want);
		break;
	case IC_FORM_INLINE:
	case IC_FORM_INLINE_NOLOCK:
	case IC_FORM_MARK:
		if (pt->queue_calls != 0)
			ic_die(CS_EXIT_PROOF, "point %s: %" PRIu64 " calls (the first to %s), but form %s "
				"%s", pt->prefix, pt->queue_calls, pt->first_call, ic_form_names[pt->id.form],
				pt->id.form == IC_FORM_MARK ? "calls nothing" :
				"inlines every one: it could not be inlined");
		break;
	case IC_FORM_EXTERN:
	case IC_FORM_EXTERN_NOLOCK:
		if (pt->queue_calls != want)
			ic_die(CS_EXIT_PROOF, "point %s: %" PRIu64 " calls to the extern copy, not %" PRIu64
				" (sites x ops)%s", pt->prefix, pt->queue_calls, want,
				pt->queue_calls < want ? ": some were inlined" : "");
		break;
	default:
		return;
	}
}

/* The bytes of code per site of pt's group (form, op, layout, order,
 * filler): the least-squares slope of footprint over sites; 0 if one N. */
static int cs_group_slope(const struct cs_run *run, const struct cs_point *pt, double *slope)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0, x0 = pt->id.sites;
	int spread = 0;

	for (size_t i = 0; i < run->npts; i++) {
		const struct cs_point *q = &run->pts[i];
		double x = q->id.sites, y = (double)q->footprint;

		if (q->id.form != pt->id.form || q->id.op != pt->id.op || !q->id.body != !pt->id.body ||
		    q->id.layout != pt->id.layout || q->id.order != pt->id.order || q->id.filler != pt->id.filler)
			continue;
		spread |= q->id.sites != pt->id.sites;
		x -= x0;   /* centred, for precision */
		n++;
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
	}
	if (!spread)
		return 0;
	*slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	return 1;
}

/* The CSV to run->out, renamed into place once whole, or to stdout ("-", none). */
static void cs_write(const struct cs_run *run)
{
	struct ic_atomic_file af = { .f = stdout };
	int file = run->out && strcmp(run->out, "-") != 0;

	if (file && ic_atomic_open(&af, run->out, 0) != 0)
		ic_die(1, "%s", af.err);
	fputs("form,op,layout,order,seed,sites,footprint_bytes,code_bytes_per_site,"
	      "queue_calls,ops_per_site,inlined_sites,site_functions,filler\n", af.f);
	for (size_t i = 0; i < run->npts; i++) {
		const struct cs_point *pt = &run->pts[i];
		unsigned ops = cs_ops_per_site(pt);
		uint64_t calls_sites = (pt->queue_calls + ops - 1) / ops;
		uint64_t inlined = calls_sites >= pt->id.sites ? 0 : pt->id.sites - calls_sites;
		double slope;
		char slope_s[32] = "";

		if (cs_group_slope(run, pt, &slope))
			snprintf(slope_s, sizeof slope_s, "%.2f", slope);
		fprintf(af.f, "%s,%s,%s,%s,%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%s,%" PRIu64 ",%u,%"
			PRIu64 ",%" PRIu64 ",%" PRIu32 "\n",
			ic_form_names[pt->id.form], ic_point_op_name(&pt->id),
			ic_layout_names[pt->id.layout], ic_order_names[pt->id.order],
			pt->id.seed, pt->id.sites, pt->footprint, slope_s, pt->queue_calls,
			ops, inlined, pt->functions, pt->id.filler);
	}
	if (!file && fflush(stdout) != 0)
		ic_die(1, "cannot write stdout: %s", strerror(errno));
	if (file && ic_atomic_commit(&af) != 0)
		ic_die(1, "%s", af.err);
}

int main(int argc, char **argv)
{
	struct cs_run run = { .objdump = "objdump" };
	char **args;
	int nargs;

	ic_prog = argc > 0 && argv[0][0] ? basename(argv[0]) : "codesize";
	args = cs_expand_args(argc, argv, &nargs);
	cs_parse_args(nargs, args, &run);
	if (elf_version(EV_CURRENT) == EV_NONE)
		ic_die(1, "libelf: %s", elf_errmsg(-1));
	for (size_t i = 0; i < run.npts; i++) {
		cs_scan_point(&run.pts[i], run.objdump);
		cs_prove(&run.pts[i]);
	}
	cs_write(&run);
	for (size_t i = 0; i < run.npts; i++) {
		free(run.pts[i].objs);
		free(run.pts[i].targets);
	}
	free(run.pts);
	for (char **p = args; *p; p++)
		free(*p);
	free(args);
	return 0;
}
