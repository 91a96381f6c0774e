/* census.h's first two parts: the census is one walk over every unit's
 * scopes, down to the inlined copies in them. */
#define _GNU_SOURCE
#include "census.h"

#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <gsl/gsl_sort_uint.h>
#include <math.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>

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

uint64_t ic_debug_info_bytes(Elf *elf, int zdebug)
{
	Elf_Scn *scn = NULL;
	size_t strndx;
	uint64_t bytes = 0;

	while (!elf_getshdrstrndx(elf, &strndx) && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		GElf_Chdr ch;
		const char *n = gelf_getshdr(scn, &sh) ? elf_strptr(elf, strndx, sh.sh_name) : NULL;

		if (n && (!strcmp(n, ".debug_info") || (zdebug && !strcmp(n, ".zdebug_info"))) &&
		    sh.sh_type != SHT_NOBITS)
			bytes = (sh.sh_flags & SHF_COMPRESSED) && gelf_getchdr(scn, &ch) ? ch.ch_size : sh.sh_size;
	}
	return bytes;
}

static void df_build_id(Elf *elf, char *hex, size_t cap)
{
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &id);

	hex[0] = '\0';
	for (ssize_t i = 0; n > 0 && i < n && (size_t)(2 * i + 3) <= cap; i++)
		snprintf(hex + 2 * i, cap - 2 * i, "%02x", ((const unsigned char *)id)[i]);
}

/* zlib is always read; another compression this libelf cannot undo is
 * refused here, not seen later as a file without DWARF. */
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
 * through relocations, which libdwfl applies and libdw does not. */
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

	memset(f, 0, sizeof(*f));
	f->fd = f->debug_fd = -1;
	elf_version(EV_CURRENT);
	if (df_open_elf(path, &f->fd, &f->elf, err, errlen))
		return -1;
	df_build_id(f->elf, id, sizeof(id));
	if (!dpath && !ic_debug_info_bytes(f->elf, 1)) {
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
		if (!ic_debug_info_bytes(f->debug_elf, 1))
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
	f->info_bytes = ic_debug_info_bytes(src, 0);
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

struct census_walk {
	struct ic_census *c;
	void *origins;             /* this unit's origin DIEs: struct census_origin */
	int cplusplus;             /* member functions may be defined in a class */
	char *err;
	size_t errlen;
};

/* An inline function's DIE (its copies' abstract_origin) and its row. Kept
 * per unit (a copy's origin is nearly always in it): the tree stays small. */
struct census_origin {
	const void *addr;
	struct ic_inline_fn *fn;
};

static int census_origin_cmp(const void *a, const void *b)
{
	const void *x = ((const struct census_origin *)a)->addr, *y = ((const struct census_origin *)b)->addr;

	return x < y ? -1 : x > y;
}

static int census_fn_cmp(const void *a, const void *b)
{
	const struct ic_inline_fn *x = a, *y = b;
	int d = strcmp(x->name, y->name);

	if (d)
		return d;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	/* Interned: one pointer per path. */
	return x->file < y->file ? -1 : x->file > y->file;
}

static int census_str_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* path without ".", ".." and repeated slashes: one header reached by
 * different relative paths is one file. A relative path (a build with
 * -fdebug-prefix-map, as Debian's) stays relative to the same root. */
static char *census_path_normalise(const char *p)
{
	size_t len = strlen(p), n = 0, w = 0;
	char *copy = ic_xalloc(strdup(p)), *out = ic_xalloc(malloc(len + 2)), *save = NULL, *seg;
	char **seg_at = ic_xalloc(malloc((len + 1) * sizeof(*seg_at)));

	/* ".." pops a name, not the root nor a ".." kept before it. */
	for (seg = strtok_r(copy, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
		if (!strcmp(seg, "."))
			continue;
		if (!strcmp(seg, "..") && n && strcmp(seg_at[n - 1], ".."))
			n--;
		else if (strcmp(seg, "..") || p[0] != '/')
			seg_at[n++] = seg;
	}
	if (p[0] == '/')
		out[w++] = '/';
	for (size_t i = 0; i < n; i++)
		w += (size_t)sprintf(out + w, i ? "/%s" : "%s", seg_at[i]);
	if (!w)
		out[w++] = '.';
	out[w] = '\0';
	free(seg_at);
	free(copy);
	return out;
}

/* An inline function's declaration file, interned; "" when DWARF has none.
 * libdw joins a file's directory to its name, and the compilation directory
 * for directory 0 only: another relative directory is joined to it here. */
static const char *census_decl_file(struct census_walk *w, Dwarf_Die *origin)
{
	const char *f = dwarf_decl_file(origin), *dir = NULL;
	Dwarf_Attribute a, d;
	Dwarf_Die cu;
	char *joined = NULL, *path, **hit;
	size_t n;

	if (!f)
		return "";
	if (f[0] != '/' && dwarf_attr_integrate(origin, DW_AT_decl_file, &a) &&
	    dwarf_cu_die(a.cu, &cu, NULL, NULL, NULL, NULL, NULL, NULL))
		dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &d));
	n = dir ? strlen(dir) : 0;
	if (dir && !(strncmp(f, dir, n) == 0 && f[n] == '/'))
		f = ic_xalloc(asprintf(&joined, "%s/%s", dir, f) < 0 ? NULL : joined);
	path = census_path_normalise(f);
	free(joined);
	hit = ic_xalloc(tsearch(path, &w->c->files, census_str_cmp));
	if (*hit != path)
		free(path);
	return *hit;
}

/* The row of an inline function's DIE: found by name, file and line, or new. */
static struct ic_inline_fn *census_fn_of(struct census_walk *w, Dwarf_Die *origin)
{
	struct census_origin key = { .addr = origin->addr }, *o, **seen;
	struct ic_inline_fn probe = { 0 }, *fn, **hit;
	Dwarf_Attribute a;

	seen = tfind(&key, &w->origins, census_origin_cmp);
	if (seen)
		return (*seen)->fn;
	probe.name = dwarf_formstring(dwarf_attr_integrate(origin, DW_AT_name, &a));
	if (!probe.name)
		probe.name = "";
	if (dwarf_decl_line(origin, &probe.line))
		probe.line = 0;
	probe.file = census_decl_file(w, origin);
	hit = ic_xalloc(tsearch(&probe, &w->c->by_key, census_fn_cmp));
	if (*hit == &probe) {
		if (w->c->nfns % 1024 == 0)
			w->c->fns = ic_xrealloc(w->c->fns, w->c->nfns + 1024, sizeof(*w->c->fns));
		fn = ic_xalloc(malloc(sizeof(*fn)));
		*fn = probe;
		fn->median = fn->median_all = NAN;
		*hit = fn;   /* the tree keeps the row itself, not the probe */
		w->c->fns[w->c->nfns++] = fn;
	}
	o = ic_xalloc(malloc(sizeof(*o)));
	*o = (struct census_origin){ key.addr, *hit };
	ic_xalloc(tsearch(o, &w->origins, census_origin_cmp));
	return *hit;
}

static uint64_t census_bytes(Dwarf_Die *die)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;
	uint64_t sum = 0;

	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (end > start)
			sum += end - start;
	return sum;
}

