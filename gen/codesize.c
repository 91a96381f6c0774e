/* codesize: the code-size accounting of generated points, from their objects.
 *
 *   codesize [-o OUT.csv] --point form:op:layout:order:seed:sites OBJ... [--point ...]
 *   codesize [-o OUT.csv] @ARGS    (ARGS: the same arguments, one per line)
 *
 * For each point, from its relocatable objects (read with libelf):
 *   footprint_bytes  bytes of all executable sections (.text*): the sites, the
 *                    point's pass(), and any out-of-line copies the compiler
 *                    made of `hint` operations in those objects;
 *   queue_calls      relocations, in code outside those copies, against a
 *                    queue operation (ic_<op>_<form>, gcc clones such as
 *                    .constprop/.isra/.part included). The objects must be
 *                    built with -ffunction-sections: otherwise a call to a
 *                    local copy in the same section needs no relocation;
 *   site_functions   functions named <prefix>_site_<k> or <prefix>_caller_<j>;
 *   inlined_sites    sites - ceil(queue_calls / ops_per_site), an estimate: it
 *                    assumes a site calls either none or all of its ops out of
 *                    line (a site with one of two ops inlined counts as not
 *                    inlined), and counts purge's inner dequeue, should purge
 *                    be inlined without it, as a call of that site.
 * and per group (form, op, layout, order) code_bytes_per_site: the
 * least-squares slope of footprint_bytes over sites across the group's points
 * (empty when the group has one N). Rows in the order the points were given.
 * Bad usage or input: one line on stderr, exit 2; the CSV is written under a
 * temporary name and renamed.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "point_name.h"

#define CS_EXIT_USAGE 2

struct cs_point {
	struct ic_point_id id;
	char prefix[128];
	const char **objs;
	size_t nobjs, cap;
	uint64_t footprint;
	uint64_t queue_calls;
	uint64_t functions;
};

struct cs_run {
	struct cs_point *pts;
	size_t npts, cap;
	const char *out;
};

static const char *cs_prog = "codesize";

static void cs_fail(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cs_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static void *cs_grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	if (*cap < need)
		*cap = need;
	p = realloc(p, *cap * size);
	if (!p)
		cs_fail(1, "out of memory");
	return p;
}

/* "form:op:layout:order:seed:sites" */
static void cs_parse_spec(const char *spec, struct ic_point_id *id)
{
	char buf[256], *field[6], *save = NULL, *tok;
	int n = 0, v[4];
	const char *const *names[4] = { ic_form_names, ic_op_names, ic_layout_names, ic_order_names };
	const int counts[4] = { IC_FORM_COUNT, IC_OP_COUNT, IC_LAYOUT_COUNT, IC_ORDER_COUNT };
	unsigned long long num[2];

	if (strlen(spec) >= sizeof buf)
		cs_fail(CS_EXIT_USAGE, "--point: '%.40s...' is too long", spec);
	strcpy(buf, spec);
	for (tok = strtok_r(buf, ":", &save); tok && n < 6; tok = strtok_r(NULL, ":", &save))
		field[n++] = tok;
	if (n != 6 || tok)
		cs_fail(CS_EXIT_USAGE, "--point: '%s' is not form:op:layout:order:seed:sites", spec);
	for (int i = 0; i < 4; i++) {
		v[i] = ic_name_find(names[i], counts[i], field[i]);
		if (v[i] < 0)
			cs_fail(CS_EXIT_USAGE, "--point: '%s': unknown name '%s'", spec, field[i]);
	}
	for (int i = 0; i < 2; i++) {
		char *end;
		const char *s = field[4 + i];

		errno = 0;
		num[i] = strtoull(s, &end, 10);
		if (*s < '0' || *s > '9' || *end || errno)
			cs_fail(CS_EXIT_USAGE, "--point: '%s': '%s' is not a number", spec, s);
	}
	if (num[0] > UINT32_MAX || num[1] < 1 || num[1] > IC_POINT_SITES_MAX)
		cs_fail(CS_EXIT_USAGE, "--point: '%s': seed or sites out of range", spec);
	id->form = (enum ic_form)v[0];
	id->op = (enum ic_op)v[1];
	id->layout = (enum ic_layout)v[2];
	id->order = (enum ic_order)v[3];
	id->seed = id->order == IC_ORDER_RANDOM ? (uint32_t)num[0] : 0;
	id->sites = (uint32_t)num[1];
}

