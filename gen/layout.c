/* layout: a GNU ld script that places already compiled call-site objects in a
 * seeded random layout, so one build yields layout variants that differ only
 * in code placement.
 *
 *   layout --seed S [-o OUT.ld] @ARGS
 *
 * ARGS is ic_add_points' argument file (codesize's): for each point
 * "--point", its spec, its objects (a leading "--body", NAME pair is
 * codesize's and skipped). The objects must be built with
 * -ffunction-sections, so every caller / site function is a section of its own.
 *
 * The script collects the points' code into one output section after .text,
 * in an order and with gaps drawn from splitmix64(seed):
 *   - the translation units (each point's own, each series' sites files,
 *     shared by many points: each placed once) shuffled;
 *   - before each translation unit a gap of 0..15 cache lines (0..960 bytes),
 *     moving its code to other L1i sets and page offsets;
 *   - before each function a gap of 0, 16, 32 or 48 bytes: with the
 *     functions' 16-byte alignment, a random offset within a 64-byte line
 *     (in units of at most 64 functions: chain callers; a scatter point's
 *     unit of one function per site moves as a whole, see ly_object).
 * Functions keep their order inside a translation unit, so a chain point's
 * sequential walk stays sequential. Gaps are filled with int3 and never run.
 * The instructions are the objects' byte for byte: only addresses change.
 * Every layout variant of a run is drawn so, each from a seed of its own
 * (bench/link_variant); the ordinary link (no script) serves the tests and
 * the simulation only.
 *
 * Bad usage or input: one line on stderr, exit 2; the script is written under
 * a temporary name and renamed. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "kit.h"
#include "splitmix64.h"

#define LY_EXIT_USAGE 2
/* Gap units: per function up to 3 x 16 B (an offset within a 64-byte line),
 * per translation unit up to 15 x 64 B. */
#define LY_FN_STEP 16u
#define LY_FN_STEPS 4u
#define LY_TU_STEP 64u
#define LY_TU_STEPS 16u
/* Units with more functions than this get no gap per function (ly_object). */
#define LY_FN_GAPS_MAX 64u

static uint32_t ly_below(uint64_t *state, uint32_t n)
{
	return (uint32_t)(((unsigned __int128)ic_splitmix64_next(state) * n) >> 64);
}

/* Fisher-Yates over an array of pointers. */
static void ly_shuffle(void **v, size_t n, uint64_t *state)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = ly_below(state, (uint32_t)i);
		void *t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* The objects of every point in the ARGS file ("--point", spec, objects...), in order. */
static char **ly_read_args(const char *path, size_t *nobjs)
{
	FILE *f = fopen(path, "r");
	char **objs = NULL, *line = NULL;
	size_t cap = 0, n = 0, npts = 0, mine = 0;   /* mine: the last point's objects */
	ssize_t len;
	int skip = 0;   /* the next line is a spec, or --body's NAME */

	if (!f)
		ic_die(LY_EXIT_USAGE, "%s: %s", path, strerror(errno));
	for (;;) {
		len = getline(&line, &cap, f);
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0)
			continue;
		if (len > 0 && skip) {
			skip = 0;
		} else if (len < 0 || strcmp(line, "--point") == 0) {
			if (npts && (skip || !mine))
				ic_die(LY_EXIT_USAGE, "%s: point %zu has no spec or no objects", path, npts);
			if (len < 0)
				break;
			npts++;
			mine = 0;
			skip = 1;
		} else if (npts == 0 && strcmp(line, "--body") == 0) {
			skip = 1;
		} else if (npts == 0) {
			ic_die(LY_EXIT_USAGE, "%s: object '%s' before the first --point", path, line);
		} else {
			objs = ic_xrealloc(objs, n + 1, sizeof *objs);
			objs[n++] = ic_xalloc(strdup(line));
			mine++;
		}
	}
	free(line);
	fclose(f);
	if (npts == 0)
		ic_die(LY_EXIT_USAGE, "%s: no --point", path);
	*nobjs = n;
	return objs;
}

/* The object's last two components (the point's directory and the file):
 * unique, whether ld's command line has it relative or absolute. */
static const char *ly_object_tail(const char *path)
{
	const char *last = strrchr(path, '/'), *p;

	if (!last || last == path)
		return path;
	for (p = last - 1; p > path && *p != '/'; p--)
		;
	return *p == '/' ? p + 1 : path;
}

static void ly_elf_fail(const char *path, const char *what)
{
	ic_die(LY_EXIT_USAGE, "%s: %s (%s)", path, what, elf_errmsg(-1));
}

/* A function section: code, allocated, named .text.<something>. */
static const char *ly_function(Elf *elf, Elf_Scn *scn, const char *path, size_t shstrndx)
{
	GElf_Shdr sh;
	const char *name;

	if (!gelf_getshdr(scn, &sh))
		ly_elf_fail(path, "bad section header");
	if (!(sh.sh_flags & SHF_EXECINSTR) || !(sh.sh_flags & SHF_ALLOC) || sh.sh_size == 0)
		return NULL;
	name = elf_strptr(elf, shstrndx, sh.sh_name);
	return name && strncmp(name, ".text.", 6) == 0 ? name : NULL;
}

