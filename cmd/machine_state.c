/* machine_state (ms_usage): the machine's state as key=value lines (the sweep keeps them in
 * results/<run>/machine_state.txt); reads only, without root. --root DIR reads DIR/sys and
 * DIR/proc (default: $IC_MACHINE_ROOT, else the real ones); --sample-ms N watches the other
 * processes N ms (0: not sampled). Exit 0, or 2 on a bad argument (one line, nothing printed). */
#include "kit.h"
#include "machine_state_read.h"

#include <stdlib.h>

static const char ms_usage[] = "usage: machine_state [--root DIR] [--sample-ms N]\n";

int main(int argc, char **argv)
{
	const char *root = getenv("IC_MACHINE_ROOT");
	long ms = IC_MSTATE_SAMPLE_MS;
	const struct ic_option opts[] = {
		IC_OPTION_STRING("root", &root),
		IC_OPTION_LONG("sample-ms", &ms, 0, 10000),
		IC_OPTIONS_END,
	};
	struct ic_mstate st;
	int rc;

	ic_prog = "machine_state";
	if ((rc = ic_options_parse(argc, argv, opts, ms_usage, "--help")) >= 0)
		return rc;
	if (optind < argc)
		return ic_bad("unexpected argument '%s' (see --help)", argv[optind]);
	ic_mstate_read(root, (int)ms, &st);
	for (size_t i = 0; i < st.n; i++)
		printf("%s=%s\n", st.item[i].key, st.item[i].value);
	return fflush(stdout) == 0 ? 0 : 1;
}
