/* The extern form of your body (body.h): ic_body_extern, one out-of-line
 * copy in the body TU (body_extern.c), never inlined into the sites, whose
 * files declare it and do not include your file at all. */
#ifndef IC_BODY_EXTERN_H
#define IC_BODY_EXTERN_H
#include "body.h"

extern __attribute__((noinline)) uint64_t ic_body_extern(struct ic_body_state *s, uint32_t c);
#endif
