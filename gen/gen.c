/* gen: write N distinct call sites of a locked queue operation as C sources.
 *
 *   gen --sites N --form F -o DIR [--op OP | --body FILE]
 *       [--layout chain|scatter] [--order seq|random] [--seed S]
 *       [--per-file K] [--per-caller C] [--filler BYTES]
 *
 * The names (forms, ops, layouts, orders) are point_names.def's.
 * DIR gets sites_<i>.c (i = 0 .. ceil(N/K)-1, K sites each), point.c (the
 * entry point: const struct ic_point <prefix>, see site.h) and manifest.txt.
 * Site k works on the thread's node n = ctx->node with the form's
 * ic_<op>_<form> (queue/queue_<form>.h), then IC_SITE_MARK(ctx, acc, k, C_k)
 * with C_k a 32-bit constant of its own, so no two sites are alike; form
 * `mark` writes the mark alone (the baseline that prices it); form `clone`
 * calls copies of its own, <prefix>_k<k>_<op> (static, IC_CLONE_ATTR of
 * queue/queue_clone.h, each the forced-inline body), written before the
 * function that holds site k:
 *   tail_dequeue       queue_tail(q, n); n = dequeue(q)
 *   head_dequeue_tail  queue_head(q, n); n = dequeue_tail(q)
 *   insert_unlink      insert(q, anchor, n); unlink(q, n)
 *   append_unlink      append(q, anchor, n); unlink(q, n)
 *   mixed              site k does kind k % 5: the four above (2 and 3 on
 *                      the private scratch queue), then 4: queue_tail(scratch,
 *                      n); purge(scratch) -- all eight locked operations.
 * The caller keeps at least one node besides its own on q, so dequeue never
 * returns NULL.
 * With --body FILE (your own function, queue/body.h) the op is FILE's name
 * and site k runs sink += ic_body_<form>(ctx->body, C_k) (clone: its own copy
 * <prefix>_k<k>_<name> of ic_body_inline) before its mark; the site files of
 * forms inline, hint and clone include FILE (by its absolute path), extern's
 * only declare ic_body_extern. The nolock forms are refused: a body has no
 * lock.
 * With --filler B, site k's operation follows a filler block of its own:
 * round(B / 7) (at least 1) distinct 32-bit constants, the first four moved
 * into four register accumulators, the rest added to them in turn (one asm
 * per site, see site.h), the accumulators then added to acc.
 *
 * Same arguments, byte-identical files; each file is written under a
 * temporary name and renamed, so a build never sees half a file. Bad input
 * is reported before anything is written: one line on stderr, exit 2.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "point_name.h"
#include "splitmix64.h"

/* One TU with 65,536 inlined sites took gcc 122 s and 1.4 GB (DESIGN.md);
 * 256 sites compile in well under a second and keep -j busy. */
#define GEN_PER_FILE_DEFAULT 256u
/* Sites per chain caller by default: a handful of call sites per function,
 * as in a network stack's receive path, each run once per packet. */
#define GEN_PER_CALLER_DEFAULT 16u
#define GEN_EXIT_USAGE 2
/* Filler constants: indices 2^29 .. 2^30-1 of the marks' bijection
 * (gen_filler_const). */
#define GEN_FILLER_BASE UINT32_C(0x20000000)
#define GEN_FILLER_CONSTS 0x20000000u

struct gen_args {
	struct ic_point_id id;
	uint32_t per_file;
	uint32_t per_caller;        /* chain: sites per caller function */
	uint32_t filler_adds;       /* constants per site's filler block; 0 without --filler */
	const char *dir;
	enum { GEN_PART_ALL, GEN_PART_SITES, GEN_PART_POINT } part;
	uint32_t series_sites;      /* the series' largest N: the sites compiled */
	char prefix[192];           /* the point's symbols: ic_pt_... */
	char sprefix[192];          /* the series' site functions: ic_sr_... */
	const char *cur;            /* the prefix of the functions being written */
	char *body_path;            /* --body: FILE's absolute path, or NULL */
	char body_name[IC_BODY_NAME_MAX + 1];
};

static const char *gen_prog = "gen";

static void gen_usage_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", gen_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(GEN_EXIT_USAGE);
}

/* "a|b|c" from a name table. */
static const char *gen_join(const char *const *names, int count)
{
	static char list[256];

	list[0] = '\0';
	for (int j = 0; j < count; j++) {
		strncat(list, names[j], sizeof list - strlen(list) - 1);
		if (j + 1 < count)
			strncat(list, "|", sizeof list - strlen(list) - 1);
	}
	return list;
}

static void gen_help(void)
{
	printf("usage: %s --sites N --form F -o DIR [options]\n"
	       "  --sites N       call sites, 1..%u\n", gen_prog, IC_POINT_SITES_MAX);
	printf("  --form F        %s (gen/point_names.def says what each is)\n",
	       gen_join(ic_form_names, IC_FORM_COUNT));
	printf("  --op OP         %s (default %s)\n", gen_join(ic_op_names, IC_OP_COUNT), ic_op_names[0]);
	printf("  --body FILE     your own function instead of the queue (queue/body.h); the op\n"
	       "                  is FILE's name; forms %s, %s, %s, %s, %s\n",
	       ic_form_names[IC_FORM_INLINE], ic_form_names[IC_FORM_HINT], ic_form_names[IC_FORM_EXTERN],
	       ic_form_names[IC_FORM_CLONE], ic_form_names[IC_FORM_MARK]);
	printf("  --layout L      %s (default %s): chain callers of --per-caller sites,\n"
	       "                  or one function per site walked through a table\n",
	       gen_join(ic_layout_names, IC_LAYOUT_COUNT), ic_layout_names[0]);
	printf("  --order O       %s (default %s): caller order (chain), walk order (scatter)\n",
	       gen_join(ic_order_names, IC_ORDER_COUNT), ic_order_names[0]);
	printf("  --seed S        seed for order random, 0..%u (default 0; seq ignores it)\n"
	       "  --per-file K    sites per translation unit, 1..%u (default %u)\n"
	       "  --per-caller C  sites per chain caller function, 1..%u (default %u)\n"
	       "  --filler BYTES  about BYTES of straight-line register adds before each\n"
	       "                  site's operation, 0..%u (default 0: none)\n"
	       "  --part P        all (default), sites or point: sites writes the series'\n"
	       "                  sites_<i>.c (--sites is then its largest N), point writes\n"
	       "                  point.c, whose pass calls the first --sites of them\n"
	       "  --series-sites M  with --part point: the N --part sites was given (default --sites)\n"
	       "  -o DIR          output directory (created if missing)\n",
	       UINT32_MAX, IC_POINT_SITES_MAX, GEN_PER_FILE_DEFAULT, IC_POINT_SITES_MAX,
	       GEN_PER_CALLER_DEFAULT, IC_POINT_FILLER_MAX);
}

