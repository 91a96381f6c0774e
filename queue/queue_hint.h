/* ic_<op>_hint: plain `static inline`; the compiler decides per call site,
 * and may call an out-of-line copy instead (gen/ reports what it did). */
#ifndef IC_QUEUE_HINT_H
#define IC_QUEUE_HINT_H
#define IC_FORM_SUFFIX hint
#define IC_FORM_ATTR static inline
#include "queue_body.h"
#undef IC_FORM_ATTR
#undef IC_FORM_SUFFIX
#endif
