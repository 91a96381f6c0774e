/* body_check: does your body (queue/body.h) compile, in every form, before
 * anything is built? run.sh compiles this file alone into a temporary
 * directory and runs it on a --body before it installs or builds anything.
 *
 *   body_check TOP FILE CC [CFLAGS...]
 *
 * In a temporary directory under $TMPDIR (removed whatever happens), a gen
 * compiled from TOP/gen (the build's may not exist yet) writes a site file
 * of each form that includes or calls the body (inline, hint, extern,
 * clone); they, the body TU (queue/body_extern.c) and a stub main are
 * compiled with CC CFLAGS and linked, which catches a global defined in every
 * site file or a missing IC_BODY_FN too. Pass the build's flags: -O2 (or
 * run.sh --cflags), and -mgeneral-regs-only unless the build is --vectorised.
 * Exit 0: it compiles and links, nothing printed. Exit 1: one line on stderr,
 * the compiler's first error (file:line:col: error: ...), or for the link
 * FILE: error: ... naming the symbol. Exit 2: bad usage. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmp[PATH_MAX], file[PATH_MAX];
static volatile sig_atomic_t stopped;

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static void clean(void)
{
	if (*tmp)
		nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void on_signal(int sig)
{
	(void)sig;
	stopped = 1;
}

/* The one line, exit 1. */
__attribute__((noreturn, format(printf, 1, 2))) static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* A string of its own (the program is short-lived: nothing is freed). */
__attribute__((format(printf, 1, 2))) static char *str(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		fail("%s: error: out of memory", file);
	va_end(ap);
	return s;
}

/* The command being built: CC, then words, then the build's flags. */
static char *cmd[256];
static int ncmd;

static void word(char *w)
{
	if (ncmd + 1 < (int)(sizeof(cmd) / sizeof(*cmd)))
		cmd[ncmd++] = w, cmd[ncmd] = NULL;
}

/* args run with their output into log: their exit status. */
static int run(const char *log, char *const args[])
{
	int st = 0;
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0 && dup2(fd, 1) >= 0 && dup2(fd, 2) >= 0)
			execvp(args[0], args);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		if (stopped)
			kill(pid, SIGTERM);   /* then wait for it, and go */
	if (stopped)
		exit(1);
	if (pid < 0)
		fail("%s: error: cannot start %s: %s", file, args[0], strerror(errno));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* log's first line that says error, else its first line. */
static const char *first_error(const char *log)
{
	char *line = NULL, *first = NULL, *want = NULL;
	size_t cap = 0;
	FILE *f = fopen(log, "r");
	regex_t re;

	regcomp(&re, "(^|[: ])(fatal )?error[: ]", REG_EXTENDED | REG_NOSUB);
	while (f && !want && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = 0;
		if (!regexec(&re, line, 0, NULL, 0))
			want = line;
		else if (!first && *line)
			first = str("%s", line);
	}
	regfree(&re);
	if (f)
		fclose(f);
	return want ? want : first ? first : str("%s: error: the compiler failed and said nothing", file);
}

/* The link's complaint, said for a body's author. */
static void link_failed(const char *log)
{
	char *text = NULL, *at = NULL, *end;
	size_t cap = 0;
	FILE *f = fopen(log, "r");
	regex_t re;
	regmatch_t m;

	regcomp(&re, "(undefined reference to|multiple definition of) `[^']*'", REG_EXTENDED);
	while (f && !at && getline(&text, &cap, f) > 0)
		if (!regexec(&re, text, 1, &m, 0))
			at = text + m.rm_so, end = text + m.rm_eo, *end = 0;
	regfree(&re);
	if (f)
		fclose(f);
	if (!at)
		fail("%s: error: link: %s", file, first_error(log));
	if (!strcmp(at, "undefined reference to `ic_body_extern'"))
		fail("%s: error: link: %s: IC_BODY_FN is not defined", file, at);
	if (!strcmp(at, "undefined reference to `ic_body_setup'"))
		fail("%s: error: link: %s: IC_BODY_SETUP is not defined (an empty one will do)", file, at);
	if (!strncmp(at, "multiple definition of", 22))
		fail("%s: error: link: %s: make it static (the file is compiled into every site file)", file, at);
	fail("%s: error: link: %s", file, at);
}

/* CC with the build's flags, then the rest of a compile or link. */
static void compiler(char *cc, char **cflags, int nf)
{
	ncmd = 0;
	word(cc);
	for (int i = 0; i < nf; i++)
		word(cflags[i]);
	word("-std=gnu11");
}

