/* gen's arguments (gen.h: gen_parse_args). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen.h"
#include "kit.h"

/* One TU with 65,536 inlined sites took gcc 122 s and 1.4 GB in the
 * suite's first prototype; 256 sites compile in well under a second and
 * keep -j busy. */
#define GEN_PER_FILE_DEFAULT 256u
/* Sites per chain caller by default: a handful of call sites per function,
 * as in a network stack's receive path, each run once per packet. */
#define GEN_PER_CALLER_DEFAULT 16u
#define GEN_EXIT_USAGE 2

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
	       "  --sites N       call sites, 1..%u\n", ic_prog, IC_POINT_SITES_MAX);
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

/* getopt_long's ':' (no argument) or '?' (unknown) for ARG, the word it
 * stopped at, naming the option as the user spelled it: "--name" (without
 * "=value") or "-c". */
static void gen_bad_option(int c, const char *arg, int opt)
{
	char name[64];

	if (strncmp(arg, "--", 2) == 0)
		snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
	else
		snprintf(name, sizeof name, "-%c", opt > 0 && opt < 128 ? opt : '?');
	if (c == ':')
		ic_die(GEN_EXIT_USAGE, "%s: needs an argument", name);
	ic_die(GEN_EXIT_USAGE, "%s: unknown option (see --help)", name);
}

/* An option that takes a value: a number from min to max, or (names set)
 * one of names[]'s count names, its index; read into *to. */
struct gen_option {
	const char *name;
	uint32_t min, max;
	const char *const *names;
	int count;
	uint32_t *to;
};

static void gen_option_read(const struct gen_option *o, const char *s)
{
	int i = o->names ? ic_name_find(o->names, o->count, s) : 0;
	unsigned long long v;
	char *end;

	if (i < 0)
		ic_die(GEN_EXIT_USAGE, "--%s: unknown value '%s' (%s)", o->name, s, gen_join(o->names, o->count));
	if (o->names) {
		*o->to = (uint32_t)i;
		return;
	}
	/* Decimal digits only (no sign, no blanks), within [min, max]. */
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || v < o->min || v > o->max)
		ic_die(GEN_EXIT_USAGE, "--%s: '%s' is not a number from %u to %u", o->name, s, o->min, o->max);
	*o->to = (uint32_t)v;
}

void gen_parse_args(int argc, char **argv, struct gen_args *a)
{
	static const char *const part_names[] = {   /* enum gen_part's order */
		[GEN_PART_ALL] = "all", [GEN_PART_SITES] = "sites", [GEN_PART_POINT] = "point",
	};
	/* UINT32_MAX: not given (sites and per-caller: 0) */
	uint32_t form = UINT32_MAX, op = UINT32_MAX, layout = IC_LAYOUT_CHAIN, order = IC_ORDER_SEQ;
	uint32_t part = GEN_PART_ALL;
	const char *body = NULL;
	const struct gen_option opts[] = {
		{ "sites", 1, IC_POINT_SITES_MAX, .to = &a->id.sites },
		{ "form", .names = ic_form_names, .count = IC_FORM_COUNT, .to = &form },
		{ "op", .names = ic_op_names, .count = IC_OP_COUNT, .to = &op },
		{ "layout", .names = ic_layout_names, .count = IC_LAYOUT_COUNT, .to = &layout },
		{ "order", .names = ic_order_names, .count = IC_ORDER_COUNT, .to = &order },
		{ "seed", 0, UINT32_MAX, .to = &a->id.seed },
		{ "per-file", 1, IC_POINT_SITES_MAX, .to = &a->per_file },
		{ "per-caller", 1, IC_POINT_SITES_MAX, .to = &a->per_caller },
		{ "filler", 0, IC_POINT_FILLER_MAX, .to = &a->id.filler },
		{ "part", .names = part_names, .count = sizeof part_names / sizeof part_names[0], .to = &part },
		{ "series-sites", 1, IC_POINT_SITES_MAX, .to = &a->series_sites },
	};
	/* getopt_long returns a table option's index plus OPT_TABLE. */
	enum { NOPTS = sizeof opts / sizeof opts[0], OPT_TABLE = 256, OPT_BODY = OPT_TABLE + NOPTS,
	       OPT_HELP };
	struct option longopts[NOPTS + 3] = {
		[NOPTS] = { "body", required_argument, NULL, OPT_BODY },
		[NOPTS + 1] = { "help", no_argument, NULL, OPT_HELP },
	};
	int c;

	for (int i = 0; i < NOPTS; i++)
		longopts[i] = (struct option){ opts[i].name, required_argument, NULL, OPT_TABLE + i };
	ic_prog = argc > 0 && argv[0][0] ? argv[0] : "gen";
	if (strrchr(ic_prog, '/'))
		ic_prog = strrchr(ic_prog, '/') + 1;
	memset(a, 0, sizeof *a);
	a->per_file = GEN_PER_FILE_DEFAULT;
	opterr = 0;  /* our own one-line messages */
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		if (c >= OPT_TABLE && c < OPT_TABLE + NOPTS) {
			gen_option_read(&opts[c - OPT_TABLE], optarg);
		} else if (c == OPT_BODY) {
			body = optarg;
		} else if (c == 'o') {
			a->dir = optarg;
		} else if (c == 'h' || c == OPT_HELP) {
			gen_help();
			exit(0);
		} else {
			gen_bad_option(c, argv[optind - 1], optopt);
		}
	}
	if (optind < argc)
		ic_die(GEN_EXIT_USAGE, "%s: unexpected argument (see --help)", argv[optind]);
	if (!a->id.sites)
		ic_die(GEN_EXIT_USAGE, "--sites: missing (see --help)");
	if (form == UINT32_MAX)
		ic_die(GEN_EXIT_USAGE, "--form: missing (see --help)");
	if (!a->dir)
		ic_die(GEN_EXIT_USAGE, "-o: missing output directory (see --help)");
	a->id.form = form;
	a->id.op = op == UINT32_MAX ? IC_OP_TAIL_DEQUEUE : op;
	a->id.layout = layout;
	a->id.order = order;
	a->part = part;
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
