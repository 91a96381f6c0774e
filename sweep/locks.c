/* The sweep's locks (driver.h): a build tree or results directory has one
 * user at a time, and the machine one measurement at a time (the machine
 * lock, common/measure_lock.h; cmd/inlines_bench.c takes it too). The
 * descriptors stay open in the children, so a bench still running keeps
 * what it uses locked. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measure_lock.h"
#include "driver.h"

int sw_lock(const char *file, const char *what, int wait, const char *cmdline)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_APPEND, 0666);

	if (fd < 0)
		sw_fail("cannot open the lock %s", file);
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		char *text = ic_read_path(file, &(size_t){ 0 });
		const char *by = text && *text && *text != '\n' ? text : "another run";

		if (text)
			text[strcspn(text, "\n")] = 0;   /* the holder's first line */
		if (!wait)
			sw_fail("%s is in use by %s; try again when it has finished", what, by);
		sw_say("%s is in use by %s; waiting for it", what, by);
		if (flock(fd, LOCK_EX))
			sw_fail("cannot lock %s", file);
	}
	if (ftruncate(fd, 0) == 0)
		dprintf(fd, "pid %ld (%s)\n", (long)getpid(), cmdline);
	return fd;
}

int sw_measure_depth;
static int measure_fd = -1, measure_inherited;

void sw_measure_begin(const char *what, const char *cmdline, const char *top)
{
	const char *file = ic_measure_lock_path();
	char paths[2][4200], last[1024] = "-", seen[1024] = "-", holder[1024];
	struct stat want, st;
	DIR *d;
	struct dirent *e;

	if (sw_measure_depth++)
		return;
	snprintf(paths[0], sizeof(paths[0]), "%s", file);
	ic_measure_holder_path(paths[1], sizeof(paths[1]));
	for (int i = 0; i < 2; i++) {   /* world-writable, whatever the umask (measure_lock.h) */
		int fd = open(paths[i], O_RDONLY | O_CREAT, 0666);

		if (fd >= 0)
			close(fd);
		chmod(paths[i], 0666);
	}
	/* `flock FILE ./run.sh` hands down a descriptor that holds it: use it. */
	measure_inherited = 0;
	if (stat(file, &want) == 0 && (d = opendir("/proc/self/fd"))) {
		while ((e = readdir(d)))
			if (e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d) &&
			    fstat(atoi(e->d_name), &st) == 0 && st.st_dev == want.st_dev && st.st_ino == want.st_ino) {
				measure_fd = atoi(e->d_name);
				measure_inherited = 1;
				break;
			}
		closedir(d);
	}
	if (!measure_inherited && (measure_fd = open(file, O_RDONLY)) < 0)
		sw_fail("cannot open the machine lock %s", file);
	/* A new holder is said once it has been seen twice: one letting go
	 * (its line outlives it for a moment) is not. */
	for (int tries = 0; flock(measure_fd, LOCK_EX | LOCK_NB); tries++) {
		if (tries % 10 == 0) {
			if (!ic_measure_holder_read("", holder, sizeof(holder)))
				holder[0] = 0;   /* a line whose process has gone */
			if (strcmp(holder, last) && (!strcmp(last, "-") || !strcmp(holder, seen))) {
				if (*holder)
					sw_say("%s waits: the machine is measuring for %s", what, holder);
				else
					sw_say("%s waits: the machine is measuring for a process that wrote no line "
					       "into %s (flock %s by hand?)", what, paths[1], file);
				snprintf(last, sizeof(last), "%s", holder);
			}
			snprintf(seen, sizeof(seen), "%s", holder);
		}
		sw_sleep(0.1);
	}
	ic_measure_holder_write(cmdline, top);
}

void sw_measure_end(void)
{
	if (sw_measure_depth == 0 || --sw_measure_depth)
		return;
	ic_measure_holder_write(NULL, NULL);
	/* An inherited lock is its giver's to let go. */
	if (!measure_inherited) {
		flock(measure_fd, LOCK_UN);
		close(measure_fd);
	}
	measure_fd = -1;
}