/* Is name a queue operation, or a gcc clone of one (name.constprop.0 ...)? */
static int cs_is_queue_op(const char *name)
{
	static const char *const ops[] = {
		"queue_init", "queue_head", "queue_tail", "dequeue", "dequeue_tail",
		"insert", "append", "unlink", "purge",
	};

	if (!name || strncmp(name, "ic_", 3) != 0)
		return 0;
	name += 3;
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		size_t len = strlen(ops[i]);

		if (strncmp(name, ops[i], len) != 0 || name[len] != '_')
			continue;
		for (int f = 0; f < IC_FORM_COUNT; f++) {
			size_t flen = strlen(ic_form_names[f]);
			const char *rest = name + len + 1;

			if (strncmp(rest, ic_form_names[f], flen) == 0 &&
			    (rest[flen] == '\0' || rest[flen] == '.'))
				return 1;
		}
	}
	return 0;
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

static void cs_elf_fail(const char *path, const char *what)
{
	cs_fail(CS_EXIT_USAGE, "%s: %s (%s)", path, what, elf_errmsg(-1));
}

static void cs_scan_object(struct cs_point *pt, const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	GElf_Ehdr eh;
	size_t shnum, shstrndx;
	Elf_Scn *scn = NULL;
	Elf_Data *symdata = NULL;
	size_t symstr = 0, nsyms = 0;
	const char **fn;   /* per section: the function it holds */

	if (fd < 0)
		cs_fail(CS_EXIT_USAGE, "%s: %s", path, strerror(errno));
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		cs_fail(CS_EXIT_USAGE, "%s: not an ELF object", path);
	if (!gelf_getehdr(elf, &eh))
		cs_elf_fail(path, "no ELF header");
	if (eh.e_type != ET_REL)
		cs_fail(CS_EXIT_USAGE, "%s: not a relocatable object (.o)", path);
	if (elf_getshdrnum(elf, &shnum) != 0 || elf_getshdrstrndx(elf, &shstrndx) != 0)
		cs_elf_fail(path, "no section headers");
	fn = calloc(shnum ? shnum : 1, sizeof *fn);
	if (!fn)
		cs_fail(1, "out of memory");

	/* Pass 1: code bytes, section names, the symbol table. */
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		size_t idx = elf_ndxscn(scn);

		if (!gelf_getshdr(scn, &sh))
			cs_elf_fail(path, "bad section header");
		if ((sh.sh_flags & SHF_EXECINSTR) && (sh.sh_flags & SHF_ALLOC)) {
			pt->footprint += sh.sh_size;
			fn[idx] = cs_section_function(elf_strptr(elf, shstrndx, sh.sh_name));
		}
		if (sh.sh_type == SHT_SYMTAB) {
			symdata = elf_getdata(scn, NULL);
			symstr = sh.sh_link;
			nsyms = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		}
	}
	if (!symdata)
		cs_fail(CS_EXIT_USAGE, "%s: no symbol table", path);

	/* Functions: the site functions/callers, and what each section holds
	 * (a function symbol names it better than the section name does). */
	for (size_t i = 0; i < nsyms; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(symdata, (int)i, &sym))
			cs_elf_fail(path, "bad symbol");
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF ||
		    sym.st_shndx >= shnum)
			continue;
		name = elf_strptr(elf, symstr, sym.st_name);
		if (cs_is_site_function(name, pt->prefix))
			pt->functions++;
		if (sym.st_value == 0 && fn[sym.st_shndx])
			fn[sym.st_shndx] = name;
	}

	/* Pass 2: relocations in code that is not itself a queue operation. */
	scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t n;

		if (!gelf_getshdr(scn, &sh))
			cs_elf_fail(path, "bad section header");
		if (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL)
			continue;
		if (sh.sh_info >= shnum || !fn[sh.sh_info] || cs_is_queue_op(fn[sh.sh_info]))
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; d && i < n; i++) {
			GElf_Rela rela;
			GElf_Rel rel;
			GElf_Sym sym;
			size_t symi;
			const char *name;

			if (sh.sh_type == SHT_RELA) {
				if (!gelf_getrela(d, (int)i, &rela))
					cs_elf_fail(path, "bad relocation");
				symi = GELF_R_SYM(rela.r_info);
			} else {
				if (!gelf_getrel(d, (int)i, &rel))
					cs_elf_fail(path, "bad relocation");
				symi = GELF_R_SYM(rel.r_info);
			}
			if (symi == 0 || symi >= nsyms || !gelf_getsym(symdata, (int)symi, &sym))
				continue;
			/* The assembler points calls to local functions (static
			 * hint copies) at their section's symbol. */
			if (GELF_ST_TYPE(sym.st_info) == STT_SECTION)
				name = sym.st_shndx < shnum ? fn[sym.st_shndx] : NULL;
			else
				name = elf_strptr(elf, symstr, sym.st_name);
			if (cs_is_queue_op(name))
				pt->queue_calls++;
		}
	}
	free(fn);
	elf_end(elf);
	close(fd);
}

