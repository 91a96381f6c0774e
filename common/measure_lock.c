/* Who holds the machine lock, read from /proc without touching the lock. */
#define _GNU_SOURCE
#include "measure_lock.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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
	line[0] = '\0';
	if ((f = fopen(path, "r"))) {
		if (!fgets(line, (int)cap, f))
			line[0] = '\0';
		fclose(f);
	}
	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "pid %ld", &pid) != 1 || pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "%s/proc/%ld", root, pid);
	return access(path, F_OK) == 0 ? pid : 0;
}

/* In place, no O_CREAT: another user's file in /tmp takes it so
 * (fs.protected_regular refuses O_CREAT there). The line is a courtesy:
 * a failure to write it stops nothing. One line, whatever cmdline holds:
 * its readers take the first. */
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

/* The pid /proc/locks lists for a flock held on key; 0 when none. */
static long lock_holder(const char *root, const char *key)
{
	char path[4096], line[256];
	long pid = 0;

	snprintf(path, sizeof(path), "%s/proc/locks", root);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	while (!pid && fgets(line, sizeof(line), f)) {
		/* "1: FLOCK  ADVISORY  WRITE 123 fe:00:1234 0 EOF"; "->" lines wait. */
		char *k = strstr(line, key);
		if (!k || !strstr(line, " FLOCK ") || strstr(line, "->"))
			continue;
		*k = '\0';
		char *sp = strrchr(line, ' ');
		pid = sp ? strtol(sp + 1, NULL, 10) : 0;
		if (pid <= 0)
			pid = -1;   /* held, by a pid the kernel does not say */
	}
	fclose(f);
	return pid;
}

/* 1 when one of this process's descriptors holds the lock on key. */
static int held_here(const char *root, const char *key)
{
	char path[4096], line[256];
	int held = 0;
	glob_t g;

	snprintf(path, sizeof(path), "%s/proc/self/fdinfo/*", root);
	if (glob(path, 0, NULL, &g) != 0)
		g.gl_pathc = 0;
	for (size_t i = 0; !held && i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		while (f && !held && fgets(line, sizeof(line), f))
			held = !strncmp(line, "lock:", 5) && strstr(line, key) && !strstr(line, "->");
		if (f)
			fclose(f);
	}
	globfree(&g);
	return held;
}

/* Whether pid is this process or an ancestor, by each /proc/<pid>/stat's
 * parent (0 when unknown ends the walk). */
static int is_self_or_ancestor(const char *root, long pid)
{
	char path[4096], line[1024], *p;

	for (long q = getpid(), depth = 0; q > 0 && depth < 256; depth++) {
		if (q == pid)
			return 1;
		snprintf(path, sizeof(path), "%s/proc/%ld/stat", root, q);
		FILE *f = fopen(path, "r");
		if (!f || !fgets(line, sizeof(line), f) || !(p = strrchr(line, ')')) ||
		    sscanf(p + 1, " %*c %ld", &q) != 1)
			q = 0;
		if (f)
			fclose(f);
	}
	return 0;
}

int ic_measure_lock_other(const char *root, char *out, size_t cap)
{
	const char *path = ic_measure_lock_path();
	char key[64], record[512];
	struct stat st;

	if (!root)
		root = "";
	if (stat(path, &st) != 0)
		return 0;
	/* The kernel's name of the file in /proc/locks and fdinfo: "fe:00:1234". */
	snprintf(key, sizeof(key), " %02x:%02x:%lu ", major(st.st_dev), minor(st.st_dev), (unsigned long)st.st_ino);
	long holder = lock_holder(root, key);
	if (holder == 0 || held_here(root, key))
		return 0;
	long pid = ic_measure_holder_read(root, record, sizeof(record));
	if (pid && is_self_or_ancestor(root, pid))
		return 0;
	/* The holder's line, else the pid the kernel lists for the lock. */
	if (pid)
		snprintf(out, cap, "%s: another inlinecost measurement, holding this machine", record);
	else
		snprintf(out, cap, "pid %ld: holds the inlinecost machine lock (%s) and left no line saying "
			 "what it runs", holder, path);
	return 1;
}
