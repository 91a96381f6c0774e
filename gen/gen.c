/* gen: write N distinct call sites of a locked queue operation as C sources
 * (usage: --help, gen_usage), named as in point_names.def. DIR gets sites_<i>.c
 * (K sites each, i < ceil(N/K)), point.c (the entry point: const struct
 * ic_point <prefix>, see site.h) and manifest.txt. Site k runs the form's
 * ic_<op>_<form> (queue/queue_<form>.h) on the thread's node n = ctx->node,
 * then IC_SITE_MARK(ctx, acc, k, C_k), C_k a 32-bit constant of its own so no
 * two sites are alike. Form `mark` writes the mark alone (the baseline that
 * prices it); form `clone` calls copies of its own, static <prefix>_k<k>_<op>
 * (IC_CLONE_ATTR, queue/queue_clone.h, each the forced-inline body), written
 * before the function holding site k. Each op's two calls are point_names.def's
 * (mixed: kinds 2 and 3 on the private scratch queue, so all eight locked
 * operations run). The caller keeps a node besides its own on q, so dequeue
 * never returns NULL. --body FILE (your own function, queue/body.h): the op is
 * FILE's name and site k runs sink += ic_body_<form>(ctx->body, C_k) before its
 * mark (clone: its own copy <prefix>_k<k>_<name> of ic_body_inline); the site
 * files of forms inline, hint and clone include FILE by its absolute path,
 * extern's only declare ic_body_extern. No nolock form: a body has no lock.
 * --filler B: site k's operation follows a filler block of its own of about B
 * bytes (gen_filler, site.h).
 *
 * Same arguments, byte-identical files; each is written under a temporary name
 * and renamed (a build never sees half a file), and kept as it was when its
 * bytes did not change. Every argument is checked before anything is written:
 * bad input is one line on stderr, exit 2. */
#define _GNU_SOURCE   /* asprintf */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "kit.h"
#include "point_name.h"
#include "splitmix64.h"

/* Filler constants: indices 2^29 .. 2^30-1 of the marks' bijection
 * (gen_filler_const). */
#define GEN_FILLER_BASE UINT32_C(0x20000000)
#define GEN_FILLER_CONSTS 0x20000000u

enum gen_part { GEN_PART_ALL, GEN_PART_SITES, GEN_PART_POINT };

struct gen_args {
	struct ic_point_id id;
	uint32_t per_file;
	uint32_t per_caller;        /* chain: sites per caller function */
	uint32_t filler_adds;       /* constants per site's filler block; 0 without --filler */
	const char *dir;
	uint32_t part;              /* enum gen_part */
	uint32_t series_sites;      /* the series' largest N: the sites compiled */
	char prefix[192];           /* the point's symbols: ic_pt_... */
	char sprefix[192];          /* the series' site functions: ic_sr_... */
	const char *cur;            /* the prefix of the functions being written */
	char *body_path;            /* --body: FILE's absolute path, or NULL */
	char body_name[IC_BODY_NAME_MAX + 1];
};

/* One TU of 65,536 inlined sites took gcc 122 s and 1.4 GB in the first
 * prototype; 256 sites compile in well under a second and keep -j busy. */
#define GEN_PER_FILE_DEFAULT 256u
/* Sites per chain caller by default: a handful of call sites per function,
 * as in a network stack's receive path, each run once per packet. */
#define GEN_PER_CALLER_DEFAULT 16u
#define GEN_EXIT_USAGE 2

/* "a|b|c" of a name table (point_names.def), as a string constant. */
#define GEN_BAR(e, n, ...) "|" #n
#define GEN_LIST(table) (table(GEN_BAR) + 1)