/* One translation unit: a gap, each function section with its gap, then the
 * rest of its .text*. A unit of more than LY_FN_GAPS_MAX functions (scatter's
 * one per site, clone's copies) gets its gap alone, one statement: a gap per
 * function gave a default sweep's script 150,000 statements. */
static void ly_object(FILE *out, const char *path, uint64_t *state)
{
	int fd = open(path, O_RDONLY);
	const char *tail = ly_object_tail(path);
	size_t shstrndx, nfn = 0;
	Elf_Scn *scn = NULL;
	Elf *elf;

	if (fd < 0)
		ic_die(LY_EXIT_USAGE, "%s: %s", path, strerror(errno));
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		ic_die(LY_EXIT_USAGE, "%s: not an ELF object", path);
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		ly_elf_fail(path, "no section headers");
	fprintf(out, "    /* %s */\n    . += %u;\n", tail, LY_TU_STEP * ly_below(state, LY_TU_STEPS));
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		nfn += ly_function(elf, scn, path, shstrndx) != NULL;
	if (nfn == 0)
		ic_die(LY_EXIT_USAGE, "%s: no .text.* sections (not built with -ffunction-sections?)", path);
	while (nfn <= LY_FN_GAPS_MAX && (scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name = ly_function(elf, scn, path, shstrndx);

		if (name)
			fprintf(out, "    . += %u;\n    *%s(%s)\n", LY_FN_STEP * ly_below(state, LY_FN_STEPS),
				tail, name);
	}
	fprintf(out, "    *%s(.text .text.*)\n", tail);
	elf_end(elf);
	close(fd);
}

static int ly_strcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void ly_write(FILE *out, char **objs, size_t n, uint64_t seed)
{
	uint64_t state = seed ^ UINT64_C(0x5851f42d4c957f2d);
	size_t k = 0;

	/* Every object once, in an order of their names, then shuffled. */
	qsort(objs, n, sizeof *objs, ly_strcmp);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || strcmp(objs[k - 1], objs[i]) != 0)
			objs[k++] = objs[i];
	ly_shuffle((void **)objs, k, &state);
	fprintf(out, "/* Generated by gen/layout: seed %" PRIu64 ". Do not edit. */\n"
		"SECTIONS\n{\n  .text.ic_sites : ALIGN(4096)\n  {\n", seed);
	for (size_t i = 0; i < k; i++)
		ly_object(out, objs[i], &state);
	/* Four bytes: lld reads a fill as a 32-bit value, GNU ld by its digits. */
	fputs("  } =0xcccccccc\n}\nINSERT AFTER .text;\n", out);
}

struct ly_seed {
	uint64_t value;
	int given;
};

/* --seed: 64 bits, digits only, checked each time (a bad one is refused even
 * if another follows). */
static int ly_seed(void *dest, const char *text)
{
	struct ly_seed *seed = dest;
	char *end;

	errno = 0;
	seed->value = strtoull(text, &end, 10);
	if (*text < '0' || *text > '9' || *end || errno)
		ic_die(LY_EXIT_USAGE, "--seed: '%s' is not a whole number", text);
	seed->given = 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *out_path = NULL;
	struct ly_seed seed = { 0, 0 };
	const struct ic_option opts[] = {
		IC_OPTION_CALL("seed", &seed, ly_seed),
		IC_OPTION_STRING("output", &out_path),
		IC_OPTION_STRING("o", &out_path),
		IC_OPTIONS_END,
	};
	struct ic_atomic_file af = { .f = stdout };
	char **objs;
	size_t nobjs;
	int rc;

	ic_prog = "layout";
	if ((rc = ic_options_parse(argc, argv, opts, "usage: layout --seed S [-o OUT.ld] @ARGS\n", "--help")) >= 0)
		return rc;
	if (!seed.given)
		ic_die(LY_EXIT_USAGE, "--seed is required (see --help)");
	if (optind + 1 != argc || argv[optind][0] != '@')
		ic_die(LY_EXIT_USAGE, "one @ARGS file expected (see --help)");
	if (elf_version(EV_CURRENT) == EV_NONE)
		ic_die(1, "libelf: %s", elf_errmsg(-1));
	objs = ly_read_args(argv[optind] + 1, &nobjs);
	if (out_path && ic_atomic_open(&af, out_path, 0) != 0)
		ic_die(1, "%s", af.err);
	ly_write(af.f, objs, nobjs, seed.value);
	if (!out_path)
		return fflush(stdout) ? 1 : 0;
	if (ic_atomic_commit(&af) != 0)
		ic_die(1, "%s", af.err);
	return 0;
}
