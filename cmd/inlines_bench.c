/* inlines_bench: how fast the census reads and how much memory it takes (docs/inlines.md quotes
 * it), a Markdown page on stdout, under the machine lock. Three measurements:
 *  1. libc's debug file (libc6-dbg) read by inlines and by dwarves' pfunct -t, tries interleaved:
 *     median seconds and maximum RSS each;
 *  2. every FILE given (a kernel's vmlinux among them), by inlines;
 *  3. time against .debug_info bytes over the FILEs, each read from a copy with its debug sections
 *     decompressed (zlib's time would blur the slope): a least-squares line and its R^2 for linked
 *     files, another for object files (kernel modules), whose relocations libdwfl applies.
 * A process's time is its wall time from fork to exit, its memory the kernel's maximum RSS of it
 * (wait4), as /usr/bin/time gives them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "census.h"
#include "driver.h"
#include "kit.h"
#include "topology.h"

static const char usage[] =
	"usage: inlines_bench [--tries T] INLINES [FILE...]\n"
	"INLINES is the census program (build/cmd/inlines); the page goes to stdout.\n";

#define LIBC "/lib/x86_64-linux-gnu/libc.so.6"

static char tmp[] = "/tmp/inlines-bench.XXXXXX", err_log[64], out_txt[64], plain[64];

static void clean(void)
{
	unlink(err_log), unlink(out_txt), unlink(plain), rmdir(tmp);
}

/* Interrupted: the copies (a decompressed vmlinux is large) go too. */
static void on_signal(int sig)
{
	clean();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* argv run once, its stdout into out: seconds and maximum RSS (KiB). */
static void run_once(char *const argv[], const char *out, double *s, double *kib)
{
	struct timespec t0, t1;
	struct rusage ru;
	int st;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = sw_spawn(argv, out, err_log, NULL);
	if (wait4(pid, &st, 0, &ru) != pid)
		sw_fail("cannot run %s: %s", argv[0], strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		char *text = ic_read_path(err_log, &(size_t){ 0 }), *line = text ? text : "", *nl;

		while ((nl = strrchr(line, '\n')) && !nl[1])
			*nl = 0;
		/* 127: sw_spawn could not start it. */
		sw_fail("%s failed: %s", argv[0], WIFEXITED(st) && WEXITSTATUS(st) == 127 && !*line ? "cannot run it"
			: (nl = strrchr(line, '\n')) ? nl + 1 : line);
	}
	*s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	*kib = (double)ru.ru_maxrss;
}

static double median(double *v, size_t n)
{
	gsl_sort(v, 1, n);
	return gsl_stats_median_from_sorted_data(v, 1, n);
}

/* The ELF file's .debug_info size, uncompressed; its type (ET_REL...). */
static double info_bytes(const char *path, int *type)
{
	int fd = open(path, O_RDONLY);
	Elf *elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	double size;

	if (!elf || !gelf_getehdr(elf, &eh))
		sw_fail("%s: not an ELF file we can read", path);
	*type = eh.e_type;
	size = (double)ic_debug_info_bytes(elf, 0);
	elf_end(elf);
	close(fd);
	return size;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* out_txt's rows below its header line, and how many distinct first
 * words they have (up to a comma, a space or a tab). */
static void rows_names(long *rows, long *names)
{
	char *text = ic_read_path(out_txt, &(size_t){ 0 }), **word = NULL, *line, *save;
	size_t n = 0;

	*rows = *names = 0;
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
		if ((*rows)++) {
			word = ic_xrealloc(word, n + 1, sizeof(*word));
			line[strcspn(line, ", \t")] = 0;
			word[n++] = line;
		}
	*rows -= *rows > 0;
	if (n)
		qsort(word, n, sizeof(*word), cmp_str);
	for (size_t i = 0; i < n; i++)
		*names += !i || strcmp(word[i], word[i - 1]);
	free(word);
	free(text);
}

/* One tool's row of the libc table: its tries' medians, its output's counts. */
static void tool_row(const char *name, double *s, double *kib, long tries)
{
	long rows, names;

	rows_names(&rows, &names);
	printf("| %s | %.2f | %.0f | %ld | %ld |\n", name, median(s, (size_t)tries), median(kib, (size_t)tries) / 1024,
	       rows, names);
}

/* libc's debug file, found by its build-id as inlines finds it. */
static void libc_table(char *inlines, long tries)
{
	char debug[4096], err[8192], *inl[] = { inlines, "--csv", debug, NULL }, *pf[] = { "pfunct", "-t", debug, NULL };
	double s[2][1000], kib[2][1000], mib;
	int have_pfunct = !system("command -v pfunct >/dev/null 2>&1");
	struct ic_debug_file df;
	int missing = ic_debug_file_open(&df, LIBC, NULL, IC_DEBUG_DIR_DEFAULT, err, sizeof(err));

	snprintf(debug, sizeof(debug), "%s", df.debug_path);
	mib = (double)df.info_bytes / 1048576;
	ic_debug_file_close(&df);
	if (missing) {
		printf("libc's debug file is not installed (apt-get install libc6-dbg): %s\n", err);
		return;
	}
	for (long t = 0; t < tries; t++) {
		run_once(inl, "/dev/null", &s[0][t], &kib[0][t]);
		if (have_pfunct)
			run_once(pf, "/dev/null", &s[1][t], &kib[1][t]);
	}
	printf("libc's debug file (%s, %.1f MiB of .debug_info, zlib-compressed):\n\n", debug, mib);
	printf("| tool | seconds | max RSS (MiB) | rows | distinct names |\n|---|---:|---:|---:|---:|\n");
	run_once(inl, out_txt, &(double){ 0 }, &(double){ 0 });
	tool_row("inlines --csv", s[0], kib[0], tries);
	if (!have_pfunct) {
		printf("| pfunct -t | not measured: no pfunct (apt-get install dwarves) | | | |\n");
		return;
	}
	run_once(pf, out_txt, &(double){ 0 }, &(double){ 0 });
	tool_row("pfunct -t", s[1], kib[1], tries);
}

/* The FILEs' table, then a line of seconds against MiB of .debug_info per kind (linked, object). */
static void files_table(char *inlines, char **file, int nfiles, long tries)
{
	double mib[nfiles + 1], sec[nfiles + 1], s[2][1000], kib[2][1000];
	int type[nfiles + 1];

	printf("\nEach file as given, and a copy with its debug sections decompressed (the slope's):\n\n");
	printf("| file | .debug_info (MiB) | seconds | max RSS (MiB) | decompressed: seconds | MiB/s |\n");
	printf("|---|---:|---:|---:|---:|---:|\n");
	for (int f = 0; f < nfiles; f++) {
		char *copy[] = { "objcopy", "--decompress-debug-sections", file[f], plain, NULL };
		char *given[] = { inlines, "--csv", file[f], NULL }, *flat[] = { inlines, "--csv", plain, NULL };

		run_once(copy, "/dev/null", &(double){ 0 }, &(double){ 0 });
		for (long t = 0; t < tries; t++) {
			run_once(given, "/dev/null", &s[0][t], &kib[0][t]);
			run_once(flat, "/dev/null", &s[1][t], &kib[1][t]);
		}
		unlink(plain);
		mib[f] = info_bytes(file[f], &type[f]) / 1048576;
		sec[f] = median(s[1], (size_t)tries);
		printf("| %s | %.2f | %.2f | %.0f | %.2f | %.0f |\n", file[f], mib[f], median(s[0], (size_t)tries),
		       median(kib[0], (size_t)tries) / 1024, sec[f], sec[f] > 0 ? mib[f] / sec[f] : 0);
	}
	printf("\n");
	for (int kind = 0; kind < 2; kind++) {
		const char *name = kind ? "object" : "linked";
		double x[nfiles + 1], y[nfiles + 1], a, b, c00, c01, c11, ss, r;
		size_t n = 0;

		for (int f = 0; f < nfiles; f++)
			if ((type[f] == ET_REL) == kind)
				x[n] = mib[f], y[n++] = sec[f];
		if (n == 1)
			printf("One %s file: no slope.\n", name);
		if (n < 2)
			continue;
		gsl_fit_linear(x, 1, y, 1, n, &a, &b, &c00, &c01, &c11, &ss);
		r = gsl_stats_correlation(x, 1, y, 1, n);
		printf("%s files, decompressed: seconds = %.3f + %.4f x MiB of .debug_info (%.0f MiB/s), R^2 = %.4f over %zu files.\n",
		       name, a, b, 1 / b, r * r, n);
	}
}

int main(int argc, char **argv)
{
	long tries = 5;
	const struct ic_option opts[] = { IC_OPTION_LONG("tries", &tries, 1, 1000), IC_OPTIONS_END };
	struct ic_topo_info machine = { .cpu_model = "" };
	char cwd[4096], date[16], cmdline[1024] = "inlines_bench", *cpu = machine.cpu_model;
	size_t k = strlen(cmdline);
	time_t now = time(NULL);
	int rc;

	ic_prog = "inlines_bench";
	if ((rc = ic_options_parse(argc, argv, opts, usage, "--help")) >= 0)
		return rc;
	if (optind >= argc)
		return ic_bad("give the census program (build/cmd/inlines); see --help");
	if (access(argv[optind], X_OK))
		return ic_bad("%s is not a program (build the inlines target)", argv[optind]);
	for (int i = optind + 1; i < argc; i++)
		if (access(argv[i], R_OK))
			return ic_bad("%s: %s", argv[i], strerror(errno));
	elf_version(EV_CURRENT);
	if (!mkdtemp(tmp))
		sw_fail("cannot make a directory under /tmp: %s", strerror(errno));
	snprintf(err_log, sizeof(err_log), "%s/err", tmp);
	snprintf(out_txt, sizeof(out_txt), "%s/out", tmp);
	snprintf(plain, sizeof(plain), "%s/plain.elf", tmp);
	atexit(clean);
	signal(SIGINT, on_signal), signal(SIGTERM, on_signal), signal(SIGHUP, on_signal);
	/* Timing only under the machine lock: it waits for another measurement
	 * and names us, by our command line, to the next. */
	for (int i = 1; i < argc && k < sizeof(cmdline); i++)
		k += (size_t)snprintf(cmdline + k, sizeof(cmdline) - k, " %s", argv[i]);
	sw_measure_begin("inlines_bench", cmdline, getcwd(cwd, sizeof(cwd)) ? cwd : ".");
	/* The CPU model as the bench records it (hwloc), trimmed as the engine
	 * reads a run's (load.c) and ./run.sh history this machine's. */
	if (!ic_topo_open()) {
		ic_topo_describe(&machine);
		ic_topo_close();
	}
	for (k = strlen(cpu); k && strchr(" \t\n", cpu[k - 1]); k--)
		cpu[k - 1] = 0;
	strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&now));
	printf("# inlines: speed and memory (%s, %ld CPUs, %s)\n\n", date, sysconf(_SC_NPROCESSORS_ONLN),
	       cpu + strspn(cpu, " \t"));
	printf("Medians of %ld tries; maximum resident set size of each process (wait4).\n\n", tries);
	libc_table(argv[optind], tries);
	if (argc - optind > 1)
		files_table(argv[optind], argv + optind + 1, argc - optind - 1, tries);
	sw_measure_end();
	return 0;
}
