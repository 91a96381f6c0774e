/* Drawing a chart with gnuplot; see gnuplot_run.h. */
#define _GNU_SOURCE
#include "gnuplot_run.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit.h"

extern char **environ;

void ic_gnuplot_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		if (*s != '\n' && *s != '\r')
			fputc(*s, f);
	}
	fputc('\'', f);
}

const char *ic_log_last(const char *path, const char *skip, const char *pass, char *buf, size_t cap)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	*buf = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[strspn(line, skip)])
			continue;
		snprintf(buf, cap, "%s", line);
		if (pass)
			fprintf(stderr, "%s%s\n", pass, line);
	}
	if (f)
		fclose(f);
	return buf;
}

int ic_spawn_logged(const char *file, char *const argv[], char *const env[], const char *log,
		    int *status)
{
	posix_spawn_file_actions_t fa;
	pid_t pid, w = 0;
	int rc;

	*status = -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	rc = posix_spawnp(&pid, file, &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	while (!rc && (w = waitpid(pid, status, 0)) < 0 && errno == EINTR)
		;
	return rc ? rc : w < 0 ? errno : 0;   /* a lost child is a failure, not a status */
}

int ic_gnuplot_draw(const char *chart, const char *dir, const char *term, const char *out,
		    const char *log, char *err, size_t errlen)
{
	static char lc_all[] = "LC_ALL=C.UTF-8";   /* gnuplot_run.h says why */
	const char *gnuplot = getenv("GNUPLOT") && *getenv("GNUPLOT") ? getenv("GNUPLOT") : "gnuplot";
	char script[PATH_MAX], *vars = NULL, **env;
	size_t len = 0, n = 0, k = 0;
	FILE *v;
	int status, rc;

	if ((size_t)snprintf(script, sizeof(script), "%s/%s.gp", IC_PLOTS_DIR, chart) >= sizeof(script))
		return ic_fail(err, errlen, "no room for the chart %s's paths", chart);
	v = ic_xalloc(open_memstream(&vars, &len));
	fputs("ic_dir=", v);
	ic_gnuplot_quote(v, dir);
	fputs("; ic_src=", v);
	ic_gnuplot_quote(v, IC_PLOTS_DIR);
	fprintf(v, "; ic_term='%s'; ic_out=", term);
	ic_gnuplot_quote(v, out);
	ic_xalloc(fclose(v) ? NULL : vars);   /* a memory stream fails only for memory */
	/* The caller's environment without its locale settings, and LC_ALL. */
	while (environ[n])
		n++;
	env = ic_xrealloc(NULL, n + 2, sizeof(*env));
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LC_", 3) && strncmp(environ[i], "LANG=", 5) &&
		    strncmp(environ[i], "LANGUAGE=", 9))
			env[k++] = environ[i];
	env[k++] = lc_all;
	env[k] = NULL;
	rc = ic_spawn_logged(gnuplot, (char *[]){ (char *)gnuplot, "-e", vars, script, NULL }, env, log, &status);
	free(env);
	free(vars);
	if (rc == ENOENT) {
		unlink(log);
		return 1;
	}
	if (rc)
		return ic_fail(err, errlen, "cannot start gnuplot: %s", strerror(rc));
	rc = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
	if (!*ic_log_last(log, " \t^", rc ? NULL : "gnuplot: ", err, errlen))
		snprintf(err, errlen, "no message");
	unlink(log);
	return rc;
}

int ic_gnuplot_draw_pair(const char *chart, const char *dir, const char *base, char *err, size_t errlen)
{
	static const char *const term[] = { "png", "svg" };
	char log[PATH_MAX], tmp[2][PATH_MAX], out[2][PATH_MAX], last[1024];
	long pid = (long)getpid();
	/* The temporaries hidden beside the charts: a killed draw leaves no
	 * file a user would take for one. */
	const char *name = strrchr(base, '/') ? strrchr(base, '/') + 1 : base;
	int rc = 0;

	if ((size_t)snprintf(log, sizeof(log), "%s/.%s.log.%ld", dir, chart, pid) >= sizeof(log))
		return ic_fail(err, errlen, "%s: the path is too long", dir);
	for (int t = 0; t < 2; t++)
		if ((size_t)snprintf(out[t], PATH_MAX, "%s.%s", base, term[t]) >= PATH_MAX ||
		    (size_t)snprintf(tmp[t], PATH_MAX, "%.*s.%s.%s.tmp.%ld", (int)(name - base), base, name, term[t],
				     pid) >= PATH_MAX)
			return ic_fail(err, errlen, "%s: the path is too long", base);
	for (int t = 0; t < 2 && !rc; t++)
		if ((rc = ic_gnuplot_draw(chart, dir, term[t], tmp[t], log, last, sizeof(last))) < 0)
			snprintf(err, errlen, "gnuplot failed on %s.gp (%s): %s", chart, term[t], last);
	for (int t = 0; t < 2 && !rc; t++)
		if (rename(tmp[t], out[t]) &&
		    (rc = ic_fail(err, errlen, "cannot rename %s into place: %s", out[t], strerror(errno))) && t)
			unlink(out[0]);   /* no half pair */
	unlink(tmp[0]);
	unlink(tmp[1]);
	return rc;
}

int ic_gnuplot_draw_dir(const char *dir, const char *chart, char *err, size_t errlen)
{
	char plots[PATH_MAX], base[PATH_MAX];

	if ((size_t)snprintf(plots, sizeof(plots), "%s/plots", dir) >= sizeof(plots) ||
	    (size_t)snprintf(base, sizeof(base), "%s/%s", plots, chart) >= sizeof(base))
		return ic_fail(err, errlen, "%s: the path is too long", dir);
	return ic_gnuplot_draw_pair(chart, plots, base, err, errlen);
}

int ic_gnuplot_draw_sweep(const char *dir, char *err, size_t errlen)
{
	static const char *const chart[] = { "time", "l1i", "ratio", "timeline", "attribution" };
	char path[PATH_MAX];
	int rc = 0;

	for (size_t i = 0; i < sizeof(chart) / sizeof(*chart) && !rc; i++)
		rc = ic_gnuplot_draw_dir(dir, chart[i], err, errlen);
	/* A report's charts are a set: all of them or none. */
	for (size_t i = 0; i < sizeof(chart) / sizeof(*chart) && rc < 0; i++)
		for (int t = 0; t < 2; t++) {
			snprintf(path, sizeof(path), "%s/plots/%s.%s", dir, chart[i], t ? "svg" : "png");
			unlink(path);
		}
	return rc;
}
