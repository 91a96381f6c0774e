/* The sites' code: each site's constant, its filler block, the queue
 * operations (or the body's function) it calls in its form, and clone's
 * own copies of them; the function that holds them (gen.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"

/* C_k: distinct for every k < 2^30 (k times an odd number is a bijection
 * mod 2^30), and always in [2^30, 2^31), so every mark is the same 32-bit
 * immediate add however small k is. */
static uint32_t gen_site_const(uint32_t k)
{
	return UINT32_C(0x40000000) | ((k * UINT32_C(0x9e3779b1)) & UINT32_C(0x3fffffff));
}

/* The filler's constants are gen_site_const at indices 2^29 + k * adds + i:
 * distinct from each other and from every mark (k < 10^6 < 2^29) by
 * construction. Random draws would collide (in 1 point of 400 at 64 sites
 * x 37 adds, about 170 times at 16,384 sites), and a collision would hide an
 * add from the tests' count of distinct immediates. */
static uint32_t gen_filler_const(const struct gen_args *a, uint32_t k, uint32_t i)
{
	return gen_site_const(GEN_FILLER_BASE + k * a->filler_adds + i);
}

static enum ic_op gen_site_kind(const struct gen_args *a, uint32_t k)
{
	return a->id.op == IC_OP_MIXED ? (enum ic_op)(k % 5) : a->id.op;
}

/* What a site touches, so a function declares only its locals. */
enum { GEN_USES_Q = 1, GEN_USES_ANCHOR = 2, GEN_USES_SCRATCH = 4, GEN_USES_BODY = 8 };

static unsigned gen_site_uses(const struct gen_args *a, uint32_t k)
{
	enum ic_op kind = gen_site_kind(a, k);

	if (a->id.form == IC_FORM_MARK)
		return 0;
	if (a->body_path)
		return GEN_USES_BODY;
	if (a->id.op == IC_OP_MIXED && kind >= IC_OP_INSERT_UNLINK)
		return GEN_USES_SCRATCH;   /* mixed's kinds 2-4: the scratch queue (gen_site) */
	return kind == IC_OP_INSERT_UNLINK || kind == IC_OP_APPEND_UNLINK ? GEN_USES_Q | GEN_USES_ANCHOR
									  : GEN_USES_Q;
}

/* A function's locals; acc is ctx->acc in a register, stored back at the
 * end (gen_epilogue), so a mark is one register add, no load or store; a
 * body's values go to sink, ctx->sink the same way. */
static void gen_locals(FILE *f, const struct gen_args *a, unsigned uses)
{
	if (uses & GEN_USES_BODY) {
		fputs("\tstruct ic_body_state *b = ctx->body;\n\tuint64_t sink = ctx->sink;\n"
		      "\tuint64_t acc = ctx->acc;\n", f);
		return;
	}
	if (uses & GEN_USES_Q)
		fputs("\tstruct ic_queue *q = ctx->q;\n", f);
	if (uses & GEN_USES_ANCHOR)
		fputs("\tstruct ic_node *a = ctx->anchor;\n", f);
	if (uses & GEN_USES_SCRATCH)
		fputs("\tstruct ic_queue *s = ctx->scratch;\n", f);
	if (a->id.form != IC_FORM_MARK)
		fputs("\tstruct ic_node *n = ctx->node;\n", f);
	fputs("\tuint64_t acc = ctx->acc;\n", f);
}

static void gen_epilogue(FILE *f, const struct gen_args *a)
{
	if (a->id.form != IC_FORM_MARK)
		fputs(a->body_path ? "\tctx->sink = sink;\n" : "\tctx->node = n;\n", f);
	fputs("\tctx->acc = acc;\n}\n", f);
}

/* Site k's filler block (site.h says why it is one asm). Each accumulator starts
 * at a constant of the block's own, hidden by an asm so its first value is
 * a 5-byte move and every further constant an add; the adds rotate over
 * the accumulators; they are folded into acc at the block's end, so they
 * never live across a call (a chain caller's callee-saved registers are
 * taken: gcc spilled them to the stack when they lived to the function's
 * end). Volatile alone does not keep the block in place: gcc may move a
 * register-only asm across the queue operation's loads, stores and calls.
 * The first and last asm of the block clobber memory, so no memory access
 * or call crosses them: the filler runs after the previous site and before
 * this site's operation, as written. x86-64 only, as the suite is. */
