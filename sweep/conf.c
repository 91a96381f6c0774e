/* The sweep's settings (driver.h): what run.sh hands over on stdin, those the plan resolves here, run.conf written
 * from them; the run's identity (build_source, build_cc, build_cflags, build_lock), which a resume must find the
 * same, so that one answer never mixes two builds. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit.h"
#include "points.h"
#include "driver.h"
#include "topology.h"

void sw_conf_read_settings(struct sweep *sw)
{
	char err[512];

	if (ic_settings_read(&sw->s, stdin, "the settings on stdin", err, sizeof(err)))
		ic_die(2, "%s", err);
}

void sw_conf_read(struct sweep *sw)
{
	struct sw_tree *t = NULL;

	sw_conf_read_settings(sw);
	for (size_t i = 0; i < sw->s.n; i++) {
		const char *k = sw->s.v[i].key, *v = sw->s.v[i].value;

		if (!strcmp(k, "tree")) {
			sw->tree = ic_xrealloc(sw->tree, sw->n_tree + 1, sizeof(*sw->tree));
			t = &sw->tree[sw->n_tree++];
			*t = (struct sw_tree){ .dir = v, .cc = "", .cflags = "", .codegen = "" };
		} else if (!strncmp(k, "tree_", 5) && !t) {
			ic_die(2, "the settings on stdin: %s before any tree", k);
		} else if (!strcmp(k, "tree_cc")) {
			t->cc = v;
		} else if (!strcmp(k, "tree_cflags")) {
			t->cflags = v;
		} else if (!strcmp(k, "tree_codegen")) {
			t->codegen = v;
		} else if (!strcmp(k, "tree_arg")) {
			t->args = ic_xrealloc(t->args, t->n_args + 1, sizeof(*t->args));
			t->args[t->n_args++] = v;
		}
	}
	if (!sw->n_tree)
		ic_die(2, "the settings on stdin name no build tree");
	sw->resume = *sw_get(sw, "resume") != 0;
	sw->jobs = sw_long(sw, "jobs") > 0 ? sw_long(sw, "jobs") : 1;
	sw->cmdline = sw_get(sw, "cmdline");
}

char *sw_file(const struct sweep *sw, const char *stem, size_t b, const char *ext)
{
	return b ? sw_fmt("%s/%s-b%zu%s", sw->dir, stem, b, ext) : sw_fmt("%s/%s%s", sw->dir, stem, ext);
}

void sw_conf_save(const struct sweep *sw)
{
	char *path = sw_file(sw, "run", 0, ".conf"), *tmp = sw_fmt("%s.tmp", path);
	FILE *f;

	if (!(f = fopen(tmp, "w")))
		sw_fail("cannot write %s: %s", tmp, strerror(errno));
	for (size_t i = 0; i < sw->s.n; i++)   /* the run's own keys never (tree starts a build) */
		if (!strstr(" out resume jobs cmdline tree tree_cc tree_cflags tree_codegen tree_arg ",
			    sw_fmt(" %s ", sw->s.v[i].key)))
			fprintf(f, "%s=%s\n", sw->s.v[i].key, sw->s.v[i].value);
	if (fclose(f) || rename(tmp, path))
		sw_fail("cannot write %s", path);
}

void sw_topology(struct ic_topo_info *t, int *known)
{
	int open = ic_topo_open() == 0;

	if (!(*known = ic_topo_describe(t) == 0 && open))
		t->cores = t->pus = (int)sysconf(_SC_NPROCESSORS_ONLN);
}

/* A plan writer's lines, into a string. */
#define SW_CAPTURE(text, call)                                                   \
	do {                                                                     \
		size_t len_;                                                     \
		FILE *f_ = ic_xalloc(open_memstream(&(text), &len_));            \
		int rc_ = (call);                                                \
		fclose(f_);                                                      \
		if (rc_)                                                         \
			sw_fail("the plan could not be made: %s", err);          \
	} while (0)

void sw_resolve(struct sweep *sw)
{
	struct ic_topo_info t;
	int known;
	char err[512], *text;
	struct ic_settings r = { 0 };

	sw_topology(&t, &known);
	SW_CAPTURE(text, ic_plan_resolve(&sw->s, &(struct ic_plan_machine){ t.cores, t.l1i_size, t.l2_size }, f_, err,
					 sizeof(err)));
	if (ic_settings_parse(&r, text, strlen(text), "the plan", err, sizeof(err)))
		sw_fail("%s", err);
	for (size_t i = 0; i < r.n; i++)
		if (!strcmp(r.v[i].key, "note"))
			sw_say("%s", r.v[i].value);
		else if (!strcmp(r.v[i].key, "series"))
			sw->series = r.v[i].value;
		else
			sw_set(sw, r.v[i].key, r.v[i].value);
}

char *sw_points(const struct sweep *sw)
{
	char err[512], *text;

	SW_CAPTURE(text, ic_plan_points(&sw->s, f_, err, sizeof(err)));
	if (!*sw_tr(text, '\n', ';'))
		sw_fail("the plan has no points");
	return text;
}

void sw_variant_seeds(struct sweep *sw)
{
	char *text = "";

	for (long r = 1; r <= sw_long(sw, "repeat"); r++)
		for (long v = 0; v < sw_long(sw, "layouts_random"); v++)
			text = sw_fmt("%s%sr%ld_v%ld:%u", text, r + v > 1 ? " " : "", r, v,
				      ic_plan_variant_seed((uint32_t)sw_long(sw, "layout_seed"), (unsigned)r, (unsigned)v));
	sw_set(sw, "variant_seeds", text);
}

