/* Terminal, children, locks (driver.h): one user at a time per build tree or results dir, one measurement per machine
 * (common/measure_lock.h; cmd/inlines_bench.c too); children inherit lock fds: a running bench keeps them. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kit.h"
#include "measure_lock.h"
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

char *sw_tr(char *s, char from, char to)
{
	for (char *c = s; *c; c++)
		*c = *c != from ? *c : c[1] ? to : 0;
	return s;
}

void sw_line(int phase, const char *fmt, ...)
{
	char so_far[32], left[32];
	va_list ap;

	fprintf(stderr, "%s: ", sw_tag);
	if (phase)
		fprintf(stderr, sw_eta >= 0 ? "[%s, about %s left] " : "[%s] ",
			sw_fmt_s((long)(sw_now() - sw_started), so_far, sizeof(so_far)), sw_fmt_s(sw_eta, left, sizeof(left)));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A log's last n lines on stderr, each under the prefix and a bar. */
void sw_tail(int n, const char *log)
{
	char *text = sw_read(log), *p;

	if (!text)
		return;
	p = text + strlen(text);
	if (p > text && p[-1] == '\n')
		*--p = 0;
	while (p > text && (p[-1] != '\n' || --n > 0))
		p--;
	while (p && *p)
		fprintf(stderr, "%s: | %s\n", sw_tag, strsep(&p, "\n"));
}

void sw_cat(const char *path)
{
	char *text = sw_read(path);

	if (text)
		fputs(text, stdout);
}

volatile int sw_signal;
static void (*sw_stop)(void);   /* the interrupted run's last words */

static void child_into(const char *path, int fd)
{
	int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);

	if (f < 0 || dup2(f, fd) < 0)
		_exit(127);
	close(f);
}

pid_t sw_spawn(char *const argv[], const char *out, const char *err, const char *env)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		sw_fail("cannot start %s", argv[0]);
	if (pid > 0)
		return pid;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (out)
		child_into(out, 1);
	if (err == SW_SAME)
		dup2(1, 2);
	else if (err)
		child_into(err, 2);
	if (env)
		putenv((char *)env);
	execvp(argv[0], argv);
	_exit(127);
}

int sw_wait_s(pid_t pid, double s)
{
	int st, told = 0;
	pid_t got;
	double until = sw_now() + s;

	for (;;) {
		/* A signal to us, even to us alone (kill) or before the child started, ends it too; then wait for it. */
		if (sw_signal && !told++)
			kill(pid, SIGTERM);
		if ((got = waitpid(pid, &st, s < 0 || told ? 0 : WNOHANG)) > 0)
			break;
		if (got < 0 && errno != EINTR)
			return 127;
		if (got == 0 && !sw_signal && sw_now() >= until)
			return -1;   /* time up, but a signal first ends the child */
		if (got == 0)
			nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	}
	if (sw_signal)
		sw_stop();
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void sw_on_signal(int sig)
{
	sw_signal = sig;
}

void sw_catch(void (*stop)(void))
{
	struct sigaction sa = { .sa_handler = sw_on_signal };

	sw_stop = stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int sw_run(char *const argv[], const char *out, const char *err, const char *env)
{
	return sw_wait_s(sw_spawn(argv, out, err, env), -1);
}

void sw_sleep(double s)
{
	struct timespec t = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	if (sw_signal)
		sw_stop();
	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		if (sw_signal)
			sw_stop();
}

int sw_lock(const char *file, const char *what, int wait, const char *cmdline)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_APPEND, 0666);

	if (fd < 0)
		sw_fail("cannot open the lock %s", file);
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		char *text = sw_read(file);
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
	const char *file = ic_measure_lock_path(), *paths[2] = { file, sw_fmt("%s" IC_MEASURE_HOLDER_SUFFIX, file) };
	char last[1024] = "-", seen[1024] = "-", holder[1024];
	struct stat want, st;
	DIR *d;
	struct dirent *e;

	if (sw_measure_depth++)
		return;
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
	/* A new holder is said once seen twice: one letting go (its line outlives it a moment) is not. */
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
