/* run.conf's reader (run_conf.h). */
#include "run_conf.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

int ic_settings_parse(struct ic_settings *s, const char *text, size_t len, const char *what,
		      char *err, size_t errlen)
{
	size_t line = 0;

	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eq, *k;
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct ic_setting *ns;

		line++;
		k = p;
		p += n + 1;
		if (n && k[n - 1] == '\r')
			n--;
		if (n == 0 || k[0] == '#')
			continue;
		eq = memchr(k, '=', n);
		for (const char *c = k; eq && c < eq; c++)
			if (!(islower((unsigned char)*c) || *c == '_' || (c > k && isdigit((unsigned char)*c))))
				eq = NULL;
		if (!eq || eq == k)
			return ic_fail(err, errlen, "%s: line %zu is not key=value: %.*s", what, line,
				       (int)(n < 40 ? n : 40), k);
		ns = realloc(s->v, (s->n + 1) * sizeof(*ns));
		if (!ns)
			return ic_fail(err, errlen, "%s: out of memory", what);
		s->v = ns;
		ns[s->n].key = strndup(k, (size_t)(eq - k));
		ns[s->n].value = strndup(eq + 1, n - (size_t)(eq - k) - 1);
		if (!ns[s->n].key || !ns[s->n].value) {
			free(ns[s->n].key);
			free(ns[s->n].value);
			return ic_fail(err, errlen, "%s: out of memory", what);
		}
		s->n++;
	}
	return 0;
}

int ic_settings_read(struct ic_settings *s, FILE *f, const char *what, char *err, size_t errlen)
{
	size_t len = 0;
	char *text = ic_read_all(f, &len);
	int rc;

	if (!text)
		return ic_fail(err, errlen, "%s: cannot be read", what);
	rc = ic_settings_parse(s, text, len, what, err, errlen);
	free(text);
	return rc;
}

int ic_settings_load(struct ic_settings *s, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	int rc;

	if (!f)
		return ic_fail(err, errlen, "%s: %s", path, strerror(errno));
	rc = ic_settings_read(s, f, path, err, errlen);
	fclose(f);
	return rc;
}

const char *ic_settings_get(const struct ic_settings *s, const char *key)
{
	for (size_t i = s->n; i-- > 0;)
		if (!strcmp(s->v[i].key, key))
			return s->v[i].value;
	return "";
}

int ic_settings_set(struct ic_settings *s, const char *key, const char *value)
{
	char *v = strdup(value);
	struct ic_setting *ns = NULL;

	for (size_t i = s->n; v && i-- > 0;)
		if (!strcmp(s->v[i].key, key)) {
			free(s->v[i].value);
			s->v[i].value = v;
			return 0;
		}
	if (v && (ns = realloc(s->v, (s->n + 1) * sizeof(*ns))))
		s->v = ns;
	if (!ns || !(ns[s->n].key = strdup(key))) {
		free(v);
		return -1;
	}
	ns[s->n++].value = v;
	return 0;
}

void ic_settings_free(struct ic_settings *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].key);
		free(s->v[i].value);
	}
	free(s->v);
	s->v = NULL;
	s->n = 0;
}