static char *gen_usage(void)
{
	char *u = NULL;

	if (asprintf(&u, "usage: %s --sites N --form F -o DIR [options]\n"
	       "  --sites N       call sites, 1..%u\n"
	       "  --form F        %s (gen/point_names.def says what each is)\n"
	       "  --op OP         %s (default %s)\n"
	       "  --body FILE     your own function instead of the queue (queue/body.h); the op\n"
	       "                  is FILE's name; forms %s, %s, %s, %s, %s\n"
	       "  --layout L      %s (default %s): chain callers of --per-caller sites,\n"
	       "                  or one function per site walked through a table\n"
	       "  --order O       %s (default %s): caller order (chain), walk order (scatter)\n"
	       "  --seed S        seed for order random, 0..%u (default 0; seq ignores it)\n"
	       "  --per-file K    sites per translation unit, 1..%u (default %u)\n"
	       "  --per-caller C  sites per chain caller function, 1..%u (default %u)\n"
	       "  --filler BYTES  about BYTES of straight-line register adds before each\n"
	       "                  site's operation, 0..%u (default 0: none)\n"
	       "  --part P        all (default), sites or point: sites writes the series'\n"
	       "                  sites_<i>.c (--sites is then its largest N), point writes\n"
	       "                  point.c, whose pass calls the first --sites of them\n"
	       "  --series-sites M  with --part point: the N --part sites was given (default --sites)\n"
	       "  -o DIR          output directory (created if missing)\n",
	       ic_prog, IC_POINT_SITES_MAX, GEN_LIST(IC_FORMS), GEN_LIST(IC_OPS), ic_op_names[0],
	       ic_form_names[IC_FORM_INLINE], ic_form_names[IC_FORM_HINT], ic_form_names[IC_FORM_EXTERN],
	       ic_form_names[IC_FORM_CLONE], ic_form_names[IC_FORM_MARK], GEN_LIST(IC_LAYOUTS),
	       ic_layout_names[0], GEN_LIST(IC_ORDERS), ic_order_names[0], UINT32_MAX, IC_POINT_SITES_MAX,
	       GEN_PER_FILE_DEFAULT, IC_POINT_SITES_MAX, GEN_PER_CALLER_DEFAULT, IC_POINT_FILLER_MAX) < 0)
		ic_xalloc(NULL);
	return u;
}

