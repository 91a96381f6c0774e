/* summary.md's line on the run's history (engine/run_history.h): whether it
 * agrees with the latest earlier run of this machine and build. */
#include "history_line.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "run_history.h"

/* The run's directory: its processes are DIR/raw/NAME.json beside
 * DIR/run.conf. 0 when the run is not laid out so (tests, loose files). */
static int history_run_dir(const struct ic_analysis *an, char *dir, size_t cap)
{
	const char *path, *slash;
	char conf[4200];
	struct stat st;
	size_t len;

	if (!an->res->nfiles || !(path = an->res->files[0]->path) || !(slash = strrchr(path, '/')))
		return 0;
	len = (size_t)(slash - path);
	if (len < 4 || strncmp(slash - 4, "/raw", 4) || len - 4 >= cap)
		return 0;
	memcpy(dir, path, len - 4);
	dir[len - 4] = '\0';
	snprintf(conf, sizeof(conf), "%s/run.conf", dir);
	return stat(conf, &st) == 0;
}

void ic_history_line(FILE *f, const struct ic_analysis *an)
{
	char dir[4096];

	if (!isfinite(an->opts.planted) && history_run_dir(an, dir, sizeof(dir)))
		ic_history_compare(f, an, dir);
}
