/* The machine lock's path and its holder's line (measure_lock.h). */
#define _GNU_SOURCE
#include "measure_lock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *ic_measure_lock_path(void)
{
	const char *p = getenv("IC_MEASURE_LOCK");
	return p && *p ? p : IC_MEASURE_LOCK_PATH;
}

long ic_measure_holder_read(const char *root, char *line, size_t cap)
{
	char path[4200];
	long pid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s" IC_MEASURE_HOLDER_SUFFIX, ic_measure_lock_path());
	if (!(f = fopen(path, "r")) || !fgets(line, (int)cap, f))
		line[0] = '\0';
	if (f)
		fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "pid %ld", &pid) != 1 || pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "%s/proc/%ld", root, pid);
	return access(path, F_OK) == 0 ? pid : 0;
}

/* In place, no O_CREAT: fs.protected_regular refuses it on another user's file in /tmp. A courtesy,
 * so a failed write stops nothing. One line, whatever cmdline holds: its readers take the first. */
void ic_measure_holder_write(const char *cmdline, const char *top)
{
	char path[4200], when[32] = "";
	time_t now = time(NULL);
	FILE *f;

	snprintf(path, sizeof(path), "%s" IC_MEASURE_HOLDER_SUFFIX, ic_measure_lock_path());
	if (!(f = fopen(path, "r+")))
		return;
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (ftruncate(fileno(f), 0) == 0 && cmdline) {
		fprintf(f, "pid %ld (", (long)getpid());
		for (const char *c = cmdline; *c; c++)
			fputc(*c == '\n' ? ' ' : *c, f);
		fprintf(f, ") in %s since %s\n", top, when);
	}
	fclose(f);
}
