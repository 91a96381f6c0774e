/* The contract between generated call sites (gen/gen.c writes them) and the
 * programs that run them (bench/, tests/). A point is one generated program
 * fragment: N call sites of one operation in one form, layout and order; its
 * pass function runs every site once, in the point's order, on the thread's
 * context. */
#ifndef IC_SITE_H
#define IC_SITE_H

#include <stdint.h>
#include "queue.h"

struct ic_body;

struct ic_site_ctx {
	struct ic_queue *q;        /* the queue the sites work on (shared or private) */
	struct ic_queue *scratch;  /* private to the thread: `mixed` purges it */
	struct ic_node *node;      /* the node this thread holds between sites */
	struct ic_node *anchor;    /* stays on q; insert/append put node next to it
	                            * (insert_unlink, append_unlink; `mixed` inserts
	                            * next to scratch's head instead, see gen/gen.c) */
	uint64_t acc;              /* every site adds a constant of its own (IC_SITE_MARK) */
	uint64_t *tally;           /* per-site run counts; used only with IC_SITE_TALLY */
	void *body;                /* a body's struct ic_body_state (queue/body.h):
	                            * the thread's own, or the one all share */
	uint64_t sink;             /* a body site (gen --body) adds its function's value
	                            * here, not to acc, whose sum gen must know exactly */
};

struct ic_point {
	const char *name;          /* <form>/<op>/<layout>/<order>/<sites> */
	const char *form;          /* the names are gen/point_names.def's */
	const char *op;
	const char *layout;
	const char *order;
	uint32_t sites;            /* N */
	uint32_t seed;             /* for order random */
	uint32_t per_caller;       /* chain: sites per caller function (gen --per-caller) */
	uint32_t filler;           /* filler bytes asked for before each site (gen --filler); 0 = none */
	void (*pass)(struct ic_site_ctx *ctx);   /* runs all N sites once */
	uint64_t acc_per_pass;     /* what one pass adds to ctx->acc (mod 2^64) */
	const struct ic_body *body;   /* the body the sites call (op is its name); NULL: the queue */
};

/* Each site's own mark: a 32-bit constant c added to acc, the function's
 * copy of ctx->acc (gen stores it back once per function). The constant keeps
 * identical-code folding from merging sites; the empty asm keeps the compiler
 * from summing the marks into one add: on x86-64 each is a 7-byte add of an
 * immediate to a register, no load or store (adding the 64-bit constant to
 * memory took 14 bytes, a load and a store). The sum over a pass proves
 * every function ran; the tally (test builds only), every site. Form `mark`
 * is sites that do only this: its time is the mark's. */
#define IC_SITE_ADD(acc, c) do { (acc) += (c); __asm__("" : "+r"(acc)); } while (0)
/* Filler (gen --filler) is one volatile asm per site, written by gen: adds
 * of constants of their own to four register accumulators, folded into acc
 * at the block's end. Code to fetch and decode, four adds a cycle, no memory,
 * nothing foldable; volatile, so it stays before the site's operation. One
 * asm, not an add and an empty asm per constant: gcc took seconds per file
 * of 256 such sites. */
#ifdef IC_SITE_TALLY
#define IC_SITE_MARK(ctx, acc, k, c) do { IC_SITE_ADD(acc, c); (ctx)->tally[(k)]++; } while (0)
#else
#define IC_SITE_MARK(ctx, acc, k, c) IC_SITE_ADD(acc, c)
#endif

#endif /* IC_SITE_H */
