/* verdict.json against its documented shape, both ways: every field a
 * file holds is in docs/verdict-json.md's table with one of the types it
 * names, and every field the table names is in the files (with null only
 * where the table allows it).
 *
 * usage: test_report_verdict_json DOC.md FILE.json...
 * The table's rows: | `path` | type [or type...] | meaning |, path as
 * a.b (member) and a[] (every element); types string, number, integer,
 * boolean, object, array, pair ([low, high] numbers), null.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 256

struct field {
	char path[160];
	char types[96];
	int seen, seen_nonnull;
};

static struct field fields[MAX_FIELDS];
static size_t nfields;
static int bad;

static void fail(const char *file, const char *path, const char *what)
{
	fprintf(stderr, "test_report_verdict_json: FAIL: %s: %s: %s\n", file, path, what);
	bad = 1;
}

static int doc_read(const char *doc)
{
	FILE *f = fopen(doc, "r");
	char line[1024];

	if (!f) {
		perror(doc);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p, *q, *t, *e;

		if (strncmp(line, "| `", 3))
			continue;
		p = line + 3;
		q = strchr(p, '`');
		t = q ? strstr(q, "| ") : NULL;
		e = t ? strstr(t + 2, " |") : NULL;
		if (!q || !t || !e || nfields == MAX_FIELDS || (size_t)(q - p) >= sizeof(fields[0].path) ||
		    (size_t)(e - t - 2) >= sizeof(fields[0].types)) {
			fprintf(stderr, "test_report_verdict_json: %s: a row not read: %s", doc, line);
			fclose(f);
			return -1;
		}
		memcpy(fields[nfields].path, p, (size_t)(q - p));
		memcpy(fields[nfields].types, t + 2, (size_t)(e - t - 2));
		nfields++;
	}
	fclose(f);
	return nfields ? 0 : -1;
}

static struct field *doc_field(const char *path)
{
	for (size_t i = 0; i < nfields; i++)
		if (!strcmp(fields[i].path, path))
			return &fields[i];
	return NULL;
}

/* types holds the word t as a whole word ("string or null"). */
static int has_type(const char *types, const char *t)
{
	size_t n = strlen(t);

	for (const char *p = strstr(types, t); p; p = strstr(p + 1, t))
		if ((p == types || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return 1;
	return 0;
}

static int is_pair(const json_t *v)
{
	return json_is_array(v) && json_array_size(v) == 2 && json_is_number(json_array_get(v, 0)) &&
	       json_is_number(json_array_get(v, 1)) &&
	       json_number_value(json_array_get(v, 0)) <= json_number_value(json_array_get(v, 1));
}

static void walk(const char *file, const char *path, const json_t *v)
{
	struct field *fd = doc_field(path);
	int ok;

	if (!fd) {
		fail(file, path, "not in the documented table");
		return;
	}
	fd->seen = 1;
	if (json_is_null(v)) {
		if (!has_type(fd->types, "null"))
			fail(file, path, "null where the table allows none");
		return;
	}
	fd->seen_nonnull = 1;
	ok = (json_is_string(v) && has_type(fd->types, "string")) ||
	     (json_is_integer(v) && (has_type(fd->types, "integer") || has_type(fd->types, "number"))) ||
	     (json_is_real(v) && has_type(fd->types, "number")) ||
	     (json_is_boolean(v) && has_type(fd->types, "boolean")) ||
	     (json_is_object(v) && has_type(fd->types, "object")) ||
	     (json_is_array(v) && has_type(fd->types, "array")) ||
	     (has_type(fd->types, "pair") && is_pair(v));
	if (!ok) {
		fail(file, path, fd->types);
		return;
	}
	if (json_is_object(v)) {
		const char *k;
		json_t *m;
		char sub[256];

		json_object_foreach((json_t *)v, k, m) {
			snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", k);
			walk(file, sub, m);
		}
		/* Every documented member of this object is present. */
		for (size_t i = 0; i < nfields; i++) {
			const char *fp = fields[i].path;
			size_t n = strlen(path);

			if (*path && (strncmp(fp, path, n) || fp[n] != '.'))
				continue;
			if (*path)
				fp += n + 1;
			if (*fp && !strpbrk(fp, ".[") && !json_object_get(v, fp))
				fail(file, fields[i].path, "documented, absent");
		}
	} else if (json_is_array(v) && !has_type(fd->types, "pair")) {
		size_t i;
		json_t *e;
		char sub[256];

		snprintf(sub, sizeof(sub), "%s[]", path);
		json_array_foreach(v, i, e)
			walk(file, sub, e);
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fputs("usage: test_report_verdict_json DOC.md FILE.json...\n", stderr);
		return 2;
	}
	if (doc_read(argv[1])) {
		fprintf(stderr, "test_report_verdict_json: FAIL: no field table read from %s\n", argv[1]);
		return 1;
	}
	/* The root is an object of the table's top-level fields. */
	snprintf(fields[nfields].path, sizeof(fields[0].path), "%s", "");
	snprintf(fields[nfields].types, sizeof(fields[0].types), "object");
	nfields++;
	for (int i = 2; i < argc; i++) {
		json_error_t err;
		json_t *doc = json_load_file(argv[i], 0, &err);

		if (!doc) {
			fprintf(stderr, "test_report_verdict_json: FAIL: %s: line %d: %s\n", argv[i], err.line,
				err.text);
			return 1;
		}
		walk(argv[i], "", doc);
		json_decref(doc);
	}
	/* Every row is exercised by the files: a documented field none of
	 * them holds, or holds only as null, is a row the test cannot check. */
	for (size_t i = 0; i < nfields; i++)
		if (!fields[i].seen_nonnull)
			fail("the files", fields[i].path, fields[i].seen ? "only ever null" : "never present");
	if (bad)
		return 1;
	printf("test_report_verdict_json: ok: %zu fields in %d files\n", nfields - 1, argc - 2);
	return 0;
}
