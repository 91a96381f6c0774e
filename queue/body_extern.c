/* The body TU: your body's one out-of-line copy, ic_body_extern, its set-up,
 * and ic_body_desc, what the bench needs to give sites a state (body.h).
 * Compiled once per build, as queue_extern.c is, with IC_BODY_FILE (FILE's
 * path, a string literal) and IC_BODY_NAME (its name, a string literal). */
#include "body_extern.h"

#define IC_BODY_FN ic_body_extern
#define IC_BODY_SETUP ic_body_setup
void ic_body_setup(struct ic_body_state *s);

#include IC_BODY_FILE

/* IC_BODY_SHARED_OK: absent 0; defined empty (`#define IC_BODY_SHARED_OK`)
 * it means yes (~(~X + 0) == 0 && ~(~X + 1) == 1 holds only for empty X);
 * otherwise its value. */
#if !defined(IC_BODY_SHARED_OK)
#define IC__BODY_SHARED 0
#elif ~(~IC_BODY_SHARED_OK + 0) == 0 && ~(~IC_BODY_SHARED_OK + 1) == 1
#define IC__BODY_SHARED 1
#else
#define IC__BODY_SHARED ((IC_BODY_SHARED_OK) != 0)
#endif

const struct ic_body ic_body_desc = {
	.name = IC_BODY_NAME,
	.state_size = sizeof(struct ic_body_state),
	.state_align = _Alignof(struct ic_body_state),
	.setup = ic_body_setup,
	.shared_ok = IC__BODY_SHARED,
};
