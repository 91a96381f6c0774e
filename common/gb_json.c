/* Google Benchmark's JSON, as jansson can read it (gb_json.h). */
#include "gb_json.h"
#include "kit.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* NaN / Infinity outside strings as null, in a new string. */
static char *gb_json_nonfinite_to_null(const char *s, size_t n, size_t *outlen)
{
	char *out = ic_xalloc(malloc(2 * n + 1));   /* "nan" -> "null" grows by one per 3 bytes at most */
	size_t o = 0;
	int in_string = 0;

	for (size_t i = 0; i < n; i++) {
		/* A word outside strings, after an optional '-': s[w..end). */
		size_t w = i + (s[i] == '-'), end = w;

		while (!in_string && end < n && isalpha((unsigned char)s[end]))
			end++;
		if (end > w) {
			int nonfinite = (end - w == 3 && (!strncasecmp(s + w, "nan", 3) || !strncasecmp(s + w, "inf", 3))) ||
					(end - w == 8 && !strncasecmp(s + w, "infinity", 8));

			memcpy(out + o, nonfinite ? "null" : s + i, nonfinite ? 4 : end - i);
			o += nonfinite ? 4 : end - i;
			i = end - 1;
			continue;
		}
		if (in_string && s[i] == '\\' && i + 1 < n)
			out[o++] = s[i++];
		else if (s[i] == '"')
			in_string = !in_string;
		out[o++] = s[i];
	}
	out[o] = '\0';
	*outlen = o;
	return out;
}

json_t *ic_gb_json_loadb(const char *text, size_t len, const char *name, char *err,
			 size_t errlen)
{
	json_error_t jerr;
	char *clean = gb_json_nonfinite_to_null(text, len, &len);
	json_t *doc = json_loadb(clean, len, 0, &jerr);

	free(clean);
	if (!doc)
		snprintf(err, errlen, "%s: not JSON (line %d: %s)", name, jerr.line, jerr.text);
	return doc;
}

json_t *ic_gb_json_load(const char *path, char *err, size_t errlen)
{
	size_t len;
	char *text = ic_read_path(path, &len);
	json_t *doc = text ? ic_gb_json_loadb(text, len, path, err, errlen) : NULL;

	if (!text)
		snprintf(err, errlen, "%s: %s%s", path, errno == ENOMEM ? "out of memory" : errno == EIO ? "read error"
			 : "cannot open: ", errno == ENOMEM || errno == EIO ? "" : strerror(errno));
	free(text);
	return doc;
}

double ic_gb_unit_ns(const char *unit)
{
	static const struct { const char *name; double ns; } u[] = {
		{ "ns", 1.0 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };

	for (size_t i = 0; unit && i < sizeof(u) / sizeof(*u); i++)
		if (!strcmp(unit, u[i].name))
			return u[i].ns;
	return NAN;
}
