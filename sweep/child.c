/* The sweep's children (driver.h): fork and exec with the output in files,
 * one place for exit codes and for a signal that stops the run. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver.h"

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

	/* A signal that came before this child started stops it at once. */
	if (sw_signal) {
		kill(pid, SIGTERM);
		told = 1;
	}
	while ((got = waitpid(pid, &st, s < 0 || told ? 0 : WNOHANG)) <= 0) {
		if (got < 0 && errno != EINTR)
			return 127;
		/* A signal to us alone (SIGTERM from kill) ends the child too. */
		if (sw_signal && !told++)
			kill(pid, SIGTERM);
		if (got == 0 && !told) {
			if (sw_now() >= until)
				return -1;
			nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
		}
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
