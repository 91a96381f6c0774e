/* gen: write N distinct call sites of a locked queue operation as C sources.
 *
 *   gen --sites N --form F -o DIR [--op OP | --body FILE]
 *       [--layout chain|scatter] [--order seq|random] [--seed S]
 *       [--per-file K] [--per-caller C] [--filler BYTES]
 *
 * The names (forms, ops, layouts, orders) are point_names.def's.
 * DIR gets sites_<i>.c (i = 0 .. ceil(N/K)-1, K sites each), point.c (the
 * entry point: const struct ic_point <prefix>, see site.h) and manifest.txt.
 * Site k works on the thread's node n = ctx->node with the form's
 * ic_<op>_<form> (queue/queue_<form>.h), then IC_SITE_MARK(ctx, acc, k, C_k)
 * with C_k a 32-bit constant of its own, so no two sites are alike; form
 * `mark` writes the mark alone (the baseline that prices it); form `clone`
 * calls copies of its own, <prefix>_k<k>_<op> (static, IC_CLONE_ATTR of
 * queue/queue_clone.h, each the forced-inline body), written before the
 * function that holds site k:
 *   tail_dequeue       queue_tail(q, n); n = dequeue(q)
 *   head_dequeue_tail  queue_head(q, n); n = dequeue_tail(q)
 *   insert_unlink      insert(q, anchor, n); unlink(q, n)
 *   append_unlink      append(q, anchor, n); unlink(q, n)
 *   mixed              site k does kind k % 5: the four above (2 and 3 on
 *                      the private scratch queue), then 4: queue_tail(scratch,
 *                      n); purge(scratch) -- all eight locked operations.
 * The caller keeps at least one node besides its own on q, so dequeue never
 * returns NULL.
 * With --body FILE (your own function, queue/body.h) the op is FILE's name
 * and site k runs sink += ic_body_<form>(ctx->body, C_k) (clone: its own copy
 * <prefix>_k<k>_<name> of ic_body_inline) before its mark; the site files of
 * forms inline, hint and clone include FILE (by its absolute path), extern's
 * only declare ic_body_extern. The nolock forms are refused: a body has no
 * lock.
 * With --filler B, site k's operation follows a filler block of its own:
 * round(B / 7) (at least 1) distinct 32-bit constants, the first four moved
 * into four register accumulators, the rest added to them in turn (one asm
 * per site, see site.h), the accumulators then added to acc.
 *
 * Same arguments, byte-identical files; each file is written under a
 * temporary name and renamed, so a build never sees half a file. Bad input
 * is reported before anything is written: one line on stderr, exit 2.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "kit.h"

int main(int argc, char **argv)
{
	struct gen_args a;

	gen_parse_args(argc, argv, &a);

	if (ic_mkdir_p(a.dir) != 0)
		ic_die(1, "cannot create directory %s: %s", a.dir, strerror(errno));
	for (uint32_t i = 0; a.part != GEN_PART_POINT && i < gen_file_count(&a); i++)
		gen_sites_file(&a, i);
	if (a.part != GEN_PART_SITES)
		gen_point_file(&a);
	gen_manifest(&a);
	free(a.body_path);
	return 0;
}
