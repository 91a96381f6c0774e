/* ic_<op>_extern: one out-of-line copy in queue_extern.c, its own translation
 * unit, never inlined into callers (noinline, and the project builds without
 * LTO), as the 2004 patch moved the helpers into skbuff.c. */
#ifndef IC_QUEUE_EXTERN_H
#define IC_QUEUE_EXTERN_H
#define IC_FORM_SUFFIX extern
#define IC_FORM_ATTR extern __attribute__((noinline))
#define IC_FORM_DECLARE_ONLY
#include "queue_body.h"
#undef IC_FORM_DECLARE_ONLY
#undef IC_FORM_ATTR
#undef IC_FORM_SUFFIX
#endif
