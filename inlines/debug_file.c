/* Finding and opening a binary's DWARF (census.h). */
#define _GNU_SOURCE
#include "census.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

#include "kit.h"

/* glibc 2.36's elf.h predates it; the gABI's value. */
#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2
#endif

static int df_open_elf(const char *path, int *fd, Elf **elf, char *err, size_t len)
{
	struct stat st;
	GElf_Ehdr eh;

	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return ic_fail(err, len, "%s: cannot open it: %s", path, strerror(errno));
	if (fstat(*fd, &st) || !S_ISREG(st.st_mode))
		return ic_fail(err, len, "%s: not a file: give a program, a shared library, a vmlinux or a .debug file", path);
	*elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!*elf || elf_kind(*elf) != ELF_K_ELF || !gelf_getehdr(*elf, &eh))
		return ic_fail(err, len, "%s: not an ELF file: give a program, a shared library, a vmlinux or a .debug file", path);
	return 0;
}

/* The section called name, NULL when there is none. */
static Elf_Scn *df_section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t strndx;

	if (elf_getshdrstrndx(elf, &strndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n = gelf_getshdr(scn, sh) ? elf_strptr(elf, strndx, sh->sh_name) : NULL;

		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/* DWARF with content: a stripped file keeps none, a -dbg file's sections
 * of code are NOBITS but its .debug_info is there. */
static int df_has_dwarf(Elf *elf)
{
	GElf_Shdr sh;

	return (df_section(elf, ".debug_info", &sh) || df_section(elf, ".zdebug_info", &sh)) &&
	       sh.sh_type != SHT_NOBITS && sh.sh_size > 0;
}

static void df_build_id(Elf *elf, char *hex, size_t cap)
{
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &id);

	hex[0] = '\0';
	for (ssize_t i = 0; n > 0 && i < n && (size_t)(2 * i + 3) <= cap; i++)
		snprintf(hex + 2 * i, cap - 2 * i, "%02x", ((const unsigned char *)id)[i]);
}

/* zlib is always read; another compression is refused here when this
 * libelf cannot undo it, rather than seen later as a file without DWARF. */
static int df_check_compression(Elf *elf, const char *path, int separate, char *err, size_t len)
{
	Elf_Scn *scn = NULL;
	size_t strndx;

	if (elf_getshdrstrndx(elf, &strndx))
		return ic_fail(err, len, "%s: its section headers cannot be read: %s", path, elf_errmsg(-1));
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		GElf_Chdr ch;
		const char *n;
		char how[32] = "zstd";

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_COMPRESSED))
			continue;
		n = elf_strptr(elf, strndx, sh.sh_name);
		if (!n || strncmp(n, ".debug_", 7) || !gelf_getchdr(scn, &ch) || ch.ch_type == ELFCOMPRESS_ZLIB)
			continue;
		if (elf_compress(scn, 0, 0) >= 0)
			continue;
		if (ch.ch_type != ELFCOMPRESS_ZSTD)
			snprintf(how, sizeof(how), "compression type %u", (unsigned)ch.ch_type);
		return ic_fail(err, len, "%s: its debug sections are compressed with %s, which this libdw (elfutils %s) cannot read: "
			       "objcopy --decompress-debug-sections %s OUT, then give %sOUT", path, how,
			       dwfl_version(NULL), path, separate ? "--debug " : "");
	}
	return 0;
}

