/* Makes a changed copy of one process's Google Benchmark JSON, for the
 * compare and agree tests' constructed runs:
 *
 *   edit_process_json [--context KEY=VALUE]... [--drop TEXT]...
 *                     [--rename FROM=TO]... [--scale FORM=FACTOR]... IN OUT
 *
 * --context sets a string in the context; --drop leaves out every
 * benchmark whose name holds TEXT; --rename replaces FROM by TO in every
 * name; --scale multiplies the times of form FORM (sites/FORM/...) by
 * FACTOR. Exit 0 written, 2 bad usage or input.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_json.h"

#define EDIT_MAX 32

struct edit_pair {
	const char *a;
	char *b;
};

static int edit_bad(const char *what)
{
	fprintf(stderr, "edit_process_json: %s\n", what);
	return 2;
}

/* "A=B" split at its first '='. */
static int edit_pair_of(const char *arg, struct edit_pair *p)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return -1;
	p->a = strndup(arg, (size_t)(eq - arg));
	p->b = eq + 1;
	return p->a ? 0 : -1;
}

/* s with every FROM replaced by TO (a new string). */
static char *edit_replace(const char *s, const char *from, const char *to)
{
	char *out = NULL, *hit;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	while ((hit = strstr(s, from))) {
		fwrite(s, 1, (size_t)(hit - s), f);
		fputs(to, f);
		s = hit + strlen(from);
	}
	fputs(s, f);
	fclose(f);
	return out;
}

int main(int argc, char **argv)
{
	struct edit_pair ctx[EDIT_MAX], ren[EDIT_MAX], scale[EDIT_MAX];
	const char *drop[EDIT_MAX];
	size_t nctx = 0, nren = 0, nscale = 0, ndrop = 0, idx;
	json_t *doc, *benchmarks, *kept, *e;
	char err[512];
	int i;

	for (i = 1; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		struct edit_pair *p = !strcmp(argv[i], "--context") ? &ctx[nctx++]
				    : !strcmp(argv[i], "--rename") ? &ren[nren++]
				    : !strcmp(argv[i], "--scale") ? &scale[nscale++] : NULL;

		if (nctx >= EDIT_MAX || nren >= EDIT_MAX || nscale >= EDIT_MAX || ndrop >= EDIT_MAX)
			return edit_bad("too many edits");
		if (!strcmp(argv[i], "--drop"))
			drop[ndrop++] = argv[i + 1];
		else if (!p || edit_pair_of(argv[i + 1], p))
			return edit_bad("usage: [--context K=V] [--drop TEXT] [--rename A=B] [--scale FORM=F]... IN OUT");
	}
	if (argc - i != 2)
		return edit_bad("give IN and OUT");
	if (!(doc = ic_gb_json_load(argv[i], err, sizeof(err))))
		return edit_bad(err);
	for (size_t k = 0; k < nctx; k++)
		json_object_set_new(json_object_get(doc, "context"), ctx[k].a, json_string(ctx[k].b));
	benchmarks = json_object_get(doc, "benchmarks");
	kept = json_array();
	json_array_foreach(benchmarks, idx, e) {
		const char *name = json_string_value(json_object_get(e, "name"));
		int gone = 0;

		for (size_t k = 0; name && k < ndrop; k++)
			gone |= strstr(name, drop[k]) != NULL;
		if (!name || gone)
			continue;
		for (size_t k = 0; k < nscale; k++) {
			char prefix[256];

			snprintf(prefix, sizeof(prefix), "sites/%s/", scale[k].a);
			if (strncmp(name, prefix, strlen(prefix)))
				continue;
			for (const char *const *t = (const char *const[]){ "real_time", "cpu_time", NULL }; *t; t++)
				json_object_set_new(e, *t, json_real(json_number_value(json_object_get(e, *t)) *
								     atof(scale[k].b)));
		}
		for (const char *const *t = (const char *const[]){ "name", "run_name", NULL }; *t; t++) {
			const char *v = json_string_value(json_object_get(e, *t));

			for (size_t k = 0; v && k < nren; k++) {
				char *r = edit_replace(json_string_value(json_object_get(e, *t)), ren[k].a,
						       ren[k].b);

				json_object_set_new(e, *t, json_string(r));
				free(r);
			}
		}
		json_array_append(kept, e);
	}
	json_object_set_new(doc, "benchmarks", kept);
	if (json_dump_file(doc, argv[i + 1], JSON_INDENT(2)))
		return edit_bad("cannot write OUT");
	json_decref(doc);
	return 0;
}