/* Can DIR be written, or created under its nearest existing ancestor? */
static void gen_check_dir(const char *dir)
{
	char path[PATH_MAX], *p;
	struct stat st;

	if (!*dir)
		ic_die(GEN_EXIT_USAGE, "-o: empty directory name");
	if (strlen(dir) >= sizeof path - 64)  /* room for "/.sites_<i>.c.tmp.XXXXXX" */
		ic_die(GEN_EXIT_USAGE, "-o: directory name too long");
	strcpy(path, dir);
	for (p = path; stat(p, &st) != 0; p = dirname(p))
		if (errno != ENOENT)
			ic_die(GEN_EXIT_USAGE, "-o: %s: not writable (%s)", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		ic_die(GEN_EXIT_USAGE, "-o: %s: not writable (%s is not a directory)", dir, p);
	if (access(p, W_OK | X_OK) != 0)
		ic_die(GEN_EXIT_USAGE, "-o: %s: not writable (%s)", dir, strerror(errno));
}

/* --body FILE: a readable regular file <name>.c, name a body's (point_name.h),
 * its path one a #include "..." can spell; the form one a body has. */
static void gen_check_body(struct gen_args *a, const char *file, int have_op)
{
	const char *base = strrchr(file, '/'), *why;
	struct stat st;
	size_t len;

	base = base ? base + 1 : file;
	len = strlen(base);
	if (len < 3 || strcmp(base + len - 2, ".c") != 0)
		ic_die(GEN_EXIT_USAGE, "--body: %s: not a .c file", file);
	if (len - 2 > IC_BODY_NAME_MAX)
		ic_die(GEN_EXIT_USAGE, "--body: %s: the name is longer than %u characters", file, IC_BODY_NAME_MAX);
	memcpy(a->body_name, base, len - 2);
	a->body_name[len - 2] = '\0';
	why = ic_body_name_why(a->body_name);
	if (why)
		ic_die(GEN_EXIT_USAGE, "--body: %s: the name '%s' %s", file, a->body_name, why);
	if (stat(file, &st) != 0)
		ic_die(GEN_EXIT_USAGE, "--body: %s: %s", file, strerror(errno));
	if (!S_ISREG(st.st_mode) || access(file, R_OK) != 0)
		ic_die(GEN_EXIT_USAGE, "--body: %s: not a readable file", file);
	/* Absolute: the site files include it from their own directory. */
	a->body_path = realpath(file, NULL);
	if (!a->body_path)
		ic_die(GEN_EXIT_USAGE, "--body: %s: %s", file, strerror(errno));
	/* The banner holds it in a comment too. */
	if (strpbrk(a->body_path, "\"\\\n") || strstr(a->body_path, "*/"))
		ic_die(GEN_EXIT_USAGE, "--body: %s: the path holds a quote, backslash, newline or */, which "
			       "the generated files cannot spell", file);
	if (have_op)
		ic_die(GEN_EXIT_USAGE, "--op: a body has one operation, its own (drop --op with --body)");
	if (ic_form_is_nolock(a->id.form))
		ic_die(GEN_EXIT_USAGE, "--form %s: a body has no lock to replace (the nolock forms are the queue's)",
			       ic_form_names[a->id.form]);
	a->id.body = a->body_name;
}

/* --form, --op, --layout, --order, --part: a name table's name, its index into *to. */
struct gen_names {
	const char *opt, *list;   /* the option, and the names as "a|b|c" */
	const char *const *names;
	int count;
	uint32_t *to;
};

static int gen_name(void *dest, const char *v)
{
	const struct gen_names *n = dest;
	int i = ic_name_find(n->names, n->count, v);

	if (i < 0)
		return ic_bad("--%s: unknown value '%s' (%s)", n->opt, v, n->list);
	*n->to = (uint32_t)i;
	return 0;
}

/* The arguments, every one checked; bad input is one line on stderr naming
 * the option (ic_die) and exit 2, before anything is written. */
static void gen_parse_args(int argc, char **argv, struct gen_args *a)
{
	static const char *const part_names[] = {   /* enum gen_part's order */
		[GEN_PART_ALL] = "all", [GEN_PART_SITES] = "sites", [GEN_PART_POINT] = "point",
	};
	/* UINT32_MAX: not given */
	uint32_t form = UINT32_MAX, op = UINT32_MAX, layout = IC_LAYOUT_CHAIN, order = IC_ORDER_SEQ;
	/* 0: not given (sites, per-caller and series-sites) */
	long sites = 0, seed = 0, per_file = GEN_PER_FILE_DEFAULT, per_caller = 0, filler = 0, series = 0;
	const char *body = NULL;
	struct gen_names names[] = {
		{ "form", GEN_LIST(IC_FORMS), ic_form_names, IC_FORM_COUNT, &form },
		{ "op", GEN_LIST(IC_OPS), ic_op_names, IC_OP_COUNT, &op },
		{ "layout", GEN_LIST(IC_LAYOUTS), ic_layout_names, IC_LAYOUT_COUNT, &layout },
		{ "order", GEN_LIST(IC_ORDERS), ic_order_names, IC_ORDER_COUNT, &order },
		{ "part", "all|sites|point", part_names, 3, &a->part },
	};
	const struct ic_option opts[] = {
		IC_OPTION_LONG("sites", &sites, 1, IC_POINT_SITES_MAX),
		IC_OPTION_CALL("form", &names[0], gen_name),
		IC_OPTION_CALL("op", &names[1], gen_name),
		IC_OPTION_STRING("body", &body),
		IC_OPTION_CALL("layout", &names[2], gen_name),
		IC_OPTION_CALL("order", &names[3], gen_name),
		IC_OPTION_LONG("seed", &seed, 0, UINT32_MAX),
		IC_OPTION_LONG("per-file", &per_file, 1, IC_POINT_SITES_MAX),
		IC_OPTION_LONG("per-caller", &per_caller, 1, IC_POINT_SITES_MAX),
		IC_OPTION_LONG("filler", &filler, 0, IC_POINT_FILLER_MAX),
		IC_OPTION_CALL("part", &names[4], gen_name),
		IC_OPTION_LONG("series-sites", &series, 1, IC_POINT_SITES_MAX),
		IC_OPTION_STRING("o", &a->dir),
		IC_OPTIONS_END,
	};
	char *usage;
	int rc;

	ic_prog = argc > 0 && argv[0][0] ? basename(argv[0]) : "gen";
	memset(a, 0, sizeof *a);   /* part: GEN_PART_ALL */
	rc = ic_options_parse(argc, argv, opts, usage = gen_usage(), "--help");
	free(usage);
	if (rc >= 0)
		exit(rc);
	if (optind < argc)
		ic_die(GEN_EXIT_USAGE, "%s: unexpected argument (see --help)", argv[optind]);
	if (!sites)
		ic_die(GEN_EXIT_USAGE, "--sites: missing (see --help)");
	if (form == UINT32_MAX)
		ic_die(GEN_EXIT_USAGE, "--form: missing (see --help)");
	if (!a->dir)
		ic_die(GEN_EXIT_USAGE, "-o: missing output directory (see --help)");
	a->id = (struct ic_point_id){ .form = form, .op = op == UINT32_MAX ? IC_OP_TAIL_DEQUEUE : op,
				      .layout = layout, .order = order, .seed = (uint32_t)seed,
				      .sites = (uint32_t)sites, .filler = (uint32_t)filler };
	a->per_file = (uint32_t)per_file;
	a->per_caller = (uint32_t)per_caller;
	a->series_sites = (uint32_t)series;
	/* The checks of options together, and what follows from them. */
	if (body)
		gen_check_body(a, body, op != UINT32_MAX);
	if (a->series_sites && a->part != GEN_PART_POINT)
		ic_die(GEN_EXIT_USAGE, "--series-sites: only with --part point");
	if (!a->series_sites)
		a->series_sites = a->id.sites;
	if (a->series_sites < a->id.sites)
		ic_die(GEN_EXIT_USAGE, "--series-sites: %u is fewer than --sites %u", a->series_sites, a->id.sites);
	/* A caller never spans translation units: asked for, that is an error;
	 * by default (0 here), callers are as long as the files, and say so. */
	if (a->per_caller > a->per_file)
		ic_die(GEN_EXIT_USAGE, "--per-caller: %u is more than --per-file %u: a caller never "
		       "spans translation units", a->per_caller, a->per_file);
	if (!a->per_caller)
		a->per_caller = a->per_file < GEN_PER_CALLER_DEFAULT ? a->per_file : GEN_PER_CALLER_DEFAULT;
	if (a->id.order == IC_ORDER_SEQ)
		a->id.seed = 0;
	a->filler_adds = ic_filler_adds(a->id.filler);
	if ((uint64_t)a->series_sites * a->filler_adds > GEN_FILLER_CONSTS)
		ic_die(GEN_EXIT_USAGE, "--filler: %u bytes at %u sites needs %" PRIu64 " distinct constants, "
		       "more than the %u gen has", a->id.filler, a->series_sites,
		       (uint64_t)a->series_sites * a->filler_adds, GEN_FILLER_CONSTS);
	gen_check_dir(a->dir);
	ic_point_prefix(a->prefix, sizeof a->prefix, &a->id);
	ic_series_prefix(a->sprefix, sizeof a->sprefix, &a->id);
	a->cur = a->sprefix;
}

/* The sites' code: each site's constant, filler block, the queue operations
 * (or body's function) it calls in its form, clone's own copies of them; the
 * function that holds them. */

/* C_k: distinct for every k < 2^30 (k times an odd number is a bijection
 * mod 2^30), and always in [2^30, 2^31), so every mark is the same 32-bit
 * immediate add however small k is. */
static uint32_t gen_site_const(uint32_t k)
{
	return UINT32_C(0x40000000) | ((k * UINT32_C(0x9e3779b1)) & UINT32_C(0x3fffffff));
}

/* The filler's constants are gen_site_const at indices 2^29 + k * adds + i:
 * distinct from each other and from every mark (k < 10^6 < 2^29). Random draws
 * collide (1 point in 400 at 64 sites x 37 adds, ~170 times at 16,384 sites),
 * hiding an add from the tests' count of distinct immediates. */
static uint32_t gen_filler_const(const struct gen_args *a, uint32_t k, uint32_t i)
{
	return gen_site_const(GEN_FILLER_BASE + k * a->filler_adds + i);
}

static enum ic_op gen_site_kind(const struct gen_args *a, uint32_t k)
{
	return a->id.op == IC_OP_MIXED ? (enum ic_op)(k % 5) : a->id.op;
}

/* What a site touches, so a function declares only its locals. */
enum { GEN_USES_Q = 1, GEN_USES_ANCHOR = 2, GEN_USES_SCRATCH = 4, GEN_USES_BODY = 8 };

static unsigned gen_site_uses(const struct gen_args *a, uint32_t k)
{
	enum ic_op kind = gen_site_kind(a, k);

	if (a->id.form == IC_FORM_MARK)
		return 0;
	if (a->body_path)
		return GEN_USES_BODY;
	if (a->id.op == IC_OP_MIXED && kind >= IC_OP_INSERT_UNLINK)
		return GEN_USES_SCRATCH;   /* mixed's kinds 2-4: the scratch queue (gen_site) */
	return kind == IC_OP_INSERT_UNLINK || kind == IC_OP_APPEND_UNLINK ? GEN_USES_Q | GEN_USES_ANCHOR
									  : GEN_USES_Q;
}

/* A function's locals; acc is ctx->acc in a register, stored back at the end
 * (gen_epilogue): a mark is one register add; a body's values go to sink,
 * ctx->sink the same way. */
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

/* Site k's filler block (site.h says why it is one asm). Each accumulator
 * starts at a constant of the block's own, hidden by an asm so it is a 5-byte
 * move and every further constant an add; the adds rotate over them and fold
 * into acc at the block's end, never living across a call (a chain caller's
 * callee-saved registers are taken: gcc spilled them to the stack when they
 * lived to the function's end). Volatile alone does not keep the block in place
 * (gcc may move a register-only asm across the operation's loads, stores and
 * calls): its first and last asm clobber memory, so it runs between the
 * previous site and this one's operation. x86-64 only, as the suite is. */
static void gen_filler(FILE *f, const struct gen_args *a, uint32_t k)
{
	uint32_t m = a->filler_adds < 4 ? a->filler_adds : 4;   /* accumulators: four chains */

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

/* A queue operation's signature, for clone's copies (queue/queue_body.h). */
struct gen_op_sig {
	const char *op, *ret, *params, *args;
};

enum { GEN_HEAD, GEN_TAIL, GEN_DEQUEUE, GEN_DEQUEUE_TAIL, GEN_INSERT, GEN_APPEND, GEN_UNLINK, GEN_PURGE };
static const struct gen_op_sig gen_op_sigs[] = {   /* ret as a declaration spells it */
	[GEN_HEAD] = { "queue_head", "void ", "struct ic_queue *q, struct ic_node *n", "q, n" },
	[GEN_TAIL] = { "queue_tail", "void ", "struct ic_queue *q, struct ic_node *n", "q, n" },
	[GEN_DEQUEUE] = { "dequeue", "struct ic_node *", "struct ic_queue *q", "q" },
	[GEN_DEQUEUE_TAIL] = { "dequeue_tail", "struct ic_node *", "struct ic_queue *q", "q" },
	[GEN_INSERT] = { "insert", "void ", "struct ic_queue *q, struct ic_node *old, struct ic_node *n",
			 "q, old, n" },
	[GEN_APPEND] = { "append", "void ", "struct ic_queue *q, struct ic_node *old, struct ic_node *n",
			 "q, old, n" },
	[GEN_UNLINK] = { "unlink", "void ", "struct ic_queue *q, struct ic_node *n", "q, n" },
	[GEN_PURGE] = { "purge", "size_t ", "struct ic_queue *q, struct ic_node **out", "q, out" },
};

/* The two queue operations of each site kind, in order. */
static const unsigned char gen_kind_ops[IC_OP_COUNT][IC_POINT_OPS_PER_SITE] = {
	[IC_OP_TAIL_DEQUEUE] = { GEN_TAIL, GEN_DEQUEUE },
	[IC_OP_HEAD_DEQUEUE_TAIL] = { GEN_HEAD, GEN_DEQUEUE_TAIL },
	[IC_OP_INSERT_UNLINK] = { GEN_INSERT, GEN_UNLINK },
	[IC_OP_APPEND_UNLINK] = { GEN_APPEND, GEN_UNLINK },
	[IC_OP_MIXED] = { GEN_TAIL, GEN_PURGE },   /* kind 4 */
};

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
		const struct gen_op_sig *sig = &gen_op_sigs[gen_kind_ops[gen_site_kind(a, k)][i]];

		fprintf(f, "\nstatic IC_CLONE_ATTR %s%s(%s)\n{\n\t%sic_%s_inline(%s);\n}\n", sig->ret,
			gen_call(a, k, sig->op, name, sizeof name), sig->params,
			strcmp(sig->ret, "void ") ? "return " : "", sig->op, sig->args);
	}
}

