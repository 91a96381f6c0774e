/* Markdown as the terminal's plain lines; see report.h. Widths are in
 * bytes, as run.sh's C locale counted them. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define PLAIN_WIDTH 100

/* One line of ic_plain_text (report.h): links and images first, then
 * the marks; wrapped at a space. */
static void plain_line(FILE *out, const char *s, size_t n)
{
	char *a = malloc(n + 1), *p;
	size_t len = 0, k = 0, ind = 0, c;

	if (!a)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *open = s + i + (s[i] == '!' && i + 1 < n && s[i + 1] == '[');
		const char *close = *open == '[' ? memchr(open, ']', (size_t)(s + n - open)) : NULL;
		const char *target = close && close + 1 < s + n && close[1] == '(' ?
			memchr(close, ')', (size_t)(s + n - close)) : NULL;

		if (target) {
			memcpy(a + len, open + 1, (size_t)(close - open - 1));
			len += (size_t)(close - open - 1);
			i = (size_t)(target - s);
		} else {
			a[len++] = s[i];
		}
	}
	for (size_t i = 0; i < len; i++)
		if (a[i] == '*' && i + 1 < len && a[i + 1] == '*')
			i++;
		else if (a[i] != '`')
			a[k++] = a[i];
	a[k] = '\0';
	p = a;
	if (*p == '#' && p[strspn(p, "#")] == ' ')
		p += strspn(p, "#") + strspn(p + strspn(p, "#"), " ");
	if (p[strspn(p, " \t\r\f\v")]) {
		if (!strncmp(p + strspn(p, " "), "- ", 2))
			ind = strspn(p, " ") + 2;
		while (strlen(p) > PLAIN_WIDTH) {
			for (c = PLAIN_WIDTH - 1; c > ind && p[c] != ' '; c--)
				;
			if (c <= ind)
				c = PLAIN_WIDTH - 1;
			fprintf(out, IC_PLAIN_PREFIX "%.*s\n", (int)c, p);
			/* the byte at c (the space) goes; the rest under the indent */
			p += c + 1 - ind;
			memset(p, ' ', ind);
		}
		fprintf(out, IC_PLAIN_PREFIX "%s\n", p);
	}
	free(a);
}

void ic_plain_text(FILE *out, const char *md)
{
	for (const char *nl; *md; md = *nl ? nl + 1 : nl) {
		nl = md + strcspn(md, "\n");
		plain_line(out, md, (size_t)(nl - md));
	}
}

void ic_plain_closing(FILE *out, const char *md)
{
	static const char smoke[] = " — smoke test";
	const char *nl = md + strcspn(md, "\n"), *mark = NULL;
	int sections = 0;

	for (const char *at = md; (at = memmem(at, (size_t)(nl - at), smoke, strlen(smoke))); at++)
		mark = at;
	if (mark) {
		char *line;

		if (asprintf(&line, "Smoke test%.*s", (int)(nl - mark - strlen(smoke)),
			     mark + strlen(smoke)) >= 0) {
			plain_line(out, line, strlen(line));
			free(line);
		}
	}
	/* the first section: from its heading to the next */
	for (const char *s = md; *s; s = *nl ? nl + 1 : nl) {
		nl = s + strcspn(s, "\n");
		sections += !strncmp(s, "## ", 3);
		if (sections == 1)
			plain_line(out, s, (size_t)(nl - s));
	}
}