/* v after arr's n: the room, 4 at first, doubles whenever n reaches it. */
static void census_push(uint32_t **arr, size_t *n, uint32_t v)
{
	if (*n < 4 ? !*n : !(*n & (*n - 1)))
		*arr = ic_xrealloc(*arr, *n < 4 ? 4 : 2 * *n, sizeof(**arr));
	(*arr)[(*n)++] = v;
}

static int census_copy(struct census_walk *w, Dwarf_Die *die, int nested)
{
	Dwarf_Attribute a;
	Dwarf_Die origin;
	struct ic_inline_fn *fn;
	uint64_t bytes;

	w->c->all_copies++;
	if (!dwarf_attr(die, DW_AT_abstract_origin, &a))
		return ic_fail(w->err, w->errlen, "the inlined copy at DWARF offset %llu has no DW_AT_abstract_origin",
			       (unsigned long long)dwarf_dieoffset(die));
	if (!dwarf_formref_die(&a, &origin)) {
		unsigned form = dwarf_whatform(&a);

		if (form == DW_FORM_GNU_ref_alt || form == DW_FORM_ref_sup4 || form == DW_FORM_ref_sup8)
			return ic_fail(w->err, w->errlen, "the functions are in a dwz file (.gnu_debugaltlink) that libdw did not find: install it, from the same debug package");
		return ic_fail(w->err, w->errlen, "the inlined copy at DWARF offset %llu: its DW_AT_abstract_origin cannot be read: %s",
			       (unsigned long long)dwarf_dieoffset(die), dwarf_errmsg(-1));
	}
	fn = census_fn_of(w, &origin);
	bytes = census_bytes(die);
	if (bytes > UINT32_MAX)
		bytes = 0;   /* no copy is 4 GiB: a broken range */
	if (nested) {
		fn->nested++;
		if (bytes)
			census_push(&fn->nested_bytes, &fn->nested_code, (uint32_t)bytes);
	} else if (!bytes) {
		fn->no_bytes++;
	} else {
		census_push(&fn->bytes, &fn->copies, (uint32_t)bytes);
		fn->total += bytes;
	}
	return 0;
}

/* The scopes under parent that can hold code, down to every inlined copy;
 * nested: parent is itself an inlined copy or inside one. */