static void gen_filler(FILE *f, const struct gen_args *a, uint32_t k)
{
	uint32_t m = a->filler_adds < 4 ? a->filler_adds : 4;   /* accumulators: four chains */

	fputs("\t{\n", f);
	for (uint32_t j = 0; j < m; j++)
		fprintf(f, "%s f%" PRIu32 " = 0x%08" PRIx32, j ? "," : "\t\tuint64_t", j,
			gen_filler_const(a, k, j));
	fputs(";\n\t\t__asm__ volatile(\"\"", f);
	for (uint32_t j = 0; j < m; j++)
		fprintf(f, "%s \"+r\"(f%" PRIu32 ")", j ? "," : " :", j);
	fputs(" : : \"memory\");\n", f);
	/* The adds as one asm statement: the instructions gcc emitted for a C
	 * add and an empty asm each, in a fraction of the compile time. */
	if (a->filler_adds > m) {
		fputs("\t\t__asm__ volatile(", f);
		for (uint32_t i = m; i < a->filler_adds; i++)
			fprintf(f, "\n\t\t\t\"addq $0x%08" PRIx32 ", %%%" PRIu32 "\\n\\t\"",
				gen_filler_const(a, k, i), i % m);
		fputs("\n\t\t\t:", f);
		for (uint32_t j = 0; j < m; j++)
			fprintf(f, "%s \"+r\"(f%" PRIu32 ")", j ? "," : "", j);
		fputs(");\n", f);
	}
	fputs("\t\tacc +=", f);
	for (uint32_t j = 0; j < m; j++)
		fprintf(f, "%s f%" PRIu32, j ? " +" : "", j);
	fputs(";\n\t\t__asm__ volatile(\"\" : \"+r\"(acc) : : \"memory\");\n\t}\n", f);
}

/* A queue operation's signature, for clone's copies (queue/queue_body.h). */
struct gen_op_sig {
	const char *op, *ret, *params, *args;
};

enum { GEN_HEAD, GEN_TAIL, GEN_DEQUEUE, GEN_DEQUEUE_TAIL, GEN_INSERT, GEN_APPEND, GEN_UNLINK, GEN_PURGE };
static const struct gen_op_sig gen_op_sigs[] = {   /* ret as a declaration spells it */
	[GEN_HEAD] = { "queue_head", "void ", "struct ic_queue *q, struct ic_node *n", "q, n" },
	[GEN_TAIL] = { "queue_tail", "void ", "struct ic_queue *q, struct ic_node *n", "q, n" },
	[GEN_DEQUEUE] = { "dequeue", "struct ic_node *", "struct ic_queue *q", "q" },
	[GEN_DEQUEUE_TAIL] = { "dequeue_tail", "struct ic_node *", "struct ic_queue *q", "q" },
	[GEN_INSERT] = { "insert", "void ", "struct ic_queue *q, struct ic_node *old, struct ic_node *n",
			 "q, old, n" },
	[GEN_APPEND] = { "append", "void ", "struct ic_queue *q, struct ic_node *old, struct ic_node *n",
			 "q, old, n" },
	[GEN_UNLINK] = { "unlink", "void ", "struct ic_queue *q, struct ic_node *n", "q, n" },
	[GEN_PURGE] = { "purge", "size_t ", "struct ic_queue *q, struct ic_node **out", "q, out" },
};

/* The two queue operations of each site kind, in order. */
static const unsigned char gen_kind_ops[IC_OP_COUNT][IC_POINT_OPS_PER_SITE] = {
	[IC_OP_TAIL_DEQUEUE] = { GEN_TAIL, GEN_DEQUEUE },
	[IC_OP_HEAD_DEQUEUE_TAIL] = { GEN_HEAD, GEN_DEQUEUE_TAIL },
	[IC_OP_INSERT_UNLINK] = { GEN_INSERT, GEN_UNLINK },
	[IC_OP_APPEND_UNLINK] = { GEN_APPEND, GEN_UNLINK },
	[IC_OP_MIXED] = { GEN_TAIL, GEN_PURGE },   /* kind 4 */
};

/* What site k calls for op: the form's ic_<op>_<form>, or clone's own copy;
 * a body's: ic_body_<form>, or clone's own copy <prefix>_k<k>_<name>. */
static const char *gen_call(const struct gen_args *a, uint32_t k, const char *op, char *buf, size_t len)
{
	if (a->body_path)
		op = a->body_name;
	if (a->body_path && a->id.form != IC_FORM_CLONE)
		snprintf(buf, len, "ic_body_%s", ic_form_names[a->id.form]);
	else if (a->id.form == IC_FORM_CLONE)
		snprintf(buf, len, "%s_k%" PRIu32 "_%s", a->cur, k, op);
	else
		snprintf(buf, len, "ic_%s_%s", op, ic_form_names[a->id.form]);
	return buf;
}

