/* The hint form of your body (body.h): IC_BODY_FN is ic_body_hint, plain
 * static inline; the compiler decides per site, and codesize (codesize/)
 * reports it. */
#ifndef IC_BODY_HINT_H
#define IC_BODY_HINT_H
#include "body.h"

#define IC_BODY_FN ic_body_hint
#define IC_BODY_SETUP ic__body_setup_unused
static inline uint64_t ic_body_hint(struct ic_body_state *s, uint32_t c);
/* Set-up runs in the body TU only; here it is never emitted. */
static inline void ic__body_setup_unused(struct ic_body_state *s);
#endif