/* Decimal digits only (no sign, no blanks), within [min, max]. */
static int gen_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;

	if (*s == '\0')
		return -1;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > max)
			return -1;
	}
	if (v < min)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int gen_parse_name(const char *opt, const char *const *names, int count, const char *s)
{
	int i = ic_name_find(names, count, s);

	if (i >= 0)
		return i;
	gen_usage_fail("%s: unknown value '%s' (%s)", opt, s, gen_join(names, count));
	return -1;
}

/* Can DIR be written, or created under its nearest existing ancestor? */
static void gen_check_dir(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;
	size_t len = strlen(dir);

	if (len == 0)
		gen_usage_fail("-o: empty directory name");
	if (len >= sizeof path - 64)  /* room for "/.sites_<i>.c.tmp.XXXXXX" */
		gen_usage_fail("-o: directory name too long");
	memcpy(path, dir, len + 1);
	for (;;) {
		if (stat(path, &st) == 0) {
			if (!S_ISDIR(st.st_mode))
				gen_usage_fail("-o: %s: not writable (%s is not a directory)", dir, path);
			if (access(path, W_OK | X_OK) != 0)
				gen_usage_fail("-o: %s: not writable (%s)", dir, strerror(errno));
			return;
		}
		if (errno != ENOENT)
			gen_usage_fail("-o: %s: not writable (%s)", dir, strerror(errno));
		/* Step up to the parent: drop trailing slashes, then the last name. */
		while (len > 1 && path[len - 1] == '/')
			path[--len] = '\0';
		while (len > 0 && path[len - 1] != '/')
			path[--len] = '\0';
		if (len == 0) {
			path[0] = '.';
			path[1] = '\0';
		} else if (len > 1) {
			path[--len] = '\0';
		}
	}
}

/* --body FILE: a readable regular file named <name>.c, its name a body's
 * name (point_name.h), its path one a #include "..." can spell; the form
 * one a body has. */
static void gen_check_body(struct gen_args *a, const char *file, int have_op)
{
	const char *base = strrchr(file, '/'), *why;
	struct stat st;
	size_t len;

	base = base ? base + 1 : file;
	len = strlen(base);
	if (len < 3 || strcmp(base + len - 2, ".c") != 0)
		gen_usage_fail("--body: %s: not a .c file", file);
	if (len - 2 > IC_BODY_NAME_MAX)
		gen_usage_fail("--body: %s: the name is longer than %u characters", file, IC_BODY_NAME_MAX);
	memcpy(a->body_name, base, len - 2);
	a->body_name[len - 2] = '\0';
	why = ic_body_name_why(a->body_name);
	if (why)
		gen_usage_fail("--body: %s: the name '%s' %s", file, a->body_name, why);
	if (stat(file, &st) != 0)
		gen_usage_fail("--body: %s: %s", file, strerror(errno));
	if (!S_ISREG(st.st_mode) || access(file, R_OK) != 0)
		gen_usage_fail("--body: %s: not a readable file", file);
	/* Absolute: the site files include it from their own directory. */
	a->body_path = realpath(file, NULL);
	if (!a->body_path)
		gen_usage_fail("--body: %s: %s", file, strerror(errno));
	/* The banner holds it in a comment too. */
	if (strpbrk(a->body_path, "\"\\\n") || strstr(a->body_path, "*/"))
		gen_usage_fail("--body: %s: the path holds a quote, backslash, newline or */, which "
			       "the generated files cannot spell", file);
	if (have_op)
		gen_usage_fail("--op: a body has one operation, its own (drop --op with --body)");
	if (ic_form_is_nolock(a->id.form))
		gen_usage_fail("--form %s: a body has no lock to replace (the nolock forms are the queue's)",
			       ic_form_names[a->id.form]);
	a->id.body = a->body_name;
}

/* The option as the user spelled it: "--name" (without "=value") or "-c". */
static const char *gen_opt_name(const char *arg, int opt)
{
	static char name[64];

	if (strncmp(arg, "--", 2) == 0)
		snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
	else
		snprintf(name, sizeof name, "-%c", opt > 0 && opt < 128 ? opt : '?');
	return name;
}

