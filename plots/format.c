/* Text helpers shared by summarize's writers; see format.h. */
#include "format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *ic_fmt_bytes(char *buf, size_t cap, double bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	if (!isfinite(bytes)) {
		snprintf(buf, cap, "unknown");
		return buf;
	}
	while (bytes >= 1024.0 && u < 4) {
		bytes /= 1024.0;
		u++;
	}
	snprintf(buf, cap, bytes == floor(bytes) ? "%.0f %s" : "%.1f %s", bytes, unit[u]);
	return buf;
}

const char *ic_fmt_threads_mode(char *buf, size_t cap, const struct ic_group *gr)
{
	if (gr->threads == 1)
		snprintf(buf, cap, "1 thread, %s queue", gr->mode);
	else
		snprintf(buf, cap, "%lu threads, %s queue", gr->threads, gr->mode);
	return buf;
}

const char *ic_fmt_series(char *buf, size_t cap, const struct ic_results *res,
			  const struct ic_group *gr)
{
	char tm[96], fb[32], body[320] = "";
	int many = ic_fmt_many_bodies(res);

	if (many)
		snprintf(body, sizeof(body), "%s, %s layout, %s order", gr->op, gr->layout, gr->order);
	if (gr->filler)
		snprintf(body + strlen(body), sizeof(body) - strlen(body), "%s%s filler per site",
			 many ? ", " : "", ic_fmt_bytes(fb, sizeof(fb), (double)gr->filler));
	ic_fmt_threads_mode(tm, sizeof(tm), gr);
	if (*body)
		snprintf(buf, cap, "%s; %s", body, tm);
	else
		snprintf(buf, cap, "%s", tm);
	return buf;
}

const char *ic_fmt_counter_source(const struct ic_point *p)
{
	return p->source_mixed ? "mixed" : p->file->counter_source;
}

int ic_fmt_many_bodies(const struct ic_results *res)
{
	for (size_t g = 1; g < res->ngroups; g++)
		if (strcmp(res->groups[g].op, res->groups[0].op) ||
		    strcmp(res->groups[g].layout, res->groups[0].layout) ||
		    strcmp(res->groups[g].order, res->groups[0].order))
			return 1;
	return 0;
}
