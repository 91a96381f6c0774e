/* ic_<op>_inline_nolock: the inline form (queue_inline.h) with the lock
 * replaced by a compiler barrier (ic_nolock_acquire, lock.h): the same list
 * code in every site, no locked instruction. Only correct with one thread on
 * a private queue; it prices the lock apart from the list code. */
#ifndef IC_QUEUE_INLINE_NOLOCK_H
#define IC_QUEUE_INLINE_NOLOCK_H
#define IC_FORM_SUFFIX inline_nolock
#define IC_FORM_ATTR static inline __attribute__((always_inline))
#define IC_FORM_ACQUIRE ic_nolock_acquire
#define IC_FORM_RELEASE ic_nolock_release
#include "queue_body.h"
#undef IC_FORM_RELEASE
#undef IC_FORM_ACQUIRE
#undef IC_FORM_ATTR
#undef IC_FORM_SUFFIX
#endif