static void gen_parse_args(int argc, char **argv, struct gen_args *a)
{
	enum { OPT_SITES = 256, OPT_FORM, OPT_OP, OPT_LAYOUT, OPT_ORDER, OPT_SEED, OPT_PER_FILE,
	       OPT_PER_CALLER, OPT_FILLER, OPT_BODY, OPT_PART, OPT_SERIES_SITES, OPT_HELP };
	static const struct option longopts[] = {
		{ "sites", required_argument, NULL, OPT_SITES },
		{ "form", required_argument, NULL, OPT_FORM },
		{ "op", required_argument, NULL, OPT_OP },
		{ "layout", required_argument, NULL, OPT_LAYOUT },
		{ "order", required_argument, NULL, OPT_ORDER },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "per-file", required_argument, NULL, OPT_PER_FILE },
		{ "per-caller", required_argument, NULL, OPT_PER_CALLER },
		{ "filler", required_argument, NULL, OPT_FILLER },
		{ "body", required_argument, NULL, OPT_BODY },
		{ "part", required_argument, NULL, OPT_PART },
		{ "series-sites", required_argument, NULL, OPT_SERIES_SITES },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int have_sites = 0, have_form = 0, have_per_caller = 0, have_op = 0, c;
	const char *body = NULL;

	memset(a, 0, sizeof *a);
	a->id.op = IC_OP_TAIL_DEQUEUE;
	a->id.layout = IC_LAYOUT_CHAIN;
	a->id.order = IC_ORDER_SEQ;
	a->per_file = GEN_PER_FILE_DEFAULT;
	a->per_caller = GEN_PER_CALLER_DEFAULT;
	opterr = 0;  /* our own one-line messages */
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SITES:
			if (gen_parse_u32(optarg, 1, IC_POINT_SITES_MAX, &a->id.sites) != 0)
				gen_usage_fail("--sites: '%s' is not a number from 1 to %u",
					       optarg, IC_POINT_SITES_MAX);
			have_sites = 1;
			break;
		case OPT_FORM:
			a->id.form = gen_parse_name("--form", ic_form_names, IC_FORM_COUNT, optarg);
			have_form = 1;
			break;
		case OPT_OP:
			a->id.op = gen_parse_name("--op", ic_op_names, IC_OP_COUNT, optarg);
			have_op = 1;
			break;
		case OPT_BODY:
			body = optarg;
			break;
		case OPT_PART:
			if (strcmp(optarg, "all") == 0)
				a->part = GEN_PART_ALL;
			else if (strcmp(optarg, "sites") == 0)
				a->part = GEN_PART_SITES;
			else if (strcmp(optarg, "point") == 0)
				a->part = GEN_PART_POINT;
			else
				gen_usage_fail("--part: unknown value '%s' (all|sites|point)", optarg);
			break;
		case OPT_SERIES_SITES:
			if (gen_parse_u32(optarg, 1, IC_POINT_SITES_MAX, &a->series_sites) != 0)
				gen_usage_fail("--series-sites: '%s' is not a number from 1 to %u",
					       optarg, IC_POINT_SITES_MAX);
			break;
		case OPT_LAYOUT:
			a->id.layout = gen_parse_name("--layout", ic_layout_names, IC_LAYOUT_COUNT, optarg);
			break;
		case OPT_ORDER:
			a->id.order = gen_parse_name("--order", ic_order_names, IC_ORDER_COUNT, optarg);
			break;
		case OPT_SEED:
			if (gen_parse_u32(optarg, 0, UINT32_MAX, &a->id.seed) != 0)
				gen_usage_fail("--seed: '%s' is not a number from 0 to %u",
					       optarg, UINT32_MAX);
			break;
		case OPT_PER_FILE:
			if (gen_parse_u32(optarg, 1, IC_POINT_SITES_MAX, &a->per_file) != 0)
				gen_usage_fail("--per-file: '%s' is not a number from 1 to %u",
					       optarg, IC_POINT_SITES_MAX);
			break;
		case OPT_PER_CALLER:
			if (gen_parse_u32(optarg, 1, IC_POINT_SITES_MAX, &a->per_caller) != 0)
				gen_usage_fail("--per-caller: '%s' is not a number from 1 to %u",
					       optarg, IC_POINT_SITES_MAX);
			have_per_caller = 1;
			break;
		case OPT_FILLER:
			if (gen_parse_u32(optarg, 0, IC_POINT_FILLER_MAX, &a->id.filler) != 0)
				gen_usage_fail("--filler: '%s' is not a number from 0 to %u",
					       optarg, IC_POINT_FILLER_MAX);
			break;
		case 'o':
			a->dir = optarg;
			break;
		case 'h':
		case OPT_HELP:
			gen_help();
			exit(0);
		case ':':
			gen_usage_fail("%s: needs an argument", gen_opt_name(argv[optind - 1], optopt));
			break;
		default:
			gen_usage_fail("%s: unknown option (see --help)",
				       gen_opt_name(argv[optind - 1], optopt));
		}
	}
	if (optind < argc)
		gen_usage_fail("%s: unexpected argument (see --help)", argv[optind]);
	if (!have_sites)
		gen_usage_fail("--sites: missing (see --help)");
	if (!have_form)
		gen_usage_fail("--form: missing (see --help)");
	if (!a->dir)
		gen_usage_fail("-o: missing output directory (see --help)");
	if (body)
		gen_check_body(a, body, have_op);
	if (a->series_sites && a->part != GEN_PART_POINT)
		gen_usage_fail("--series-sites: only with --part point");
	if (!a->series_sites)
		a->series_sites = a->id.sites;
	if (a->series_sites < a->id.sites)
		gen_usage_fail("--series-sites: %u is fewer than --sites %u", a->series_sites, a->id.sites);
	/* A caller never spans translation units: asked for, that is an error;
	 * by default, callers are as long as the files, and say so. */
	if (a->per_caller > a->per_file) {
		if (have_per_caller)
			gen_usage_fail("--per-caller: %u is more than --per-file %u: a caller never "
				       "spans translation units", a->per_caller, a->per_file);
		a->per_caller = a->per_file;
	}
	if (a->id.order == IC_ORDER_SEQ)
		a->id.seed = 0;
	if (a->id.filler > 0) {
		a->filler_adds = ic_filler_adds(a->id.filler);
		if ((uint64_t)a->series_sites * a->filler_adds > GEN_FILLER_CONSTS)
			gen_usage_fail("--filler: %u bytes at %u sites needs %" PRIu64 " distinct "
				       "constants, more than the %u gen has", a->id.filler,
				       a->series_sites, (uint64_t)a->series_sites * a->filler_adds,
				       GEN_FILLER_CONSTS);
	}
	gen_check_dir(a->dir);
	ic_point_prefix(a->prefix, sizeof a->prefix, &a->id);
	ic_series_prefix(a->sprefix, sizeof a->sprefix, &a->id);
	a->cur = a->sprefix;
}