/* Site k: two queue operations on the thread's node n, then its own mark (form
 * mark: the mark alone). In `mixed`, kinds 0-1 use the shared q, kinds 2-4 the
 * thread's private scratch queue, its head the anchor: on a shared q another
 * thread's dequeue could take n (or an anchor) between insert and unlink, and
 * dequeue/dequeue_tail in any walk order would reach a fixed anchor. */
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
	gen_call(a, k, gen_op_sigs[gen_kind_ops[kind][0]].op, c0, sizeof c0);
	gen_call(a, k, gen_op_sigs[gen_kind_ops[kind][1]].op, c1, sizeof c1);
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

/* One function of sites [k0, k1), clone's copies before it: chain's caller
 * <a->cur>_caller_<j>, or scatter's site function <a->cur>_site_<j> (j = k0). */
static void gen_function(FILE *f, const struct gen_args *a, uint32_t j, uint32_t k0, uint32_t k1)
{
	int chain = a->id.layout != IC_LAYOUT_SCATTER;
	unsigned uses = 0;

	for (uint32_t k = k0; k < k1; k++) {
		uses |= gen_site_uses(a, k);
		gen_clones(f, a, k);
	}
	fprintf(f, "\n__attribute__((noinline)) void %s_%s_%" PRIu32 "(struct ic_site_ctx *ctx)\n{\n",
		a->cur, chain ? "caller" : "site", j);
	gen_locals(f, a, uses);
	for (uint32_t k = k0; k < k1; k++) {
		if (chain)
			fprintf(f, "\n\t/* site %" PRIu32 " */\n", k);
		else
			fputc('\n', f);
		gen_site(f, a, k);
	}
	if (chain)
		fputc('\n', f);
	gen_epilogue(f, a);
}

