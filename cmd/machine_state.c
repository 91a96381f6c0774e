/* machine_state: print the machine's state as key=value lines (the sweep
 * keeps them in results/<run>/machine_state.txt).
 *
 * usage: machine_state [--root DIR] [--sample-ms N]
 *   --root DIR     read DIR/sys and DIR/proc instead of /sys and /proc
 *                  (default: $IC_MACHINE_ROOT, else the real ones)
 *   --sample-ms N  watch the other processes N ms (default 200; 0: not sampled)
 * Reads only; needs no root. Exit 0, or 2 on a bad argument (one line, nothing printed).
 */
#include "machine_state_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int bad(const char *msg, const char *arg)
{
	fprintf(stderr, "machine_state: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	return 2;
}

int main(int argc, char **argv)
{
	const char *root = getenv("IC_MACHINE_ROOT");
	long ms = IC_MSTATE_SAMPLE_MS;
	struct ic_mstate st;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--root") && i + 1 < argc) {
			root = argv[++i];
		} else if (!strcmp(argv[i], "--sample-ms") && i + 1 < argc) {
			char *end;
			errno = 0;
			ms = strtol(argv[++i], &end, 10);
			if (errno || *end || end == argv[i] || ms < 0 || ms > 10000)
				return bad("--sample-ms wants a whole number of ms from 0 to 10000", argv[i]);
		} else if (!strcmp(argv[i], "--help")) {
			puts("usage: machine_state [--root DIR] [--sample-ms N]");
			return 0;
		} else {
			return bad("unknown argument or missing value", argv[i]);
		}
	}
	ic_mstate_read(root, (int)ms, &st);
	ic_mstate_print(stdout, &st);
	return fflush(stdout) == 0 ? 0 : 1;
}