/* C_k: distinct for every k < 2^30 (k times an odd number is a bijection
 * mod 2^30), and always in [2^30, 2^31), so every mark is the same 32-bit
 * immediate add however small k is. */
static uint32_t gen_site_const(uint32_t k)
{
	return UINT32_C(0x40000000) | ((k * UINT32_C(0x9e3779b1)) & UINT32_C(0x3fffffff));
}

/* The filler's constants are gen_site_const at indices 2^29 + k * adds + i:
 * distinct from each other and from every mark (k < 10^6 < 2^29) by
 * construction. Random draws would collide (in 1 point of 400 at 64 sites
 * x 37 adds, about 170 times at 16,384 sites), and a collision would hide an
 * add from the tests' count of distinct immediates. */
static uint32_t gen_filler_const(const struct gen_args *a, uint32_t k, uint32_t i)
{
	return gen_site_const(GEN_FILLER_BASE + k * a->filler_adds + i);
}

/* Filler accumulators: four independent chains, fewer if fewer adds. */
static uint32_t gen_filler_accs(const struct gen_args *a)
{
	return a->filler_adds < 4 ? a->filler_adds : 4;
}

/* 0..n-1, in order or shuffled (Fisher-Yates) from the seed. */
static uint32_t *gen_walk_order(uint32_t n, const struct ic_point_id *id)
{
	uint32_t *v = malloc((size_t)n * sizeof *v);
	uint64_t state = id->seed;

	if (!v) {
		fprintf(stderr, "%s: out of memory\n", gen_prog);
		exit(1);
	}
	for (uint32_t i = 0; i < n; i++)
		v[i] = i;
	if (id->order == IC_ORDER_RANDOM) {
		for (uint32_t i = n - 1; i > 0; i--) {
			uint32_t j = (uint32_t)(((unsigned __int128)ic_splitmix64_next(&state) * (i + 1)) >> 64);
			uint32_t t = v[i];

			v[i] = v[j];
			v[j] = t;
		}
	}
	return v;
}

/* A file being written under a temporary name in the output directory,
 * renamed into place when whole (common/atomic_file.h). */
struct gen_file {
	struct ic_atomic_file af;
	FILE *f;
};

static void gen_file_open(struct gen_file *gf, const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	/* Same bytes as before: keep the old file, so make recompiles only the
	 * files gen really changed (a new gen rewrites every point). */
	if (ic_atomic_open(&gf->af, path, IC_ATOMIC_KEEP_SAME) != 0) {
		fprintf(stderr, "%s: %s\n", gen_prog, gf->af.err);
		exit(1);
	}
	gf->f = gf->af.f;
	/* One file is open at a time: one big buffer serves them all (glibc
	 * ignores the size when it is given no buffer). */
	static char buf[1 << 20];
	setvbuf(gf->f, buf, _IOFBF, sizeof buf);
}

static void gen_file_commit(struct gen_file *gf)
{
	if (ic_atomic_commit(&gf->af) != 0) {
		fprintf(stderr, "%s: %s\n", gen_prog, gf->af.err);
		exit(1);
	}
}

static void gen_io_fail(const char *what, const char *path)
{
	fprintf(stderr, "%s: %s %s: %s\n", gen_prog, what, path, strerror(errno));
	exit(1);
}

static void gen_mkdir_p(const char *dir)
{
	char path[PATH_MAX];
	size_t len = strlen(dir);

	memcpy(path, dir, len + 1);
	for (size_t i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST)
			gen_io_fail("cannot create directory", path);
		path[i] = dir[i];
	}
}

/* A series file's banner names no N, order or seed: a file's sites are the
 * same whatever the series' largest N, so such a file is kept byte for byte
 * (and not compiled again) when the series grows. */
static void gen_banner(FILE *f, const struct gen_args *a, int point)
{
	fprintf(f, "/* Generated by gen (gen/gen.c): --form %s %s %s --layout %s", ic_form_names[a->id.form],
		a->body_path ? "--body" : "--op", a->body_path ? a->body_path : ic_op_names[a->id.op],
		ic_layout_names[a->id.layout]);
	if (point)
		fprintf(f, " --sites %u --series-sites %u --order %s --seed %u", a->id.sites,
			a->series_sites, ic_order_names[a->id.order], a->id.seed);
	fprintf(f, " --per-file %u --per-caller %u --filler %u. Do not edit: the build writes it"
		" again. */\n", a->per_file, a->per_caller, a->id.filler);
}

/* What a site touches, so a function declares only the locals it uses. */
enum { GEN_USES_Q = 1, GEN_USES_ANCHOR = 2, GEN_USES_SCRATCH = 4, GEN_USES_BODY = 8 };

static enum ic_op gen_site_kind(const struct gen_args *a, uint32_t k)
{
	return a->id.op == IC_OP_MIXED ? (enum ic_op)(k % 5) : a->id.op;
}

