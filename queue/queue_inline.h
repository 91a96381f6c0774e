/* ic_<op>_inline: every call site gets its own copy of the body, forced
 * (always_inline), which is what the 2004 kernel's `inline` meant. */
#ifndef IC_QUEUE_INLINE_H
#define IC_QUEUE_INLINE_H
#define IC_FORM_SUFFIX inline
#define IC_FORM_ATTR static inline __attribute__((always_inline))
#include "queue_body.h"
#undef IC_FORM_ATTR
#undef IC_FORM_SUFFIX
#endif
