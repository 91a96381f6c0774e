/* topology: what run.sh needs of this machine before anything is built
 * (cores for the default threads, the L1i for --filler auto, the L2 that
 * caps a series' N), from hwloc through topology.c, as key=value lines:
 *   cores, pus, smt (0 or 1), l1i_size, l1i_assoc, l1i_line, l1d_size,
 *   l2_size, l3_size (bytes; ways)
 * A size hwloc does not report is empty, never 0. run.sh compiles this
 * file and topology.c straight with cc (scripts/setup.sh), so it needs no
 * build tree. Exit 0, 1 when hwloc cannot read the machine, 2 on any
 * argument. */
#include <stdio.h>

#include "topology.h"

static void size_line(const char *key, long v)
{
	if (v > 0)
		printf("%s=%ld\n", key, v);
	else
		printf("%s=\n", key);
}

int main(int argc, char **argv)
{
	struct ic_topo_info t;

	if (argc > 1) {
		fprintf(stderr, "topology: takes no arguments, not '%s'\n", argv[1]);
		return 2;
	}
	if (ic_topo_open() != 0 || ic_topo_describe(&t) != 0) {
		fprintf(stderr, "topology: hwloc could not read this machine's topology\n");
		return 1;
	}
	printf("cores=%d\npus=%d\nsmt=%d\n", t.cores, t.pus, t.smt);
	size_line("l1i_size", t.l1i_size);
	size_line("l1i_assoc", t.l1i_assoc);
	size_line("l1i_line", t.l1i_line);
	size_line("l1d_size", t.l1d_size);
	size_line("l2_size", t.l2_size);
	size_line("l3_size", t.l3_size);
	ic_topo_close();
	return fflush(stdout) == 0 ? 0 : 1;
}
