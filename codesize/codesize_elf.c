/* codesize's objects, read once each with libelf: per section its size,
 * whether it is code, the function it holds, and its relocations.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codesize_util.h"

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
	cs_fail(CS_EXIT_USAGE, "%s: %s (%s)", path, what, elf_errmsg(-1));
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
		cs_fail(CS_EXIT_USAGE, "%s: no symbol table", path);
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

	from->rel = calloc(n ? n : 1, sizeof *from->rel);
	if (!from->rel)
		cs_fail(1, "out of memory");
	for (size_t i = 0; d && i < n; i++) {
		GElf_Rela rela = { 0 };
		GElf_Rel rel;
		GElf_Sym sym;
		size_t symi;
		struct cs_reloc *r;

		if (sh->sh_type == SHT_RELA) {
			if (!gelf_getrela(d, (int)i, &rela))
				cs_elf_fail(path, "bad relocation");
			symi = GELF_R_SYM(rela.r_info);
		} else {
			if (!gelf_getrel(d, (int)i, &rel))
				cs_elf_fail(path, "bad relocation");
			symi = GELF_R_SYM(rel.r_info);
		}
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
uint32_t cs_load(const char *path)
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
		cs_fail(CS_EXIT_USAGE, "%s: %s", path, strerror(errno));
	o->elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!o->elf || elf_kind(o->elf) != ELF_K_ELF)
		cs_fail(CS_EXIT_USAGE, "%s: not an ELF object", path);
	if (!gelf_getehdr(o->elf, &eh))
		cs_elf_fail(path, "no ELF header");
	if (eh.e_type != ET_REL)
		cs_fail(CS_EXIT_USAGE, "%s: not a relocatable object (.o)", path);
	if (elf_getshdrnum(o->elf, &o->shnum) != 0 || elf_getshdrstrndx(o->elf, &shstrndx) != 0)
		cs_elf_fail(path, "no section headers");
	/* Everything in memory: thousands of objects need no open files. */
	if (elf_cntl(o->elf, ELF_C_FDREAD) != 0)
		cs_elf_fail(path, "cannot read");
	close(fd);
	o->secs = calloc(o->shnum ? o->shnum : 1, sizeof *o->secs);
	if (!o->secs)
		cs_fail(1, "out of memory");
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

struct cs_obj *cs_obj_at(uint32_t i)
{
	return &cs_objs[i];
}