/* The lock CMake was configured with (CMakeLists.txt's default is tas). */
void sw_read_build_lock(struct sweep *sw)
{
	char *text = sw_read(sw_fmt("%s/CMakeCache.txt", sw->tree[0].dir)),
	     *at = text ? strstr(text, "\nIC_LOCK:STRING=") : NULL;

	if (at)
		at[16 + strcspn(at + 16, "\n")] = 0;
	sw_set(sw, "build_lock", at ? at + 16 : "tas");
}

/* The parts of the tree the bench is built from. */
static const char parts[] = "CMakeLists.txt cmake common queue gen codesize bench cmd plan";

static uint64_t hash;

/* FNV-1a, 64 bits: an identity to tell trees apart, not a seal. */
static void hash_bytes(const char *p, size_t n)
{
	while (n--)
		hash = (hash ^ (unsigned char)*p++) * 0x100000001b3ull;
}

/* A file's name and content into the hash ("" for one that cannot be read). */
static void hash_file(const char *top, const char *name)
{
	size_t len = 0;
	char *text = ic_read_path(sw_fmt("%s/%s", top, name), &len);

	hash_bytes(name, strlen(name) + 1);
	hash_bytes(text ? text : "", text ? len : 0);
	free(text);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The bench's sources by content, 16 hex digits: git's tracked and untracked files of the parts (uncommitted edits
 * count; a README edit does not), or find's outside a checkout (when git lists none); then the body. */
static char *source_hash(const struct sweep *sw)
{
	static const char *const list[] = {
		"git rev-parse --is-inside-work-tree >/dev/null 2>&1 && git ls-files -z -co --exclude-standard -- %s",
		"find %s -type f -print0 2>/dev/null",
	};
	char *line = NULL, **names = NULL;
	size_t cap = 0, n = 0;

	setenv("IC_SOURCE_TOP", sw->top, 1);   /* the path as it is, never parsed by sh */
	for (size_t c = 0; c < 2 && !n; c++) {
		FILE *p = popen(sw_fmt("cd \"$IC_SOURCE_TOP\" && %s", sw_fmt(list[c], parts)), "r");

		while (p && getdelim(&line, &cap, 0, p) > 0) {   /* (names as they are, NUL-ended) */
			names = ic_xrealloc(names, n + 1, sizeof(*names));
			names[n++] = sw_fmt("%s", line);
		}
		if (p && pclose(p) != 0 && !c)   /* no checkout, or git failed */
			n = 0;
	}
	unsetenv("IC_SOURCE_TOP");
	hash = 0xcbf29ce484222325ull;
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++)
		hash_file(sw->top, names[i]);
	if (*sw_get(sw, "body"))
		hash_file("", sw_get(sw, "body") + 1);   /* (absolute: "" and the rest) */
	return sw_fmt("%016llx", (unsigned long long)hash);
}

/* Each build's compiler as its first line of --version says it, once. */
static char *compilers(const struct sweep *sw)
{
	char *all = "", *seen = " ", *v;

	for (size_t b = 0; b < sw->n_tree; b++) {
		const char *cc = *sw->tree[b].cc ? sw->tree[b].cc : "cc";
		FILE *p;

		if (strstr(seen, sw_fmt(" %s ", cc)))
			continue;
		seen = sw_fmt("%s%s ", seen, cc);
		/* (run.sh let through only a compiler's name: letters, digits, ._+-) */
		p = popen(sw_fmt("%s --version 2>/dev/null", cc), "r");
		v = p ? ic_read_all(p, &(size_t){ 0 }) : NULL;
		if (p)
			pclose(p);
		all = sw_fmt("%s%s%.*s", all, *all ? "; " : "", v ? (int)strcspn(v, "\n") : 0, v ? v : "");
	}
	return all;
}

void sw_identity(struct sweep *sw)
{
	char *source = source_hash(sw), *cc = compilers(sw), *lock = sw_fmt("%s", sw_get(sw, "build_lock"));
	const char *dir = sw_get(sw, "resume"), *cflags = sw_get(sw, "cflags_list");

	if (!sw->resume) {
		sw_set(sw, "build_source", source);
		sw_set(sw, "build_cc", cc);
		sw_set(sw, "build_cflags", sw_fmt("%s%s", *cflags ? cflags : "-O2 -g (CMAKE_C_FLAGS_RELEASE)",
						  sw_long(sw, "lto") ? " with LTO of the callers" : ""));
		return;
	}
	sw_read_build_lock(sw);   /* the tree's, as it is now */
	if (strcmp(source, sw_get(sw, "build_source")))
		sw_fail("--resume: %s was measured from other code (source %s, this tree %s): a resumed sweep "
			"must not mix builds", dir, sw_get(sw, "build_source"), source);
	if (strcmp(cc, sw_get(sw, "build_cc")))
		sw_fail("--resume: %s was built with '%s', this machine has '%s'", dir, sw_get(sw, "build_cc"), cc);
	if (strcmp(lock, sw_get(sw, "build_lock")))
		sw_fail("--resume: %s used lock %s, the build has %s", dir, lock, sw_get(sw, "build_lock"));
}
