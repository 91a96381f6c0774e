/* ic_<op>_extern_nolock: the extern form (queue_extern.h) with the lock
 * replaced by a compiler barrier (ic_nolock_acquire, lock.h); one out-of-line
 * copy in queue_extern_nolock.c. Only correct with one thread on a private
 * queue; it prices the lock apart from the list code and the call. */
#ifndef IC_QUEUE_EXTERN_NOLOCK_H
#define IC_QUEUE_EXTERN_NOLOCK_H
#define IC_FORM_SUFFIX extern_nolock
#define IC_FORM_ATTR extern __attribute__((noinline))
#define IC_FORM_ACQUIRE ic_nolock_acquire
#define IC_FORM_RELEASE ic_nolock_release
#define IC_FORM_DECLARE_ONLY
#include "queue_body.h"
#undef IC_FORM_DECLARE_ONLY
#undef IC_FORM_RELEASE
#undef IC_FORM_ACQUIRE
#undef IC_FORM_ATTR
#undef IC_FORM_SUFFIX
#endif