static unsigned gen_site_uses(const struct gen_args *a, uint32_t k)
{
	if (a->id.form == IC_FORM_MARK)
		return 0;
	if (a->body_path)
		return GEN_USES_BODY;
	if (a->id.op != IC_OP_MIXED) {
		if (a->id.op == IC_OP_INSERT_UNLINK || a->id.op == IC_OP_APPEND_UNLINK)
			return GEN_USES_Q | GEN_USES_ANCHOR;
		return GEN_USES_Q;
	}
	return gen_site_kind(a, k) <= IC_OP_HEAD_DEQUEUE_TAIL ? GEN_USES_Q : GEN_USES_SCRATCH;
}

/* A function's locals; acc is ctx->acc in a register, stored back at the
 * end (gen_epilogue), so a mark is one register add, no load or store; a
 * body's values go to sink, ctx->sink the same way. */
static void gen_locals(FILE *f, const struct gen_args *a, unsigned uses)
{
	if (uses & GEN_USES_BODY) {
		fputs("\tstruct ic_body_state *b = ctx->body;\n\tuint64_t sink = ctx->sink;\n"
		      "\tuint64_t acc = ctx->acc;\n", f);
		return;
	}
	if (uses & GEN_USES_Q)
		fputs("\tstruct ic_queue *q = ctx->q;\n", f);
	if (uses & GEN_USES_ANCHOR)
		fputs("\tstruct ic_node *a = ctx->anchor;\n", f);
	if (uses & GEN_USES_SCRATCH)
		fputs("\tstruct ic_queue *s = ctx->scratch;\n", f);
	if (a->id.form != IC_FORM_MARK)
		fputs("\tstruct ic_node *n = ctx->node;\n", f);
	fputs("\tuint64_t acc = ctx->acc;\n", f);
}

static void gen_epilogue(FILE *f, const struct gen_args *a)
{
	if (a->id.form != IC_FORM_MARK)
		fputs(a->body_path ? "\tctx->sink = sink;\n" : "\tctx->node = n;\n", f);
	fputs("\tctx->acc = acc;\n}\n", f);
}

/* Site k's filler block (site.h says why it is one asm). Each accumulator starts
 * at a constant of the block's own, hidden by an asm so its first value is
 * a 5-byte move and every further constant an add; the adds rotate over
 * the accumulators; they are folded into acc at the block's end, so they
 * never live across a call (a chain caller's callee-saved registers are
 * taken: gcc spilled them to the stack when they lived to the function's
 * end). Volatile alone does not keep the block in place: gcc may move a
 * register-only asm across the queue operation's loads, stores and calls.
 * The first and last asm of the block clobber memory, so no memory access
 * or call crosses them: the filler runs after the previous site and before
 * this site's operation, as written. x86-64 only, as the suite is. */
static void gen_filler(FILE *f, const struct gen_args *a, uint32_t k)
{
	uint32_t m = gen_filler_accs(a);

	fputs("\t{\n", f);
	for (uint32_t j = 0; j < m; j++)
		fprintf(f, "%s f%" PRIu32 " = 0x%08" PRIx32, j ? "," : "\t\tuint64_t", j,
			gen_filler_const(a, k, j));
	fputs(";\n\t\t__asm__ volatile(\"\"", f);
	for (uint32_t j = 0; j < m; j++)
		fprintf(f, "%s \"+r\"(f%" PRIu32 ")", j ? "," : " :", j);
	fputs(" : : \"memory\");\n", f);
	/* The adds as one asm statement: the instructions gcc emitted for a C
	 * add and an empty asm each, in a fraction of the compile time. */
	if (a->filler_adds > m) {
		fputs("\t\t__asm__ volatile(", f);
		for (uint32_t i = m; i < a->filler_adds; i++)
			fprintf(f, "\n\t\t\t\"addq $0x%08" PRIx32 ", %%%" PRIu32 "\\n\\t\"",
				gen_filler_const(a, k, i), i % m);
		fputs("\n\t\t\t:", f);
		for (uint32_t j = 0; j < m; j++)
			fprintf(f, "%s \"+r\"(f%" PRIu32 ")", j ? "," : "", j);
		fputs(");\n", f);
	}
	fputs("\t\tacc +=", f);
	for (uint32_t j = 0; j < m; j++)
		fprintf(f, "%s f%" PRIu32, j ? " +" : "", j);
	fputs(";\n\t\t__asm__ volatile(\"\" : \"+r\"(acc) : : \"memory\");\n\t}\n", f);
}

/* The two queue operations of each site kind, in order. */
static const char *const gen_kind_ops[IC_OP_COUNT][IC_POINT_OPS_PER_SITE] = {
	[IC_OP_TAIL_DEQUEUE] = { "queue_tail", "dequeue" },
	[IC_OP_HEAD_DEQUEUE_TAIL] = { "queue_head", "dequeue_tail" },
	[IC_OP_INSERT_UNLINK] = { "insert", "unlink" },
	[IC_OP_APPEND_UNLINK] = { "append", "unlink" },
	[IC_OP_MIXED] = { "queue_tail", "purge" },   /* kind 4 */
};

/* A queue operation's signature, for clone's copies (queue/queue_body.h). */
struct gen_op_sig {
	const char *op, *ret, *params, *args;
};

static const struct gen_op_sig gen_op_sigs[] = {
	{ "queue_head", "void", "struct ic_queue *q, struct ic_node *n", "q, n" },
	{ "queue_tail", "void", "struct ic_queue *q, struct ic_node *n", "q, n" },
	{ "dequeue", "struct ic_node *", "struct ic_queue *q", "q" },
	{ "dequeue_tail", "struct ic_node *", "struct ic_queue *q", "q" },
	{ "insert", "void", "struct ic_queue *q, struct ic_node *old, struct ic_node *n", "q, old, n" },
	{ "append", "void", "struct ic_queue *q, struct ic_node *old, struct ic_node *n", "q, old, n" },
	{ "unlink", "void", "struct ic_queue *q, struct ic_node *n", "q, n" },
	{ "purge", "size_t", "struct ic_queue *q, struct ic_node **out", "q, out" },
};