/* clone: site k's own out-of-line copies of its operations. */
static void gen_clones(FILE *f, const struct gen_args *a, uint32_t k)
{
	char name[320];

	if (a->id.form != IC_FORM_CLONE)
		return;
	if (a->body_path) {
		fprintf(f, "\nstatic IC_CLONE_ATTR uint64_t %s(struct ic_body_state *s, uint32_t c)\n{\n"
			"\treturn ic_body_inline(s, c);\n}\n", gen_call(a, k, NULL, name, sizeof name));
		return;
	}
	for (unsigned i = 0; i < IC_POINT_OPS_PER_SITE; i++) {
		const struct gen_op_sig *sig = &gen_op_sigs[gen_kind_ops[gen_site_kind(a, k)][i]];

		fprintf(f, "\nstatic IC_CLONE_ATTR %s%s(%s)\n{\n\t%sic_%s_inline(%s);\n}\n", sig->ret,
			gen_call(a, k, sig->op, name, sizeof name), sig->params,
			strcmp(sig->ret, "void ") ? "return " : "", sig->op, sig->args);
	}
}

/* Site k: two queue operations on the thread's node n, then its own mark
 * (form mark: the mark alone).
 *
 * In `mixed`, kinds 0-1 work on the shared q and kinds 2-4 on the thread's
 * private scratch queue, its head as the anchor: on a shared q another
 * thread's dequeue could take n (or an anchor) between insert and unlink,
 * and dequeue/dequeue_tail in any walk order would reach a fixed anchor. */
static void gen_site(FILE *f, const struct gen_args *a, uint32_t k)
{
	enum ic_op kind = gen_site_kind(a, k);
	const char *q = a->id.op == IC_OP_MIXED && kind >= IC_OP_INSERT_UNLINK ? "s" : "q";
	const char *anchor = a->id.op == IC_OP_MIXED ? "&s->head" : "a";
	char c0[320], c1[320];

	if (a->filler_adds)
		gen_filler(f, a, k);
	if (a->id.form == IC_FORM_MARK)
		goto mark;
	if (a->body_path) {
		fprintf(f, "\tsink += %s(b, 0x%08" PRIx32 ");\n", gen_call(a, k, NULL, c0, sizeof c0),
			gen_site_const(k));
		goto mark;
	}
	gen_call(a, k, gen_op_sigs[gen_kind_ops[kind][0]].op, c0, sizeof c0);
	gen_call(a, k, gen_op_sigs[gen_kind_ops[kind][1]].op, c1, sizeof c1);
	switch (kind) {
	case IC_OP_TAIL_DEQUEUE:
	case IC_OP_HEAD_DEQUEUE_TAIL:
		fprintf(f, "\t%s(q, n);\n\tn = %s(q);\n", c0, c1);
		break;
	case IC_OP_INSERT_UNLINK:
	case IC_OP_APPEND_UNLINK:
		fprintf(f, "\t%s(%s, %s, n);\n\t%s(%s, n);\n", c0, q, anchor, c1, q);
		break;
	case IC_OP_MIXED:  /* kind 4: the purge round trip */
	default:
		fprintf(f, "\t%s(s, n);\n\t%s(s, &ctx->node);\n\tn = ctx->node;\n", c0, c1);
		break;
	}
mark:
	fprintf(f, "\tIC_SITE_MARK(ctx, acc, %" PRIu32 ", 0x%08" PRIx32 ");\n", k, gen_site_const(k));
}

void gen_function(FILE *f, const struct gen_args *a, uint32_t j, uint32_t k0, uint32_t k1)
{
	int chain = a->id.layout != IC_LAYOUT_SCATTER;
	unsigned uses = 0;

	for (uint32_t k = k0; k < k1; k++) {
		uses |= gen_site_uses(a, k);
		gen_clones(f, a, k);
	}
	fprintf(f, "\n__attribute__((noinline)) void %s_%s_%" PRIu32 "(struct ic_site_ctx *ctx)\n{\n",
		a->cur, chain ? "caller" : "site", j);
	gen_locals(f, a, uses);
	for (uint32_t k = k0; k < k1; k++) {
		if (chain)
			fprintf(f, "\n\t/* site %" PRIu32 " */\n", k);
		else
			fputc('\n', f);
		gen_site(f, a, k);
	}
	if (chain)
		fputc('\n', f);
	gen_epilogue(f, a);
}

uint64_t gen_acc_per_pass(const struct gen_args *a)
{
	uint64_t acc = 0;

	for (uint32_t k = 0; k < a->id.sites; k++) {
		acc += gen_site_const(k);
		for (uint32_t i = 0; i < a->filler_adds; i++)
			acc += gen_filler_const(a, k, i);
	}
	return acc;
}

