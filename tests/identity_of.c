/* identity_of TREE [BODY]: the source identity a run of TREE records
 * (sweep/conf.c's build_source), for test_run_identity.sh. */
#include <stdio.h>

#include "driver.h"

int main(int argc, char **argv)
{
	struct sw_tree tree = { .dir = "build", .cc = "" };
	struct sweep sw = { .top = argc > 1 ? argv[1] : "", .tree = &tree, .n_tree = 1 };

	ic_prog = "identity_of";
	if (argc < 2 || argc > 3)
		return fputs("usage: identity_of TREE [BODY]\n", stderr), 2;
	if (argc == 3)
		sw_set(&sw, "body", argv[2]);
	sw_identity(&sw);
	puts(sw_get(&sw, "build_source"));
	return 0;
}