static const struct gen_op_sig *gen_op_sig(const char *op)
{
	for (size_t i = 0; i < sizeof gen_op_sigs / sizeof gen_op_sigs[0]; i++)
		if (strcmp(gen_op_sigs[i].op, op) == 0)
			return &gen_op_sigs[i];
	abort();   /* gen_kind_ops names only these */
}

/* What site k calls for op: the form's ic_<op>_<form>, or clone's own copy;
 * a body's: ic_body_<form>, or clone's own copy <prefix>_k<k>_<name>. */
static const char *gen_call(const struct gen_args *a, uint32_t k, const char *op, char *buf, size_t len)
{
	if (a->body_path)
		op = a->body_name;
	if (a->body_path && a->id.form != IC_FORM_CLONE)
		snprintf(buf, len, "ic_body_%s", ic_form_names[a->id.form]);
	else if (a->id.form == IC_FORM_CLONE)
		snprintf(buf, len, "%s_k%" PRIu32 "_%s", a->cur, k, op);
	else
		snprintf(buf, len, "ic_%s_%s", op, ic_form_names[a->id.form]);
	return buf;
}

/* clone: site k's own out-of-line copies of its operations. */
static void gen_clones(FILE *f, const struct gen_args *a, uint32_t k)
{
	char name[320];

	if (a->id.form != IC_FORM_CLONE)
		return;
	if (a->body_path) {
		fprintf(f, "\nstatic IC_CLONE_ATTR uint64_t %s(struct ic_body_state *s, uint32_t c)\n{\n"
			"\treturn ic_body_inline(s, c);\n}\n", gen_call(a, k, NULL, name, sizeof name));
		return;
	}
	for (unsigned i = 0; i < IC_POINT_OPS_PER_SITE; i++) {
		const struct gen_op_sig *sig = gen_op_sig(gen_kind_ops[gen_site_kind(a, k)][i]);
		int ptr = sig->ret[strlen(sig->ret) - 1] == '*';

		fprintf(f, "\nstatic IC_CLONE_ATTR %s%s%s(%s)\n{\n\t%sic_%s_inline(%s);\n}\n",
			sig->ret, ptr ? "" : " ", gen_call(a, k, sig->op, name, sizeof name),
			sig->params, strcmp(sig->ret, "void") ? "return " : "", sig->op, sig->args);
	}
}

/* Site k: two queue operations on the thread's node n, then its own mark
 * (form mark: the mark alone).
 *
 * In `mixed`, kinds 0-1 work on the shared q and kinds 2-4 on the thread's
 * private scratch queue, its head as the anchor: on a shared q another
 * thread's dequeue could take n (or an anchor) between insert and unlink,
 * and dequeue/dequeue_tail in any walk order would reach a fixed anchor. */
static void gen_site(FILE *f, const struct gen_args *a, uint32_t k)
{
	enum ic_op kind = gen_site_kind(a, k);
	const char *q = a->id.op == IC_OP_MIXED && kind >= IC_OP_INSERT_UNLINK ? "s" : "q";
	const char *anchor = a->id.op == IC_OP_MIXED ? "&s->head" : "a";
	char c0[320], c1[320];

	if (a->filler_adds)
		gen_filler(f, a, k);
	if (a->id.form == IC_FORM_MARK)
		goto mark;
	if (a->body_path) {
		fprintf(f, "\tsink += %s(b, 0x%08" PRIx32 ");\n", gen_call(a, k, NULL, c0, sizeof c0),
			gen_site_const(k));
		goto mark;
	}
	gen_call(a, k, gen_kind_ops[kind][0], c0, sizeof c0);
	gen_call(a, k, gen_kind_ops[kind][1], c1, sizeof c1);
	switch (kind) {
	case IC_OP_TAIL_DEQUEUE:
	case IC_OP_HEAD_DEQUEUE_TAIL:
		fprintf(f, "\t%s(q, n);\n\tn = %s(q);\n", c0, c1);
		break;
	case IC_OP_INSERT_UNLINK:
	case IC_OP_APPEND_UNLINK:
		fprintf(f, "\t%s(%s, %s, n);\n\t%s(%s, n);\n", c0, q, anchor, c1, q);
		break;
	case IC_OP_MIXED:  /* kind 4: the purge round trip */
	default:
		fprintf(f, "\t%s(s, n);\n\t%s(s, &ctx->node);\n\tn = ctx->node;\n", c0, c1);
		break;
	}
mark:
	fprintf(f, "\tIC_SITE_MARK(ctx, acc, %" PRIu32 ", 0x%08" PRIx32 ");\n", k, gen_site_const(k));
}

/* Files of the series: its largest N in files of per_file sites. */
static uint32_t gen_file_count(const struct gen_args *a)
{
	return (a->series_sites + a->per_file - 1) / a->per_file;
}

/* The chain callers of the series, in order: caller j holds sites
 * [k0, k1); callers never span files, so a file's last caller and the
 * series' last may be short. Calls fn for each; stops when fn returns 0. */
static void gen_each_caller(const struct gen_args *a, int (*fn)(void *, uint32_t, uint32_t, uint32_t),
			    void *arg)
{
	uint32_t j = 0;

	for (uint32_t lo = 0; lo < a->series_sites; lo += a->per_file) {
		uint32_t hi = a->series_sites - lo > a->per_file ? lo + a->per_file : a->series_sites;

		for (uint32_t k0 = lo; k0 < hi; k0 += a->per_caller)
			if (!fn(arg, j++, k0, hi - k0 > a->per_caller ? k0 + a->per_caller : hi))
				return;
	}
}