static int census_scope(struct census_walk *w, Dwarf_Die *parent, int nested)
{
	Dwarf_Die child;
	int rc = dwarf_child(parent, &child);

	if (rc < 0)
		return ic_fail(w->err, w->errlen, "DWARF at offset %llu: %s", (unsigned long long)dwarf_dieoffset(parent),
			       dwarf_errmsg(-1));
	while (rc == 0) {
		int r = 0;

		switch (dwarf_tag(&child)) {
		case DW_TAG_inlined_subroutine:
			r = census_copy(w, &child, nested);
			if (!r && dwarf_haschildren(&child))
				r = census_scope(w, &child, 1);
			break;
		case DW_TAG_lexical_block:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			if (dwarf_haschildren(&child))
				r = census_scope(w, &child, nested);
			break;
		case DW_TAG_subprogram:
			/* Not the abstract instance of an inline function alone:
			 * that has no code of its own, so no copies inside. */
			if (dwarf_haschildren(&child) && !(dwarf_hasattr(&child, DW_AT_inline) &&
			    !dwarf_hasattr(&child, DW_AT_low_pc) && !dwarf_hasattr(&child, DW_AT_ranges)))
				r = census_scope(w, &child, 0);
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
			r = census_scope(w, &child, 0);
			break;
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			if (w->cplusplus && dwarf_haschildren(&child))
				r = census_scope(w, &child, 0);
			break;
		default:
			break;
		}
		if (r)
			return r;
		rc = dwarf_siblingof(&child, &child);
	}
	if (rc < 0)
		return ic_fail(w->err, w->errlen, "DWARF after offset %llu: %s", (unsigned long long)dwarf_dieoffset(&child),
			       dwarf_errmsg(-1));
	return 0;
}

/* Largest total first; then more copies, more nested; then by name, file
 * and line, so the order is the same every time. */
static int census_row_cmp(const void *a, const void *b)
{
	const struct ic_inline_fn *x = *(const struct ic_inline_fn *const *)a;
	const struct ic_inline_fn *y = *(const struct ic_inline_fn *const *)b;
	int d;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->copies != y->copies)
		return x->copies > y->copies ? -1 : 1;
	if (x->nested != y->nested)
		return x->nested > y->nested ? -1 : 1;
	d = strcmp(x->name, y->name);
	if (!d)
		d = strcmp(x->file, y->file);
	return d ? d : (x->line > y->line) - (x->line < y->line);
}

/* v's median, v sorted here. The middle two are added as doubles: GSL's
 * median adds them as unsigned ints, which wraps for sizes near 4 GB. */
static double census_median(uint32_t *v, size_t n)
{
	if (!n)
		return NAN;
	gsl_sort_uint(v, 1, n);
	return n % 2 ? v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + v[n / 2]);
}

static void census_finish(struct ic_census *c)
{
	for (size_t i = 0; i < c->nfns; i++) {
		struct ic_inline_fn *fn = c->fns[i];
		size_t n = fn->copies + fn->nested_code;

		fn->median = fn->median_all = census_median(fn->bytes, fn->copies);
		if (!fn->nested_code)
			continue;
		fn->bytes = ic_xrealloc(fn->bytes, n, sizeof(*fn->bytes));
		memcpy(fn->bytes + fn->copies, fn->nested_bytes, fn->nested_code * sizeof(*fn->bytes));
		fn->median_all = census_median(fn->bytes, n);
	}
	qsort(c->fns, c->nfns, sizeof(*c->fns), census_row_cmp);
}

int ic_census_read(struct ic_census *c, Dwarf *dw, char *err, size_t errlen)
{
	struct census_walk w = { .c = c, .err = err, .errlen = errlen };
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	uint8_t unit_type;
	int rc, lang;

	memset(c, 0, sizeof(*c));
	while ((rc = dwarf_get_units(dw, cu, &cu, NULL, &unit_type, &cudie, &subdie)) == 0) {
		Dwarf_Die *top = &cudie;

		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;
		/* -gsplit-dwarf: the code's DIEs are in the split unit, if libdw
		 * finds it. Its file names first: libdw 0.188's dwarf_decl_file
		 * asserts on a split unit whose files are unread. */
		if (unit_type == DW_UT_skeleton && dwarf_tag(&subdie) != DW_TAG_compile_unit) {
			c->missing_split++;
			continue;
		}
		if (unit_type == DW_UT_skeleton) {
			Dwarf_Files *files;
			size_t nfiles;

			top = &subdie;
			if (dwarf_getsrcfiles(top, &files, &nfiles))
				return ic_fail(err, errlen, "a split DWARF unit's file names cannot be read: %s", dwarf_errmsg(-1));
		}
		c->units++;
		lang = dwarf_srclang(top);
		w.cplusplus = lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_03 ||
			      lang == DW_LANG_C_plus_plus_11 || lang == DW_LANG_C_plus_plus_14;
		rc = dwarf_haschildren(top) ? census_scope(&w, top, 0) : 0;
		tdestroy(w.origins, free);
		w.origins = NULL;
		if (rc)
			return -1;
	}
	if (rc < 0)
		return ic_fail(err, errlen, "DWARF unit %zu cannot be read: %s", c->units + 1, dwarf_errmsg(-1));
	census_finish(c);
	return 0;
}

/* A row: a node of by_key, which holds the same rows as fns. */
static void census_row_free(void *p)
{
	struct ic_inline_fn *fn = p;

	free(fn->bytes);
	free(fn->nested_bytes);
	free(fn);
}

void ic_census_free(struct ic_census *c)
{
	tdestroy(c->by_key, census_row_free);
	tdestroy(c->files, free);   /* the interned file names */
	free(c->fns);
	memset(c, 0, sizeof(*c));
}
