/* What the sweep says on the terminal (driver.h): one prefix on every line,
 * one line per phase with the time so far and the time left. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kit.h"
#include "driver.h"

static const char sw_tag[] = "inlinecost";
double sw_started;   /* when run.sh started: its set-up counts */
long sw_eta = -1;

double sw_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

const char *sw_fmt_s(long s, char *buf, size_t cap)
{
	if (s >= 60)
		snprintf(buf, cap, "%ldm%02lds", s / 60, s % 60);
	else
		snprintf(buf, cap, "%lds", s);
	return buf;
}

char *sw_fmt(const char *fmt, ...)
{
	char *p;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	return ic_xalloc(n < 0 ? NULL : p);
}

static void sw_line(const char *pre, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", sw_tag, pre);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void sw_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sw_line("", fmt, ap);
	va_end(ap);
}

void sw_phase(const char *fmt, ...)
{
	char pre[96], so_far[32], left[32];
	va_list ap;

	sw_fmt_s((long)(sw_now() - sw_started), so_far, sizeof(so_far));
	if (sw_eta >= 0)
		snprintf(pre, sizeof(pre), "[%s, about %s left] ", so_far, sw_fmt_s(sw_eta, left, sizeof(left)));
	else
		snprintf(pre, sizeof(pre), "[%s] ", so_far);
	va_start(ap, fmt);
	sw_line(pre, fmt, ap);
	va_end(ap);
}

/* A log's last n lines on stderr, each under the prefix and a bar. */
void sw_tail(int n, const char *log)
{
	char *text = ic_read_path(log, &(size_t){ 0 }), *p;

	if (!text)
		return;
	p = text + strlen(text);
	if (p > text && p[-1] == '\n')
		*--p = 0;
	while (p > text && (p[-1] != '\n' || --n > 0))
		p--;
	for (char *nl; *p; p = nl + 1) {
		if ((nl = strchr(p, '\n')))
			*nl = 0;
		fprintf(stderr, "%s: | %s\n", sw_tag, p);
		if (!nl)
			break;
	}
	free(text);
}

void sw_cat(const char *path)
{
	size_t len;
	char *text = ic_read_path(path, &len);

	if (text)
		fwrite(text, 1, len, stdout), free(text);
}