int main(int argc, char **argv)
{
	static char *const forms[] = { "inline", "hint", "extern", "clone" };
	char *top, *cc, **cflags, name[NAME_MAX + 1], *objs[9], *log, *gen;
	int nf, nobj = 0;
	FILE *f;

	if (argc < 4 || argc > 200) {
		fputs("usage: body_check TOP FILE CC [CFLAGS...]\n", stderr);
		return 2;
	}
	top = argv[1], cc = argv[3], cflags = argv + 4, nf = argc - 4;
	if (argv[2][0] == '/' || !getcwd(file, sizeof(file)))
		snprintf(file, sizeof(file), "%s", argv[2]);
	else
		snprintf(file + strlen(file), sizeof(file) - strlen(file), "/%s", argv[2]);
	if (access(file, R_OK))
		fail("%s: error: no such readable file", file);
	snprintf(name, sizeof(name), "%s", strrchr(file, '/') ? strrchr(file, '/') + 1 : file);
	if (strlen(name) > 2 && !strcmp(name + strlen(name) - 2, ".c"))
		name[strlen(name) - 2] = 0;
	/* A signal stops the compiler we wait for, then us (atexit cleans):
	 * no SA_RESTART, so the wait sees it. */
	for (int s = 0; s < 3; s++)
		sigaction((int[]){ SIGHUP, SIGINT, SIGTERM }[s], &(struct sigaction){ .sa_handler = on_signal }, NULL);
	snprintf(tmp, sizeof(tmp), "%s/ic-body-check.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp))
		*tmp = 0, fail("%s: error: cannot make a temporary directory", file);
	atexit(clean);

	ncmd = 0;
	word(cc), word("--version");
	if (run(str("%s/cc.log", tmp), cmd) == 127)
		fail("%s: error: compiler '%s' not found", file, cc);
	/* gen, from its sources and the two of common/ it links. */
	ncmd = 0;
	word(cc), word("-O1"), word("-w"), word("-std=gnu11"), word(str("-I%s/common", top)), word(str("-I%s/gen", top));
	word(str("%s/gen/gen.c", top)), word(str("%s/common/atomic_file.c", top)), word(str("%s/common/kit.c", top));
	word("-o"), word(gen = str("%s/gen", tmp));
	if (run(log = str("%s/gen.log", tmp), cmd))
		fail("%s/gen/gen.c: error: cannot build gen to check with: %s", top, first_error(log));

	for (int fi = 0; fi < 4; fi++) {
		char *args[] = { gen, "--sites", "2", "--form", forms[fi], "--body", file, "-o", str("%s/%s", tmp, forms[fi]), NULL };

		/* gen refuses a bad name or path in one line (exit 2): that line. */
		if (run(log = str("%s/%s.log", tmp, forms[fi]), args)) {
			const char *why = first_error(log);

			fail("%s: error: %s", file, strncmp(why, "gen: ", 5) ? why : why + 5);
		}
		for (int s = 0; s < 2; s++) {
			compiler(cc, cflags, nf);
			word("-ffunction-sections"), word(str("-I%s/gen", top)), word(str("-I%s/queue", top));
			word("-c"), word(str("%s/%s/%s.c", tmp, forms[fi], s ? "point" : "sites_0"));
			word("-o"), word(objs[nobj++] = str("%s/%s/%s.o", tmp, forms[fi], s ? "point" : "sites_0"));
			if (run(log, cmd))
				fail("%s", first_error(log));
		}
	}

	/* The body's own TU, a stub main, and all of it linked. */
	compiler(cc, cflags, nf);
	word(str("-I%s/queue", top)), word(str("-DIC_BODY_FILE=\"%s\"", file)), word(str("-DIC_BODY_NAME=\"%s\"", name));
	word("-c"), word(str("%s/queue/body_extern.c", top)), word("-o"), word(objs[nobj++] = str("%s/body.o", tmp));
	if (run(log = str("%s/body.log", tmp), cmd))
		fail("%s", first_error(log));
	if (!(f = fopen(str("%s/main.c", tmp), "w")) || fputs("int main(void)\n{\n\treturn 0;\n}\n", f) < 0 || fclose(f))
		fail("%s: error: cannot write in %s", file, tmp);
	compiler(cc, cflags, nf);
	word("-o"), word(str("%s/a.out", tmp)), word(str("%s/main.c", tmp));
	for (int i = nobj - 1; i >= 0; i--)
		word(objs[i]);
	if (run(log = str("%s/link.log", tmp), cmd))
		link_failed(log);
	return 0;
}
