/* The fronts' shared plumbing; see kit.h. */
#define _GNU_SOURCE   /* nftw's FTW_DEPTH and FTW_PHYS */
#include "kit.h"

#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Each main sets its own; this only marks one that forgot. */
const char *ic_prog = "inlinecost";

int ic_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static void kit_say(const char *prog, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int ic_bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kit_say(ic_prog, fmt, ap);
	va_end(ap);
	return 2;
}

void ic_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kit_say(ic_prog, fmt, ap);
	va_end(ap);
	exit(code);
}

void *ic_xalloc(void *p)
{
	if (!p)
		ic_die(1, "out of memory");
	return p;
}

void *ic_xrealloc(void *p, size_t n, size_t size)
{
	if (!n)
		n = 1;
	/* n * size past SIZE_MAX is as out of memory as any */
	return ic_xalloc(size && n > SIZE_MAX / size ? NULL : realloc(p, n * size));
}

char *ic_read_all(FILE *f, size_t *len)
{
	char chunk[65536], *text = NULL;
	FILE *mem = open_memstream(&text, len);
	size_t got;
	int oom = !mem, bad;

	while (!oom && (got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		oom = fwrite(chunk, 1, got, mem) != got;
	bad = ferror(f);
	oom |= mem && fclose(mem) != 0;
	if (oom || bad) {
		free(text);
		errno = oom ? ENOMEM : EIO;
		return NULL;
	}
	return text;
}

char *ic_read_path(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = f ? ic_read_all(f, len) : NULL;
	int e = errno;

	if (f)
		fclose(f);
	errno = e;
	return text;
}

static int rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	return (type == FTW_DP || type == FTW_DNR ? rmdir(path) : unlink(path)) && errno != ENOENT ? -1 : 0;
}

int ic_rm_rf(const char *path)
{
	return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS) && errno != ENOENT ? -1 : 0;
}

int ic_mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf)) {
		errno = len ? ENAMETOOLONG : ENOENT;   /* what mkdir would say */
		return -1;
	}
	memcpy(buf, path, len + 1);
	/* each parent in turn; one that exists already is fine */
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

void ic_csv_quoted(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

int ic_options_parse(int argc, char **argv, const struct ic_option *opts, const char *usage,
		     const char *help)
{
	size_t n = 0;
	struct option *lo;
	char shorts[16] = ":h";
	int c, rc = -1;

	while (opts[n].name)
		n++;
	/* getopt_long's table: a value of 256 + row for each row, then --help;
	 * a one-letter row's value is its letter, in the short options too */
	lo = ic_xalloc(calloc(n + 2, sizeof(*lo)));
	for (size_t i = 0; i < n; i++) {
		int letter = !opts[i].name[1] && strlen(shorts) + 2 < sizeof(shorts) ? opts[i].name[0] : 0;

		lo[i] = (struct option){ opts[i].name, opts[i].kind == IC_OPT_FLAG ? no_argument : required_argument,
					 NULL, letter ? letter : (int)(256 + i) };
		if (letter)
			strcat(strncat(shorts, opts[i].name, 1), opts[i].kind == IC_OPT_FLAG ? "" : ":");
	}
	lo[n] = (struct option){ "help", no_argument, NULL, 'h' };
	opterr = 0;
	while (rc < 0 && (c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct ic_option *o = NULL;
		const char *v = optarg;
		char *end;
		double d;
		long x;

		for (size_t i = 0; !o && i < n; i++)
			o = lo[i].val == c ? &opts[i] : NULL;
		if (c == 'h') {
			fputs(usage, stdout);
			rc = 0;
		} else if (!o) {
			/* A short option is named by its letter: inside a cluster
			 * (-xh) getopt has not moved optind past it yet. */
			const char *a = argv[optind - 1];
			char letter[3] = { '-', (char)optopt, '\0' };
			int is_long = !strncmp(a, "--", 2) && a[2] == optopt && (!a[3] || a[3] == '=');

			rc = ic_bad(c == ':' ? "%s needs a value (see %s)" : "unknown option '%s' (see %s)",
				    optopt > 0 && optopt < 256 && !is_long ? letter : a, help);
		}
		if (!o)
			continue;
		switch (o->kind) {
		case IC_OPT_FLAG:
			*(int *)o->dest = 1;
			break;
		case IC_OPT_STRING:
			*(const char **)o->dest = v;
			break;
		case IC_OPT_LONG:
			errno = 0;
			x = strtol(v, &end, 10);
			if (!isdigit((unsigned char)*v) && !(*v == '-' && o->min < 0))
				end = (char *)v;   /* strtol would skip spaces, a '+', and a '-' we refuse */
			if (end == v || *end || errno || x < o->min || x > o->max)
				rc = ic_bad("--%s: '%s' is not a whole number %ld..%ld", o->name, v, o->min, o->max);
			else
				*(long *)o->dest = x;
			break;
		case IC_OPT_DOUBLE:
			errno = 0;
			d = strtod(v, &end);
			if (end == v || *end || errno || !(d > o->lo && d < o->hi))
				rc = isinf(o->hi) ? ic_bad("--%s: '%s' is not a number above %g", o->name, v, o->lo)
						  : ic_bad("--%s: '%s' is not a number between %g and %g", o->name, v,
							   o->lo, o->hi);
			else
				*(double *)o->dest = d;
			break;
		case IC_OPT_CALL:
			if ((c = o->call(o->dest, v)))
				rc = c;
			break;
		}
	}
	free(lo);
	return rc;
}

size_t ic_csv_split(char *line, char **field, size_t max)
{
	size_t n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	for (char *p = line; n < max;) {
		field[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}
