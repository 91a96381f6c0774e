/* The one out-of-line copy of each locked operation. */
#include "queue_extern.h"

#define IC_FORM_SUFFIX extern
#define IC_FORM_ATTR __attribute__((noinline))
#include "queue_body.h"