/* What one pass over the point's N sites adds to acc (mod 2^64). */
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

/* 0..n-1, in order or shuffled (Fisher-Yates) from the seed. */
static uint32_t *gen_walk_order(uint32_t n, const struct ic_point_id *id)
{
	uint32_t *v = ic_xalloc(malloc((size_t)n * sizeof *v));
	uint64_t state = id->seed;

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

/* The stream of a file written under a temporary name in the output
 * directory, renamed into place when whole (common/atomic_file.h). */
static FILE *gen_file_open(struct ic_atomic_file *af, const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	/* Same bytes as before: keep the old file, so make recompiles only the
	 * files gen really changed (a new gen rewrites every point). */
	if (ic_atomic_open(af, path, IC_ATOMIC_KEEP_SAME) != 0)
		ic_die(1, "%s", af->err);
	/* One file is open at a time: one big buffer serves them all (glibc
	 * ignores the size when it is given no buffer). */
	static char buf[1 << 20];
	setvbuf(af->f, buf, _IOFBF, sizeof buf);
	return af->f;
}

static void gen_file_commit(struct ic_atomic_file *af)
{
	if (ic_atomic_commit(af) != 0)
		ic_die(1, "%s", af->err);
}

/* A series file's banner names no N, order or seed: its sites do not depend on
 * the series' largest N, so it is kept (not recompiled) as the series grows. */
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

/* Files of the series: its largest N in files of per_file sites. */
static uint32_t gen_file_count(const struct gen_args *a)
{
	return (a->series_sites + a->per_file - 1) / a->per_file;
}

/* The series callers a point of N = a->id.sites calls whole: those ending at or
 * before N; the sites after them, up to N, are the point's own tail caller
 * (point.c). Chain callers never span files, so a file's last caller may be
 * short: every file but the last holds gen_file_callers. */
struct gen_used {
	uint32_t callers, tail_k0;
};

static uint32_t gen_file_callers(const struct gen_args *a)
{
	return (a->per_file + a->per_caller - 1) / a->per_caller;
}

static struct gen_used gen_used(const struct gen_args *a)
{
	uint32_t n = a->id.sites, r = n % a->per_file, pc = a->per_caller;
	/* the callers of n's file before n; all of the series' last file's */
	uint32_t c = n == a->series_sites ? (r + pc - 1) / pc : r / pc;
	uint32_t end = n / a->per_file * a->per_file + c * pc;

	return (struct gen_used){ n / a->per_file * gen_file_callers(a) + c, end < n ? end : n };
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

static void gen_sites_file(const struct gen_args *a, uint32_t i)
{
	struct ic_atomic_file af;
	char name[64];
	uint32_t lo = i * a->per_file, hi = lo + a->per_file;
	FILE *f;

	if (hi > a->series_sites)
		hi = a->series_sites;
	snprintf(name, sizeof name, "sites_%" PRIu32 ".c", i);
	f = gen_file_open(&af, a->dir, name);
	gen_banner(f, a, 0);
	gen_includes(f, a);
	if (a->id.layout == IC_LAYOUT_SCATTER) {
		for (uint32_t k = lo; k < hi; k++)
			gen_function(f, a, k, k, k + 1);
	} else {
		for (uint32_t k0 = lo, j = i * gen_file_callers(a); k0 < hi; k0 += a->per_caller, j++)
			gen_function(f, a, j, k0, hi - k0 > a->per_caller ? k0 + a->per_caller : hi);
	}
	gen_file_commit(&af);
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
	int scatter = a->id.layout == IC_LAYOUT_SCATTER;
	struct ic_atomic_file af;
	FILE *f = gen_file_open(&af, a->dir, "point.c");

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
	if (!scatter && u.tail_k0 < a->id.sites) {
		a->cur = a->prefix;
		gen_function(f, a, u.callers, u.tail_k0, a->id.sites);
		a->cur = a->sprefix;
	}
	/* scatter: a table of the site functions in walk order; chain: the calls */
	if (scatter)
		fprintf(f, "\n/* Walk order (%s). */\n"
			"static void (*const %s_walk[%" PRIu32 "])(struct ic_site_ctx *) = {\n",
			ic_order_names[a->id.order], a->prefix, count);
	else
		fprintf(f, "\n/* Callers in %s order. */\n"
			"__attribute__((noinline)) void %s_pass(struct ic_site_ctx *ctx)\n{\n",
			ic_order_names[a->id.order], a->prefix);
	for (uint32_t j = 0; j < count; j++) {
		fputc('\t', f);
		gen_pass_fn(f, a, &u, walk[j]);
		fputs(scatter ? ",\n" : "(ctx);\n", f);
	}
	if (scatter)
		fprintf(f, "};\n\n__attribute__((noinline)) void %s_pass(struct ic_site_ctx *ctx)\n{\n"
			"\tfor (size_t i = 0; i < sizeof %s_walk / sizeof %s_walk[0]; i++)\n"
			"\t\t%s_walk[i](ctx);\n}\n", a->prefix, a->prefix, a->prefix, a->prefix);
	else
		fputs("}\n", f);
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
	gen_file_commit(&af);
	free(walk);
}

static void gen_manifest(const struct gen_args *a)
{
	struct gen_used u = gen_used(a);
	struct ic_atomic_file af;
	FILE *f = gen_file_open(&af, a->dir, "manifest.txt");

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
		fprintf(f, "point %s\npass %s_pass\nacc_per_pass 0x%016" PRIx64 "\n%s %" PRIu32 "\n"
			"file point.c\n", a->prefix, a->prefix, gen_acc_per_pass(a),
			a->id.layout == IC_LAYOUT_SCATTER ? "site_functions" : "callers",
			gen_pass_count(a, &u));
	for (uint32_t i = 0; a->part != GEN_PART_POINT && i < gen_file_count(a); i++)
		fprintf(f, "file sites_%" PRIu32 ".c\n", i);
	gen_file_commit(&af);
}

int main(int argc, char **argv)
{
	struct gen_args a;

	gen_parse_args(argc, argv, &a);

	if (ic_mkdir_p(a.dir) != 0)
		ic_die(1, "cannot create directory %s: %s", a.dir, strerror(errno));
	for (uint32_t i = 0; a.part != GEN_PART_POINT && i < gen_file_count(&a); i++)
		gen_sites_file(&a, i);
	if (a.part != GEN_PART_SITES)
		gen_point_file(&a);
	gen_manifest(&a);
	free(a.body_path);
	return 0;
}
