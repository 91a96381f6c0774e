/* The sweep's settings (driver.h): what run.sh hands over on stdin (run.conf's
 * settings as its options checked them, then the run's own: where it goes,
 * its build jobs and trees), those the plan resolves on this machine, and
 * run.conf written from them. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit.h"
#include "points.h"
#include "driver.h"
#include "topology.h"

/* The run's own keys, never written into run.conf: tree starts a build,
 * the tree_ keys after it are that build's. */
static const char *const own_keys[] = { "out", "resume", "jobs", "cmdline", "tree", "tree_cc",
					"tree_cflags", "tree_codegen", "tree_arg", NULL };

static int is_own(const char *key)
{
	for (const char *const *k = own_keys; *k; k++)
		if (!strcmp(*k, key))
			return 1;
	return 0;
}

const char *sw_get(const struct sweep *sw, const char *key)
{
	return ic_settings_get(&sw->s, key);
}

long sw_long(const struct sweep *sw, const char *key)
{
	return strtol(sw_get(sw, key), NULL, 10);
}

double sw_double(const struct sweep *sw, const char *key)
{
	return strtod(sw_get(sw, key), NULL);
}

void sw_set(struct sweep *sw, const char *key, const char *value)
{
	if (ic_settings_set(&sw->s, key, value))
		sw_fail("out of memory");
}

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
			t = memset(&sw->tree[sw->n_tree++], 0, sizeof(*t));
			t->dir = v;
			t->cc = t->cflags = t->codegen = "";
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
	for (size_t i = 0; i < sw->s.n; i++)
		if (!is_own(sw->s.v[i].key))
			fprintf(f, "%s=%s\n", sw->s.v[i].key, sw->s.v[i].value);
	if (fclose(f) || rename(tmp, path))
		sw_fail("cannot write %s", path);
	free(path), free(tmp);
}

/* What hwloc says, or the cores this process may use and no sizes (-1:
 * ic_topo_describe sets them so before it fails). */
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
	struct ic_plan_machine m = { t.cores, t.l1i_size, t.l2_size };

	SW_CAPTURE(text, ic_plan_resolve(&sw->s, &m, f_, err, sizeof(err)));
	if (ic_settings_parse(&r, text, strlen(text), "the plan", err, sizeof(err)))
		sw_fail("%s", err);
	for (size_t i = 0; i < r.n; i++)
		if (!strcmp(r.v[i].key, "note"))
			sw_say("%s", r.v[i].value);
		else if (!strcmp(r.v[i].key, "series"))
			sw->series = ic_xalloc(strdup(r.v[i].value));
		else
			sw_set(sw, r.v[i].key, r.v[i].value);
	ic_settings_free(&r);
	free(text);
}

char *sw_joined(char *specs)
{
	for (char *p = specs; *p; p++)
		if (*p == '\n')
			*p = p[1] ? ';' : 0;
	return specs;
}

char *sw_points(const struct sweep *sw)
{
	char err[512], *text;

	SW_CAPTURE(text, ic_plan_points(&sw->s, f_, err, sizeof(err)));
	if (!*sw_joined(text))
		sw_fail("the plan has no points");
	return text;
}

void sw_variant_seeds(struct sweep *sw)
{
	char *text;
	size_t len;
	FILE *f = ic_xalloc(open_memstream(&text, &len));

	for (long r = 1; r <= sw_long(sw, "repeat"); r++)
		for (long v = 0; v < sw_long(sw, "layouts_random"); v++)
			fprintf(f, "%sr%ld_v%ld:%u", r + v > 1 ? " " : "", r, v,
				ic_plan_variant_seed((uint32_t)sw_long(sw, "layout_seed"), (unsigned)r, (unsigned)v));
	fclose(f);
	sw_set(sw, "variant_seeds", text);
	free(text);
}

/* The lock CMake was configured with (CMakeLists.txt's default is tas). */
void sw_read_build_lock(struct sweep *sw)
{
	char *path = sw_fmt("%s/CMakeCache.txt", sw->tree[0].dir), *text = ic_read_path(path, &(size_t){ 0 }),
	     *at = text ? strstr(text, "\nIC_LOCK:STRING=") : NULL;

	if (at)
		at[16 + strcspn(at + 16, "\n")] = 0;
	sw_set(sw, "build_lock", at ? at + 16 : "tas");
	free(text), free(path);
}