/* @FILE arguments become the file's lines, one argument each; *owned gets
 * the lines read, for freeing. */
static char **cs_expand_args(int argc, char **argv, int *nargc, char ***owned)
{
	char **out = NULL, **own = NULL;
	size_t n = 0, cap = 0, nown = 0, owncap = 0;

	for (int i = 0; i < argc; i++) {
		FILE *f;
		char *line = NULL;
		size_t lcap = 0;
		ssize_t len;

		if (i == 0 || argv[i][0] != '@') {
			out = cs_grow(out, &cap, n + 2, sizeof *out);
			out[n++] = argv[i];
			continue;
		}
		f = fopen(argv[i] + 1, "r");
		if (!f)
			cs_fail(CS_EXIT_USAGE, "%s: %s", argv[i], strerror(errno));
		while ((len = getline(&line, &lcap, f)) >= 0) {
			while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
				line[--len] = '\0';
			if (len == 0)
				continue;
			out = cs_grow(out, &cap, n + 2, sizeof *out);
			own = cs_grow(own, &owncap, nown + 2, sizeof *own);
			out[n++] = own[nown++] = strdup(line);
			if (!out[n - 1])
				cs_fail(1, "out of memory");
		}
		free(line);
		fclose(f);
	}
	out = cs_grow(out, &cap, n + 1, sizeof *out);
	out[n] = NULL;
	own = cs_grow(own, &owncap, nown + 1, sizeof *own);
	own[nown] = NULL;
	*nargc = (int)n;
	*owned = own;
	return out;
}

static void cs_help(void)
{
	printf("usage: %s [-o OUT.csv] --point form:op:layout:order:seed:sites OBJ... [--point ...]\n"
	       "       %s [-o OUT.csv] @ARGS   (arguments read from ARGS, one per line)\n"
	       "Writes, per point, the code footprint, queue calls and inlined sites of its\n"
	       "objects (built with -ffunction-sections), and per form/op/layout/order the\n"
	       "bytes of code per site (slope over N), as CSV to OUT.csv (default stdout).\n",
	       cs_prog, cs_prog);
}

