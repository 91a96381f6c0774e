/* The one out-of-line copy of each operation without its lock (one thread,
 * private queue only: see queue_extern_nolock.h). */
#include "queue_extern_nolock.h"

#define IC_FORM_SUFFIX extern_nolock
#define IC_FORM_ATTR __attribute__((noinline))
#define IC_FORM_ACQUIRE ic_nolock_acquire
#define IC_FORM_RELEASE ic_nolock_release
#include "queue_body.h"
