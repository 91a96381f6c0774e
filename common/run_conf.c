/* run.conf's reader (run_conf.h). */
#include "run_conf.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

/* Setting i (s->n: a new one) set to key and value, in one allocation: the
 * value follows the key's NUL, and freeing the key frees both. */
static void settings_put(struct ic_settings *s, size_t i, const char *key, size_t klen, const char *value,
			 size_t vlen)
{
	char *kv = ic_xalloc(malloc(klen + vlen + 2));

	if (i == s->n)
		s->v = ic_xrealloc(s->v, s->n + 1, sizeof(*s->v));
	snprintf(kv, klen + vlen + 2, "%.*s%c%.*s", (int)klen, key, '\0', (int)vlen, value);   /* keys hold no NUL */
	if (i < s->n)
		free(s->v[i].key);
	else
		s->n++;
	s->v[i] = (struct ic_setting){ kv, kv + klen + 1 };
}

int ic_settings_parse(struct ic_settings *s, const char *text, size_t len, const char *what,
		      char *err, size_t errlen)
{
	size_t line = 0;

	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eq, *k;
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

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
		settings_put(s, s->n, k, (size_t)(eq - k), eq + 1, n - (size_t)(eq - k) - 1);
	}
	return 0;
}

int ic_settings_read(struct ic_settings *s, FILE *f, const char *what, char *err, size_t errlen)
{
	size_t len = 0;
	char *text = ic_read_all(f, &len);
	int rc = text ? ic_settings_parse(s, text, len, what, err, errlen) : ic_fail(err, errlen, "%s: cannot be read", what);

	free(text);
	return rc;
}

int ic_settings_load(struct ic_settings *s, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	int rc = f ? ic_settings_read(s, f, path, err, errlen) : ic_fail(err, errlen, "%s: %s", path, strerror(errno));

	if (f)
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

void ic_settings_set(struct ic_settings *s, const char *key, const char *value)
{
	size_t i = s->n;

	while (i-- > 0 && strcmp(s->v[i].key, key))
		;
	settings_put(s, i < s->n ? i : s->n, key, strlen(key), value, strlen(value));
}

void ic_settings_free(struct ic_settings *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].key);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}