/* The series callers a point of N = a->id.sites calls whole: those that end
 * at or before N. The sites after the last of them, up to N, are the
 * point's own tail caller (point.c). */
struct gen_used {
	uint32_t n, callers, tail_k0;
};

static int gen_count_used(void *arg, uint32_t j, uint32_t k0, uint32_t k1)
{
	struct gen_used *u = arg;

	(void)k0;
	if (k1 > u->n)
		return 0;
	u->callers = j + 1;
	u->tail_k0 = k1;
	return 1;
}

static struct gen_used gen_used(const struct gen_args *a)
{
	struct gen_used u = { a->id.sites, 0, 0 };

	if (a->id.layout == IC_LAYOUT_CHAIN)
		gen_each_caller(a, gen_count_used, &u);
	return u;
}

static void gen_includes(FILE *f, const struct gen_args *a)
{
	fputs("#include \"site.h\"\n", f);
	if (a->id.form != IC_FORM_MARK && a->body_path) {
		fprintf(f, "#include \"body_%s.h\"\n", ic_form_names[a->id.form]);
		if (a->id.form != IC_FORM_EXTERN)
			fprintf(f, "#include \"%s\"\n", a->body_path);
	} else if (a->id.form != IC_FORM_MARK) {
		fprintf(f, "#include \"queue_%s.h\"\n", ic_form_names[a->id.form]);
	}
}

/* One chain caller, <a->cur>_caller_<j>, of sites [k0, k1). */
static void gen_caller(FILE *f, const struct gen_args *a, uint32_t j, uint32_t k0, uint32_t k1)
{
	unsigned uses = 0;

	for (uint32_t k = k0; k < k1; k++) {
		uses |= gen_site_uses(a, k);
		gen_clones(f, a, k);
	}
	fprintf(f, "\n__attribute__((noinline)) void %s_caller_%" PRIu32
		"(struct ic_site_ctx *ctx)\n{\n", a->cur, j);
	gen_locals(f, a, uses);
	for (uint32_t k = k0; k < k1; k++) {
		fprintf(f, "\n\t/* site %" PRIu32 " */\n", k);
		gen_site(f, a, k);
	}
	fputc('\n', f);
	gen_epilogue(f, a);
}

struct gen_sites_file_arg {
	const struct gen_args *a;
	FILE *f;
	uint32_t lo, hi;
};

static int gen_caller_in_file(void *arg, uint32_t j, uint32_t k0, uint32_t k1)
{
	struct gen_sites_file_arg *s = arg;

	if (k0 >= s->hi)
		return 0;
	if (k0 >= s->lo)
		gen_caller(s->f, s->a, j, k0, k1);
	return 1;
}

static void gen_sites_file(const struct gen_args *a, uint32_t i)
{
	struct gen_file gf;
	char name[64];
	uint32_t lo = i * a->per_file, hi = lo + a->per_file;
	FILE *f;

	if (hi > a->series_sites)
		hi = a->series_sites;
	snprintf(name, sizeof name, "sites_%" PRIu32 ".c", i);
	gen_file_open(&gf, a->dir, name);
	f = gf.f;
	gen_banner(f, a, 0);
	gen_includes(f, a);
	if (a->id.layout == IC_LAYOUT_SCATTER) {
		for (uint32_t k = lo; k < hi; k++) {
			gen_clones(f, a, k);
			fprintf(f, "\n__attribute__((noinline)) void %s_site_%" PRIu32
				"(struct ic_site_ctx *ctx)\n{\n", a->sprefix, k);
			gen_locals(f, a, gen_site_uses(a, k));
			fputc('\n', f);
			gen_site(f, a, k);
			gen_epilogue(f, a);
		}
	} else {
		struct gen_sites_file_arg s = { a, f, lo, hi };

		gen_each_caller(a, gen_caller_in_file, &s);
	}
	gen_file_commit(&gf);
}

static uint64_t gen_acc_per_pass(const struct gen_args *a)
{
	uint64_t acc = 0;

	for (uint32_t k = 0; k < a->id.sites; k++) {
		acc += gen_site_const(k);
		for (uint32_t i = 0; i < a->filler_adds; i++)
			acc += gen_filler_const(a, k, i);
	}
	return acc;
}

/* Functions the pass calls: scatter, the first N site functions; chain,
 * the series callers it uses whole, then its tail caller if any. */
static uint32_t gen_pass_count(const struct gen_args *a, const struct gen_used *u)
{
	if (a->id.layout == IC_LAYOUT_SCATTER)
		return a->id.sites;
	return u->callers + (u->tail_k0 < a->id.sites);
}

/* The name of the pass's function j (before the walk's order). */
static void gen_pass_fn(FILE *f, const struct gen_args *a, const struct gen_used *u, uint32_t j)
{
	if (a->id.layout == IC_LAYOUT_SCATTER)
		fprintf(f, "%s_site_%" PRIu32, a->sprefix, j);
	else
		fprintf(f, "%s_caller_%" PRIu32, j < u->callers ? a->sprefix : a->prefix, j);
}

/* point.c: the point's pass over the first N sites of its series, in the
 * point's order, and (chain) its own tail caller of the sites after the
 * last whole series caller: a copy of those sites' code, in this point's
 * names, so no series file depends on N. */
