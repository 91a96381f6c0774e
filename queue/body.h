/* Your own body (run.sh --body FILE, CMake IC_BODY): the contract, and what
 * the suite makes of it.
 *
 * FILE is one C file, compiled by the suite once per form, each time in a
 * translation unit of its own (nothing else of yours is in it). It holds:
 *
 *   struct ic_body_state { ... };      what the sites work on (fixed name)
 *
 *   uint64_t IC_BODY_FN(struct ic_body_state *s, uint32_t c)
 *   { ... }                            the function, written once; c is the
 *                                      call site's own 32-bit constant
 *
 *   void IC_BODY_SETUP(struct ic_body_state *s)
 *   { ... }                            builds the state, which is zeroed
 *                                      before it is called (required, so
 *                                      that a misspelt one is an error)
 *
 *   #define IC_BODY_SHARED_OK 1        optional: IC_BODY_FN is safe for
 *                                      several threads on one state
 *
 * IC_BODY_FN and IC_BODY_SETUP are names the suite defines per form, with a
 * prototype that carries the form's attributes, so the function head is
 * plain C and a wrong signature is a compile error (conflicting types):
 *   inline  ic_body_inline   static inline, always_inline: every site its copy
 *   hint    ic_body_hint     static inline: the compiler decides per site
 *   extern  ic_body_extern   noinline, in the body TU (body_extern.c) only,
 *                            which the build compiles once, without LTO
 *   clone   ic_body_inline, and gen writes one IC_CLONE_ATTR copy of it per
 *           site (<prefix>_k<k>_<name>), each called by its site
 * IC_BODY_SETUP is ic_body_setup in the body TU and an unused static inline
 * function everywhere else (never emitted; without one, gcc warns there that
 * ic__body_setup_unused is never defined, and the link fails). codesize
 * (codesize/) proves each form in the object code. Each site runs
 *     sink += IC_BODY_FN(state, C_k);  then its mark, IC_SITE_MARK(C_k)
 * so the value is never dead, and the mark's sum still proves that every
 * site ran (site.h; the sink is ctx->sink, apart from acc).
 *
 * Rules that follow from "one file, compiled into every site file":
 *   - anything else at file scope is static (helpers: static inline, so an
 *     unused one costs nothing): a global would be defined in every site
 *     file and the link fails (gen/body_check.sh says so first);
 *   - the state is what the sites share: the bench allocates it (its size
 *     and alignment, on cache lines of its own), zeroes it and runs
 *     IC_BODY_SETUP on the thread that uses it, once per thread (mode
 *     private) or once for all (mode shared, offered only with
 *     IC_BODY_SHARED_OK; without it a body runs private only);
 *   - the sites and the body are compiled with the suite's flags, by default
 *     -mgeneral-regs-only (as the kernel builds): no floating point;
 *   - the body's name is FILE's basename without .c: letters, digits and _,
 *     and not one of the queue's op names; it takes the op's place in every
 *     point name (sites/<form>/<name>/...).
 * The forms are inline, hint, extern, clone and mark (the mark alone, the
 * baseline); the nolock forms are the queue's, a body has no lock to replace.
 * examples/minimal.c is the smallest complete body.
 */
#ifndef IC_BODY_H
#define IC_BODY_H

#include <stddef.h>
#include <stdint.h>

struct ic_body_state;

/* What the bench needs to give sites a state: exported by the body TU. */
struct ic_body {
	const char *name;          /* FILE's basename without .c */
	size_t state_size;         /* sizeof(struct ic_body_state) */
	size_t state_align;        /* _Alignof(struct ic_body_state) */
	void (*setup)(struct ic_body_state *s);   /* IC_BODY_SETUP */
	int shared_ok;             /* IC_BODY_SHARED_OK */
};

extern const struct ic_body ic_body_desc;

#endif /* IC_BODY_H */
