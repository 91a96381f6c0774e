/* The inline form of your body (body.h): IC_BODY_FN is ic_body_inline,
 * forced inline into every site, as the queue's queue_inline.h. */
#ifndef IC_BODY_INLINE_H
#define IC_BODY_INLINE_H
#include "body.h"

#define IC_BODY_FN ic_body_inline
#define IC_BODY_SETUP ic__body_setup_unused
static inline __attribute__((always_inline)) uint64_t ic_body_inline(struct ic_body_state *s, uint32_t c);
/* Set-up runs in the body TU only; here it is never emitted. */
static inline void ic__body_setup_unused(struct ic_body_state *s);
#endif