static void gen_point_file(struct gen_args *a)
{
	struct gen_used u = gen_used(a);
	uint32_t count = gen_pass_count(a, &u);
	uint32_t *walk = gen_walk_order(count, &a->id);
	struct gen_file gf;
	FILE *f;

	gen_file_open(&gf, a->dir, "point.c");
	f = gf.f;
	gen_banner(f, a, 1);
	fputs("#include <stddef.h>\n", f);
	gen_includes(f, a);
	if (a->body_path)
		fputs("#include \"body.h\"\n", f);
	fputc('\n', f);
	for (uint32_t j = 0; j < count; j++) {
		fputs("void ", f);
		gen_pass_fn(f, a, &u, j);
		fputs("(struct ic_site_ctx *ctx);\n", f);
	}
	fprintf(f, "void %s_pass(struct ic_site_ctx *ctx);\n", a->prefix);
	if (a->id.layout == IC_LAYOUT_CHAIN && u.tail_k0 < a->id.sites) {
		a->cur = a->prefix;
		gen_caller(f, a, u.callers, u.tail_k0, a->id.sites);
		a->cur = a->sprefix;
	}
	if (a->id.layout == IC_LAYOUT_SCATTER) {
		fprintf(f, "\n/* Walk order (%s). */\n"
			"static void (*const %s_walk[%" PRIu32 "])(struct ic_site_ctx *) = {\n",
			ic_order_names[a->id.order], a->prefix, count);
		for (uint32_t j = 0; j < count; j++) {
			fputc('\t', f);
			gen_pass_fn(f, a, &u, walk[j]);
			fputs(",\n", f);
		}
		fprintf(f, "};\n\n__attribute__((noinline)) void %s_pass(struct ic_site_ctx *ctx)\n{\n"
			"\tfor (size_t i = 0; i < sizeof %s_walk / sizeof %s_walk[0]; i++)\n"
			"\t\t%s_walk[i](ctx);\n}\n", a->prefix, a->prefix, a->prefix, a->prefix);
	} else {
		fprintf(f, "\n/* Callers in %s order. */\n"
			"__attribute__((noinline)) void %s_pass(struct ic_site_ctx *ctx)\n{\n",
			ic_order_names[a->id.order], a->prefix);
		for (uint32_t j = 0; j < count; j++) {
			fputc('\t', f);
			gen_pass_fn(f, a, &u, walk[j]);
			fputs("(ctx);\n", f);
		}
		fputs("}\n", f);
	}
	fprintf(f, "\nconst struct ic_point %s = {\n"
		"\t.name = \"%s/%s/%s/%s/%" PRIu32 "\",\n"
		"\t.form = \"%s\",\n\t.op = \"%s\",\n\t.layout = \"%s\",\n\t.order = \"%s\",\n"
		"\t.sites = %" PRIu32 ",\n\t.seed = %" PRIu32 ",\n\t.per_caller = %" PRIu32 ",\n"
		"\t.filler = %" PRIu32 ",\n"
		"\t.pass = %s_pass,\n\t.acc_per_pass = UINT64_C(0x%016" PRIx64 "),\n%s};\n",
		a->prefix, ic_form_names[a->id.form], ic_point_op_name(&a->id),
		ic_layout_names[a->id.layout], ic_order_names[a->id.order], a->id.sites,
		ic_form_names[a->id.form], ic_point_op_name(&a->id), ic_layout_names[a->id.layout],
		ic_order_names[a->id.order], a->id.sites, a->id.seed, a->per_caller, a->id.filler,
		a->prefix, gen_acc_per_pass(a), a->body_path ? "\t.body = &ic_body_desc,\n" : "");
	gen_file_commit(&gf);
	free(walk);
}

static void gen_manifest(const struct gen_args *a)
{
	struct gen_used u = gen_used(a);
	struct gen_file gf;
	FILE *f;

	gen_file_open(&gf, a->dir, "manifest.txt");
	f = gf.f;
	fprintf(f, "# gen manifest: one \"key value\" per line\n"
		"sites %" PRIu32 "\nseries_sites %" PRIu32 "\nform %s\nop %s\nlayout %s\norder %s\n"
		"seed %" PRIu32 "\nper_file %" PRIu32 "\nper_caller %" PRIu32 "\nfiller %" PRIu32 "\n"
		"filler_adds %" PRIu32 "\n",
		a->id.sites, a->series_sites, ic_form_names[a->id.form], ic_point_op_name(&a->id),
		ic_layout_names[a->id.layout], ic_order_names[a->id.order], a->id.seed,
		a->per_file, a->per_caller, a->id.filler, a->filler_adds);
	if (a->body_path)
		fprintf(f, "body %s\n", a->body_path);
	fprintf(f, "prefix %s\nseries_prefix %s\n", a->prefix, a->sprefix);
	if (a->part != GEN_PART_SITES)
		fprintf(f, "point %s\npass %s_pass\nacc_per_pass 0x%016" PRIx64 "\n%s %" PRIu32 "\n",
			a->prefix, a->prefix, gen_acc_per_pass(a),
			a->id.layout == IC_LAYOUT_SCATTER ? "site_functions" : "callers",
			gen_pass_count(a, &u));
	if (a->part != GEN_PART_SITES)
		fputs("file point.c\n", f);
	for (uint32_t i = 0; a->part != GEN_PART_POINT && i < gen_file_count(a); i++)
		fprintf(f, "file sites_%" PRIu32 ".c\n", i);
	gen_file_commit(&gf);
}

int main(int argc, char **argv)
{
	struct gen_args a;

	if (argc > 0 && argv[0][0]) {
		const char *slash = strrchr(argv[0], '/');

		gen_prog = slash ? slash + 1 : argv[0];
	}
	gen_parse_args(argc, argv, &a);

	gen_mkdir_p(a.dir);
	for (uint32_t i = 0; a.part != GEN_PART_POINT && i < gen_file_count(&a); i++)
		gen_sites_file(&a, i);
	if (a.part != GEN_PART_SITES)
		gen_point_file(&a);
	gen_manifest(&a);
	free(a.body_path);
	return 0;
}