/* The search for a separate debug file is ours, done before. */
static int df_no_search(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

/* An object file (a .o, a kernel module): its DWARF refers to sections
 * through relocations, which libdwfl applies and libdw alone does not. */
static int df_open_relocated(struct ic_debug_file *f, char *err, size_t len)
{
	static const Dwfl_Callbacks offline = {
		.find_debuginfo = df_no_search,
		.section_address = dwfl_offline_section_address,
	};
	Dwfl_Module *mod;
	Dwarf_Addr bias;

	f->dwfl = dwfl_begin(&offline);
	mod = f->dwfl ? dwfl_report_offline(f->dwfl, "", f->debug_path, -1) : NULL;
	if (!mod || dwfl_report_end(f->dwfl, NULL, NULL))
		return ic_fail(err, len, "%s: libdwfl cannot read this object file: %s", f->debug_path, dwfl_errmsg(-1));
	f->dw = dwfl_module_getdwarf(mod, &bias);
	if (!f->dw)
		return ic_fail(err, len, "%s: libdwfl cannot relocate its DWARF: %s", f->debug_path, dwfl_errmsg(-1));
	return 0;
}

int ic_debug_file_open(struct ic_debug_file *f, const char *path, const char *debug,
		       const char *debug_dir, char *err, size_t errlen)
{
	char id[256], debug_id[256], found[4096];
	const char *dpath = debug;
	Elf *src;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	GElf_Chdr ch;
	Elf_Scn *info;

	memset(f, 0, sizeof(*f));
	f->fd = f->debug_fd = -1;
	elf_version(EV_CURRENT);
	if (df_open_elf(path, &f->fd, &f->elf, err, errlen))
		return -1;
	df_build_id(f->elf, id, sizeof(id));
	if (!dpath && !df_has_dwarf(f->elf)) {
		if (!*id)
			return ic_fail(err, errlen, "%s has no DWARF (stripped?) and no build-id to find its debug file by: give --debug FILE", path);
		snprintf(found, sizeof(found), "%s/.build-id/%.2s/%s.debug", debug_dir, id, id + 2);
		if (access(found, R_OK))
			return ic_fail(err, errlen, "%s has no DWARF (stripped?) and there is no %s: install its debug package (-dbg or -dbgsym) or give --debug FILE",
				       path, found);
		dpath = found;
	}
	src = f->elf;
	if (dpath) {
		if (df_open_elf(dpath, &f->debug_fd, &f->debug_elf, err, errlen))
			return -1;
		if (!df_has_dwarf(f->debug_elf))
			return ic_fail(err, errlen, "%s has no DWARF: give the debug file of %s (objcopy --only-keep-debug, or its -dbg package's)", dpath, path);
		df_build_id(f->debug_elf, debug_id, sizeof(debug_id));
		if (*id && *debug_id && strcmp(id, debug_id))
			return ic_fail(err, errlen, "%s does not belong to %s: its build-id is %s, the binary's %s: give the debug file of this very build",
				       dpath, path, debug_id, id);
		f->build_id_checked = *id && *debug_id;
		src = f->debug_elf;
	}
	snprintf(f->debug_path, sizeof(f->debug_path), "%s", dpath ? dpath : path);
	if (df_check_compression(src, f->debug_path, dpath != NULL, err, errlen))
		return -1;
	if (gelf_getehdr(src, &eh) && eh.e_type == ET_REL) {
		if (df_open_relocated(f, err, errlen))
			return -1;
	} else {
		f->dw = dwarf_begin_elf(src, DWARF_C_READ, NULL);
		if (!f->dw)
			return ic_fail(err, errlen, "%s: libdw cannot read its DWARF: %s", f->debug_path, dwarf_errmsg(-1));
	}
	/* libdw has decompressed what it reads; the header says how much. */
	info = df_section(src, ".debug_info", &sh);
	if (info && (sh.sh_flags & SHF_COMPRESSED) && gelf_getchdr(info, &ch))
		f->info_bytes = ch.ch_size;
	else if (info)
		f->info_bytes = sh.sh_size;
	return 0;
}

void ic_debug_file_close(struct ic_debug_file *f)
{
	if (f->dwfl)
		dwfl_end(f->dwfl);   /* owns its Dwarf */
	else if (f->dw)
		dwarf_end(f->dw);
	if (f->debug_elf)
		elf_end(f->debug_elf);
	if (f->elf)
		elf_end(f->elf);
	if (f->debug_fd >= 0)
		close(f->debug_fd);
	if (f->fd >= 0)
		close(f->fd);
}