static void cs_parse_args(int argc, char **argv, struct cs_run *run)
{
	enum { OPT_POINT = 256, OPT_HELP };
	static const struct option longopts[] = {
		{ "point", required_argument, NULL, OPT_POINT },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	/* Leading '-': objects come back in order, as the argument of code 1. */
	while ((c = getopt_long(argc, argv, "-:o:h", longopts, NULL)) != -1) {
		struct cs_point *pt;

		switch (c) {
		case OPT_POINT:
			run->pts = cs_grow(run->pts, &run->cap, run->npts + 1, sizeof *run->pts);
			pt = &run->pts[run->npts++];
			memset(pt, 0, sizeof *pt);
			cs_parse_spec(optarg, &pt->id);
			ic_point_prefix(pt->prefix, sizeof pt->prefix, &pt->id);
			break;
		case 1:
			if (run->npts == 0)
				cs_fail(CS_EXIT_USAGE, "%s: object before the first --point", optarg);
			pt = &run->pts[run->npts - 1];
			pt->objs = cs_grow(pt->objs, &pt->cap, pt->nobjs + 1, sizeof *pt->objs);
			pt->objs[pt->nobjs++] = optarg;
			break;
		case 'o':
			run->out = optarg;
			break;
		case 'h':
		case OPT_HELP:
			cs_help();
			exit(0);
		case ':':
			cs_fail(CS_EXIT_USAGE, "%s: needs an argument", argv[optind - 1]);
			break;
		default:
			cs_fail(CS_EXIT_USAGE, "%s: unknown option (see --help)", argv[optind - 1]);
		}
	}
	if (run->npts == 0)
		cs_fail(CS_EXIT_USAGE, "--point: none given (see --help)");
	for (size_t i = 0; i < run->npts; i++)
		if (run->pts[i].nobjs == 0)
			cs_fail(CS_EXIT_USAGE, "--point: %s has no objects", run->pts[i].prefix);
}

static int cs_same_group(const struct ic_point_id *a, const struct ic_point_id *b)
{
	return a->form == b->form && a->op == b->op && a->layout == b->layout &&
	       a->order == b->order;
}

/* Least-squares slope of footprint over sites in pt's group; 0 if one N. */
static int cs_group_slope(const struct cs_run *run, const struct cs_point *pt, double *slope)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0, x0 = pt->id.sites;
	int spread = 0;

	for (size_t i = 0; i < run->npts; i++) {
		const struct cs_point *q = &run->pts[i];
		double x = q->id.sites, y = (double)q->footprint;

		if (!cs_same_group(&q->id, &pt->id))
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

static void cs_write_csv(FILE *f, const struct cs_run *run)
{
	fputs("form,op,layout,order,seed,sites,footprint_bytes,code_bytes_per_site,"
	      "queue_calls,ops_per_site,inlined_sites,site_functions\n", f);
	for (size_t i = 0; i < run->npts; i++) {
		const struct cs_point *pt = &run->pts[i];
		uint64_t calls_sites = (pt->queue_calls + IC_POINT_OPS_PER_SITE - 1) /
				       IC_POINT_OPS_PER_SITE;
		uint64_t inlined = calls_sites >= pt->id.sites ? 0 : pt->id.sites - calls_sites;
		double slope;
		char slope_s[32] = "";

		if (cs_group_slope(run, pt, &slope))
			snprintf(slope_s, sizeof slope_s, "%.2f", slope);
		fprintf(f, "%s,%s,%s,%s,%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%s,%" PRIu64 ",%u,%"
			PRIu64 ",%" PRIu64 "\n",
			ic_form_names[pt->id.form], ic_op_names[pt->id.op],
			ic_layout_names[pt->id.layout], ic_order_names[pt->id.order],
			pt->id.seed, pt->id.sites, pt->footprint, slope_s, pt->queue_calls,
			IC_POINT_OPS_PER_SITE, inlined, pt->functions);
	}
}

static void cs_write(const struct cs_run *run)
{
	struct ic_atomic_file af;

	if (!run->out || strcmp(run->out, "-") == 0) {
		cs_write_csv(stdout, run);
		if (fflush(stdout) != 0)
			cs_fail(1, "cannot write stdout: %s", strerror(errno));
		return;
	}
	if (ic_atomic_open(&af, run->out, 0) != 0)
		cs_fail(1, "%s", af.err);
	cs_write_csv(af.f, run);
	if (ic_atomic_commit(&af) != 0)
		cs_fail(1, "%s", af.err);
}

int main(int argc, char **argv)
{
	struct cs_run run = { 0 };
	char **args, **owned;
	int nargs;

	if (argc > 0 && argv[0][0]) {
		const char *slash = strrchr(argv[0], '/');

		cs_prog = slash ? slash + 1 : argv[0];
	}
	args = cs_expand_args(argc, argv, &nargs, &owned);
	cs_parse_args(nargs, args, &run);
	if (elf_version(EV_CURRENT) == EV_NONE)
		cs_fail(1, "libelf: %s", elf_errmsg(-1));
	for (size_t i = 0; i < run.npts; i++)
		for (size_t j = 0; j < run.pts[i].nobjs; j++)
			cs_scan_object(&run.pts[i], run.pts[i].objs[j]);
	cs_write(&run);
	for (size_t i = 0; i < run.npts; i++)
		free(run.pts[i].objs);
	free(run.pts);
	for (char **p = owned; *p; p++)
		free(*p);
	free(owned);
	free(args);
	return 0;
}
